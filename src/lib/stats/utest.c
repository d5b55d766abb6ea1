/*
 * utest.c - the two-sided Mann-Whitney U test, as benchstat v2 runs it
 * (aclements/go-moremath stats.MannWhitneyUTest).
 *
 * Exact distribution when there are no ties and both samples have at most
 * 50 values, or with ties and at most 25; otherwise the normal
 * approximation with tie and continuity correction. The exact
 * distribution with ties (Klotz 1966) is computed by dynamic programming
 * over the tie groups: state (values taken from sample 1, 2U so far),
 * counting arrangements in doubles, which are exact below 2^53 (C(50,25) is
 * about 1.3e14).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/stats.h"

/* Sort with NaN first, as Go's sort.Float64s: bl_stats_sort puts them last. */
static void sort_nan_first(double *x, size_t n)
{
    bl_stats_sort(x, n);
    size_t k = 0;
    while (k < n && isnan(x[n - 1 - k]))
        k++;
    if (k == 0 || k == n)
        return;
    memmove(x + k, x, (n - k) * sizeof *x);
    for (size_t i = 0; i < k; i++)
        x[i] = NAN;
}

/* P(2*U1 <= two_u) without ties: classic recursion on counts. */
static double cdf_no_ties(int n1, int n2, long u)
{
    long max = (long)n1 * n2;
    if (u < 0)
        return 0;
    if (u >= max)
        return 1;
    /* counts[m][u]: arrangements of m values of sample 1 among the first
     * k merged positions... use the standard f(n1, n2, u) recursion
     * iteratively over n2 with a table over (i <= n1, u <= max). */
    size_t w = (size_t)max + 1;
    double *prev = calloc((size_t)(n1 + 1) * w, sizeof(double));
    double *cur = calloc((size_t)(n1 + 1) * w, sizeof(double));
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return NAN;
    }
    /* f(i, 0, u) = [u == 0] */
    for (int i = 0; i <= n1; i++)
        prev[(size_t)i * w] = 1;
    for (int j = 1; j <= n2; j++) {
        memset(cur, 0, (size_t)(n1 + 1) * w * sizeof(double));
        for (int i = 0; i <= n1; i++) {
            long lim = (long)i * j;
            for (long x = 0; x <= lim; x++) {
                /* f(i,j,x) = f(i-1,j,x-j) + f(i,j-1,x): the largest value is
                 * from sample 1 (beats j values of sample 2) or sample 2. */
                double v = prev[(size_t)i * w + (size_t)x];
                if (i > 0 && x - j >= 0)
                    v += cur[(size_t)(i - 1) * w + (size_t)(x - j)];
                cur[(size_t)i * w + (size_t)x] = v;
            }
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double total = 0, below = 0;
    for (long x = 0; x <= max; x++) {
        double c = prev[(size_t)n1 * w + (size_t)x];
        total += c;
        if (x <= u)
            below += c;
    }
    free(prev);
    free(cur);
    return below / total;
}

/* P(2*U1 <= two_u) given tie group sizes t[0..k) in merged order. */
static double cdf_ties(int n1, int n2, const int *t, size_t k, long two_u)
{
    long max2u = 2L * n1 * n2;
    /* 2U1 = sum over groups of u_g * (2*before_g + t_g) - n1^2, with u_g
     * the values of sample 1 in group g. Track s, the sum, in [0, W). */
    long off = (long)n1 * n1;
    size_t W = (size_t)(off + max2u) + 1;
    double *dp = calloc((size_t)(n1 + 1) * W, sizeof(double));
    double *nx = calloc((size_t)(n1 + 1) * W, sizeof(double));
    if (!dp || !nx) {
        free(dp);
        free(nx);
        return NAN;
    }
    dp[0] = 1;
    int before = 0;
    for (size_t g = 0; g < k; g++) {
        memset(nx, 0, (size_t)(n1 + 1) * W * sizeof(double));
        long a = 2L * before + t[g];
        for (int m = 0; m <= n1; m++) {
            for (size_t s = 0; s < W; s++) {
                double c = dp[(size_t)m * W + s];
                if (c == 0)
                    continue;
                for (int u = 0; u <= t[g] && m + u <= n1; u++) {
                    size_t s2 = s + (size_t)(u * a);
                    if (s2 >= W)
                        break;
                    double ways = 1;
                    for (int i = 1; i <= u; i++)
                        ways = ways * (t[g] - u + i) / i;
                    nx[(size_t)(m + u) * W + s2] += c * ways;
                }
            }
        }
        double *tmp = dp;
        dp = nx;
        nx = tmp;
        before += t[g];
    }
    double total = 0, below = 0;
    for (size_t s = 0; s < W; s++) {
        double c = dp[(size_t)n1 * W + s];
        total += c;
        if ((long)s - off <= two_u)
            below += c;
    }
    free(dp);
    free(nx);
    return below / total;
}

int bl_stats_utest(const double *a, size_t na, const double *b, size_t nb, double *p_two_sided)
{
    if (na == 0 || nb == 0)
        return -EINVAL;
    double *x = malloc((na + nb) * sizeof(double));
    if (!x)
        return -ENOMEM;
    memcpy(x, a, na * sizeof(double));
    memcpy(x + na, b, nb * sizeof(double));
    sort_nan_first(x, na);
    sort_nan_first(x + na, nb);
    int rc = bl_stats_utest_sorted(x, na, x + na, nb, p_two_sided);
    free(x);
    return rc;
}

int bl_stats_utest_sorted(const double *s1, size_t na, const double *s2, size_t nb,
                          double *p_two_sided)
{
    if (na == 0 || nb == 0)
        return -EINVAL;
    size_t n = na + nb;
    unsigned char *lab = malloc(n);
    int *ties = malloc(n * sizeof(int));
    if (!lab || !ties) {
        free(lab);
        free(ties);
        return -ENOMEM;
    }
    /* Merge, labelled; on equal values sample 2 goes first as in moremath. */
    double *m = malloc(n * sizeof(double));
    if (!m) {
        free(lab);
        free(ties);
        return -ENOMEM;
    }
    size_t i = 0, j = 0, o = 0;
    while (i < na && j < nb) {
        if (s1[i] < s2[j]) {
            m[o] = s1[i++];
            lab[o++] = 1;
        } else {
            m[o] = s2[j++];
            lab[o++] = 2;
        }
    }
    while (i < na) {
        m[o] = s1[i++];
        lab[o++] = 1;
    }
    while (j < nb) {
        m[o] = s2[j++];
        lab[o++] = 2;
    }
    double r1 = 0;
    size_t nt = 0;
    int has_ties = 0;
    double tie_sum = 0;
    for (i = 0; i < n;) {
        size_t start = i, nx1 = 0;
        double v = m[i];
        for (; i < n && m[i] == v; i++)
            nx1 += lab[i] == 1;
        if (i == start) { /* NaN never equals itself: a group of one */
            nx1 += lab[i] == 1;
            i++;
        }
        size_t run = i - start;
        if (nx1)
            r1 += (double)(i + start + 1) / 2 * (double)nx1;
        ties[nt++] = (int)run;
        if (run > 1)
            has_ties = 1;
        tie_sum += (double)run * (double)run * (double)run - (double)run;
    }
    /* U of sample 1, not the smaller U: the normal approximation below
     * centres U1 itself, so that when sample 1 lies wholly above sample 2,
     * CDF(z) rounds to 1 and p is exactly 0, as in benchstat (which then
     * prints no p=). Starting from min(U1, U2) instead gives a tiny p > 0
     * and `p=0.000` where benchstat prints nothing. */
    double u1 = r1 - (double)(na * (na + 1)) / 2;
    double u2 = (double)na * (double)nb - u1;
    double u_small = fmin(u1, u2);
    int err = 0;
    double p;
    if ((!has_ties && na <= 50 && nb <= 50) || (has_ties && na <= 25 && nb <= 25)) {
        if (nt == 1)
            err = -EDOM;
        else if (u1 == u2)
            p = 1;
        else if (!has_ties)
            p = cdf_no_ties((int)na, (int)nb, (long)floor(u_small)) * 2;
        else
            p = cdf_ties((int)na, (int)nb, ties, nt, (long)(2 * u_small)) * 2;
    } else {
        double N = (double)n;
        double mu = (double)na * (double)nb / 2;
        double sigma = sqrt((double)na * (double)nb * ((N + 1) - tie_sum / (N * (N - 1))) / 12);
        double numer = u1 - mu;
        numer -= (numer > 0 ? 1 : numer < 0 ? -1 : 0) * 0.5;
        if (sigma == 0) {
            err = -EDOM;
        } else {
            double z = numer / sigma;
            double c = bl_bstat_norm_cdf(z, 0, 1);
            p = 2 * fmin(c, 1 - c);
        }
    }
    free(m);
    free(lab);
    free(ties);
    if (err)
        return err;
    if (isnan(p))
        return -ENOMEM;
    *p_two_sided = p;
    return 0;
}
