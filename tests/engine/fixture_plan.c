/*
 * fixture_plan.c - benchmarks that set their own plan, for plan.sh:
 *
 *   Fixed        .iterations = 1000: bl_max_iterations() is 1000 before the
 *                loop, the loop runs exactly 1000 times in all
 *   FixedWarm    .iterations = 10 with .warmup_s = 0.05: warm-up batches of
 *                10 for at least 50 ms, then one measurement of 10
 *   Adaptive     no plan: bl_max_iterations() is 0 until the loop ends,
 *                then what it ran
 *   Manual       .manual_time: each repetition reports 1 ms, whatever the
 *                clock says
 *   ManualThreads the same in 2 threads, each reporting its own time
 *   ManualSilent .manual_time, but the body reports nothing
 *   ManualStray  bl_set_iteration_time() without .manual_time
 *   ManualHuge   .manual_time, 1e300 s a repetition: fails, naming it
 *   ManualMs     .manual_time, 1 ms a repetition, .time_unit = "ms": 1 in
 *                Google Benchmark's outputs
 *   BadUnit      .time_unit = "hours": fails, naming it
 *   Budget       .time_s = 0.3, .count = 3: three launches of 0.1 s each
 *   Default      none of these: the run's --time and --count
 *
 * Budget and Default report the budget their worker got (its
 * --benchlab-time, read from /proc/self/cmdline: a fixture's liberty).
 */
#include <benchlab.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The --benchlab-time this worker was given, in seconds; 0 when none. */
static double worker_budget(void)
{
    FILE *f = fopen("/proc/self/cmdline", "rb");
    char buf[4096], *prev = NULL;
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    for (char *p = buf; p < buf + n; p += strlen(p) + 1) {
        if (prev && strcmp(prev, "--benchlab-time") == 0)
            return strtod(p, NULL);
        prev = p;
    }
    return 0;
}

BENCHLAB(Fixed, .iterations = 1000)
{
    if (bl_max_iterations(st) != 1000)
        bl_fail(st, "bl_max_iterations() is not 1000 before the loop");
    unsigned long long n = 0;
    while (bl_loop(st))
        bl_do_not_optimize(++n);
    if (n != 1000 || bl_iterations(st) != 1000 || bl_max_iterations(st) != 1000)
        bl_fail(st, "the loop did not run exactly 1000 times");
    bl_report_metric(st, (double)n, "loop_reps");
}

BENCHLAB(FixedWarm, .iterations = 10, .warmup_s = 0.05)
{
    double t0 = now_ms();
    unsigned long long n = 0;
    while (bl_loop(st))
        bl_do_not_optimize(++n);
    bl_report_metric(st, (double)n, "loop_reps");
    bl_report_metric(st, now_ms() - t0, "loop_ms");
}

BENCHLAB(Adaptive)
{
    if (bl_max_iterations(st) != 0)
        bl_fail(st, "bl_max_iterations() is known before an adaptive loop");
    unsigned long long n = 0;
    while (bl_loop(st))
        bl_do_not_optimize(++n);
    if (bl_max_iterations(st) != n)
        bl_fail(st, "bl_max_iterations() after the loop is not what it ran");
}

BENCHLAB(Manual, .manual_time = 1)
{
    unsigned long long n = 0;
    while (bl_loop(st)) {
        bl_do_not_optimize(++n);
        bl_set_iteration_time(st, 1e-3);
    }
}

BENCHLAB(ManualThreads, .manual_time = 1, .threads = BL_THREADS(2))
{
    unsigned long long n = 0;
    double each = bl_thread_index(st) == 0 ? 1e-3 : 3e-3; /* their mean: 2 ms */
    while (bl_loop(st)) {
        bl_do_not_optimize(++n);
        bl_set_iteration_time(st, each);
    }
}

BENCHLAB(ManualMs, .manual_time = 1, .time_unit = "ms")
{
    while (bl_loop(st))
        bl_set_iteration_time(st, 1e-3);
}

/* 1e300 s a repetition: past any batch's time in ns */
BENCHLAB(ManualHuge, .manual_time = 1)
{
    while (bl_loop(st))
        bl_set_iteration_time(st, 1e300);
}

BENCHLAB(BadUnit, .time_unit = "hours")
{
    while (bl_loop(st)) {
    }
}

BENCHLAB(ManualSilent, .manual_time = 1)
{
    unsigned long long n = 0;
    while (bl_loop(st))
        bl_do_not_optimize(++n);
}

BENCHLAB(ManualStray)
{
    while (bl_loop(st))
        bl_set_iteration_time(st, 1e-3);
}

BENCHLAB(Budget, .time_s = 0.3, .count = 3)
{
    unsigned long long n = 0;
    while (bl_loop(st))
        bl_do_not_optimize(++n);
    bl_report_metric(st, worker_budget(), "budget_s");
}

BENCHLAB(Default)
{
    unsigned long long n = 0;
    while (bl_loop(st))
        bl_do_not_optimize(++n);
    bl_report_metric(st, worker_budget(), "budget_s");
}

BENCHLAB(BadPlan, .iterations = -5)
{
    while (bl_loop(st)) {
    }
}

BENCHLAB_MAIN()
