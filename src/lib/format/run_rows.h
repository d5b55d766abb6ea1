/*
 * run_rows.h - a run's summary as data (run_rows.c): one row per benchmark
 * with its estimate over the launches and what the columns of `run`'s table
 * (table.c) and the Markdown table (markdown_write.c) show. Both read these
 * rows; each decides only how to lay them out and print them.
 */
#ifndef BENCHLAB_FORMAT_RUN_ROWS_H
#define BENCHLAB_FORMAT_RUN_ROWS_H
#include <stdbool.h>
#include <stddef.h>

#include "benchlab/results.h"

/* A user metric (bl_report_metric) of one benchmark over its launches. */
struct bl__metric_summary {
    const char *unit; /* borrowed from the results */
    unsigned flags;   /* enum bl_metric_flags, as the first launch reporting it declared */
    size_t n;         /* successful launches with a value */
    double median;    /* of those values; NAN when n is 0 */
    double spread;    /* (max - min) / median of those values, as the time's spread; NAN
                         with fewer than 2 values or a median of 0 */
};

struct bl__run_row {
    const bl_bench_result *bench; /* borrowed */
    bool have;                    /* bl_bench_estimate gave a value (e is filled) */
    bl_estimate e;
    bool idle; /* the body did no measurable work: its spread is noise over zero */
    /* the spreads in ns where the launches' median is below half a cycle
     * (bl__spread_ranges); NAN where the spread over the median stands */
    double spread_ns, cpu_spread_ns;
    bl_rates rates;           /* at the centre: the rates of the first successful launch with that
                                 time (NAN each when none applies) */
    size_t measured, invalid; /* measured and discarded batches of all launches, failed too */
    bool failed;              /* some launch failed, was skipped or gave no time */
    struct bl__metric_summary *metrics; /* in the order first reported */
    size_t n_metrics;
};

struct bl__run_rows {
    struct bl__run_row *rows; /* one per benchmark, in the results' order */
    size_t n_rows;
    /* what some benchmark has, for the optional columns */
    bool any_ref;     /* a successful launch with ref-cycles/op */
    bool any_rate;    /* a successful launch with bytes, items or threads */
    bool any_alloc;   /* the allocation pass's counts */
    bool any_metrics; /* a successful launch with user metrics */
    bool any_cpu;     /* an estimate with on-CPU time */
};

/* Build the rows of `results` (borrowed until *rows is freed with
 * bl__run_rows_fini). Returns 0 or -ENOMEM (then *rows is empty). */
int bl__run_rows_build(struct bl__run_rows *rows, const bl_results *results);
void bl__run_rows_fini(struct bl__run_rows *rows);

/* What a benchmark's own plan (own_time_s, own_count) makes of the run's
 * time-budget-s and launches, in one line for the Go format's and the
 * Markdown's notes: "its own time budget: 0.3 s (time-budget-s above is
 * the run's)". Returns 1, or 0 (and "") when it has none. */
int bl__run_rows_own_plan(char *out, size_t size, const bl_bench_result *bench);

/* Which CPU time cpu/op is, when it is not the benchmark threads' own, in
 * one line for the notes of run's table, the Markdown and the Go format:
 * "cpu/op is the CPU time of the whole worker process (every thread,
 * .process_cpu), per op of one thread", or that launches of both clocks
 * (runs merged) have none. Returns 1, or 0 (and "") for the threads' clock. */
int bl__run_rows_cpu_clock_note(char *out, size_t size, const bl_bench_result *bench);

/* A spread (a share: 0.0042 for 0.42%) as both tables print it, two
 * significant digits at most: "0.42%", "3.1%", "12%"; "-" for NAN. */
void bl__run_rows_percent(char *out, size_t size, double share);

/*
 * The spread and cpu spread cells of a row as both tables print them:
 * "-" with one launch, no estimate or no measurable work; the range in ns
 * ("0.600 ns") where the launches' median is below half a cycle; else the
 * range over the median, as bl__run_rows_percent. Returns true when
 * either is in ns (the tables' legend then says why).
 */
bool bl__run_rows_spreads(const struct bl__run_row *row, char *spread, char *cpu_spread,
                          size_t size);

#endif
