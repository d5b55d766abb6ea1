/* test_gatetest.c - the gate's choice of test (stats/gatetest.c): the
 * smallest p the U test can give at a sample size, the level a correction
 * needs first, and Welch's t test, against hand-computed values. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "benchlab/stats.h"

static void u_test_floor_is_two_over_the_arrangements(void **state)
{
    (void)state;
    /* 2 / C(10, 5) = 2 / 252: why 5 launches a side cannot pass Holm's
     * 0.05 / 7 over 7 benchmarks */
    assert_float_equal(bl_stats_utest_min_p(5, 5), 2.0 / 252, 1e-12);
    assert_true(bl_stats_utest_min_p(5, 5) > 0.05 / 7);
    assert_true(bl_stats_utest_min_p(5, 5) < 0.05 / 6);
    /* 10 a side: 2 / C(20, 10) */
    assert_float_equal(bl_stats_utest_min_p(10, 10), 2.0 / 184756, 1e-12);
    assert_float_equal(bl_stats_utest_min_p(0, 5), 1, 0);
}

static void first_level_is_alpha_over_m_or_alpha(void **state)
{
    (void)state;
    assert_float_equal(bl_correction_first_level(0.05, 12, BL_CORRECTION_HOLM), 0.05 / 12, 1e-15);
    assert_float_equal(bl_correction_first_level(0.05, 12, BL_CORRECTION_BH), 0.05 / 12, 1e-15);
    assert_float_equal(bl_correction_first_level(0.05, 12, BL_CORRECTION_NONE), 0.05, 0);
    assert_float_equal(bl_correction_first_level(0.05, 1, BL_CORRECTION_HOLM), 0.05, 0);
}

static void welch_matches_a_hand_computed_case(void **state)
{
    (void)state;
    /* 1..5 against 2,4,..,10: t = 3 / sqrt(2.5) = 1.8974, df = 6.25 /
     * 1.0625 = 5.8824, two-sided p = 0.10753 (numerical integration of
     * the t density; R's t.test gives the same) */
    const double a[] = {1, 2, 3, 4, 5}, b[] = {2, 4, 6, 8, 10};
    double p, t, df;
    assert_int_equal(bl_stats_welch(a, 5, b, 5, &p, &t, &df), 0);
    assert_float_equal(t, 1.8973665961, 1e-9);
    assert_float_equal(df, 5.8823529412, 1e-9);
    assert_float_equal(p, 0.10753119, 1e-6);
    /* the other way round: the same p, t negated */
    assert_int_equal(bl_stats_welch(b, 5, a, 5, &p, &t, NULL), 0);
    assert_float_equal(t, -1.8973665961, 1e-9);
    assert_float_equal(p, 0.10753119, 1e-6);
}

static void welch_edges(void **state)
{
    (void)state;
    const double c[] = {3, 3, 3}, d[] = {4, 4, 4}, x[] = {1, NAN, 2};
    double p;
    /* constant and equal: no test */
    assert_int_equal(bl_stats_welch(c, 3, c, 3, &p, NULL, NULL), -EDOM);
    assert_true(isnan(p));
    /* constant and different: certain */
    assert_int_equal(bl_stats_welch(c, 3, d, 3, &p, NULL, NULL), 0);
    assert_float_equal(p, 0, 0);
    assert_int_equal(bl_stats_welch(c, 1, d, 3, &p, NULL, NULL), -EDOM);
    assert_int_equal(bl_stats_welch(x, 3, d, 3, &p, NULL, NULL), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(u_test_floor_is_two_over_the_arrangements),
        cmocka_unit_test(first_level_is_alpha_over_m_or_alpha),
        cmocka_unit_test(welch_matches_a_hand_computed_case),
        cmocka_unit_test(welch_edges),
    };
    return cmocka_run_group_tests_name("gatetest", tests, NULL, NULL);
}
