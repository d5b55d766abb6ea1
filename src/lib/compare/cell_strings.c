/*
 * cell_strings.c - what the writers show of a comparison table, shared by
 * write_text.c, write_csv.c, write_markdown.c, write_json.c, gate.c and
 * write_notes.c: benchstat's strings of a cell (its interval as a range,
 * its change against the base column, its p-value and sample sizes, a
 * geomean ratio; Go's number formatting, so that text and CSV stay
 * benchstat's byte for byte), a key's label and the table-key header
 * lines. Strings only; each writer escapes them for its destination.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

void bl__cell_range_str(const struct cell *cl, char *out, size_t size)
{
    if (isinf(cl->lo) || isinf(cl->hi)) {
        snprintf(out, size, "\xe2\x88\x9e");
        return;
    }
#define SIGN(x) ((x) > 0 ? 1 : (x) < 0 ? -1 : 0)
    int cs = SIGN(cl->center);
    if (cs != SIGN(cl->lo) || cs != SIGN(cl->hi)) {
        snprintf(out, size, "?");
        return;
    }
#undef SIGN
    if (cl->center == 0) {
        snprintf(out, size, "0%%");
        return;
    }
    double v = fmax(cl->hi / cl->center - 1, 1 - cl->lo / cl->center);
    char num[400];
    bl__go_fmt_f(num, sizeof num, 0, 100 * v, 0);
    snprintf(out, size, "%s%%", num);
}

void bl__cell_delta_str(const struct cell *cl, double old, char *out, size_t size)
{
    double nw = cl->center;
    if (cl->p > cl->alpha) {
        snprintf(out, size, "~");
    } else if (old == nw) {
        snprintf(out, size, "0.00%%");
    } else if (old == 0) {
        snprintf(out, size, "?");
    } else {
        char num[400];
        bl__go_fmt_f(num, sizeof num, 2, ((nw / old) - 1.0) * 100.0, 1);
        snprintf(out, size, "%s%%", num);
    }
}

void bl__cell_pval_str(const struct cell *cl, char *out, size_t size)
{
    char p[420] = "";
    if (cl->p != 0) {
        char num[400];
        bl__go_fmt_f(num, sizeof num, 3, cl->p, 0);
        snprintf(p, sizeof p, "p=%s ", num);
    }
    if (cl->n1 == cl->n2)
        snprintf(out, size, "%sn=%zu", p, cl->n1);
    else
        snprintf(out, size, "%sn=%zu+%zu", p, cl->n1, cl->n2);
}

void bl__ratio_str(double ratio, char *out, size_t size)
{
    char num[400];
    bl__go_fmt_f(num, sizeof num, 2, (ratio - 1) * 100, 1);
    snprintf(out, size, "%s%%", num);
}

void bl__key_label(const bl_compare *c, const struct proj *p, uint32_t key, struct bl__buf *b)
{
    b->len = 0;
    bl__buf_append(b, "", 0);
    int first = 1;
    size_t pos = 0;
    for (const struct field *f; (f = bl__key_diff(p, key, BL__KEY_EMPTY, &pos)); pos++) {
        uint32_t v = bl__key_get(p, key, f);
        if (!first)
            bl__buf_append(b, " ", 1);
        bl__buf_append(b, c->str.s[v], c->str.len[v]);
        first = 0;
    }
}

const struct cell *bl__cell_at(const bl_compare *c, const struct table *t, size_t r, size_t k)
{
    long i = bl__cell_find(c, t->key, t->rows[r], t->cols[k]);
    return i < 0 ? NULL : &c->cells[i];
}

void bl__table_fields(bl_compare *c, size_t ti, bl__field_fn fn, void *ctx)
{
    const struct proj *p = c->tablep;
    /* after the first table, only the fields that differ from the previous
     * table's: found through the keys, not by walking every field */
    size_t pos = 0;
    for (const struct field *fl;
         (fl = ti == 0 ? (pos < p->n_flat ? p->flat[pos] : NULL)
                       : bl__key_diff(p, c->tables[ti].key, c->tables[ti - 1].key, &pos));
         pos++) {
        if (fl->kind == FK_UNIT)
            continue;
        fn(ctx, fl->name, c->str.s[bl__key_get(p, c->tables[ti].key, fl)]);
    }
}

struct header_line {
    bl__header_fn fn;
    void *ctx;
};

static void header_line(void *ctx, const char *name, const char *value)
{
    const struct header_line *h = ctx;
    struct bl__buf b = {0};
    bl__buf_printf(&b, "%s: %s", name, value);
    h->fn(h->ctx, b.data ? b.data : "");
    bl__buf_fini(&b);
}

void bl__table_headers(bl_compare *c, size_t ti, bl__header_fn fn, void *ctx)
{
    struct header_line h = {fn, ctx};
    bl__table_fields(c, ti, header_line, &h);
}
