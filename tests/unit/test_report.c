/* test_report.c - results read back from files, and the HTML report. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assert_close.h"
#include "benchlab/format.h"
#include "benchlab/judge.h"
#include "benchlab/report.h"
#include "json_round_trip.h"
#include "sim_data.h"

/* A launch with a pilot, overhead and warmup batches, then n measured
 * batches of `reps` at about per_op ns each (a small deterministic wobble),
 * every tenth one disturbed. */
static void add_launch_ramp(bl_bench_result *b, double per_op, size_t n, uint64_t reps,
                            double ramp);

static void add_launch(bl_bench_result *b, double per_op, size_t n, uint64_t reps)
{
    add_launch_ramp(b, per_op, n, reps, 0);
}

/* ... and the measured batches slowing by `ramp` (a fraction) from first to last. */
static void add_launch_ramp(bl_bench_result *b, double per_op, size_t n, uint64_t reps, double ramp)
{
    bl_launch *l = bl_results_add_launch(b);
    assert_non_null(l);
    l->clock_ns = 20;
    for (uint64_t r = 1; r < reps; r *= 10) {
        bl_sample s = {
            .stage = BL_STAGE_PILOT, .reps = r, .ns = (double)r * per_op + 40, .cpu_ns = -1};
        assert_int_equal(bl_launch_add_sample(l, &s), 0);
    }
    for (size_t i = 0; i < 3; i++) {
        bl_sample w = {.stage = BL_STAGE_WARMUP,
                       .reps = reps,
                       .ns = (double)reps * per_op * 1.1,
                       .cpu_ns = -1};
        assert_int_equal(bl_launch_add_sample(l, &w), 0);
    }
    for (size_t i = 0; i < n; i++) {
        /* an empty loop that costs nothing: ratios of the times are exact */
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = reps, .ns = 0, .cpu_ns = -1};
        double wobble =
            (1 + 0.01 * (double)((i * 7) % 11) / 10.0) * (1 + ramp * (double)i / (double)n);
        bl_sample m = {.stage = BL_STAGE_MEASURE,
                       .reps = reps,
                       .ns = (double)reps * per_op * wobble,
                       .cpu_ns = -1,
                       .nivcsw = i % 10 == 9};
        assert_int_equal(bl_launch_add_sample(l, &o), 0);
        assert_int_equal(bl_launch_add_sample(l, &m), 0);
    }
    assert_int_equal(bl_launch_set_metric(l, "items/op", 4), 0);
    bl_launch_finish(l);
}

static bl_results *make_run(const char *name, double per_op, size_t launches)
{
    bl_results *r = bl_results_create();
    assert_non_null(r);
    assert_int_equal(bl_results_set_config(r, "goos", "linux"), 0);
    assert_int_equal(bl_results_set_meta(r, "date", "2026-01-01T00:00:00Z"), 0);
    bl_bench_result *b = bl_results_bench(r, name);
    assert_non_null(b);
    for (size_t k = 0; k < launches; k++)
        add_launch(b, per_op, 30, 1000);
    b->has_alloc = true;
    b->alloc_bytes_per_op = 48;
    b->allocs_per_op = 2;
    return r;
}

/* A run of one benchmark with one launch per per_op[i]. */
static bl_results *make_launches(const char *name, const double *per_op, size_t n)
{
    bl_results *r = bl_results_create();
    assert_non_null(r);
    bl_bench_result *b = bl_results_bench(r, name);
    assert_non_null(b);
    for (size_t k = 0; k < n; k++)
        add_launch(b, per_op[k], 20, 1000);
    return r;
}

/* The whole report of runs as a string; caller frees. */
static char *report(const bl_report_run *runs, size_t n, const bl_report_options *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(bl_report_write(f, runs, n, o), 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static int charts_written(const char *html)
{
    const char *p = strstr(html, "data-charts=\"");
    assert_non_null(p);
    return atoi(p + strlen("data-charts=\""));
}

/* ---- reading results back ---------------------------------------------------------- */

static void results_read_json_round_trip_keeps_everything(void **state)
{
    (void)state;
    bl_results *in = make_run("BenchmarkA/n=1", 100, 2);
    bl_bench_result *b = &in->benches[0];
    b->n_counters = 1;
    snprintf(b->counter_unit[0], sizeof b->counter_unit[0], "instructions/op");
    b->counter_per_op[0] = 812.5;
    b->counters_scaled = true;
    assert_int_equal(bl_results_set_unit_meta(in, "items/op", "better", "higher"), 0);
    bl_results *out = json_round_trip(in, "rt.json", NULL);
    assert_int_equal(out->n_units, 1);
    assert_string_equal(out->units[0].unit, "items/op");
    assert_string_equal(out->units[0].value, "higher");
    assert_int_equal(out->n_benches, 1);
    const bl_bench_result *o = &out->benches[0];
    assert_string_equal(o->name, "BenchmarkA/n=1");
    assert_int_equal(o->n_launches, 2);
    for (size_t j = 0; j < 2; j++) {
        const bl_launch *a = &b->launches[j], *c = &o->launches[j];
        assert_int_equal(c->n_samples, a->n_samples);
        for (size_t k = 0; k < a->n_samples; k++) {
            assert_int_equal(c->samples[k].stage, a->samples[k].stage);
            assert_int_equal(c->samples[k].reps, a->samples[k].reps);
            assert_true(c->samples[k].ns == a->samples[k].ns);
            assert_int_equal(c->samples[k].nivcsw, a->samples[k].nivcsw);
            assert_int_equal(c->samples[k].invalid, a->samples[k].invalid);
            assert_true(c->samples[k].cpu_ns < 0);
        }
        assert_true(c->ns_per_op == a->ns_per_op);
        assert_true(c->overhead_ns == a->overhead_ns);
        assert_int_equal(c->n_invalid, a->n_invalid);
        assert_int_equal(c->invalid_by[0], a->invalid_by[0]);
        assert_int_equal(c->n_metrics, 1);
        assert_string_equal(c->metrics[0].unit, "items/op");
    }
    assert_true(o->has_alloc);
    assert_true(o->alloc_bytes_per_op == 48 && o->allocs_per_op == 2);
    assert_int_equal(o->n_counters, 1);
    assert_string_equal(o->counter_unit[0], "instructions/op");
    assert_true(o->counter_per_op[0] == 812.5 && o->counters_scaled);
    assert_string_equal(bl_results_get_meta(out, "date"), "2026-01-01T00:00:00Z");
    assert_string_equal(out->config[0].key, "goos");
    bl_results_destroy(in);
    bl_results_destroy(out);
}

static int read_text(const char *text, bl_results **out, char *err, size_t size)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    size_t len = strlen(text);
    assert_int_equal(write(fds[1], text, len), (ssize_t)len);
    close(fds[1]);
    int rc = bl_results_read_fd(fds[0], "in", out, NULL, err, size);
    close(fds[0]);
    return rc;
}

static void results_read_wrong_type_names_the_member(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    int rc =
        read_text("{\"schema\":\"benchlab/1\",\"benchmarks\":[{\"name\":\"BenchmarkX\","
                  "\"launches\":[{\"samples\":[{\"stage\":\"m\",\"reps\":\"ten\",\"ns\":1}]}]}]}",
                  &r, err, sizeof err);
    assert_int_equal(rc, BL_EFORMAT);
    assert_null(r);
    assert_string_equal(err, "in: benchmarks[0].launches[0].samples[0]: reps: not a number");
    rc = read_text("{\"schema\":\"benchlab/1\",\"benchmarks\":[{\"launches\":[]}]}", &r, err,
                   sizeof err);
    assert_int_equal(rc, BL_EFORMAT);
    assert_string_equal(err, "in: benchmarks[0]: name: missing");
    rc = read_text("{\"schema\":\"benchlab/1\",\"benchmarks\":[{\"name\":\"B\",\"launches\":[{"
                   "\"samples\":[{\"stage\":\"q\",\"ns\":1}]}]}]}",
                   &r, err, sizeof err);
    assert_int_equal(rc, BL_EFORMAT);
    assert_string_equal(err, "in: benchmarks[0].launches[0].samples[0]: stage: not one of p, w, "
                             "o, O, m");
    rc = read_text("{\"schema\":\"benchlab/2\"}", &r, err, sizeof err);
    assert_int_equal(rc, BL_EFORMAT);
    assert_non_null(strstr(err, "newer than this benchlab reads"));
    rc = read_text("[1,2]", &r, err, sizeof err);
    assert_int_equal(rc, BL_EFORMAT);
    assert_string_equal(err, "in: JSON is neither benchlab nor Google Benchmark output");
}

static void results_read_huge_counts_are_clamped(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    int rc = read_text("{\"schema\":\"benchlab/1\",\"benchmarks\":[{\"name\":\"B\",\"launches\":[{"
                       "\"measured_reps\":1e300,\"n_invalid\":-5,\"samples\":[{\"stage\":\"m\","
                       "\"reps\":1e30,\"ns\":1,\"nivcsw\":1e12}]}]}]}",
                       &r, err, sizeof err);
    assert_int_equal(rc, 0);
    const bl_launch *l = &r->benches[0].launches[0];
    assert_true(l->measured_reps > 1e18);
    assert_int_equal(l->n_invalid, 0);
    assert_int_equal(l->samples[0].nivcsw, 4294967295u);
    bl_results_destroy(r);
}

static void results_read_go_format_gives_launches_without_batches(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    int rc = read_text("# date: today\ngoos: linux\n"
                       "BenchmarkHash/b=64-8 1000 38.5 ns/op 1662.3 MB/s 16 B/op 1 allocs/op\n"
                       "BenchmarkHash/b=64-8 1000 39.5 ns/op 1620.3 MB/s 16 B/op 1 allocs/op\n"
                       "Unit swaps/op better=lower\n"
                       "BenchmarkSort 50 2.5e-3 sec/op 7 swaps/op\n"
                       "BenchmarkPool 100 1000 ns/op 4e+06 ops/s\n"
                       "BenchmarkParse 100 200 ns/op 5e+06 items/s\n",
                       &r, err, sizeof err);
    assert_int_equal(rc, 0);
    assert_int_equal(r->n_benches, 4);
    /* rates back into per-op counts and threads */
    assert_int_equal(r->benches[2].launches[0].threads, 4);
    assert_close(r->benches[3].launches[0].items_per_op, 1, 1e-12);
    bl_rates rates;
    bl_launch_rates(&r->benches[3].launches[0], &rates);
    assert_close(rates.items_per_s, 5e6, 1e-6);
    const bl_bench_result *h = &r->benches[0];
    assert_string_equal(h->name, "BenchmarkHash/b=64-8");
    assert_int_equal(h->n_launches, 2);
    assert_int_equal(h->launches[0].n_samples, 0);
    assert_true(h->launches[0].ns_per_op == 38.5);
    assert_int_equal(h->launches[0].measured_reps, 1000);
    assert_close(h->launches[0].bytes_per_op, 1662.3 * 38.5 / 1e3, 1e-9);
    assert_true(h->has_alloc && h->alloc_bytes_per_op == 16 && h->allocs_per_op == 1);
    const bl_bench_result *s = &r->benches[1];
    assert_close(s->launches[0].ns_per_op, 2.5e6, 1e-6);
    assert_int_equal(s->launches[0].n_metrics, 1);
    assert_string_equal(s->launches[0].metrics[0].unit, "swaps/op");
    assert_int_equal(r->n_units, 1);
    assert_string_equal(r->units[0].key, "better");
    assert_string_equal(bl_results_get_meta(r, "date"), "today");
    bl_results_destroy(r);
}

static void results_read_google_benchmark_json(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    int rc = read_text("{\"context\":{\"host_name\":\"box\"},\"benchmarks\":["
                       "{\"name\":\"BM_x/8\",\"run_type\":\"iteration\",\"iterations\":100,"
                       "\"real_time\":1.5,\"cpu_time\":1.4,\"time_unit\":\"us\"},"
                       "{\"name\":\"BM_x/8_mean\",\"run_type\":\"aggregate\",\"real_time\":1}]}",
                       &r, err, sizeof err);
    assert_int_equal(rc, 0);
    assert_int_equal(r->n_benches, 1);
    assert_close(r->benches[0].launches[0].ns_per_op, 1500, 1e-9);
    assert_string_equal(bl_results_get_meta(r, "host_name"), "box");
    bl_results_destroy(r);
}

/* An entry's label and time_unit stay with its launch (benchlab merge and
 * report of Google Benchmark's JSON show them), an error is a failed launch
 * and 1.8's skip a skipped one, each with its message. */
static void results_read_google_benchmark_label_unit_and_skip(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    int rc = read_text("{\"benchmarks\":["
                       "{\"name\":\"BM_x\",\"run_type\":\"iteration\",\"iterations\":10,"
                       "\"real_time\":2,\"time_unit\":\"ms\",\"label\":\"hello\"},"
                       "{\"name\":\"BM_e\",\"run_type\":\"iteration\",\"error_occurred\":true,"
                       "\"error_message\":\"broken\",\"iterations\":0,\"real_time\":0},"
                       "{\"name\":\"BM_s\",\"run_type\":\"iteration\",\"skipped\":true,"
                       "\"skip_message\":\"no input\",\"iterations\":0,\"real_time\":0}]}",
                       &r, err, sizeof err);
    assert_int_equal(rc, 0);
    assert_int_equal(r->n_benches, 3);
    const bl_launch *x = &r->benches[0].launches[0];
    assert_close(x->ns_per_op, 2e6, 1e-9);
    assert_string_equal(x->time_unit, "ms");
    assert_string_equal(x->label, "hello");
    const bl_launch *e = &r->benches[1].launches[0];
    assert_int_equal(e->status, BL_EBENCH);
    assert_false(e->skipped);
    assert_string_equal(e->message, "broken");
    const bl_launch *k = &r->benches[2].launches[0];
    assert_int_equal(k->status, 0);
    assert_true(k->skipped);
    assert_string_equal(k->message, "no input");
    bl_results_destroy(r);
}

/* A threaded entry is in Google Benchmark's thread convention (real_time:
 * the team's wall time over every thread's iterations): read back as
 * benchlab's time per op of one thread, its iterations per thread. */
static void results_read_google_benchmark_threads(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    int rc = read_text("{\"benchmarks\":["
                       "{\"name\":\"BM_x/threads:4\",\"run_type\":\"iteration\","
                       "\"threads\":4,\"iterations\":4000,\"real_time\":250,\"cpu_time\":900,"
                       "\"time_unit\":\"ns\",\"bytes_per_second\":1.6e10},"
                       "{\"name\":\"BM_x/threads:1\",\"run_type\":\"iteration\","
                       "\"threads\":1,\"iterations\":1000,\"real_time\":1000}]}",
                       &r, err, sizeof err);
    assert_int_equal(rc, 0);
    assert_int_equal(r->n_benches, 2);
    const bl_launch *l = &r->benches[0].launches[0];
    assert_close(l->ns_per_op, 1000, 1e-9);
    assert_int_equal(l->measured_reps, 1000);
    assert_int_equal(l->threads, 4);
    /* 1.6e10 B/s over 4 threads of 1 us an op: 4000 bytes per op each */
    assert_close(l->bytes_per_op, 4000, 1e-9);
    bl_rates rates;
    bl_launch_rates(l, &rates);
    assert_close(rates.mb_per_s * 1e6, 1.6e10, 1e-6);
    const bl_launch *one = &r->benches[1].launches[0];
    assert_close(one->ns_per_op, 1000, 1e-9);
    assert_int_equal(one->measured_reps, 1000);
    assert_int_equal(one->threads, 0);
    bl_results_destroy(r);
}

static void results_read_missing_file_names_it(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    int rc = bl_results_read_file("/nonexistent/x.json", &r, NULL, err, sizeof err);
    assert_true(rc < 0);
    assert_null(r);
    assert_string_equal(err, "/nonexistent/x.json: No such file or directory");
}

/* ---- the report ------------------------------------------------------------------- */

static void report_escapes_names_labels_and_metadata(void **state)
{
    (void)state;
    bl_results *r = make_run("BenchmarkX/s=<script>alert(\"x\")</script>'", 50, 1);
    assert_int_equal(bl_results_set_meta(r, "host", "<img src=x onerror=alert(1)>"), 0);
    bl_launch *l = &r->benches[0].launches[0];
    assert_int_equal(bl_launch_set_metric(l, "<i>u</i>/op", 1), 0);
    bl_bench_result *bad = bl_results_bench(r, "BenchmarkBad&");
    bl_launch *f = bl_results_add_launch(bad);
    f->status = BL_ECRASH;
    f->message = strdup("</td><script>alert(2)</script>");
    bl_report_run run = {"<b>label</b>", r, NULL};
    bl_report_options o;
    bl_report_options_init(&o);
    o.title = "T<itle>";
    o.generated = "<now>";
    char *html = report(&run, 1, &o);
    assert_int_equal(count(html, "<script"), 1); /* the report's own */
    assert_null(strstr(html, "<img"));
    assert_null(strstr(html, "<b>label"));
    assert_null(strstr(html, "<i>u"));
    assert_null(strstr(html, "<itle>"));
    assert_null(strstr(html, "<now>"));
    assert_null(strstr(html, "Bad&\""));
    assert_non_null(strstr(html, "s=&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;"));
    assert_non_null(strstr(html, "&lt;/td&gt;&lt;script&gt;alert(2)"));
    assert_non_null(strstr(html, "&lt;b&gt;label&lt;/b&gt;"));
    assert_non_null(strstr(html, "BenchmarkBad&amp;"));
    free(html);
    bl_results_destroy(r);
}

static void report_one_run_draws_three_charts_per_benchmark(void **state)
{
    (void)state;
    bl_results *r = make_run("BenchmarkA", 100, 1);
    bl_report_run run = {"a.json", r, NULL};
    char *html = report(&run, 1, NULL);
    /* distribution, scaling, timeline; no comparison or history with one run */
    assert_int_equal(charts_written(html), 3);
    assert_int_equal(count(html, "class=\"fig dist\""), 1);
    assert_int_equal(count(html, "class=\"fig scaling\""), 1);
    assert_int_equal(count(html, "class=\"fig timeline\""), 1);
    assert_int_equal(count(html, "class=\"fig compare\""), 0);
    /* no network: nothing refers outside the file */
    assert_null(strstr(html, "http://"));
    assert_null(strstr(html, "https://"));
    assert_null(strstr(html, "<link"));
    /* the instruments: B/op and allocs/op, and the user metric */
    assert_non_null(strstr(html, "<th>B/op</th>"));
    assert_non_null(strstr(html, "<th>items/op</th>"));
    free(html);
    bl_results_destroy(r);
}

static void report_slower_run_is_called_slower(void **state)
{
    (void)state;
    bl_results *base = make_run("BenchmarkA", 100, 1), *same = make_run("BenchmarkA", 100, 1),
               *slow = make_run("BenchmarkA", 150, 1);
    bl_report_run runs[] = {{"base", base, NULL}, {"same", same, NULL}, {"slow", slow, NULL}};
    char *html = report(runs, 3, NULL);
    /* five charts: with three runs, the history too */
    assert_int_equal(charts_written(html), 5);
    assert_non_null(strstr(html, "class=\"fig history\""));
    /* same: no difference; slow: +50% and slower */
    assert_non_null(strstr(html, "<td class=\"same\" data-sort=\"0\">+0.0%"));
    assert_non_null(strstr(html, "<td class=\"slower\" data-sort=\"0.5\">+50.0% ["));
    assert_non_null(strstr(html, "<span class=\"badge slower\">+50.0% slower</span>"));
    free(html);
    bl_results_destroy(base);
    bl_results_destroy(same);
    bl_results_destroy(slow);
}

/* The report's change and interval are judge's for the same runs: the
 * Hodges-Lehmann ratio over the launches (six a side) and its interval. */
static void report_and_judge_give_one_change_and_interval(void **state)
{
    (void)state;
    const double a[] = {100, 104, 98, 101, 103, 99}, b[] = {110, 112, 108, 115, 109, 111};
    bl_results *base = make_launches("BenchmarkA", a, 6), *cur = make_launches("BenchmarkA", b, 6);
    bl_judgement_set *set = NULL;
    char err[256];
    assert_int_equal(bl_judge(base, cur, NULL, &set, err, sizeof err), 0);
    assert_int_equal(set->n, 1);
    const bl_judgement *j = &set->items[0];
    assert_true(j->launch_level);
    assert_false(isnan(j->ratio_lo));
    char want[128];
    snprintf(want, sizeof want, "%+.1f%% [%+.1f, %+.1f]", 100 * (j->ratio - 1),
             100 * (j->ratio_lo - 1), 100 * (j->ratio_hi - 1));
    bl_report_run runs[] = {{"base", base, NULL}, {"new", cur, NULL}};
    char *html = report(runs, 2, NULL);
    if (!strstr(html, want))
        fail_msg("the report lacks judge's change %s", want);
    /* and bl_judge_bench, which the report calls, gives the same */
    bl_judgement one;
    assert_int_equal(bl_judge_bench(&base->benches[0], &cur->benches[0], NULL, &one), 0);
    assert_true(one.ratio == j->ratio && one.ratio_lo == j->ratio_lo && one.p == j->p);
    free(html);
    bl_judgement_set_destroy(set);
    bl_results_destroy(base);
    bl_results_destroy(cur);
}

static void report_baseline_option_flips_the_direction(void **state)
{
    (void)state;
    bl_results *a = make_run("BenchmarkA", 100, 1), *b = make_run("BenchmarkA", 50, 1);
    bl_report_run runs[] = {{"a", a, NULL}, {"b", b, NULL}};
    bl_report_options o;
    bl_report_options_init(&o);
    char *html = report(runs, 2, &o);
    assert_non_null(strstr(html, "-50.0% faster"));
    free(html);
    o.baseline = 1;
    html = report(runs, 2, &o);
    assert_non_null(strstr(html, "+100.0% slower"));
    free(html);
    o.baseline = 2;
    FILE *f = fopen("/dev/null", "w");
    assert_int_equal(bl_report_write(f, runs, 2, &o), BL_EUSAGE);
    assert_int_equal(bl_report_write(f, runs, 0, NULL), BL_EUSAGE);
    fclose(f);
    bl_results_destroy(a);
    bl_results_destroy(b);
}

static void report_is_reproducible(void **state)
{
    (void)state;
    bl_results *a = make_run("BenchmarkA", 100, 1), *b = make_run("BenchmarkA", 103, 1);
    bl_report_run runs[] = {{"a", a, NULL}, {"b", b, NULL}};
    bl_report_options o;
    bl_report_options_init(&o);
    o.generated = "fixed";
    char *h1 = report(runs, 2, &o), *h2 = report(runs, 2, &o);
    assert_string_equal(h1, h2);
    free(h1);
    free(h2);
    bl_results_destroy(a);
    bl_results_destroy(b);
}

static void report_without_batches_skips_batch_charts(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    assert_int_equal(read_text("BenchmarkA 100 5 ns/op\nBenchmarkA 100 6 ns/op\n"
                               "BenchmarkA 100 5.5 ns/op\n",
                               &r, err, sizeof err),
                     0);
    bl_report_run run = {"go.txt", r, NULL};
    char *html = report(&run, 1, NULL);
    /* the distribution over launches only */
    assert_int_equal(charts_written(html), 1);
    assert_non_null(strstr(html, "the input has no batches (Go format)"));
    free(html);
    bl_results_destroy(r);
}

static void report_failed_and_missing_benchmarks_are_said(void **state)
{
    (void)state;
    bl_results *a = make_run("BenchmarkA", 100, 1), *b = make_run("BenchmarkB", 100, 1);
    bl_launch *l = bl_results_add_launch(bl_results_bench(b, "BenchmarkA"));
    l->status = BL_ETIMEOUT;
    l->message = strdup("ran past its time limit");
    bl_report_run runs[] = {{"a", a, NULL}, {"b", b, NULL}};
    char *html = report(runs, 2, NULL);
    assert_non_null(strstr(html, "b: failed: ran past its time limit"));
    assert_non_null(strstr(html, "a: not in this run"));
    /* the failed run's row in the facts: five empty cells after "failed"
     * (interval, launches, spread, batches, overhead), then its B/op */
    assert_non_null(strstr(html, "<td class=\"base\">failed</td><td></td><td></td><td></td>"
                                 "<td></td><td></td><td data-sort=\"\">"));
    free(html);
    bl_results_destroy(a);
    bl_results_destroy(b);
}

static void report_compares_over_launches_when_there_are_enough(void **state)
{
    (void)state;
    const double base_ops[] = {100, 101, 99, 100.5, 99.5, 100};
    const double slow_ops[] = {120, 121, 119, 120.5, 119.5, 120};
    /* one launch of six three times as slow: the median and the U test
     * over launches are not moved by it */
    const double wild_ops[] = {100, 101, 99, 300, 99.5, 100};
    bl_results *base = make_launches("BenchmarkA", base_ops, 6);
    bl_results *slow = make_launches("BenchmarkA", slow_ops, 6);
    bl_results *wild = make_launches("BenchmarkA", wild_ops, 6);
    bl_report_run runs[] = {{"base", base, NULL}, {"slow", slow, NULL}, {"wild", wild, NULL}};
    char *html = report(runs, 3, NULL);
    assert_non_null(strstr(html, "<td class=\"slower\" data-sort=\"0.2\">+20.0% ["));
    assert_non_null(strstr(html, "<td class=\"same\" data-sort=\"0\">"));
    assert_null(strstr(html, "compared over batches"));
    /* six launches: the interval is over launches, not starred */
    assert_null(strstr(html, "one launch: its interval (*)"));
    free(html);
    /* one launch each: over batches, and said */
    bl_results *one = make_run("BenchmarkA", 100, 1);
    bl_report_run pair[] = {{"one", one, NULL}, {"slow", slow, NULL}};
    html = report(pair, 2, NULL);
    assert_non_null(strstr(html, "one launch: its interval (*)"));
    free(html);
    bl_results_destroy(base);
    bl_results_destroy(slow);
    bl_results_destroy(wild);
    bl_results_destroy(one);
}

static void report_drift_within_launches_is_said_and_levels_are_not_drift(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *levels = bl_results_bench(r, "BenchmarkLevels");
    bl_bench_result *ramp = bl_results_bench(r, "BenchmarkRamp");
    /* launches at different levels, each flat: the variance between
     * processes, not drift; launches that each slow down by 10%: drift */
    for (int k = 0; k < 3; k++) {
        add_launch(levels, 100 + 20 * k, 30, 1000);
        add_launch_ramp(ramp, 100, 30, 1000, 0.10);
    }
    bl_report_run run = {"r", r, NULL};
    char *html = report(&run, 1, NULL);
    const char *ramp_section = strstr(html, "<section class=\"bench\" id=\"b1\"");
    assert_non_null(ramp_section);
    const char *drift = strstr(html, "Drift in r: the last third of the batches is");
    assert_non_null(drift);
    assert_true(drift > ramp_section); /* in the Ramp section only */
    assert_non_null(strstr(drift, "slower than the first"));
    assert_null(strstr(drift + 1, "Drift in r"));
    free(html);
    bl_results_destroy(r);
}

static void report_shows_bimodal_batches_as_it_shows_drift(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *flat = bl_results_bench(r, "BenchmarkFlat");
    bl_bench_result *two = bl_results_bench(r, "BenchmarkTwo");
    for (int k = 0; k < 6; k++) {
        add_launch(flat, 100, 30, 1000);
        /* every other batch does twice the work */
        bl_launch *l = bl_results_add_launch(two);
        assert_non_null(l);
        for (size_t i = 0; i < 30; i++) {
            bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 0, .cpu_ns = -1};
            double wobble = 1 + 0.01 * (double)((i * 7) % 11) / 10.0;
            bl_sample m = {.stage = BL_STAGE_MEASURE,
                           .reps = 1000,
                           .ns = 1000 * 100 * (i % 2 ? 2 : 1) * wobble,
                           .cpu_ns = -1};
            assert_int_equal(bl_launch_add_sample(l, &o), 0);
            assert_int_equal(bl_launch_add_sample(l, &m), 0);
        }
        bl_launch_finish(l);
    }
    bl_report_run run = {"r", r, NULL};
    char *html = report(&run, 1, NULL);
    const char *two_section = strstr(html, "<section class=\"bench\" id=\"b1\"");
    assert_non_null(two_section);
    const char *note = strstr(html, "Bimodal batch times in r (mvalue ");
    assert_non_null(note);
    assert_true(note > two_section); /* in the Two section only */
    assert_non_null(strstr(note, "modes near 100"));
    assert_null(strstr(note + 1, "Bimodal batch times"));
    /* the summary's notes column says it */
    const char *row = strstr(html, "data-name=\"BenchmarkTwo\"");
    assert_non_null(row);
    const char *end = strstr(row, "</tr>");
    const char *modes = strstr(row, "modes ");
    assert_true(modes && modes < end);
    row = strstr(html, "data-name=\"BenchmarkFlat\"");
    end = strstr(row, "</tr>");
    modes = strstr(row, "modes ");
    assert_true(!modes || modes > end);
    free(html);
    bl_results_destroy(r);
}

/* A launch of n measured batches of `reps` at per_op ns and cpu_per_op ns
 * on CPU each; every measured batch had a context switch when `disturbed`,
 * and the launch is then one the runner kept for want of a clean one. */
static void add_launch_cpu(bl_bench_result *b, double per_op, double cpu_per_op, size_t n,
                           uint64_t reps, bool disturbed)
{
    bl_launch *l = bl_results_add_launch(b);
    assert_non_null(l);
    l->clock_ns = 20;
    l->disturbed = disturbed;
    for (size_t i = 0; i < n; i++) {
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = reps, .ns = 0, .cpu_ns = 0};
        bl_sample m = {.stage = BL_STAGE_MEASURE,
                       .reps = reps,
                       .ns = (double)reps * per_op,
                       .cpu_ns = (double)reps * cpu_per_op,
                       .nivcsw = disturbed};
        assert_int_equal(bl_launch_add_sample(l, &o), 0);
        assert_int_equal(bl_launch_add_sample(l, &m), 0);
    }
    bl_launch_finish(l);
}

/* The text of the overview's row of benchmark `name`, up to its </tr>. */
static char *overview_row(const char *html, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "<tr data-name=\"%s\"", name);
    const char *row = strstr(html, key);
    assert_non_null(row);
    const char *end = strstr(row, "</tr>");
    assert_non_null(end);
    return strndup(row, (size_t)(end - row));
}

static void report_shows_cpu_time_beside_time_per_op(void **state)
{
    (void)state;
    bl_results *base = bl_results_create(), *cur = bl_results_create();
    for (int k = 0; k < 2; k++) {
        add_launch_cpu(bl_results_bench(base, "BenchmarkWait"), 100, 40, 20, 1000, false);
        add_launch_cpu(bl_results_bench(cur, "BenchmarkWait"), 100, 60, 20, 1000, false);
    }
    bl_report_run runs[] = {{"base", base, NULL}, {"<i>new</i>", cur, NULL}};
    char *html = report(runs, 2, NULL);
    /* the overview: one cpu/op column per run, labels escaped */
    assert_non_null(strstr(html, "<th>cpu/op (base)</th><th>cpu/op (&lt;i&gt;new&lt;/i&gt;)</th>"));
    char *row = overview_row(html, "BenchmarkWait");
    assert_non_null(strstr(row, "<td data-sort=\"40\">40.00 ns</td><td data-sort=\"60\">60.00 ns"));
    free(row);
    /* the benchmark's facts: cpu/op beside time/op, cpu spread beside spread */
    const char *facts = strstr(html, "<table class=\"facts\">");
    assert_non_null(facts);
    assert_non_null(strstr(facts, "<th>time/op</th><th>cpu/op</th><th>interval</th>"
                                  "<th>launches</th><th>spread</th><th>cpu spread</th>"));
    assert_non_null(
        strstr(facts, "<td data-sort=\"100\">100.0 ns</td><td data-sort=\"40\">40.00 ns"));
    assert_non_null(strstr(facts, "<td data-sort=\"0\">0.0%</td><td data-sort=\"0\">0.0%</td>"));
    assert_null(strstr(html, "disturbed</span>"));
    free(html);
    bl_results_destroy(base);
    bl_results_destroy(cur);
}

static void report_cpu_time_from_go_lines_is_the_cpu_column(void **state)
{
    (void)state;
    bl_results *r = NULL;
    char err[256];
    assert_int_equal(read_text("BenchmarkA 100 5 ns/op 4 cpu-ns/op\n"
                               "BenchmarkA 100 6 ns/op 4 cpu-ns/op\n",
                               &r, err, sizeof err),
                     0);
    bl_report_run run = {"go.txt", r, NULL};
    char *html = report(&run, 1, NULL);
    assert_non_null(strstr(html, "<th>time/op</th><th>cpu/op</th>"));
    assert_non_null(strstr(html, "<td data-sort=\"4\">4.000 ns</td>"));
    assert_null(strstr(html, "<th>cpu-ns/op</th>"));
    free(html);
    bl_results_destroy(r);
}

static void report_flags_a_time_from_disturbed_launches(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    for (int k = 0; k < 2; k++) {
        add_launch_cpu(bl_results_bench(r, "BenchmarkClean"), 100, 100, 20, 1000, false);
        add_launch_cpu(bl_results_bench(r, "BenchmarkLong"), 100, 70, 2, 1000, true);
    }
    bl_report_run run = {"r", r, NULL};
    char *html = report(&run, 1, NULL);
    /* the overview: the flag beside the time, the word in the notes */
    char *row = overview_row(html, "BenchmarkLong");
    assert_non_null(strstr(row, "100.0 ns <span class=\"sub\">\xc2\xb1"
                                "0%</span> <span class=\"warn flag\""));
    assert_non_null(strstr(row, ">disturbed</span>"));
    assert_non_null(strstr(row, "<td class=\"warn\">disturbed </td>"));
    assert_non_null(strstr(row, "<td data-sort=\"70\">70.00 ns</td>"));
    assert_null(strstr(row, "noisy"));
    free(row);
    row = overview_row(html, "BenchmarkClean");
    assert_null(strstr(row, "disturbed"));
    free(row);
    /* its section: the flag in the facts and the note in words */
    const char *sec = strstr(html, "<section class=\"bench\" id=\"b1\"");
    assert_non_null(sec);
    assert_non_null(strstr(sec, "<td data-sort=\"100\">100.0 ns <span class=\"warn flag\""));
    assert_non_null(strstr(sec, "r: disturbed: no clean batch in any launch, so the 4 disturbed "
                                "batches of 2 launches (context-switch 4) are the "
                                "measurement: "
                                "time/op includes time off CPU (an upper bound), cpu/op is the "
                                "time on CPU"));
    assert_null(strstr(html, "batches discarded as disturbed"));
    /* every launch disturbed: said, N of N, and its batches are still
     * charted (they were left out, and only the scaling chart stayed) */
    const char *end = strstr(sec, "</section>");
    assert_non_null(end);
    char *s = strndup(sec, (size_t)(end - sec));
    assert_non_null(strstr(s, ". All 2 of 2 launches were disturbed, so there is no distribution "
                              "of clean batches: the distribution and the timeline show the "
                              "disturbed ones"));
    assert_non_null(strstr(s, "<figure class=\"fig dist\">"));
    assert_non_null(strstr(s, "<figure class=\"fig timeline\">"));
    assert_non_null(strstr(s, "or of all the disturbed batches where every launch was disturbed"));
    free(s);
    sec = strstr(html, "<section class=\"bench\" id=\"b0\"");
    end = strstr(sec, "</section>");
    s = strndup(sec, (size_t)(end - sec));
    assert_null(strstr(s, "All 2 of 2"));
    assert_null(strstr(s, "or of all the disturbed batches"));
    free(s);
    free(html);
    bl_results_destroy(r);
}

/* a spread over a median below half a cycle is noise over zero: the
 * report gives the range in ns, as run's table (test_table.c) */
static void report_spread_below_half_a_cycle_is_in_ns(void **state)
{
    (void)state;
    bl_results *r = sim_sub_ns_run();
    bl_report_run run = {"r", r, NULL};
    char *html = report(&run, 1, NULL);
    char *row = overview_row(html, "BenchmarkSubNs");
    if (!strstr(row, "<span class=\"sub\">\xc2\xb1"
                     "0.300 ns</span>"))
        fail_msg("no spread of +-0.300 ns in:\n%s", row);
    free(row);
    assert_null(strstr(html, "000%"));
    free(html);
    bl_results_destroy(r);
}

static void report_history_from_a_store_precedes_the_runs(void **state)
{
    (void)state;
    bl_results *r = make_run("BenchmarkA", 100, 1);
    const char *labels[] = {"@1 <old>", "@2"};
    const bl_report_point pts[] = {{0, 90, 88, 92}, {1, 95, NAN, NAN}};
    const bl_report_point bad[] = {{7, 1, 1, 1}, {0, NAN, 0, 0}}; /* ignored: no such run, NAN */
    const bl_report_series series[] = {{"BenchmarkA", pts, 2}, {"BenchmarkGone", bad, 2}};
    const bl_report_history h = {labels, 2, series, 2};
    bl_report_options o;
    bl_report_options_init(&o);
    o.history = &h;
    bl_report_run run = {"now", r, NULL};
    char *html = report(&run, 1, &o);
    /* one run and two earlier ones: the history chart, three points */
    assert_int_equal(charts_written(html), 4);
    const char *fig = strstr(html, "class=\"fig history\"");
    assert_non_null(fig);
    assert_non_null(strstr(fig, "@1 &lt;old&gt;: 90.00 ns"));
    assert_non_null(strstr(fig, "@2: 95.00 ns"));
    assert_non_null(strstr(fig, "now: 10")); /* about 100 ns */
    assert_null(strstr(html, "BenchmarkGone"));
    free(html);
    /* one earlier run only: two points, no chart */
    const bl_report_history h1 = {labels, 1, series, 1};
    o.history = &h1;
    html = report(&run, 1, &o);
    assert_int_equal(charts_written(html), 3);
    free(html);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(results_read_json_round_trip_keeps_everything),
        cmocka_unit_test(results_read_wrong_type_names_the_member),
        cmocka_unit_test(results_read_huge_counts_are_clamped),
        cmocka_unit_test(results_read_go_format_gives_launches_without_batches),
        cmocka_unit_test(results_read_google_benchmark_json),
        cmocka_unit_test(results_read_google_benchmark_threads),
        cmocka_unit_test(results_read_google_benchmark_label_unit_and_skip),
        cmocka_unit_test(results_read_missing_file_names_it),
        cmocka_unit_test(report_escapes_names_labels_and_metadata),
        cmocka_unit_test(report_one_run_draws_three_charts_per_benchmark),
        cmocka_unit_test(report_slower_run_is_called_slower),
        cmocka_unit_test(report_and_judge_give_one_change_and_interval),
        cmocka_unit_test(report_baseline_option_flips_the_direction),
        cmocka_unit_test(report_is_reproducible),
        cmocka_unit_test(report_without_batches_skips_batch_charts),
        cmocka_unit_test(report_failed_and_missing_benchmarks_are_said),
        cmocka_unit_test(report_compares_over_launches_when_there_are_enough),
        cmocka_unit_test(report_drift_within_launches_is_said_and_levels_are_not_drift),
        cmocka_unit_test(report_shows_bimodal_batches_as_it_shows_drift),
        cmocka_unit_test(report_shows_cpu_time_beside_time_per_op),
        cmocka_unit_test(report_cpu_time_from_go_lines_is_the_cpu_column),
        cmocka_unit_test(report_flags_a_time_from_disturbed_launches),
        cmocka_unit_test(report_spread_below_half_a_cycle_is_in_ns),
        cmocka_unit_test(report_history_from_a_store_precedes_the_runs),
    };
    return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
