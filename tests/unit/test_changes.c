/* test_changes.c - change points of a series (stats/changepoint.c): steps
 * found where they were planted, none in noise, an aberrant run as an
 * outlier, small steps merged, the same answer on every call, and bad
 * input refused. The series are built here with a fixed generator, so
 * every value is the same on every machine. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "benchlab/changes.h"

/* Gaussian noise from a fixed LCG and Box-Muller: sd 1. */
static uint64_t lcg = 42;
static double unit(void)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(lcg >> 11) + 0.5) * 0x1.0p-53;
}
static double gauss(void)
{
    return sqrt(-2 * log(unit())) * cos(2 * M_PI * unit());
}

/* n values of level * (1 + spread * noise). */
static void fill(double *x, size_t n, double level, double spread)
{
    for (size_t i = 0; i < n; i++)
        x[i] = level * (1 + spread * gauss());
}

static size_t steps(const bl_change *c, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += c[i].kind == BL_CHANGE_STEP;
    return k;
}

static void a_step_is_found_where_it_was_planted(void **state)
{
    (void)state;
    double x[50];
    lcg = 1;
    fill(x, 25, 100, 0.02);
    fill(x + 25, 25, 105, 0.02); /* 5% in 2% noise, 25 runs a side */
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 50, NULL, &c, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(c[0].kind, BL_CHANGE_STEP);
    /* x[24] is 102.4, between the levels (100, 105): the split may take it
     * on either side, and takes it after */
    assert_int_equal(c[0].at, 24);
    assert_true(c[0].p <= 0.001);
    assert_int_equal(c[0].n_before, 24);
    assert_int_equal(c[0].n_after, 26);
    assert_true(fabs(c[0].ratio - 1.05) < 0.02);
    assert_true(c[0].before_lo < c[0].before && c[0].before < c[0].before_hi);
    assert_true(c[0].after_lo < c[0].after && c[0].after < c[0].after_hi);
    assert_true(c[0].before_hi < c[0].after_lo); /* the levels' intervals apart */
    free(c);
}

static void noise_has_no_change(void **state)
{
    (void)state;
    double x[60];
    lcg = 7;
    fill(x, 60, 100, 0.05);
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 60, NULL, &c, &n), 0);
    assert_int_equal(steps(c, n), 0);
    free(c);
}

static void one_aberrant_run_is_an_outlier(void **state)
{
    (void)state;
    double x[40];
    lcg = 3;
    fill(x, 40, 100, 0.01);
    x[20] = 150; /* one slow run, then back */
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 40, NULL, &c, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(c[0].kind, BL_CHANGE_OUTLIER);
    assert_int_equal(c[0].at, 20);
    assert_float_equal(c[0].after, 150, 0);
    assert_true(isnan(c[0].p));
    assert_int_equal(c[0].n_after, 1);
    assert_int_equal(c[0].n_before, 39);
    free(c);
}

static void the_newest_runs_wait_for_confirmation(void **state)
{
    (void)state;
    double x[42];
    lcg = 5;
    fill(x, 40, 100, 0.01);
    x[40] = 120;
    x[41] = 121; /* two runs of a new level: fewer than min_runs */
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 42, NULL, &c, &n), 0);
    assert_int_equal(steps(c, n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(c[0].at, 40);
    assert_int_equal(c[1].at, 41);
    free(c);
    /* three more runs confirm it: a step at 40 */
    double y[45];
    for (size_t i = 0; i < 42; i++)
        y[i] = x[i];
    y[42] = 119, y[43] = 122, y[44] = 120;
    assert_int_equal(bl_changes_detect(y, 45, NULL, &c, &n), 0);
    assert_int_equal(steps(c, n), 1);
    assert_int_equal(c[0].at, 40);
    free(c);
}

static void two_steps_and_a_return(void **state)
{
    (void)state;
    double x[60];
    lcg = 11;
    fill(x, 20, 100, 0.01);
    fill(x + 20, 20, 110, 0.01);
    fill(x + 40, 20, 100, 0.01);
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 60, NULL, &c, &n), 0);
    assert_int_equal(steps(c, n), 2);
    assert_int_equal(c[0].at, 20);
    assert_int_equal(c[1].at, 40);
    assert_true(c[0].ratio > 1.08 && c[1].ratio < 0.93);
    free(c);
}

static void steps_below_the_threshold_are_merged(void **state)
{
    (void)state;
    double x[60];
    lcg = 13;
    fill(x, 30, 100, 0.001);
    fill(x + 30, 30, 100.5, 0.001); /* 0.5%: significant, under the 1% threshold */
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 60, NULL, &c, &n), 0);
    assert_int_equal(steps(c, n), 0);
    free(c);
    bl_changes_options o;
    bl_changes_options_init(&o);
    o.threshold = 0.002;
    assert_int_equal(bl_changes_detect(x, 60, &o, &c, &n), 0);
    assert_int_equal(steps(c, n), 1);
    assert_int_equal(c[0].at, 30);
    free(c);
}

static void exact_counts_step_cleanly(void **state)
{
    (void)state;
    double x[20];
    for (size_t i = 0; i < 20; i++)
        x[i] = i < 12 ? 1000 : 1030; /* instruction counts: no noise at all */
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 20, NULL, &c, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(c[0].at, 12);
    assert_float_equal(c[0].before, 1000, 0);
    assert_float_equal(c[0].after, 1030, 0);
    assert_float_equal(c[0].ratio, 1.03, 1e-12);
    free(c);
    /* all the same: nothing, and no outlier */
    for (size_t i = 0; i < 20; i++)
        x[i] = 1000;
    assert_int_equal(bl_changes_detect(x, 20, NULL, &c, &n), 0);
    assert_int_equal(n, 0);
    assert_null(c);
}

static void the_same_values_give_the_same_answer(void **state)
{
    (void)state;
    double x[80];
    lcg = 17;
    fill(x, 40, 100, 0.03);
    fill(x + 40, 40, 103, 0.03);
    bl_change *a, *b;
    size_t na, nb;
    assert_int_equal(bl_changes_detect(x, 80, NULL, &a, &na), 0);
    assert_int_equal(bl_changes_detect(x, 80, NULL, &b, &nb), 0);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        assert_int_equal(a[i].at, b[i].at);
        assert_memory_equal(&a[i].p, &b[i].p, sizeof a[i].p);
    }
    free(a);
    free(b);
}

static void too_short_a_history_has_no_split(void **state)
{
    (void)state;
    const double x[5] = {1, 1, 1, 2, 2};
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 5, NULL, &c, &n), 0);
    assert_int_equal(steps(c, n), 0);
    free(c);
    assert_int_equal(bl_changes_detect(x, 0, NULL, &c, &n), 0);
    assert_int_equal(n, 0);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    double x[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    bl_change *c;
    size_t n;
    x[4] = NAN;
    assert_int_equal(bl_changes_detect(x, 10, NULL, &c, &n), -EINVAL);
    x[4] = INFINITY;
    assert_int_equal(bl_changes_detect(x, 10, NULL, &c, &n), -EINVAL);
    x[4] = 5;
    bl_changes_options o;
    bl_changes_options_init(&o);
    o.min_runs = 1;
    assert_int_equal(bl_changes_detect(x, 10, &o, &c, &n), -EINVAL);
    bl_changes_options_init(&o);
    o.alpha = 1;
    assert_int_equal(bl_changes_detect(x, 10, &o, &c, &n), -EINVAL);
}

/* The permutation p is (1 + shuffles at least as extreme) / (1 +
 * shuffles): with 6 values and 3 a side the best split of 1,2,3 | 4,5,6
 * is reached by the 2 of the C(6,3) = 20 arrangements that sort the
 * halves apart, so p is near 2/20 = 0.1 and no alpha below it fires. */
static void the_p_value_is_a_permutation_p(void **state)
{
    (void)state;
    const double x[6] = {1, 2, 3, 4, 5, 6};
    bl_changes_options o;
    bl_changes_options_init(&o);
    o.alpha = 0.2;
    o.threshold = 0;
    bl_change *c;
    size_t n;
    assert_int_equal(bl_changes_detect(x, 6, &o, &c, &n), 0);
    assert_int_equal(steps(c, n), 1);
    assert_int_equal(c[0].at, 3);
    assert_true(fabs(c[0].p - 0.1) < 0.015); /* 4999 shuffles: sd 0.004 */
    free(c);
    o.alpha = 0.05;
    assert_int_equal(bl_changes_detect(x, 6, &o, &c, &n), 0);
    assert_int_equal(steps(c, n), 0);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_step_is_found_where_it_was_planted),
        cmocka_unit_test(noise_has_no_change),
        cmocka_unit_test(one_aberrant_run_is_an_outlier),
        cmocka_unit_test(the_newest_runs_wait_for_confirmation),
        cmocka_unit_test(two_steps_and_a_return),
        cmocka_unit_test(steps_below_the_threshold_are_merged),
        cmocka_unit_test(exact_counts_step_cleanly),
        cmocka_unit_test(the_same_values_give_the_same_answer),
        cmocka_unit_test(too_short_a_history_has_no_split),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(the_p_value_is_a_permutation_p),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
