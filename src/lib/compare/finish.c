/*
 * finish.c - bl_compare_finish(): sorts tables, rows and columns and
 * computes every cell's summary, its comparison with the baseline column
 * and the geomean row, so that the writers (write_*.c) only format.
 * Cells are summarised and compared on two threads when there are enough.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/stats.h"
#include "compare_int.h"

static const char *keep_str(bl_compare *c, const char *s)
{
    for (size_t i = 0; i < c->n_warn_strs; i++)
        if (strcmp(c->warn_strs[i], s) == 0)
            return c->warn_strs[i];
    char **nw = realloc(c->warn_strs, (c->n_warn_strs + 1) * sizeof *nw);
    if (!nw)
        return NULL;
    c->warn_strs = nw;
    nw[c->n_warn_strs] = strdup(s);
    if (!nw[c->n_warn_strs])
        return NULL;
    return nw[c->n_warn_strs++];
}

static int add_warn(bl_compare *c, const char ***arr, size_t *n, const char *msg)
{
    pthread_mutex_lock(&c->warn_mu); /* cells are summarised by two threads */
    const char *k = keep_str(c, msg);
    pthread_mutex_unlock(&c->warn_mu);
    if (!k)
        return -ENOMEM;
    const char **na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na)
        return -ENOMEM;
    *arr = na;
    na[(*n)++] = k;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static int summarize_cell(bl_compare *c, struct cell *cl, int exact)
{
    bl_bstat_sort(cl->vals, cl->n);
    char msg[512], a[64], b[64];
    /* residue warning first: it is the sample's */
    if (cl->n_res > 1) {
        /* The fields in which not all residues agree: those in which two
         * consecutive ones differ (found through the keys' differences,
         * not field by field: there may be as many fields as inputs). */
        size_t *at = NULL, n_at = 0, cap_at = 0;
        int rc = 0;
        for (size_t k = 1; k < cl->n_res && !rc; k++) {
            size_t pos = 0;
            while (bl__key_diff(c->resp, cl->res[k - 1], cl->res[k], &pos)) {
                if (bl__grow((void **)&at, &cap_at, n_at + 1, sizeof *at)) {
                    rc = -ENOMEM;
                    break;
                }
                at[n_at++] = pos++;
            }
        }
        if (!rc)
            qsort(at, n_at, sizeof *at, cmp_size);
        struct bl__buf w = {0};
        bl__buf_puts(&w, "benchmarks vary in ");
        for (size_t i = 0; i < n_at && !rc; i++) {
            if (i > 0 && at[i] == at[i - 1])
                continue;
            if (i > 0)
                bl__buf_puts(&w, ", ");
            bl__buf_puts(&w, c->resp->flat[at[i]]->name);
        }
        free(at);
        if (!rc)
            rc = w.data ? add_warn(c, &cl->warn, &cl->n_warn, w.data) : -ENOMEM;
        bl__buf_fini(&w);
        if (rc)
            return rc;
    }
    if (exact) {
        /* mode: the longest run, the smallest value on ties */
        size_t best = 0, best_len = 0;
        for (size_t i = 0; i < cl->n;) {
            size_t j = i + 1;
            while (j < cl->n && cl->vals[j] == cl->vals[i])
                j++;
            if (j - i > best_len) {
                best_len = j - i;
                best = i;
            }
            i = j;
        }
        cl->center = cl->vals[best];
        cl->lo = cl->vals[0];
        cl->hi = cl->vals[cl->n - 1];
        if (best_len != cl->n) { /* not all equal (NaNs never are) */
            bl__go_fmt_g(a, sizeof a, cl->lo);
            bl__go_fmt_g(b, sizeof b, cl->hi);
            snprintf(msg, sizeof msg, "exact distribution expected, but values range from %s to %s",
                     a, b);
            if (add_warn(c, &cl->warn, &cl->n_warn, msg))
                return -ENOMEM;
        }
    } else {
        if (bl_bstat_median_ci(cl->vals, cl->n, c->opts.confidence, &cl->center, &cl->lo,
                               &cl->hi)) {
            int need = bl_bstat_median_min_samples(c->opts.confidence);
            bl__go_fmt_g(a, sizeof a, c->opts.confidence);
            snprintf(msg, sizeof msg, "need %s %d samples for confidence interval at level %s",
                     need < 0 ? ">" : ">=", need < 0 ? -need : need, a);
            if (add_warn(c, &cl->warn, &cl->n_warn, msg))
                return -ENOMEM;
        }
    }
    return 0;
}

static const double utest_min_p[10] = {0,
                                       1,
                                       0.3333333333333333,
                                       0.1,
                                       0.02857142857142857,
                                       0.007936507936507936,
                                       0.0021645021645021645,
                                       0.0005827505827505828,
                                       0.0001554001554001554,
                                       4.113533525298231e-05};

static int compare_cell(bl_compare *c, struct cell *cl, const struct cell *base, int exact)
{
    cl->n1 = base->n;
    cl->n2 = cl->n;
    if (exact) {
        cl->p = 0;
        cl->alpha = 0;
        return 0;
    }
    cl->alpha = c->opts.alpha;
    double p;
    int rc = bl_stats_utest_sorted(base->vals, base->n, cl->vals, cl->n, &p);
    if (rc == -ENOMEM)
        return rc;
    if (rc) {
        cl->p = 1;
        return add_warn(c, &cl->cwarn, &cl->n_cwarn, "all samples are equal");
    }
    cl->p = p;
    if (p > cl->alpha) {
        int n = 10, ge = 0;
        for (int i = 1; i <= 9; i++) {
            if (utest_min_p[i] <= cl->alpha) {
                n = i;
                ge = 1;
                break;
            }
        }
        if (cl->n1 < (size_t)n && cl->n2 < (size_t)n) {
            char msg[200], a[64];
            bl__go_fmt_g(a, sizeof a, cl->alpha);
            snprintf(msg, sizeof msg, "need %s %d samples to detect a difference at alpha level %s",
                     ge ? ">=" : ">", n, a);
            return add_warn(c, &cl->cwarn, &cl->n_cwarn, msg);
        }
    }
    return 0;
}

static int summarize_col(bl_compare *c, struct table *t, size_t ci)
{
    struct colsum *s = &t->sum[ci];
    size_t nr = t->n_rows;
    double *sums = malloc((nr ? nr : 1) * sizeof *sums),
           *ratios = malloc((nr ? nr : 1) * sizeof *ratios);
    if (!sums || !ratios) {
        free(sums);
        free(ratios);
        return -ENOMEM;
    }
    size_t ns = 0, nrat = 0, n_base = 0;
    int bad = 0;
    for (size_t r = 0; r < nr; r++) {
        if (bl__cell_find(c, t->key, t->rows[r], t->cols[0]) >= 0)
            n_base++;
        long k = bl__cell_find(c, t->key, t->rows[r], t->cols[ci]);
        if (k < 0)
            continue;
        struct cell *cl = &c->cells[k];
        sums[ns++] = cl->center;
        if (cl->base >= 0) {
            double a = cl->center, b = c->cells[cl->base].center;
            if (a == b) {
                ratios[nrat++] = 1;
            } else if (b == 0) {
                bad = 1;
                ratios[nrat++] = 0;
            } else {
                ratios[nrat++] = a / b;
            }
        }
    }
    int rc = 0;
    if (ci > 0 && n_base != nrat)
        rc = add_warn(c, &s->warn, &s->n_warn,
                      "benchmark set differs from baseline; geomeans may not be comparable");
    double gm = bl_bstat_geomean(sums, ns);
    if (!rc && isnan(gm)) {
        rc = add_warn(c, &s->warn, &s->n_warn, "summaries must be >0 to compute geomean");
    } else {
        s->has_summary = 1;
        s->summary = gm;
    }
    if (!rc && ci > 0 && !bad) {
        double g = bl_bstat_geomean(ratios, nrat);
        if (isnan(g)) {
            rc = add_warn(c, &s->warn, &s->n_warn, "ratios must be >0 to compute geomean");
        } else {
            s->has_ratio = 1;
            s->ratio = g;
        }
    }
    free(sums);
    free(ratios);
    return rc;
}

struct work {
    bl_compare *c;
    size_t from, to;
    int phase, rc;
};

static void *work_fn(void *arg)
{
    struct work *w = arg;
    for (size_t i = w->from; i < w->to && !w->rc; i++) {
        struct cell *cl = &w->c->cells[i];
        if (w->phase == 0)
            w->rc = summarize_cell(w->c, cl, cl->exact);
        else if (cl->base >= 0)
            w->rc = compare_cell(w->c, cl, &w->c->cells[cl->base], cl->exact);
    }
    return NULL;
}

/* Phase 0 (summaries) or 1 (comparisons) over all cells, on two threads
 * when there is enough work to pay for one. */
static int run_parallel(bl_compare *c, int phase)
{
    size_t n = c->n_cells, half = n / 2;
    struct work w[2] = {{c, 0, half, phase, 0}, {c, half, n, phase, 0}};
    pthread_t th;
    int threaded = n >= 256 && pthread_create(&th, NULL, work_fn, &w[1]) == 0;
    if (!threaded)
        w[0].to = n;
    work_fn(&w[0]);
    if (threaded)
        pthread_join(th, NULL);
    return w[0].rc ? w[0].rc : w[1].rc;
}

int bl_compare_finish(bl_compare *c)
{
    if (bl__flush_memos(c))
        return -ENOMEM;
    if (bl__proj_flatten(c->tablep) || bl__proj_flatten(c->rowp) || bl__proj_flatten(c->colp) ||
        bl__proj_flatten(c->resp))
        return -ENOMEM;
    /* tables: the distinct table keys of the cells */
    struct bl__umap seen = {0};
    uint32_t *tkeys = malloc((c->n_cells ? c->n_cells : 1) * sizeof *tkeys);
    if (!tkeys)
        return -ENOMEM;
    size_t nt = 0;
    for (size_t i = 0; i < c->n_cells; i++) {
        uint64_t d;
        if (!bl__umap_get(&seen, c->cells[i].table, &d)) {
            if (bl__umap_put(&seen, c->cells[i].table, nt)) {
                free(tkeys);
                bl__umap_fini(&seen);
                return -ENOMEM;
            }
            tkeys[nt++] = c->cells[i].table;
        }
    }
    bl__umap_fini(&seen);
    bl__sort_keys(c, c->tablep, tkeys, nt);
    c->tables = calloc(nt ? nt : 1, sizeof *c->tables);
    if (!c->tables) {
        free(tkeys);
        return -ENOMEM;
    }
    c->n_tables = nt;
    struct bl__umap tindex = {0};
    for (size_t i = 0; i < nt; i++) {
        c->tables[i].key = tkeys[i];
        c->tables[i].unit = bl__key_get(c->tablep, tkeys[i], c->tablep->unit_field);
        if (bl__umap_put(&tindex, tkeys[i], i)) {
            free(tkeys);
            bl__umap_fini(&tindex);
            return -ENOMEM;
        }
    }
    free(tkeys);
    /* rows and columns per table */
    struct bl__umap rs = {0}, cs = {0};
    int rc = 0;
    for (size_t i = 0; i < c->n_cells && !rc; i++) {
        struct cell *cl = &c->cells[i];
        uint64_t ti, d;
        bl__umap_get(&tindex, cl->table, &ti);
        struct table *t = &c->tables[ti];
        uint64_t rk = ((uint64_t)ti << 32) | cl->row, ck = ((uint64_t)ti << 32) | cl->col;
        if (!bl__umap_get(&rs, rk, &d)) {
            if (bl__umap_put(&rs, rk, 0) ||
                bl__grow((void **)&t->rows, &t->cap_rows, t->n_rows + 1, sizeof *t->rows))
                rc = -ENOMEM;
            else
                t->rows[t->n_rows++] = cl->row;
        }
        if (!rc && !bl__umap_get(&cs, ck, &d)) {
            if (bl__umap_put(&cs, ck, 0) ||
                bl__grow((void **)&t->cols, &t->cap_cols, t->n_cols + 1, sizeof *t->cols))
                rc = -ENOMEM;
            else
                t->cols[t->n_cols++] = cl->col;
        }
    }
    bl__umap_fini(&rs);
    bl__umap_fini(&cs);
    bl__umap_fini(&tindex);
    if (rc)
        return rc;
    for (size_t i = 0; i < nt && !rc; i++) {
        struct table *t = &c->tables[i];
        bl__sort_keys(c, c->rowp, t->rows, t->n_rows);
        bl__sort_keys(c, c->colp, t->cols, t->n_cols);
        const char *assume = bl__unit_meta(c, c->str.s[t->unit], "assume");
        t->exact = assume && strcmp(assume, "exact") == 0;
        t->binary = bl__unit_is_binary(c->str.s[t->unit]);
        t->sum = calloc(t->n_cols ? t->n_cols : 1, sizeof *t->sum);
        if (!t->sum)
            return -ENOMEM;
    }
    /* cells: baselines and assumptions, then summaries and comparisons
     * (in parallel: sorting samples is most of the work), then geomeans */
    for (size_t i = 0; i < c->n_cells; i++)
        c->cells[i].base = -1;
    for (size_t i = 0; i < nt; i++) {
        struct table *t = &c->tables[i];
        for (size_t r = 0; r < t->n_rows; r++) {
            long b = bl__cell_find(c, t->key, t->rows[r], t->cols[0]);
            for (size_t k = 0; k < t->n_cols; k++) {
                long ci = bl__cell_find(c, t->key, t->rows[r], t->cols[k]);
                if (ci < 0)
                    continue;
                c->cells[ci].exact = (unsigned char)t->exact;
                if (k > 0)
                    c->cells[ci].base = b;
            }
        }
    }
    rc = run_parallel(c, 0);
    if (!rc)
        rc = run_parallel(c, 1);
    for (size_t i = 0; i < nt && !rc; i++)
        for (size_t k = 0; k < c->tables[i].n_cols && !rc; k++)
            rc = summarize_col(c, &c->tables[i], k);
    c->finished = 1;
    return rc;
}
