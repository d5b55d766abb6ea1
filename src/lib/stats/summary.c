/*
 * summary.c - robust one-sample summaries (bl_stats_summarize).
 *
 * The interval of the median uses order statistics: for a continuous
 * distribution the number of samples below the true median is
 * Binomial(n, 1/2), whatever the distribution, so [x(k), x(n-k-1)] covers
 * the median with probability 1 - 2*P(B <= k-1)... computed exactly below.
 * No normality assumption, as seed 003 argues for timing data.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x))
        return isnan(y) ? 0 : 1;
    if (isnan(y))
        return -1;
    return (x > y) - (x < y);
}

/* Sizes up to this are sorted in place by qsort: no allocation (the worker
 * sorts its calibration samples between batches) and nothing to gain. */
#define RADIX_MIN 1024

/* An unsigned key that orders as the double does: flip every bit of a
 * negative, the sign bit of a positive (-0 sorts before +0). */
static uint64_t radix_key(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

static double radix_value(uint64_t k)
{
    uint64_t u = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Least-significant-digit radix sort of n keys, 8 passes of a byte; a pass
 * whose byte is the same in every key is skipped. Returns where the sorted
 * keys are (keys or tmp). */
static uint64_t *radix_sort(uint64_t *keys, uint64_t *tmp, size_t n)
{
    size_t count[8][256] = {{0}};
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            count[b][(keys[i] >> (8 * b)) & 0xff]++;
    for (int b = 0; b < 8; b++) {
        if (count[b][(keys[0] >> (8 * b)) & 0xff] == n)
            continue;
        size_t at = 0;
        for (int d = 0; d < 256; d++) {
            size_t c = count[b][d];
            count[b][d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[b][(keys[i] >> (8 * b)) & 0xff]++] = keys[i];
        uint64_t *t = keys;
        keys = tmp;
        tmp = t;
    }
    return keys;
}

/*
 * Large inputs (many launches, a report's thousands of batches) are radix
 * sorted: linear time, where qsort's merge sort with a comparison call per
 * step was the largest cost of `report` on 100k launches and, with its
 * n log n and a buffer as big as the input, grew 2.4 per doubling once the
 * two stopped fitting in the cache (bench/scaling). Written here rather than
 * taken from a library: no Debian-packaged C library sorts doubles, and the
 * order (NaNs last) is ours.
 */
void bl_stats_sort(double *xs, size_t n)
{
    size_t m = 0; /* the NaNs go last, in a pass before the sort */
    for (size_t i = 0; i < n; i++)
        if (!isnan(xs[i]))
            xs[m++] = xs[i];
    for (size_t i = m; i < n; i++)
        xs[i] = NAN;
    uint64_t *keys = m > RADIX_MIN ? malloc(2 * m * sizeof *keys) : NULL;
    if (!keys) { /* small, or no memory: the same order by comparisons */
        qsort(xs, m, sizeof *xs, cmp_double);
        return;
    }
    for (size_t i = 0; i < m; i++)
        keys[i] = radix_key(xs[i]);
    const uint64_t *sorted = radix_sort(keys, keys + m, m);
    for (size_t i = 0; i < m; i++)
        xs[i] = radix_value(sorted[i]);
    free(keys);
}

double bl_stats_quantile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    if (p <= 0)
        return sorted[0];
    if (p >= 1)
        return sorted[n - 1];
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    double frac = h - (double)i;
    if (i + 1 >= n)
        return sorted[n - 1];
    /* the same for finite values; without it, infinities (a kInvert counter
     * of 0) made NaN: inf - inf, and 0 x inf */
    if (frac == 0 || sorted[i] == sorted[i + 1])
        return sorted[i];
    return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

double bl_stats_median(const double *xs, size_t n)
{
    if (n == 0)
        return NAN;
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return NAN;
    memcpy(tmp, xs, n * sizeof *tmp);
    bl_stats_sort(tmp, n);
    double m = bl_stats_quantile_sorted(tmp, n, 0.5);
    free(tmp);
    return m;
}

/* log of the binomial probability mass C(n,k) / 2^n. */
static double log_binom_half(size_t n, size_t k)
{
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) -
           (double)n * log(2.0);
}

int bl_stats_median_ci_index(size_t n, double confidence, size_t *lo, size_t *hi)
{
    if (n == 0 || !(confidence > 0 && confidence < 1))
        return -EDOM;
    double alpha_half = (1.0 - confidence) / 2.0;
    /* Largest k such that P(B <= k-1) <= alpha/2, where B ~ Bin(n, 1/2).
     * The interval is then [x(k), x(n-1-k)] in 0-based indices, whose
     * coverage is 1 - 2 P(B <= k-1) >= confidence. */
    double tail = 0; /* P(B <= k-1) */
    size_t k = 0;
    while (k < n / 2) {
        double next = tail + exp(log_binom_half(n, k)); /* P(B <= k) */
        if (next > alpha_half)
            break;
        tail = next;
        k++;
    }
    if (k == 0)
        return -EDOM;
    *lo = k - 1;
    *hi = n - k;
    return 0;
}

int bl_stats_summarize(const double *xs, size_t n, double confidence, bl_summary *out)
{
    memset(out, 0, sizeof *out);
    out->confidence = confidence;
    out->ci_lo = out->ci_hi = NAN;
    if (n == 0)
        return -EINVAL;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -ENOMEM;
    memcpy(s, xs, n * sizeof *s);
    bl_stats_sort(s, n);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    out->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - out->mean) * (s[i] - out->mean);
    out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    out->median = bl_stats_quantile_sorted(s, n, 0.5);
    out->q1 = bl_stats_quantile_sorted(s, n, 0.25);
    out->q3 = bl_stats_quantile_sorted(s, n, 0.75);
    double iqr = out->q3 - out->q1;
    for (size_t i = 0; i < n; i++)
        if (s[i] < out->q1 - 1.5 * iqr || s[i] > out->q3 + 1.5 * iqr)
            out->n_outliers++;
    size_t lo, hi;
    if (bl_stats_median_ci_index(n, confidence, &lo, &hi) == 0) {
        out->ci_lo = s[lo];
        out->ci_hi = s[hi];
    }
    for (size_t i = 0; i < n; i++)
        s[i] = fabs(s[i] - out->median);
    bl_stats_sort(s, n);
    out->mad = bl_stats_quantile_sorted(s, n, 0.5);
    free(s);
    return 0;
}
