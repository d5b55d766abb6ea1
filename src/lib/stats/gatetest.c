/*
 * gatetest.c - the test a CI gate decides each comparison with, when the
 * rank test cannot: Welch's t test, the smallest p the exact U test can
 * give, and the level the first rejection of a correction needs.
 *
 * With n values a side the exact two-sided Mann-Whitney test has C(2n, n)
 * equally likely arrangements under the null, so its p is never below
 * 2 / C(2n, n): 0.0079 at 5 a side, 0.0022 at 6. Holm (and BH, for a
 * single change) needs p <= alpha / m for the first rejection, so a suite
 * of m >= 7 benchmarks judged at 5 launches a side could never be flagged,
 * whatever the change. No distribution-free test does better on 5 values
 * (a permutation test has the same 252 arrangements), so the gates of
 * judge (results/judge.c) and compare (compare/gate.c) switch, by sample
 * size alone and never by the data, to Welch's t on log values where
 * bl_stats_utest_min_p(na, nb) > bl_correction_first_level(...).
 * docs/store.md ("The test") says why Welch's t on logs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "benchlab/stats.h"

double bl_stats_utest_min_p(size_t na, size_t nb)
{
    if (!na || !nb)
        return 1;
    /* the most extreme arrangement (every b above every a), through the
     * test itself: exact where it is exact, its normal approximation above */
    double *v = malloc((na + nb) * sizeof *v);
    if (!v)
        return NAN;
    for (size_t i = 0; i < na + nb; i++)
        v[i] = (double)i;
    double p = NAN;
    if (bl_stats_utest(v, na, v + na, nb, &p) != 0)
        p = NAN;
    free(v);
    return p;
}

double bl_correction_first_level(double alpha, size_t m, enum bl_correction correction)
{
    if (correction == BL_CORRECTION_NONE || m <= 1)
        return alpha;
    return alpha / (double)m;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    double m = s / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *var = ss / (double)(n - 1);
}

int bl_stats_welch(const double *a, size_t na, const double *b, size_t nb, double *p_two_sided,
                   double *t_out, double *df_out)
{
    *p_two_sided = NAN;
    if (t_out)
        *t_out = NAN;
    if (df_out)
        *df_out = NAN;
    for (size_t i = 0; i < na; i++)
        if (!isfinite(a[i]))
            return -EINVAL;
    for (size_t i = 0; i < nb; i++)
        if (!isfinite(b[i]))
            return -EINVAL;
    if (na < 2 || nb < 2)
        return -EDOM;
    double ma, va, mb, vb;
    mean_var(a, na, &ma, &va);
    mean_var(b, nb, &mb, &vb);
    double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;
    double d = mb - ma;
    if (!(se2 > 0)) {
        /* no spread on either side: the means differ or they do not */
        if (d == 0)
            return -EDOM;
        *p_two_sided = 0;
        if (t_out)
            *t_out = d > 0 ? INFINITY : -INFINITY;
        return 0;
    }
    double t = d / sqrt(se2);
    /* Welch-Satterthwaite; a side without spread adds nothing to it */
    double den =
        (sa > 0 ? sa * sa / (double)(na - 1) : 0) + (sb > 0 ? sb * sb / (double)(nb - 1) : 0);
    double df = se2 * se2 / den;
    /* the lower tail of -|t|: no cancellation for the small p a gate needs */
    double p = 2 * bl_stats_t_cdf(-fabs(t), df);
    *p_two_sided = p > 1 ? 1 : p;
    if (t_out)
        *t_out = t;
    if (df_out)
        *df_out = df;
    return 0;
}
