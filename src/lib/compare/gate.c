/*
 * gate.c - the CI gate of `benchlab compare` (-gate): every comparison of
 * every table with its base column is one hypothesis, in the family of its
 * unit; after the multiple-comparison correction (bl_multiple_reject, stats/correction.c)
 * a comparison that is significant and worse than the threshold, in the
 * unit's better direction, is a regression, described on the report
 * stream. Where the sample sizes leave the U test's smallest p above the
 * level the correction needs first (5 values a side give 0.0079; Holm
 * over 12 comparisons needs 0.0042), the gate decides that comparison
 * with Welch's t on log values instead (stats/gatetest.c), as judge does,
 * and says so: chosen by the sample and family sizes alone, never by the
 * data. The tables keep benchstat's U-test p, byte for byte.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format/github.h"
#include "benchlab/stats.h"
#include "compare_int.h"

struct cmpref {
    size_t table, row, col;
    const struct cell *cell;
    double p;
    int reject;
    size_t family; /* the comparisons of its unit, it among them */
    int welch;     /* p is Welch's t on log values: the U test could not reach the level */
};

/* Welch's t on the logs of two cells' values: its p, or NAN (a value
 * that is not positive, fewer than two a side). */
static double welch_p(const struct cell *a, const struct cell *b)
{
    if (a->n < 2 || b->n < 2)
        return NAN;
    double *x = malloc((a->n + b->n) * sizeof *x);
    if (!x)
        return NAN;
    int ok = 1;
    for (uint32_t i = 0; i < a->n; i++)
        ok &= a->vals[i] > 0, x[i] = log(a->vals[i]);
    for (uint32_t i = 0; i < b->n; i++)
        ok &= b->vals[i] > 0, x[a->n + i] = log(b->vals[i]);
    double p = NAN;
    if (!ok || bl_stats_welch(x, a->n, x + a->n, b->n, &p, NULL, NULL) != 0)
        p = NAN;
    free(x);
    return p;
}

/* The better direction of a unit (Unit metadata, then "/s" rates
 * are higher-is-better). */
static int unit_higher_is_better(const bl_compare *c, const char *unit)
{
    const char *b = bl__unit_meta(c, unit, "better");
    if (b && strcmp(b, "higher") == 0)
        return 1;
    if (b && strcmp(b, "lower") == 0)
        return 0;
    size_t n = strlen(unit);
    return strcmp(unit, "B/s") == 0 || strcmp(unit, "MB/s") == 0 ||
           (n >= 2 && strcmp(unit + n - 2, "/s") == 0);
}

int bl_compare_gate(bl_compare *c, double threshold_pct, enum bl_correction corr, FILE *report)
{
    return bl_compare_gate_github(c, threshold_pct, corr, report, NULL);
}

int bl_compare_gate_github(bl_compare *c, double threshold_pct, enum bl_correction corr,
                           FILE *report, FILE *github)
{
    size_t n = 0, cap = 0;
    struct cmpref *refs = NULL;
    for (size_t ti = 0; ti < c->n_tables; ti++) {
        const struct table *t = &c->tables[ti];
        for (size_t r = 0; r < t->n_rows; r++)
            for (size_t k = 1; k < t->n_cols; k++) {
                long ci = bl__cell_find(c, t->key, t->rows[r], t->cols[k]);
                if (ci < 0 || c->cells[ci].base < 0)
                    continue;
                if (bl__grow((void **)&refs, &cap, n + 1, sizeof *refs)) {
                    free(refs);
                    return -ENOMEM;
                }
                refs[n].table = ti;
                refs[n].row = r;
                refs[n].col = k;
                refs[n].cell = &c->cells[ci];
                refs[n].p = c->cells[ci].p;
                refs[n].reject = 0;
                refs[n].welch = 0;
                n++;
            }
    }
    /* One family per unit: a gate on sec/op is not made blind by the B/op,
     * allocs/op and cpu-sec/op comparisons of the same benchmarks (most
     * of them the same measurement seen again); within a unit, every row
     * of every table against the baseline. */
    double *ps = malloc((n ? n : 1) * sizeof *ps);
    unsigned char *rej = malloc(n ? n : 1);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!ps || !rej || !idx) {
        free(ps);
        free(rej);
        free(idx);
        free(refs);
        return -ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        refs[i].family = 0;
    for (size_t i = 0; i < n; i++) {
        if (refs[i].family)
            continue;
        size_t unit = c->tables[refs[i].table].unit, m = 0;
        for (size_t k = i; k < n; k++)
            if (!refs[k].family && c->tables[refs[k].table].unit == unit) {
                idx[m] = k;
                ps[m++] = refs[k].p;
            }
        /* where the rank test has no room at this family size: Welch */
        double level = bl_correction_first_level(c->opts.alpha, m, corr);
        for (size_t k = 0; k < m; k++) {
            struct cmpref *x = &refs[idx[k]];
            const struct cell *base = &c->cells[x->cell->base];
            if (!(bl_stats_utest_min_p(base->n, x->cell->n) > level))
                continue;
            double wp = welch_p(base, x->cell);
            if (!isnan(wp)) {
                ps[k] = x->p = wp;
                x->welch = 1;
            }
        }
        int rc = bl_multiple_reject(ps, m, c->opts.alpha, corr, rej);
        for (size_t k = 0; k < m; k++) {
            refs[idx[k]].reject = rc == 0 && rej[k];
            refs[idx[k]].family = m;
        }
    }
    free(ps);
    free(rej);
    free(idx);
    int count = 0;
    struct bl__buf row = {0}, col = {0}, lab = {0}, unit = {0};
    struct bl__github_notes gh = {0};
    static const char *const cname[] = {"none", "holm", "bh"};
    for (size_t i = 0; i < n; i++) {
        const struct cmpref *x = &refs[i];
        if (!x->reject)
            continue;
        const struct table *t = &c->tables[x->table];
        double old = c->cells[x->cell->base].center, nw = x->cell->center;
        if (old == 0 || old == nw)
            continue;
        double pct = (nw / old - 1) * 100;
        int higher = unit_higher_is_better(c, c->str.s[t->unit]);
        double worse = higher ? -pct : pct;
        if (github && worse > 0) {
            /* the annotations: a regression past the threshold, or a
             * significant change for the worse under it */
            bl__key_label(c, c->rowp, t->rows[x->row], &lab);
            bl__buf_fini(&row);
            bl__buf_puts(&row, lab.data);
            bl__key_label(c, c->colp, t->cols[x->col], &lab);
            int past = worse > threshold_pct;
            char title[300];
            snprintf(title, sizeof title, "benchlab compare: %s %s %s", row.data,
                     past ? "worse" : "worse, under the threshold", c->str.s[t->unit]);
            bl__github_note_add(&gh, past ? BL__GITHUB_ERROR : BL__GITHUB_WARNING, worse, title,
                                "%s %s: %+.2f%% vs %s (p=%.3g%s, %s correction over %zu %s "
                                "comparisons), %s the %g%% threshold",
                                row.data, c->str.s[t->unit], pct, lab.data, x->p,
                                x->welch ? " by Welch's t" : "", cname[corr], x->family,
                                c->str.s[t->unit], past ? "past" : "under", threshold_pct);
        }
        if (!(worse > threshold_pct))
            continue;
        count++;
        if (report) {
            /* names and units come from input files: shown, never sent to a terminal */
            bl__key_label(c, c->rowp, t->rows[x->row], &lab);
            bl__terminal_safe(&row, lab.data);
            bl__key_label(c, c->colp, t->cols[x->col], &lab);
            bl__terminal_safe(&col, lab.data);
            fprintf(report,
                    "benchlab: regression: %s %s: %+.2f%% vs %s (p=%.3g%s, %s correction over %zu "
                    "%s comparisons, threshold %g%%)\n",
                    row.data, bl__terminal_safe(&lab, c->str.s[t->unit]), pct, col.data, x->p,
                    x->welch ? " by Welch's t on log values: the U test cannot reach the level "
                               "with so few values"
                             : "",
                    cname[corr], x->family, bl__terminal_safe(&unit, c->str.s[t->unit]),
                    threshold_pct);
        }
    }
    bl__buf_fini(&row);
    bl__buf_fini(&col);
    bl__buf_fini(&lab);
    bl__buf_fini(&unit);
    free(refs);
    if (github)
        bl__github_notes_write(github, &gh, "regressions", "changes for the worse");
    return count;
}
