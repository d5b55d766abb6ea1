/*
 * benchlab/changes.h - change points in a benchmark's history: at which
 * run did its level move, by how much, and is it more than the noise
 * (`benchlab history --changes`, docs/store.md, "Change points").
 *
 * The method is binary segmentation with a permutation test. In a stretch
 * of n values (as logs when all are positive, winsorised at the median
 * +- 5 robust standard deviations, 1.4826 MAD), every split k with at
 * least min_runs values each side is scored at every window scale: the w
 * values before k against the w after (fewer at the ends), for w =
 * min_runs, 2 min_runs, 4 min_runs, ... and the whole stretch, as
 * |mean after - mean before| * sqrt(n_b n_a / (n_b + n_a)). The
 * stretch's statistic is the largest score, and its p-value a
 * permutation test of that maximum over `permutations` shuffles, so the
 * choice of the best split and scale is part of the null (a test of the
 * split found as if it had been fixed in advance, as Otava's and many
 * E-Divisive ports do, is not, and alarms far above its alpha on noise).
 * The whole-stretch windows are the classic split; the short ones find a
 * level that moved and came back. The shuffles come from a generator
 * seeded by the stretch's position and length alone: the same values give
 * the same answer on every call. They stop once p cannot reach alpha, and
 * are skipped when Hoeffding's bound for sampling without replacement
 * (2 W exp(-t^2 / R^2) over W windows, R the range) is below alpha. A
 * split with p <= alpha is a change; both halves are then searched again.
 * On a history of pure noise the first test fires with probability alpha
 * at most, so alpha bounds the false alarms per benchmark.
 *
 * A wild run moves a window's mean by at most 5 sigma / min_runs, so one
 * aberrant run that returns is no change; it is reported as an outlier
 * (more than outlier_k robust standard deviations and more than
 * threshold from its level's median). A change needs min_runs values
 * after it, so the newest one or two runs of a new level show as outliers
 * until the next runs confirm them. Changes smaller than threshold are
 * merged away, the smallest first, and the levels recomputed.
 */
#ifndef BENCHLAB_CHANGES_H
#define BENCHLAB_CHANGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "benchlab/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bl_changes_options {
    double alpha;        /* significance of each split; 0: 0.001 */
    double threshold;    /* smallest |after / before - 1| that is a change; <0: 0.01 */
    size_t min_runs;     /* values each side of a change; 0: 3 (at least 2) */
    size_t permutations; /* shuffles per test; 0: 4999 */
    double outlier_k;    /* robust standard deviations of an outlier; 0: 5 */
} bl_changes_options;

/* The defaults: alpha 0.001, threshold 1%, min_runs 3, 4999 permutations, outlier_k 5. */
BL_API void bl_changes_options_init(bl_changes_options *options);

enum bl_change_kind {
    BL_CHANGE_STEP,    /* the level moved at `at` and stayed */
    BL_CHANGE_OUTLIER, /* the value at `at` left its level and the next returned (or none came) */
};

typedef struct bl_change {
    int kind;                    /* enum bl_change_kind */
    size_t at;                   /* index of the first value of the new level, or the outlier */
    double before, after;        /* medians of the levels (outliers left out); an outlier's
                                    `after` is its value and `before` its level's median */
    double before_lo, before_hi; /* 95% distribution-free intervals of the medians; NAN when */
    double after_lo, after_hi;   /* the level has fewer than 6 values, and for an outlier */
    double ratio;                /* after / before */
    double p;                    /* the permutation p of the split; NAN for an outlier */
    size_t n_before, n_after;    /* values of the two levels (1 after, for an outlier) */
} bl_change;

/*
 * The changes and outliers of x[0..n) (finite values in the order they
 * were measured), ordered by `at`, into *out (free() it; NULL when there
 * are none) and their count into *n_out. options NULL: the defaults.
 * Returns 0; -EINVAL for a value that is not finite or a bad option;
 * -ENOMEM.
 */
BL_API int bl_changes_detect(const double *x, size_t n, const bl_changes_options *options,
                             bl_change **out, size_t *n_out);

/* ---- the report of a history ------------------------------------------ */

/* One benchmark's history and what bl_changes_detect found in it. */
typedef struct bl_changes_series {
    const char *name;           /* full name */
    size_t n;                   /* values (the runs that have the benchmark) */
    const int64_t *run_ids;     /* per value: the run's id */
    const char *const *commits; /* per value: the run's commit; NULL entries or array: none */
    const bl_change *changes;   /* ordered by `at` */
    size_t n_changes;
    const char *const *acked; /* per change: the commit of the acknowledgement that accepts
                                 it (benchlab baseline ack), or NULL; NULL array: none */
} bl_changes_series;

typedef struct bl_changes_report {
    const char *store;          /* the store's name, for the heading */
    const char *unit;           /* the metric's unit: "ns/op", "ref-cycles/op", ... */
    size_t n_runs;              /* runs read */
    bl_changes_options options; /* as used */
    const bl_changes_series *series;
    size_t n_series;
} bl_changes_report;

enum bl_changes_format { BL_CHANGES_TEXT, BL_CHANGES_JSON, BL_CHANGES_MARKDOWN };

/*
 * Write the report: text (a table of changes, then the outliers, then how
 * many benchmarks had none), JSON ({"changes": [...]}, each entry with
 * benchmark, kind ("change" or "outlier"), run, commit, before, after,
 * ratio, p and the intervals; docs/store.md) or Markdown. 0, or -EIO
 * when the stream failed.
 */
BL_API int bl_changes_write(FILE *f, const bl_changes_report *report,
                            enum bl_changes_format format);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_CHANGES_H */
