/*
 * fixture_ab.c - two builds of one suite for `benchlab ab`, compiled twice:
 * OLD with AB_NEW=0, NEW with AB_NEW=1. In NEW, Work does twice the work
 * (a known factor), Crashy crashes after 50000 repetitions (past the pilot,
 * and reached by every NEW worker even under ASan on a loaded machine,
 * where 300000 was not), and each build
 * has a benchmark the other lacks. Same is the same in both.
 */
#include <benchlab.h>
#include <signal.h>
#include <stdint.h>

#ifndef AB_NEW
#define AB_NEW 0
#endif

/* A chain of dependent multiply-adds the compiler cannot shorten. */
static uint64_t chain(uint64_t x, int n)
{
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

BENCHLAB(Work)
{
    uint64_t x = 1;
    while (bl_loop(st))
        x = chain(x, AB_NEW ? 200 : 100);
    bl_do_not_optimize(x);
}

BENCHLAB(Same)
{
    uint64_t x = 1;
    while (bl_loop(st))
        x = chain(x, 100);
    bl_do_not_optimize(x);
}

BENCHLAB(Crashy)
{
    uint64_t x = 1, n = 0;
    while (bl_loop(st)) {
        x = chain(x, 100);
        if (AB_NEW && ++n == 50000)
            raise(SIGSEGV);
    }
    bl_do_not_optimize(x);
}

#if AB_NEW
BENCHLAB(OnlyNew)
#else
BENCHLAB(OnlyOld)
#endif
{
    uint64_t x = 1;
    while (bl_loop(st))
        x = chain(x, 10);
    bl_do_not_optimize(x);
}

BENCHLAB_MAIN()
