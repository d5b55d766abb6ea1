/*
 * sort.c - benchstat's key order: the order in which tables, rows and
 * columns are written (first seen, fixed, alphabetical or numeric, per
 * field of the projection).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

static int num_parse(const char *s, double *out)
{
    if (bl_gobench_parse_float(s, strlen(s), out) == 0)
        return 0;
    const char *p = s;
    while (*p && !((*p >= '0' && *p <= '9') || *p == '.'))
        p++;
    if (!*p)
        return -1;
    const char *q = p;
    while ((*q >= '0' && *q <= '9') || *q == '.')
        q++;
    double v;
    if (bl_gobench_parse_float(p, (size_t)(q - p), &v))
        return -1;
    static const char pre[] = "KMGTPEZY";
    int exp = 0, iec = 0;
    if (*q && (*q == 'k' || strchr(pre, *q))) {
        exp = 1 + (int)(strchr(pre, *q == 'k' ? 'K' : *q) - pre);
        iec = q[1] == 'i';
    }
    *out = v * pow(iec ? 1024 : 1000, exp);
    return 0;
}

static int field_cmp(const bl_compare *c, const struct field *f, uint32_t a, uint32_t b)
{
    uint64_t oa = 0, ob = 0;
    switch (f->order) {
    case ORD_FIRST:
        if (!f->track)
            return 0;
        bl__umap_get(&f->obs, a, &oa);
        bl__umap_get(&f->obs, b, &ob);
        return oa < ob ? -1 : oa > ob;
    case ORD_ALPHA:
        return strcmp(c->str.s[a], c->str.s[b]);
    case ORD_NUM: {
        double x, y;
        int ea = num_parse(c->str.s[a], &x), eb = num_parse(c->str.s[b], &y);
        if (!ea && !eb) {
            if (x < y || (!isnan(x) && isnan(y)))
                return -1;
            if (x > y || (isnan(x) && !isnan(y)))
                return 1;
            return 0;
        }
        if (ea && eb)
            return 0;
        return !ea ? -1 : 1;
    }
    case ORD_FIXED:
        bl__umap_get(&f->fixed_map, a, &oa);
        bl__umap_get(&f->fixed_map, b, &ob);
        return oa < ob ? -1 : oa > ob;
    }
    return 0;
}

static int str_less_go(const bl_compare *c, uint32_t a, uint32_t b)
{
    size_t la = c->str.len[a], lb = c->str.len[b];
    int r = memcmp(c->str.s[a], c->str.s[b], la < lb ? la : lb);
    return r != 0 ? r < 0 : la < lb;
}

struct sortctx {
    const bl_compare *c;
    const struct proj *p;
};

/* By the first field (in flat order) in which a and b differ: -1, 0 or 1.
 * One search for it per comparison (field_cmp is antisymmetric). */
static int key_cmp(const bl_compare *c, const struct proj *p, uint32_t a, uint32_t b)
{
    size_t pos = 0;
    const struct field *f = bl__key_diff(p, a, b, &pos);
    if (!f)
        return 0;
    uint32_t va = bl__key_get(p, a, f), vb = bl__key_get(p, b, f);
    int r = field_cmp(c, f, va, vb);
    if (r)
        return r < 0 ? -1 : 1;
    if (str_less_go(c, va, vb))
        return -1;
    return str_less_go(c, vb, va);
}

static int key_qsort_cmp(const void *x, const void *y, void *arg)
{
    const struct sortctx *s = arg;
    return key_cmp(s->c, s->p, *(const uint32_t *)x, *(const uint32_t *)y);
}

/* Keys come in the order their cells were first seen, which is most often
 * the order wanted (a "first" field sorts by observation; names written in
 * order sort alphabetically): one pass finds that out and skips the
 * n log n sort, whose comparisons jump over the whole string table. Keys
 * are distinct and key_cmp is a total order on them (ties of field_cmp
 * fall back to the bytes), so a sorted array is the sort's result. */
void bl__sort_keys(const bl_compare *c, const struct proj *p, uint32_t *keys, size_t n)
{
    size_t i = 1;
    while (i < n && key_cmp(c, p, keys[i - 1], keys[i]) < 0)
        i++;
    if (i >= n)
        return;
    struct sortctx s = {c, p};
    qsort_r(keys, n, sizeof *keys, key_qsort_cmp, &s);
}
