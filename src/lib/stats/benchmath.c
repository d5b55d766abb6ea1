/*
 * benchmath.c - the summary statistics of benchstat v2 (golang.org/x/perf
 * benchmath over aclements/go-moremath), reproduced to the last bit where
 * its output depends on it: the R8 median, the order statistics of the
 * median's confidence interval, the normal distribution it uses and the
 * geometric mean as a running mean of logs.
 *
 * Used by the compare engine (src/lib/compare/) and available to anyone
 * through include/benchlab/stats.h. Pure functions, no allocation.
 */
#include <math.h>
#include <stddef.h>

#include "benchlab/stats.h"

double bl_bstat_quantile_sorted(const double *xs, size_t n, double q)
{
    if (n == 0)
        return NAN;
    if (q <= 0)
        return xs[0];
    if (q >= 1)
        return xs[n - 1];
    double N = (double)n;
    double h = 1 / 3.0 + q * (N + 1 / 3.0); /* Hyndman-Fan R8 */
    double kf = floor(h);
    double frac = h - kf;
    if (kf <= 0)
        return xs[0];
    if (kf >= N)
        return xs[n - 1];
    size_t k = (size_t)kf;
    /* Unlike Go's, equal neighbours and no fraction give the value itself:
     * the same for finite values, not NaN for infinities (a kInvert
     * counter of 0: inf - inf, 0 x inf). */
    if (frac == 0 || xs[k - 1] == xs[k])
        return xs[k - 1];
    /* The exact expression matters: CSV prints medians in full. */
    return xs[k - 1] + frac * (xs[k] - xs[k - 1]);
}

double bl_bstat_norm_cdf(double x, double mu, double sigma)
{
    return erfc(-(x - mu) / (sigma * M_SQRT2)) / 2;
}

double bl_bstat_norm_inv_cdf(double p, double mu, double sigma)
{
    /* Acklam's rational approximation plus one Halley step, as moremath. */
    static const double a1 = -3.969683028665376e+01, a2 = 2.209460984245205e+02,
                        a3 = -2.759285104469687e+02, a4 = 1.383577518672690e+02,
                        a5 = -3.066479806614716e+01, a6 = 2.506628277459239e+00;
    static const double b1 = -5.447609879822406e+01, b2 = 1.615858368580409e+02,
                        b3 = -1.556989798598866e+02, b4 = 6.680131188771972e+01,
                        b5 = -1.328068155288572e+01;
    static const double c1 = -7.784894002430293e-03, c2 = -3.223964580411365e-01,
                        c3 = -2.400758277161838e+00, c4 = -2.549732539343734e+00,
                        c5 = 4.374664141464968e+00, c6 = 2.938163982698783e+00;
    static const double d1 = 7.784695709041462e-03, d2 = 3.224671290700398e-01,
                        d3 = 2.445134137142996e+00, d4 = 3.754408661907416e+00;
    const double plow = 0.02425, phigh = 1 - plow;
    double x;
    if (p < 0 || p > 1 || isnan(p))
        return NAN;
    if (p == 0)
        return -INFINITY;
    if (p == 1)
        return INFINITY;
    if (p < plow) {
        double q = sqrt(-2 * log(p));
        x = (((((c1 * q + c2) * q + c3) * q + c4) * q + c5) * q + c6) /
            ((((d1 * q + d2) * q + d3) * q + d4) * q + 1);
    } else if (phigh < p) {
        double q = sqrt(-2 * log(1 - p));
        x = -(((((c1 * q + c2) * q + c3) * q + c4) * q + c5) * q + c6) /
            ((((d1 * q + d2) * q + d3) * q + d4) * q + 1);
    } else {
        double q = p - 0.5;
        double r = q * q;
        x = (((((a1 * r + a2) * r + a3) * r + a4) * r + a5) * r + a6) * q /
            (((((b1 * r + b2) * r + b3) * r + b4) * r + b5) * r + 1);
    }
    double e = 0.5 * erfc(-x / M_SQRT2) - p;
    double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
    x = x - u / (1 + x * u / 2);
    return x * sigma + mu;
}

/* C(n, k) exactly in a double (exact up to n = 60 or so for our use). */
static double choose(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    double c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

static double binom_pmf_half(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    return choose(n, k) * ldexp(1.0, -n);
}

/*
 * Orders at confidence 0.95 for n <= 30, as benchstat computes them. Its
 * binomial coefficients go through exp(lgamma()) above n = 20, and the
 * rounding moves n = 24 to (8, 18) where exact arithmetic gives (7, 17);
 * a table is the only portable way to agree.
 */
static const unsigned char ci95[31][2] = {
    {0, 0},  {0, 2},  {0, 3},  {0, 4},  {0, 5},  {0, 5},  {1, 6},   {1, 7},
    {1, 7},  {2, 8},  {2, 9},  {2, 9},  {3, 10}, {3, 11}, {3, 11},  {4, 12},
    {4, 12}, {5, 13}, {5, 14}, {5, 14}, {6, 15}, {6, 16}, {6, 16},  {7, 17},
    {8, 18}, {8, 18}, {8, 19}, {8, 19}, {9, 20}, {9, 20}, {10, 21},
};

void bl_bstat_median_ci_orders(size_t n, double confidence, long *lo_order, long *hi_order)
{
    long l, r;
    if (confidence >= 1) {
        *lo_order = 0;
        *hi_order = (long)n + 1;
        return;
    }
    if (n <= 30 && confidence == 0.95) {
        *lo_order = ci95[n][0];
        *hi_order = ci95[n][1];
        return;
    }
    if (n <= 30) {
        int N = (int)n;
        int x = (int)ceil((double)(N + 1) * 0.5) - 1;
        double accum = binom_pmf_half(N, x);
        l = x;
        r = x + 1;
        double lp = binom_pmf_half(N, (int)l - 1), rp = binom_pmf_half(N, (int)r);
        while (accum < confidence && (lp > 0 || rp > 0)) {
            if (lp >= rp) {
                accum += lp;
                l--;
                lp = binom_pmf_half(N, (int)l - 1);
            } else {
                accum += rp;
                r++;
                rp = binom_pmf_half(N, (int)r);
            }
        }
    } else {
        double mu = (double)n * 0.5, sigma = sqrt((double)n * 0.25);
        double alpha = (1 - confidence) / 2;
        double l1 = bl_bstat_norm_inv_cdf(alpha, mu, sigma);
        double r1 = 2 * mu - l1;
        l = (long)floor(floor(l1 - 0.5) + 0.5) + 1;
        r = (long)floor(ceil(r1 - 0.5) + 0.5) + 1;
        double conf = bl_bstat_norm_cdf((double)r - 0.5, mu, sigma) -
                      bl_bstat_norm_cdf((double)l - 0.5, mu, sigma);
        double biased = bl_bstat_norm_cdf((double)(r - 1) - 0.5, mu, sigma) -
                        bl_bstat_norm_cdf((double)l - 0.5, mu, sigma);
        if (biased >= confidence && biased < conf)
            r = r - 1;
    }
    if (l < 0)
        l = 0;
    if (r > (long)n + 1)
        r = (long)n + 1;
    *lo_order = l;
    *hi_order = r;
}

int bl_bstat_median_ci(const double *sorted, size_t n, double confidence, double *median,
                       double *lo, double *hi)
{
    long lo_order, hi_order;
    bl_bstat_median_ci_orders(n, confidence, &lo_order, &hi_order);
    *median = bl_bstat_quantile_sorted(sorted, n, 0.5);
    *lo = lo_order < 1 ? -INFINITY : sorted[lo_order - 1];
    *hi = hi_order - 1 >= (long)n ? INFINITY : sorted[hi_order - 1];
    return isinf(*lo) || isinf(*hi) ? 1 : 0;
}

int bl_bstat_median_min_samples(double confidence)
{
    for (size_t n = 2; n <= 50; n++) {
        long l, h;
        bl_bstat_median_ci_orders(n, confidence, &l, &h);
        if (0 < l && h <= (long)n)
            return (int)n;
    }
    return -50;
}

double bl_bstat_geomean(const double *xs, size_t n)
{
    if (n == 0)
        return NAN;
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        if (xs[i] <= 0)
            return NAN;
        m += (log(xs[i]) - m) / (double)(i + 1);
    }
    return exp(m);
}

/* Introsort-free quicksort with median of three and insertion sort for
 * short runs: samples are small arrays of doubles, qsort's indirect calls
 * dominated compare's profile. NaNs are moved to the front first. */
static void insertion(double *x, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double v = x[i];
        size_t j = i;
        while (j > 0 && x[j - 1] > v) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = v;
    }
}

static void quick(double *x, size_t n, int depth)
{
    while (n > 24) {
        if (depth-- == 0) {
            /* pathological input: fall back to heap-free shell sort */
            for (size_t gap = n / 2; gap > 0; gap /= 2)
                for (size_t i = gap; i < n; i++) {
                    double v = x[i];
                    size_t j = i;
                    while (j >= gap && x[j - gap] > v) {
                        x[j] = x[j - gap];
                        j -= gap;
                    }
                    x[j] = v;
                }
            return;
        }
        double a = x[0], b = x[n / 2], c = x[n - 1];
        double piv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = 0, j = n - 1;
        for (;;) {
            while (x[i] < piv)
                i++;
            while (x[j] > piv)
                j--;
            if (i >= j)
                break;
            double t = x[i];
            x[i] = x[j];
            x[j] = t;
            i++;
            j--;
        }
        size_t left = j + 1;
        if (left < n - left) {
            quick(x, left, depth);
            x += left;
            n -= left;
        } else {
            quick(x + left, n - left, depth);
            n = left;
        }
    }
    insertion(x, n);
}

void bl_bstat_sort(double *xs, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(xs[i])) {
            double t = xs[k];
            xs[k] = xs[i];
            xs[i] = t;
            k++;
        }
    }
    quick(xs + k, n - k, 64);
}
