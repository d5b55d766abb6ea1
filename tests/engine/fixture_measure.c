/*
 * fixture_measure.c - benchmarks with a known answer for the runner's
 * arithmetic: an empty body (must report ~0, never negative and never the
 * loop overhead itself), parameters (names and values), user metrics,
 * bytes per op, per-op setup/teardown and pause/resume (must not be timed),
 * global setup/cleanup.
 */
#include <benchlab.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

BENCHLAB(Empty)
{
    while (bl_loop(st)) {
    }
}

BENCHLAB(Params, .params = BL_PARAMS(BL_INTS("size", 1, 22), BL_STRS("mode", "a b", "c/d")))
{
    long long size = bl_param_int(st, "size");
    const char *mode = bl_param_str(st, "mode");
    while (bl_loop(st)) {
        bl_do_not_optimize(size);
    }
    bl_report_metric(st, (double)size, "size-echo");
    bl_report_metric(st, (double)strlen(mode), "modelen");
}

BENCHLAB(BadParam)
{
    bl_param_int(st, "nope");
    while (bl_loop(st)) {
    }
}

/* A busy wait of a known duration: the only timed work. */
static void spin_ns(long ns)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

static void slow_setup(bl_state *st)
{
    (void)st;
    spin_ns(20000); /* 20 µs of setup per op: must not be counted */
}

/* 2 µs of work per op, with 20 µs of per-op setup outside timing. */
BENCHLAB(SetupOp, .setup_op = slow_setup, .teardown_op = slow_setup)
{
    while (bl_loop(st)) {
        spin_ns(2000);
    }
}

/* 2 µs of work per op, with 20 µs paused per op. */
BENCHLAB(Paused)
{
    while (bl_loop(st)) {
        bl_pause(st);
        spin_ns(20000);
        bl_resume(st);
        spin_ns(2000);
    }
}

/* A macrobenchmark: each 50 µs invocation timed on its own. */
BENCHLAB(Macro, .macro = 1)
{
    while (bl_loop(st)) {
        spin_ns(50000);
    }
}

static int global_state;
static void gsetup(bl_state *st)
{
    global_state = 42;
    bl_set_user(st, &global_state);
}
static void gcleanup(bl_state *st)
{
    (void)st;
    /* visible in the captured stderr, proving cleanup ran */
    fprintf(stderr, "cleanup ran with %d\n", global_state);
}

BENCHLAB(Global, .global_setup = gsetup, .global_cleanup = gcleanup)
{
    int *p = bl_user(st);
    if (!p || *p != 42)
        bl_fail(st, "global setup did not run first");
    while (bl_loop(st)) {
        bl_do_not_optimize(*p);
    }
    bl_set_bytes_per_op(st, 1000.0);
}

BENCHLAB_MAIN()
