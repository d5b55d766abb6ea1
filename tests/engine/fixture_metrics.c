/*
 * fixture_metrics.c - user metrics with a direction and rates, for the
 * end-to-end tests (e2e.sh, cases metric-*): the Unit metadata lines the
 * runner writes, the rates it computes, the flags it refuses, and that
 * `benchlab compare --fail-on-regression` honours better=higher.
 * FIXTURE_SCORE and FIXTURE_MISSES (environment) set the reported values,
 * so that two runs can differ on purpose. The suite declares its name in
 * BENCHLAB_MAIN (case suite-name-survives-copies).
 */
#include <benchlab.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static double env_or(const char *name, double dflt)
{
    const char *v = getenv(name);
    return v ? strtod(v, NULL) : dflt;
}

static void work(bl_state *st)
{
    uint64_t x = 1;
    while (bl_loop(st)) {
        for (int i = 0; i < 8; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
        bl_do_not_optimize(x);
    }
}

BENCHLAB(Score)
{
    work(st);
    bl_report_metric_ex(st, env_or("FIXTURE_SCORE", 100), "score", BL_HIGHER_IS_BETTER);
    bl_report_metric_ex(st, env_or("FIXTURE_MISSES", 10), "misses/op", BL_LOWER_IS_BETTER);
    bl_report_metric(st, 7, "plain/op"); /* no direction: no Unit line */
}

/* 3 hits per repetition, written per second from the measured time */
BENCHLAB(Hits)
{
    work(st);
    bl_report_metric_ex(st, 3, "hits/s", BL_RATE);
}

BENCHLAB(HitsThreads, .threads = BL_THREADS(2))
{
    work(st);
    bl_report_metric_ex(st, 3, "hits/s", BL_RATE);
}

/* Google Benchmark's counter flags through the C API (bl_report_counter):
 * totals over the repetitions run, as state.counters holds them; rates
 * over the wall time (.real_time, UseRealTime) */
BENCHLAB(Counters, .threads = BL_THREADS(2), .real_time = 1)
{
    work(st);
    double n = (double)bl_iterations(st);
    bl_report_counter(st, "summed", 1, 0);
    bl_report_counter(st, "averaged", 1, BL_COUNTER_AVG_THREADS);
    bl_report_counter(st, "per_iter", 6 * n, BL_COUNTER_AVG_ITERATIONS);
    bl_report_counter(st, "invariant", 2, BL_COUNTER_ITERATION_INVARIANT | BL_COUNTER_AVG_THREADS);
    bl_report_counter(st, "hits", 3 * n, BL_COUNTER_RATE);
    bl_report_counter(st, "hits inv", 3 * n, BL_COUNTER_RATE | BL_COUNTER_INVERT);
    bl_report_counter(st, "half", 2, BL_COUNTER_INVERT | BL_COUNTER_AVG_THREADS);
    bl_report_counter(st, "kibi", 1, BL_COUNTER_1024 | BL_COUNTER_AVG_THREADS);
}

BENCHLAB(CounterBeforeLoop)
{
    bl_report_counter(st, "early", 1, 0);
    work(st);
}

/* both iteration flags: x I / I, as Google Benchmark's Finish */
BENCHLAB(CounterBothIterationFlags)
{
    work(st);
    bl_report_counter(st, "both", 3, BL_COUNTER_AVG_ITERATIONS | BL_COUNTER_ITERATION_INVARIANT);
}

BENCHLAB(BothWays)
{
    work(st);
    bl_report_metric_ex(st, 1, "x", BL_LOWER_IS_BETTER | BL_HIGHER_IS_BETTER);
}

BENCHLAB(RateWithoutPerSecond)
{
    work(st);
    bl_report_metric_ex(st, 1, "hits", BL_RATE);
}

/* counts that are not counts, and a value that is not a number */
BENCHLAB(NegativeBytes)
{
    work(st);
    bl_set_bytes_per_op(st, -64);
}

BENCHLAB(NanItems)
{
    work(st);
    bl_set_items_per_op(st, NAN);
}

BENCHLAB(InfiniteMetric)
{
    work(st);
    bl_report_metric(st, INFINITY, "ratio");
}

/* the same unit declared both ways by two benchmarks: the first stays */
BENCHLAB(ClashA)
{
    work(st);
    bl_report_metric_ex(st, 1, "clash", BL_HIGHER_IS_BETTER);
}

BENCHLAB(ClashB)
{
    work(st);
    bl_report_metric_ex(st, 1, "clash", BL_LOWER_IS_BETTER);
}

/* the suite names itself (case suite-name-survives-copies) */
BENCHLAB_MAIN("metrics-suite")
