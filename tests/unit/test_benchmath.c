/* test_benchmath.c - benchstat's statistics against independent values
 * (data/benchmath_cases.h, computed by gen_benchmath_cases.py with
 * Python's fractions and statistics modules) and hand computations. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assert_close.h"
#include "benchlab/stats.h"
#include "data/benchmath_cases.h"

static void median_of_odd_count_is_middle_value(void **state)
{
    (void)state;
    const double xs[] = {1, 2, 7};
    assert_true(bl_bstat_quantile_sorted(xs, 3, 0.5) == 2);
}

static void median_of_even_count_is_lo_plus_half_difference(void **state)
{
    (void)state;
    /* a + 0.5*(b-a) differs from (a+b)/2 in the last bit for these */
    const double xs[] = {0.1, 0.7};
    double expect = 0.1 + 0.5 * (0.7 - 0.1);
    assert_memory_equal(&(double){bl_bstat_quantile_sorted(xs, 2, 0.5)}, &expect, sizeof expect);
    const double ys[] = {1, 2, 3, 10};
    assert_true(bl_bstat_quantile_sorted(ys, 4, 0.5) == 2.5);
}

static void ci_orders_at_95_match_benchstat_table(void **state)
{
    (void)state;
    /* spec table, including n = 24's (8, 18) */
    static const int want[][3] = {{1, 0, 2},    {5, 0, 5},    {6, 1, 6},     {10, 2, 9},
                                  {24, 8, 18},  {29, 9, 20},  {30, 10, 21},  {31, 10, 22},
                                  {45, 16, 30}, {60, 22, 38}, {100, 40, 60}, {200, 86, 114}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        long lo, hi;
        bl_bstat_median_ci_orders((size_t)want[i][0], 0.95, &lo, &hi);
        assert_int_equal(lo, want[i][1]);
        assert_int_equal(hi, want[i][2]);
    }
}

static void ci_orders_at_other_levels_match_exact_binomial(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof orders_cases / sizeof *orders_cases; i++) {
        long lo, hi;
        bl_bstat_median_ci_orders((size_t)orders_cases[i].n, orders_cases[i].conf, &lo, &hi);
        assert_int_equal(lo, orders_cases[i].lo);
        assert_int_equal(hi, orders_cases[i].hi);
    }
}

static void median_ci_needs_six_samples_at_95(void **state)
{
    (void)state;
    assert_int_equal(bl_bstat_median_min_samples(0.95), 6);
    double xs[] = {1, 2, 3, 4, 5}, m, lo, hi;
    assert_int_equal(bl_bstat_median_ci(xs, 5, 0.95, &m, &lo, &hi), 1);
    assert_true(isinf(lo) && lo < 0);
    double ys[] = {1, 2, 3, 4, 5, 6};
    assert_int_equal(bl_bstat_median_ci(ys, 6, 0.95, &m, &lo, &hi), 0);
    assert_true(lo == 1 && hi == 6 && m == 3.5);
}

static void confidence_one_gives_infinite_interval(void **state)
{
    (void)state;
    long lo, hi;
    bl_bstat_median_ci_orders(100, 1.0, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 101);
}

static void utest_exact_matches_enumeration(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof utest_cases / sizeof *utest_cases; i++) {
        const struct utest_case *c = &utest_cases[i];
        double p;
        assert_int_equal(bl_stats_utest(c->a, (size_t)c->na, c->b, (size_t)c->nb, &p), 0);
        assert_close(p, c->p, 1e-9);
    }
}

static void utest_normal_approximation_matches_python(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof unorm_cases / sizeof *unorm_cases; i++) {
        const struct unorm_case *c = &unorm_cases[i];
        double p;
        assert_int_equal(bl_stats_utest(c->a, (size_t)c->na, c->b, (size_t)c->nb, &p), 0);
        assert_close(p, c->p, 1e-9);
    }
}

static void utest_of_all_equal_values_is_an_error(void **state)
{
    (void)state;
    const double a[] = {3, 3, 3}, b[] = {3, 3};
    double p = -1;
    assert_int_equal(bl_stats_utest(a, 3, b, 2, &p), -EDOM);
    assert_int_equal(bl_stats_utest(a, 0, b, 2, &p), -EINVAL);
}

static void utest_of_separated_samples_of_ten_is_tiny(void **state)
{
    (void)state;
    double a[10], b[10], p;
    for (int i = 0; i < 10; i++) {
        a[i] = i;
        b[i] = 100 + i;
    }
    assert_int_equal(bl_stats_utest(a, 10, b, 10, &p), 0);
    /* 2 / C(20, 10) */
    assert_close(p, 2.0 / 184756.0, 1e-15);
}

/*
 * Beyond 50 values the normal approximation is centred on U of the first
 * sample, as moremath does: when the first sample lies wholly above the
 * second, CDF(z) rounds to 1 and p is exactly 0 (benchstat then prints no
 * p=); the other way round p is tiny but not 0.
 */
static void utest_of_large_separated_samples_is_zero_only_when_first_is_above(void **state)
{
    (void)state;
    double hi[100], lo[50], p = -1;
    for (int i = 0; i < 100; i++)
        hi[i] = 100 + i * 0.01;
    for (int i = 0; i < 50; i++)
        lo[i] = 91 + i * 0.01;
    assert_int_equal(bl_stats_utest(hi, 100, lo, 50, &p), 0);
    assert_true(p == 0);
    assert_int_equal(bl_stats_utest(lo, 50, hi, 100, &p), 0);
    assert_true(p > 0 && p < 1e-20);
}

static void geomean_is_exp_of_mean_log_and_nan_for_nonpositive(void **state)
{
    (void)state;
    const double xs[] = {1, 4, 16};
    assert_close(bl_bstat_geomean(xs, 3), 4, 1e-12);
    const double ys[] = {1, 0};
    assert_true(isnan(bl_bstat_geomean(ys, 2)));
    assert_true(isnan(bl_bstat_geomean(xs, 0)));
}

static void normal_cdf_and_inverse_match_python(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ncdf_cases / sizeof *ncdf_cases; i++) {
        assert_close(bl_bstat_norm_cdf(ncdf_cases[i].x, 0, 1), ncdf_cases[i].cdf, 1e-12);
        if (ncdf_cases[i].cdf > 1e-4)
            assert_close(bl_bstat_norm_inv_cdf(ncdf_cases[i].cdf, 0, 1), ncdf_cases[i].x, 1e-7);
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void sort_orders_like_go_with_nans_first(void **state)
{
    (void)state;
    srand(1);
    for (int round = 0; round < 200; round++) {
        size_t n = (size_t)(rand() % 300);
        double xs[300], ref[300];
        size_t nn = 0;
        for (size_t i = 0; i < n; i++) {
            xs[i] = (rand() % 4 == 0) ? (double)(rand() % 5) : (double)rand() / RAND_MAX;
            if (round % 10 == 0 && i % 17 == 3)
                xs[i] = NAN;
            else
                ref[nn++] = xs[i];
        }
        bl_bstat_sort(xs, n);
        qsort(ref, nn, sizeof *ref, cmp);
        for (size_t i = 0; i < n - nn; i++)
            assert_true(isnan(xs[i]));
        assert_memory_equal(xs + (n - nn), ref, nn * sizeof *ref);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median_of_odd_count_is_middle_value),
        cmocka_unit_test(median_of_even_count_is_lo_plus_half_difference),
        cmocka_unit_test(ci_orders_at_95_match_benchstat_table),
        cmocka_unit_test(ci_orders_at_other_levels_match_exact_binomial),
        cmocka_unit_test(median_ci_needs_six_samples_at_95),
        cmocka_unit_test(confidence_one_gives_infinite_interval),
        cmocka_unit_test(utest_exact_matches_enumeration),
        cmocka_unit_test(utest_normal_approximation_matches_python),
        cmocka_unit_test(utest_of_all_equal_values_is_an_error),
        cmocka_unit_test(utest_of_separated_samples_of_ten_is_tiny),
        cmocka_unit_test(utest_of_large_separated_samples_is_zero_only_when_first_is_above),
        cmocka_unit_test(geomean_is_exp_of_mean_log_and_nan_for_nonpositive),
        cmocka_unit_test(normal_cdf_and_inverse_match_python),
        cmocka_unit_test(sort_orders_like_go_with_nans_first),
    };
    return cmocka_run_group_tests_name("benchmath", tests, NULL, NULL);
}
