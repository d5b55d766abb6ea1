/*
 * fixture_faults.c - a suite whose benchmarks misbehave in every way the
 * runner must survive: a crash, a hang, junk on stdout and stderr, exit(0)
 * inside the loop, a failure, a skip, an early break, a benchmark that
 * never loops. Between them sit healthy benchmarks, which must still be
 * measured and reported.
 */
#include <benchlab.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

BENCHLAB(AaHealthy)
{
    unsigned x = 1;
    while (bl_loop(st)) {
        /* a dependent chain of tens of ns: well above the loop's overhead,
         * so the time, spread and interval are never a subtraction's 0 */
        for (int i = 0; i < 32; i++) {
            x = x * 1664525u + 1013904223u;
            bl_do_not_optimize(x);
        }
    }
}

BENCHLAB(Crash)
{
    while (bl_loop(st)) {
        raise(SIGSEGV);
    }
}

BENCHLAB(Hang)
{
    while (bl_loop(st)) {
        for (;;)
            pause();
    }
}

BENCHLAB(Junk)
{
    /* garbage that looks like results, on the benchmark's own stdout */
    printf("BenchmarkFake 1 1 ns/op\ngarbage \x01\x02 line\n");
    fflush(stdout);
    fprintf(stderr, "some diagnostic on stderr\n");
    unsigned x = 1;
    while (bl_loop(st)) {
        x ^= x << 3;
        bl_do_not_optimize(x);
    }
}

BENCHLAB(ExitZero)
{
    while (bl_loop(st)) {
        exit(0);
    }
}

BENCHLAB(Fails)
{
    bl_fail(st, "the fixture could not open /nonexistent");
    while (bl_loop(st)) {
    }
}

BENCHLAB(Skips)
{
    bl_skip(st, "needs hardware this machine lacks");
    while (bl_loop(st)) {
    }
}

BENCHLAB(BreaksEarly)
{
    while (bl_loop(st)) {
        break;
    }
}

BENCHLAB(NeverLoops)
{
    (void)st;
}

BENCHLAB(ZzHealthy)
{
    unsigned x = 7;
    while (bl_loop(st)) {
        for (int i = 0; i < 32; i++) { /* as AaHealthy's */
            x = x * 22695477u + 1u;
            bl_do_not_optimize(x);
        }
    }
}

BENCHLAB_MAIN()
