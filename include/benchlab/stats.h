/*
 * benchlab/stats.h - robust summaries of samples.
 *
 * Timing samples are skewed, heavy-tailed and often multimodal (seed 003),
 * so the centre is the median, the spread is the median absolute deviation
 * and the interval of the centre is distribution-free (order statistics of
 * the binomial). Pure functions: no allocation is visible to the caller.
 */
#ifndef BENCHLAB_STATS_H
#define BENCHLAB_STATS_H

#include <stddef.h>

#include "benchlab/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bl_summary {
    size_t n;
    double min, max, mean, stddev;
    double median;
    double q1, q3;       /* quartiles (linear interpolation, as R type 7) */
    double mad;          /* median absolute deviation, unscaled */
    double ci_lo, ci_hi; /* confidence interval of the median; NAN when n is too small */
    double confidence;   /* the level the interval was asked for */
    size_t n_outliers;   /* outside Tukey's fences, 1.5 IQR beyond the quartiles */
} bl_summary;

/* Summarise xs[0..n). `xs` is not modified. 0, -EINVAL when n == 0, or -ENOMEM. */
BL_API int bl_stats_summarize(const double *xs, size_t n, double confidence, bl_summary *out);

/* The median of xs (copied and sorted internally); NAN when n == 0. */
BL_API double bl_stats_median(const double *xs, size_t n);

/* Quantile p in [0,1] of sorted[0..n), linear interpolation between order statistics. */
BL_API double bl_stats_quantile_sorted(const double *sorted, size_t n, double p);

/*
 * Indices (0-based, into the sorted sample) of the order statistics that
 * bound a distribution-free confidence interval of the median at level
 * `confidence`: the widest symmetric pair whose binomial coverage is at
 * least `confidence`. Returns 0 and sets *lo, *hi, or -EDOM when n is too
 * small for that level (for 95%, n < 6).
 */
BL_API int bl_stats_median_ci_index(size_t n, double confidence, size_t *lo, size_t *hi);

/* Sort doubles ascending (NaNs last). */
BL_API void bl_stats_sort(double *xs, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_STATS_H */
