/*
 * deep.c - a profilee whose stack is deep: recurse(n) keeps a 1 KB array in
 * each of its frames and spins at the bottom, so a sample's stack is about
 * n KB. Built without frame pointers, only a stack copy that holds all of
 * it unwinds to main. Usage: deep [depth=40] [rounds=300]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t spin(uint64_t n)
{
    uint64_t x = n;
    for (uint64_t i = 0; i < n * 16; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

__attribute__((noinline)) static uint64_t recurse(int depth, uint64_t n)
{
    volatile char pad[1024];
    pad[0] = (char)depth;
    pad[sizeof pad - 1] = (char)n;
    uint64_t r = depth > 0 ? recurse(depth - 1, n) : spin(n);
    __asm__ volatile("" ::: "memory"); /* no tail call */
    return r + (uint64_t)pad[0] + (uint64_t)pad[sizeof pad - 1];
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 40;
    long rounds = argc > 2 ? atol(argv[2]) : 300;
    for (long r = 0; r < rounds; r++)
        sink += recurse(depth, 20000);
    printf("deep: done %llu\n", (unsigned long long)(sink & 1));
    return 0;
}
