/* test_gobench_write.c - the Go-format writer, line by line. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/base.h"
#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/results.h"

static void values_are_formatted_as_go_testing(void **state)
{
    (void)state;
    char b[64];
    static const struct {
        double v;
        const char *want;
    } cases[] = {{0, "0"},
                 {1234.56, "1235"},
                 {999.95, "1000"},
                 {999.94, "999.9"},
                 {12.345, "12.35"},
                 {1.5, "1.500"},
                 {0.5, "0.5000"},
                 {0.01234, "0.01234"},
                 {0.001, "0.001000"},
                 {1e-5, "0.0000100"},
                 {123456789, "123456789"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bl_gobench_format_value(b, sizeof b, cases[i].v);
        assert_string_equal(b, cases[i].want);
    }
}

static char *write_launch(const bl_bench_result *b, const bl_launch *l)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_gobench_write_launch(f, b, l);
    fclose(f);
    return buf;
}

static void result_line_has_name_iterations_and_units(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkHash/bytes=64");
    bl_launch *l = bl_results_add_launch(b);
    l->ns_per_op = 40.0;
    l->measured_reps = 1000;
    l->bytes_per_op = 64;
    bl_launch_set_metric(l, "nodes/op", 16);
    char *line = write_launch(b, l);
    assert_string_equal(line, "BenchmarkHash/bytes=64\t    1000\t     40.00 ns/op\t 1600.00 MB/s"
                              "\t     16.00 nodes/op\n");
    free(line);
    bl_results_destroy(r);
}

/* Throughput counts every thread: ns/op is per op of one thread. */
static void threaded_launch_rates_count_all_threads(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkCounter/threads=4");
    bl_launch *l = bl_results_add_launch(b);
    l->ns_per_op = 40.0;
    l->measured_reps = 1000;
    l->threads = 4;
    bl_rates rates;
    bl_launch_rates(l, &rates);
    assert_true(isnan(rates.mb_per_s));
    assert_true(rates.ops_per_s == 1e8);
    char *line = write_launch(b, l);
    assert_string_equal(line, "BenchmarkCounter/threads=4\t    1000\t     40.00 ns/op"
                              "\t 100000000 ops/s\n");
    free(line);
    /* with bytes: MB/s of all threads, and no ops/s */
    l->bytes_per_op = 64;
    bl_launch_rates(l, &rates);
    assert_true(rates.mb_per_s == 6400.0);
    assert_true(isnan(rates.ops_per_s));
    line = write_launch(b, l);
    assert_string_equal(line, "BenchmarkCounter/threads=4\t    1000\t     40.00 ns/op"
                              "\t 6400.00 MB/s\n");
    free(line);
    /* items/s beside MB/s, and still no ops/s */
    l->items_per_op = 3;
    line = write_launch(b, l);
    assert_string_equal(line, "BenchmarkCounter/threads=4\t    1000\t     40.00 ns/op"
                              "\t 6400.00 MB/s\t 300000000 items/s\n");
    free(line);
    char human[64];
    bl_launch_rates(l, &rates);
    bl_format_rate(human, sizeof human, &rates);
    /* bytes in powers of 1024 (6.4e9 B/s), counts in powers of 1000 */
    assert_string_equal(human, "5.960 GiB/s, 300.0 M items/s");
    l->items_per_op = 0;
    /* a single-threaded benchmark has no ops/s: ns/op says it all */
    l->bytes_per_op = 0;
    l->threads = 0;
    bl_launch_rates(l, &rates);
    assert_true(isnan(rates.ops_per_s));
    bl_format_rate(human, sizeof human, &rates);
    assert_string_equal(human, "-");
    l->threads = 2;
    bl_launch_rates(l, &rates);
    bl_format_rate(human, sizeof human, &rates);
    assert_string_equal(human, "50.00 M ops/s");
    bl_results_destroy(r);
}

/* A rate is reported per op and written per second once the time is known;
 * directions become Unit lines, each once, the first declaration kept. */
static void rates_and_unit_metadata(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkHits");
    bl_launch *l = bl_results_add_launch(b);
    for (int i = 0; i < 3; i++) {
        bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 100, .ns = 2000, .cpu_ns = 2000};
        bl_launch_add_sample(l, &m);
    }
    assert_int_equal(bl_launch_set_metric_ex(l, "hits/s", 3, BL_RATE | BL_HIGHER_IS_BETTER), 0);
    assert_int_equal(bl_launch_set_metric_ex(l, "score", 42, BL_HIGHER_IS_BETTER), 0);
    assert_int_equal(bl_launch_set_metric(l, "plain/op", 7), 0);
    assert_true(isnan(l->metrics[0].value)); /* no time yet */
    bl_launch_finish(l);
    assert_true(l->ns_per_op == 20.0);
    assert_true(l->metrics[0].value == 3 * 1e9 / 20.0);
    assert_true(l->metrics[1].value == 42);
    assert_null(bl_results_declare_units(r, b, l));
    assert_int_equal(r->n_units, 2);
    /* the other direction for the same unit: kept as first declared, named */
    bl_launch *l2 = bl_results_add_launch(b);
    bl_launch_set_metric_ex(l2, "score", 1, BL_LOWER_IS_BETTER);
    assert_string_equal(bl_results_declare_units(r, b, l2), "score");
    char *buf = NULL;
    size_t len = 0, done = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_gobench_write_units(f, r, &done);
    bl_gobench_write_units(f, r, &done); /* nothing new: nothing again */
    fclose(f);
    assert_string_equal(buf, "Unit hits/s better=higher\nUnit score better=higher\n");
    assert_int_equal(done, 2);
    free(buf);
    bl_results_destroy(r);
}

static void failed_launch_writes_nothing_and_zero_is_floored(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkX");
    bl_launch *l = bl_results_add_launch(b);
    l->status = BL_ECRASH;
    l->ns_per_op = 5;
    char *line = write_launch(b, l);
    assert_string_equal(line, "");
    free(line);
    l->status = 0;
    l->ns_per_op = 0; /* benchstat reads "0 ns/op" as another unit */
    l->measured_reps = 7;
    line = write_launch(b, l);
    assert_string_equal(line, "BenchmarkX\t       7\t  0.001000 ns/op\n");
    free(line);
    bl_results_destroy(r);
}

static void header_has_config_then_comments_for_varying_values(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_results_set_config(r, "goos", "linux");
    bl_results_set_config(r, "pkg", "suite");
    bl_results_set_meta(r, "date", "2026-01-01T00:00:00Z");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_gobench_write_header(f, r);
    fclose(f);
    assert_string_equal(buf, "# date: 2026-01-01T00:00:00Z\ngoos: linux\npkg: suite\n");
    free(buf);
    bl_results_destroy(r);
}

/* Invalidation: disturbed batches are marked, kept and excluded; overhead subtracted. */
static void finish_invalidates_and_subtracts_overhead(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, "BenchmarkY"));
    for (int i = 0; i < 10; i++) {
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 100, .ns = 100, .cpu_ns = 100};
        bl_launch_add_sample(l, &o);
        bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 100, .ns = 1100, .cpu_ns = 1100};
        if (i == 3)
            m.nivcsw = 1, m.ns = 90000; /* preempted: must not count */
        if (i == 5)
            m.migrations = 1, m.ns = 50000;
        bl_launch_add_sample(l, &m);
    }
    bl_launch_finish(l);
    assert_int_equal(l->n_measured, 10);
    assert_int_equal(l->n_invalid, 2);
    assert_int_equal(l->invalid_by[0], 1); /* context switch */
    assert_int_equal(l->invalid_by[1], 1); /* migration */
    assert_true(l->overhead_ns == 1.0);
    assert_true(l->raw_ns_per_op == 11.0);
    assert_true(l->ns_per_op == 10.0);
    assert_int_equal(l->measured_reps, 800);
    assert_int_equal(l->n_samples, 20); /* nothing removed */
    bl_results_destroy(r);
}

static void faults_invalidate_only_when_unusual(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, "BenchmarkZ"));
    for (int i = 0; i < 10; i++) {
        bl_sample m = {
            .stage = BL_STAGE_MEASURE, .reps = 1, .ns = 10, .cpu_ns = 10, .minflt = i == 2 ? 3 : 0};
        bl_launch_add_sample(l, &m);
    }
    bl_launch_finish(l);
    assert_int_equal(l->n_invalid, 1);
    assert_int_equal(l->invalid_by[3], 1);
    /* a benchmark that faults in every batch: faults are its nature */
    for (size_t i = 0; i < l->n_samples; i++)
        l->samples[i].minflt = 5;
    bl_launch_finish(l);
    assert_int_equal(l->n_invalid, 0);
    assert_true(l->intrinsic & BL_INVALID_MINFLT);
    /* off-CPU gap: 1 ms of wall time with 0.2 ms on CPU, in one batch of ten */
    l->samples[4].ns = 1e6;
    l->samples[4].cpu_ns = 2e5;
    bl_launch_finish(l);
    assert_int_equal(l->n_invalid, 1);
    assert_int_equal(l->invalid_by[4], 1);
    bl_results_destroy(r);
}

/* A switch in a long batch counts only when it measurably cost time. */
static void long_batches_keep_cheap_context_switches(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, "BenchmarkLong"));
    bl_sample a = {
        .stage = BL_STAGE_MEASURE, .reps = 1, .ns = 7e7, .cpu_ns = 7e7 - 1e4, .nivcsw = 1};
    bl_sample b = {.stage = BL_STAGE_MEASURE, .reps = 1, .ns = 7e7, .cpu_ns = 6e7, .nivcsw = 1};
    bl_sample c = {.stage = BL_STAGE_MEASURE, .reps = 1000, .ns = 1e6, .cpu_ns = 1e6, .nivcsw = 1};
    bl_launch_add_sample(l, &a);
    bl_launch_add_sample(l, &b);
    bl_launch_add_sample(l, &c);
    for (int i = 0; i < 5; i++) { /* most batches are clean */
        bl_sample ok = {.stage = BL_STAGE_MEASURE, .reps = 1000, .ns = 1e6, .cpu_ns = 1e6};
        bl_launch_add_sample(l, &ok);
    }
    bl_launch_finish(l);
    assert_int_equal(l->samples[0].invalid, 0);
    assert_true(l->samples[1].invalid & BL_INVALID_CTXSW);
    assert_true(l->samples[2].invalid & BL_INVALID_CTXSW); /* short batch: always */
    assert_int_equal(l->intrinsic, 0);
    bl_results_destroy(r);
}

/* On-CPU time per op: the CPU clock's reads around each batch (what the
 * empty loop spends beyond its wall time) come off, the loop overhead too,
 * and one thread is never on CPU longer than the wall clock ran. */
static void cpu_per_op_drops_clock_reads_and_stays_within_wall_time(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkCpu");
    bl_launch *l = bl_results_add_launch(b);
    for (int i = 0; i < 10; i++) {
        /* 100 reps of an empty loop: 200 ns wall, +1000 ns of clock reads */
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 100, .ns = 200, .cpu_ns = 1200};
        /* 100 reps of 50 ns/op with the thread on CPU for 30 ns/op */
        bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 100, .ns = 5000, .cpu_ns = 4000};
        bl_launch_add_sample(l, &o);
        bl_launch_add_sample(l, &m);
    }
    bl_launch_finish(l);
    assert_true(fabs(l->ns_per_op - 48) < 1e-9);
    /* (4000 - 1000) / 100 - 2 = 28 ns/op, not 38 */
    assert_true(fabs(bl_launch_cpu_per_op(l) - 28) < 1e-9);
    /* the Go line carries it as an extra unit, benchstat-style */
    char *line = write_launch(b, l);
    if (!strstr(line, " ns/op\t     28.00 cpu-ns/op\n"))
        fail_msg("no cpu-ns/op in: %s", line);
    free(line);
    /* per-op hooks read the clocks once per op: never more than the wall time */
    for (size_t i = 0; i < l->n_samples; i++)
        if (l->samples[i].stage == BL_STAGE_MEASURE)
            l->samples[i].cpu_ns = 100000;
    assert_true(fabs(bl_launch_cpu_per_op(l) - 48) < 1e-9);
    /* the estimate centres it over the launches as it does the time */
    bl_estimate e;
    assert_int_equal(bl_bench_estimate(b, 0.95, &e), 0);
    assert_true(fabs(e.cpu_ns - 48) < 1e-9);
    /* a batch with pauses has no CPU time per op to give; unknown is NAN */
    for (size_t i = 0; i < l->n_samples; i++)
        l->samples[i].pauses = 1;
    assert_true(isnan(bl_launch_cpu_per_op(l)));
    assert_int_equal(bl_bench_estimate(b, 0.95, &e), 0);
    assert_true(isnan(e.cpu_ns));
    bl_results_destroy(r);
}

struct seen {
    size_t n;
    char name[80];
    double ns;
    size_t n_values;
    char last_unit[64];
};

static int on_result(void *ctx, const bl_gobench_result *r)
{
    struct seen *s = ctx;
    s->n++;
    snprintf(s->name, sizeof s->name, "%.*s", (int)(r->name_len < 60 ? r->name_len : 60), r->name);
    s->ns = r->values[0].value;
    s->n_values = r->n_values;
    snprintf(s->last_unit, sizeof s->last_unit, "%s", r->values[r->n_values - 1].unit);
    return 0;
}

static void hostile_names_units_and_config_stay_one_line_and_read_back(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    /* --pkg with newlines, a name with a no-break space and a newline, a
     * unit that would forge a second ns/op, a 60 KB parameter value (more
     * than benchstat's old 64 KiB once the rest is added: read back whole) */
    bl_results_set_config(r, "pkg", "x\nBenchmarkForged 1 999 ns/op\nmore");
    char *big = malloc(60001);
    memset(big, 'v', 60000);
    big[60000] = '\0';
    struct bl__buf name = {0};
    bl__buf_printf(&name,
                   "BenchmarkA/v=a\xC2\xA0"
                   "b\nBenchmarkB 1 5 ns/op/big=%s",
                   big);
    bl_bench_result *b = bl_results_bench(r, name.data);
    bl_launch *l = bl_results_add_launch(b);
    l->ns_per_op = 0.35;
    l->measured_reps = 1000;
    bl_launch_set_metric(l,
                         "y/op\xC2\xA0"
                         "999\xC2\xA0ns/op",
                         2);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(bl_gobench_write(f, r), 0);
    fclose(f);
    FILE *tmp = tmpfile();
    fwrite(buf, 1, len, tmp);
    fflush(tmp);
    rewind(tmp);
    struct seen seen = {0};
    bl_gobench_handler h = {.ctx = &seen, .on_result = on_result};
    char err[256] = "";
    assert_int_equal(bl_gobench_read_fd(fileno(tmp), "t", "t", &h, err, sizeof err), 0);
    fclose(tmp);
    assert_int_equal(seen.n, 1); /* nothing forged */
    assert_true(seen.ns == 0.35);
    assert_int_equal(seen.n_values, 2); /* ns/op and the metric, no forged ns/op */
    assert_string_equal(seen.last_unit, "y/op_999_ns/op");
    assert_memory_equal(seen.name, "A/v=a_b_BenchmarkB_1_5_ns/op/big=vvv", 36);
    assert_non_null(strstr(buf, "pkg: x BenchmarkForged 1 999 ns/op more\n"));
    free(buf);
    free(big);
    bl__buf_fini(&name);
    bl_results_destroy(r);
}

/* Results written in the Go format and read back by bl_results_read_fd. */
static bl_results *write_and_read(const bl_results *r, int *wrc, char **text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *wrc = bl_gobench_write(f, r);
    fclose(f);
    FILE *tmp = tmpfile();
    fwrite(buf, 1, len, tmp);
    fflush(tmp);
    rewind(tmp);
    bl_results *back = NULL;
    char err[256] = "";
    bl_diags diags = {0};
    if (bl_results_read_fd(fileno(tmp), "t", &back, &diags, err, sizeof err) != 0)
        back = NULL;
    assert_int_equal(diags.n_total, 0);
    bl_diags_fini(&diags);
    fclose(tmp);
    if (text)
        *text = buf;
    else
        free(buf);
    return back;
}

static bl_launch *launch_of(bl_results *r, const char *name, double ns)
{
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, name));
    l->ns_per_op = ns;
    l->measured_reps = 698;
    return l;
}

/* A metric whose unit is one the writer puts on the line itself (a user's
 * "ns/op") read back as the time: Par-8 wrote 13.85 ns/op and read back
 * 11.86. It is written "user:ns/op" now; names ending in -N read back
 * whole (benchlab's reader strips no GOMAXPROCS suffix; compare does). */
static void a_metric_named_like_the_time_does_not_replace_it(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_launch *a = launch_of(r, "BenchmarkPar-8", 13.85);
    bl_launch_set_metric(a, "ns/op", 11.86);
    bl_launch_set_metric(a, "MB/s", 5);
    bl_launch *b = launch_of(r, "BenchmarkPar-8-4", 16.12);
    bl_launch_set_metric(b, "ns/op", 11.86);
    bl_launch_set_metric(b, "user:ns/op", 7); /* taken too, by the renamed one */
    int wrc;
    char *text;
    bl_results *back = write_and_read(r, &wrc, &text);
    assert_int_equal(wrc, 0);
    assert_non_null(back);
    assert_non_null(strstr(text, "\t     11.86 user:ns/op\t     5.000 user:MB/s\n"));
    assert_int_equal(back->n_benches, 2);
    assert_string_equal(back->benches[0].name, "BenchmarkPar-8");
    assert_string_equal(back->benches[1].name, "BenchmarkPar-8-4");
    assert_true(back->benches[0].launches[0].ns_per_op == 13.85);
    assert_true(back->benches[1].launches[0].ns_per_op == 16.12);
    const bl_launch *lb = &back->benches[1].launches[0];
    assert_int_equal(lb->n_metrics, 2);
    assert_string_equal(lb->metrics[0].unit, "user:ns/op");
    assert_true(lb->metrics[0].value == 11.86);
    assert_string_equal(lb->metrics[1].unit, "user:user:ns/op");
    assert_true(lb->metrics[1].value == 7);
    free(text);
    bl_results_destroy(back);
    bl_results_destroy(r);
}

/* merge --format go of Google Benchmark JSON wrote "BM_Copy/size=64 ...":
 * not a result line, so every reader (benchlab's, benchstat) skipped it. */
static void a_name_without_the_benchmark_prefix_gets_it(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    launch_of(r, "BM_Copy/size=64", 40);
    int wrc;
    char *text;
    bl_results *back = write_and_read(r, &wrc, &text);
    assert_int_equal(wrc, 0);
    assert_non_null(back);
    assert_memory_equal(text, "BenchmarkBM_Copy/size=64\t", 25);
    assert_int_equal(back->n_benches, 1);
    assert_string_equal(back->benches[0].name, "BenchmarkBM_Copy/size=64");
    assert_true(back->benches[0].launches[0].ns_per_op == 40);
    free(text);
    bl_results_destroy(back);
    bl_results_destroy(r);
}

/* A 70 KB name made a line benchstat cannot read (the whole file fails
 * with "token too long"): the result line is refused, nothing of it is
 * written; configuration and comment values that long are cut, marked. */
static void a_line_over_64_kib_is_refused_or_cut(void **state)
{
    (void)state;
    char *big = malloc(70001);
    memset(big, 'v', 70000);
    big[70000] = '\0';
    struct bl__buf name = {0};
    bl__buf_printf(&name, "BenchmarkBig/v=%s", big);
    bl_results *r = bl_results_create();
    bl_results_set_config(r, "pkg", big);
    bl_results_set_meta(r, "command", "\xC3\xA9\xC3\xA9");
    launch_of(r, name.data, 40);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(bl_gobench_write(f, r), BL_ETOOLONG);
    fclose(f);
    assert_null(strstr(buf, "BenchmarkBig"));
    const char *pkg = strstr(buf, "pkg: vvv");
    assert_non_null(pkg);
    size_t line = strcspn(pkg, "\n");
    assert_int_equal(line, 65535);
    assert_memory_equal(pkg + line - 6, " [cut]", 6);
    /* the same line alone: not a result, so the streaming writer says so */
    free(buf);
    f = open_memstream(&buf, &len);
    assert_int_equal(bl_gobench_write_launch(f, &r->benches[0], &r->benches[0].launches[0]),
                     BL_ETOOLONG);
    fclose(f);
    assert_int_equal(len, 0);
    free(buf);
    /* a cut never splits a UTF-8 sequence */
    bl_results *u = bl_results_create();
    struct bl__buf e = {0};
    for (int i = 0; i < 40000; i++)
        bl__buf_puts(&e, "\xC3\xA9");
    bl_results_set_config(u, "note", e.data);
    f = open_memstream(&buf, &len);
    assert_int_equal(bl_gobench_write_header(f, u), 0);
    fclose(f);
    assert_true(len <= 65536);
    assert_memory_equal(buf + len - 8, "\xA9 [cut]\n", 8);
    free(buf);
    bl__buf_fini(&e);
    bl_results_destroy(u);
    bl__buf_fini(&name);
    free(big);
    bl_results_destroy(r);
}

/* "\xE2\x80" then 'x' is no space rune (Go decodes \xE2 alone as an
 * error, one byte): it was taken for U+2000..U+200A, so the writer ate the
 * 'x' and the reader split fields where benchstat does not. */
static void an_invalid_sequence_is_not_a_space(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    launch_of(r,
              "BenchmarkA\xE2\x80xB\xE2\x80\x84"
              "C",
              40);
    int wrc;
    char *text;
    bl_results *back = write_and_read(r, &wrc, &text);
    assert_int_equal(wrc, 0);
    assert_memory_equal(text, "BenchmarkA\xE2\x80xB_C\t", 16);
    assert_non_null(back);
    assert_string_equal(back->benches[0].name, "BenchmarkA\xE2\x80xB_C");
    free(text);
    bl_results_destroy(back);
    bl_results_destroy(r);
}

/* A configuration key "[2Jm" made the file's first byte '[': the results
 * reader took the whole file for JSON and read nothing. */
static void a_config_key_never_makes_the_file_look_like_json(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_results_set_config(r, "[2Jm", "pkgpkg");
    bl_results_set_config(r, "{x", "y");
    launch_of(r, "BenchmarkA", 40);
    int wrc;
    char *text;
    bl_results *back = write_and_read(r, &wrc, &text);
    assert_int_equal(wrc, 0);
    assert_memory_equal(text, "_2Jm: pkgpkg\n_x: y\n", 19);
    assert_non_null(back);
    assert_int_equal(back->n_benches, 1);
    free(text);
    bl_results_destroy(back);
    bl_results_destroy(r);
}

/* A benchmark with its own budget or count says so in a note after the
 * results, since the header's time-budget-s and launches are the run's;
 * one with the run's says nothing. The JSON keeps it and reads it back. */
static void own_plan_is_a_note_and_the_header_stays_the_runs(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_results_set_meta(r, "time-budget-s", "0.5");
    bl_results_set_meta(r, "launches", "6");
    launch_of(r, "BenchmarkRun", 10);
    launch_of(r, "BenchmarkBoth", 10);
    launch_of(r, "BenchmarkTime", 10);
    launch_of(r, "BenchmarkCount", 10);
    bl_results_bench(r, "BenchmarkBoth")->own_time_s = 0.3;
    bl_results_bench(r, "BenchmarkBoth")->own_count = 3;
    bl_results_bench(r, "BenchmarkTime")->own_time_s = 2;
    bl_results_bench(r, "BenchmarkCount")->own_count = 12;
    int wrc;
    char *text;
    bl_results *back = write_and_read(r, &wrc, &text);
    assert_int_equal(wrc, 0);
    assert_non_null(back);
    assert_non_null(strstr(text, "# time-budget-s: 0.5\n# launches: 6\n"));
    assert_non_null(strstr(text, "\n# note BenchmarkBoth: its own plan: time budget 0.3 s over 3 "
                                 "launches (time-budget-s and launches above are the run's)\n"));
    assert_non_null(strstr(
        text,
        "\n# note BenchmarkTime: its own time budget: 2 s (time-budget-s above is the run's)\n"));
    assert_non_null(strstr(
        text,
        "\n# note BenchmarkCount: its own count: 12 launches (launches above is the run's)\n"));
    assert_null(strstr(text, "# note BenchmarkRun"));
    /* comments: the results read back whole, the run's metadata unchanged */
    assert_int_equal(back->n_benches, 4);
    assert_string_equal(bl_results_get_meta(back, "time-budget-s"), "0.5");
    free(text);
    bl_results_destroy(back);
    /* JSON: "own_plan" per benchmark, read back */
    char *js = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&js, &len);
    assert_int_equal(bl_json_write(f, r), 0);
    fclose(f);
    assert_non_null(strstr(js, "\"own_plan\":{\"time_s\":0.3,\"count\":3}"));
    assert_non_null(strstr(js, "\"own_plan\":{\"time_s\":2,\"count\":null}"));
    assert_non_null(strstr(js, "\"own_plan\":{\"time_s\":null,\"count\":12}"));
    FILE *tmp = tmpfile();
    fwrite(js, 1, len, tmp);
    fflush(tmp);
    rewind(tmp);
    char err[256] = "";
    assert_int_equal(bl_results_read_fd(fileno(tmp), "t.json", &back, NULL, err, sizeof err), 0);
    fclose(tmp);
    const bl_bench_result *both = bl_results_bench(back, "BenchmarkBoth");
    assert_true(both->own_time_s == 0.3 && both->own_count == 3);
    assert_true(bl_results_bench(back, "BenchmarkTime")->own_count == 0);
    assert_true(bl_results_bench(back, "BenchmarkCount")->own_time_s == 0);
    assert_true(bl_results_bench(back, "BenchmarkRun")->own_time_s == 0);
    free(js);
    bl_results_destroy(back);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_are_formatted_as_go_testing),
        cmocka_unit_test(own_plan_is_a_note_and_the_header_stays_the_runs),
        cmocka_unit_test(result_line_has_name_iterations_and_units),
        cmocka_unit_test(threaded_launch_rates_count_all_threads),
        cmocka_unit_test(rates_and_unit_metadata),
        cmocka_unit_test(failed_launch_writes_nothing_and_zero_is_floored),
        cmocka_unit_test(header_has_config_then_comments_for_varying_values),
        cmocka_unit_test(finish_invalidates_and_subtracts_overhead),
        cmocka_unit_test(faults_invalidate_only_when_unusual),
        cmocka_unit_test(long_batches_keep_cheap_context_switches),
        cmocka_unit_test(cpu_per_op_drops_clock_reads_and_stays_within_wall_time),
        cmocka_unit_test(hostile_names_units_and_config_stay_one_line_and_read_back),
        cmocka_unit_test(a_metric_named_like_the_time_does_not_replace_it),
        cmocka_unit_test(a_name_without_the_benchmark_prefix_gets_it),
        cmocka_unit_test(a_line_over_64_kib_is_refused_or_cut),
        cmocka_unit_test(an_invalid_sequence_is_not_a_space),
        cmocka_unit_test(a_config_key_never_makes_the_file_look_like_json),
    };
    return cmocka_run_group_tests_name("gobench_write", tests, NULL, NULL);
}
