/*
 * changes_write.c - the change points of a history (stats/changepoint.c)
 * as a text table for a terminal or CI log, as JSON, and as Markdown
 * (`benchlab history --changes`; docs/store.md, "Change points").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/changes.h"
#include "benchlab/format.h"
#include "text.h"

/* A value of the metric: a duration for ns/op, else a count. */
static void format_value(char *buf, size_t size, double v, const char *unit)
{
    if (isnan(v) || strcmp(unit, "ns/op") == 0)
        bl_format_duration(buf, size, v);
    else
        snprintf(buf, size, "%.4g", v);
}

/* "1.021µs ±0.4%": a level and the half width of its interval, relative. */
static void format_level(char *buf, size_t size, double v, double lo, double hi, const char *unit)
{
    char val[32];
    format_value(val, sizeof val, v, unit);
    if (!isnan(lo) && !isnan(hi) && v != 0)
        snprintf(buf, size, "%s ±%.1f%%", val, (hi - lo) / 2 / fabs(v) * 100);
    else
        snprintf(buf, size, "%s", val);
}

static void format_commit(char *buf, size_t size, const bl_changes_series *se, size_t at)
{
    const char *c = se->commits ? se->commits[at] : NULL;
    snprintf(buf, size, "%.7s", c && *c ? c : "-");
}

enum { COL_NAME, COL_RUN, COL_COMMIT, COL_BEFORE, COL_AFTER, COL_CHANGE, COL_P, N_COLS };

struct row {
    char c[N_COLS][64];
};

/* The commit of the acknowledgement that accepts change j, or NULL. */
static const char *acked(const bl_changes_series *se, size_t j)
{
    return se->acked && se->changes[j].kind == BL_CHANGE_STEP ? se->acked[j] : NULL;
}

static void fill_row(struct row *r, const bl_changes_series *se, size_t j, const char *unit,
                     struct bl__buf *safe)
{
    const bl_change *ch = &se->changes[j];
    snprintf(r->c[COL_NAME], sizeof r->c[COL_NAME], "%s",
             safe ? bl__terminal_safe(safe, bl__shown_name(se->name)) : bl__shown_name(se->name));
    snprintf(r->c[COL_RUN], sizeof r->c[COL_RUN], "#%lld", (long long)se->run_ids[ch->at]);
    format_commit(r->c[COL_COMMIT], sizeof r->c[COL_COMMIT], se, ch->at);
    format_level(r->c[COL_BEFORE], sizeof r->c[COL_BEFORE], ch->before, ch->before_lo,
                 ch->before_hi, unit);
    format_level(r->c[COL_AFTER], sizeof r->c[COL_AFTER], ch->after, ch->after_lo, ch->after_hi,
                 unit);
    if (!isnan(ch->ratio))
        snprintf(r->c[COL_CHANGE], sizeof r->c[COL_CHANGE], "%+.1f%%%s", (ch->ratio - 1) * 100,
                 acked(se, j) ? " (acknowledged)" : "");
    else
        snprintf(r->c[COL_CHANGE], sizeof r->c[COL_CHANGE], "-");
    if (isnan(ch->p))
        snprintf(r->c[COL_P], sizeof r->c[COL_P], "-");
    else
        snprintf(r->c[COL_P], sizeof r->c[COL_P], ch->p < 0.001 ? "%.1e" : "%.4f", ch->p);
}

static size_t count_kind(const bl_changes_report *r, int kind)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_series; i++)
        for (size_t j = 0; j < r->series[i].n_changes; j++)
            n += r->series[i].changes[j].kind == kind;
    return n;
}

static size_t count_unchanged(const bl_changes_report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_series; i++) {
        int moved = 0;
        for (size_t j = 0; j < r->series[i].n_changes; j++)
            moved |= r->series[i].changes[j].kind == BL_CHANGE_STEP;
        n += !moved;
    }
    return n;
}

/* The one sentence of how the changes were found. */
static void method(FILE *f, const bl_changes_report *r, const char *alpha)
{
    const bl_changes_options *o = &r->options;
    fprintf(f,
            "change points in %s over %zu run%s: binary segmentation, permutation test of the "
            "largest shift over split points and window scales (%zu shuffles, %s %g), at least "
            "%zu runs a level, changes under %g%% merged, outliers past %g robust sigmas",
            r->unit, r->n_runs, r->n_runs == 1 ? "" : "s", o->permutations, alpha, o->alpha,
            o->min_runs, o->threshold * 100, o->outlier_k);
}

static const char *const heads[2][N_COLS] = {
    {"benchmark", "run", "commit", "before", "after", "change", "p"},
    {"benchmark", "run", "commit", "level", "value", "off", "p"},
};

static void text_table(FILE *f, const bl_changes_report *r, int kind)
{
    int w[N_COLS];
    for (int k = 0; k < N_COLS; k++)
        w[k] = bl__text_width(heads[kind][k]);
    struct bl__buf safe = {0};
    struct row row;
    int n_cols = N_COLS - (kind == BL_CHANGE_OUTLIER); /* an outlier has no p */
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            for (int k = 0; k < n_cols; k++)
                fprintf(f, "%s%-*s", k ? "  " : "", k + 1 < n_cols ? w[k] : 0, heads[kind][k]);
        if (pass)
            fputc('\n', f);
        for (size_t i = 0; i < r->n_series; i++) {
            const bl_changes_series *se = &r->series[i];
            for (size_t j = 0; j < se->n_changes; j++) {
                if (se->changes[j].kind != kind)
                    continue;
                fill_row(&row, se, j, r->unit, &safe);
                for (int k = 0; k < n_cols; k++) {
                    if (!pass) {
                        w[k] = bl__text_width(row.c[k]) > w[k] ? bl__text_width(row.c[k]) : w[k];
                        continue;
                    }
                    int pad = w[k] - bl__text_width(row.c[k]);
                    fprintf(f, "%s%s%*s", k ? "  " : "", row.c[k],
                            k + 1 < n_cols && pad > 0 ? pad : 0, "");
                }
                if (pass)
                    fputc('\n', f);
            }
        }
    }
    bl__buf_fini(&safe);
}

static void write_text(FILE *f, const bl_changes_report *r)
{
    method(f, r, "alpha");
    fputs("\n\n", f);
    size_t steps = count_kind(r, BL_CHANGE_STEP), outliers = count_kind(r, BL_CHANGE_OUTLIER);
    if (steps)
        text_table(f, r, BL_CHANGE_STEP);
    else
        fputs("no change points\n", f);
    if (outliers) {
        fprintf(f,
                "\noutliers (a run off its level that did not stay; the newest runs of a new "
                "level show here until %zu runs confirm it):\n",
                r->options.min_runs);
        text_table(f, r, BL_CHANGE_OUTLIER);
    }
    size_t same = count_unchanged(r);
    fprintf(f, "\n%zu change point%s in %zu benchmark%s; %zu of %zu without a change\n", steps,
            steps == 1 ? "" : "s", r->n_series - same, r->n_series - same == 1 ? "" : "s", same,
            r->n_series);
}

static void markdown_table(FILE *f, const bl_changes_report *r, int kind)
{
    int n_cols = N_COLS - (kind == BL_CHANGE_OUTLIER);
    for (int k = 0; k < n_cols; k++)
        fprintf(f, "| %s ", heads[kind][k]);
    fputs("|\n", f);
    for (int k = 0; k < n_cols; k++)
        fputs(k == COL_NAME || k == COL_COMMIT ? "|---" : "|---:", f);
    fputs("|\n", f);
    struct row row;
    for (size_t i = 0; i < r->n_series; i++) {
        const bl_changes_series *se = &r->series[i];
        for (size_t j = 0; j < se->n_changes; j++) {
            if (se->changes[j].kind != kind)
                continue;
            fill_row(&row, se, j, r->unit, NULL);
            fputs("| ", f);
            bl__markdown_text(f, row.c[COL_NAME]);
            for (int k = 1; k < n_cols; k++) {
                fputs(" | ", f);
                if (k == COL_COMMIT)
                    fprintf(f, "`%s`", row.c[k]);
                else
                    bl__markdown_text(f, row.c[k]);
            }
            fputs(" |\n", f);
        }
    }
}

static void write_markdown(FILE *f, const bl_changes_report *r)
{
    size_t steps = count_kind(r, BL_CHANGE_STEP), outliers = count_kind(r, BL_CHANGE_OUTLIER);
    size_t same = count_unchanged(r);
    fprintf(f, "### benchlab: %zu change point%s in %zu benchmark%s\n\n", steps,
            steps == 1 ? "" : "s", r->n_series - same, r->n_series - same == 1 ? "" : "s");
    if (steps) {
        markdown_table(f, r, BL_CHANGE_STEP);
        fputc('\n', f);
    }
    if (outliers) {
        fputs("_Outliers_ (a run off its level that did not stay):\n\n", f);
        markdown_table(f, r, BL_CHANGE_OUTLIER);
        fputc('\n', f);
    }
    fprintf(f, "%zu of %zu benchmarks without a change. ", same, r->n_series);
    method(f, r, "α =");
    fputs(".\n", f);
}

static void json_pair(FILE *f, double lo, double hi)
{
    if (isnan(lo) || isnan(hi)) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    bl__json_number(f, lo);
    fputc(',', f);
    bl__json_number(f, hi);
    fputc(']', f);
}

static void write_json(FILE *f, const bl_changes_report *r)
{
    const bl_changes_options *o = &r->options;
    fputs("{\n  \"store\": ", f);
    bl__json_string(f, r->store);
    fputs(",\n  \"unit\": ", f);
    bl__json_string(f, r->unit);
    fprintf(f, ",\n  \"runs\": %zu,\n  \"benchmarks\": %zu,\n  \"unchanged\": %zu,\n", r->n_runs,
            r->n_series, count_unchanged(r));
    fputs("  \"method\": {\"test\": \"multi-scale shift permutation\", \"alpha\": ", f);
    bl__json_number(f, o->alpha);
    fprintf(f, ", \"permutations\": %zu, \"min_runs\": %zu, \"threshold\": ", o->permutations,
            o->min_runs);
    bl__json_number(f, o->threshold);
    fputs(", \"outlier_k\": ", f);
    bl__json_number(f, o->outlier_k);
    fputs("},\n  \"changes\": [", f);
    int first = 1;
    for (size_t i = 0; i < r->n_series; i++) {
        const bl_changes_series *se = &r->series[i];
        for (size_t j = 0; j < se->n_changes; j++) {
            const bl_change *c = &se->changes[j];
            fputs(first ? "\n    {\"benchmark\": " : ",\n    {\"benchmark\": ", f);
            first = 0;
            bl__json_string(f, se->name);
            fprintf(f, ", \"kind\": \"%s\", \"run\": %lld, \"commit\": ",
                    c->kind == BL_CHANGE_STEP ? "change" : "outlier",
                    (long long)se->run_ids[c->at]);
            const char *commit = se->commits ? se->commits[c->at] : NULL;
            if (commit && *commit)
                bl__json_string(f, commit);
            else
                fputs("null", f);
            fprintf(f, ", \"index\": %zu, \"before\": ", c->at);
            bl__json_number(f, c->before);
            fputs(", \"after\": ", f);
            bl__json_number(f, c->after);
            fputs(", \"ratio\": ", f);
            bl__json_number(f, c->ratio);
            fputs(", \"p\": ", f);
            bl__json_number(f, c->p);
            fputs(", \"before_ci\": ", f);
            json_pair(f, c->before_lo, c->before_hi);
            fputs(", \"after_ci\": ", f);
            json_pair(f, c->after_lo, c->after_hi);
            fprintf(f, ", \"n_before\": %zu, \"n_after\": %zu, \"acknowledged\": ", c->n_before,
                    c->n_after);
            if (acked(se, j))
                bl__json_string(f, acked(se, j));
            else
                fputs("null", f);
            fputc('}', f);
        }
    }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
}

int bl_changes_write(FILE *f, const bl_changes_report *r, enum bl_changes_format format)
{
    if (format == BL_CHANGES_JSON)
        write_json(f, r);
    else if (format == BL_CHANGES_MARKDOWN)
        write_markdown(f, r);
    else
        write_text(f, r);
    return ferror(f) ? -EIO : 0;
}
