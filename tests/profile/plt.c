/*
 * plt.c - a profilee that spends a visible share of its time in PLT stubs:
 * main calls tiny(), a one-line function of a shared library (built from
 * this file with -DPLT_LIB), through the PLT millions of times.
 * Usage: plt [calls=50000000]
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef PLT_LIB
int tiny(int x)
{
    return x + 1;
}
#else
int tiny(int x);

__attribute__((noinline)) static int loop(long calls)
{
    int x = 0;
    for (long i = 0; i < calls; i++)
        x = tiny(x);
    return x;
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 50000000;
    printf("plt: done %d\n", loop(calls) & 1);
    return 0;
}
#endif
