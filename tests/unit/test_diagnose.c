/*
 * test_diagnose.c - the mvalue (bl_stats_mvalue) and a benchmark's
 * diagnosis (bl_bench_diagnose) on synthetic data: unimodal samples of the
 * shapes timing data has are not called multimodal, two separated modes
 * are and are found where they are, drift within launches is said and
 * levels that differ between launches are neither drift nor modes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "assert_close.h"
#include "benchlab/format.h"
#include "benchlab/results.h"
#include "benchlab/stats.h"
#include "sim_data.h"

enum shape { NORMAL, LOGNORMAL, TIMING_TAIL, TWO_MODES };

/* One value of a shape: NORMAL 1 +- 3%; LOGNORMAL sigma 0.6 (very
 * skewed); TIMING_TAIL a floor with Gaussian jitter, an exponential tail
 * and 3% stragglers up to several times slower; TWO_MODES half near 1, half
 * near 2, 3% jitter each. */
static double draw(enum shape s)
{
    switch (s) {
    case NORMAL:
        return 1 + 0.03 * normal();
    case LOGNORMAL:
        return exp(0.6 * normal());
    case TIMING_TAIL: {
        double x = 1 + 0.01 * normal() + 0.03 * -log(uniform01());
        if (uniform01() < 0.03)
            x *= 1 + 0.1 * pow(uniform01(), -0.7);
        return x;
    }
    case TWO_MODES:
        return (uniform01() < 0.5 ? 1 : 2) * (1 + 0.03 * normal());
    }
    return NAN;
}

static bool flagged(const bl_modality *m)
{
    return m->mvalue >= BL_MVALUE_BIMODAL && m->n_peaks >= 2;
}

static void mvalue_of_one_hump_is_two_and_of_two_humps_four(void **state)
{
    (void)state;
    const double one[] = {1, 1, 2, 2, 2, 3, 3, 2.5, 1.5, 2.2};
    bl_modality m;
    assert_int_equal(bl_stats_mvalue(one, 10, &m), 0);
    assert_close(m.mvalue, 2, 1e-9);
    assert_int_equal(m.n_peaks, 1);
    /* 100 values near 1 and 100 near 5: Scott's width (3.5 s / n^(1/3),
     * 1.2 here) leaves empty bins between them */
    double two[200];
    for (int i = 0; i < 100; i++) {
        two[i] = 0.99 + 0.0002 * i;
        two[100 + i] = 4.99 + 0.0002 * i;
    }
    assert_int_equal(bl_stats_mvalue(two, 200, &m), 0);
    assert_close(m.mvalue, 4, 1e-9);
    assert_int_equal(m.n_peaks, 2);
    assert_int_equal(m.n_modes, 2);
    assert_close(m.modes[0], 1, 0.02);
    assert_close(m.modes[1], 5, 0.02);
    /* the same 8 values near 1 and 5 are too few: Scott's width spans the
     * gap, and BenchmarkDotNet's rule only widens it */
    const double few[] = {1, 1.01, 0.99, 1, 5, 5.01, 4.99, 5};
    assert_int_equal(bl_stats_mvalue(few, 8, &m), 0);
    assert_close(m.mvalue, 2, 1e-9);
    /* all equal: one mode, no error; fewer than 4 values: no judgement */
    const double same[] = {3, 3, 3, 3, 3};
    assert_int_equal(bl_stats_mvalue(same, 5, &m), 0);
    assert_close(m.mvalue, 2, 1e-9);
    assert_int_equal(bl_stats_mvalue(same, 3, &m), -EDOM);
}

static void mvalue_rarely_flags_unimodal_timing_shapes(void **state)
{
    (void)state;
    /* 300 samples of each shape and size: the false-alarm rate that
     * docs/engine.md quotes, here bounded at 2% */
    static const size_t sizes[] = {12, 30, 100, 300};
    double *x = malloc(300 * sizeof *x);
    assert_non_null(x);
    for (enum shape s = NORMAL; s <= TIMING_TAIL; s++) {
        for (size_t k = 0; k < 4; k++) {
            int alarms = 0;
            for (int rep = 0; rep < 300; rep++) {
                for (size_t i = 0; i < sizes[k]; i++)
                    x[i] = draw(s);
                bl_modality m;
                assert_int_equal(bl_stats_mvalue(x, sizes[k], &m), 0);
                alarms += flagged(&m);
            }
            if (alarms > 6)
                fail_msg("shape %d, n %zu: %d of 300 flagged", (int)s, sizes[k], alarms);
        }
    }
    free(x);
}

static void mvalue_finds_two_separated_modes(void **state)
{
    (void)state;
    double *x = malloc(200 * sizeof *x);
    assert_non_null(x);
    int found = 0;
    for (int rep = 0; rep < 100; rep++) {
        for (size_t i = 0; i < 200; i++)
            x[i] = draw(TWO_MODES);
        bl_modality m;
        assert_int_equal(bl_stats_mvalue(x, 200, &m), 0);
        if (flagged(&m)) {
            found++;
            assert_int_equal(m.n_modes, 2);
            assert_close(m.modes[0], 1, 0.08);
            assert_close(m.modes[1], 2, 0.16);
        }
    }
    assert_true(found >= 98);
    free(x);
}

static double flat(size_t i, size_t n)
{
    (void)i, (void)n;
    return 1 + 0.005 * normal();
}

/* 5% slower from the first batch to the last */
static double ramp5(size_t i, size_t n)
{
    return (1 + 0.05 * (double)i / (double)n) * (1 + 0.005 * normal());
}

static double two_modes(size_t i, size_t n)
{
    (void)i, (void)n;
    return draw(TWO_MODES);
}

/* half the batches of a launch 5% above the other half, by turns */
static double steps5(size_t i, size_t n)
{
    (void)n;
    return (i % 2 ? 1.05 : 1.0) * (1 + 0.0003 * normal());
}

static void diagnose_says_drift_of_five_percent(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    assert_non_null(r);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkRamp");
    assert_non_null(b);
    for (int k = 0; k < 6; k++)
        sim_add_launch(b, 40, 1000, 0, ramp5);
    bl_diagnosis d;
    assert_int_equal(bl_bench_diagnose(b, &d), 0);
    assert_true(d.drift_tested);
    assert_true(d.drift);
    /* the last third's median against the first's: about 5% x 2/3 */
    assert_close(d.drift_pct, 3.33, 0.6);
    assert_true(d.drift_p < 1e-6);
    assert_int_equal(d.drift_n, 6 * 13);
    assert_false(d.batches_multimodal);
    assert_false(d.launches_tested); /* 6 launches: too few to judge their modes */
    bl_results_destroy(r);
}

/* The note says the drift's size and how sure, without a p-value's
 * underflowed digits: below 1e-6 it reads "p<1e-6". */
static void diagnosis_note_floors_tiny_p_values(void **state)
{
    (void)state;
    bl_diagnosis d = {0};
    d.drift_tested = d.drift = true;
    d.drift_pct = 23.6;
    d.drift_p = 1.8e-277;
    char lines[3][BL_DIAGNOSIS_LINE];
    assert_int_equal(bl_format_diagnosis(&d, lines), 1);
    assert_string_equal(lines[0], "drift +23.6% within launches (p<1e-6)");
    d.drift_pct = -4.3;
    d.drift_p = 0.0034;
    assert_int_equal(bl_format_diagnosis(&d, lines), 1);
    assert_string_equal(lines[0], "drift -4.3% within launches (p=0.0034)");
}

static void diagnose_takes_levels_between_launches_for_neither_drift_nor_modes(void **state)
{
    (void)state;
    /* each launch flat, at 1000 or 1500 ns by turns: what processes do */
    bl_results *r = bl_results_create();
    assert_non_null(r);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkLevels");
    assert_non_null(b);
    for (int k = 0; k < 12; k++)
        sim_add_launch(b, 40, k % 2 ? 1500 : 1000, 0, flat);
    bl_diagnosis d;
    assert_int_equal(bl_bench_diagnose(b, &d), 0);
    assert_true(d.drift_tested);
    assert_false(d.drift);
    assert_true(fabs(d.drift_pct) < 1);
    assert_true(d.batches_tested);
    assert_false(d.batches_multimodal);
    assert_int_equal(d.batches.n_peaks, 1);
    /* ... but 12 launches in two groups are bimodal launch centres */
    assert_true(d.launches_tested);
    assert_true(d.launches_multimodal);
    assert_int_equal(d.launches.n_modes, 2);
    assert_close(d.launches.modes[0], 1000, 20);
    assert_close(d.launches.modes[1], 1500, 30);
    bl_results_destroy(r);
}

static void diagnose_finds_bimodal_batches_in_ns_per_op(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    assert_non_null(r);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkBimodal");
    assert_non_null(b);
    for (int k = 0; k < 6; k++)
        sim_add_launch(b, 40, 1000 * (1 + 0.1 * (k % 3)), 0, two_modes);
    bl_diagnosis d;
    assert_int_equal(bl_bench_diagnose(b, &d), 0);
    assert_true(d.batches_multimodal);
    assert_true(d.batches.mvalue >= BL_MVALUE_BIMODAL);
    assert_int_equal(d.batches.n_modes, 2);
    /* put back at the median launch's level (1100 ns x 1 and x 2), within
     * the smear of each launch's mean */
    assert_close(d.batches.modes[1] / d.batches.modes[0], 2, 0.2);
    assert_close(d.batches.modes[0], 1100, 150);
    bl_results_destroy(r);
}

/* A very steady benchmark whose launch steps between levels a fraction of
 * a percent apart (1.006, then 0.996, then 1.000 of its mean, 0.03%
 * jitter): what a loaded two-core machine gave BenchmarkSteady of
 * tests/engine/fixture_modes.c, which was then called bimodal with modes
 * near 368.7 and 372.2 ns. */
static double steps(size_t i, size_t n)
{
    double level = i < n / 4 ? 1.006 : i < 3 * n / 5 ? 0.996 : 1.000;
    return level * (1 + 0.0003 * normal());
}

static void diagnose_takes_steps_under_two_percent_for_no_modes(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    assert_non_null(r);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkSteady");
    assert_non_null(b);
    sim_add_launch(b, 140, 370, 0, steps);
    for (int k = 0; k < 5; k++)
        sim_add_launch(b, 10, 370, 0, flat);
    bl_diagnosis d;
    assert_int_equal(bl_bench_diagnose(b, &d), 0);
    assert_true(d.batches_tested);
    /* the histogram does have its spikes ... */
    assert_true(d.batches.mvalue >= BL_MVALUE_BIMODAL);
    assert_true(d.batches.n_peaks >= 2);
    assert_true(d.batches.modes[d.batches.n_modes - 1] / d.batches.modes[0] < 1.02);
    /* ... and they are not said */
    assert_false(d.batches_multimodal);
    char lines[3][BL_DIAGNOSIS_LINE];
    assert_int_equal(bl_format_diagnosis(&d, lines), 0);
    /* the same steps 5% apart are modes */
    bl_results_destroy(r);
    r = bl_results_create();
    assert_non_null(r);
    b = bl_results_bench(r, "BenchmarkSteps");
    assert_non_null(b);
    for (int k = 0; k < 6; k++)
        sim_add_launch(b, 40, 370, 0, steps5);
    assert_int_equal(bl_bench_diagnose(b, &d), 0);
    assert_true(d.batches_multimodal);
    bl_results_destroy(r);
}

static void diagnose_of_results_without_batches_tests_nothing(void **state)
{
    (void)state;
    /* results read from the Go format: one value per launch, no batches */
    bl_results *r = bl_results_create();
    assert_non_null(r);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkGo");
    assert_non_null(b);
    for (int k = 0; k < 3; k++) {
        bl_launch *l = bl_results_add_launch(b);
        assert_non_null(l);
        l->ns_per_op = 100 + k;
    }
    bl_diagnosis d;
    assert_int_equal(bl_bench_diagnose(b, &d), 0);
    assert_false(d.drift_tested);
    assert_false(d.batches_tested);
    assert_false(d.launches_tested);
    assert_true(isnan(d.drift_pct));
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mvalue_of_one_hump_is_two_and_of_two_humps_four),
        cmocka_unit_test(mvalue_rarely_flags_unimodal_timing_shapes),
        cmocka_unit_test(mvalue_finds_two_separated_modes),
        cmocka_unit_test(diagnose_says_drift_of_five_percent),
        cmocka_unit_test(diagnosis_note_floors_tiny_p_values),
        cmocka_unit_test(diagnose_takes_levels_between_launches_for_neither_drift_nor_modes),
        cmocka_unit_test(diagnose_finds_bimodal_batches_in_ns_per_op),
        cmocka_unit_test(diagnose_takes_steps_under_two_percent_for_no_modes),
        cmocka_unit_test(diagnose_of_results_without_batches_tests_nothing),
    };
    return cmocka_run_group_tests_name("diagnose", tests, NULL, NULL);
}
