/* test_compare_units.c - benchstat's unit tidying and classes, number
 * scaling and Go's float formatting (benchstat-spec.md section 4, 7). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compare/compare_int.h"

static void tidy(const char *unit, const char *want, double want_factor)
{
    char out[64];
    double f;
    bl__unit_tidy(unit, &f, out, sizeof out);
    assert_string_equal(out, want);
    assert_true(f == want_factor);
}

static void tidy_turns_ns_into_sec_and_mb_into_b_in_numerators_only(void **state)
{
    (void)state;
    tidy("ns/op", "sec/op", 1e-9);
    tidy("MB/s", "B/s", 1e6);
    tidy("B/op", "B/op", 1);
    tidy("L1-miss-ns/op", "L1-miss-sec/op", 1e-9);
    tidy("ns/B", "sec/B", 1e-9);
    tidy("B/ns", "B/ns", 1);
    tidy("MB*ns", "B*sec", 1e6 * 1e-9);
    tidy("nsec/op", "nsec/op", 1);
    tidy("ms/op", "ms/op", 1);
}

static void binary_class_is_b_mb_or_bytes_in_the_numerator(void **state)
{
    (void)state;
    assert_true(bl__unit_is_binary("B/op"));
    assert_true(bl__unit_is_binary("B/s"));
    assert_true(bl__unit_is_binary("binary-bytes"));
    assert_true(bl__unit_is_binary("heap-B"));
    assert_false(bl__unit_is_binary("sec/op"));
    assert_false(bl__unit_is_binary("KB/op"));
    assert_false(bl__unit_is_binary("ops/B"));
}

static void scale(double v, int binary, const char *want)
{
    struct bl__scaler s;
    char out[512];
    bl__common_scale(&v, 1, binary, &s);
    bl__scaler_format(&s, v, out, sizeof out);
    assert_string_equal(out, want);
}

static void scaling_follows_thresholds_and_prefixes(void **state)
{
    (void)state;
    scale(999.94, 0, "999.9");
    scale(999.95, 0, "1.000k");
    scale(1234.5, 0, "1.234k");
    scale(1234.5, 1, "1.206Ki");
    scale(1023, 1, "1023.0");
    scale(1024, 1, "1.000Ki");
    scale(1e16, 0, "10000.0T");
    scale(-1234, 0, "-1.234k");
    /* no prefix for what has no scale (benchstat: "+InfT", "NaNn"): an
     * infinite metric, a kInvert counter of 0, is "+Inf" */
    scale(INFINITY, 0, "+Inf");
    scale(-INFINITY, 0, "-Inf");
    scale(NAN, 0, "NaN");
    scale(0, 0, "0.000");
    scale(1e-10, 0, "0.1000n");
    scale(1e-12, 0, "0.001000n");
    scale(0.5, 1, "0.5000");
    scale(1e-9, 1, "0.0000000010");
    scale(1.5e-6, 0, "1.500\xc2\xb5");
}

static void row_scale_uses_the_smallest_nonzero_value(void **state)
{
    (void)state;
    double v[] = {0, 800, 1.5};
    struct bl__scaler s;
    char out[64];
    bl__common_scale(v, 3, 1, &s);
    bl__scaler_format(&s, 800, out, sizeof out);
    assert_string_equal(out, "800.000");
}

static void go_v_formatting_is_shortest_round_trip(void **state)
{
    (void)state;
    static const struct {
        double x;
        const char *s;
    } cases[] = {{64, "64"},
                 {123456, "123456"},
                 {1e6, "1e+06"},
                 {1234567, "1.234567e+06"},
                 {1.055e7, "1.055e+07"},
                 {0.0001, "0.0001"},
                 {1.234e-5, "1.234e-05"},
                 {1.2340000000000002e-06, "1.2340000000000002e-06"},
                 {-0.5, "-0.5"},
                 {1e21, "1e+21"},
                 {1e-320, "1e-320"},
                 {0.1 + 0.2, "0.30000000000000004"}};
    char out[64];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bl__go_fmt_g(out, sizeof out, cases[i].x);
        assert_string_equal(out, cases[i].s);
    }
    bl__go_fmt_g(out, sizeof out, NAN);
    assert_string_equal(out, "NaN");
    bl__go_fmt_g(out, sizeof out, INFINITY);
    assert_string_equal(out, "+Inf");
}

static void go_f_formatting_rounds_half_even_on_the_binary_value(void **state)
{
    (void)state;
    char out[64];
    bl__go_fmt_f(out, sizeof out, 0, 2.5, 0);
    assert_string_equal(out, "2");
    bl__go_fmt_f(out, sizeof out, 2, -0.001, 1);
    assert_string_equal(out, "-0.00");
    bl__go_fmt_f(out, sizeof out, 2, 1.005, 1); /* 1.00499999999999989... */
    assert_string_equal(out, "+1.00");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tidy_turns_ns_into_sec_and_mb_into_b_in_numerators_only),
        cmocka_unit_test(binary_class_is_b_mb_or_bytes_in_the_numerator),
        cmocka_unit_test(scaling_follows_thresholds_and_prefixes),
        cmocka_unit_test(row_scale_uses_the_smallest_nonzero_value),
        cmocka_unit_test(go_v_formatting_is_shortest_round_trip),
        cmocka_unit_test(go_f_formatting_rounds_half_even_on_the_binary_value),
    };
    return cmocka_run_group_tests_name("compare_units", tests, NULL, NULL);
}
