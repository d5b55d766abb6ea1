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

/* Nanoseconds on a clock. */
static long long clock_ns(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* A busy wait of a known duration: the only timed work. */
static void spin_ns(long ns)
{
    long long start = clock_ns(CLOCK_MONOTONIC);
    while (clock_ns(CLOCK_MONOTONIC) - start < ns) {
    }
}

/*
 * The untimed work measured by the fixture itself, on the wall clock and
 * on the thread's CPU clock, per piece (a per-op setup, teardown or pause):
 * were any piece timed, ns/op and cpu-ns/op would hold at least one
 * piece's worth, whatever the load. The tests compare the two in the same
 * batch (tests/engine/e2e.sh setup-op-and-pause-untimed) instead of a band
 * on ns/op.
 */
static long long untimed_wall, untimed_cpu, untimed_pieces;

static void untimed_spin(long ns)
{
    long long w = clock_ns(CLOCK_MONOTONIC), c = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    spin_ns(ns);
    untimed_cpu += clock_ns(CLOCK_THREAD_CPUTIME_ID) - c;
    untimed_wall += clock_ns(CLOCK_MONOTONIC) - w;
    untimed_pieces++;
}

static void report_untimed(bl_state *st)
{
    if (untimed_pieces) {
        bl_report_metric(st, (double)untimed_wall / (double)untimed_pieces, "untimed-ns");
        bl_report_metric(st, (double)untimed_cpu / (double)untimed_pieces, "untimed-cpu-ns");
    }
    untimed_wall = untimed_cpu = untimed_pieces = 0;
}

static void slow_setup(bl_state *st)
{
    (void)st;
    untimed_spin(20000); /* 20 µs of setup per op: must not be counted */
}

/* 2 µs of work per op, with 20 µs of per-op setup outside timing. */
BENCHLAB(SetupOp, .setup_op = slow_setup, .teardown_op = slow_setup)
{
    while (bl_loop(st)) {
        spin_ns(2000);
    }
    report_untimed(st);
}

/* 2 µs of work per op, with 20 µs paused per op. */
BENCHLAB(Paused)
{
    while (bl_loop(st)) {
        bl_pause(st);
        untimed_spin(20000);
        bl_resume(st);
        spin_ns(2000);
    }
    report_untimed(st);
}

/* A macrobenchmark: each 50 µs invocation timed on its own. The spin is
 * driven by the wall clock, so an invocation takes at least 50 µs and two
 * take at least 100 µs, whatever the load. */
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
