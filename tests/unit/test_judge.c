/*
 * test_judge.c - the Hodges-Lehmann interval (bl_stats_shift_ci) against
 * brute force and tables, and judge's verdicts on results built to have
 * known answers: a 50% slowdown, no change, a change below the
 * threshold, a failure, benchmarks new and gone, the correction across a
 * suite, launch-level and pooled-batch comparisons.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab/judge.h"
#include "benchlab/stats.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* All n*m differences b_j - a_i, sorted. */
static double *all_differences(const double *a, size_t na, const double *b, size_t nb)
{
    double *d = malloc(na * nb * sizeof *d);
    assert_non_null(d);
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            d[i * nb + j] = b[j] - a[i];
    qsort(d, na * nb, sizeof *d, cmp_double);
    return d;
}

/* A deterministic, skewed sample (like timings): x0 + exponential-ish tail. */
static void sample(double *v, size_t n, double x0, unsigned seed)
{
    uint64_t s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(s >> 11) / 9007199254740992.0;
        v[i] = x0 - 10 * log(1 - u);
    }
}

static void shift_ci_matches_brute_force_ranks(void **state)
{
    (void)state;
    /* n = m = 10 at 95%: the critical U is 23 (tables), so the bounds
     * are the 24th and 77th of the 100 differences */
    double a[10], b[10];
    sample(a, 10, 100, 1);
    sample(b, 10, 108, 2);
    double shift, lo, hi;
    assert_int_equal(bl_stats_shift_ci(a, 10, b, 10, 0.95, &shift, &lo, &hi), 0);
    double *d = all_differences(a, 10, b, 10);
    assert_true(lo == d[23]);
    assert_true(hi == d[76]);
    assert_true(shift == (d[49] + d[50]) / 2);
    free(d);
    /* n = m = 5: critical U 2, bounds 3rd and 23rd of 25 */
    assert_int_equal(bl_stats_shift_ci(a, 5, b, 5, 0.95, &shift, &lo, &hi), 0);
    d = all_differences(a, 5, b, 5);
    assert_true(lo == d[2]);
    assert_true(hi == d[22]);
    assert_true(shift == d[12]);
    free(d);
    /* unequal sizes: 7 and 9, critical U 12 (tables): 13th and 51st of 63 */
    assert_int_equal(bl_stats_shift_ci(a, 7, b, 9, 0.95, &shift, &lo, &hi), 0);
    d = all_differences(a, 7, b, 9);
    assert_true(lo == d[12]);
    assert_true(hi == d[50]);
    free(d);
}

static void shift_ci_large_samples_use_the_normal_rank(void **state)
{
    (void)state;
    enum { N = 80, M = 70 };
    double a[N], b[M];
    sample(a, N, 100, 3);
    sample(b, M, 95, 4);
    double shift, lo, hi;
    assert_int_equal(bl_stats_shift_ci(a, N, b, M, 0.95, &shift, &lo, &hi), 0);
    double *d = all_differences(a, N, b, M);
    double c = floor(N * M / 2.0 - 1.959963984540054 * sqrt(N * M * (N + M + 1) / 12.0) + 0.5);
    size_t k = (size_t)c;
    assert_true(lo == d[k - 1]);
    assert_true(hi == d[N * M - k]);
    assert_true(lo < shift && shift < hi);
    free(d);
}

static void shift_ci_too_few_values_is_edom(void **state)
{
    (void)state;
    double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    double shift, lo, hi;
    /* 3 against 3: the smallest two-sided p is 0.1, no 95% interval */
    assert_int_equal(bl_stats_shift_ci(a, 3, b, 3, 0.95, &shift, &lo, &hi), -EDOM);
    assert_true(shift == 3);
    assert_true(isnan(lo) && isnan(hi));
    assert_int_equal(bl_stats_shift_ci(a, 0, b, 3, 0.95, &shift, &lo, &hi), -EINVAL);
}

/* ---- judge ------------------------------------------------------------------------ */

/* A benchmark with `n` launches whose estimates are x0 + noise. */
static void add_bench(bl_results *r, const char *name, size_t n, double x0, unsigned seed)
{
    bl_bench_result *b = bl_results_bench(r, name);
    assert_non_null(b);
    double v[64];
    sample(v, n, x0, seed);
    for (size_t i = 0; i < n; i++) {
        bl_launch *l = bl_results_add_launch(b);
        assert_non_null(l);
        l->ns_per_op = v[i];
    }
}

/* A benchmark with one launch of `n` measured batches around x0 per op. */
static void add_batched(bl_results *r, const char *name, size_t n, double x0, unsigned seed)
{
    bl_bench_result *b = bl_results_bench(r, name);
    bl_launch *l = bl_results_add_launch(b);
    double v[256];
    sample(v, n, x0, seed);
    for (size_t i = 0; i < n; i++) {
        bl_sample s = {.stage = BL_STAGE_MEASURE, .reps = 1000, .ns = v[i] * 1000, .cpu_ns = -1};
        assert_int_equal(bl_launch_add_sample(l, &s), 0);
    }
    bl_launch_finish(l);
}

static const bl_judgement *find(const bl_judgement_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->items[i].name, name) == 0)
            return &s->items[i];
    fail_msg("no judgement for %s", name);
    return NULL;
}

static void judge_gives_known_verdicts(void **state)
{
    (void)state;
    bl_results *base = bl_results_create(), *cur = bl_results_create();
    add_bench(base, "BenchmarkSlow", 10, 100, 1);
    add_bench(cur, "BenchmarkSlow", 10, 150, 2);
    add_bench(base, "BenchmarkFast", 10, 300, 3);
    add_bench(cur, "BenchmarkFast", 10, 200, 4);
    add_bench(base, "BenchmarkSame", 10, 100, 5);
    add_bench(cur, "BenchmarkSame", 10, 100, 6);
    add_bench(base, "BenchmarkBroken", 10, 100, 7);
    bl_bench_result *br = bl_results_bench(cur, "BenchmarkBroken");
    bl_launch *l = bl_results_add_launch(br);
    l->status = BL_ECRASH;
    l->ns_per_op = NAN;
    add_bench(base, "BenchmarkGone", 10, 100, 8);
    add_bench(cur, "BenchmarkNew", 10, 100, 9);

    bl_judgement_set *s;
    char err[256];
    assert_int_equal(bl_judge(base, cur, NULL, &s, err, sizeof err), 0);
    const bl_judgement *j = find(s, "BenchmarkSlow");
    assert_int_equal(j->verdict, BL_VERDICT_SLOWER);
    assert_true(j->launch_level);
    assert_int_equal(j->n_base, 10);
    assert_true(j->ratio > 1.3 && j->ratio < 1.7);
    assert_true(j->ratio_lo <= j->ratio && j->ratio <= j->ratio_hi);
    assert_true(j->p < 0.001);
    assert_int_equal(find(s, "BenchmarkFast")->verdict, BL_VERDICT_FASTER);
    assert_int_equal(find(s, "BenchmarkSame")->verdict, BL_VERDICT_UNCHANGED);
    assert_false(find(s, "BenchmarkSame")->significant);
    assert_int_equal(find(s, "BenchmarkBroken")->verdict, BL_VERDICT_FAILED);
    assert_int_equal(find(s, "BenchmarkGone")->verdict, BL_VERDICT_MISSING);
    assert_int_equal(find(s, "BenchmarkNew")->verdict, BL_VERDICT_NEW);
    assert_int_equal(s->n_tested, 3);
    assert_int_equal(s->n_slower, 1);
    assert_int_equal(s->n_faster, 1);
    assert_int_equal(s->n_failed, 1);

    /* the text for a CI log, the Markdown for a pull request */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(bl_judge_write_text(f, s, "run 1", "run 2"), 0);
    fclose(f);
    assert_non_null(strstr(buf, "judging run 2 against run 1"));
    assert_non_null(strstr(buf, "SLOWER"));
    assert_non_null(strstr(buf, "FAILED"));
    assert_non_null(strstr(buf, "REGRESSION"));
    assert_non_null(strstr(buf, "Holm-corrected over 3 benchmarks"));
    free(buf);
    f = open_memstream(&buf, &len);
    assert_int_equal(bl_judge_write_markdown(f, s, "main", "pr|1"), 0);
    fclose(f);
    assert_non_null(strstr(buf, "| Slow |"));
    assert_non_null(strstr(buf, "**slower**"));
    assert_non_null(strstr(buf, "pr\\|1"));
    free(buf);
    bl_judgement_set_destroy(s);
    bl_results_destroy(base);
    bl_results_destroy(cur);
}

static void judge_change_below_threshold_is_unchanged(void **state)
{
    (void)state;
    bl_results *base = bl_results_create(), *cur = bl_results_create();
    /* a clear 3% shift: significant, but under the 5% threshold */
    add_bench(base, "BenchmarkX", 20, 1000, 1);
    add_bench(cur, "BenchmarkX", 20, 1030, 1);
    bl_judgement_set *s;
    char err[256];
    assert_int_equal(bl_judge(base, cur, NULL, &s, err, sizeof err), 0);
    assert_true(s->items[0].significant);
    assert_int_equal(s->items[0].verdict, BL_VERDICT_UNCHANGED);
    bl_judgement_set_destroy(s);
    bl_judge_options o;
    bl_judge_options_init(&o);
    o.threshold_pct = 1;
    assert_int_equal(bl_judge(base, cur, &o, &s, err, sizeof err), 0);
    assert_int_equal(s->items[0].verdict, BL_VERDICT_SLOWER);
    bl_judgement_set_destroy(s);
    bl_results_destroy(base);
    bl_results_destroy(cur);
}

/* Twenty benchmarks, each slower with p around 0.01: significant one by
 * one, not as a family of twenty under Holm. */
static void judge_corrects_across_the_suite(void **state)
{
    (void)state;
    bl_results *base = bl_results_create(), *cur = bl_results_create();
    double a[8] = {100, 101, 102, 103, 104, 105, 106, 107};
    double b[8] = {103, 104, 105, 106, 108, 109, 110, 111};
    double p;
    assert_int_equal(bl_stats_utest(a, 8, b, 8, &p), 0);
    assert_true(p < 0.05 && p * 20 > 0.05);
    for (int k = 0; k < 20; k++) {
        char name[32];
        snprintf(name, sizeof name, "BenchmarkB%d", k);
        bl_bench_result *x = bl_results_bench(base, name), *y = bl_results_bench(cur, name);
        for (int i = 0; i < 8; i++) {
            bl_results_add_launch(x)->ns_per_op = a[i];
            bl_results_add_launch(y)->ns_per_op = b[i];
        }
    }
    bl_judge_options o;
    bl_judge_options_init(&o);
    o.threshold_pct = 1;
    bl_judgement_set *s;
    char err[256];
    o.correction = BL_CORRECTION_NONE;
    assert_int_equal(bl_judge(base, cur, &o, &s, err, sizeof err), 0);
    assert_int_equal(s->n_slower, 20);
    bl_judgement_set_destroy(s);
    o.correction = BL_CORRECTION_HOLM;
    assert_int_equal(bl_judge(base, cur, &o, &s, err, sizeof err), 0);
    assert_int_equal(s->n_slower, 0);
    assert_int_equal(s->n_unchanged, 20);
    bl_judgement_set_destroy(s);
    bl_results_destroy(base);
    bl_results_destroy(cur);
}

static void judge_pools_batches_with_few_launches(void **state)
{
    (void)state;
    bl_results *base = bl_results_create(), *cur = bl_results_create();
    add_batched(base, "BenchmarkOne", 100, 50, 1);
    add_batched(cur, "BenchmarkOne", 100, 75, 2);
    bl_judgement_set *s;
    char err[256];
    assert_int_equal(bl_judge(base, cur, NULL, &s, err, sizeof err), 0);
    assert_false(s->items[0].launch_level);
    assert_int_equal(s->items[0].n_base, 100);
    assert_int_equal(s->items[0].verdict, BL_VERDICT_SLOWER);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_judge_write_text(f, s, "a", "b");
    fclose(f);
    assert_non_null(strstr(buf, "--count 5"));
    free(buf);
    bl_judgement_set_destroy(s);
    /* a filter that matches nothing judges nothing, and a bad one is usage */
    bl_judge_options o;
    bl_judge_options_init(&o);
    o.filter = "^Nothing";
    assert_int_equal(bl_judge(base, cur, &o, &s, err, sizeof err), 0);
    assert_int_equal(s->n, 0);
    bl_judgement_set_destroy(s);
    o.filter = "(";
    assert_int_equal(bl_judge(base, cur, &o, &s, err, sizeof err), BL_EUSAGE);
    assert_non_null(strstr(err, "--filter"));
    bl_results_destroy(base);
    bl_results_destroy(cur);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shift_ci_matches_brute_force_ranks),
        cmocka_unit_test(shift_ci_large_samples_use_the_normal_rank),
        cmocka_unit_test(shift_ci_too_few_values_is_edom),
        cmocka_unit_test(judge_gives_known_verdicts),
        cmocka_unit_test(judge_change_below_threshold_is_unchanged),
        cmocka_unit_test(judge_corrects_across_the_suite),
        cmocka_unit_test(judge_pools_batches_with_few_launches),
    };
    return cmocka_run_group_tests_name("judge", tests, NULL, NULL);
}
