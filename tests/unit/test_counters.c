/* test_counters.c - user counters (bl_report_counter) with Google Benchmark
 * 1.7.1's arithmetic: bl_counter_finish, a launch's counters once its time
 * is known (bl_launch_finish), and benchlab JSON written and read back. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/results.h"
#include "json_round_trip.h"

static void assert_near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-12 * fabs(want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* Google Benchmark's Finish, as measured with Threads(4) and a counter of
 * thread_index() + 1 (sum 10) over 1000 iterations per thread (I = 4000),
 * in S = 2 seconds */
static void finish_is_google_benchmarks(void **state)
{
    (void)state;
    const double sum = 10, iters = 4000, s = 2, t = 4;
    assert_near(bl_counter_finish(sum, 0, iters, s, t), 10);
    assert_near(bl_counter_finish(sum, BL_COUNTER_AVG_THREADS, iters, s, t), 2.5);
    assert_near(bl_counter_finish(sum, BL_COUNTER_ITERATION_INVARIANT, iters, s, t), 40000);
    assert_near(bl_counter_finish(sum, BL_COUNTER_ITERATION_INVARIANT | BL_COUNTER_AVG_THREADS,
                                  iters, s, t),
                10000);
    assert_near(bl_counter_finish(sum, BL_COUNTER_AVG_ITERATIONS, iters, s, t), 10 / 4000.0);
    assert_near(
        bl_counter_finish(sum, BL_COUNTER_AVG_ITERATIONS | BL_COUNTER_AVG_THREADS, iters, s, t),
        10 / 4.0 / 4000);
    /* the threads are summed, then inverted: not a mean of inverses */
    assert_near(bl_counter_finish(sum, BL_COUNTER_INVERT, iters, s, t), 0.1);
    assert_near(bl_counter_finish(sum, BL_COUNTER_RATE, iters, s, t), 5);
    assert_near(bl_counter_finish(sum, BL_COUNTER_RATE | BL_COUNTER_AVG_THREADS, iters, s, t),
                1.25);
    assert_near(
        bl_counter_finish(sum, BL_COUNTER_RATE | BL_COUNTER_ITERATION_INVARIANT, iters, s, t),
        20000);
    assert_near(bl_counter_finish(sum, BL_COUNTER_RATE | BL_COUNTER_INVERT, iters, s, t), 0.2);
    /* both iteration flags: defined by Google Benchmark, x I / I */
    assert_near(bl_counter_finish(sum, BL_COUNTER_ITERATION_INVARIANT | BL_COUNTER_AVG_ITERATIONS,
                                  iters, s, t),
                10);
    /* 0 inverted is inf, as in Google Benchmark (1 / 0), and so is a rate of 0 */
    assert_true(isinf(bl_counter_finish(0, BL_COUNTER_INVERT, iters, s, t)));
    assert_true(bl_counter_finish(0, BL_COUNTER_INVERT, iters, s, t) > 0);
    assert_true(bl_counter_finish(0, BL_COUNTER_RATE | BL_COUNTER_INVERT, iters, s, t) > 1e308);
}

/* A launch of 4 threads, 1000 repetitions each, whose batches ran 100 ns of
 * wall time and 60 ns of one thread's CPU time per op, with counters. */
static bl_results *make_run(int clock)
{
    bl_results *r = bl_results_create();
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, "BenchmarkCounters/threads:4"));
    bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 0, .cpu_ns = 0};
    bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 1000, .ns = 100000, .cpu_ns = 60000};
    bl_launch_add_sample(l, &o);
    bl_launch_add_sample(l, &m);
    bl_launch_add_sample(l, &m);
    l->threads = 4;
    l->loop_iterations = 1000;
    l->counter_clock = clock;
    l->bytes_per_op = 3;
    l->bytes_sum_per_op = 12;
    bl_launch_set_counter(l, "plain", 10, 0, 0);
    bl_launch_set_counter(l, "inverted", 10, 0, BL_COUNTER_INVERT);
    bl_launch_set_counter(l, "total", 10, 0, BL_COUNTER_ITERATION_INVARIANT);
    bl_launch_set_counter(l, "hits/s", 10000, BL_RATE | BL_HIGHER_IS_BETTER, BL_COUNTER_RATE);
    bl_launch_set_counter(l, "ns/hit", 10000, BL_RATE | BL_INVERT | BL_LOWER_IS_BETTER,
                          BL_COUNTER_RATE | BL_COUNTER_INVERT);
    bl_launch_set_counter(l, "never", 0, 0, BL_COUNTER_INVERT); /* 1 / 0: inf */
    bl_launch_set_metric(l, "plain_metric", 7);
    bl_launch_finish(l);
    return r;
}

static const bl_metric *metric(const bl_launch *l, const char *unit)
{
    for (size_t i = 0; i < l->n_metrics; i++)
        if (strcmp(l->metrics[i].unit, unit) == 0)
            return &l->metrics[i];
    fail_msg("no metric %s", unit);
    return NULL;
}

static void launch_counters_over_the_clock(void **state)
{
    (void)state;
    bl_results *r = make_run(BL_CLOCK_CPU);
    const bl_launch *l = &r->benches[0].launches[0];
    assert_near(l->ns_per_op, 100);
    assert_near(bl_launch_cpu_per_op(l), 60);
    /* S: every thread's CPU time, 60 ns x 4 threads x 1000 repetitions */
    assert_near(bl_launch_counter_seconds_per_op(l), 240e-9);
    assert_near(metric(l, "plain")->value, 10);
    assert_near(metric(l, "inverted")->value, 0.1);
    assert_near(metric(l, "total")->value, 10 * 4000.0);
    assert_near(metric(l, "hits/s")->value, 10000 / 240e-6);
    assert_near(metric(l, "ns/hit")->value, 240e-6 / 10000 * 1e9);
    assert_true(metric(l, "plain_metric")->value == 7 && !metric(l, "plain_metric")->is_counter);
    assert_true(isinf(metric(l, "never")->value) && metric(l, "never")->value > 0);
    bl_results_destroy(r);
    /* UseRealTime: S is the wall time the threads ran together, 100 ns x 1000 */
    r = make_run(BL_CLOCK_REAL);
    l = &r->benches[0].launches[0];
    assert_near(bl_launch_counter_seconds_per_op(l), 100e-9);
    assert_near(metric(l, "hits/s")->value, 10000 / 100e-6);
    assert_near(metric(l, "total")->value, 10 * 4000.0);
    bl_results_destroy(r);
}

/* Google Benchmark's JSON of a run, as text */
static char *gbench_json(const bl_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(bl_gbench_json_write(f, r, "suite"), 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void json_keeps_counters(void **state)
{
    (void)state;
    bl_results *in = make_run(BL_CLOCK_CPU);
    char *text = NULL;
    bl_results *out = json_round_trip(in, "c.json", &text);
    assert_non_null(strstr(text, "\"never\":\"inf\""));
    free(text);
    const bl_launch *a = &in->benches[0].launches[0], *b = &out->benches[0].launches[0];
    assert_int_equal(b->loop_iterations, 1000);
    assert_int_equal(b->counter_clock, BL_CLOCK_CPU);
    assert_true(b->bytes_sum_per_op == 12);
    assert_int_equal(b->n_metrics, a->n_metrics);
    for (size_t i = 0; i < a->n_metrics; i++) {
        const bl_metric *x = &a->metrics[i], *y = metric(b, x->unit);
        assert_true(y->value == x->value);
        assert_int_equal(y->is_counter, x->is_counter);
        assert_int_equal(y->flags, x->flags);
        assert_int_equal(y->counter_flags, x->counter_flags);
        if (x->is_counter)
            assert_true(y->counter_sum == x->counter_sum);
    }
    /* and Google Benchmark's outputs from the file are the run's */
    char *j1 = gbench_json(in), *j2 = gbench_json(out);
    assert_non_null(strstr(j1, "\"hits\": "));
    assert_non_null(strstr(j1, "\"hit\": "));
    /* inf: benchlab JSON has it as "inf" (JSON has no infinity), Google
     * Benchmark's JSON as Infinity, as Google Benchmark writes it */
    assert_non_null(strstr(j1, "\"never\": Infinity"));
    /* bytes_per_second: the threads' 12 bytes per op over 240 ns of CPU */
    const char *bps = strstr(j1, "\"bytes_per_second\": ");
    assert_non_null(bps);
    assert_near(strtod(bps + 20, NULL), 12 / 240e-9);
    char *c1 = strstr(j1, "\"benchmarks\""), *c2 = strstr(j2, "\"benchmarks\"");
    assert_non_null(c1);
    assert_non_null(c2);
    assert_string_equal(c1, c2);
    free(j1);
    free(j2);
    bl_results_destroy(in);
    bl_results_destroy(out);
}

/* the flags of metrics that are not counters (bl_report_metric_ex): a rate,
 * an inverted rate, a direction; read back, shown and finished as the run */
static void json_keeps_metric_flags(void **state)
{
    (void)state;
    bl_results *in = make_run(BL_CLOCK_CPU);
    bl_launch *l = &in->benches[0].launches[0];
    bl_launch_set_metric_ex(l, "hit/s", 3, BL_RATE | BL_HIGHER_IS_BETTER);
    bl_launch_set_metric_ex(l, "ns/miss", 2, BL_RATE | BL_INVERT | BL_LOWER_IS_BETTER);
    bl_launch_set_metric_ex(l, "score", 5, BL_HIGHER_IS_BETTER);
    bl_launch_finish(l);
    /* 3 per op of 100 ns in each of 4 threads, and 2 per op: 12.5 ns per miss */
    assert_near(metric(l, "hit/s")->value, 1.2e8);
    assert_near(metric(l, "ns/miss")->value, 12.5);
    bl_results *out = json_round_trip(in, "flags.json", NULL);
    bl_launch *b = &out->benches[0].launches[0];
    const char *units[] = {"hit/s", "ns/miss", "score", "plain_metric"};
    for (size_t i = 0; i < 4; i++) {
        const bl_metric *x = metric(l, units[i]), *y = metric(b, units[i]);
        assert_int_equal(y->flags, x->flags);
        assert_true(y->value == x->value);
        assert_false(y->is_counter);
    }
    assert_true(metric(b, "hit/s")->per_op == 3 && metric(b, "ns/miss")->per_op == 2);
    /* a reader that finishes the launch again gets the same rates */
    bl_launch_finish(b);
    assert_near(metric(b, "hit/s")->value, 1.2e8);
    assert_near(metric(b, "ns/miss")->value, 12.5);
    bl_results_destroy(in);
    bl_results_destroy(out);
}

/* the text of one of benchlab's outputs of r; caller frees */
static char *output_of(const bl_results *r, int which)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    if (which == 0)
        assert_int_equal(bl_gobench_write(f, r), 0);
    else if (which == 1)
        assert_int_equal(bl_csv_write(f, r), 0);
    else
        bl_table_write(f, r, 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

/* kInvert of 0 (1 / 0) is inf in every output of benchlab's own: the Go
 * line and the table say "inf", the CSV too (JSON: json_keeps_counters) */
static void infinite_counter_is_inf_everywhere(void **state)
{
    (void)state;
    bl_results *r = make_run(BL_CLOCK_CPU);
    char *go = output_of(r, 0), *csv = output_of(r, 1), *table = output_of(r, 2);
    if (!strstr(go, "\t       inf never"))
        fail_msg("no inf on the Go line:\n%s", go);
    if (!strstr(csv, "never") || !strstr(csv, ",inf"))
        fail_msg("no inf in the CSV:\n%s", csv);
    if (!strstr(table, "inf never"))
        fail_msg("no inf in the table:\n%s", table);
    assert_null(strstr(go, "nan"));
    assert_null(strstr(table, "nan"));
    /* the Go line reads back as inf */
    double v = 0;
    assert_int_equal(bl_gobench_parse_float("inf", 3, &v), 0);
    assert_true(isinf(v) && v > 0);
    free(go);
    free(csv);
    free(table);
    bl_results_destroy(r);
}

/* a launch from a file written before counters were kept: as read */
static void old_files_read_as_before(void **state)
{
    (void)state;
    bl_results *in = make_run(BL_CLOCK_UNSAID);
    bl_launch *l = &in->benches[0].launches[0];
    l->loop_iterations = 0;
    for (size_t i = 0; i < l->n_metrics; i++)
        l->metrics[i].is_counter = false;
    bl_results *out = json_round_trip(in, "c.json", NULL);
    const bl_launch *b = &out->benches[0].launches[0];
    assert_int_equal(b->counter_clock, BL_CLOCK_UNSAID);
    for (size_t i = 0; i < b->n_metrics; i++)
        assert_false(b->metrics[i].is_counter);
    bl_launch_finish(&out->benches[0].launches[0]); /* a reader may: the values stay */
    assert_near(metric(b, "plain")->value, 10);
    bl_results_destroy(in);
    bl_results_destroy(out);
}

/* One launch of 4 threads whose measured batches carry 180 us of CPU
 * time over 100 us of wall time, on the given CPU clock. */
/* A launch whose measured batch is on CPU for its wall time of 100 us
 * (cpu_ns, the thread's) while the process spent 180 us (proc_cpu_ns, on
 * the process's clock; `old`: as written before proc_cpu_ns, the
 * process's time in cpu_ns). */
static void add_cpu_launch_as(bl_bench_result *b, int cpu_clock, bool old)
{
    bl_launch *l = bl_results_add_launch(b);
    bool proc = cpu_clock == BL_CPU_PROCESS;
    bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 0, .cpu_ns = 0};
    bl_sample m = {.stage = BL_STAGE_MEASURE,
                   .reps = 1000,
                   .ns = 100000,
                   .cpu_ns = proc && !old ? 100000 : 180000,
                   .proc_cpu_ns = proc && !old ? 180000 : -1};
    bl_launch_add_sample(l, &o);
    bl_launch_add_sample(l, &m);
    l->threads = 4;
    l->loop_iterations = 1000;
    l->counter_clock = BL_CLOCK_CPU;
    l->cpu_clock = cpu_clock;
    bl_launch_set_counter(l, "hits/s", 10000, BL_RATE | BL_HIGHER_IS_BETTER, BL_COUNTER_RATE);
    bl_launch_finish(l);
}

static void add_cpu_launch(bl_bench_result *b, int cpu_clock)
{
    add_cpu_launch_as(b, cpu_clock, false);
}

/* .process_cpu (MeasureProcessCPUTime): the process's CPU time per op is
 * not capped at the wall time as one thread's is, counters' rates are over
 * it, benchlab's JSON keeps the clock, and launches of both clocks have no
 * CPU time together */
static void process_cpu_time_is_kept(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *p = bl_results_bench(r, "BenchmarkProcess");
    add_cpu_launch(p, BL_CPU_PROCESS);
    add_cpu_launch(p, BL_CPU_PROCESS);
    const bl_launch *l = &p->launches[0];
    assert_near(bl_launch_cpu_per_op(l), 180);
    /* S: the process's CPU seconds, 180 ns per op of one thread x 4 x 1000 */
    assert_near(bl_launch_counter_seconds_per_op(l), 720e-9);
    assert_near(metric(l, "hits/s")->value, 10000 / 720e-6);
    bl_estimate e;
    assert_int_equal(bl_bench_estimate(p, 0.95, &e), 0);
    assert_int_equal(e.cpu_clock, BL_CPU_PROCESS);
    assert_near(e.cpu_ns, 180);
    /* the thread's clock: one thread is on CPU as long as the wall time at most */
    bl_bench_result *t = bl_results_bench(r, "BenchmarkThread");
    add_cpu_launch(t, BL_CPU_THREAD);
    assert_near(bl_launch_cpu_per_op(&t->launches[0]), 100);
    assert_int_equal(bl_bench_estimate(t, 0.95, &e), 0);
    assert_int_equal(e.cpu_clock, BL_CPU_THREAD);
    /* read back, the clocks are the same, and so are the figures */
    bl_results *out = json_round_trip(r, "c.json", NULL);
    assert_int_equal(out->benches[0].launches[0].cpu_clock, BL_CPU_PROCESS);
    assert_int_equal(out->benches[1].launches[0].cpu_clock, BL_CPU_THREAD);
    assert_near(bl_launch_cpu_per_op(&out->benches[0].launches[0]), 180);
    assert_near(out->benches[0].launches[0].samples[1].proc_cpu_ns, 180000);
    assert_near(out->benches[0].launches[0].samples[1].cpu_ns, 100000);
    /* a process-clock file from before proc_cpu_ns: its cpu_ns is the process's */
    bl_bench_result *old = bl_results_bench(r, "BenchmarkOldProcess");
    add_cpu_launch_as(old, BL_CPU_PROCESS, true);
    assert_near(bl_launch_cpu_per_op(&old->launches[0]), 180);
    /* two clocks in one benchmark (runs merged): no CPU time over them */
    p = bl_results_bench(r, "BenchmarkProcess"); /* adding a benchmark may move it */
    add_cpu_launch(p, BL_CPU_THREAD);
    assert_int_equal(bl_bench_estimate(p, 0.95, &e), 0);
    assert_true(isnan(e.cpu_ns));
    bl_results_destroy(out);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finish_is_google_benchmarks),
        cmocka_unit_test(launch_counters_over_the_clock),
        cmocka_unit_test(json_keeps_counters),
        cmocka_unit_test(json_keeps_metric_flags),
        cmocka_unit_test(infinite_counter_is_inf_everywhere),
        cmocka_unit_test(old_files_read_as_before),
        cmocka_unit_test(process_cpu_time_is_kept),
    };
    return cmocka_run_group_tests_name("counters", tests, NULL, NULL);
}
