/*
 * mangled.c - a C program whose hot function carries a C++ mangled name
 * (ns::spin(unsigned long)), so the demangling is tested without a C++
 * compiler.
 */
#include <stdio.h>

unsigned long spin_mangled(unsigned long n) __asm__("_ZN2ns4spinEm");

__attribute__((noinline)) unsigned long spin_mangled(unsigned long n)
{
    unsigned long x = n;
    for (unsigned long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1;
    return x;
}

int main(void)
{
    volatile unsigned long s = spin_mangled(300000000ul);
    printf("%lu\n", s & 1);
    return 0;
}
