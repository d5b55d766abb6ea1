/*
 * jobs_table.c - a run's jobs side by side (docs/jobs.md): one row per
 * benchmark name, each job's time per op (its bl_bench_estimate centre),
 * then each other job's ratio to the baseline job with an interval.
 *
 * The ratio is taken round by round: launch k of every job ran in round
 * k of one interleaved schedule, back to back (engine/run.c), so the k-th
 * launches of two jobs saw the same state of the machine, and their ratio
 * has that drift divided out. The table shows the median of these ratios
 * and the distribution-free 95% interval of that median
 * (bl_stats_median_interval); with fewer than 6 rounds, which is too few
 * for that interval, the range of the ratios, marked as such.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"
#include "benchlab/stats.h"
#include "text.h"

/* The successful launches' times of bench, in launch order. */
static size_t launch_times(const bl_bench_result *b, double *out)
{
    size_t n = 0;
    for (size_t j = 0; b && j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status == 0 && !l->skipped && l->ns_per_op > 0 && isfinite(l->ns_per_op))
            out[n++] = l->ns_per_op;
    }
    return n;
}

/* The ratio cell of `b` to `base`: "2.00x [1.99x, 2.01x]" or "-". */
static void ratio_cell(char *out, size_t size, const bl_bench_result *base,
                       const bl_bench_result *b, bool *range_used)
{
    snprintf(out, size, "-");
    size_t cap = (base ? base->n_launches : 0) + (b ? b->n_launches : 0) + 1;
    double *x = malloc(cap * sizeof *x), *y = malloc(cap * sizeof *y);
    size_t nx = x ? launch_times(base, x) : 0, ny = y ? launch_times(b, y) : 0;
    size_t n = nx < ny ? nx : ny;
    for (size_t k = 0; k < n; k++)
        y[k] /= x[k];
    double med, lo, hi;
    if (n >= 1 && bl_stats_median_interval(y, n, 0.95, &med, &lo, &hi) == 0) {
        snprintf(out, size, "%.3gx [%.3gx, %.3gx]", med, lo, hi);
    } else if (n >= 1) {
        bl_stats_sort(y, n);
        med = bl_stats_median(y, n);
        if (n >= 2) {
            snprintf(out, size, "%.3gx (%.3gx-%.3gx)", med, y[0], y[n - 1]);
            *range_used = true;
        } else {
            snprintf(out, size, "%.3gx", med);
        }
    }
    free(x);
    free(y);
}

/* The time cell of one job's benchmark: its centre, "FAIL" when it gave
 * none, "-" when the job has no such benchmark. */
static void time_cell(char *out, size_t size, const bl_bench_result *b)
{
    bl_estimate e;
    if (!b)
        snprintf(out, size, "-");
    else if (bl_bench_estimate(b, 0.95, &e) == 0 && e.n_launches > 0)
        bl_format_duration(out, size, e.centre);
    else
        snprintf(out, size, "FAIL");
}

enum { CELL = 64 };

void bl__jobs_table_write(FILE *f, const bl_results *r)
{
    /* the jobs in the order they first ran, the baseline first */
    const char **jobs = calloc(r->n_benches + 1, sizeof *jobs);
    const bl_bench_result **first = calloc(r->n_benches + 1, sizeof *first);
    if (!jobs || !first)
        goto out;
    size_t nj = 0, nn = 0;
    const char *baseline = bl_results_get_meta(r, "baseline-job");
    if (baseline)
        jobs[nj++] = baseline;
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        if (!b->job)
            continue;
        size_t k = 0;
        while (k < nj && strcmp(jobs[k], b->job) != 0)
            k++;
        if (k == nj)
            jobs[nj++] = b->job;
        k = 0;
        while (k < nn && strcmp(first[k]->name, b->name) != 0)
            k++;
        if (k == nn)
            first[nn++] = b;
    }
    if (nj < 2)
        goto notes;
    /* cells: name, nj times, nj - 1 ratios; row 0 the header */
    size_t ncol = 1 + nj + (nj - 1), nrow = nn + 1;
    char(*cell)[CELL] = calloc(ncol * nrow, sizeof *cell);
    int *w = calloc(ncol, sizeof *w);
    bool range_used = false;
    struct bl__buf safe = {0};
    if (!cell || !w) {
        free(cell);
        free(w);
        goto out;
    }
    snprintf(cell[0], CELL, "benchmark");
    for (size_t k = 0; k < nj; k++) {
        snprintf(cell[1 + k], CELL, "%s", bl__terminal_safe(&safe, jobs[k]));
        if (k)
            snprintf(cell[nj + k], CELL, "%.28s/%.28s", bl__terminal_safe(&safe, jobs[k]), jobs[0]);
    }
    for (size_t u = 0; u < nn; u++) {
        char(*row)[CELL] = cell + (u + 1) * ncol;
        snprintf(row[0], CELL, "%s", bl__terminal_safe(&safe, bl__shown_name(first[u]->name)));
        const bl_bench_result *base = bl_results_find_job((bl_results *)r, jobs[0], first[u]->name);
        for (size_t k = 0; k < nj; k++) {
            const bl_bench_result *b =
                bl_results_find_job((bl_results *)r, jobs[k], first[u]->name);
            time_cell(row[1 + k], CELL, b);
            if (k)
                ratio_cell(row[nj + k], CELL, base, b, &range_used);
        }
    }
    for (size_t i = 0; i < nrow * ncol; i++) {
        int tw = bl__text_width(cell[i]);
        if (tw > w[i % ncol])
            w[i % ncol] = tw;
    }
    fprintf(f,
            "\njobs side by side: time/op; the ratio to %s is the median over the rounds of "
            "their launches' ratio, [95%% interval]\n",
            bl__terminal_safe(&safe, jobs[0]));
    for (size_t i = 0; i < nrow; i++) {
        for (size_t c = 0; c < ncol; c++) {
            bl__text_pad(f, cell[i * ncol + c], w[c], c > 0);
            fputs(c + 1 < ncol ? "  " : "\n", f);
        }
    }
    if (range_used)
        fprintf(f, "(a-b): the range of the ratios, with fewer than 6 rounds for an interval\n");
    bl__buf_fini(&safe);
    free(cell);
    free(w);
notes:;
    /* said even when one job is left: the others failed */
    struct bl__buf safe_note = {0};
    const char *missing = bl_results_get_meta(r, "job-missing");
    if (missing)
        fprintf(f, "note benchmarks not in every job: %s\n",
                bl__terminal_safe(&safe_note, missing));
    const char *errors = bl_results_get_meta(r, "job-errors");
    if (errors)
        fprintf(f, "FAIL jobs that did not run: %s\n", bl__terminal_safe(&safe_note, errors));
    bl__buf_fini(&safe_note);
out:
    free(jobs);
    free(first);
}
