/* test_gobench_read.c - one test per rule of the Go benchmark format
 * reader (benchfmt's behaviour, benchstat-spec.md section 1). Each test
 * feeds a text and compares the callbacks' log with the expected one. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "benchlab/format.h"

struct log {
    char buf[8192];
    size_t len;
};

static void logf_(struct log *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->buf + l->len, sizeof l->buf - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n;
}

static int on_result(void *ctx, const bl_gobench_result *r)
{
    struct log *l = ctx;
    logf_(l, "R %zu [%s] %lld", r->line, r->name, r->iters);
    for (size_t i = 0; i < r->n_values; i++)
        logf_(l, " %.17g %s", r->values[i].value, r->values[i].unit);
    logf_(l, " {");
    for (size_t i = 0; i < r->n_config; i++)
        logf_(l, "%s%s=%s", i ? "," : "", r->config[i].key, r->config[i].value);
    logf_(l, "}\n");
    return 0;
}

static int on_unit(void *ctx, const char *unit, const char *key, const char *value,
                   const char *path, size_t line)
{
    (void)path;
    logf_(ctx, "U %zu %s %s=%s\n", line, unit, key, value);
    return 0;
}

static void on_meta(void *ctx, const char *key, const char *value)
{
    logf_(ctx, "M %s=%s\n", key, value);
}

static void on_error(void *ctx, const char *path, size_t line, const char *msg)
{
    logf_(ctx, "E %s:%zu: %s\n", path, line, msg);
}

static int feed(const char *text, size_t len, struct log *l, char *err, size_t err_size)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fflush(f);
    rewind(f);
    bl_gobench_handler h = {l, on_result, on_unit, on_meta, on_error, NULL};
    l->len = 0;
    l->buf[0] = '\0';
    int rc = bl_gobench_read_fd(fileno(f), "in.txt", "lab", &h, err, err_size);
    fclose(f);
    return rc;
}

static void check(const char *text, const char *want)
{
    struct log l;
    char err[256] = "";
    assert_int_equal(feed(text, strlen(text), &l, err, sizeof err), 0);
    assert_string_equal(l.buf, want);
}

static void result_line_gives_name_iterations_and_pairs(void **state)
{
    (void)state;
    check("BenchmarkFoo/n=10-8 \t 100\t 12.5 ns/op\t 64 B/op\n",
          "R 1 [Foo/n=10-8] 100 12.5 ns/op 64 B/op {.file=lab}\n");
}

static void config_line_applies_to_later_results_and_empty_value_deletes(void **state)
{
    (void)state;
    check("goos: linux\nnote: a   b:c  \nBenchmarkA 1 1 x\nnote:\nBenchmarkA 1 2 x\n",
          "R 3 [A] 1 1 x {.file=lab,goos=linux,note=a   b:c  }\n"
          "R 5 [A] 1 2 x {.file=lab,goos=linux}\n");
}

static void config_keys_follow_unicode_letter_case(void **state)
{
    (void)state;
    check("k\xc3\xa4se: 1\n\xc3\xb6l: 2\n\xc3\x84pfel: 3\nk\xc3\x84se: 4\nBenchmarkA 1 1 x\n",
          "R 5 [A] 1 1 x {.file=lab,k\xc3\xa4se=1,\xc3\xb6l=2}\n");
}

static void deleting_a_config_key_swaps_in_the_last_one(void **state)
{
    (void)state;
    check("a: 1\nb: 2\nc: 3\na:\nBenchmarkA 1 1 x\n", "R 5 [A] 1 1 x {.file=lab,c=3,b=2}\n");
}

static void lines_that_are_not_config_are_ignored(void **state)
{
    (void)state;
    check("Key: upper\n0key: digit\nkey:nospace\nkey :space\nkEy: mixed\nPASS\nok  pkg 1s\n"
          "  BenchmarkIndented 1 1 x\n--- BENCH: x\n",
          "");
}

static void bare_benchmark_name_is_ignored_but_trailing_space_is_an_error(void **state)
{
    (void)state;
    check("BenchmarkFoo\nBenchmarkFoo \n", "E in.txt:2: missing iteration count\n");
}

static void benchmark_prefix_is_a_pure_prefix_test(void **state)
{
    (void)state;
    check("Benchmarking is fun\nBenchmark 100 7 ns/op\n",
          "E in.txt:1: parsing iteration count: invalid syntax\n"
          "R 2 [] 100 7 ns/op {.file=lab}\n");
}

static void malformed_result_lines_are_reported_and_skipped(void **state)
{
    (void)state;
    check("BenchmarkA 1e3 1 x\nBenchmarkA 100\nBenchmarkA 100 1,234 x\nBenchmarkA 100 5\n"
          "BenchmarkA 99999999999999999999 5 x\nBenchmarkA 1 1e999 x\n",
          "E in.txt:1: parsing iteration count: invalid syntax\n"
          "E in.txt:2: missing measurements\n"
          "E in.txt:3: parsing measurement: invalid syntax\n"
          "E in.txt:4: missing units\n"
          "E in.txt:5: parsing iteration count: value out of range\n"
          "E in.txt:6: parsing measurement: value out of range\n");
}

static void iteration_count_takes_a_sign(void **state)
{
    (void)state;
    check("BenchmarkA -5 1 x\nBenchmarkA +0 1 x\n",
          "R 1 [A] -5 1 x {.file=lab}\nR 2 [A] 0 1 x {.file=lab}\n");
}

static void values_parse_like_go_parsefloat(void **state)
{
    (void)state;
    check("BenchmarkA 1 1.5e+03 a .5 b +12 c 0x1p-2 d Inf e -Infinity f 1_000 g\n",
          "R 1 [A] 1 1500 a 0.5 b 12 c 0.25 d inf e -inf f 1000 g {.file=lab}\n");
    check("BenchmarkA 1 0x10 a\n", "E in.txt:1: parsing measurement: invalid syntax\n");
    check("BenchmarkA 1 1__0 a\n", "E in.txt:1: parsing measurement: invalid syntax\n");
    check("BenchmarkA 1 +NaN a\n", "E in.txt:1: parsing measurement: invalid syntax\n");
}

static void nan_parses(void **state)
{
    (void)state;
    double v;
    assert_int_equal(bl_gobench_parse_float("nan", 3, &v), 0);
    assert_true(v != v);
    assert_int_equal(bl_gobench_parse_float("0.1", 3, &v), 0);
    assert_true(v == 0.1);
    assert_int_equal(bl_gobench_parse_float("123456789012345678901234", 24, &v), 0);
    assert_true(v == 123456789012345678901234.0);
    assert_int_equal(bl_gobench_parse_float("4.9e-324", 8, &v), 0);
    assert_true(v == 4.9e-324);
}

static void same_unit_twice_gives_two_values(void **state)
{
    (void)state;
    check("BenchmarkA 1 1 x 2 x\n", "R 1 [A] 1 1 x 2 x {.file=lab}\n");
}

static void unicode_spaces_separate_fields(void **state)
{
    (void)state;
    check("BenchmarkA\xc2\xa0"
          "1\xe2\x80\x83"
          "5 x\n",
          "R 1 [A] 1 5 x {.file=lab}\n");
}

static void unit_lines_give_pairs_and_report_bad_fields(void **state)
{
    (void)state;
    check("Unit ns/op assume=exact better=lower\nUnit\nUnit x/op a =b c=d\nUnits x\n",
          "U 1 ns/op assume=exact\nU 1 ns/op better=lower\nE in.txt:2: missing unit\n"
          "E in.txt:3: expected key=value\nE in.txt:3: expected key=value\nU 3 x/op c=d\n");
}

static void comment_metadata_is_kept(void **state)
{
    (void)state;
    check("# date: 2026-01-01T00:00:00Z\n# host: box\n#nothing\n",
          "M date=2026-01-01T00:00:00Z\nM host=box\n");
}

static void crlf_and_missing_final_newline_are_fine(void **state)
{
    (void)state;
    check("goos: linux\r\nBenchmarkA 1 5 x\r\nBenchmarkA 1 6 x",
          "R 2 [A] 1 5 x {.file=lab,goos=linux}\nR 3 [A] 1 6 x {.file=lab,goos=linux}\n");
}

static void a_line_of_70k_reads_and_one_past_16m_is_fatal_with_its_number(void **state)
{
    (void)state;
    /* benchstat stops at 64 KiB (bufio.MaxScanTokenSize); benchlab's own
     * files may hold longer lines (a long parameter value), so we read them */
    size_t n = 70000;
    char *text = malloc((16u << 20) + 64);
    assert_non_null(text);
    strcpy(text, "BenchmarkA 1 1 x\n#");
    size_t off = strlen(text);
    memset(text + off, 'a', n);
    strcpy(text + off + n, "\nBenchmarkA 1 2 x\n");
    struct log l;
    char err[256] = "";
    assert_int_equal(feed(text, strlen(text), &l, err, sizeof err), 0);
    assert_string_equal(l.buf, "R 1 [A] 1 1 x {.file=lab}\nR 3 [A] 1 2 x {.file=lab}\n");
    /* bounded memory: a line of 16 MiB is refused, naming its number */
    n = 16u << 20;
    memset(text + off, 'a', n);
    text[off + n] = '\n';
    assert_int_equal(feed(text, off + n + 1, &l, err, sizeof err), BL_EFORMAT);
    assert_string_equal(err, "in.txt:2: bufio.Scanner: token too long");
    assert_string_equal(l.buf, "R 1 [A] 1 1 x {.file=lab}\n");
    free(text);
}

static int count_result(void *ctx, const bl_gobench_result *r)
{
    size_t *count = ctx;
    assert_true(r->values[0].value == (double)*count);
    (*count)++;
    return 0;
}

static void long_inputs_stream_across_blocks(void **state)
{
    (void)state;
    size_t lines = 60000;
    size_t cap = lines * 24;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = 0;
    for (size_t i = 0; i < lines; i++)
        len += (size_t)snprintf(text + len, cap - len, "BenchmarkA 1 %zu x\n", i);
    char err[64];
    FILE *f = tmpfile();
    fwrite(text, 1, len, f);
    rewind(f);
    size_t count = 0;
    bl_gobench_handler h = {&count, count_result, NULL, NULL, NULL, NULL};
    assert_int_equal(bl_gobench_read_fd(fileno(f), "in", "in", &h, err, sizeof err), 0);
    fclose(f);
    free(text);
    assert_int_equal(count, lines);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(result_line_gives_name_iterations_and_pairs),
        cmocka_unit_test(config_line_applies_to_later_results_and_empty_value_deletes),
        cmocka_unit_test(config_keys_follow_unicode_letter_case),
        cmocka_unit_test(deleting_a_config_key_swaps_in_the_last_one),
        cmocka_unit_test(lines_that_are_not_config_are_ignored),
        cmocka_unit_test(bare_benchmark_name_is_ignored_but_trailing_space_is_an_error),
        cmocka_unit_test(benchmark_prefix_is_a_pure_prefix_test),
        cmocka_unit_test(malformed_result_lines_are_reported_and_skipped),
        cmocka_unit_test(iteration_count_takes_a_sign),
        cmocka_unit_test(values_parse_like_go_parsefloat),
        cmocka_unit_test(nan_parses),
        cmocka_unit_test(same_unit_twice_gives_two_values),
        cmocka_unit_test(unicode_spaces_separate_fields),
        cmocka_unit_test(unit_lines_give_pairs_and_report_bad_fields),
        cmocka_unit_test(comment_metadata_is_kept),
        cmocka_unit_test(crlf_and_missing_final_newline_are_fine),
        cmocka_unit_test(a_line_of_70k_reads_and_one_past_16m_is_fatal_with_its_number),
        cmocka_unit_test(long_inputs_stream_across_blocks),
    };
    return cmocka_run_group_tests_name("gobench_read", tests, NULL, NULL);
}
