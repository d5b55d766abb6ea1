/*
 * markdown_write.c - run results as a GitHub-flavoured Markdown table, for
 * pull requests and reports: per benchmark the median per-op time over its
 * launches, its 95% interval, the overhead subtracted and the batches
 * measured and invalidated, and the throughput (all threads counted) when
 * some benchmark has one; the run's configuration above the table.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/format.h"
#include "benchlab/stats.h"

static void md(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("|\\`*_[]<>", *s))
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

int bl_markdown_write(FILE *f, const bl_results *r)
{
    for (size_t i = 0; i < r->n_config; i++) {
        fputs("- **", f);
        md(f, r->config[i].key);
        fputs("**: ", f);
        md(f, r->config[i].value);
        fputc('\n', f);
    }
    for (size_t i = 0; i < r->n_meta; i++) {
        fputs("- ", f);
        md(f, r->meta[i].key);
        fputs(": ", f);
        md(f, r->meta[i].value);
        fputc('\n', f);
    }
    if (r->n_config || r->n_meta)
        fputc('\n', f);
    int rates = 0; /* a throughput column when some launch has one */
    for (size_t i = 0; i < r->n_benches; i++)
        for (size_t j = 0; j < r->benches[i].n_launches; j++)
            rates |= r->benches[i].launches[j].bytes_per_op > 0 ||
                     r->benches[i].launches[j].items_per_op > 0 ||
                     r->benches[i].launches[j].threads > 0;
    int cycles = 0; /* a ref-cycles/op column when some launch has one */
    for (size_t i = 0; i < r->n_benches; i++)
        for (size_t j = 0; j < r->benches[i].n_launches; j++)
            cycles |= !isnan(r->benches[i].launches[j].ref_cycles_per_op);
    fprintf(f,
            "| benchmark | time/op | 95%% CI | overhead | launches | batches | invalid |%s%s\n"
            "|---|---:|---:|---:|---:|---:|---:|%s%s\n",
            cycles ? " ref-cycles/op |" : "", rates ? " throughput |" : "", cycles ? "---:|" : "",
            rates ? "---:|" : "");
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        double *xs = malloc((b->n_launches ? b->n_launches : 1) * sizeof *xs);
        double *ov = malloc((b->n_launches ? b->n_launches : 1) * sizeof *ov);
        if (!xs || !ov) {
            free(xs);
            free(ov);
            return -ENOMEM;
        }
        size_t n = 0, measured = 0, invalid = 0, failed = 0;
        double *per_op = NULL;
        long n_per_op = 0;
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            measured += l->n_measured;
            invalid += l->n_invalid;
            if (l->status || l->skipped || isnan(l->ns_per_op)) {
                failed++;
                continue;
            }
            ov[n] = l->overhead_ns;
            xs[n++] = l->ns_per_op;
            if (b->n_launches == 1)
                n_per_op = bl_launch_per_op(l, &per_op);
        }
        char t[64] = "-", lo[64] = "", hi[64] = "", o[64] = "-";
        bl_summary s;
        /* One launch: the interval of its batches; several: of the launches. */
        const double *src = n_per_op > 0 ? per_op : xs;
        size_t ns = n_per_op > 0 ? (size_t)n_per_op : n;
        if (n > 0) {
            bl_format_duration(t, sizeof t, bl_stats_median(xs, n));
            bl_format_duration(o, sizeof o, bl_stats_median(ov, n));
        }
        fputs("| ", f);
        md(f, b->name);
        fprintf(f, " | %s | ", t);
        if (ns > 0 && bl_stats_summarize(src, ns, 0.95, &s) == 0 && !isnan(s.ci_lo)) {
            bl_format_duration(lo, sizeof lo, s.ci_lo);
            bl_format_duration(hi, sizeof hi, s.ci_hi);
            fprintf(f, "%s – %s", lo, hi);
        } else {
            fputs("-", f);
        }
        fprintf(f, " | %s | %zu%s | %zu | %zu |", o, b->n_launches, failed ? " (some failed)" : "",
                measured, invalid);
        if (cycles) {
            double *cyc = ov; /* reused: the overheads are printed and xs is still needed */
            size_t n_cyc = 0;
            for (size_t j = 0; j < b->n_launches; j++) {
                const bl_launch *l = &b->launches[j];
                if (!l->status && !l->skipped && !isnan(l->ref_cycles_per_op))
                    cyc[n_cyc++] = l->ref_cycles_per_op;
            }
            char v[64] = "-";
            if (n_cyc)
                bl_gobench_format_value(v, sizeof v, bl_stats_median(cyc, n_cyc));
            fprintf(f, " %s |", v);
        }
        if (rates) {
            /* the rate at the median time, from the first launch that ran */
            char rate[64] = "-";
            for (size_t j = 0; j < b->n_launches && n > 0; j++) {
                const bl_launch *l = &b->launches[j];
                if (l->status || l->skipped || isnan(l->ns_per_op))
                    continue;
                bl_launch at = *l;
                at.ns_per_op = bl_stats_median(xs, n);
                bl_rates rt;
                bl_launch_rates(&at, &rt);
                bl_format_rate(rate, sizeof rate, &rt);
                break;
            }
            fprintf(f, " %s |", rate);
        }
        fputc('\n', f);
        free(per_op);
        free(xs);
        free(ov);
    }
    return ferror(f) ? -EIO : 0;
}
