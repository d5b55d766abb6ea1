/*
 * interval.c - Student's t distribution and the interval of a mean over a
 * few independent values (the launch centres of a benchmark).
 *
 * Why t over launches: batches inside one worker process share its memory
 * layout, its frequency phase and its neighbours, so they are not
 * independent samples and an interval computed from them alone is far too
 * narrow (docs/engine.md, "Launches and intervals"). Each launch is one
 * independent value; its centre is the median of many batches and is close
 * to normal, so the classic t interval over launches is the right tool even
 * for 5 or 6 values, where no distribution-free interval of the median
 * exists at 95% (it needs n >= 6 and is then the full range).
 *
 * Written here rather than taken from a library: libbenchlab depends on
 * libc and libm only. The incomplete beta function is the continued
 * fraction of Numerical Recipes (modified Lentz), accurate to ~1e-12 here.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/stats.h"

/* Continued fraction of the regularized incomplete beta function. */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300, eps = 1e-15;
    double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 - qab * x / qap;
    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 500; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < eps)
            break;
    }
    return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double inc_beta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lbt) * beta_cf(a, b, x) / a;
    return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double bl_stats_t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1 : 0;
    double tail = 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t)); /* P(T > |t|) */
    return t > 0 ? 1 - tail : tail;
}

double bl_stats_t_quantile(double p, double df)
{
    if (!(p > 0 && p < 1) || !(df > 0))
        return NAN;
    if (p == 0.5)
        return 0;
    if (p < 0.5)
        return -bl_stats_t_quantile(1 - p, df);
    /* bisection on [0, hi]: the CDF is monotone and cheap; 200 halvings
     * reach the precision of a double on any bracket we use */
    double lo = 0, hi = 1;
    while (bl_stats_t_cdf(hi, df) < p && hi < 1e300)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (bl_stats_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

int bl_stats_mean_interval(const double *xs, size_t n, double confidence, double *mean, double *lo,
                           double *hi)
{
    *mean = *lo = *hi = NAN;
    if (n == 0)
        return -EINVAL;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += xs[i];
    double m = sum / (double)n;
    *mean = m;
    if (n < 2 || !(confidence > 0 && confidence < 1))
        return -EDOM;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (xs[i] - m) * (xs[i] - m);
    double se = sqrt(ss / (double)(n - 1) / (double)n);
    double t = bl_stats_t_quantile(0.5 + confidence / 2, (double)(n - 1));
    *lo = m - t * se;
    *hi = m + t * se;
    return 0;
}

int bl_stats_trimmed_interval(const double *xs, size_t n, double trim, double confidence,
                              double *centre, double *lo, double *hi)
{
    *centre = *lo = *hi = NAN;
    if (n == 0)
        return -EINVAL;
    if (!(trim >= 0 && trim < 0.5))
        return -EDOM;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -ENOMEM;
    memcpy(s, xs, n * sizeof *s);
    bl_stats_sort(s, n);
    size_t g = (size_t)floor(trim * (double)n), h = n - 2 * g;
    double sum = 0;
    for (size_t i = g; i < n - g; i++)
        sum += s[i];
    double m = sum / (double)h;
    *centre = m;
    int rc = 0;
    if (h < 2 || !(confidence > 0 && confidence < 1)) {
        rc = -EDOM;
    } else {
        /* winsorize: the g smallest become s[g], the g largest s[n-g-1] */
        for (size_t i = 0; i < g; i++) {
            s[i] = s[g];
            s[n - 1 - i] = s[n - 1 - g];
        }
        double wsum = 0;
        for (size_t i = 0; i < n; i++)
            wsum += s[i];
        double wmean = wsum / (double)n, ss = 0;
        for (size_t i = 0; i < n; i++)
            ss += (s[i] - wmean) * (s[i] - wmean);
        /* Yuen: d = (n-1) s_w^2 / (h (h-1)) = ss / (h (h-1)); df = h - 1 */
        double se = sqrt(ss / ((double)h * (double)(h - 1)));
        double t = bl_stats_t_quantile(0.5 + confidence / 2, (double)(h - 1));
        *lo = m - t * se;
        *hi = m + t * se;
    }
    free(s);
    return rc;
}

/* P(B <= k) for B ~ Binomial(n, 1/2), term by term from k = 0: each call
 * of next() adds one term, so that walking k up to n/2 is O(n) and not
 * O(n^2). The terms and the order of the sum are those of the direct
 * formula sum_{i<=k} C(n,i) / 2^n, so every value is bit for bit what that
 * formula gives (tests/unit/test_stats.c checks it). */
struct binom_cdf {
    double n, lg_n1, n_ln2;
    size_t k; /* the cdf is P(B <= k) */
    double cdf;
};

static double binom_term(const struct binom_cdf *b, size_t i)
{
    return exp(b->lg_n1 - lgamma((double)i + 1) - lgamma(b->n - (double)i + 1) - b->n_ln2);
}

static void binom_cdf_init(struct binom_cdf *b, size_t n)
{
    b->n = (double)n;
    b->lg_n1 = lgamma((double)n + 1);
    b->n_ln2 = (double)n * log(2.0);
    b->k = 0;
    b->cdf = 0 + binom_term(b, 0);
}

static void binom_cdf_next(struct binom_cdf *b)
{
    b->k++;
    b->cdf += binom_term(b, b->k);
}

int bl_stats_median_interval(const double *xs, size_t n, double confidence, double *median,
                             double *lo, double *hi)
{
    *median = *lo = *hi = NAN;
    if (n == 0)
        return -EINVAL;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -ENOMEM;
    memcpy(s, xs, n * sizeof *s);
    bl_stats_sort(s, n);
    *median = bl_stats_quantile_sorted(s, n, 0.5);
    int rc = -EDOM;
    /* gamma(k) = P(x(k) <= median <= x(n-k+1)) = 1 - 2 P(B <= k-1), 1-based k */
    struct binom_cdf b;
    if (n >= 2)
        binom_cdf_init(&b, n);
    if (confidence > 0 && confidence < 1 && n >= 2 && 1 - 2 * b.cdf >= confidence) {
        size_t k = 1;
        double prev = b.cdf; /* P(B <= k - 1) */
        binom_cdf_next(&b);  /* P(B <= k) */
        while (k + 1 <= n / 2 && 1 - 2 * b.cdf >= confidence) {
            k++;
            prev = b.cdf;
            binom_cdf_next(&b);
        }
        double g_k = 1 - 2 * prev;
        double g_k1 = k + 1 <= (n + 1) / 2 ? 1 - 2 * b.cdf : 0;
        /* Hettmansperger-Sheather: interpolate between x(k) and x(k+1) */
        double lambda = 0;
        if (g_k > g_k1 && k + 1 <= n - k) {
            double i = (g_k - confidence) / (g_k - g_k1);
            lambda = (double)(n - k) * i / ((double)k + (double)(n - 2 * k) * i);
        }
        *lo = (1 - lambda) * s[k - 1] + lambda * s[k];
        *hi = (1 - lambda) * s[n - k] + lambda * s[n - k - 1];
        rc = 0;
    }
    free(s);
    return rc;
}
