/* test_correction.c - the multiple-comparison corrections (stats/correction.c)
 * behind compare's gate, judge and the report, against hand-computed
 * decisions. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab/stats.h"

static void expect(const double *p, size_t n, double alpha, enum bl_correction c, const char *want)
{
    unsigned char rej[16];
    assert_int_equal(bl_multiple_reject(p, n, alpha, c, rej), 0);
    char got[17];
    for (size_t i = 0; i < n; i++)
        got[i] = rej[i] ? 'R' : '.';
    got[n] = '\0';
    assert_string_equal(got, want);
}

static void holm_steps_down_and_stops_at_the_first_acceptance(void **state)
{
    (void)state;
    /* sorted 0.005 <= .05/4, 0.01 <= .05/3, 0.03 > .05/2: stop */
    const double p[] = {0.01, 0.04, 0.03, 0.005};
    expect(p, 4, 0.05, BL_CORRECTION_HOLM, "R..R");
}

static void bh_steps_up_to_the_largest_passing_rank(void **state)
{
    (void)state;
    /* k*alpha/m = .0125 .025 .0375 .05: every sorted p passes */
    const double p[] = {0.01, 0.04, 0.03, 0.005};
    expect(p, 4, 0.05, BL_CORRECTION_BH, "RRRR");
    /* only rank 3 passes (0.036 <= 0.0375), which takes ranks 1 and 2 along */
    const double q[] = {0.2, 0.036, 0.02, 0.03};
    expect(q, 4, 0.05, BL_CORRECTION_BH, ".RRR");
    expect(q, 4, 0.05, BL_CORRECTION_HOLM, "....");
}

static void none_is_p_at_most_alpha(void **state)
{
    (void)state;
    const double p[] = {0.05, 0.0500001, 0, NAN};
    expect(p, 4, 0.05, BL_CORRECTION_NONE, "R.R.");
}

static void holm_is_bonferroni_for_one_test_and_empty_is_fine(void **state)
{
    (void)state;
    const double p[] = {0.049};
    expect(p, 1, 0.05, BL_CORRECTION_HOLM, "R");
    unsigned char r;
    assert_int_equal(bl_multiple_reject(p, 0, 0.05, BL_CORRECTION_BH, &r), 0);
}

static void many_null_tests_rarely_trip_holm(void **state)
{
    (void)state;
    /* 200 p-values spread uniformly: about 10 are below 0.05, none below
     * 0.05/200 */
    double p[200];
    unsigned char rej[200];
    size_t naive = 0, holm = 0;
    for (size_t i = 0; i < 200; i++)
        p[i] = (double)(i + 1) / 201.0;
    assert_int_equal(bl_multiple_reject(p, 200, 0.05, BL_CORRECTION_NONE, rej), 0);
    for (size_t i = 0; i < 200; i++)
        naive += rej[i];
    assert_int_equal(bl_multiple_reject(p, 200, 0.05, BL_CORRECTION_HOLM, rej), 0);
    for (size_t i = 0; i < 200; i++)
        holm += rej[i];
    assert_int_equal(naive, 10);
    assert_int_equal(holm, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(holm_steps_down_and_stops_at_the_first_acceptance),
        cmocka_unit_test(bh_steps_up_to_the_largest_passing_rank),
        cmocka_unit_test(none_is_p_at_most_alpha),
        cmocka_unit_test(holm_is_bonferroni_for_one_test_and_empty_is_fine),
        cmocka_unit_test(many_null_tests_rarely_trip_holm),
    };
    return cmocka_run_group_tests_name("correction", tests, NULL, NULL);
}
