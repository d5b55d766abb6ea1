/* test_interval.c - Student's t, the interval over launches, and why the
 * statistical unit is the launch (simulated runs with known truth). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "assert_close.h"
#include "benchlab/results.h"
#include "benchlab/stats.h"

#define SIM_SEED 0x9E3779B97F4A7C15ull /* the sequence these tests were written with */
#include "sim_data.h"

/* Two-sided 97.5% quantiles from any t table. */
static void t_quantile_matches_tables(void **state)
{
    (void)state;
    assert_close(bl_stats_t_quantile(0.975, 1), 12.7062, 1e-4);
    assert_close(bl_stats_t_quantile(0.975, 4), 2.7764, 1e-4);
    assert_close(bl_stats_t_quantile(0.975, 5), 2.5706, 1e-4);
    assert_close(bl_stats_t_quantile(0.975, 10), 2.2281, 1e-4);
    assert_close(bl_stats_t_quantile(0.975, 30), 2.0423, 1e-4);
    assert_close(bl_stats_t_quantile(0.995, 5), 4.0321, 1e-4);
    assert_close(bl_stats_t_quantile(0.975, 1e7), 1.95996, 1e-4);
    assert_close(bl_stats_t_quantile(0.025, 4), -2.7764, 1e-4);
    assert_true(isnan(bl_stats_t_quantile(1.0, 4)));
    assert_true(isnan(bl_stats_t_quantile(0.9, 0)));
}

static void t_cdf_is_symmetric_and_inverts_the_quantile(void **state)
{
    (void)state;
    assert_close(bl_stats_t_cdf(0, 3), 0.5, 1e-15);
    assert_close(bl_stats_t_cdf(-1.5, 7) + bl_stats_t_cdf(1.5, 7), 1.0, 1e-12);
    /* df = 1 is the Cauchy distribution: 1/2 + atan(t)/pi */
    assert_close(bl_stats_t_cdf(2.0, 1), 0.5 + atan(2.0) / M_PI, 1e-12);
    for (double p = 0.55; p < 1; p += 0.1)
        assert_close(bl_stats_t_cdf(bl_stats_t_quantile(p, 5), 5), p, 1e-12);
}

/* 10, 12, 14: mean 12, s = 2, se = 2/sqrt(3), t(2) = 4.3027. */
static void mean_interval_by_hand(void **state)
{
    (void)state;
    const double xs[] = {10, 14, 12};
    double m, lo, hi;
    assert_int_equal(bl_stats_mean_interval(xs, 3, 0.95, &m, &lo, &hi), 0);
    assert_close(m, 12, 1e-12);
    assert_close(hi - m, 4.302653 * 2 / sqrt(3), 1e-5);
    assert_close(m - lo, hi - m, 1e-12);
    assert_int_equal(bl_stats_mean_interval(xs, 1, 0.95, &m, &lo, &hi), -EDOM);
    assert_close(m, 10, 0);
    assert_true(isnan(lo) && isnan(hi));
    assert_int_equal(bl_stats_mean_interval(xs, 0, 0.95, &m, &lo, &hi), -EINVAL);
}

/* 20% of 6 trims one from each end: centre = mean(2,3,4,5) = 3.5;
 * winsorized 2,2,3,4,5,5 (mean 3.5, SS 9.5); se = sqrt(9.5 / (4 * 3));
 * t(3) = 3.182446. The wild 1000 does not move anything. */
static void trimmed_interval_by_hand(void **state)
{
    (void)state;
    const double xs[] = {5, 1000, 3, 2, 4, -1};
    double c, lo, hi;
    assert_int_equal(bl_stats_trimmed_interval(xs, 6, 0.2, 0.95, &c, &lo, &hi), 0);
    assert_close(c, 3.5, 1e-12);
    assert_close(hi - c, 3.182446 * sqrt(9.5 / 12), 1e-5);
    assert_close(c - lo, hi - c, 1e-12);
    /* no trimming: the t interval of the mean */
    const double ys[] = {10, 14, 12};
    double m, mlo, mhi;
    assert_int_equal(bl_stats_trimmed_interval(ys, 3, 0.2, 0.95, &c, &lo, &hi), 0);
    assert_int_equal(bl_stats_mean_interval(ys, 3, 0.95, &m, &mlo, &mhi), 0);
    assert_close(c, m, 1e-12);
    assert_close(lo, mlo, 1e-12);
    assert_close(hi, mhi, 1e-12);
    assert_int_equal(bl_stats_trimmed_interval(ys, 3, 0.5, 0.95, &c, &lo, &hi), -EDOM);
    assert_int_equal(bl_stats_trimmed_interval(ys, 1, 0.2, 0.95, &c, &lo, &hi), -EDOM);
    assert_close(c, 10, 0);
}

/* Hettmansperger-Sheather for 6 values: the binomial steps are 96.9%
 * ([x1, x6]) and 78.1% ([x2, x5]); I = 0.1, lambda = 0.5 / 1.4. For 20:
 * between (x6, x15) at 95.9% and (x7, x14) at 88.5%. Too few for 95%: -EDOM. */
static void median_interval_interpolates_order_statistics(void **state)
{
    (void)state;
    const double xs[] = {6, 2, 4, 1, 5, 3};
    double m, lo, hi;
    assert_int_equal(bl_stats_median_interval(xs, 6, 0.95, &m, &lo, &hi), 0);
    assert_close(m, 3.5, 1e-12);
    assert_close(lo, 1 + 0.5 / 1.4, 1e-9);
    assert_close(hi, 6 - 0.5 / 1.4, 1e-9);
    double ys[20];
    for (int i = 0; i < 20; i++)
        ys[i] = 20 - i;
    assert_int_equal(bl_stats_median_interval(ys, 20, 0.95, &m, &lo, &hi), 0);
    assert_close(m, 10.5, 1e-12);
    assert_true(lo > 6 && lo < 7 && hi > 14 && hi < 15);
    assert_close(lo + hi, 21, 1e-9);
    assert_int_equal(bl_stats_median_interval(xs, 5, 0.95, &m, &lo, &hi), -EDOM);
    assert_close(m, 4, 0);
    assert_true(isnan(lo));
    /* a wild value moves the interval's end, not the median */
    const double zs[] = {10, 11, 12, 13, 14, 1000};
    assert_int_equal(bl_stats_median_interval(zs, 6, 0.95, &m, &lo, &hi), 0);
    assert_close(m, 12.5, 1e-12);
}

/* One median: the interval's centre is bl_stats_median's, bit for bit.
 * For this pair (a + b) / 2 and a + (b - a) / 2 differ in the last bit;
 * the interval had the first, the median the second. */
static void median_interval_centre_is_bl_stats_median(void **state)
{
    (void)state;
    const double xs[] = {10.944941000576247, 0.254458609934608};
    double m, lo, hi;
    bl_stats_median_interval(xs, 2, 0.95, &m, &lo, &hi);
    assert_true(m == bl_stats_median(xs, 2));
    const double ys[] = {3, 10.944941000576247, 0.254458609934608, 12};
    bl_stats_median_interval(ys, 4, 0.95, &m, &lo, &hi);
    assert_true(m == bl_stats_median(ys, 4));
}

/* The interval as it was computed before it was made linear: P(B <= k)
 * summed from scratch for every k tried, O(n^2). The incremental sum adds
 * the same terms in the same order, so the ends must agree bit for bit. */
static double direct_binom_half_cdf(size_t n, size_t k)
{
    double p = 0;
    for (size_t i = 0; i <= k && i <= n; i++)
        p += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
                 (double)n * log(2.0));
    return p;
}

static int direct_median_interval(const double *s, size_t n, double confidence, double *lo,
                                  double *hi)
{
    if (!(n >= 2 && 1 - 2 * direct_binom_half_cdf(n, 0) >= confidence))
        return -EDOM;
    size_t k = 1;
    while (k + 1 <= n / 2 && 1 - 2 * direct_binom_half_cdf(n, k) >= confidence)
        k++;
    double g_k = 1 - 2 * direct_binom_half_cdf(n, k - 1);
    double g_k1 = k + 1 <= (n + 1) / 2 ? 1 - 2 * direct_binom_half_cdf(n, k) : 0;
    double lambda = 0;
    if (g_k > g_k1 && k + 1 <= n - k) {
        double i = (g_k - confidence) / (g_k - g_k1);
        lambda = (double)(n - k) * i / ((double)k + (double)(n - 2 * k) * i);
    }
    *lo = (1 - lambda) * s[k - 1] + lambda * s[k];
    *hi = (1 - lambda) * s[n - k] + lambda * s[n - k - 1];
    return 0;
}

static void median_interval_incremental_matches_direct_sum(void **state)
{
    (void)state;
    static double xs[700];
    for (size_t i = 0; i < 700; i++)
        xs[i] = 100 + (double)i * 0.37 + (double)(i % 7) * 0.001; /* sorted */
    const double levels[] = {0.5, 0.8, 0.9, 0.95, 0.99, 0.999};
    for (size_t n = 2; n <= 700; n += n < 80 ? 1 : 37) {
        for (size_t c = 0; c < sizeof levels / sizeof *levels; c++) {
            double m, lo, hi, dlo = NAN, dhi = NAN;
            int rc = bl_stats_median_interval(xs, n, levels[c], &m, &lo, &hi);
            int drc = direct_median_interval(xs, n, levels[c], &dlo, &dhi);
            assert_int_equal(rc, drc);
            if (!rc) {
                assert_true(lo == dlo); /* bit for bit, not close */
                assert_true(hi == dhi);
            }
        }
    }
}

/* Many launches: the interval is O(n) after the sort (it was O(n^2): a
 * million values took hours). Not timed: a quadratic walk at this size
 * would not end within the test's time limit. */
static void median_interval_of_a_million_values(void **state)
{
    (void)state;
    size_t n = 1000000;
    double *xs = malloc(n * sizeof *xs);
    assert_non_null(xs);
    for (size_t i = 0; i < n; i++)
        xs[i] = (double)((i * 7919) % n);
    double m, lo, hi;
    assert_int_equal(bl_stats_median_interval(xs, n, 0.95, &m, &lo, &hi), 0);
    assert_close(m, 499999.5, 1e-9);
    /* the order statistics n/2 -+ 0.98 sqrt(n), within one rank */
    assert_true(lo > 499019 - 2 && lo < 499019 + 2);
    assert_true(hi > 500980 - 2 && hi < 500980 + 2);
    free(xs);
}

/* ---- simulated runs ------------------------------------------------------- */

/*
 * One simulated benchmark of true time `mu`: each launch (process) adds an
 * effect of its own (layout, frequency phase: sd `between`), and its
 * batches drift around that with autocorrelated noise (AR(1), rho 0.8), as
 * batches of one process do.
 */
static void simulate(bl_bench_result *b, int launches, int batches, double mu, double between,
                     double within)
{
    for (int l = 0; l < launches; l++) {
        bl_launch *la = bl_results_add_launch(b);
        assert_non_null(la);
        double effect = between * normal(), e = 0;
        for (int i = 0; i < batches; i++) {
            e = 0.8 * e + 0.6 * within * normal();
            double per_op = mu + effect + e;
            bl_sample s = {.stage = BL_STAGE_MEASURE,
                           .reps = 1000,
                           .ns = per_op * 1000,
                           .cpu_ns = per_op * 1000};
            assert_int_equal(bl_launch_add_sample(la, &s), 0);
        }
        bl_launch_finish(la);
    }
}

/*
 * The interval over launches covers the true time about as often as it
 * claims (95%); the old interval, the median of every batch of every
 * launch pooled as if independent, covers it far less often. This is the
 * reason launches are the statistical unit.
 */
static void launch_interval_covers_truth_pooled_batches_do_not(void **state)
{
    (void)state;
    const int runs = 1000;
    int covered = 0, pooled_covered = 0, one_launch_covered = 0;
    for (int r = 0; r < runs; r++) {
        bl_results *res = bl_results_create();
        bl_bench_result *b = bl_results_bench(res, "BenchmarkSim");
        simulate(b, 6, 40, 100.0, 1.0, 1.0);
        bl_estimate e;
        assert_int_equal(bl_bench_estimate(b, 0.95, &e), 0);
        assert_int_equal(e.ci_method, BL_CI_LAUNCHES);
        assert_int_equal(e.n_launches, 6);
        assert_int_equal(e.n_batches, 240);
        covered += e.ci_lo <= 100.0 && 100.0 <= e.ci_hi;

        double all[240];
        size_t n = 0;
        for (size_t j = 0; j < b->n_launches; j++) {
            double *v;
            long k = bl_launch_per_op(&b->launches[j], &v);
            for (long t = 0; t < k; t++)
                all[n++] = v[t];
            free(v);
        }
        bl_summary s;
        assert_int_equal(bl_stats_summarize(all, n, 0.95, &s), 0);
        pooled_covered += s.ci_lo <= 100.0 && 100.0 <= s.ci_hi;

        /* one launch: the fallback interval from its batches */
        bl_bench_result *one = bl_results_bench(res, "BenchmarkOne");
        simulate(one, 1, 40, 100.0, 1.0, 1.0);
        assert_int_equal(bl_bench_estimate(one, 0.95, &e), 0);
        assert_int_equal(e.ci_method, BL_CI_BATCHES);
        one_launch_covered += e.ci_lo <= 100.0 && 100.0 <= e.ci_hi;
        bl_results_destroy(res);
    }
    double cov = (double)covered / runs, pooled = (double)pooled_covered / runs;
    double one = (double)one_launch_covered / runs;
    print_message("coverage: launches %.3f, pooled batches %.3f, one launch %.3f\n", cov, pooled,
                  one);
    assert_true(cov >= 0.93 && cov <= 0.97);
    assert_true(pooled < 0.6);
    assert_true(one < 0.6);
}

/* Without a between-launch effect the interval is still honest (not
 * needlessly wide): it covers about 95% too. */
static void launch_interval_without_between_variance_still_covers(void **state)
{
    (void)state;
    const int runs = 1000;
    int covered = 0;
    for (int r = 0; r < runs; r++) {
        bl_results *res = bl_results_create();
        bl_bench_result *b = bl_results_bench(res, "BenchmarkSim");
        simulate(b, 6, 40, 50.0, 0.0, 1.0);
        bl_estimate e;
        assert_int_equal(bl_bench_estimate(b, 0.95, &e), 0);
        covered += e.ci_lo <= 50.0 && 50.0 <= e.ci_hi;
        bl_results_destroy(res);
    }
    assert_true(covered >= 930 && covered <= 970);
}

/* Launches that ran while something else hogged the machine (their clean
 * batches all 60% slower: nothing the invalidation can see, such as a
 * hypervisor descheduling the vCPU) would move a plain mean of 6 launches
 * by 10% each; the median moves no more than the launch-to-launch noise
 * (sd 1% here) with one such launch, nor with two, and its interval still
 * covers the truth at least as often as it claims. */
static void wild_launches_barely_move_the_centre(void **state)
{
    (void)state;
    const int runs = 400;
    for (int wild = 1; wild <= 2; wild++) {
        int covered = 0;
        double worst = 0;
        for (int r = 0; r < runs; r++) {
            bl_results *res = bl_results_create();
            bl_bench_result *b = bl_results_bench(res, "BenchmarkSim");
            simulate(b, 6 - wild, 40, 100.0, 1.0, 1.0);
            simulate(b, wild, 40, 160.0, 1.0, 1.0);
            bl_estimate e;
            assert_int_equal(bl_bench_estimate(b, 0.95, &e), 0);
            covered += e.ci_lo <= 100.0 && 100.0 <= e.ci_hi;
            if (fabs(e.centre - 100.0) > worst)
                worst = fabs(e.centre - 100.0);
            assert_true(e.spread > 0.5);          /* the spread column still shows it */
            assert_true(e.mean > 100 + 8 * wild); /* what a plain mean would say */
            bl_results_destroy(res);
        }
        print_message("%d wild launches of 6: coverage %.3f, worst centre error %.2f%%\n", wild,
                      (double)covered / runs, worst);
        assert_true(worst < 3.0);
        /* with 2 of 6 slow, the median of the launch population itself
         * sits above 100 (at the 75th percentile of the fast ones): the
         * interval covers that, not 100 */
        if (wild == 1)
            assert_true(covered >= 0.9 * runs);
    }
}

/* Spread and cv are over launch centres; failed launches do not count. */
static void estimate_spread_over_launch_centres(void **state)
{
    (void)state;
    bl_results *res = bl_results_create();
    bl_bench_result *b = bl_results_bench(res, "BenchmarkFixed");
    const double centres[] = {100, 104, 102, 0};
    for (int l = 0; l < 4; l++) {
        bl_launch *la = bl_results_add_launch(b);
        for (int i = 0; i < 11; i++) {
            bl_sample s = {.stage = BL_STAGE_MEASURE,
                           .reps = 10,
                           .ns = centres[l] * 10 + i - 5,
                           .cpu_ns = centres[l] * 10 + i - 5};
            bl_launch_add_sample(la, &s);
        }
        bl_launch_finish(la);
        if (l == 3)
            la->status = BL_ECRASH; /* a crashed launch has no say */
    }
    bl_estimate e;
    assert_int_equal(bl_bench_estimate(b, 0.95, &e), 0);
    assert_int_equal(e.n_launches, 3);
    assert_int_equal(e.ci_method, BL_CI_LAUNCHES_T); /* too few for the median's interval */
    assert_close(e.centre, 102, 1e-9);
    assert_close(e.median, 102, 1e-9);
    assert_close(e.min, 100, 1e-9);
    assert_close(e.max, 104, 1e-9);
    assert_close(e.spread, 4.0 / 102, 1e-12);
    assert_close(e.cv, 2.0 / 102, 1e-12);
    assert_close(e.ci_hi - e.centre, 4.302653 * 2 / sqrt(3), 1e-5);
    assert_close(e.batch_min, 99.5, 1e-9);
    assert_int_equal(e.n_batches, 33);
    bl_results_destroy(res);

    res = bl_results_create();
    b = bl_results_bench(res, "BenchmarkNone");
    assert_int_equal(bl_bench_estimate(b, 0.95, &e), BL_ENOTFOUND);
    assert_int_equal(e.n_launches, 0);
    assert_true(isnan(e.centre));
    bl_results_destroy(res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_quantile_matches_tables),
        cmocka_unit_test(t_cdf_is_symmetric_and_inverts_the_quantile),
        cmocka_unit_test(mean_interval_by_hand),
        cmocka_unit_test(trimmed_interval_by_hand),
        cmocka_unit_test(median_interval_interpolates_order_statistics),
        cmocka_unit_test(median_interval_centre_is_bl_stats_median),
        cmocka_unit_test(median_interval_incremental_matches_direct_sum),
        cmocka_unit_test(median_interval_of_a_million_values),
        cmocka_unit_test(launch_interval_covers_truth_pooled_batches_do_not),
        cmocka_unit_test(wild_launches_barely_move_the_centre),
        cmocka_unit_test(launch_interval_without_between_variance_still_covers),
        cmocka_unit_test(estimate_spread_over_launch_centres),
    };
    return cmocka_run_group_tests_name("interval", tests, NULL, NULL);
}
