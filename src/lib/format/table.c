/*
 * table.c - the human summary of a run, written to stderr by the runner.
 *
 * Per benchmark: the median time per op over every clean batch of every
 * launch, the spread (robust coefficient of variation: 1.4826 MAD /
 * median), the distribution-free 95% interval of the median, the overhead
 * that was subtracted, batches kept/measured and outliers (Tukey). Below
 * the table, plain-word notes: disturbed batches and why, failures, skips.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/format.h"
#include "benchlab/stats.h"
#include "text.h"

void bl_format_duration(char *out, size_t size, double ns)
{
    if (isnan(ns)) {
        snprintf(out, size, "-");
        return;
    }
    static const struct {
        double scale;
        const char *unit;
    } u[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        if (fabs(ns) >= u[i].scale || i == 3) {
            double v = ns / u[i].scale;
            int prec = fabs(v) >= 100 ? 1 : fabs(v) >= 10 ? 2 : 3;
            snprintf(out, size, "%.*f %s", prec, v, u[i].unit);
            return;
        }
    }
}

/* Display width of a UTF-8 string (µ is one column). */
int bl__text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

void bl__text_pad(FILE *f, const char *s, int w, int right)
{
    int n = w - bl__text_width(s);
    if (right)
        for (int i = 0; i < n; i++)
            fputc(' ', f);
    fputs(s, f);
    if (!right)
        for (int i = 0; i < n; i++)
            fputc(' ', f);
}

/* Columns; throughput, B/op and allocs/op only when some benchmark has them. */
enum { C_NAME, C_TIME, C_SPREAD, C_CI, C_OVH, C_BATCHES, C_OUTLIERS, C_RATE, C_BYTES, C_ALLOCS };
#define NCOL 10

struct row {
    char cell[NCOL][96];
};

/* "1.230 GB/s", "45.60 M items/s": SI prefixes, 4 significant digits. */
static int one_rate(char *out, size_t size, double v, const char *unit)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P"};
    int p = 0;
    while (p < 5 && fabs(v) >= 999.95) {
        v /= 1000;
        p++;
    }
    int prec = fabs(v) >= 99.995 ? 1 : fabs(v) >= 9.9995 ? 2 : 3;
    /* bytes take the prefix on the unit (GB/s); counts stand apart (M ops/s) */
    bool bytes = unit[0] == 'B';
    return snprintf(out, size, "%.*f %s%s%s", prec, v, prefix[p], *prefix[p] && !bytes ? " " : "",
                    unit);
}

void bl_format_rate(char *out, size_t size, const bl_rates *r)
{
    const double v[3] = {r->mb_per_s * 1e6, r->items_per_s, r->ops_per_s};
    static const char *const unit[3] = {"B/s", "items/s", "ops/s"};
    size_t len = 0;
    snprintf(out, size, "-");
    for (int i = 0; i < 3; i++) {
        if (isnan(v[i]) || len + 2 >= size)
            continue;
        if (len)
            len += (size_t)snprintf(out + len, size - len, ", ");
        int n = len < size ? one_rate(out + len, size - len, v[i], unit[i]) : 0;
        len += n > 0 ? (size_t)n : 0;
    }
}

void bl_table_write(FILE *f, const bl_results *r, unsigned flags)
{
    const char *bold = (flags & BL_TABLE_COLOR) ? "\033[1m" : "";
    const char *yellow = (flags & BL_TABLE_COLOR) ? "\033[33m" : "";
    const char *red = (flags & BL_TABLE_COLOR) ? "\033[31m" : "";
    const char *reset = (flags & BL_TABLE_COLOR) ? "\033[0m" : "";
    static const char *head[NCOL] = {"benchmark", "time/op",  "spread",   "95% CI of median",
                                     "overhead",  "batches",  "outliers", "throughput",
                                     "B/op",      "allocs/op"};
    bool show[NCOL] = {true, true, true, true, true, true, true, false, false, false};
    for (size_t i = 0; i < r->n_benches; i++) {
        if (r->benches[i].has_alloc)
            show[C_BYTES] = show[C_ALLOCS] = true;
        for (size_t j = 0; j < r->benches[i].n_launches; j++) {
            const bl_launch *l = &r->benches[i].launches[j];
            show[C_RATE] |=
                !l->status && (l->bytes_per_op > 0 || l->items_per_op > 0 || l->threads > 0);
        }
    }
    int last = 0;
    for (int c = 0; c < NCOL; c++)
        if (show[c])
            last = c;
    struct row *rows = calloc(r->n_benches + 1, sizeof *rows);
    if (!rows)
        return;
    int w[NCOL];
    for (int c = 0; c < NCOL; c++)
        w[c] = bl__text_width(head[c]);
    size_t n_rows = 0;
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        size_t total = 0, measured = 0, invalid = 0;
        double ovh_sum = 0;
        size_t n_ok = 0;
        for (size_t j = 0; j < b->n_launches; j++)
            total += b->launches[j].n_samples;
        double *all = malloc((total ? total : 1) * sizeof *all);
        size_t n_all = 0;
        for (size_t j = 0; all && j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            if (l->status || l->skipped)
                continue;
            double *v;
            long k = bl_launch_per_op(l, &v);
            for (long t = 0; t < k; t++)
                all[n_all++] = v[t] > 0 ? v[t] : 0;
            if (k >= 0)
                free(v);
            measured += l->n_measured;
            invalid += l->n_invalid;
            ovh_sum += l->overhead_ns;
            n_ok++;
        }
        if (n_ok == 0) {
            free(all);
            continue;
        }
        struct row *row = &rows[n_rows++];
        const char *name = strncmp(b->name, "Benchmark", 9) == 0 ? b->name + 9 : b->name;
        snprintf(row->cell[0], sizeof row->cell[0], "%s", name);
        bl_summary s;
        if (n_all && bl_stats_summarize(all, n_all, 0.95, &s) == 0) {
            double med = s.median;
            /* the table shows the same centre the Go line reports when one launch ran */
            if (n_ok == 1)
                for (size_t j = 0; j < b->n_launches; j++)
                    if (!b->launches[j].status && !b->launches[j].skipped)
                        med = b->launches[j].ns_per_op;
            bl_format_duration(row->cell[1], sizeof row->cell[1], med);
            if (med > 0)
                snprintf(row->cell[2], sizeof row->cell[2], "±%.1f%%", 148.26 * s.mad / med);
            else
                snprintf(row->cell[2], sizeof row->cell[2], "-");
            if (!isnan(s.ci_lo)) {
                char lo[32], hi[32];
                bl_format_duration(lo, sizeof lo, s.ci_lo);
                bl_format_duration(hi, sizeof hi, s.ci_hi);
                snprintf(row->cell[3], sizeof row->cell[3], "[%s, %s]", lo, hi);
            } else {
                snprintf(row->cell[3], sizeof row->cell[3], "(too few batches)");
            }
            snprintf(row->cell[6], sizeof row->cell[6], "%zu", s.n_outliers);
        }
        bl_format_duration(row->cell[C_OVH], sizeof row->cell[C_OVH], ovh_sum / (double)n_ok);
        snprintf(row->cell[C_BATCHES], sizeof row->cell[C_BATCHES], "%zu/%zu", measured - invalid,
                 measured);
        /* the throughput at the centre shown: the rate of a launch with that time */
        bl_launch at = {.ns_per_op = NAN};
        for (size_t j = 0; j < b->n_launches; j++)
            if (!b->launches[j].status && !b->launches[j].skipped) {
                at = b->launches[j];
                break;
            }
        if (n_ok > 1 && n_all)
            at.ns_per_op = bl_stats_median(all, n_all);
        bl_rates rates;
        bl_launch_rates(&at, &rates);
        bl_format_rate(row->cell[C_RATE], sizeof row->cell[C_RATE], &rates);
        if (b->has_alloc) {
            snprintf(row->cell[C_BYTES], sizeof row->cell[C_BYTES], "%.0f", b->alloc_bytes_per_op);
            snprintf(row->cell[C_ALLOCS], sizeof row->cell[C_ALLOCS], "%.0f", b->allocs_per_op);
        } else {
            snprintf(row->cell[C_BYTES], sizeof row->cell[C_BYTES], "-");
            snprintf(row->cell[C_ALLOCS], sizeof row->cell[C_ALLOCS], "-");
        }
        for (int c = 0; c < NCOL; c++)
            if (bl__text_width(row->cell[c]) > w[c])
                w[c] = bl__text_width(row->cell[c]);
        free(all);
    }
    if (n_rows) {
        fputs(bold, f);
        for (int c = 0; c < NCOL; c++) {
            if (!show[c])
                continue;
            bl__text_pad(f, head[c], w[c], c > 0 && c != C_CI);
            fputs(c < last ? "  " : "\n", f);
        }
        fputs(reset, f);
        for (size_t i = 0; i < n_rows; i++) {
            for (int c = 0; c < NCOL; c++) {
                if (!show[c])
                    continue;
                bl__text_pad(f, rows[i].cell[c], c == last ? 0 : w[c], c > 0 && c != C_CI);
                fputs(c < last ? "  " : "\n", f);
            }
        }
    }
    /* Macrobenchmarks (one invocation per batch): the whole distribution */
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        size_t n = 0, single = 1;
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            if (l->status || l->skipped)
                continue;
            for (size_t k = 0; k < l->n_samples; k++)
                if (l->samples[k].stage == BL_STAGE_MEASURE && !l->samples[k].invalid) {
                    single &= l->samples[k].reps == 1;
                    n++;
                }
        }
        if (!n || !single)
            continue;
        double *v = malloc(n * sizeof *v);
        size_t m = 0;
        for (size_t j = 0; v && j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            if (l->status || l->skipped)
                continue;
            double *x;
            long k = bl_launch_per_op(l, &x);
            for (long t = 0; t < k && m < n; t++)
                v[m++] = x[t];
            if (k >= 0)
                free(x);
        }
        if (v && m) {
            bl_stats_sort(v, m);
            static const double ps[] = {0, 0.1, 0.5, 0.9, 0.99, 1};
            static const char *const pn[] = {"min", "p10", "median", "p90", "p99", "max"};
            fprintf(f, "%s: per invocation (n=%zu):",
                    strncmp(b->name, "Benchmark", 9) == 0 ? b->name + 9 : b->name, m);
            for (int q = 0; q < 6; q++) {
                char d[32];
                bl_format_duration(d, sizeof d, bl_stats_quantile_sorted(v, m, ps[q]));
                fprintf(f, "  %s %s", pn[q], d);
            }
            fputc('\n', f);
        }
        free(v);
    }
    /* notes in plain words */
    const char *clash = bl_results_get_meta(r, "unit-conflicts");
    if (clash)
        fprintf(f, "%snote%s better= of a unit declared two ways, the first declaration kept: %s\n",
                yellow, reset, clash);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            if (l->status) {
                fprintf(f, "%sFAIL%s %s: %s\n", red, reset, b->name,
                        l->message ? l->message : bl_strerror(l->status));
            } else if (l->skipped) {
                fprintf(f, "SKIP %s: %s\n", b->name, l->message ? l->message : "");
            }
            if (!l->status && !l->skipped && l->intrinsic && j == 0) {
                fprintf(f, "note %s: most batches show ", b->name);
                int first = 1;
                for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
                    if (l->intrinsic & (1u << k)) {
                        fprintf(f, "%s%s", first ? "" : ", ", bl_invalid_name(k));
                        first = 0;
                    }
                }
                fprintf(f, ": taken as part of the benchmark, not used to discard batches\n");
            }
            if (l->status || l->skipped) {
            } else if (l->n_invalid * 20 > l->n_measured || l->n_measured - l->n_invalid < 10) {
                fprintf(f, "%snote%s %s: %zu of %zu batches discarded as disturbed (", yellow,
                        reset, b->name, l->n_invalid, l->n_measured);
                int first = 1;
                for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
                    if (l->invalid_by[k]) {
                        fprintf(f, "%s%s %zu", first ? "" : ", ", bl_invalid_name(k),
                                l->invalid_by[k]);
                        first = 0;
                    }
                }
                fprintf(f, ")%s\n",
                        l->n_measured - l->n_invalid < 10 ? "; too few clean batches, "
                                                            "treat this result with care"
                                                          : "");
            }
        }
    }
    free(rows);
}
