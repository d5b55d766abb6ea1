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

/* Student's t distribution with `df` degrees of freedom (df > 0, not
 * necessarily whole): P(T <= t), and the p-quantile for p in (0,1). NAN on
 * bad arguments. */
BL_API double bl_stats_t_cdf(double t, double df);
BL_API double bl_stats_t_quantile(double p, double df);

/*
 * Mean of xs[0..n) and its two-sided Student t interval at `confidence`:
 * mean +- t(n-1) * s / sqrt(n). Meant for a few independent values, such as
 * the centres of a benchmark's launches. Returns 0; -EINVAL when n == 0;
 * -EDOM when n < 2 or the level is outside (0,1) (*mean is then set, the
 * bounds are NAN).
 */
BL_API int bl_stats_mean_interval(const double *xs, size_t n, double confidence, double *mean,
                                  double *lo, double *hi);

/*
 * The `trim`-trimmed mean of xs[0..n) (trim in [0, 0.5): g = floor(trim n)
 * values cut from each end) and its Tukey-McLaughlin (Yuen) interval:
 * centre +- t(h-1) sqrt(SSw / (h (h-1))), where h = n - 2g and SSw is the
 * sum of squares of the winsorized sample. With g = 0 it is the t interval
 * of the mean. Robust to a wild value among a few (Wilcox, "Introduction to
 * Robust Estimation", 4.3). Returns 0; -EINVAL when n == 0; -EDOM when h <
 * 2 or a level is out of range (*centre is then set when n > 0); -ENOMEM.
 */
BL_API int bl_stats_trimmed_interval(const double *xs, size_t n, double trim, double confidence,
                                     double *centre, double *lo, double *hi);

/*
 * Median of xs[0..n) and a distribution-free interval for it at
 * `confidence`: the order statistics x(k), x(n-k+1) of the binomial
 * interval, interpolated towards x(k+1), x(n-k) so that the coverage is the
 * level asked rather than the next binomial step above it (Hettmansperger
 * and Sheather 1986). Needs no normality; for 95% it needs n >= 6 (for 6
 * values: 0.643 x(1) + 0.357 x(2) to 0.643 x(6) + 0.357 x(5)). Returns 0;
 * -EINVAL when n == 0; -EDOM when n is too small for the level (*median is
 * set, the bounds are NAN); -ENOMEM.
 */
BL_API int bl_stats_median_interval(const double *xs, size_t n, double confidence, double *median,
                                    double *lo, double *hi);

/* Sort doubles ascending (NaNs last). */
BL_API void bl_stats_sort(double *xs, size_t n);

/*
 * The Hodges-Lehmann estimate of the shift b - a (the median of all
 * differences b_j - a_i) and its distribution-free confidence interval at
 * `confidence`, the one that goes with the Mann-Whitney U test (Bauer
 * 1972): bounds are the differences of rank c and n*m + 1 - c, c from the
 * exact null distribution of U up to 50 values a side, its normal
 * approximation above. On log values it is a ratio and its interval.
 * Returns 0; -EDOM when the samples are too small for that confidence
 * (*shift is still set, the bounds are NAN); -EINVAL when a sample is
 * empty or holds NaN; -ENOMEM.
 */
BL_API int bl_stats_shift_ci(const double *a, size_t na, const double *b, size_t nb,
                             double confidence, double *shift, double *lo, double *hi);

/* ---- multimodality (modality.c) ---------------------------------------------
 * Brendan Gregg's mvalue with BenchmarkDotNet's rule, and the peaks behind
 * it (docs/engine.md, "Drift and multimodality"). */

#define BL_MAX_MODES 4
/* A peak is a mode when its prominence (height above the higher of the
 * lowest points separating it from a higher peak or an end) is at least
 * this share of the highest bin. */
#define BL_MODE_PROMINENCE 0.25
/* BenchmarkDotNet's threshold for "bimodal" (it says "multimodal" above 4.2). */
#define BL_MVALUE_BIMODAL 3.2

typedef struct bl_modality {
    size_t n;         /* values used: finite, within Tukey's fences (1.5 IQR) */
    double mvalue;    /* largest over the bin widths: 2 one hump, ~4 two; NAN on error */
    double bin_width; /* the width that gave it (Scott's 3.5 s / n^(1/3), doubled k times) */
    size_t n_peaks;   /* peaks at that width with prominence >= BL_MODE_PROMINENCE */
    size_t n_modes;   /* of which kept in modes[], at most BL_MAX_MODES (the most prominent) */
    double modes[BL_MAX_MODES]; /* their positions (median of the peak's bin), ascending */
} bl_modality;

/*
 * The mvalue of xs[0..n) (not modified; NaN and infinities ignored) as
 * BenchmarkDotNet computes it: Tukey's outliers dropped, histograms from
 * Scott's bin width doubled until it exceeds the range, the largest total
 * variation of the counts over the highest count. Also the peaks at the
 * width that gave it. Returns 0; -EINVAL when n is 0; -EDOM with fewer than
 * 4 finite values; -ENOMEM.
 */
BL_API int bl_stats_mvalue(const double *xs, size_t n, bl_modality *out);

/* ---- benchstat v2's statistics (benchmath.c, utest.c) ----------------------
 * The exact rules benchstat (golang.org/x/perf, aclements/go-moremath) uses,
 * so that `benchlab compare` prints the same numbers. Pure functions. */

/*
 * Two-sided Mann-Whitney U test of a[0..na) against b[0..nb) (not
 * modified). Exact distribution when there are no ties and na, nb <= 50,
 * or with ties and na, nb <= 25 (midranks, Klotz's distribution); normal
 * approximation with tie and continuity correction otherwise. Sets
 * *p_two_sided and returns 0; -EINVAL when a sample is empty; -EDOM when
 * all values are equal (the test is meaningless; benchstat reports p = 1
 * and "all samples are equal"); -ENOMEM.
 */
BL_API int bl_stats_utest(const double *a, size_t na, const double *b, size_t nb,
                          double *p_two_sided);
/* The same on samples already sorted ascending (NaNs first), without copying. */
BL_API int bl_stats_utest_sorted(const double *a, size_t na, const double *b, size_t nb,
                                 double *p_two_sided);

/* Sort ascending with NaNs first, as Go's sort.Float64s (what benchstat uses). */
BL_API void bl_bstat_sort(double *xs, size_t n);

/* Quantile q of sorted[0..n) by Hyndman-Fan type 8 (moremath's Quantile);
 * for q = 0.5 that is the middle value, or lo + 0.5*(hi-lo). NAN if n == 0. */
BL_API double bl_bstat_quantile_sorted(const double *sorted, size_t n, double q);

/*
 * 1-based order statistics bounding the confidence interval of the median
 * of n values at `confidence`: lo_order 0 means -inf, hi_order n+1 means
 * +inf. Exact binomial for n <= 30 (a table at 0.95, reproducing
 * benchstat's rounding at n = 24), normal approximation above.
 */
BL_API void bl_bstat_median_ci_orders(size_t n, double confidence, long *lo_order, long *hi_order);

/* Median and its interval of sorted[0..n), n >= 1. Returns 1 when a bound
 * is infinite (too few values for that confidence), else 0. */
BL_API int bl_bstat_median_ci(const double *sorted, size_t n, double confidence, double *median,
                              double *lo, double *hi);

/* The smallest n in 2..50 whose interval is finite at `confidence`, or
 * -50 when none is ("need > 50 samples"). */
BL_API int bl_bstat_median_min_samples(double confidence);

/* exp of the running mean of logs; NAN if n == 0 or any value <= 0. */
BL_API double bl_bstat_geomean(const double *xs, size_t n);

/* Normal distribution, as moremath computes it (erfc; Acklam + Halley). */
BL_API double bl_bstat_norm_cdf(double x, double mu, double sigma);
BL_API double bl_bstat_norm_inv_cdf(double p, double mu, double sigma);

/* ---- multiple comparisons (correction.c) -------------------------------------
 * Used by compare's gate (bl_compare_gate), judge (bl_judge) and the
 * report's comparisons with the baseline. */

enum bl_correction {
    BL_CORRECTION_NONE,
    BL_CORRECTION_HOLM, /* family-wise error rate, Holm-Bonferroni step-down */
    BL_CORRECTION_BH,   /* false discovery rate, Benjamini-Hochberg step-up */
};

/*
 * Which of the hypotheses with p-values p[0..n) to reject at level alpha
 * under `correction`: reject[i] = 1 or 0. Holm-Bonferroni (step-down)
 * controls the family-wise error rate, Benjamini-Hochberg (step-up) the
 * false discovery rate; NONE is p <= alpha. NaN counts as 1. 0 or -ENOMEM.
 */
BL_API int bl_multiple_reject(const double *p, size_t n, double alpha,
                              enum bl_correction correction, unsigned char *reject);

/* ---- the test a gate decides with (gatetest.c) ---------------------------------------
 * judge's and compare's gates: where the rank test cannot reach the level
 * the correction needs at these sample sizes, Welch's t on log values
 * decides (docs/store.md, "The test"). The choice is made from the sample
 * sizes and the family alone, never from the values. */

/*
 * The smallest two-sided p bl_stats_utest can give with na and nb values
 * (every value of one sample above every value of the other, no ties):
 * 2 / C(na + nb, na) where the test is exact, 0.0079 for 5 and 5. 1 when a
 * sample is empty; NAN on ENOMEM.
 */
BL_API double bl_stats_utest_min_p(size_t na, size_t nb);

/* The level the smallest p must reach for `correction` to reject anything
 * among m hypotheses: alpha / m for Holm and for Benjamini-Hochberg (a
 * single change), alpha for none. */
BL_API double bl_correction_first_level(double alpha, size_t m, enum bl_correction correction);

/*
 * Welch's two-sample t test of mean(b) - mean(a), unequal variances, the
 * Welch-Satterthwaite degrees of freedom: the two-sided p in *p_two_sided,
 * and t and df when not NULL. Returns 0; -EDOM with fewer than 2 values a
 * side or when both sides are constant and equal (*p is NAN); -EINVAL for
 * a value that is not finite. Both sides constant and different: p = 0.
 */
BL_API int bl_stats_welch(const double *a, size_t na, const double *b, size_t nb,
                          double *p_two_sided, double *t, double *df);

/* ---- asymptotic complexity (stats/complexity_fit.c) -----------------------------------
 * Google Benchmark's method: for each curve g, the coefficient c of
 * t(n) = c g(n) by least squares through the origin, c = sum t g / sum g^2,
 * and the fit's error as the RMS of the residuals divided by the mean time
 * (normalised RMS); the best curve has the lowest. */

typedef struct bl_complexity_fit {
    int curve;          /* enum bl_complexity: BL_O1 ... BL_OUSER */
    double coefficient; /* ns per op = coefficient x g(n) */
    double rms;         /* normalised RMS of the residuals: 0.03 is 3% */
} bl_complexity_fit;

/* g(n) of a standard curve (BL_O1 ... BL_ON3); NAN for any other. */
BL_API double bl_complexity_curve(int curve, double n);
/* "O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)", "O(f(n))" for BL_OUSER. */
BL_API const char *bl_complexity_name(int curve);

/*
 * Fit times t[0..count) at sizes n[0..count) to `mode`: one curve
 * (BL_O1 ... BL_ON3, or BL_OUSER with user_g[i] = g(n[i])), or
 * BL_COMPLEXITY_AUTO, every standard curve and the user's when user_g is
 * not NULL. *best gets the lowest normalised RMS; all[0..*n_all) every
 * curve fitted, in the order of the enum (all may be NULL; room for 7).
 * Returns 0; -EINVAL when count is 0, a size is below 1, a time or g is
 * not finite, or no curve could be fitted (g all zero).
 */
BL_API int bl_stats_fit_complexity(int mode, const double *n, const double *t, const double *user_g,
                                   size_t count, bl_complexity_fit *best, bl_complexity_fit *all,
                                   size_t *n_all);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_STATS_H */
