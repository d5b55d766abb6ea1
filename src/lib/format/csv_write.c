/*
 * csv_write.c - run results as CSV (RFC 4180): one record per launch with
 * its estimate, interval, overhead, batch counts, threads, throughput
 * (MB/s, items/s, ops/s; empty where they do not apply) and metrics, for
 * spreadsheets. The metric columns are the union of the run's metric
 * units, in the order first seen; a launch without one leaves it empty.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"
#include "benchlab/stats.h"

static void num(FILE *f, double x)
{
    fputc(',', f);
    if (isnan(x) || isinf(x))
        return;
    char buf[40];
    bl__shortest_double(buf, sizeof buf, x);
    fputs(buf, f);
}

int bl_csv_write(FILE *f, const bl_results *r)
{
    const char **units = NULL;
    size_t n_units = 0;
    for (size_t i = 0; i < r->n_benches; i++)
        for (size_t j = 0; j < r->benches[i].n_launches; j++) {
            const bl_launch *l = &r->benches[i].launches[j];
            for (size_t k = 0; k < l->n_metrics; k++) {
                size_t u;
                for (u = 0; u < n_units; u++)
                    if (strcmp(units[u], l->metrics[k].unit) == 0)
                        break;
                if (u == n_units) {
                    const char **nu = realloc(units, (n_units + 1) * sizeof *nu);
                    if (!nu) {
                        free(units);
                        return -ENOMEM;
                    }
                    units = nu;
                    units[n_units++] = l->metrics[k].unit;
                }
            }
        }
    /* a run with jobs has a job column after the name (docs/jobs.md) */
    bool jobs = false;
    for (size_t i = 0; i < r->n_benches; i++)
        jobs |= r->benches[i].job != NULL;
    fputs(jobs ? "name,job," : "name,", f);
    fputs("launch,status,ns_per_op,ci_lo_ns,ci_hi_ns,raw_ns_per_op,overhead_ns,"
          "ref_cycles_per_op,measured_reps,n_measured,n_invalid,n_outliers,bytes_per_op,items_per_"
          "op,threads,mb_per_"
          "s,items_per_s,ops_per_s",
          f);
    for (size_t u = 0; u < n_units; u++) {
        fputc(',', f);
        bl__csv_field(f, units[u]);
    }
    fputc('\n', f);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            bl__csv_field(f, b->name);
            if (jobs) {
                fputc(',', f);
                bl__csv_field(f, b->job ? b->job : "");
            }
            fprintf(f, ",%zu,%s", j + 1,
                    l->skipped       ? "skipped"
                    : l->status == 0 ? "ok"
                                     : bl_strerror(l->status));
            double *per_op = NULL;
            long n = bl_launch_per_op(l, &per_op);
            bl_summary s;
            int have = n > 0 && bl_stats_summarize(per_op, (size_t)n, 0.95, &s) == 0;
            free(per_op);
            num(f, l->ns_per_op);
            num(f, have ? s.ci_lo : NAN);
            num(f, have ? s.ci_hi : NAN);
            num(f, l->raw_ns_per_op);
            num(f, l->overhead_ns);
            num(f, l->ref_cycles_per_op);
            fprintf(f, ",%llu,%zu,%zu,", (unsigned long long)l->measured_reps, l->n_measured,
                    l->n_invalid);
            if (have)
                fprintf(f, "%zu", s.n_outliers);
            num(f, l->bytes_per_op);
            num(f, l->items_per_op);
            fprintf(f, ",%d", l->threads);
            bl_rates rates;
            bl_launch_rates(l, &rates);
            num(f, rates.mb_per_s);
            num(f, rates.items_per_s);
            num(f, rates.ops_per_s);
            for (size_t u = 0; u < n_units; u++) {
                double v = NAN;
                for (size_t k = 0; k < l->n_metrics; k++)
                    if (strcmp(l->metrics[k].unit, units[u]) == 0)
                        v = l->metrics[k].value;
                if (isinf(v)) { /* a kInvert counter of 0: as the Go lines and the table */
                    fputc(',', f);
                    bl__csv_field(f, v > 0 ? "inf" : "-inf"); /* the formula rule for "-inf" */
                } else {
                    num(f, v);
                }
            }
            fputc('\n', f);
        }
    }
    free(units);
    return ferror(f) ? -EIO : 0;
}
