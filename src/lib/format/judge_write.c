/*
 * judge_write.c - judge's verdicts (results/judge.c) as a text table for
 * a terminal or CI log and as a Markdown table for a pull request
 * (`benchlab judge`; docs/store.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"
#include "benchlab/judge.h"
#include "github.h"
#include "text.h"

static const char *short_name(const char *name)
{
    return strncmp(name, "Benchmark", 9) == 0 ? name + 9 : name;
}

/* A judgement's benchmark as shown: its short name, and its job after it
 * in a run of jobs ("Work [gcc]"), in b. */
static const char *judged(struct bl__buf *b, const bl_judgement *j)
{
    b->len = 0;
    bl__buf_printf(b, "%s", short_name(j->name));
    if (j->job)
        bl__buf_printf(b, " [%s]", j->job);
    return b->data ? b->data : short_name(j->name);
}

static const char *correction_name(enum bl_correction c)
{
    return c == BL_CORRECTION_HOLM ? "Holm-corrected"
           : c == BL_CORRECTION_BH ? "Benjamini-Hochberg-corrected"
                                   : "uncorrected";
}

struct cells {
    char base[32], new_[32], change[32], ci[48], p[16], values[40];
};

/* A value of the metric: a duration for the time, else a count. */
static void format_value(char *buf, size_t size, double v, enum bl_judge_metric m)
{
    if (m == BL_JUDGE_TIME || isnan(v))
        bl_format_duration(buf, size, v);
    else
        snprintf(buf, size, "%.4g", v);
}

static void fill_cells(const bl_judgement *j, enum bl_judge_metric m, struct cells *c)
{
    memset(c, 0, sizeof *c);
    format_value(c->base, sizeof c->base, j->base_ns, m);
    format_value(c->new_, sizeof c->new_, j->new_ns, m);
    if (!isnan(j->ratio))
        snprintf(c->change, sizeof c->change, "%+.1f%%", (j->ratio - 1) * 100);
    else
        snprintf(c->change, sizeof c->change, "-");
    if (!isnan(j->ratio_lo))
        snprintf(c->ci, sizeof c->ci, "[%+.1f%%, %+.1f%%]", (j->ratio_lo - 1) * 100,
                 (j->ratio_hi - 1) * 100);
    else
        snprintf(c->ci, sizeof c->ci, isnan(j->ratio) ? "-" : "(too few values)");
    if (!isnan(j->p))
        snprintf(c->p, sizeof c->p, j->p < 0.001 ? "<0.001" : "%.3f", j->p);
    else
        snprintf(c->p, sizeof c->p, "-");
    if (j->n_base || j->n_new)
        snprintf(c->values, sizeof c->values, "%zu/%zu %s", j->n_base, j->n_new,
                 j->launch_level ? "launches" : "batches");
    else
        snprintf(c->values, sizeof c->values, "-");
}

static void cell(FILE *f, const char *s, int w, int right, const char *sep)
{
    int pad = w - bl__text_width(s);
    if (right)
        fprintf(f, "%*s", pad > 0 ? pad : 0, "");
    fputs(s, f);
    if (!right)
        fprintf(f, "%*s", pad > 0 ? pad : 0, "");
    fputs(sep, f);
}

static void summary_line(FILE *f, const bl_judgement_set *s)
{
    fprintf(f, "%zu slower, %zu faster, %zu unchanged", s->n_slower, s->n_faster, s->n_unchanged);
    if (s->n_failed)
        fprintf(f, ", %zu failed", s->n_failed);
    if (s->n_new)
        fprintf(f, ", %zu new", s->n_new);
    if (s->n_missing)
        fprintf(f, ", %zu missing", s->n_missing);
    if (s->n_acknowledged)
        fprintf(f, " (%zu acknowledged)", s->n_acknowledged);
}

/* A regression the gate fails on: slower or failed, not acknowledged. */
static int regression(const bl_judgement *j)
{
    return (j->verdict == BL_VERDICT_SLOWER || j->verdict == BL_VERDICT_FAILED) && !j->acknowledged;
}

/*
 * How the benchmarks were judged, as one sentence: the metric when it is
 * not the time, the test (Mann-Whitney U; Welch's t on log values where
 * the U test could not reach the corrected level), the correction and the
 * threshold. `alpha` is "alpha" in text, "α =" in Markdown.
 */
static void method(FILE *f, const bl_judgement_set *s, const char *alpha)
{
    if (s->opts.metric != BL_JUDGE_TIME)
        fprintf(f, "judged on %s: ", bl_judge_metric_unit(s->opts.metric));
    if (!s->n_welch)
        fputs("Mann-Whitney U per benchmark", f);
    else if (s->n_welch == s->n_tested)
        fputs("Welch's t on log values per benchmark", f);
    else
        fprintf(f, "Welch's t on log values for %zu benchmark%s, Mann-Whitney U for the rest",
                s->n_welch, s->n_welch == 1 ? "" : "s");
    fprintf(f, ", %s over %zu benchmark%s at %s %g; changes under %g%% count as unchanged",
            correction_name(s->opts.correction), s->n_tested, s->n_tested == 1 ? "" : "s", alpha,
            s->opts.alpha, s->opts.threshold_pct);
}

/* Why Welch's t, how counts were judged, and what lacked the metric: a
 * line each, only when there is something to say. */
static void method_note(FILE *f, const bl_judgement_set *s)
{
    if (s->n_welch)
        fprintf(f,
                "note: with %zu/%zu values the U test's smallest p is %.2g, which cannot reach "
                "the %.2g the correction needs over %zu benchmarks: Welch's t decided instead "
                "(--count 10 or more gives the U test room)\n",
                s->welch_n_base, s->welch_n_new, s->welch_rank_min_p, s->level, s->n_tested);
    if (s->n_counts)
        fprintf(f,
                "note: %zu benchmark%s with one instruction count a side (the counters pass): "
                "judged on the ratio and the threshold alone, outside the family\n",
                s->n_counts, s->n_counts == 1 ? "" : "s");
    if (s->n_lacking)
        fprintf(f, "note: %zu benchmark%s lack %s on a side: not judged (unchanged)\n",
                s->n_lacking, s->n_lacking == 1 ? "" : "s", bl_judge_metric_unit(s->opts.metric));
}

/* What the summary line ends with: the gate's verdict (bl_judge_gate). */
static const char *gate_word(const bl_judgement_set *s, unsigned flags)
{
    int missing = s->n_missing && !(flags & BL_JUDGE_ALLOW_MISSING);
    if (s->n_slower + s->n_failed > s->n_acknowledged)
        return missing ? "REGRESSION, and benchmarks are missing" : "REGRESSION";
    if (s->n_acknowledged && !missing)
        return "no regression but the acknowledged";
    return missing ? "MISSING BENCHMARKS (--allow-missing passes them)"
                   : "no regression past the threshold";
}

/* The line that names the benchmarks of the baseline this run lacks:
 * a failure of the gate unless allowed. */
#define MISSING_FAILS "MISSING from this run (in the baseline; a lost shard or a crashed job?)"
#define MISSING_LISTED "missing (in the baseline only)"

/* Rows of the table: benchmarks compared, or failed; new and missing ones
 * are listed after it by name. */
static int in_table(const bl_judgement *j)
{
    return j->verdict != BL_VERDICT_NEW && j->verdict != BL_VERDICT_MISSING;
}

/* "new: A, B, C and 4 more" for the benchmarks of verdict v. */
static void list_names(FILE *f, const bl_judgement_set *s, enum bl_verdict v, const char *what,
                       int markdown)
{
    struct bl__buf safe = {0}, nm = {0};
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->items[i].verdict != v)
            continue;
        if (n == 0)
            fprintf(f, markdown ? "\n_%s:_ " : "%s: ", what);
        if (n < 12) {
            fputs(n ? ", " : "", f);
            if (markdown)
                bl__markdown_text(f, judged(&nm, &s->items[i]));
            else
                fputs(bl__terminal_safe(&safe, judged(&nm, &s->items[i])), f);
        }
        n++;
    }
    if (n > 12)
        fprintf(f, " and %zu more", n - 12);
    if (n)
        fputc('\n', f);
    bl__buf_fini(&safe);
    bl__buf_fini(&nm);
}

static int uses_batches(const bl_judgement_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        if ((s->items[i].n_base || s->items[i].n_new) && !s->items[i].launch_level)
            return 1;
    return 0;
}

/* A row of the text table: the cells, and the verdict of a regression in
 * capitals, easy to find in a CI log. v points into the row itself, and
 * the name into safe. */
struct text_row {
    struct cells c;
    char verdict[48];
    const char *v[8];
};

static void fill_text_row(const bl_judgement *j, enum bl_judge_metric m, struct text_row *r,
                          struct bl__buf *safe)
{
    fill_cells(j, m, &r->c);
    if (j->acknowledged)
        snprintf(r->verdict, sizeof r->verdict, "%s, acknowledged at %.7s",
                 bl_verdict_name(j->verdict), j->acknowledged);
    else
        snprintf(r->verdict, sizeof r->verdict, "%s", bl_verdict_name(j->verdict));
    if (regression(j))
        for (char *q = r->verdict; *q; q++)
            *q = (char)(*q - 'a' + 'A');
    struct bl__buf nm = {0};
    const char *v[8] = {bl__terminal_safe(safe, judged(&nm, j)),
                        r->c.base,
                        r->c.new_,
                        r->c.change,
                        r->c.ci,
                        r->c.p,
                        r->c.values,
                        r->verdict};
    memcpy(r->v, v, sizeof v);
    bl__buf_fini(&nm);
}

/* The text table goes to a terminal or a CI log: names and labels read
 * from files (a benchmark's name, a path, a stored run's tags) have their
 * control characters shown as \x1b (bl__terminal_safe), so that an OSC 52
 * clipboard write or a screen clear in a name is printed, not obeyed. */
static int write_text(FILE *f, const bl_judgement_set *s, const char *base_label,
                      const char *new_label, unsigned flags)
{
    struct bl__buf safe = {0};
    fprintf(f, "judging %s", bl__terminal_safe(&safe, new_label));
    fprintf(f, " against %s\n", bl__terminal_safe(&safe, base_label));
    method(f, s, "alpha");
    fputs("\n", f);
    method_note(f, s);
    fputs("\n", f);
    static const char *const head[] = {"benchmark", "base", "new",    "change",
                                       "95% CI",    "p",    "values", "verdict"};
    int w[8];
    for (int c = 0; c < 8; c++)
        w[c] = bl__text_width(head[c]);
    for (int pass = 0; pass < 2; pass++) { /* widths, then print */
        if (pass)
            for (int k = 0; k < 8; k++)
                cell(f, head[k], k == 7 ? 0 : w[k], k >= 1 && k <= 5, k == 7 ? "\n" : "  ");
        for (size_t i = 0; i < s->n; i++) {
            if (!in_table(&s->items[i]))
                continue;
            struct text_row r;
            fill_text_row(&s->items[i], s->opts.metric, &r, &safe);
            for (int k = 0; k < 8; k++) {
                if (pass)
                    cell(f, r.v[k], k == 7 ? 0 : w[k], k >= 1 && k <= 5, k == 7 ? "\n" : "  ");
                else if (bl__text_width(r.v[k]) > w[k])
                    w[k] = bl__text_width(r.v[k]);
            }
        }
    }
    if (uses_batches(s))
        fprintf(f,
                "\nbatches: fewer than %zu launches a side, so the batches of each launch were "
                "pooled;\nthey share one process's memory layout: use --count %zu or more for "
                "launch-level verdicts\n",
                s->opts.min_launches, s->opts.min_launches);
    fputc('\n', f);
    list_names(f, s, BL_VERDICT_NEW, "new (not in the baseline)", 0);
    list_names(f, s, BL_VERDICT_MISSING,
               flags & BL_JUDGE_ALLOW_MISSING ? MISSING_LISTED : MISSING_FAILS, 0);
    summary_line(f, s);
    fprintf(f, ": %s\n", gate_word(s, flags));
    bl__buf_fini(&safe);
    return ferror(f) ? -EIO : 0;
}

static int write_markdown(FILE *f, const bl_judgement_set *s, const char *base_label,
                          const char *new_label, unsigned flags)
{
    struct bl__buf nm = {0};
    int bad = bl_judge_gate(s, flags);
    fprintf(f, "### benchlab judge: %s", bad ? ":red_circle: " : ":white_check_mark: ");
    summary_line(f, s);
    fputs("\n\n", f);
    bl__markdown_text(f, new_label);
    fputs(" against ", f);
    bl__markdown_text(f, base_label);
    fputs(". ", f);
    method(f, s, "α =");
    fputs(".\n", f);
    if (s->n_welch || s->n_counts || s->n_lacking) { /* a paragraph of its own */
        fputs("\n", f);
        method_note(f, s);
    }
    fputs("\n", f);
    fputs("| benchmark | base | new | change | 95% CI | p | values | verdict |\n"
          "|:--|--:|--:|--:|:-:|--:|--:|:--|\n",
          f);
    for (size_t i = 0; i < s->n; i++) {
        const bl_judgement *j = &s->items[i];
        if (!in_table(j))
            continue;
        struct cells c;
        fill_cells(j, s->opts.metric, &c);
        fputs("| ", f);
        bl__markdown_text(f, judged(&nm, j));
        fprintf(f, " | %s | %s | %s | %s | %s | %s | ", c.base, c.new_, c.change, c.ci, c.p,
                c.values);
        if (j->acknowledged)
            fprintf(f, "%s, acknowledged at `%.7s` |\n", bl_verdict_name(j->verdict),
                    j->acknowledged);
        else if (regression(j))
            fprintf(f, "**%s** |\n", bl_verdict_name(j->verdict));
        else
            fprintf(f, "%s |\n", bl_verdict_name(j->verdict));
    }
    if (uses_batches(s))
        fprintf(f,
                "\n_batches: fewer than %zu launches a side, so each launch's batches were "
                "pooled; they share one process's memory layout (use `--count %zu` or more)._\n",
                s->opts.min_launches, s->opts.min_launches);
    list_names(f, s, BL_VERDICT_NEW, "new (not in the baseline)", 1);
    list_names(f, s, BL_VERDICT_MISSING,
               flags & BL_JUDGE_ALLOW_MISSING ? MISSING_LISTED : MISSING_FAILS, 1);
    bl__buf_fini(&nm);
    return ferror(f) ? -EIO : 0;
}

int bl_judge_write_text(FILE *f, const bl_judgement_set *s, const char *base_label,
                        const char *new_label)
{
    return write_text(f, s, base_label, new_label, BL_JUDGE_ALLOW_MISSING);
}

int bl_judge_write_markdown(FILE *f, const bl_judgement_set *s, const char *base_label,
                            const char *new_label)
{
    return write_markdown(f, s, base_label, new_label, BL_JUDGE_ALLOW_MISSING);
}

int bl_judge_write(FILE *f, const bl_judgement_set *s, const char *base_label,
                   const char *new_label, unsigned flags)
{
    return flags & BL_JUDGE_MARKDOWN ? write_markdown(f, s, base_label, new_label, flags)
                                     : write_text(f, s, base_label, new_label, flags);
}

/* "+12.3% [+10.1%, +14.5%], p=0.0012, 5/5 launches": a judgement's figures. */
static void github_figures(char *buf, size_t size, const bl_judgement *j)
{
    struct cells c;
    fill_cells(j, BL_JUDGE_TIME, &c);
    snprintf(buf, size, "%s %s, p%s%s, %s", c.change, c.ci, c.p[0] == '<' ? "" : "=", c.p,
             c.values);
}

int bl_judge_write_github(FILE *f, const bl_judgement_set *s, const char *base_label,
                          unsigned flags)
{
    struct bl__github_notes g = {0};
    struct bl__buf nm = {0};
    char fig[160], title[300];
    const char *metric =
        s->opts.metric == BL_JUDGE_TIME ? "" : bl_judge_metric_unit(s->opts.metric);
    for (size_t i = 0; i < s->n; i++) {
        const bl_judgement *j = &s->items[i];
        const char *name = judged(&nm, j);
        github_figures(fig, sizeof fig, j);
        if (j->acknowledged) {
            snprintf(title, sizeof title, "benchlab judge: %s %s, acknowledged", name,
                     bl_verdict_name(j->verdict));
            bl__github_note_add(&g, BL__GITHUB_WARNING, j->ratio, title,
                                "%s is %s against %s%s%s: %s; acknowledged at %.12s (benchlab "
                                "baseline acks), so it passes the gate",
                                name, bl_verdict_name(j->verdict), base_label,
                                *metric ? " in " : "", metric, fig, j->acknowledged);
        } else if (j->verdict == BL_VERDICT_SLOWER) {
            snprintf(title, sizeof title, "benchlab judge: %s slower", name);
            bl__github_note_add(&g, BL__GITHUB_ERROR, j->ratio, title,
                                "%s is slower than %s%s%s: %s, past the %g%% threshold", name,
                                base_label, *metric ? " in " : "", metric, fig,
                                s->opts.threshold_pct);
        } else if (j->verdict == BL_VERDICT_FAILED) {
            snprintf(title, sizeof title, "benchlab judge: %s failed", name);
            bl__github_note_add(&g, BL__GITHUB_ERROR, INFINITY, title,
                                "%s ran in %s and has no successful launch now", name, base_label);
        } else if (j->verdict == BL_VERDICT_MISSING) {
            int fails = !(flags & BL_JUDGE_ALLOW_MISSING);
            snprintf(title, sizeof title, "benchlab judge: %s missing", name);
            bl__github_note_add(&g, fails ? BL__GITHUB_ERROR : BL__GITHUB_WARNING, INFINITY, title,
                                "%s is in %s but not in this run%s", name, base_label,
                                fails ? " (a lost shard, a crashed job?): --allow-missing passes it"
                                      : "");
        } else if (j->verdict == BL_VERDICT_UNCHANGED && j->significant && j->ratio > 1) {
            snprintf(title, sizeof title, "benchlab judge: %s slower, under the threshold", name);
            bl__github_note_add(&g, BL__GITHUB_WARNING, j->ratio, title,
                                "%s is slower than %s%s%s: %s, under the %g%% threshold of the "
                                "gate",
                                name, base_label, *metric ? " in " : "", metric, fig,
                                s->opts.threshold_pct);
        }
    }
    bl__buf_fini(&nm);
    return bl__github_notes_write(f, &g, "regressions", "slowdowns under the threshold");
}
