/*
 * test_table.c - `run`'s summary table (bl_table_write): the user metrics
 * with their median and spread over the launches, and the on-CPU time
 * beside the wall time with its own spread (and the same in the Markdown
 * and JSON).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/results.h"
#include "sim_data.h"

static double flat(size_t i, size_t n)
{
    (void)i, (void)n;
    return 1;
}

static char *table_of(const bl_results *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    bl_table_write(f, r, 0);
    fclose(f);
    return buf;
}

/* r in Markdown, and in benchlab JSON; the caller frees the text. */
static char *markdown_of(const bl_results *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(bl_markdown_write(f, r), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static char *json_of(const bl_results *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(bl_json_write(f, r), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* The line of the table that starts with `name`. */
static char *line_of(const char *table, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = table; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && p[n] == ' ') {
            const char *end = strchr(p, '\n');
            return strndup(p, end ? (size_t)(end - p) : strlen(p));
        }
    return NULL;
}

static void add_metric(bl_launch *l, const char *unit, double value, unsigned flags)
{
    l->metrics = realloc(l->metrics, (l->n_metrics + 1) * sizeof *l->metrics);
    assert_non_null(l->metrics);
    l->metrics[l->n_metrics++] = (bl_metric){.unit = strdup(unit), .value = value, .flags = flags};
}

static void metrics_show_their_spread_over_launches_as_time_does(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkScore");
    /* six launches: score 90..110 (median 100, spread 20%), misses 10 each */
    static const double score[] = {100, 110, 90, 100, 105, 95};
    for (int k = 0; k < 6; k++) {
        sim_add_launch(b, 20, 100, 1, flat);
        add_metric(&b->launches[k], "score", score[k], BL_HIGHER_IS_BETTER);
        add_metric(&b->launches[k], "misses/op", 10, 0);
    }
    /* one launch: no spread to give */
    bl_bench_result *one = bl_results_bench(r, "BenchmarkOnce");
    sim_add_launch(one, 20, 100, 1, flat);
    add_metric(&one->launches[0], "score", 7, 0);
    char *t = table_of(r);
    char *row = line_of(t, "Score");
    if (!row || !strstr(row, "  100.0 score\xe2\x86\x91 (20%), 10.00 misses/op (0.00%)"))
        fail_msg("no metrics with spread in:\n%s", t);
    /* the time's own spread, the same rule: (max - min) / median */
    char *once = line_of(t, "Once");
    assert_non_null(once);
    assert_non_null(strstr(once, "  7.000 score"));
    assert_null(strstr(once, "("));
    assert_non_null(strstr(t, "\nmetrics: median over launches (in parentheses their spread, as "
                              "time/op's); \xe2\x86\x91 higher is better"));
    free(row);
    free(once);
    free(t);
    bl_results_destroy(r);
}

/* On-CPU time beside the wall time, as Google Benchmark's CPU column. */
static void cpu_time_is_a_column_when_measured(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkWaits");
    for (int k = 0; k < 6; k++) {
        bl_launch *l = bl_results_add_launch(b);
        for (int i = 0; i < 20; i++) {
            /* 1 us of clock reads on the CPU clock; on CPU for 30 of 50 ns/op */
            bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 1000, .cpu_ns = 2000};
            bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 1000, .ns = 51000, .cpu_ns = 32000};
            bl_launch_add_sample(l, &o);
            bl_launch_add_sample(l, &m);
        }
        bl_launch_finish(l);
    }
    char *t = table_of(r);
    char *row = line_of(t, "Waits");
    assert_non_null(strstr(t, " time/op    cpu/op  "));
    if (!row || !strstr(row, "  50.00 ns  30.00 ns  "))
        fail_msg("no cpu/op of 30 ns in:\n%s", t);
    free(row);
    free(t);
    bl_results_destroy(r);
    /* results without CPU time (the Go format): no column */
    r = bl_results_create();
    sim_add_launch(bl_results_bench(r, "BenchmarkGo"), 20, 100, 1, flat);
    t = table_of(r);
    assert_null(strstr(t, "cpu/op"));
    free(t);
    bl_results_destroy(r);
}

/* Six launches steady in wall time (50 ns/op) whose on-CPU time per op is
 * cpu[k]: median 30 ns, range 27..33, so a cpu spread of 20%. */
static bl_results *cpu_spread_results(void)
{
    static const double cpu[] = {30, 33, 27, 30, 31.5, 28.5};
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkWaits");
    for (int k = 0; k < 6; k++) {
        bl_launch *l = bl_results_add_launch(b);
        for (int i = 0; i < 20; i++) {
            bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 1000, .cpu_ns = 2000};
            bl_sample m = {.stage = BL_STAGE_MEASURE,
                           .reps = 1000,
                           .ns = 51000,
                           .cpu_ns = 1000 * (cpu[k] + 1) + 1000};
            bl_launch_add_sample(l, &o);
            bl_launch_add_sample(l, &m);
        }
        bl_launch_finish(l);
    }
    return r;
}

/* cpu/op has a spread of its own, by the time's estimator: (max - min) /
 * median over the launches, in the table, the Markdown and the JSON. */
static void cpu_time_shows_its_spread_as_time_does(void **state)
{
    (void)state;
    bl_results *r = cpu_spread_results();
    bl_estimate e;
    assert_int_equal(bl_bench_estimate(&r->benches[0], 0.95, &e), 0);
    assert_true(fabs(e.cpu_ns - 30) < 1e-9);
    assert_true(fabs(e.cpu_spread - 0.2) < 1e-9);
    assert_true(fabs(e.spread) < 1e-9); /* the wall time did not move */
    char *t = table_of(r);
    char *row = line_of(t, "Waits");
    assert_non_null(strstr(t, "  spread  cpu spread  batches"));
    /* launches, spread, cpu spread, batches */
    if (!row || !strstr(row, "  6   0.00%         20%  120/120  "))
        fail_msg("no cpu spread of 20%% beside the time's 0.00%% in:\n%s", t);
    free(row);
    free(t);
    /* Markdown: both spreads, cpu/op between them and the overhead */
    char *md = markdown_of(r);
    assert_non_null(strstr(md, "| benchmark | time/op | 95% CI | spread | cpu/op | cpu spread | "
                               "overhead |"));
    if (!strstr(md, " | 0.00% | 30.00 ns | 20% | "))
        fail_msg("no cpu/op and its spread in:\n%s", md);
    free(md);
    /* JSON: the estimate carries both */
    char *js = json_of(r);
    if (!strstr(js, "\"cpu_ns_per_op\":30,") || !strstr(js, "\"cpu_spread\":0.2,"))
        fail_msg("no cpu_ns_per_op and cpu_spread in the estimate:\n%s", js);
    free(js);
    bl_results_destroy(r);
    /* one launch: no spread to give, "-" as the time's */
    r = bl_results_create();
    bl_bench_result *one = bl_results_bench(r, "BenchmarkOnce");
    bl_launch *l = bl_results_add_launch(one);
    for (int i = 0; i < 20; i++) {
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 1000, .cpu_ns = 2000};
        bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 1000, .ns = 51000, .cpu_ns = 32000};
        bl_launch_add_sample(l, &o);
        bl_launch_add_sample(l, &m);
    }
    bl_launch_finish(l);
    assert_int_equal(bl_bench_estimate(one, 0.95, &e), 0);
    assert_true(isnan(e.cpu_spread));
    t = table_of(r);
    row = line_of(t, "Once");
    if (!row || !strstr(row, "  1       -           -  "))
        fail_msg("want '-' for both spreads of one launch in:\n%s", t);
    free(row);
    free(t);
    bl_results_destroy(r);
}

/* A spread over a median below half a cycle is noise over zero (spdlog's
 * sub-ns benchmarks showed 983018%): the range in ns instead, said in a
 * legend; the same in the Markdown. */
static void spread_below_half_a_cycle_is_in_ns(void **state)
{
    (void)state;
    bl_results *r = sim_sub_ns_run();
    bl_estimate e;
    assert_int_equal(bl_bench_estimate(&r->benches[0], 0.95, &e), 0);
    assert_true(e.ref_cycles > 0.5 && e.median < 0.001 && e.spread > 10000);
    char *t = table_of(r);
    char *row = line_of(t, "SubNs");
    /* launches, spread, cpu spread, batches */
    if (!row || !strstr(row, "  5  0.600 ns    0.600 ns  100/100  "))
        fail_msg("want both spreads as 0.600 ns in:\n%s", t);
    assert_null(strstr(t, "000%")); /* 3000000% */
    assert_non_null(strstr(t, "\nspread in ns: the launches' median is below half a core cycle"));
    free(row);
    free(t);
    char *md = markdown_of(r);
    if (!strstr(md, " | 0.600 ns | ") || strstr(md, "000%") ||
        !strstr(md, "\nspread in ns: the launches' median is below half a core cycle"))
        fail_msg("want the spreads in ns in:\n%s", md);
    free(md);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(metrics_show_their_spread_over_launches_as_time_does),
        cmocka_unit_test(cpu_time_is_a_column_when_measured),
        cmocka_unit_test(cpu_time_shows_its_spread_as_time_does),
        cmocka_unit_test(spread_below_half_a_cycle_is_in_ns),
    };
    return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
