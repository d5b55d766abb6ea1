/*
 * write_markdown.c - the comparison tables as Markdown (`compare -format
 * markdown`), for a pull request or a wiki: one GitHub table per table,
 * its configuration in bold above it (as the text table's header: every
 * key above the first table, then only those that changed), every name and value through
 * bl__markdown_text (no markup, no HTML).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

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

struct md_field {
    FILE *f;
    int any;
};

static void md_field(void *ctx, const char *name, const char *value)
{
    struct md_field *mf = ctx;
    fprintf(mf->f, "%s**", mf->any ? ", " : "");
    bl__markdown_text(mf->f, name);
    fputs(":** ", mf->f);
    bl__markdown_text(mf->f, value);
    mf->any = 1;
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
        struct md_field mf = {f, 0};
        bl__table_fields(c, ti, md_field, &mf);
        if (mf.any)
            fputs("\n\n", f);
        fputs("| ", f);
        bl__markdown_text(f, c->str.s[t->unit]);
        fputs(" |", f);
        for (size_t k = 0; k < t->n_cols; k++) {
            bl__key_label(c, c->colp, t->cols[k], &b);
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
            bl__key_label(c, c->rowp, t->rows[r], &b);
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
