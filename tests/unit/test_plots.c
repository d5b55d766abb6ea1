/* test_plots.c - the terminal's small plots: bl_format_sparkline. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab/format.h"

#define LOW "\xe2\x96\x81"  /* ▁ */
#define MID "\xe2\x96\x84"  /* ▄ */
#define HIGH "\xe2\x96\x88" /* █ */

static void sparkline_rising_values_go_from_lowest_to_highest(void **state)
{
    (void)state;
    const double v[] = {1, 2, 3, 4, 5, 6, 7, 8};
    char out[64];
    assert_int_equal(bl_format_sparkline(out, sizeof out, v, 8, 20, 0), 8);
    assert_string_equal(out, "\xe2\x96\x81\xe2\x96\x82\xe2\x96\x83\xe2\x96\x84\xe2\x96\x85"
                             "\xe2\x96\x86\xe2\x96\x87\xe2\x96\x88");
}

static void sparkline_noise_below_min_span_draws_flat(void **state)
{
    (void)state;
    const double v[] = {100, 100.2, 99.9, 100.1};
    char out[64];
    assert_int_equal(bl_format_sparkline(out, sizeof out, v, 4, 20, 5), 4);
    /* 0.3 of a span of 5: every cell within one step of the middle */
    for (size_t i = 0; i < 4; i++) {
        const char *c = out + 3 * i;
        assert_true(memcmp(c, "\xe2\x96\x84", 3) == 0 || memcmp(c, "\xe2\x96\x85", 3) == 0);
    }
}

static void sparkline_cells_are_medians_so_one_outlier_does_not_spike(void **state)
{
    (void)state;
    double v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i < 50 ? 10 : 20;
    v[10] = 1000; /* one wild value among ten in its cell */
    char out[128];
    assert_int_equal(bl_format_sparkline(out, sizeof out, v, 100, 10, 0), 10);
    assert_string_equal(out, LOW LOW LOW LOW LOW HIGH HIGH HIGH HIGH HIGH);
}

static void sparkline_nan_is_a_space_and_size_is_respected(void **state)
{
    (void)state;
    const double v[] = {1, NAN, 3};
    char out[64];
    assert_int_equal(bl_format_sparkline(out, sizeof out, v, 3, 20, 0), 3);
    assert_string_equal(out, LOW " " HIGH);
    char small[7]; /* room for two cells */
    assert_int_equal(bl_format_sparkline(small, sizeof small, v, 3, 20, 0), 2);
    assert_string_equal(small, LOW HIGH); /* two cells: {1} and {NAN, 3} */
    assert_int_equal(bl_format_sparkline(out, sizeof out, v, 0, 20, 0), 0);
    assert_string_equal(out, "");
    const double same[] = {5, 5};
    assert_int_equal(bl_format_sparkline(out, sizeof out, same, 2, 20, 0), 2);
    assert_string_equal(out, MID MID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sparkline_rising_values_go_from_lowest_to_highest),
        cmocka_unit_test(sparkline_noise_below_min_span_draws_flat),
        cmocka_unit_test(sparkline_cells_are_medians_so_one_outlier_does_not_spike),
        cmocka_unit_test(sparkline_nan_is_a_space_and_size_is_respected),
    };
    return cmocka_run_group_tests_name("plots", tests, NULL, NULL);
}
