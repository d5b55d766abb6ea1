/* test_gbench_write.c - Google Benchmark's JSON, console and CSV: the time
 * unit of each row and the labels of aggregates, as Google Benchmark 1.7.1
 * writes them, and the CSV's quoting under the rules every CSV follows
 * (docs/formats.md, "Hostile bytes"). */
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

/* A finished launch of `ns` per op, with its unit ("" for the run's) and label. */
static void add(bl_bench_result *b, double ns, const char *unit, const char *label)
{
    bl_launch *l = bl_results_add_launch(b);
    assert_non_null(l);
    l->ns_per_op = ns;
    l->measured_reps = 100;
    snprintf(l->time_unit, sizeof l->time_unit, "%s", unit);
    l->label = label ? strdup(label) : NULL;
}

/*
 * BM_ms: 2 and 4 ms per op in ms, the same label; BM_mixed: the run's unit
 * (us here), two labels; BM_some: one launch labelled, one not.
 */
static bl_results *sample_results(void)
{
    bl_results *r = bl_results_create();
    assert_non_null(r);
    snprintf(r->time_unit, sizeof r->time_unit, "us");
    bl_bench_result *b = bl_results_bench(r, "BenchmarkBM_ms");
    add(b, 2e6, "ms", "same");
    add(b, 4e6, "ms", "same");
    b = bl_results_bench(r, "BenchmarkBM_mixed");
    add(b, 1000, "", "pid 1");
    add(b, 3000, "", "pid 2");
    b = bl_results_bench(r, "BenchmarkBM_some");
    add(b, 5, "ns", "only one");
    add(b, 7, "ns", NULL);
    return r;
}

static char *written(int (*fn)(FILE *, const bl_results *), const bl_results *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(fn(f, r), 0);
    fclose(f);
    return buf;
}

static int json(FILE *f, const bl_results *r)
{
    return bl_gbench_json_write(f, r, "suite");
}

/* The JSON entry named `name` (from its "{" to its "}"); the caller frees. */
static char *entry(const char *doc, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "\"name\": \"%s\",", name);
    const char *p = strstr(doc, key);
    assert_non_null(p);
    const char *end = strchr(p, '}');
    assert_non_null(end);
    return strndup(p, (size_t)(end - p));
}

static void json_rows_are_in_their_unit(void **state)
{
    (void)state;
    bl_results *r = sample_results();
    char *doc = written(json, r);
    char *e = entry(doc, "BM_ms");
    assert_non_null(strstr(e, "\"real_time\": 2,"));
    assert_non_null(strstr(e, "\"time_unit\": \"ms\""));
    free(e);
    e = entry(doc, "BM_ms_mean");
    assert_non_null(strstr(e, "\"real_time\": 3,"));
    assert_non_null(strstr(e, "\"time_unit\": \"ms\""));
    free(e);
    /* cv is a fraction whatever the unit */
    e = entry(doc, "BM_ms_cv");
    assert_non_null(strstr(e, "\"real_time\": 0.4714045207910317,"));
    assert_non_null(strstr(e, "\"time_unit\": \"ms\""));
    free(e);
    /* no unit of its own: the run's */
    e = entry(doc, "BM_mixed_median");
    assert_non_null(strstr(e, "\"real_time\": 2,"));
    assert_non_null(strstr(e, "\"time_unit\": \"us\""));
    free(e);
    e = entry(doc, "BM_some");
    assert_non_null(strstr(e, "\"real_time\": 5,"));
    assert_non_null(strstr(e, "\"time_unit\": \"ns\""));
    free(e);
    free(doc);
    /* without a run's unit: ns */
    r->time_unit[0] = '\0';
    doc = written(json, r);
    e = entry(doc, "BM_mixed_median");
    assert_non_null(strstr(e, "\"real_time\": 2000,"));
    assert_non_null(strstr(e, "\"time_unit\": \"ns\""));
    free(e);
    free(doc);
    bl_results_destroy(r);
}

static void json_aggregates_carry_a_label_every_launch_has(void **state)
{
    (void)state;
    bl_results *r = sample_results();
    char *doc = written(json, r);
    static const char *const aggs[] = {"mean", "median", "stddev", "cv"};
    for (size_t a = 0; a < 4; a++) {
        char name[64];
        snprintf(name, sizeof name, "BM_ms_%s", aggs[a]);
        char *e = entry(doc, name);
        assert_non_null(strstr(e, "\"label\": \"same\"\n"));
        free(e);
        snprintf(name, sizeof name, "BM_mixed_%s", aggs[a]);
        e = entry(doc, name);
        assert_null(strstr(e, "\"label\""));
        free(e);
        snprintf(name, sizeof name, "BM_some_%s", aggs[a]);
        e = entry(doc, name);
        assert_null(strstr(e, "\"label\""));
        free(e);
    }
    /* the repetitions keep their own */
    assert_non_null(strstr(doc, "\"label\": \"pid 2\""));
    assert_non_null(strstr(doc, "\"label\": \"only one\""));
    free(doc);
    bl_results_destroy(r);
}

/* The console row of `name` (the whole line); the caller frees. */
static char *row(const char *doc, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = doc; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && p[n] == ' ')
            return strndup(p, strcspn(p, "\n"));
    fail_msg("no row %s in\n%s", name, doc);
    return NULL;
}

static void console_shows_the_unit_and_shared_labels(void **state)
{
    (void)state;
    bl_results *r = sample_results();
    char *doc = written(bl_gbench_console_write, r);
    char *x = row(doc, "BM_ms");
    assert_string_equal(x, "BM_ms                 2.00 ms         2.00 ms          100 same");
    free(x);
    x = row(doc, "BM_ms_mean");
    assert_string_equal(x, "BM_ms_mean            3.00 ms         3.00 ms            2 same");
    free(x);
    x = row(doc, "BM_ms_cv");
    assert_string_equal(x, "BM_ms_cv             47.14 %         47.14 %             2 same");
    free(x);
    x = row(doc, "BM_mixed_median");
    assert_string_equal(x, "BM_mixed_median       2.00 us         2.00 us            2");
    free(x);
    x = row(doc, "BM_some_stddev");
    assert_string_equal(x, "BM_some_stddev        1.41 ns         1.41 ns            2");
    free(x);
    free(doc);
    bl_results_destroy(r);
}

static void csv_has_the_unit_column_and_shared_labels(void **state)
{
    (void)state;
    bl_results *r = sample_results();
    char *doc = written(bl_gbench_csv_write, r);
    assert_non_null(strstr(doc, "\n\"BM_ms\",100,2,2,ms,,,\"same\",,\n"));
    assert_non_null(strstr(doc, "\n\"BM_ms_mean\",2,3,3,ms,,,\"same\",,\n"));
    /* a percentage as Google Benchmark 1.7.1's CSV has it: the fraction
     * times the unit's count per second over the repetitions */
    assert_non_null(strstr(doc, "\n\"BM_ms_cv\",2,235.702,235.702,ms,,,\"same\",,\n"));
    assert_non_null(strstr(doc, "\n\"BM_mixed\",100,1,1,us,,,\"pid 1\",,\n"));
    assert_non_null(strstr(doc, "\n\"BM_mixed_mean\",2,2,2,us,,,,,\n"));
    assert_non_null(strstr(doc, "\n\"BM_some_mean\",2,6,6,ns,,,,,\n"));
    free(doc);
    bl_results_destroy(r);
}

/* A name from a hostile benchmark: the terminal control sequence is shown
 * as text (the CSV may go to a terminal), the formula is neutralised, and
 * every name is quoted, as Google Benchmark quotes it. */
static void csv_names_are_quoted_and_neutralised(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    const char *names[] = {"BM_osc\x1b]52;c;cHduZWQ=\x07x", "=cmd|calc!A0", "BM_plain"};
    for (size_t i = 0; i < 3; i++) {
        bl_bench_result *b = bl_results_bench(r, names[i]);
        bl_launch *l = bl_results_add_launch(b);
        l->ns_per_op = 40.0;
        l->measured_reps = 1000;
    }
    char *csv = written(bl_gbench_csv_write, r);
    assert_null(strchr(csv, '\x1b'));
    assert_null(strchr(csv, '\x07'));
    assert_non_null(strstr(csv, "\n\"BM_osc\\x1b]52;c;cHduZWQ=\\x07x\","));
    assert_non_null(strstr(csv, "\n\"'=cmd|calc!A0\","));
    assert_non_null(strstr(csv, "\n\"BM_plain\",1000,"));
    free(csv);
    bl_results_destroy(r);
}

/* A benchmark that did not run: Google Benchmark's error row has empty
 * cells up to error_occurred, "true" there and the message after it (it
 * was one cell short: "true" fell under label). */
static void csv_error_row_says_true_under_error_occurred(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, "BenchmarkBM_fail"));
    l->status = BL_EBENCH;
    l->message = strdup("boom");
    char *csv = written(bl_gbench_csv_write, r);
    /* name, 7 empty cells (iterations ... label), error_occurred, error_message */
    assert_non_null(strstr(csv, "\n\"BM_fail\",,,,,,,,true,\"boom\"\n"));
    free(csv);
    bl_results_destroy(r);
}

/* One launch of `ns` per op with the metrics units[0..n) (2.5 each). */
static void add_metrics(bl_results *r, const char *name, const char *const *units, size_t n)
{
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, name));
    l->ns_per_op = 40.0;
    l->measured_reps = 1000;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(bl_launch_set_metric(l, units[i], 2.5), 0);
}

/* How many times s holds x. */
static size_t count(const char *s, const char *x)
{
    size_t n = 0, len = strlen(x);
    for (size_t i = 0; s[i]; i++)
        n += strncmp(s + i, x, len) == 0;
    return n;
}

/* A counter named as a key of the entry would be that key twice: Python's
 * json (Google Benchmark's tools/compare.py) keeps the last, so a counter
 * "real_time" replaced the time. Such a counter is written "user:NAME";
 * names that are one once cut to 71 bytes or with U+FFFD for bytes that
 * are not UTF-8 are told apart by "user:", then "#2". Their aggregates
 * read one value per launch (two launches of one such name read past
 * the end of the array: ASan). */
static void json_counters_never_take_a_key_of_the_entry(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    const char *keys[] = {"real_time", "threads", "name"};
    add_metrics(r, "BenchmarkBM_keys", keys, 3);
    char long_a[101], long_b[101];
    memset(long_a, 'c', 100);
    memcpy(long_b, long_a, 100);
    long_a[100] = long_b[100] = '\0';
    long_b[99] = 'd'; /* the same first 71 bytes */
    const char *longs[] = {long_a, long_b, "\xff", "user:\xfe", "\xfd"};
    add_metrics(r, "BenchmarkBM_long", longs, 5);
    add_metrics(r, "BenchmarkBM_long", longs, 5);
    char *doc = written(json, r);
    assert_non_null(strstr(doc, "\"user:real_time\": 2.5"));
    assert_non_null(strstr(doc, "\"user:threads\": 2.5"));
    assert_non_null(strstr(doc, "\"user:name\": 2.5"));
    assert_int_equal(count(doc, "\"real_time\":"), 1 + 2 + 4); /* 3 launches, 4 aggregates */
    /* each in the two launches and the mean and median (2.5 too) */
    char cut[80];
    snprintf(cut, sizeof cut, "\"%.71s\": 2.5", long_a);
    assert_int_equal(count(doc, cut), 4);
    snprintf(cut, sizeof cut, "\"user:%.66s\": 2.5", long_a);
    assert_int_equal(count(doc, cut), 4);
    assert_int_equal(count(doc, "\"\xEF\xBF\xBD\": 2.5"), 4);
    assert_int_equal(count(doc, "\"user:\xEF\xBF\xBD\": 2.5"), 4);
    assert_int_equal(count(doc, "\"\xEF\xBF\xBD#2\": 2.5"), 4); /* user: taken too */
    free(doc);
    bl_results_destroy(r);
}

/* "Benchmark" and "#01" keep their names: without the prefix or the suffix
 * nothing is left, and readers skip an entry without a name. */
static void names_are_never_empty(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    add_metrics(r, "Benchmark", NULL, 0);
    add_metrics(r, "#01", NULL, 0);
    add_metrics(r, "BenchmarkBM_x#02", NULL, 0);
    char *doc = written(json, r);
    assert_non_null(strstr(doc, "\"name\": \"Benchmark\","));
    assert_non_null(strstr(doc, "\"name\": \"#01\","));
    assert_non_null(strstr(doc, "\"name\": \"BM_x\","));
    free(doc);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_rows_are_in_their_unit),
        cmocka_unit_test(json_aggregates_carry_a_label_every_launch_has),
        cmocka_unit_test(console_shows_the_unit_and_shared_labels),
        cmocka_unit_test(csv_has_the_unit_column_and_shared_labels),
        cmocka_unit_test(csv_names_are_quoted_and_neutralised),
        cmocka_unit_test(csv_error_row_says_true_under_error_occurred),
        cmocka_unit_test(json_counters_never_take_a_key_of_the_entry),
        cmocka_unit_test(names_are_never_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
