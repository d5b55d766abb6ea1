/* test_stats.c - robust summaries, checked against hand-computed values. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "assert_close.h"
#include "benchlab/stats.h"

static void median_of_even_count_averages_middle_pair(void **state)
{
    (void)state;
    const double xs[] = {4.0, 1.0, 3.0, 2.0};
    assert_true(bl_stats_median(xs, 4) == 2.5);
}

static void median_of_odd_count_is_middle(void **state)
{
    (void)state;
    const double xs[] = {9.0, 1.0, 5.0};
    assert_true(bl_stats_median(xs, 3) == 5.0);
    assert_true(isnan(bl_stats_median(xs, 0)));
}

static void quantile_interpolates_linearly(void **state)
{
    (void)state;
    const double s[] = {1, 2, 3, 4, 5};
    assert_close(bl_stats_quantile_sorted(s, 5, 0.25), 2.0, 1e-12);
    assert_close(bl_stats_quantile_sorted(s, 5, 0.1), 1.4, 1e-12);
    assert_close(bl_stats_quantile_sorted(s, 5, 1.0), 5.0, 1e-12);
}

/* Classic tables of the distribution-free 95% interval of the median
 * (1-based ranks): n=6 (1,6), n=10 (2,9), n=20 (6,15), n=100 (40,61). */
static void median_ci_matches_binomial_tables(void **state)
{
    (void)state;
    size_t lo, hi;
    assert_int_equal(bl_stats_median_ci_index(6, 0.95, &lo, &hi), 0);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 5);
    assert_int_equal(bl_stats_median_ci_index(10, 0.95, &lo, &hi), 0);
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 8);
    assert_int_equal(bl_stats_median_ci_index(20, 0.95, &lo, &hi), 0);
    assert_int_equal(lo, 5);
    assert_int_equal(hi, 14);
    assert_int_equal(bl_stats_median_ci_index(100, 0.95, &lo, &hi), 0);
    assert_int_equal(lo, 39);
    assert_int_equal(hi, 60);
}

static void median_ci_needs_six_samples_at_95(void **state)
{
    (void)state;
    size_t lo, hi;
    assert_int_equal(bl_stats_median_ci_index(5, 0.95, &lo, &hi), -EDOM);
    assert_int_equal(bl_stats_median_ci_index(0, 0.95, &lo, &hi), -EDOM);
    assert_int_equal(bl_stats_median_ci_index(10, 1.5, &lo, &hi), -EDOM);
}

static void summary_of_known_sample(void **state)
{
    (void)state;
    /* 1..10 and one outlier at 100 */
    const double xs[] = {3, 1, 2, 4, 5, 100, 6, 7, 8, 9, 10};
    bl_summary s;
    assert_int_equal(bl_stats_summarize(xs, 11, 0.95, &s), 0);
    assert_int_equal(s.n, 11);
    assert_true(s.min == 1 && s.max == 100);
    assert_close(s.median, 6.0, 1e-12);
    assert_close(s.mean, 155.0 / 11.0, 1e-12);
    assert_close(s.q1, 3.5, 1e-12);
    assert_close(s.q3, 8.5, 1e-12);
    /* |x - 6|: 5 4 3 2 1 0 1 2 3 4 94 -> median 3 */
    assert_close(s.mad, 3.0, 1e-12);
    assert_int_equal(s.n_outliers, 1);
    /* n=11: ranks (2,10) 1-based -> values 2 and 10 */
    assert_close(s.ci_lo, 2.0, 1e-12);
    assert_close(s.ci_hi, 10.0, 1e-12);
    double sd = 0;
    for (int i = 0; i < 11; i++)
        sd += (xs[i] - s.mean) * (xs[i] - s.mean);
    assert_close(s.stddev, sqrt(sd / 10), 1e-9);
}

static void summary_of_empty_sample_is_an_error(void **state)
{
    (void)state;
    bl_summary s;
    assert_int_equal(bl_stats_summarize(NULL, 0, 0.95, &s), -EINVAL);
}

static void sort_puts_nan_last(void **state)
{
    (void)state;
    double xs[] = {3, NAN, 1, 2};
    bl_stats_sort(xs, 4);
    assert_true(xs[0] == 1 && xs[1] == 2 && xs[2] == 3 && isnan(xs[3]));
}

/* Ascending, NaNs last, -0 before +0: what the large-input sort must give. */
static void assert_sorted(const double *xs, size_t n, size_t nans)
{
    for (size_t i = 0; i + 1 < n - nans; i++)
        if (!(xs[i] < xs[i + 1] || (xs[i] == xs[i + 1] && (signbit(xs[i]) >= signbit(xs[i + 1])))))
            fail_msg("xs[%zu] = %a before xs[%zu] = %a", i, xs[i], i + 1, xs[i + 1]);
    for (size_t i = n - nans; i < n; i++)
        assert_true(isnan(xs[i]));
}

static void sort_of_many_values_orders_every_kind(void **state)
{
    (void)state;
    enum { N = 20000 }; /* past the size where the radix sort takes over */
    static double xs[N];
    uint64_t r = 88172645463325252u;
    double sum = 0, sum_sorted = 0;
    size_t nans = 0;
    for (size_t i = 0; i < N; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17; /* xorshift64 */
        double u = (double)(r >> 11) / 9007199254740992.0;
        switch (r % 9) {
        case 0:
            xs[i] = (i & 1) ? NAN : -NAN, nans++;
            break;
        case 1:
            xs[i] = (i & 1) ? INFINITY : -INFINITY;
            break;
        case 2:
            xs[i] = (i & 1) ? 0.0 : -0.0;
            break;
        case 3:
            xs[i] = u * 4.9e-320;
            break; /* subnormal */
        case 4:
            xs[i] = -u * 1e300;
            break;
        default:
            xs[i] = (u - 0.5) * 1e3;
            break;
        }
        if (!isnan(xs[i]) && !isinf(xs[i]))
            sum += xs[i];
    }
    bl_stats_sort(xs, N);
    assert_sorted(xs, N, nans);
    for (size_t i = 0; i < N - nans; i++)
        if (!isinf(xs[i]))
            sum_sorted += xs[i];
    assert_true(sum == sum_sorted || fabs(sum - sum_sorted) <= 1e-6 * fabs(sum));
    assert_true(xs[0] == -INFINITY && xs[N - nans - 1] == INFINITY);
}

static void sort_of_many_equal_values_keeps_them(void **state)
{
    (void)state;
    enum { N = 5000 };
    static double xs[N];
    for (size_t i = 0; i < N; i++)
        xs[i] = i == N / 2 ? 1.5 : 2.5; /* every byte but one the same */
    bl_stats_sort(xs, N);
    assert_true(xs[0] == 1.5);
    for (size_t i = 1; i < N; i++)
        assert_true(xs[i] == 2.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median_of_even_count_averages_middle_pair),
        cmocka_unit_test(median_of_odd_count_is_middle),
        cmocka_unit_test(quantile_interpolates_linearly),
        cmocka_unit_test(median_ci_matches_binomial_tables),
        cmocka_unit_test(median_ci_needs_six_samples_at_95),
        cmocka_unit_test(summary_of_known_sample),
        cmocka_unit_test(summary_of_empty_sample_is_an_error),
        cmocka_unit_test(sort_puts_nan_last),
        cmocka_unit_test(sort_of_many_values_orders_every_kind),
        cmocka_unit_test(sort_of_many_equal_values_keeps_them),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
