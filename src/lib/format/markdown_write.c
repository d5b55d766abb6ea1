/*
 * markdown_write.c - run results as a GitHub-flavoured Markdown table, for
 * pull requests and reports: per benchmark its estimate over the launches
 * (bl_bench_estimate: the centre and 95% interval `run`'s table shows) and
 * its spread over the launches, the on-CPU time per op with its own spread
 * when it was measured, the overhead subtracted and the batches measured
 * and invalidated, ref-cycles and the throughput (all threads counted)
 * when some benchmark has them;
 * the run's configuration above the table, the notes below it (which CPU
 * time cpu/op is when it is the process's, drift, modes). The rows are run_rows.c's, the ones
 * `run`'s table reads.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"
#include "run_rows.h"

/* A benchmark's name, with its job in a run of jobs ("Work [gcc]", as
 * run's table and history name it; the brackets escaped). */
static void md_name(FILE *f, const bl_bench_result *b)
{
    bl__markdown_text(f, b->name);
    if (b->job) {
        fputs(" \\[", f);
        bl__markdown_text(f, b->job);
        fputs("\\]", f);
    }
}

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
    struct bl__run_rows rows;
    if (bl__run_rows_build(&rows, r) != 0)
        return -ENOMEM;
    int one_launch = 0;     /* some interval comes from the batches of one process */
    bool spread_ns = false; /* some spread in ns (below half a cycle) */
    /* the spreads and cpu/op as `run`'s table shows them (table.c) */
    fprintf(f,
            "| benchmark | time/op | 95%% CI | spread |%s overhead | launches | batches | "
            "invalid |%s%s\n"
            "|---|---:|---:|---:|%s---:|---:|---:|---:|%s%s\n",
            rows.any_cpu ? " cpu/op | cpu spread |" : "", rows.any_ref ? " ref-cycles/op |" : "",
            rows.any_rate ? " throughput |" : "", rows.any_cpu ? "---:|---:|" : "",
            rows.any_ref ? "---:|" : "", rows.any_rate ? "---:|" : "");
    for (size_t i = 0; i < rows.n_rows; i++) {
        const struct bl__run_row *row = &rows.rows[i];
        /* the centre and interval `run`'s table and the JSON show */
        const bl_estimate *e = &row->e;
        char t[64] = "-", o[64] = "-";
        if (row->have) {
            bl_format_duration(t, sizeof t, e->centre);
            bl_format_duration(o, sizeof o, e->overhead_ns);
        }
        fputs("| ", f);
        md_name(f, row->bench);
        fprintf(f, " | %s | ", t);
        if (row->have && e->ci_method != BL_CI_NONE) {
            char lo[64], hi[64];
            bl_format_duration(lo, sizeof lo, e->ci_lo);
            bl_format_duration(hi, sizeof hi, e->ci_hi);
            fprintf(f, "%s – %s%s", lo, hi, e->ci_method == BL_CI_BATCHES ? " \\*" : "");
            one_launch |= e->ci_method == BL_CI_BATCHES;
        } else {
            fputs("-", f);
        }
        /* the spreads over launches; "-" with one launch or no measurable work */
        char sp[32], cpu[64] = "-", cpu_sp[32];
        spread_ns |= bl__run_rows_spreads(row, sp, cpu_sp, sizeof sp);
        if (row->have)
            bl_format_duration(cpu, sizeof cpu, e->cpu_ns);
        fprintf(f, " | %s |", sp);
        if (rows.any_cpu)
            fprintf(f, " %s | %s |", cpu, cpu_sp);
        fprintf(f, " %s | %zu%s | %zu | %zu |", o, row->bench->n_launches,
                row->failed ? " (some failed)" : "", row->measured, row->invalid);
        if (rows.any_ref) {
            char v[64] = "-";
            if (row->have && !isnan(e->ref_cycles))
                bl_gobench_format_value(v, sizeof v, e->ref_cycles);
            fprintf(f, " %s |", v);
        }
        if (rows.any_rate) {
            /* the rate at the centre */
            char rate[64] = "-";
            if (row->have)
                bl_format_rate(rate, sizeof rate, &row->rates);
            fprintf(f, " %s |", rate);
        }
        fputc('\n', f);
    }
    bl__run_rows_fini(&rows);
    if (one_launch)
        fputs("\n\\* one launch: the interval of its batches, without the variance between "
              "processes\n",
              f);
    if (spread_ns)
        fputs("\nspread in ns: the launches' median is below half a core cycle, what subtracting "
              "the loop resolves, so their range (max - min) rather than a share of that median\n",
              f);
    /* what the centre hides: drift within launches, modes (as under `run`'s table) */
    int noted = 0;
    for (size_t i = 0; i < r->n_benches; i++) {
        bl_diagnosis d;
        char lines[4][BL_DIAGNOSIS_LINE];
        /* and a budget or count of its own: the metadata above are the run's */
        int own = bl__run_rows_own_plan(lines[0], sizeof lines[0], &r->benches[i]);
        int n =
            bl_bench_diagnose(&r->benches[i], &d) == 0 ? bl_format_diagnosis(&d, lines + own) : 0;
        n += own;
        char clock_note[200]; /* which CPU time cpu/op is, as under run's table */
        if (bl__run_rows_cpu_clock_note(clock_note, sizeof clock_note, &r->benches[i])) {
            fputs(noted++ ? "- " : "\nNotes:\n\n- ", f);
            md_name(f, &r->benches[i]);
            fputs(": ", f);
            bl__markdown_text(f, clock_note);
            fputc('\n', f);
        }
        for (int k = 0; k < n; k++) {
            fputs(noted++ ? "- " : "\nNotes:\n\n- ", f);
            md_name(f, &r->benches[i]);
            fputs(": ", f);
            bl__markdown_text(f, lines[k]);
            fputc('\n', f);
        }
    }
    return ferror(f) ? -EIO : 0;
}
