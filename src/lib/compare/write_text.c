/*
 * write_text.c - benchstat's text tables (`benchlab compare`'s default
 * output): a port of its texttab layout rules (spans, shrink columns,
 * right-aligned margins, widths in runes), footnotes for warnings, and
 * benchlab's optional interval plots (-plots). Everything shown comes from
 * an input file: it goes through the terminal form (bl__terminal_safe), so
 * no name can send a control sequence to the terminal.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

static size_t runelen(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void superscript(char *out, size_t size, size_t i)
{
    static const char *const d[10] = {
        "\xe2\x81\xb0", "\xc2\xb9",     "\xc2\xb2",     "\xc2\xb3",     "\xe2\x81\xb4",
        "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9"};
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%zu", i);
    out[0] = '\0';
    size_t o = 0;
    for (int k = 0; k < n; k++) {
        const char *s = d[digits[k] - '0'];
        size_t l = strlen(s);
        if (o + l + 1 > size)
            break;
        memcpy(out + o, s, l);
        o += l;
        out[o] = '\0';
    }
}

/* ---- texttab ---- */

enum { AL_LEFT, AL_CENTER, AL_RIGHT };

struct tcell {
    size_t row, col, span;
    size_t value; /* offset in ttab.text */
    size_t vlen;  /* runes */
    const char *margin;
    int align;
    size_t seq;
};

struct ttab {
    struct bl__buf text; /* every cell's text, NUL-separated */
    struct tcell *cells;
    size_t n, cap;
    size_t cols;
    unsigned char *shrink;
    size_t n_shrink;
    size_t cur_row, cur_col;
    int oom;
};

static void tt_row(struct ttab *t)
{
    if (t->n > 0)
        t->cur_row++;
    t->cur_col = 0;
}

static void tt_col(struct ttab *t, size_t col)
{
    t->cur_col = col;
}

static void tt_span(struct ttab *t, size_t span, const char *value, int align, const char *margin)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct tcell *nc = realloc(t->cells, cap * sizeof *nc);
        if (!nc) {
            t->oom = 1;
            return;
        }
        t->cells = nc;
        t->cap = cap;
    }
    /* names come from input files: control characters shown, never sent to a terminal */
    struct bl__buf safe = {0};
    value = bl__terminal_safe(&safe, value);
    struct tcell *c = &t->cells[t->n];
    c->row = t->cur_row;
    c->col = t->cur_col;
    c->span = span;
    c->value = t->text.len;
    c->vlen = runelen(value);
    int oom = bl__buf_append(&t->text, value, strlen(value) + 1);
    c->margin = margin ? margin : (t->cur_col == 0 || value[0] == '\0') ? "" : " ";
    bl__buf_fini(&safe);
    if (oom) {
        t->oom = 1;
        return;
    }
    c->align = align;
    c->seq = t->n;
    t->n++;
    t->cur_col += span;
    if (t->cur_col > t->cols)
        t->cols = t->cur_col;
}

static void tt_cell(struct ttab *t, const char *value, int align, const char *margin)
{
    tt_span(t, 1, value, align, margin);
}

static void tt_shrink(struct ttab *t, size_t col)
{
    if (col >= t->n_shrink) {
        unsigned char *ns = realloc(t->shrink, col + 1);
        if (!ns) {
            t->oom = 1;
            return;
        }
        memset(ns + t->n_shrink, 0, col + 1 - t->n_shrink);
        t->shrink = ns;
        t->n_shrink = col + 1;
    }
    t->shrink[col] = 1;
}

static int blank(const char *s)
{
    for (; *s; s++)
        if (!(*s == ' ' || (*s >= '\t' && *s <= '\r')))
            return 0;
    return 1;
}

static void pad(FILE *f, long n)
{
    static const char spaces[64] =
        "                                                               ";
    while (n > 0) {
        long k = n > 63 ? 63 : n;
        fwrite(spaces, 1, (size_t)k, f);
        n -= k;
    }
}

static int tt_format(struct ttab *t, FILE *f)
{
    if (t->oom)
        return -ENOMEM;
    size_t nc = t->cols;
    size_t *lm = calloc(nc + 1, sizeof *lm), *ws = calloc(nc + 1, sizeof *ws);
    size_t *offs = calloc(nc + 2, sizeof *offs), *span_cols = calloc(nc + 1, sizeof *span_cols);
    if (!lm || !ws || !offs || !span_cols) {
        free(lm);
        free(ws);
        free(offs);
        free(span_cols);
        return -ENOMEM;
    }
    for (size_t i = 0; i < t->n; i++) {
        size_t m = runelen(t->cells[i].margin);
        if (m > lm[t->cells[i].col])
            lm[t->cells[i].col] = m;
    }
    /* Span-1 cells in any order, then wider ones by increasing span
     * (stable): the order Go's texttab needs. */
    struct tcell **multi = NULL;
    size_t n_multi = 0;
    for (size_t i = 0; i < t->n; i++) {
        struct tcell *c = &t->cells[i];
        size_t w = c->vlen + lm[c->col];
        if (c->span == 1) {
            if (ws[c->col] < w)
                ws[c->col] = w;
            continue;
        }
        struct tcell **nm = realloc(multi, (n_multi + 1) * sizeof *nm);
        if (!nm) {
            free(multi);
            free(lm);
            free(ws);
            free(offs);
            free(span_cols);
            return -ENOMEM;
        }
        multi = nm;
        multi[n_multi++] = c;
    }
    for (size_t a = 1; a < n_multi; a++) { /* insertion sort: few, stable */
        struct tcell *v = multi[a];
        size_t b = a;
        while (b > 0 && multi[b - 1]->span > v->span) {
            multi[b] = multi[b - 1];
            b--;
        }
        multi[b] = v;
    }
    for (size_t i = 0; i < n_multi; i++) {
        struct tcell *c = multi[i];
        long w = (long)(c->vlen + lm[c->col]);
        long tw = 0;
        for (size_t k = c->col; k < c->col + c->span; k++)
            tw += (long)ws[k];
        if (tw >= w)
            continue;
        size_t ns = 0;
        for (size_t k = c->col; k < c->col + c->span; k++) {
            if (k < t->n_shrink && t->shrink[k])
                w -= (long)ws[k];
            else
                span_cols[ns++] = k;
        }
        /* widest first, stable */
        for (size_t a = 1; a < ns; a++) {
            size_t v = span_cols[a], b = a;
            while (b > 0 && ws[span_cols[b - 1]] < ws[v]) {
                span_cols[b] = span_cols[b - 1];
                b--;
            }
            span_cols[b] = v;
        }
        long span = (long)ns;
        for (size_t k = 0; k < ns; k++) {
            size_t col = span_cols[k];
            long avg = (w + span - 1) / span;
            if ((long)ws[col] < avg)
                ws[col] = (size_t)avg;
            w -= (long)ws[col];
            span--;
        }
    }
    free(multi);
    size_t off = 0;
    for (size_t i = 0; i < nc; i++) {
        offs[i] = off;
        off += ws[i];
    }
    offs[nc] = off;
    /* cells were added row by row, column by column: already in order */
    size_t row = 0;
    off = 0;
    for (size_t i = 0; i < t->n; i++) {
        struct tcell *c = &t->cells[i];
        const char *value = t->text.data + c->value;
        if (blank(value) && blank(c->margin))
            continue;
        while (c->row > row) {
            fputc('\n', f);
            row++;
            off = 0;
        }
        long spaces = (long)offs[c->col] - (long)off;
        pad(f, spaces);
        pad(f, (long)lm[c->col] - (long)runelen(c->margin));
        fputs(c->margin, f);
        off = (size_t)((long)off + spaces + (long)lm[c->col]);
        long tw = (long)offs[c->col + c->span] - (long)offs[c->col] - (long)lm[c->col];
        long rl = (long)c->vlen;
        long lp = 0;
        if (c->align == AL_RIGHT)
            lp = tw - rl > 0 ? tw - rl : 0;
        else if (c->align == AL_CENTER)
            lp = (tw - rl) / 2; /* Go: %*s with a negative width pads on the right */
        if (lp < 0) {
            fputs(value, f);
            pad(f, -lp);
            off += (size_t)(rl - lp);
        } else {
            pad(f, lp);
            fputs(value, f);
            off += (size_t)(rl + lp);
        }
    }
    if (t->n > 0)
        fputc('\n', f);
    free(lm);
    free(ws);
    free(offs);
    free(span_cols);
    return 0;
}

static void tt_free(struct ttab *t)
{
    bl__buf_fini(&t->text);
    free(t->cells);
    free(t->shrink);
}

/* ---- footnotes ---- */

struct notes {
    const char **list;
    size_t n;
};

static int note_idx(struct notes *ns, const char *msg)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strcmp(ns->list[i], msg) == 0)
            return (int)i;
    const char **nl = realloc(ns->list, (ns->n + 1) * sizeof *nl);
    if (!nl)
        return -1;
    ns->list = nl;
    nl[ns->n] = msg;
    return (int)ns->n++;
}

static void warn_cell(struct ttab *t, struct notes *ns, const char **w1, size_t n1, const char **w2,
                      size_t n2)
{
    struct bl__buf b = {0};
    bl__buf_append(&b, "", 0);
    int first = 1;
    for (int pass = 0; pass < 2; pass++) {
        const char **w = pass ? w2 : w1;
        size_t n = pass ? n2 : n1;
        for (size_t i = 0; i < n; i++) {
            int k = note_idx(ns, w[i]);
            char sup[64];
            superscript(sup, sizeof sup, (size_t)k + 1);
            if (!first)
                bl__buf_append(&b, " ", 1);
            bl__buf_puts(&b, sup);
            first = 0;
        }
    }
    tt_cell(t, b.data ? b.data : "", AL_LEFT, NULL);
    bl__buf_fini(&b);
}

static size_t start_col(size_t exp)
{
    return exp == 0 ? 1 : 1 + 3 + (exp - 1) * 6;
}

struct hnode {
    size_t start, len;
    uint32_t value;
};

/* A cell's interval for the plot: its confidence interval, or the range of
 * its values where the interval is infinite (too few samples). */
static int plot_interval(const struct cell *cl, double *lo, double *hi)
{
    *lo = isinf(cl->lo) ? cl->vals[0] : cl->lo;
    *hi = isinf(cl->hi) ? cl->vals[cl->n - 1] : cl->hi;
    return cl->n > 0 && isfinite(*lo) && isfinite(*hi) ? 0 : -1;
}

/*
 * The plot of one comparison on a terminal: PLOT_CELLS cells on a scale
 * from the lower to the higher end of the two intervals, the baseline's in
 * the upper half of each cell (U+2580), the column's in the lower half
 * (U+2584), both in a full block. Intervals apart or overlapping show at a
 * glance; the numbers stay in the table.
 */
#define PLOT_CELLS 20
static void plot_str(const struct cell *base, const struct cell *cl, char *out, size_t size)
{
    double blo, bhi, clo, chi;
    out[0] = '\0';
    if (size < PLOT_CELLS * 3 + 1 || plot_interval(base, &blo, &bhi) ||
        plot_interval(cl, &clo, &chi))
        return;
    double lo = fmin(blo, clo), hi = fmax(bhi, chi);
    double pad = hi > lo ? (hi - lo) * 0.05 : fabs(lo) * 0.01 + 1e-300;
    lo -= pad;
    hi += pad;
    size_t len = 0;
    for (int i = 0; i < PLOT_CELLS; i++) {
        double a = lo + (hi - lo) * i / PLOT_CELLS, b = lo + (hi - lo) * (i + 1) / PLOT_CELLS;
        int top = blo <= b && bhi >= a, bottom = clo <= b && chi >= a;
        const char *g = top && bottom ? "\xe2\x96\x88"
                        : top         ? "\xe2\x96\x80"
                        : bottom      ? "\xe2\x96\x84"
                                      : " ";
        size_t gl = strlen(g);
        memcpy(out + len, g, gl);
        len += gl;
    }
    out[len] = '\0';
}

static int table_text(bl_compare *c, const struct table *t, FILE *f, int plots)
{
    struct ttab o = {0};
    struct notes ns = {0};
    struct bl__buf lab = {0};
    const struct proj *cp = c->colp;
    size_t ncols = t->n_cols, redge = start_col(ncols + 1);
    /* Header: one level per column field; adjacent equal prefixes merge. */
    size_t *bounds = calloc(ncols + 1, sizeof *bounds); /* group starts at this level */
    unsigned char *cut = calloc(ncols + 1, 1);
    if (!bounds || !cut) {
        free(bounds);
        free(cut);
        return -ENOMEM;
    }
    for (size_t lv = 0; lv < cp->n_flat; lv++) {
        tt_row(&o);
        const struct field *fl = cp->flat[lv];
        for (size_t k = 0; k < ncols;) {
            size_t e = k + 1;
            uint32_t v = bl__key_get(cp, t->cols[k], fl);
            while (e < ncols && !cut[e] && bl__key_get(cp, t->cols[e], fl) == v)
                e++;
            size_t l = start_col(k), r = start_col(e);
            tt_col(&o, l);
            tt_span(&o, r - l, c->str.s[v], AL_CENTER, " \xe2\x94\x82 ");
            cut[e] = 1; /* children do not cross a parent's boundary */
            k = e;
        }
        tt_col(&o, redge);
        tt_cell(&o, "", AL_LEFT, " \xe2\x94\x82");
    }
    free(bounds);
    free(cut);
    tt_row(&o);
    for (size_t i = 0; i < ncols; i++) {
        size_t l = start_col(i);
        tt_col(&o, l);
        tt_span(&o, 3, c->str.s[t->unit], AL_CENTER, " \xe2\x94\x82 ");
        if (i > 0)
            tt_span(&o, 3, "vs base", AL_LEFT, "  ");
        for (size_t j = l + 1; j < o.cur_col; j++)
            tt_shrink(&o, j);
    }
    tt_col(&o, redge);
    tt_cell(&o, plots && ncols > 1 ? "intervals vs base" : "", AL_LEFT,
            plots && ncols > 1 ? " \xe2\x94\x82 " : " \xe2\x94\x82");
    char buf[600], rs[600];
    double *centers = malloc((ncols ? ncols : 1) * sizeof *centers);
    if (!centers) {
        tt_free(&o);
        return -ENOMEM;
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        tt_row(&o);
        bl__key_label(c, c->rowp, t->rows[r], &lab);
        tt_cell(&o, lab.data ? lab.data : "", AL_LEFT, NULL);
        size_t nce = 0;
        for (size_t k = 0; k < ncols; k++) {
            const struct cell *cl = bl__cell_at(c, t, r, k);
            if (cl)
                centers[nce++] = cl->center;
        }
        struct bl__scaler sc;
        bl__common_scale(centers, nce, t->binary, &sc);
        for (size_t k = 0; k < ncols; k++) {
            const struct cell *cl = bl__cell_at(c, t, r, k);
            if (!cl)
                continue;
            tt_col(&o, start_col(k));
            bl__scaler_format(&sc, cl->center, buf, sizeof buf);
            tt_cell(&o, buf, AL_RIGHT, NULL);
            bl__cell_range_str(cl, rs, sizeof rs);
            tt_cell(&o, rs, AL_RIGHT, " \xc2\xb1 ");
            warn_cell(&o, &ns, cl->warn, cl->n_warn, NULL, 0);
            if (k > 0 && cl->base >= 0) {
                bl__cell_delta_str(cl, c->cells[cl->base].center, buf, sizeof buf);
                tt_cell(&o, buf, AL_RIGHT, NULL);
                char pv[128], par[140];
                bl__cell_pval_str(cl, pv, sizeof pv);
                snprintf(par, sizeof par, "(%s)", pv);
                tt_cell(&o, par, AL_LEFT, NULL);
                warn_cell(&o, &ns, cl->cwarn, cl->n_cwarn, NULL, 0);
            }
        }
        for (size_t k = 1; plots && k < ncols; k++) {
            const struct cell *cl = bl__cell_at(c, t, r, k);
            char plot[PLOT_CELLS * 3 + 1] = "";
            if (cl && cl->base >= 0)
                plot_str(&c->cells[cl->base], cl, plot, sizeof plot);
            tt_col(&o, redge + k - 1);
            tt_cell(&o, plot, AL_LEFT, k == 1 ? " \xe2\x94\x82 " : "  ");
        }
    }
    free(centers);
    if (t->n_rows > 1) {
        tt_row(&o);
        tt_cell(&o, "geomean", AL_LEFT, NULL);
        for (size_t k = 0; k < ncols; k++) {
            const struct colsum *s = &t->sum[k];
            if (s->has_summary) {
                tt_col(&o, start_col(k));
                struct bl__scaler sc;
                bl__common_scale(&s->summary, 1, t->binary, &sc);
                bl__scaler_format(&sc, s->summary, buf, sizeof buf);
                tt_cell(&o, buf, AL_RIGHT, NULL);
            }
            if (k > 0) {
                tt_col(&o, start_col(k) + 3);
                if (s->has_ratio) {
                    bl__ratio_str(s->ratio, buf, sizeof buf);
                    tt_cell(&o, buf, AL_RIGHT, NULL);
                } else {
                    tt_cell(&o, "?", AL_LEFT, NULL);
                }
            }
            tt_col(&o, start_col(k + 1) - 1);
            warn_cell(&o, &ns, s->warn, s->n_warn, NULL, 0);
        }
    }
    int rc = tt_format(&o, f);
    for (size_t i = 0; i < ns.n && !rc; i++) {
        char sup[64];
        superscript(sup, sizeof sup, i + 1);
        struct bl__buf safe = {0};
        fprintf(f, "%s %s\n", sup, bl__terminal_safe(&safe, ns.list[i]));
        bl__buf_fini(&safe);
    }
    if (plots && ncols > 1 && t->n_rows && !rc)
        fputs("intervals: \xe2\x96\x80 the base column's, \xe2\x96\x84 the column's, "
              "\xe2\x96\x88 both; each row on its own scale\n",
              f);
    free(ns.list);
    bl__buf_fini(&lab);
    tt_free(&o);
    return rc;
}

static void text_hdr(void *ctx, const char *line)
{
    struct bl__buf safe = {0};
    fprintf((FILE *)ctx, "%s\n", bl__terminal_safe(&safe, line));
    bl__buf_fini(&safe);
}

static int write_text(bl_compare *c, FILE *f, int plots)
{
    for (size_t i = 0; i < c->n_tables; i++) {
        if (i > 0)
            fputc('\n', f);
        bl__table_headers(c, i, text_hdr, f);
        int rc = table_text(c, &c->tables[i], f, plots);
        if (rc)
            return rc;
    }
    return ferror(f) ? -EIO : 0;
}

int bl_compare_write_text(bl_compare *c, FILE *f)
{
    return write_text(c, f, 0);
}

int bl_compare_write_text_plots(bl_compare *c, FILE *f)
{
    return write_text(c, f, 1);
}
