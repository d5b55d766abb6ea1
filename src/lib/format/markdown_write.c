/*
 * markdown_write.c - run results as a GitHub-flavoured Markdown table, for
 * pull requests and reports: per benchmark its estimate over the launches
 * (bl_bench_estimate: the centre and 95% interval `run`'s table shows), the
 * overhead subtracted and the batches measured and invalidated, ref-cycles
 * and the throughput (all threads counted) when some benchmark has them;
 * the run's configuration above the table, the diagnosis notes (drift,
 * modes) below it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"

int bl_markdown_write(FILE *f, const bl_results *r)
{
    for (size_t i = 0; i < r->n_config; i++) {
        fputs("- **", f);
        bl__markdown_text(f, r->config[i].key);
        fputs("**: ", f);
        bl__markdown_text(f, r->config[i].value);
        fputc('\n', f);
    }
    for (size_t i = 0; i < r->n_meta; i++) {
        fputs("- ", f);
        bl__markdown_text(f, r->meta[i].key);
        fputs(": ", f);
        bl__markdown_text(f, r->meta[i].value);
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
    int one_launch = 0; /* some interval comes from the batches of one process */
    int cycles = 0;     /* a ref-cycles/op column when some launch has one */
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
        size_t measured = 0, invalid = 0, failed = 0;
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            measured += l->n_measured;
            invalid += l->n_invalid;
            failed += l->status || l->skipped || isnan(l->ns_per_op);
        }
        /* the centre and interval `run`'s table and the JSON show */
        bl_estimate e;
        int have = bl_bench_estimate(b, 0.95, &e) == 0;
        char t[64] = "-", o[64] = "-";
        if (have) {
            bl_format_duration(t, sizeof t, e.centre);
            bl_format_duration(o, sizeof o, e.overhead_ns);
        }
        fputs("| ", f);
        bl__markdown_text(f, b->name);
        fprintf(f, " | %s | ", t);
        if (have && e.ci_method != BL_CI_NONE) {
            char lo[64], hi[64];
            bl_format_duration(lo, sizeof lo, e.ci_lo);
            bl_format_duration(hi, sizeof hi, e.ci_hi);
            fprintf(f, "%s – %s%s", lo, hi, e.ci_method == BL_CI_BATCHES ? " \\*" : "");
            one_launch |= e.ci_method == BL_CI_BATCHES;
        } else {
            fputs("-", f);
        }
        fprintf(f, " | %s | %zu%s | %zu | %zu |", o, b->n_launches, failed ? " (some failed)" : "",
                measured, invalid);
        if (cycles) {
            char v[64] = "-";
            if (have && !isnan(e.ref_cycles))
                bl_gobench_format_value(v, sizeof v, e.ref_cycles);
            fprintf(f, " %s |", v);
        }
        if (rates) {
            /* the rate at the centre, from the first launch that ran */
            char rate[64] = "-";
            for (size_t j = 0; j < b->n_launches && have; j++) {
                const bl_launch *l = &b->launches[j];
                if (l->status || l->skipped || isnan(l->ns_per_op))
                    continue;
                bl_launch at = *l;
                at.ns_per_op = e.centre;
                bl_rates rt;
                bl_launch_rates(&at, &rt);
                bl_format_rate(rate, sizeof rate, &rt);
                break;
            }
            fprintf(f, " %s |", rate);
        }
        fputc('\n', f);
    }
    if (one_launch)
        fputs("\n\\* one launch: the interval of its batches, without the variance between "
              "processes\n",
              f);
    /* what the centre hides: drift within launches, modes (as under `run`'s table) */
    int noted = 0;
    for (size_t i = 0; i < r->n_benches; i++) {
        bl_diagnosis d;
        char lines[3][BL_DIAGNOSIS_LINE];
        int n = bl_bench_diagnose(&r->benches[i], &d) == 0 ? bl_format_diagnosis(&d, lines) : 0;
        for (int k = 0; k < n; k++) {
            fputs(noted++ ? "- " : "\nNotes:\n\n- ", f);
            bl__markdown_text(f, r->benches[i].name);
            fputs(": ", f);
            bl__markdown_text(f, lines[k]);
            fputc('\n', f);
        }
    }
    return ferror(f) ? -EIO : 0;
}
