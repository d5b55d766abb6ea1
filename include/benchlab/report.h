/*
 * benchlab/report.h - the HTML report: one self-contained file (no network,
 * no external scripts, fonts or images) that shows what a set of runs
 * measured.
 *
 * Per benchmark: the distribution of the per-op times (a density of the
 * clean batches), the time-per-op against repetitions-per-batch curve of
 * the pilot and the batches after it (seed 003's scaling figure), the
 * batches in the order they were taken (drift shows), the comparison with
 * a baseline run with intervals, the history across runs, and the
 * instruments' values (B/op, allocs/op, counters, user metrics). Above
 * them, an overview table sortable by change. Charts are inline SVG
 * written here; a small inline script sorts and filters the tables. Every
 * name and every piece of text that comes from the results is escaped.
 * See docs/report.md.
 */
#ifndef BENCHLAB_REPORT_H
#define BENCHLAB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "benchlab/common.h"
#include "benchlab/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One run as the report shows it. The pointers are borrowed until
 * bl_report_write() returns. A run of jobs (docs/jobs.md) given with job
 * NULL is shown as one run per job, "LABEL [JOB]", its baseline job first
 * where it is the baseline: the jobs side by side in every chart. */
typedef struct bl_report_run {
    const char *label;         /* how the run is named: a file name, "@latest", a run id */
    const bl_results *results; /* what it measured */
    const char *job;           /* only this job's benchmarks; NULL: all */
} bl_report_run;

/* One benchmark's centre in an earlier run, as a results store keeps it. */
typedef struct bl_report_point {
    size_t run;    /* index into bl_report_history.labels */
    double centre; /* ns per op */
    double lo, hi; /* its interval; NAN when unknown */
} bl_report_point;

typedef struct bl_report_series {
    const char *name; /* full benchmark name, "BenchmarkSort/size=1000" */
    const bl_report_point *points;
    size_t n_points;
} bl_report_series;

/* Earlier runs for the history chart, oldest first: labels and, per
 * benchmark, its centre in the runs that have it. */
typedef struct bl_report_history {
    const char *const *labels; /* n_runs labels: "@41 3f7ec28" */
    size_t n_runs;
    const bl_report_series *series;
    size_t n_series;
} bl_report_history;

typedef struct bl_report_options {
    const char *title;     /* NULL: "benchlab report" */
    size_t baseline;       /* index into `runs` of the run the others are compared with; 0 */
    double confidence;     /* of every interval; 0.95 */
    double alpha;          /* significance of a change, after Holm's correction over the
                              benchmarks of one comparison; 0.05 */
    uint64_t seed;         /* unused: the change's interval is computed, not resampled
                              (bl_judge_bench), so the same inputs give the same report */
    const char *generated; /* "generated" text in the footer; NULL: the current UTC time */
    /* Earlier runs, drawn in the history chart before `runs`; NULL: none.
     * Borrowed, with everything it points to, until bl_report_write returns. */
    const bl_report_history *history;
} bl_report_options;

BL_API void bl_report_options_init(bl_report_options *opts);

/*
 * Write the report of runs[0..n_runs) (n_runs >= 1) to f as one HTML
 * document. With two runs or more, every run is compared with
 * runs[opts->baseline] as `benchlab judge` compares them (bl_judge_bench):
 * the Hodges-Lehmann ratio with its interval and the Mann-Whitney U test,
 * over the launches when both runs have five launches or more, else over
 * the clean batches; Holm's correction over the benchmarks. Returns 0,
 * BL_EUSAGE when n_runs is 0 or the baseline is out of range, -EIO when
 * the stream failed, or -ENOMEM. opts may be NULL.
 */
BL_API int bl_report_write(FILE *f, const bl_report_run *runs, size_t n_runs,
                           const bl_report_options *opts);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_REPORT_H */
