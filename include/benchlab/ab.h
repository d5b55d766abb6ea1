/*
 * benchlab/ab.h - paired A/B comparison of two builds of a suite
 * (`benchlab ab OLD NEW`): did my change make it slower?
 *
 * For every benchmark both builds define, the runner starts worker
 * processes of both builds in pairs (one OLD, one NEW), lets each find its
 * batch size and warm up, and then drives them: it asks for one measured
 * batch at a time (about 1 ms), so only one build runs at any moment, in
 * blocks ordered ABBA or BAAB at random. Each clean block gives one paired
 * log-ratio log(NEW/OLD), in which a linear drift of the machine cancels.
 * Several process pairs per benchmark, interleaved, turn the differences
 * between fresh processes (code and data layout, environment) into part of
 * the interval, so that two copies of one build are flagged at the nominal
 * rate. docs/ab.md describes the method and its measured error rates.
 *
 * The statistic is exposed on its own (bl_ab_estimate_groups) so that it
 * can be tested on simulated data with known effects.
 */
#ifndef BENCHLAB_AB_H
#define BENCHLAB_AB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "benchlab/common.h"
#include "benchlab/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the statistic -------------------------------------------------------- */

typedef struct bl_ab_estimate {
    double log_ratio;      /* estimate of log(NEW/OLD) */
    double log_lo, log_hi; /* its confidence interval */
    double ratio, lo, hi;  /* the same as ratios: exp() of the above */
    double confidence;     /* level of the interval, such as 0.95 */
    double df;             /* degrees of freedom of the t quantile (groups - 1) */
    double tau2;           /* between-group variance of log-ratios (DerSimonian-Laird) */
    size_t n_groups;       /* groups (process pairs) that entered the estimate */
    size_t n_blocks;       /* blocks in those groups */
} bl_ab_estimate;

/* Groups with fewer clean blocks than this are left out of the estimate. */
#define BL_AB_MIN_BLOCKS_PER_GROUP 3
/* An estimate needs at least this many groups. */
#define BL_AB_MIN_GROUPS 2

/*
 * The log-ratio of one block: the four batch values x[0..3] (log time per
 * op, in the order they ran) where `b_first` says whether the order was
 * BAAB (else ABBA). Returns mean(B) - mean(A).
 */
BL_API double bl_ab_block_log_ratio(const double x[4], bool b_first);

/*
 * Estimate log(NEW/OLD) from block log-ratios d, grouped by process pair:
 * group g holds n_per_group[g] consecutive values of d (in time order).
 *
 * Per group: a 20% trimmed mean (robust to stray blocks) and its variance
 * (winsorized, inflated for lag-1 autocorrelation), pooled over the groups
 * into one noise per block. Across groups: a random-effects mean
 * (DerSimonian-Laird) with the Hartung-Knapp interval, t with (groups - 1)
 * degrees of freedom, so the spread between process pairs, whatever its
 * source, is in the interval.
 *
 * Returns 0; BL_EUNSUPPORTED when fewer than BL_AB_MIN_GROUPS groups have
 * BL_AB_MIN_BLOCKS_PER_GROUP blocks (out->n_groups and n_blocks are still
 * set); -EINVAL for a bad confidence; -ENOMEM.
 */
BL_API int bl_ab_estimate_groups(const double *d, const size_t *n_per_group, size_t n_groups,
                                 double confidence, bl_ab_estimate *out);

/* Student's t quantile, bl_stats_t_quantile(), is in benchlab/stats.h. */

/* ---- verdicts ---------------------------------------------------------------- */

enum bl_ab_verdict {
    BL_AB_ERROR = 0, /* the comparison failed (a worker crashed, ...): see the message */
    BL_AB_SAME,      /* no difference: the interval includes 1, or the change is below
                        the threshold */
    BL_AB_FASTER,    /* the interval excludes 1 and NEW is faster by more than the threshold */
    BL_AB_SLOWER,    /* ... and NEW is slower by more than the threshold */
    BL_AB_TOO_FEW,   /* too few clean blocks for any verdict: the budget was too small */
    BL_AB_SKIPPED,   /* a build skipped the benchmark (bl_skip) */
};

/*
 * The verdict of an estimate: faster or slower when the whole interval is
 * on one side of 1 and the point estimate differs from 1 by more than
 * `threshold` (relative: 0.005 is 0.5%), else the same.
 */
BL_API enum bl_ab_verdict bl_ab_judge(const bl_ab_estimate *est, double threshold);
/* "faster", "slower", "same", "too-few-blocks", "skipped", "error". */
BL_API const char *bl_ab_verdict_name(enum bl_ab_verdict v);

/* ---- the runner -------------------------------------------------------------------- */

enum bl_ab_metric {
    BL_AB_METRIC_TIME = 0,       /* ns/op */
    BL_AB_METRIC_REF_CYCLES = 1, /* ref-cycles/op: time over a reference chain beside each batch */
    /* instructions/op under valgrind's callgrind (docs/instruments.md,
     * "Instruction counts"): `pairs` counts of each build, alternating;
     * counts are exact, so the interval is the range of the pairs' ratios */
    BL_AB_METRIC_INSTRUCTIONS = 2,
};

typedef struct bl_ab_options {
    const char *old_exe, *new_exe; /* the two builds (suite executables) */
    const char *filter;            /* POSIX extended regex on full names; NULL: all */
    double time_s;           /* wall budget per benchmark comparison, workers' warmup included;
                                default 1 */
    double threshold;        /* smallest relative change called a change; default 0.005 */
    double confidence;       /* of the interval; default 0.95 */
    int pairs;               /* process pairs per benchmark; default 4 */
    double batch_ms;         /* target length of one batch; default 1 */
    double timeout_s;        /* a worker is killed after this long; default 60 */
    int metric;              /* enum bl_ab_metric */
    unsigned long long seed; /* order of blocks and batch jitter; 0: from the clock */
    const char *cpus;        /* pin workers to these CPUs ("2", "0-3,6"); NULL: none */
} bl_ab_options;

BL_API void bl_ab_options_init(bl_ab_options *opts);

/* What the one side of a comparison measured (medians over its clean batches). */
typedef struct bl_ab_side {
    double ns_per_op;           /* NAN when none */
    double ref_cycles_per_op;   /* NAN when none */
    size_t n_batches;           /* measured batches it ran in blocks */
    size_t n_invalid;           /* of which disturbed */
    double instructions_per_op; /* BL_AB_METRIC_INSTRUCTIONS: the median count; NAN otherwise */
} bl_ab_side;

typedef struct bl_ab_bench {
    char *name;
    enum bl_ab_verdict verdict;
    char *message;      /* why there is no verdict (names the build); NULL when fine */
    bl_ab_estimate est; /* valid for SAME, FASTER, SLOWER */
    bl_ab_side old_side, new_side;
    size_t n_pairs;        /* process pairs started */
    size_t n_blocks;       /* blocks run */
    size_t n_clean_blocks; /* blocks with four clean batches */
    double wall_s;         /* the whole comparison, workers' start-up included */
    double start_s;        /* of which the workers' start-up: spawn to the last "ready" */
} bl_ab_bench;

typedef struct bl_ab_report {
    char *old_exe, *new_exe;
    char *cpu_model, *date, *host, *env_warnings; /* env_warnings may be NULL */
    int metric;
    double threshold, confidence, time_s;
    int pairs;
    bl_ab_bench *benches; /* in the order they ran */
    size_t n_benches;
    char **only_old; /* benchmarks only OLD defines (or that --filter kept only there) */
    size_t n_only_old;
    char **only_new;
    size_t n_only_new;
    bool interrupted;
} bl_ab_report;

/* Progress callbacks; any may be NULL. Called on the runner's thread. */
typedef struct bl_ab_observer {
    void *ctx;
    /* the common benchmarks are known: `total` comparisons will run */
    void (*on_begin)(void *ctx, const bl_ab_report *report, size_t total);
    void (*on_start)(void *ctx, const char *name, size_t index, size_t total);
    /* one comparison ended; `bench` is borrowed until the report is destroyed */
    void (*on_bench)(void *ctx, const bl_ab_report *report, const bl_ab_bench *bench);
} bl_ab_observer;

/*
 * Compare OLD and NEW. *report receives every comparison finished, also
 * when the run was interrupted or some failed (free with
 * bl_ab_report_destroy). Returns 0 when every comparison reached a verdict
 * or a skip, 1 when some failed or had too few blocks, BL_EINTR when
 * interrupted, or a negative error before anything ran (with a message in
 * `err`): BL_EPROTO when a build is not a benchlab suite, BL_ENOTFOUND when
 * the builds share no benchmark (matching the filter), BL_EUSAGE for a bad
 * regex or --cpu list, -errno when an executable cannot be run.
 */
BL_API int bl_ab_run(const bl_ab_options *opts, const bl_ab_observer *observer,
                     bl_ab_report **report, char *err, size_t err_size);
BL_API void bl_ab_report_destroy(bl_ab_report *report);

/* ---- output ------------------------------------------------------------------------ */

#define BL_AB_COLOR 1u /* ANSI colour in the table */

/* The table a person reads: one row per benchmark, the verdict in words. 0 or -EIO. */
BL_API int bl_ab_write_table(FILE *f, const bl_ab_report *report, unsigned flags);
/* JSON, schema "benchlab-ab/1" (docs/ab.md). 0 or -EIO. */
BL_API int bl_ab_write_json(FILE *f, const bl_ab_report *report);
/* CSV (RFC 4180), one record per benchmark. 0 or -EIO. */
BL_API int bl_ab_write_csv(FILE *f, const bl_ab_report *report);
/* The table as GitHub-flavoured Markdown (the job summary, a comment). 0 or -EIO. */
BL_API int bl_ab_write_markdown(FILE *f, const bl_ab_report *report);
/* GitHub Actions workflow commands (docs/ci.md): `::error` per benchmark
 * slower past the threshold, `::warning` per one slower under it or
 * without a verdict; worst first, at most the 10 of a kind GitHub shows.
 * 0, -ENOMEM or -EIO. */
BL_API int bl_ab_write_github(FILE *f, const bl_ab_report *report);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_AB_H */
