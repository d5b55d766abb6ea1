/*
 * ab_write.c - the outputs of `benchlab ab`: the table a person reads,
 * JSON (schema "benchlab-ab/1", docs/ab.md) and CSV for programs.
 *
 * The table says the verdict in words, with the ratio NEW/OLD and its
 * interval beside it; below it, in plain sentences, why a benchmark has no
 * verdict (a build crashed, the budget was too small) and which
 * benchmarks only one build defines.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/ab.h"
#include "benchlab/format.h"
#include "github.h"
#include "text.h"

#define NCOL 7

static const char *metric_unit(int metric)
{
    return metric == BL_AB_METRIC_REF_CYCLES     ? "ref-cycles/op"
           : metric == BL_AB_METRIC_INSTRUCTIONS ? "instructions/op"
                                                 : "time/op";
}

static const char *metric_name(int metric)
{
    return metric == BL_AB_METRIC_REF_CYCLES     ? "ref-cycles"
           : metric == BL_AB_METRIC_INSTRUCTIONS ? "instructions"
                                                 : "time";
}

static void format_side(char *out, size_t size, int metric, const bl_ab_side *s)
{
    double v = metric == BL_AB_METRIC_REF_CYCLES     ? s->ref_cycles_per_op
               : metric == BL_AB_METRIC_INSTRUCTIONS ? s->instructions_per_op
                                                     : s->ns_per_op;
    if (isnan(v)) {
        snprintf(out, size, "-");
        return;
    }
    if (metric != BL_AB_METRIC_TIME)
        bl_gobench_format_value(out, size, v);
    else
        bl_format_duration(out, size, v);
}

static bool has_estimate(const bl_ab_bench *b)
{
    return b->verdict == BL_AB_SAME || b->verdict == BL_AB_FASTER || b->verdict == BL_AB_SLOWER;
}

/* The verdict in words: "slower by 3.4%", "no difference", ... */
static void verdict_words(char *out, size_t size, const bl_ab_bench *b, double threshold)
{
    switch (b->verdict) {
    case BL_AB_SLOWER:
        snprintf(out, size, "slower by %.2f%%", (b->est.ratio - 1) * 100);
        break;
    case BL_AB_FASTER:
        snprintf(out, size, "faster by %.2f%%", (1 - b->est.ratio) * 100);
        break;
    case BL_AB_SAME:
        if (b->est.log_lo > 0 || b->est.log_hi < 0)
            snprintf(out, size, "no difference (%+.2f%%, within the %g%% threshold)",
                     (b->est.ratio - 1) * 100, threshold * 100);
        else
            snprintf(out, size, "no difference");
        break;
    case BL_AB_TOO_FEW:
        snprintf(out, size, "budget too small for a verdict");
        break;
    case BL_AB_SKIPPED:
        snprintf(out, size, "skipped");
        break;
    default:
        snprintf(out, size, "error");
        break;
    }
}

/* A benchmark's cells, as the table and the Markdown show them. */
static void fill_row(const bl_ab_report *r, const bl_ab_bench *b, char (*row)[128])
{
    snprintf(row[0], sizeof row[0], "%s", b->name);
    format_side(row[1], sizeof row[1], r->metric, &b->old_side);
    format_side(row[2], sizeof row[2], r->metric, &b->new_side);
    if (has_estimate(b)) {
        snprintf(row[3], sizeof row[3], "%.4f", b->est.ratio);
        snprintf(row[4], sizeof row[4], "[%.4f, %.4f]", b->est.lo, b->est.hi);
    } else {
        snprintf(row[3], sizeof row[3], "-");
        snprintf(row[4], sizeof row[4], "-");
    }
    if (b->n_blocks)
        snprintf(row[5], sizeof row[5], "%zu/%zu", b->n_clean_blocks, b->n_blocks);
    else
        snprintf(row[5], sizeof row[5], "-");
    verdict_words(row[6], sizeof row[6], b, r->threshold);
}

static void table_heads(const bl_ab_report *r, char (*head)[48])
{
    snprintf(head[0], 48, "benchmark");
    snprintf(head[1], 48, "OLD %s", metric_unit(r->metric));
    snprintf(head[2], 48, "NEW %s", metric_unit(r->metric));
    snprintf(head[3], 48, "NEW/OLD");
    snprintf(head[4], 48, "%g%% CI", r->confidence * 100);
    snprintf(head[5], 48, "blocks");
    snprintf(head[6], 48, "verdict");
}

int bl_ab_write_markdown(FILE *f, const bl_ab_report *r)
{
    size_t slower = 0;
    for (size_t i = 0; i < r->n_benches; i++)
        slower += r->benches[i].verdict == BL_AB_SLOWER;
    fprintf(f, "### benchlab ab: %s%zu slower of %zu\n\n", slower ? ":x: " : "", slower,
            r->n_benches);
    fputs("OLD `", f);
    bl__markdown_text(f, r->old_exe ? r->old_exe : "?");
    fputs("`, NEW `", f);
    bl__markdown_text(f, r->new_exe ? r->new_exe : "?");
    fprintf(f, "`: metric %s, %d process pairs, threshold %g%%.\n\n", metric_name(r->metric),
            r->pairs, r->threshold * 100);
    char head[NCOL][48], row[NCOL][128];
    table_heads(r, head);
    for (int c = 0; c < NCOL; c++)
        fprintf(f, "| %s ", head[c]);
    fputs("|\n|---|---:|---:|---:|---|---:|---|\n", f);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_ab_bench *b = &r->benches[i];
        fill_row(r, b, row);
        for (int c = 0; c < NCOL; c++) {
            fputs("| ", f);
            if (c == NCOL - 1 && b->verdict == BL_AB_SLOWER)
                fputs("**", f);
            bl__markdown_text(f, row[c]);
            if (c == NCOL - 1 && b->verdict == BL_AB_SLOWER)
                fputs("**", f);
            fputc(' ', f);
        }
        fputs("|\n", f);
    }
    return ferror(f) ? -EIO : 0;
}

int bl_ab_write_github(FILE *f, const bl_ab_report *r)
{
    struct bl__github_notes g = {0};
    char title[300];
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_ab_bench *b = &r->benches[i];
        if (b->verdict == BL_AB_SLOWER) {
            snprintf(title, sizeof title, "benchlab ab: %s slower", b->name);
            bl__github_note_add(&g, BL__GITHUB_ERROR, b->est.ratio, title,
                                "%s: NEW is %.2f%% slower than OLD (NEW/OLD %.4f, %g%% interval "
                                "[%.4f, %.4f], %zu process pairs), past the %g%% threshold",
                                b->name, (b->est.ratio - 1) * 100, b->est.ratio,
                                r->confidence * 100, b->est.lo, b->est.hi, b->est.n_groups,
                                r->threshold * 100);
        } else if (b->verdict == BL_AB_SAME && b->est.log_lo > 0) {
            snprintf(title, sizeof title, "benchlab ab: %s slower, under the threshold", b->name);
            bl__github_note_add(&g, BL__GITHUB_WARNING, b->est.ratio, title,
                                "%s: NEW is %.2f%% slower than OLD (interval [%.4f, %.4f]), "
                                "under the %g%% threshold",
                                b->name, (b->est.ratio - 1) * 100, b->est.lo, b->est.hi,
                                r->threshold * 100);
        } else if (b->verdict == BL_AB_ERROR || b->verdict == BL_AB_TOO_FEW) {
            snprintf(title, sizeof title, "benchlab ab: %s has no verdict", b->name);
            bl__github_note_add(&g, BL__GITHUB_WARNING, INFINITY, title, "%s: %s", b->name,
                                b->message ? b->message : "budget too small for a verdict");
        }
    }
    return bl__github_notes_write(f, &g, "regressions", "warnings");
}

int bl_ab_write_table(FILE *f, const bl_ab_report *r, unsigned flags)
{
    const char *bold = (flags & BL_AB_COLOR) ? "\033[1m" : "";
    const char *red = (flags & BL_AB_COLOR) ? "\033[31m" : "";
    const char *green = (flags & BL_AB_COLOR) ? "\033[32m" : "";
    const char *yellow = (flags & BL_AB_COLOR) ? "\033[33m" : "";
    const char *reset = (flags & BL_AB_COLOR) ? "\033[0m" : "";
    char head[NCOL][48];
    table_heads(r, head);
    char(*cell)[NCOL][128] = calloc(r->n_benches + 1, sizeof *cell);
    if (!cell)
        return -ENOMEM;
    int w[NCOL];
    for (int c = 0; c < NCOL; c++)
        w[c] = bl__text_width(head[c]);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_ab_bench *b = &r->benches[i];
        char(*row)[128] = cell[i];
        fill_row(r, b, row);
        for (int c = 0; c < NCOL; c++)
            if (bl__text_width(row[c]) > w[c])
                w[c] = bl__text_width(row[c]);
    }
    fprintf(f, "OLD: %s\nNEW: %s\n", r->old_exe ? r->old_exe : "?", r->new_exe ? r->new_exe : "?");
    fprintf(f, "metric %s, %d process pairs, %gs per benchmark, threshold %g%%\n",
            metric_name(r->metric), r->pairs, r->time_s, r->threshold * 100);
    if (r->env_warnings)
        fprintf(f, "noise on this machine: %s\n", r->env_warnings);
    fputc('\n', f);
    fputs(bold, f);
    for (int c = 0; c < NCOL; c++) {
        bl__text_pad(f, head[c], c == NCOL - 1 ? 0 : w[c], c > 0 && c != 4 && c != 6);
        fputs(c == NCOL - 1 ? "" : "  ", f);
    }
    fprintf(f, "%s\n", reset);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_ab_bench *b = &r->benches[i];
        for (int c = 0; c < NCOL - 1; c++) {
            bl__text_pad(f, cell[i][c], w[c], c > 0 && c != 4);
            fputs("  ", f);
        }
        const char *col = b->verdict == BL_AB_SLOWER   ? red
                          : b->verdict == BL_AB_FASTER ? green
                          : b->verdict == BL_AB_SAME   ? ""
                                                       : yellow;
        fprintf(f, "%s%s%s\n", col, cell[i][NCOL - 1], *col ? reset : "");
    }
    free(cell);
    bool noted = false;
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_ab_bench *b = &r->benches[i];
        if (!b->message)
            continue;
        if (!noted)
            fputc('\n', f);
        noted = true;
        fprintf(f, "%s: %s\n", b->name, b->message);
    }
    if (r->n_only_old || r->n_only_new)
        fputc('\n', f);
    for (int side = 0; side < 2; side++) {
        size_t n = side ? r->n_only_new : r->n_only_old;
        char **v = side ? r->only_new : r->only_old;
        if (!n)
            continue;
        fprintf(f, "only in %s (not compared): ", side ? "NEW" : "OLD");
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%s%s", i ? ", " : "", v[i]);
        fputc('\n', f);
    }
    if (r->interrupted)
        fprintf(f, "\ninterrupted: the comparisons above are those that finished\n");
    return ferror(f) ? -EIO : 0;
}

/* ---- JSON ------------------------------------------------------------------------ */

static void json_key(FILE *f, const char *key, bool first)
{
    if (!first)
        fputc(',', f);
    bl__json_string(f, key);
    fputc(':', f);
}

static void json_num_field(FILE *f, const char *key, double v)
{
    json_key(f, key, false);
    bl__json_number(f, v);
}

static void json_str_field(FILE *f, const char *key, const char *v)
{
    json_key(f, key, false);
    if (v)
        bl__json_string(f, v);
    else
        fputs("null", f);
}

static void json_names(FILE *f, const char *key, char **v, size_t n)
{
    json_key(f, key, false);
    bl__json_strings(f, (const char *const *)v, n);
}

static void json_side(FILE *f, const char *key, const bl_ab_side *s)
{
    json_key(f, key, false);
    fputs("{\"ns_per_op\":", f);
    bl__json_number(f, s->ns_per_op);
    json_num_field(f, "ref_cycles_per_op", s->ref_cycles_per_op);
    if (!isnan(s->instructions_per_op))
        json_num_field(f, "instructions_per_op", s->instructions_per_op);
    fprintf(f, ",\"n_batches\":%zu,\"n_invalid\":%zu}", s->n_batches, s->n_invalid);
}

int bl_ab_write_json(FILE *f, const bl_ab_report *r)
{
    fputs("{\"schema\":\"benchlab-ab/1\"", f);
    json_str_field(f, "old", r->old_exe);
    json_str_field(f, "new", r->new_exe);
    json_str_field(f, "metric", metric_name(r->metric));
    json_num_field(f, "threshold", r->threshold);
    json_num_field(f, "confidence", r->confidence);
    json_num_field(f, "time_s", r->time_s);
    fprintf(f, ",\"pairs\":%d", r->pairs);
    json_str_field(f, "cpu", r->cpu_model);
    json_str_field(f, "host", r->host);
    json_str_field(f, "date", r->date);
    json_str_field(f, "env_warnings", r->env_warnings);
    fprintf(f, ",\"interrupted\":%s", r->interrupted ? "true" : "false");
    json_names(f, "only_old", r->only_old, r->n_only_old);
    json_names(f, "only_new", r->only_new, r->n_only_new);
    fputs(",\"benchmarks\":[", f);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_ab_bench *b = &r->benches[i];
        fputs(i ? ",\n{" : "\n{", f);
        json_key(f, "name", true);
        bl__json_string(f, b->name);
        json_str_field(f, "verdict", bl_ab_verdict_name(b->verdict));
        json_str_field(f, "message", b->message);
        bool est = has_estimate(b);
        json_num_field(f, "ratio", est ? b->est.ratio : NAN);
        json_num_field(f, "ci_lo", est ? b->est.lo : NAN);
        json_num_field(f, "ci_hi", est ? b->est.hi : NAN);
        json_num_field(f, "log_ratio", est ? b->est.log_ratio : NAN);
        json_num_field(f, "df", est ? b->est.df : NAN);
        json_num_field(f, "tau2", est ? b->est.tau2 : NAN);
        fprintf(f, ",\"n_pairs\":%zu,\"n_groups\":%zu,\"n_blocks\":%zu,\"n_clean_blocks\":%zu",
                b->n_pairs, b->est.n_groups, b->n_blocks, b->n_clean_blocks);
        json_num_field(f, "wall_s", b->wall_s);
        json_num_field(f, "start_s", b->start_s);
        json_side(f, "old_side", &b->old_side);
        json_side(f, "new_side", &b->new_side);
        fputc('}', f);
    }
    fputs("]}\n", f);
    return ferror(f) ? -EIO : 0;
}

/* ---- CSV ---------------------------------------------------------------------------- */

static void csv_num(FILE *f, double x)
{
    fputc(',', f);
    if (!isnan(x) && !isinf(x))
        fprintf(f, "%.10g", x);
}

int bl_ab_write_csv(FILE *f, const bl_ab_report *r)
{
    fputs("name,verdict,ratio,ci_lo,ci_hi,old_ns_per_op,new_ns_per_op,old_ref_cycles_per_op,"
          "new_ref_cycles_per_op,n_pairs,n_blocks,n_clean_blocks,wall_s,start_s,message\n",
          f);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_ab_bench *b = &r->benches[i];
        bool est = has_estimate(b);
        bl__csv_field(f, b->name);
        fprintf(f, ",%s", bl_ab_verdict_name(b->verdict));
        csv_num(f, est ? b->est.ratio : NAN);
        csv_num(f, est ? b->est.lo : NAN);
        csv_num(f, est ? b->est.hi : NAN);
        csv_num(f, b->old_side.ns_per_op);
        csv_num(f, b->new_side.ns_per_op);
        csv_num(f, b->old_side.ref_cycles_per_op);
        csv_num(f, b->new_side.ref_cycles_per_op);
        fprintf(f, ",%zu,%zu,%zu", b->n_pairs, b->n_blocks, b->n_clean_blocks);
        csv_num(f, b->wall_s);
        csv_num(f, b->start_s);
        fputc(',', f);
        bl__csv_field(f, b->message ? b->message : "");
        fputc('\n', f);
    }
    return ferror(f) ? -EIO : 0;
}
