/*
 * test_abstat.c - the statistic of `benchlab ab` on simulated comparisons
 * with known effects: batches of log time with AR(1)-correlated noise, a
 * slow drift of the machine, an offset per process (layout) and stray slow
 * batches, run through the same ABBA/BAAB blocks as the runner. The seeds
 * are fixed, so the rates below are reproducible to the last count.
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
#include "base/base.h"
#include "benchlab/ab.h"
#include "benchlab/common.h"

#define MAXP 16
#define MAXB 200

struct sim {
    int pairs, blocks; /* process pairs, blocks per pair */
    double effect;     /* log(NEW/OLD) */
    double batch_sd;   /* noise of one batch (log) */
    double rho;        /* its lag-1 autocorrelation, batch to batch */
    double proc_sd;    /* offset of each process (log): layout, environment */
    double drift;      /* amplitude of the machine's slow drift (log) */
    double outlier_p;  /* share of stray slow batches, not caught by invalidation */
    double outlier;    /* how much slower they are (log) */
};

/* Realistic: what a 1 s comparison of a microbenchmark sees on a loaded
 * 2-core VM (docs/ab.md): 1% batch noise, 0.3% between processes. */
static const struct sim realistic = {4, 40, 0, 0.01, 0.5, 0.003, 0.05, 0.02, 0.2};

static double normal(struct bl__rng *r)
{
    double u = bl__rng_unit(r), v = bl__rng_unit(r);
    return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* One simulated comparison; its estimate. Returns bl_ab_estimate_groups' code. */
static int simulate(const struct sim *s, struct bl__rng *rng, bl_ab_estimate *est)
{
    static double d[MAXP * MAXB];
    double grouped[MAXP][MAXB];
    size_t n[MAXP] = {0};
    double off[2][MAXP];
    for (int p = 0; p < s->pairs; p++) {
        off[0][p] = s->proc_sd * normal(rng);
        off[1][p] = s->proc_sd * normal(rng);
    }
    double e = 0, phase = 2 * M_PI * bl__rng_unit(rng);
    double total = 4.0 * s->pairs * s->blocks, t = 0;
    int order[MAXP];
    for (int k = 0; k < s->blocks; k++) {
        for (int p = 0; p < s->pairs; p++)
            order[p] = p;
        for (int p = s->pairs; p > 1; p--) {
            int j = (int)(bl__rng_next(rng) % (uint64_t)p), tmp = order[p - 1];
            order[p - 1] = order[j];
            order[j] = tmp;
        }
        for (int q = 0; q < s->pairs; q++) {
            int p = order[q];
            bool b_first = bl__rng_next(rng) & 1;
            double x[4];
            for (int slot = 0; slot < 4; slot++, t++) {
                bool second = slot == 1 || slot == 2;
                int side = second != b_first; /* 1: NEW */
                e = s->rho * e + sqrt(1 - s->rho * s->rho) * s->batch_sd * normal(rng);
                double drift = s->drift * sin(2 * M_PI * 1.5 * t / total + phase);
                double stray = bl__rng_unit(rng) < s->outlier_p ? s->outlier : 0;
                x[slot] = off[side][p] + drift + e + stray + (side ? s->effect : 0);
            }
            grouped[p][n[p]++] = bl_ab_block_log_ratio(x, b_first);
        }
    }
    size_t k = 0;
    for (int p = 0; p < s->pairs; p++)
        for (size_t i = 0; i < n[p]; i++)
            d[k++] = grouped[p][i];
    return bl_ab_estimate_groups(d, n, (size_t)s->pairs, 0.95, est);
}

struct rates {
    int excludes_one, slower, faster, runs;
};

static struct rates run_many(const struct sim *s, int runs, uint64_t seed, double threshold)
{
    struct bl__rng rng;
    bl__rng_seed(&rng, seed);
    struct rates r = {0, 0, 0, runs};
    for (int i = 0; i < runs; i++) {
        bl_ab_estimate est;
        assert_int_equal(simulate(s, &rng, &est), 0);
        r.excludes_one += est.log_lo > 0 || est.log_hi < 0;
        enum bl_ab_verdict v = bl_ab_judge(&est, threshold);
        r.slower += v == BL_AB_SLOWER;
        r.faster += v == BL_AB_FASTER;
    }
    return r;
}

/* The nominal 5% plus three binomial standard errors. */
static int false_alarm_limit(int runs)
{
    return (int)ceil(runs * (0.05 + 3 * sqrt(0.05 * 0.95 / runs)));
}

static void identical_builds_flagged_at_nominal_rate(void **state)
{
    (void)state;
    struct rates r = run_many(&realistic, 1000, 1, 0);
    print_message("A/A realistic: interval excludes 1 in %d of 1000\n", r.excludes_one);
    assert_true(r.excludes_one <= false_alarm_limit(1000));
    /* honest, not merely conservative: an interval that never excludes 1
     * would pass the line above and detect nothing */
    assert_true(r.excludes_one >= 20);
    struct rates thr = run_many(&realistic, 1000, 2, 0.005);
    assert_true(thr.slower + thr.faster <= r.excludes_one + 10);
}

static void large_process_offsets_stay_at_nominal_rate(void **state)
{
    (void)state;
    /* Layout effects three times the batch noise: an interval built from
     * blocks alone, as if they were independent, would flag most A/A runs */
    struct sim s = realistic;
    s.proc_sd = 0.01;
    struct rates r = run_many(&s, 1000, 3, 0);
    print_message("A/A, 1%% process offsets: interval excludes 1 in %d of 1000\n", r.excludes_one);
    assert_true(r.excludes_one <= false_alarm_limit(1000));
}

static void strong_autocorrelation_and_outliers_stay_at_nominal_rate(void **state)
{
    (void)state;
    struct sim s = realistic;
    s.rho = 0.9;
    s.outlier_p = 0.05;
    s.outlier = 0.5;
    s.drift = 0.2;
    struct rates r = run_many(&s, 1000, 4, 0);
    print_message("A/A, rho 0.9, 5%% outliers, 20%% drift: excludes 1 in %d of 1000\n",
                  r.excludes_one);
    assert_true(r.excludes_one <= false_alarm_limit(1000));
}

static void two_percent_slower_is_detected_with_the_right_sign(void **state)
{
    (void)state;
    struct sim s = realistic;
    s.effect = log(1.02);
    struct rates r = run_many(&s, 500, 5, 0.005);
    print_message("+2%%: slower %d, faster %d of 500\n", r.slower, r.faster);
    assert_true(r.slower >= 475); /* 95% */
    assert_int_equal(r.faster, 0);
    s.effect = -log(1.02);
    r = run_many(&s, 500, 6, 0.005);
    assert_true(r.faster >= 475);
    assert_int_equal(r.slower, 0);
}

static void one_percent_slower_is_detected_with_the_right_sign(void **state)
{
    (void)state;
    struct sim s = realistic;
    s.effect = log(1.01);
    struct rates r = run_many(&s, 500, 7, 0.005);
    print_message("+1%%: slower %d, faster %d of 500\n", r.slower, r.faster);
    assert_true(r.slower >= 400); /* 80% */
    assert_int_equal(r.faster, 0);
}

static void interval_covers_the_true_effect(void **state)
{
    (void)state;
    struct sim s = realistic;
    s.effect = log(1.05);
    s.proc_sd = 0.005;
    struct bl__rng rng;
    bl__rng_seed(&rng, 8);
    int covered = 0;
    for (int i = 0; i < 1000; i++) {
        bl_ab_estimate est;
        assert_int_equal(simulate(&s, &rng, &est), 0);
        covered += est.log_lo <= s.effect && s.effect <= est.log_hi;
        assert_close(est.ratio, exp(est.log_ratio), 1e-12);
        assert_true(est.lo <= est.ratio && est.ratio <= est.hi);
    }
    print_message("+5%%, 0.5%% process offsets: the interval covers it in %d of 1000\n", covered);
    assert_true(covered >= 1000 - false_alarm_limit(1000));
}

static void block_log_ratio_cancels_linear_drift(void **state)
{
    (void)state;
    /* times rise linearly by 1 per slot; NEW costs 0.5 more */
    double abba[4] = {0, 1 + 0.5, 2 + 0.5, 3};
    assert_close(bl_ab_block_log_ratio(abba, false), 0.5, 1e-12);
    double baab[4] = {0 + 0.5, 1, 2, 3 + 0.5};
    assert_close(bl_ab_block_log_ratio(baab, true), 0.5, 1e-12);
}

static void too_few_blocks_or_pairs_give_no_estimate(void **state)
{
    (void)state;
    double d[] = {0.01, 0.02, 0.0, 0.01, 0.03};
    size_t one_group[] = {5};
    bl_ab_estimate est;
    assert_int_equal(bl_ab_estimate_groups(d, one_group, 1, 0.95, &est), BL_EUNSUPPORTED);
    assert_true(isnan(est.ratio));
    assert_int_equal(bl_ab_judge(&est, 0.005), BL_AB_TOO_FEW);
    size_t short_groups[] = {2, 2, 1}; /* fewer than 3 blocks each */
    assert_int_equal(bl_ab_estimate_groups(d, short_groups, 3, 0.95, &est), BL_EUNSUPPORTED);
    assert_int_equal(est.n_groups, 0);
    size_t ok[] = {3, 2}; /* the short group is left out: one group is not enough */
    assert_int_equal(bl_ab_estimate_groups(d, ok, 2, 0.95, &est), BL_EUNSUPPORTED);
    assert_int_equal(est.n_groups, 1);
    assert_int_equal(bl_ab_estimate_groups(d, ok, 2, 1.5, &est), -EINVAL);
}

static void equal_groups_reduce_to_the_t_test_on_group_means(void **state)
{
    (void)state;
    /* three groups of three identical-spread blocks: means 0.01, 0.02, 0.03 */
    double d[] = {0.00, 0.01, 0.02, 0.01, 0.02, 0.03, 0.02, 0.03, 0.04};
    size_t n[] = {3, 3, 3};
    bl_ab_estimate est;
    assert_int_equal(bl_ab_estimate_groups(d, n, 3, 0.95, &est), 0);
    assert_close(est.log_ratio, 0.02, 1e-12);
    /* sd of the means 0.01, se 0.01/sqrt(3), t(2) = 4.302652730 */
    double half = 4.302652729749464 * 0.01 / sqrt(3.0);
    assert_close(est.log_lo, 0.02 - half, 1e-9);
    assert_close(est.log_hi, 0.02 + half, 1e-9);
    assert_close(est.df, 2, 0);
    assert_int_equal(est.n_blocks, 9);
}

static void a_stray_block_barely_moves_the_estimate(void **state)
{
    (void)state;
    double d[20];
    size_t n[] = {10, 10};
    for (int i = 0; i < 20; i++)
        d[i] = 0.01 + 0.001 * ((i * 7) % 5 - 2);
    bl_ab_estimate clean, stray;
    assert_int_equal(bl_ab_estimate_groups(d, n, 2, 0.95, &clean), 0);
    d[3] = 0.5; /* a batch hit by something invalidation missed */
    assert_int_equal(bl_ab_estimate_groups(d, n, 2, 0.95, &stray), 0);
    assert_close(stray.log_ratio, clean.log_ratio, 0.001);
}

static void judge_needs_the_interval_and_the_threshold(void **state)
{
    (void)state;
    bl_ab_estimate e = {0};
    e.log_ratio = log(1.03), e.log_lo = log(1.01), e.log_hi = log(1.05);
    assert_int_equal(bl_ab_judge(&e, 0.005), BL_AB_SLOWER);
    assert_int_equal(bl_ab_judge(&e, 0.05), BL_AB_SAME); /* real, but below 5% */
    e.log_ratio = log(0.97), e.log_lo = log(0.95), e.log_hi = log(0.99);
    assert_int_equal(bl_ab_judge(&e, 0.005), BL_AB_FASTER);
    e.log_ratio = log(1.03), e.log_lo = log(0.99), e.log_hi = log(1.07);
    assert_int_equal(bl_ab_judge(&e, 0.005), BL_AB_SAME); /* interval includes 1 */
    assert_string_equal(bl_ab_verdict_name(BL_AB_SLOWER), "slower");
    assert_string_equal(bl_ab_verdict_name(BL_AB_TOO_FEW), "too-few-blocks");
}

static void t_quantiles_match_tables(void **state)
{
    (void)state;
    assert_close(bl_stats_t_quantile(0.975, 1), 12.706204736174707, 1e-8);
    assert_close(bl_stats_t_quantile(0.975, 3), 3.182446305284263, 1e-9);
    assert_close(bl_stats_t_quantile(0.975, 10), 2.228138851986274, 1e-9);
    assert_close(bl_stats_t_quantile(0.995, 5), 4.032142983557536, 1e-9);
    assert_close(bl_stats_t_quantile(0.025, 3), -3.182446305284263, 1e-9);
    assert_close(bl_stats_t_quantile(0.975, 1e7), 1.959964, 1e-5);
    assert_close(bl_stats_t_quantile(0.5, 4), 0, 0);
    assert_true(isnan(bl_stats_t_quantile(1.0, 4)));
    assert_true(isnan(bl_stats_t_quantile(0.9, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical_builds_flagged_at_nominal_rate),
        cmocka_unit_test(large_process_offsets_stay_at_nominal_rate),
        cmocka_unit_test(strong_autocorrelation_and_outliers_stay_at_nominal_rate),
        cmocka_unit_test(two_percent_slower_is_detected_with_the_right_sign),
        cmocka_unit_test(one_percent_slower_is_detected_with_the_right_sign),
        cmocka_unit_test(interval_covers_the_true_effect),
        cmocka_unit_test(block_log_ratio_cancels_linear_drift),
        cmocka_unit_test(too_few_blocks_or_pairs_give_no_estimate),
        cmocka_unit_test(equal_groups_reduce_to_the_t_test_on_group_means),
        cmocka_unit_test(a_stray_block_barely_moves_the_estimate),
        cmocka_unit_test(judge_needs_the_interval_and_the_threshold),
        cmocka_unit_test(t_quantiles_match_tables),
    };
    return cmocka_run_group_tests_name("abstat", tests, NULL, NULL);
}
