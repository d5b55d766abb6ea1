/*
 * shift.c - the Hodges-Lehmann estimate of the shift between two samples
 * and its distribution-free confidence interval (Bauer 1972), the interval
 * that goes with the Mann-Whitney U test: the shift d is in the interval
 * exactly when the U test of a + d against b does not reject.
 *
 * The estimate is the median of the n*m differences b_j - a_i; the bounds
 * are the differences of rank c and n*m + 1 - c, with c from the null
 * distribution of U (exact for small samples, normal above). The
 * differences are never materialised: the k-th smallest is found by
 * bisection on its value, counting the differences below a value in
 * O(n + m) over the two sorted samples, so 10^4 samples cost no more
 * memory than the samples themselves.
 *
 * judge.c applies it to log times, where a shift is a ratio: the ratio of
 * new to old time per op with its interval.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/stats.h"

/* The exact null distribution of U is used up to this size. */
#define EXACT_MAX 50

/* How many b_j - a_i are <= t, with a and b sorted ascending. */
static size_t count_le(const double *a, size_t na, const double *b, size_t nb, double t)
{
    size_t count = 0, i = 0;
    /* for each b_j (ascending), the a_i >= b_j - t form a suffix that grows */
    for (size_t j = 0; j < nb; j++) {
        while (i < na && b[j] - a[i] > t)
            i++;
        count += na - i;
    }
    return count;
}

/* The k-th smallest (1-based) of the differences b_j - a_i. */
static double kth_difference(const double *a, size_t na, const double *b, size_t nb, size_t k)
{
    double lo = b[0] - a[na - 1], hi = b[nb - 1] - a[0];
    if (count_le(a, na, b, nb, lo) >= k)
        return lo;
    /* invariant: count(lo) < k <= count(hi) */
    for (int iter = 0; iter < 200; iter++) {
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi))
            break; /* adjacent doubles */
        if (count_le(a, na, b, nb, mid) >= k)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/*
 * The largest c with P(U <= c - 1) <= alpha / 2 under the null, U being
 * the Mann-Whitney count for sizes n and m. 0 when even the extreme is
 * more likely than that (too few values for this confidence).
 */
static size_t critical_rank(size_t n, size_t m, double alpha)
{
    size_t nm = n * m;
    if (n <= EXACT_MAX && m <= EXACT_MAX) {
        /* coefficients of the Gaussian binomial [n+m choose n] in q: the
         * number of arrangements with U = u, built as
         * prod_{i=1..n} (1 - q^(m+i)) / (1 - q^i) */
        double *c = calloc(nm + 1, sizeof *c);
        if (!c)
            return 0;
        c[0] = 1;
        for (size_t i = 1; i <= n; i++) {
            for (size_t u = nm; u >= m + i && u <= nm; u--)
                c[u] -= c[u - (m + i)];
            for (size_t u = i; u <= nm; u++)
                c[u] += c[u - i];
        }
        double total = 0;
        for (size_t u = 0; u <= nm; u++)
            total += c[u];
        double cum = 0;
        size_t rank = 0;
        for (size_t u = 0; u <= nm / 2; u++) {
            cum += c[u];
            if (cum / total <= alpha / 2)
                rank = u + 1;
            else
                break;
        }
        free(c);
        return rank;
    }
    double z = bl_bstat_norm_inv_cdf(1 - alpha / 2, 0, 1);
    double mean = (double)nm / 2, sd = sqrt((double)nm * (double)(n + m + 1) / 12.0);
    double c = floor(mean - z * sd + 0.5);
    return c < 1 ? 0 : (size_t)c;
}

int bl_stats_shift_ci(const double *a, size_t na, const double *b, size_t nb, double confidence,
                      double *shift, double *lo, double *hi)
{
    *shift = *lo = *hi = NAN;
    if (!na || !nb)
        return -EINVAL;
    for (size_t i = 0; i < na; i++)
        if (isnan(a[i]))
            return -EINVAL;
    for (size_t i = 0; i < nb; i++)
        if (isnan(b[i]))
            return -EINVAL;
    double *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb);
    if (!sa || !sb) {
        free(sa);
        free(sb);
        return -ENOMEM;
    }
    memcpy(sa, a, na * sizeof *sa);
    memcpy(sb, b, nb * sizeof *sb);
    bl_stats_sort(sa, na);
    bl_stats_sort(sb, nb);
    size_t nm = na * nb;
    if (nm % 2)
        *shift = kth_difference(sa, na, sb, nb, nm / 2 + 1);
    else
        *shift =
            (kth_difference(sa, na, sb, nb, nm / 2) + kth_difference(sa, na, sb, nb, nm / 2 + 1)) /
            2;
    int rc = 0;
    size_t c = critical_rank(na, nb, 1 - confidence);
    if (c >= 1 && c <= nm + 1 - c) {
        *lo = kth_difference(sa, na, sb, nb, c);
        *hi = kth_difference(sa, na, sb, nb, nm + 1 - c);
    } else {
        rc = -EDOM;
    }
    free(sa);
    free(sb);
    return rc;
}
