/*
 * compare_extra.c - what benchlab adds to benchstat: Markdown and JSON
 * renderings of the comparison tables, and the CI gate with a correction
 * for multiple comparisons.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"

static void label(const bl_compare *c, const struct proj *p, uint32_t key, struct bl__buf *b)
{
    b->len = 0;
    bl__buf_append(b, "", 0);
    int first = 1;
    for (size_t i = 0; i < p->n_flat; i++) {
        uint32_t v = bl__key_get(p, key, p->flat[i]);
        if (!v)
            continue;
        if (!first)
            bl__buf_append(b, " ", 1);
        bl__buf_append(b, c->str.s[v], c->str.len[v]);
        first = 0;
    }
}

/* The strings the text table shows, for one cell. */
static void cell_strings(const bl_compare *c, const struct table *t, size_t r, size_t k,
                         char *center, char *range, char *delta, char *pv, size_t size)
{
    long ci = bl__cell_find(c, t->key, t->rows[r], t->cols[k]);
    center[0] = range[0] = delta[0] = pv[0] = '\0';
    if (ci < 0)
        return;
    const struct cell *cl = &c->cells[ci];
    double centers[256];
    size_t n = 0;
    for (size_t j = 0; j < t->n_cols && n < 256; j++) {
        long x = bl__cell_find(c, t->key, t->rows[r], t->cols[j]);
        if (x >= 0)
            centers[n++] = c->cells[x].center;
    }
    struct bl__scaler sc;
    bl__common_scale(centers, n, t->binary, &sc);
    bl__scaler_format(&sc, cl->center, center, size);
    if (isinf(cl->lo) || isinf(cl->hi)) {
        snprintf(range, size, "\xe2\x88\x9e");
    } else if (cl->center == 0) {
        snprintf(range, size, "0%%");
    } else {
        double v = fmax(cl->hi / cl->center - 1, 1 - cl->lo / cl->center);
        if (!(v >= 0) || (cl->lo < 0) != (cl->center < 0) || (cl->hi < 0) != (cl->center < 0))
            snprintf(range, size, "?");
        else
            snprintf(range, size, "%.0f%%", 100 * v);
    }
    if (k > 0 && cl->base >= 0) {
        double old = c->cells[cl->base].center;
        if (cl->p > cl->alpha)
            snprintf(delta, size, "~");
        else if (old == cl->center)
            snprintf(delta, size, "0.00%%");
        else if (old == 0)
            snprintf(delta, size, "?");
        else
            snprintf(delta, size, "%+.2f%%", (cl->center / old - 1) * 100);
        if (cl->p != 0)
            snprintf(pv, size, "p=%.3f n=%zu", cl->p, cl->n1);
        else
            snprintf(pv, size, "n=%zu", cl->n1);
        if (cl->n1 != cl->n2) {
            char tmp[64];
            snprintf(tmp, sizeof tmp, "n=%zu+%zu", cl->n1, cl->n2);
            if (cl->p != 0)
                snprintf(pv, size, "p=%.3f %s", cl->p, tmp);
            else
                snprintf(pv, size, "%s", tmp);
        }
    }
}

int bl_compare_write_markdown(bl_compare *c, FILE *f)
{
    struct bl__buf b = {0};
    /* cell_strings writes up to `size` bytes into each of the four */
    char center[600], range[600], delta[600], pv[600];
    for (size_t ti = 0; ti < c->n_tables; ti++) {
        const struct table *t = &c->tables[ti];
        if (ti > 0)
            fputc('\n', f);
        int any = 0;
        for (size_t i = 0; i < c->tablep->n_flat; i++) {
            const struct field *fl = c->tablep->flat[i];
            if (fl->kind == FK_UNIT)
                continue;
            uint32_t v = bl__key_get(c->tablep, t->key, fl);
            fprintf(f, "%s**", any ? ", " : "");
            bl__markdown_text(f, fl->name);
            fputs(":** ", f);
            bl__markdown_text(f, c->str.s[v]);
            any = 1;
        }
        if (any)
            fputs("\n\n", f);
        fputs("| ", f);
        bl__markdown_text(f, c->str.s[t->unit]);
        fputs(" |", f);
        for (size_t k = 0; k < t->n_cols; k++) {
            label(c, c->colp, t->cols[k], &b);
            fputc(' ', f);
            bl__markdown_text(f, b.data);
            fputs(" |", f);
            if (k > 0)
                fputs(" vs base | p |", f);
        }
        fputs("\n|---|", f);
        for (size_t k = 0; k < t->n_cols; k++)
            fputs(k > 0 ? "---:|---:|---|" : "---:|", f);
        fputc('\n', f);
        for (size_t r = 0; r < t->n_rows; r++) {
            label(c, c->rowp, t->rows[r], &b);
            fputs("| ", f);
            bl__markdown_text(f, b.data);
            fputs(" |", f);
            for (size_t k = 0; k < t->n_cols; k++) {
                cell_strings(c, t, r, k, center, range, delta, pv, sizeof center);
                if (center[0])
                    fprintf(f, " %s \xc2\xb1 %s |", center, range);
                else
                    fputs("  |", f);
                if (k > 0)
                    fprintf(f, " %s | %s |", delta, pv);
            }
            fputc('\n', f);
        }
        if (t->n_rows > 1) {
            fputs("| geomean |", f);
            for (size_t k = 0; k < t->n_cols; k++) {
                const struct colsum *s = &t->sum[k];
                if (s->has_summary) {
                    struct bl__scaler sc;
                    bl__common_scale(&s->summary, 1, t->binary, &sc);
                    bl__scaler_format(&sc, s->summary, center, sizeof center);
                    fprintf(f, " %s |", center);
                } else {
                    fputs("  |", f);
                }
                if (k > 0) {
                    if (s->has_ratio)
                        fprintf(f, " %+.2f%% |  |", (s->ratio - 1) * 100);
                    else
                        fputs(" ? |  |", f);
                }
            }
            fputc('\n', f);
        }
    }
    bl__buf_fini(&b);
    return ferror(f) ? -EIO : 0;
}

static void json_warns(FILE *f, const char **w, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        bl__json_string(f, w[i]);
    }
    fputc(']', f);
}

int bl_compare_write_json(bl_compare *c, FILE *f)
{
    struct bl__buf b = {0};
    fputs("{\"schema\":\"benchlab-compare/1\",", f);
    fputs("\"alpha\":", f);
    bl__json_number(f, c->opts.alpha);
    fputs(",\"confidence\":", f);
    bl__json_number(f, c->opts.confidence);
    fputs(",\"tables\":[", f);
    for (size_t ti = 0; ti < c->n_tables; ti++) {
        const struct table *t = &c->tables[ti];
        fputs(ti ? ",\n{" : "\n{", f);
        fputs("\"config\":{", f);
        int any = 0;
        for (size_t i = 0; i < c->tablep->n_flat; i++) {
            const struct field *fl = c->tablep->flat[i];
            if (fl->kind == FK_UNIT)
                continue;
            if (any)
                fputc(',', f);
            bl__json_string(f, fl->name);
            fputc(':', f);
            bl__json_string(f, c->str.s[bl__key_get(c->tablep, t->key, fl)]);
            any = 1;
        }
        fputs("},\"unit\":", f);
        bl__json_string(f, c->str.s[t->unit]);
        fputs(",\"assume\":", f);
        bl__json_string(f, t->exact ? "exact" : "nothing");
        fputs(",\"columns\":[", f);
        for (size_t k = 0; k < t->n_cols; k++) {
            label(c, c->colp, t->cols[k], &b);
            if (k)
                fputc(',', f);
            bl__json_string(f, b.data);
        }
        fputs("],\"rows\":[", f);
        for (size_t r = 0; r < t->n_rows; r++) {
            label(c, c->rowp, t->rows[r], &b);
            fputs(r ? ",\n{" : "\n{", f);
            fputs("\"name\":", f);
            bl__json_string(f, b.data);
            fputs(",\"cells\":[", f);
            for (size_t k = 0; k < t->n_cols; k++) {
                long ci = bl__cell_find(c, t->key, t->rows[r], t->cols[k]);
                if (k)
                    fputc(',', f);
                if (ci < 0) {
                    fputs("null", f);
                    continue;
                }
                const struct cell *cl = &c->cells[ci];
                fputs("{\"n\":", f);
                fprintf(f, "%zu", (size_t)cl->n);
                fputs(",\"center\":", f);
                bl__json_number(f, cl->center);
                fputs(",\"lo\":", f);
                bl__json_number(f, cl->lo);
                fputs(",\"hi\":", f);
                bl__json_number(f, cl->hi);
                fputs(",\"warnings\":", f);
                json_warns(f, cl->warn, cl->n_warn);
                if (k > 0 && cl->base >= 0) {
                    double old = c->cells[cl->base].center;
                    fputs(",\"vs_base\":{\"p\":", f);
                    bl__json_number(f, cl->p);
                    fputs(",\"significant\":", f);
                    fputs(cl->p <= cl->alpha ? "true" : "false", f);
                    fputs(",\"ratio\":", f);
                    bl__json_number(f, old == cl->center ? 1 : old == 0 ? NAN : cl->center / old);
                    fprintf(f, ",\"n_base\":%zu,\"n\":%zu,\"warnings\":", cl->n1, cl->n2);
                    json_warns(f, cl->cwarn, cl->n_cwarn);
                    fputc('}', f);
                }
                fputc('}', f);
            }
            fputs("]}", f);
        }
        fputs("],\"geomean\":[", f);
        for (size_t k = 0; k < t->n_cols; k++) {
            const struct colsum *s = &t->sum[k];
            if (k)
                fputc(',', f);
            fputs("{\"value\":", f);
            bl__json_number(f, s->has_summary ? s->summary : NAN);
            fputs(",\"ratio\":", f);
            bl__json_number(f, s->has_ratio ? s->ratio : NAN);
            fputs(",\"warnings\":", f);
            json_warns(f, s->warn, s->n_warn);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    bl__buf_fini(&b);
    return ferror(f) ? -EIO : 0;
}

/* ---- the gate ---- */

struct cmpref {
    size_t table, row, col;
    const struct cell *cell;
    double p;
    int reject;
};

struct pidx {
    double p;
    size_t i;
};

static int by_pidx(const void *a, const void *b)
{
    const struct pidx *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

int bl_multiple_reject(const double *p, size_t n, double alpha, enum bl_correction correction,
                       unsigned char *reject)
{
    struct pidx *o = malloc((n ? n : 1) * sizeof *o);
    if (!o)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        o[i].p = isnan(p[i]) ? 1 : p[i];
        o[i].i = i;
        reject[i] = 0;
    }
    qsort(o, n, sizeof *o, by_pidx);
    if (correction == BL_CORRECTION_HOLM) {
        /* step down: the i-th smallest (0-based) against alpha / (n - i) */
        for (size_t i = 0; i < n && o[i].p <= alpha / (double)(n - i); i++)
            reject[o[i].i] = 1;
    } else if (correction == BL_CORRECTION_BH) {
        /* step up: the largest k with p_(k) <= k * alpha / n, and all below */
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (o[i].p <= alpha * (double)(i + 1) / (double)n)
                k = i + 1;
        for (size_t i = 0; i < k; i++)
            reject[o[i].i] = 1;
    } else {
        for (size_t i = 0; i < n; i++)
            reject[o[i].i] = o[i].p <= alpha;
    }
    free(o);
    return 0;
}

int bl__unit_higher_is_better(const bl_compare *c, const char *unit)
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
                n++;
            }
    }
    double *ps = malloc((n ? n : 1) * sizeof *ps);
    unsigned char *rej = malloc(n ? n : 1);
    if (!ps || !rej) {
        free(ps);
        free(rej);
        free(refs);
        return -ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        ps[i] = refs[i].p;
    int rc = bl_multiple_reject(ps, n, c->opts.alpha, corr, rej);
    for (size_t i = 0; i < n; i++)
        refs[i].reject = rc == 0 && rej[i];
    free(ps);
    free(rej);
    int count = 0;
    struct bl__buf row = {0}, col = {0};
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
        int higher = bl__unit_higher_is_better(c, c->str.s[t->unit]);
        double worse = higher ? -pct : pct;
        if (!(worse > threshold_pct))
            continue;
        count++;
        if (report) {
            label(c, c->rowp, t->rows[x->row], &row);
            label(c, c->colp, t->cols[x->col], &col);
            fprintf(report,
                    "benchlab: regression: %s %s: %+.2f%% vs %s (p=%.3g, %s correction over %zu "
                    "comparisons, threshold %g%%)\n",
                    row.data, c->str.s[t->unit], pct, col.data, x->p, cname[corr], n,
                    threshold_pct);
        }
    }
    bl__buf_fini(&row);
    bl__buf_fini(&col);
    free(refs);
    return count;
}

/* ---- notes: what benchstat leaves unsaid ---- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* 1 when the sorted arrays a[0..na) and b[0..nb) share a value. */
static int sorted_meet(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i] == b[j])
            return 1;
        if (a[i] < b[j])
            i++;
        else
            j++;
    }
    return 0;
}

/*
 * The one .config key in which tables a and b differ, or NULL when they
 * differ in none, in several, or in anything that is not a key of the
 * .config group (a field named in -table: ignoring it is not the fix).
 */
static const struct field *only_config_difference(const bl_compare *c, const struct table *a,
                                                  const struct table *b)
{
    const struct proj *p = c->tablep;
    const struct field *diff = NULL;
    for (size_t i = 0; i < p->n_top; i++) {
        const struct field *f = p->top[i];
        if (f == p->unit_field)
            continue;
        if (f->kind != FK_GROUP) {
            if (bl__key_get(p, a->key, f) != bl__key_get(p, b->key, f))
                return NULL;
            continue;
        }
        for (size_t j = 0; j < f->n_subs; j++) {
            if (bl__key_get(p, a->key, f->subs[j]) == bl__key_get(p, b->key, f->subs[j]))
                continue;
            if (diff)
                return NULL;
            diff = f->subs[j];
        }
    }
    return diff;
}

static void put_quoted(FILE *out, const bl_compare *c, uint32_t v)
{
    if (v)
        fprintf(out, "\"%s\"", c->str.s[v]);
    else
        fputs("none", out);
}

static void put_columns(FILE *out, const bl_compare *c, const struct table *t, struct bl__buf *b)
{
    for (size_t k = 0; k < t->n_cols; k++) {
        label(c, c->colp, t->cols[k], b);
        fprintf(out, "%s%s", k ? ", " : "", b->data ? b->data : "");
    }
}

/* Tables beyond this many are not searched for pairs (the search is
 * quadratic; a note is a courtesy, not worth minutes on huge inputs). */
#define NOTE_MAX_TABLES 4096

int bl_compare_write_notes(bl_compare *c, FILE *out)
{
    if (!c->finished || c->n_tables < 2 || c->n_tables > NOTE_MAX_TABLES)
        return 0;
    size_t nt = c->n_tables;
    /* per table, its rows and columns sorted, to test for overlap */
    uint32_t **rows = calloc(nt, sizeof *rows), **cols = calloc(nt, sizeof *cols);
    struct said {
        const struct field *f;
        uint32_t va, vb;
    } *said = NULL;
    size_t n_said = 0, cap_said = 0;
    struct bl__buf b = {0};
    int rc = rows && cols ? 0 : -ENOMEM;
    for (size_t i = 0; i < nt && !rc; i++) {
        const struct table *t = &c->tables[i];
        rows[i] = malloc((t->n_rows ? t->n_rows : 1) * sizeof **rows);
        cols[i] = malloc((t->n_cols ? t->n_cols : 1) * sizeof **cols);
        if (!rows[i] || !cols[i]) {
            rc = -ENOMEM;
            break;
        }
        memcpy(rows[i], t->rows, t->n_rows * sizeof **rows);
        memcpy(cols[i], t->cols, t->n_cols * sizeof **cols);
        qsort(rows[i], t->n_rows, sizeof **rows, cmp_u32);
        qsort(cols[i], t->n_cols, sizeof **cols, cmp_u32);
    }
    for (size_t i = 0; i < nt && !rc; i++) {
        const struct table *ta = &c->tables[i];
        for (size_t j = i + 1; j < nt && !rc; j++) {
            const struct table *tb = &c->tables[j];
            /* the same unit, the same benchmarks, but no input in common:
             * one key keeps apart what would otherwise be compared */
            if (ta->unit != tb->unit || sorted_meet(cols[i], ta->n_cols, cols[j], tb->n_cols) ||
                !sorted_meet(rows[i], ta->n_rows, rows[j], tb->n_rows))
                continue;
            const struct field *f = only_config_difference(c, ta, tb);
            if (!f)
                continue;
            uint32_t va = bl__key_get(c->tablep, ta->key, f);
            uint32_t vb = bl__key_get(c->tablep, tb->key, f);
            int dup = 0;
            for (size_t k = 0; k < n_said && !dup; k++)
                dup = said[k].f == f && said[k].va == va && said[k].vb == vb;
            if (dup)
                continue;
            if (bl__grow((void **)&said, &cap_said, n_said + 1, sizeof *said)) {
                rc = -ENOMEM;
                break;
            }
            said[n_said++] = (struct said){f, va, vb};
            fputs("benchlab compare: note: ", out);
            put_columns(out, c, ta, &b);
            fputs(" and ", out);
            put_columns(out, c, tb, &b);
            fprintf(out, " differ only in %s (", f->name);
            put_quoted(out, c, va);
            fputs(" and ", out);
            put_quoted(out, c, vb);
            fprintf(out,
                    "), so they are in separate tables and not compared; -ignore %s compares "
                    "them\n",
                    f->name);
        }
    }
    for (size_t i = 0; i < nt; i++) {
        if (rows)
            free(rows[i]);
        if (cols)
            free(cols[i]);
    }
    free(rows);
    free(cols);
    free(said);
    bl__buf_fini(&b);
    if (!rc && ferror(out))
        rc = -EIO;
    return rc;
}
