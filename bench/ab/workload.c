/*
 * workload.c - builds of one suite that differ by a known amount of work,
 * for bench/ab: compiled with -DEXTRA=0 (the base) and EXTRA=1, 2, 5 (that
 * many percent more steps of a dependent chain: the realised difference
 * is the step count's, +-0 for a chain whose steps all cost the same).
 * Two sizes: 100 steps (about 100 ns) and 2000 steps (about 2 us) per op.
 */
#include <benchlab.h>
#include <stdint.h>

#ifndef EXTRA
#define EXTRA 0
#endif

static uint64_t chain(uint64_t x, int n)
{
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

BENCHLAB(Small)
{
    uint64_t x = 1;
    while (bl_loop(st))
        x = chain(x, 100 + EXTRA);
    bl_do_not_optimize(x);
}

BENCHLAB(Large)
{
    uint64_t x = 1;
    while (bl_loop(st))
        x = chain(x, 2000 * (100 + EXTRA) / 100);
    bl_do_not_optimize(x);
}

BENCHLAB_MAIN()
