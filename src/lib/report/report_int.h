/*
 * report_int.h - internals of the HTML report (src/lib/report/): the model
 * (model.c: per benchmark and run, the values and their statistics, the
 * comparisons with the baseline), the SVG primitives (svg.c) and the
 * charts and page (charts.c, html.c).
 */
#ifndef BENCHLAB_REPORT_REPORT_INT_H
#define BENCHLAB_REPORT_REPORT_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "benchlab/report.h"
#include "benchlab/stats.h"

/* ---- the model (model.c) ------------------------------------------------------ */

enum { CELL_MISSING = 0, CELL_OK, CELL_FAILED, CELL_SKIPPED };

/* One benchmark in one run. */
struct bl__rcell {
    const bl_bench_result *b; /* borrowed from the run; NULL when the run lacks it */
    int state;
    const char *message; /* borrowed: the first failure or skip message */
    /* Per-op values, overhead subtracted, in the order measured: the clean
     * batches of every successful launch; or, where the input had no
     * batches (Go format), one value per launch; or, where every launch
     * was disturbed (no clean batch anywhere: vals_disturbed), all their
     * batches, which are then the measurement (bl_launch_finish). */
    double *vals;
    size_t n_vals;
    bool from_batches;
    bool vals_disturbed;
    double *launch_vals; /* ns_per_op of each successful launch, in order */
    size_t n_launch_vals;
    bl_summary s; /* of vals; valid when has_s */
    bool has_s;
    /* The benchmark over its launches (bl_bench_estimate): the centre and
     * interval the run's summary table shows; valid when has_est. */
    bl_estimate est;
    bool has_est;
    /* On-CPU time per op centred over the launches as the time is, and its
     * spread: the estimate's, or where the input has no batches (Go
     * format) the launches' "cpu-ns/op" lines; NAN when unknown. */
    double cpu_ns, cpu_spread;
    /* as run's table: the body did no measurable work (no spreads shown;
     * bl__no_measurable_work), and the spreads in ns where the launches'
     * median is below half a cycle (bl__spread_ranges; else NAN) */
    bool idle;
    double spread_ns, cpu_spread_ns;
    /* The number came only from disturbed launches (est.disturbed): no
     * launch had a clean batch, so every batch was kept, time off CPU too. */
    bool disturbed;
    size_t n_disturbed; /* such launches */
    size_t n_measured, n_invalid, invalid_by[BL_INVALID_NREASONS];
    double overhead_ns;        /* mean over successful launches */
    const bl_launch *first_ok; /* borrowed: bytes, items and threads of the benchmark */
    /* drift (the last third of the batches against the first) and modes,
     * bl_bench_diagnose; valid when from_batches */
    bl_diagnosis diag;
    bool drift;
    double drift_pct, drift_p;
    bool multimodal; /* in the batch times or the launch centres */
};

/* A run compared with the baseline, for one benchmark. */
struct bl__rdelta {
    bool ok;          /* both sides have values */
    double ratio;     /* Hodges-Lehmann estimate of run / baseline (as bl_judge_bench) */
    double lo, hi;    /* its interval; NAN with too few values */
    double p;         /* two-sided Mann-Whitney U; NAN when not testable */
    bool significant; /* after Holm over the benchmarks, and the interval excludes 1 */
    int verdict;      /* -1 faster, 0 no difference shown, +1 slower */
    bool by_launch;   /* tested over launches (both >= 5) rather than batches */
    size_t n_base, n_run;
};

/* A benchmark's centre in an earlier run (bl_report_history). */
struct bl__rhist {
    bool has;
    double centre, lo, hi;
};

/* A change point or outlier of a benchmark's history chart
 * (bl_changes_detect over the points shown, earlier runs and runs alike). */
struct bl__rchange {
    size_t point; /* the history point where the new level starts, or the outlier */
    int kind;     /* enum bl_change_kind */
    double before, after, ratio, p;
};

struct bl__rbench {
    const char *name;          /* full name, borrowed */
    struct bl__rcell *cells;   /* [n_runs] */
    struct bl__rdelta *deltas; /* [n_runs]; the baseline's entry is unused */
    struct bl__rhist *history; /* [history->n_runs] */
    struct bl__rchange *changes;
    size_t n_changes;
};

struct bl__rmodel {
    const bl_report_run *runs;
    size_t n_runs;
    const bl_report_options *o;
    struct bl__rbench *benches;
    size_t n_benches;
};

/* Point i of b's history chart, earlier runs (history) first, then the
 * runs: its centre and interval into *out, its run's label into *label;
 * false when the run lacks the benchmark. */
bool bl__rhistory_point(const struct bl__rmodel *m, const struct bl__rbench *b, size_t i,
                        struct bl__rhist *out, const char **label);

/* Build the model; 0 or -ENOMEM (then free with bl__rmodel_fini anyway). */
int bl__rmodel_build(struct bl__rmodel *m, const bl_report_run *runs, size_t n_runs,
                     const bl_report_options *o);
void bl__rmodel_fini(struct bl__rmodel *m);
/* Per-op value of one batch of launch l, the pause cost and overhead removed
 * (the same rule as bl_launch_per_op, for invalid batches too). */
double bl__rbatch_per_op(const bl_launch *l, const bl_sample *s);
/* The display name: without the "Benchmark" prefix. */
const char *bl__rshort_name(const char *name);

/* ---- SVG and text (svg.c) ------------------------------------------------------ */

/* Write s with &, <, >, " and ' escaped: safe in HTML text and attributes. */
void bl__html_text(FILE *f, const char *s);
/* Human time with a compact number of digits: "1.23 µs". */
void bl__rfmt_time(char *out, size_t size, double ns);
/* A change as "+12.3% [+10.1, +14.6]" (percent; the interval when known). */
void bl__rfmt_change(char *out, size_t size, const struct bl__rdelta *d);

struct bl__scale {
    double d0, d1; /* domain */
    double r0, r1; /* range, px */
    bool log;
};

enum { AX_NONE, AX_TIME, AX_COUNT, AX_NUMBER };

struct bl__plot {
    FILE *f;
    double w, h;                     /* viewBox */
    double left, right, top, bottom; /* plot area */
    struct bl__scale x, y;
};

/* Open an <svg class="chart"> of w x h with an accessible label (escaped)
 * and a plot area inside the given margins. */
void bl__plot_begin(struct bl__plot *p, FILE *f, double w, double h, const char *label, double ml,
                    double mr, double mt, double mb);
/* Set a scale over [lo, hi], padded a little (linear) or to whole decades
 * around (log) so that ticks fall inside. */
void bl__plot_xdomain(struct bl__plot *p, double lo, double hi, bool log);
void bl__plot_ydomain(struct bl__plot *p, double lo, double hi, bool log);
/* Grid, ticks with labels of the kind, axis titles (escaped). */
void bl__plot_axes(struct bl__plot *p, int xkind, int ykind, const char *xtitle,
                   const char *ytitle);
void bl__plot_end(struct bl__plot *p);
/* Clamp a value into the plot's y range, px. */
double bl__plot_y(const struct bl__plot *p, double v);
double bl__plot_x(const struct bl__plot *p, double v);

/* The colour of run i. */
const char *bl__rcolor(size_t i);

/* ---- charts (charts.c) ----------------------------------------------------------- */

/* Each writes one <figure> or nothing; returns the number of charts drawn. */
int bl__chart_distribution(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b);
int bl__chart_scaling(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b);
int bl__chart_timeline(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b);
int bl__chart_compare(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b);
int bl__chart_history(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b);

#endif /* BENCHLAB_REPORT_REPORT_INT_H */
