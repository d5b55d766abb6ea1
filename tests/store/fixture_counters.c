/*
 * fixture_counters.c - what a Google Benchmark suite carries into a run,
 * for the store's tests that read a stored run back against the run's own
 * JSON: counters with their flags, the sums of 4 threads' bytes and items,
 * rates over the wall time (.real_time, UseRealTime), a label, its own
 * time unit and launch count, the process's CPU clock, and a family's sizes
 * for complexity fits. Kept apart from fixture_store so that the judge and
 * history cases keep their known benchmarks.
 */
#include <benchlab.h>
#include <math.h>

static unsigned spin(unsigned n)
{
    unsigned x = 1;
    for (unsigned i = 0; i < n; i++)
        x = x * 1103515245u + 12345u;
    return x;
}

BENCHLAB(Counters, .threads = BL_THREADS(4), .real_time = 1, .time_unit = "us", .count = 2)
{
    while (bl_loop(st))
        bl_do_not_optimize(spin(200));
    double n = (double)bl_iterations(st);
    bl_set_bytes_per_op(st, 64);
    bl_set_items_per_op(st, 2);
    bl_set_label(st, "four threads");
    bl_report_counter(st, "summed", 1, 0);
    bl_report_counter(st, "averaged", 1, BL_COUNTER_AVG_THREADS);
    bl_report_counter(st, "per_iter", 6 * n, BL_COUNTER_AVG_ITERATIONS);
    bl_report_counter(st, "hits", 3 * n, BL_COUNTER_RATE);
    bl_report_counter(st, "hits inv", 3 * n, BL_COUNTER_RATE | BL_COUNTER_INVERT);
    bl_report_counter(st, "kibi", 1, BL_COUNTER_1024 | BL_COUNTER_AVG_THREADS);
}

static double n_lg_n(double n)
{
    return n * log2(n);
}

/* A Google Benchmark family fitted as one group (.complexity_group) by 2
 * threads, each setting n (the threads' n summed is GB's), with a curve of
 * its own beside the standard ones: sizes a stored run must keep for its
 * fits. */
BENCHLAB(Family, .params = BL_PARAMS(BL_INTS("len", 64, 256, 1024)), .threads = BL_THREADS(2),
         .complexity = BL_COMPLEXITY_AUTO, .complexity_curve = n_lg_n,
         .complexity_curve_name = "n lg n", .complexity_group = "Family")
{
    long long n = bl_param_int(st, "len");
    while (bl_loop(st))
        bl_do_not_optimize(spin((unsigned)n));
    bl_set_complexity_n(st, n);
}

/* The CPU clock (the default for rates), on the process's clock
 * (.process_cpu: cpu_clock and each batch's proc_cpu_ns), and a plain
 * metric beside the counters. */
BENCHLAB(CpuClock, .threads = BL_THREADS(2), .process_cpu = 1)
{
    while (bl_loop(st))
        bl_do_not_optimize(spin(100));
    bl_report_counter(st, "done", (double)bl_iterations(st), BL_COUNTER_RATE);
    bl_report_metric(st, 1.5, "widgets/op");
}

BENCHLAB_MAIN()
