/* test_complexity.c - fitting times per op to O(1) ... O(n^3) and a user curve. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "assert_close.h"
#include "benchlab/stats.h"

#define N_SIZES 10

/* Sizes 2^4, 2^6 ... 2^22, and uniform noise in [-1, 1) from a fixed LCG. */
static void sizes(double *n)
{
    for (int i = 0; i < N_SIZES; i++)
        n[i] = ldexp(1, 4 + 2 * i);
}

static double noise(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (double)(*s >> 11) / 4503599627370496.0 - 1.0; /* 2^52 */
}

static double user_curve(double n)
{
    return n * sqrt(n); /* n^1.5: between O(n log n) and O(n^2) */
}

/* Times c g(n) with relative noise of +-amp, fitted with AUTO: the curve
 * that made them must win, with its coefficient, for every noise seed. */
static void check_recovers(int curve, double c, double amp, int with_user)
{
    double n[N_SIZES], t[N_SIZES], ug[N_SIZES];
    sizes(n);
    for (int i = 0; i < N_SIZES; i++)
        ug[i] = user_curve(n[i]);
    for (uint64_t seed = 1; seed <= 50; seed++) {
        uint64_t s = seed;
        for (int i = 0; i < N_SIZES; i++) {
            double g = curve == BL_OUSER ? ug[i] : bl_complexity_curve(curve, n[i]);
            t[i] = c * g * (1 + amp * noise(&s));
        }
        bl_complexity_fit best, all[8];
        size_t n_all;
        assert_int_equal(bl_stats_fit_complexity(BL_COMPLEXITY_AUTO, n, t, with_user ? ug : NULL,
                                                 N_SIZES, &best, all, &n_all),
                         0);
        assert_int_equal(n_all, with_user ? 7 : 6);
        assert_int_equal(best.curve, curve);
        assert_close(best.coefficient, c, amp * c);
        /* noise of a few percent stays a few percent of normalised RMS */
        assert_true(best.rms < 4 * amp);
    }
}

static void noiseless_data_fits_exactly(void **state)
{
    (void)state;
    double n[N_SIZES], t[N_SIZES];
    sizes(n);
    for (int curve = BL_O1; curve <= BL_ON3; curve++) {
        for (int i = 0; i < N_SIZES; i++)
            t[i] = 2.5 * bl_complexity_curve(curve, n[i]);
        bl_complexity_fit best;
        assert_int_equal(bl_stats_fit_complexity(curve, n, t, NULL, N_SIZES, &best, NULL, NULL), 0);
        assert_int_equal(best.curve, curve);
        assert_close(best.coefficient, 2.5, 1e-12);
        assert_true(best.rms < 1e-12);
    }
}

static void constant_with_noise_is_o1(void **state)
{
    (void)state;
    check_recovers(BL_O1, 50.0, 0.03, 0);
}

static void logarithmic_with_noise_is_ologn(void **state)
{
    (void)state;
    check_recovers(BL_OLOGN, 12.0, 0.03, 0);
}

static void linear_with_noise_is_on(void **state)
{
    (void)state;
    check_recovers(BL_ON, 0.8, 0.02, 0);
}

static void nlogn_with_noise_is_onlogn(void **state)
{
    (void)state;
    check_recovers(BL_ONLOGN, 3.0, 0.02, 0);
}

static void quadratic_with_noise_is_on2(void **state)
{
    (void)state;
    check_recovers(BL_ON2, 0.01, 0.03, 0);
}

static void cubic_with_noise_is_on3(void **state)
{
    (void)state;
    check_recovers(BL_ON3, 1e-6, 0.03, 0);
}

static void user_curve_with_noise_wins_when_given(void **state)
{
    (void)state;
    check_recovers(BL_OUSER, 0.5, 0.02, 1);
}

/* Google Benchmark's formulas on numbers small enough to check by hand. */
static void coefficient_and_rms_by_hand(void **state)
{
    (void)state;
    const double n[] = {1, 2, 4}, t[] = {1, 3, 4};
    bl_complexity_fit f;
    assert_int_equal(bl_stats_fit_complexity(BL_ON, n, t, NULL, 3, &f, NULL, NULL), 0);
    /* c = (1 + 6 + 16) / (1 + 4 + 16) = 23/21 */
    assert_close(f.coefficient, 23.0 / 21.0, 1e-12);
    double c = 23.0 / 21.0, r0 = 1 - c, r1 = 3 - 2 * c, r2 = 4 - 4 * c;
    double rms = sqrt((r0 * r0 + r1 * r1 + r2 * r2) / 3) / (8.0 / 3.0);
    assert_close(f.rms, rms, 1e-12);
    /* O(1): the mean, residuals about it */
    assert_int_equal(bl_stats_fit_complexity(BL_O1, n, t, NULL, 3, &f, NULL, NULL), 0);
    assert_close(f.coefficient, 8.0 / 3.0, 1e-12);
}

/* A cost per element that jumps (the sizes cross a cache level) fits no
 * curve well: the best RMS is large, which the runner warns about. */
static void step_in_cost_fits_nothing_well(void **state)
{
    (void)state;
    double n[N_SIZES], t[N_SIZES];
    sizes(n);
    for (int i = 0; i < N_SIZES; i++)
        t[i] = n[i] * (i == N_SIZES - 2 ? 6.0 : 1.0);
    bl_complexity_fit best;
    assert_int_equal(
        bl_stats_fit_complexity(BL_COMPLEXITY_AUTO, n, t, NULL, N_SIZES, &best, NULL, NULL), 0);
    assert_true(best.rms > 0.15);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    const double n[] = {0, 2, 4}, t[] = {1, 2, 3}, ok_n[] = {1, 2, 4}, nan_t[] = {1, NAN, 3};
    bl_complexity_fit f;
    size_t k = 9;
    assert_int_equal(bl_stats_fit_complexity(BL_COMPLEXITY_AUTO, n, t, NULL, 3, &f, NULL, &k),
                     -EINVAL);
    assert_int_equal(k, 0);
    assert_int_equal(bl_stats_fit_complexity(BL_ON, ok_n, nan_t, NULL, 3, &f, NULL, NULL), -EINVAL);
    assert_int_equal(bl_stats_fit_complexity(BL_ON, ok_n, t, NULL, 0, &f, NULL, NULL), -EINVAL);
    assert_int_equal(bl_stats_fit_complexity(BL_OUSER, ok_n, t, NULL, 3, &f, NULL, NULL), -EINVAL);
    /* log n at n = 1 only is zero everywhere: nothing to fit */
    const double one[] = {1, 1};
    assert_int_equal(bl_stats_fit_complexity(BL_OLOGN, one, t, NULL, 2, &f, NULL, NULL), -EINVAL);
    /* a user curve that is not finite */
    const double bad_g[] = {1, INFINITY, 2};
    assert_int_equal(bl_stats_fit_complexity(BL_OUSER, ok_n, t, bad_g, 3, &f, NULL, NULL), -EINVAL);
    assert_string_equal(bl_complexity_name(BL_ONLOGN), "O(n log n)");
    assert_string_equal(bl_complexity_name(BL_OUSER), "O(f(n))");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(noiseless_data_fits_exactly),
        cmocka_unit_test(constant_with_noise_is_o1),
        cmocka_unit_test(logarithmic_with_noise_is_ologn),
        cmocka_unit_test(linear_with_noise_is_on),
        cmocka_unit_test(nlogn_with_noise_is_onlogn),
        cmocka_unit_test(quadratic_with_noise_is_on2),
        cmocka_unit_test(cubic_with_noise_is_on3),
        cmocka_unit_test(user_curve_with_noise_wins_when_given),
        cmocka_unit_test(coefficient_and_rms_by_hand),
        cmocka_unit_test(step_in_cost_fits_nothing_well),
        cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests_name("complexity", tests, NULL, NULL);
}
