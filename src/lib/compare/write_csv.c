/*
 * write_csv.c - the comparison tables as CSV (`compare -format csv`), as
 * benchstat writes them: encoding/csv quoting (bl__csv_field, which also
 * neutralises formula cells and shows control bytes as \x1b), the same
 * columns as the text table, and warnings on `warn` named by their
 * spreadsheet cell ("B3: ...").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

struct csvrec {
    char **f;
    size_t n, cap;
};

static void rec_add(struct csvrec *r, const char *s)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        char **nf = realloc(r->f, cap * sizeof *nf);
        if (!nf)
            return;
        r->f = nf;
        r->cap = cap;
    }
    r->f[r->n++] = strdup(s);
}

static void rec_clear_to(struct csvrec *r, size_t col)
{
    while (r->n < col)
        rec_add(r, "");
}

static void rec_emit(struct csvrec *r, FILE *f)
{
    for (size_t i = 0; i < r->n; i++) {
        if (i)
            fputc(',', f);
        bl__csv_field(f, r->f[i] ? r->f[i] : "");
    }
    fputc('\n', f);
    for (size_t i = 0; i < r->n; i++)
        free(r->f[i]);
    r->n = 0;
}

static size_t csv_start(size_t exp)
{
    return exp == 0 ? 1 : 1 + 2 + (exp - 1) * 4;
}

static void csv_warn(FILE *w, const struct csvrec *r, size_t rowno, const char **msgs, size_t n)
{
    char name[16];
    size_t pos = sizeof name - 1;
    name[pos] = '\0';
    for (size_t x = r->n; x > 0; x /= 26)
        name[--pos] = (char)('A' + x % 26);
    if (pos == sizeof name - 1)
        name[--pos] = 'A';
    /* a warning may name a key of an input file: for stderr, in the terminal form */
    struct bl__buf safe = {0};
    for (size_t i = 0; i < n; i++)
        fprintf(w, "%s%zu: %s\n", name + pos, rowno, bl__terminal_safe(&safe, msgs[i]));
    bl__buf_fini(&safe);
}

static size_t table_csv(bl_compare *c, const struct table *t, FILE *f, FILE *w, size_t start)
{
    struct csvrec r = {0};
    size_t count = 0, ncols = t->n_cols;
    char buf[600];
    const struct proj *cp = c->colp;
    for (size_t lv = 0; lv < cp->n_flat; lv++) {
        for (size_t k = 0; k < ncols; k++) {
            rec_clear_to(&r, csv_start(k));
            rec_add(&r, c->str.s[bl__key_get(cp, t->cols[k], cp->flat[lv])]);
        }
        rec_clear_to(&r, csv_start(ncols));
        rec_emit(&r, f);
        count++;
    }
    for (size_t k = 0; k < ncols; k++) {
        rec_clear_to(&r, csv_start(k));
        rec_add(&r, c->str.s[t->unit]);
        rec_add(&r, "CI");
        if (k > 0) {
            rec_add(&r, "vs base");
            rec_add(&r, "P");
        }
    }
    rec_emit(&r, f);
    count++;
    struct bl__buf lab = {0};
    for (size_t row = 0; row < t->n_rows; row++) {
        bl__key_label(c, c->rowp, t->rows[row], &lab);
        rec_add(&r, lab.data ? lab.data : "");
        for (size_t k = 0; k < ncols; k++) {
            const struct cell *cl = bl__cell_at(c, t, row, k);
            if (!cl)
                continue;
            rec_clear_to(&r, csv_start(k));
            csv_warn(w, &r, start + count, cl->warn, cl->n_warn);
            bl__go_fmt_g(buf, sizeof buf, cl->center);
            rec_add(&r, buf);
            bl__cell_range_str(cl, buf, sizeof buf);
            rec_add(&r, buf);
            if (k > 0 && cl->base >= 0) {
                csv_warn(w, &r, start + count, cl->cwarn, cl->n_cwarn);
                bl__cell_delta_str(cl, c->cells[cl->base].center, buf, sizeof buf);
                rec_add(&r, buf);
                bl__cell_pval_str(cl, buf, sizeof buf);
                rec_add(&r, buf);
            }
        }
        rec_emit(&r, f);
        count++;
    }
    bl__buf_fini(&lab);
    rec_add(&r, "geomean");
    for (size_t k = 0; k < ncols; k++) {
        const struct colsum *s = &t->sum[k];
        rec_clear_to(&r, csv_start(k));
        csv_warn(w, &r, start + count, s->warn, s->n_warn);
        if (s->has_summary) {
            bl__go_fmt_g(buf, sizeof buf, s->summary);
            rec_add(&r, buf);
        }
        if (k > 0) {
            rec_clear_to(&r, csv_start(k) + 2);
            if (s->has_ratio)
                bl__ratio_str(s->ratio, buf, sizeof buf);
            else
                snprintf(buf, sizeof buf, "?");
            rec_add(&r, buf);
        }
    }
    rec_clear_to(&r, csv_start(ncols));
    rec_emit(&r, f);
    count++;
    free(r.f);
    return count;
}

struct csvhdr {
    FILE *f;
    size_t *row;
};

static void csv_hdr(void *ctx, const char *line)
{
    struct csvhdr *h = ctx;
    struct csvrec r = {0};
    rec_add(&r, line);
    rec_emit(&r, h->f);
    free(r.f);
    (*h->row)++;
}

int bl_compare_write_csv(bl_compare *c, FILE *f, FILE *warn)
{
    size_t row = 1;
    struct csvhdr h = {f, &row};
    for (size_t i = 0; i < c->n_tables; i++) {
        if (i > 0)
            csv_hdr(&h, "");
        bl__table_headers(c, i, csv_hdr, &h);
        row += table_csv(c, &c->tables[i], f, warn, row);
    }
    return ferror(f) ? -EIO : 0;
}
