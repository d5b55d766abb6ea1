/*
 * compare.c - the compare engine: benchstat v2's grouping and statistics
 * (golang.org/x/perf benchproc, benchtab, benchmath).
 *
 * Results stream in from the readers; each is filtered, projected into a
 * table key (with its unit), a row key, a column key and a residue key,
 * and each of its values becomes a sample of one cell. Nothing else of the
 * input is kept. To keep that fast, the projection of a result is memoised
 * per (configuration generation, name): files of a thousand repetitions
 * of the same benchmarks hash each line's name once and append a double.
 *
 * Observation orders (benchstat sorts rows, columns and units in the order
 * first seen) are recorded exactly when benchstat records them: when a key
 * is interned for the first time.
 *
 * bl_compare_finish() sorts tables, rows and columns, and computes every
 * cell's summary, comparison and the geomean row; the writers
 * (compare_out.c) only format.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchlab/stats.h"
#include "compare_priv.h"

/* ---- a u64 -> u64 hash map (open addressing, key ~0 is empty) ---- */

static int umap_put(struct umap *m, uint64_t k, uint64_t v);

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

int bl__umap_get(const struct umap *m, uint64_t k, uint64_t *v)
{
    if (!m->n_slots)
        return 0;
    size_t j = (size_t)mix64(k) & (m->n_slots - 1);
    while (m->keys[j] != UINT64_MAX) {
        if (m->keys[j] == k) {
            *v = m->vals[j];
            return 1;
        }
        j = (j + 1) & (m->n_slots - 1);
    }
    return 0;
}

static int umap_grow(struct umap *m)
{
    size_t ns = m->n_slots ? m->n_slots * 2 : 16;
    uint64_t *keys = malloc(ns * sizeof *keys), *vals = malloc(ns * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -ENOMEM;
    }
    memset(keys, 0xff, ns * sizeof *keys);
    struct umap old = *m;
    m->keys = keys;
    m->vals = vals;
    m->n_slots = ns;
    m->n = 0;
    for (size_t i = 0; i < old.n_slots; i++)
        if (old.keys[i] != UINT64_MAX)
            umap_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
    return 0;
}

static int umap_put(struct umap *m, uint64_t k, uint64_t v)
{
    if ((m->n + 1) * 2 > m->n_slots && umap_grow(m))
        return -ENOMEM;
    size_t j = (size_t)mix64(k) & (m->n_slots - 1);
    while (m->keys[j] != UINT64_MAX) {
        if (m->keys[j] == k) {
            m->vals[j] = v;
            return 0;
        }
        j = (j + 1) & (m->n_slots - 1);
    }
    m->keys[j] = k;
    m->vals[j] = v;
    m->n++;
    return 0;
}

static void umap_fini(struct umap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- projections ---- */

static struct field *field_new(struct proj *p, const char *name, int kind, int order)
{
    struct field *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->name = strdup(name);
    f->kind = kind;
    f->order = order;
    f->idx = kind == FK_GROUP ? -1 : (long)p->n_fields++;
    f->track = kind != FK_GROUP && order == ORD_FIRST;
    if (!f->name) {
        free(f);
        return NULL;
    }
    return f;
}

static void field_free(struct field *f)
{
    if (!f)
        return;
    free(f->name);
    for (size_t i = 0; i < f->n_fixed; i++)
        free(f->fixed[i]);
    free(f->fixed);
    for (size_t i = 0; i < f->n_subs; i++)
        field_free(f->subs[i]);
    free(f->subs);
    umap_fini(&f->obs);
    umap_fini(&f->seen);
    umap_fini(&f->fixed_map);
    free(f);
}

static int proj_add_top(struct proj *p, struct field *f)
{
    if (!f)
        return -ENOMEM;
    struct field **t = realloc(p->top, (p->n_top + 1) * sizeof *t);
    if (!t) {
        field_free(f);
        return -ENOMEM;
    }
    p->top = t;
    p->top[p->n_top++] = f;
    return 0;
}

static void proj_free(struct proj *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_top; i++)
        field_free(p->top[i]);
    free(p->top);
    free(p->flat);
    free(p->row);
    free(p->key_off);
    free(p->key_len);
    free(p->pool);
    free(p->key_slots);
    free(p);
}

/* The flattened fields (config group expanded): the sort and header order. */
static int proj_flatten(struct proj *p)
{
    free(p->flat);
    p->n_flat = 0;
    size_t n = 0;
    for (size_t i = 0; i < p->n_top; i++)
        n += p->top[i]->kind == FK_GROUP ? p->top[i]->n_subs : 1;
    p->flat = malloc((n ? n : 1) * sizeof *p->flat);
    if (!p->flat)
        return -ENOMEM;
    for (size_t i = 0; i < p->n_top; i++) {
        struct field *f = p->top[i];
        if (f->kind == FK_GROUP)
            for (size_t j = 0; j < f->n_subs; j++)
                p->flat[p->n_flat++] = f->subs[j];
        else
            p->flat[p->n_flat++] = f;
    }
    return 0;
}

uint32_t bl__key_get(const struct proj *p, uint32_t key, const struct field *f)
{
    if (f->idx < 0 || (uint32_t)f->idx >= p->key_len[key])
        return 0;
    return p->pool[p->key_off[key] + (size_t)f->idx];
}

static int row_reserve(struct proj *p)
{
    /* always allocated, even for a projection of no fields: the row is
     * passed to memcpy/memcmp/memset, which must not get NULL even for 0 bytes */
    if (p->row && p->cap_row >= p->n_fields)
        return 0;
    size_t cap = p->n_fields + 8;
    uint32_t *r = realloc(p->row, cap * sizeof *r);
    if (!r)
        return -ENOMEM;
    memset(r + p->cap_row, 0, (cap - p->cap_row) * sizeof *r);
    p->row = r;
    p->cap_row = cap;
    return 0;
}

/* Intern p->row[0..n_fields) as a key; record observation orders of new keys. */
static long proj_intern(struct proj *p)
{
    size_t n = p->n_fields;
    while (n > 0 && p->row[n - 1] == 0)
        n--;
    uint64_t h = bl__hash_bytes(p->row, n * sizeof(uint32_t));
    if (p->n_key_slots) {
        size_t j = (size_t)h & (p->n_key_slots - 1);
        while (p->key_slots[j]) {
            uint32_t k = p->key_slots[j] - 1;
            if (p->key_len[k] == n &&
                (n == 0 || memcmp(p->pool + p->key_off[k], p->row, n * sizeof(uint32_t)) == 0))
                return k;
            j = (j + 1) & (p->n_key_slots - 1);
        }
    }
    /* New key: update observation orders of the top-level fields. */
    for (size_t i = 0; i < p->n_top; i++) {
        struct field *f = p->top[i];
        if (!f->track)
            continue;
        uint32_t v = (size_t)f->idx < n ? p->row[f->idx] : 0;
        uint64_t dummy;
        if (!bl__umap_get(&f->obs, v, &dummy) && umap_put(&f->obs, v, f->obs.n))
            return -ENOMEM;
    }
    if ((p->n_keys + 1) * 2 > p->n_key_slots) {
        size_t ns = p->n_key_slots ? p->n_key_slots * 2 : 64;
        uint32_t *slots = calloc(ns, sizeof *slots);
        if (!slots)
            return -ENOMEM;
        for (size_t k = 0; k < p->n_keys; k++) {
            uint64_t hk = bl__hash_bytes(p->pool + p->key_off[k], p->key_len[k] * sizeof(uint32_t));
            size_t j = (size_t)hk & (ns - 1);
            while (slots[j])
                j = (j + 1) & (ns - 1);
            slots[j] = (uint32_t)k + 1;
        }
        free(p->key_slots);
        p->key_slots = slots;
        p->n_key_slots = ns;
    }
    if (bl__grow((void **)&p->key_off, &p->cap_keys, p->n_keys + 1, sizeof *p->key_off))
        return -ENOMEM;
    size_t cap2 = p->cap_keys;
    uint32_t *kl = realloc(p->key_len, cap2 * sizeof *kl);
    if (!kl)
        return -ENOMEM;
    p->key_len = kl;
    if (bl__grow((void **)&p->pool, &p->cap_pool, p->n_pool + n + 1, sizeof *p->pool))
        return -ENOMEM;
    if (n)
        memcpy(p->pool + p->n_pool, p->row, n * sizeof(uint32_t));
    uint32_t k = (uint32_t)p->n_keys++;
    p->key_off[k] = p->n_pool;
    p->key_len[k] = (uint32_t)n;
    p->n_pool += n;
    size_t j = (size_t)h & (p->n_key_slots - 1);
    while (p->key_slots[j])
        j = (j + 1) & (p->n_key_slots - 1);
    p->key_slots[j] = k + 1;
    return k;
}

/* ---- names ---- */

struct name_parts {
    size_t base_len;
    size_t n;
    struct {
        size_t off, len;
    } part[64];
    int overflow;
};

static void name_parse(const char *s, size_t n, struct name_parts *np)
{
    size_t j = n;
    while (j > 0 && s[j - 1] >= '0' && s[j - 1] <= '9')
        j--;
    int procs = j > 0 && j < n && s[j - 1] == '-';
    size_t body = procs ? j - 1 : n;
    const char *slash = memchr(s, '/', body);
    np->n = 0;
    np->overflow = 0;
    np->base_len = slash ? (size_t)(slash - s) : body;
    size_t i = np->base_len;
    while (i < body) {
        size_t k = i + 1;
        while (k < body && s[k] != '/')
            k++;
        if (np->n < 63) {
            np->part[np->n].off = i;
            np->part[np->n].len = k - i;
            np->n++;
        } else {
            np->overflow = 1;
        }
        i = k;
    }
    if (procs) {
        np->part[np->n].off = j - 1;
        np->part[np->n].len = n - (j - 1);
        np->n++;
    }
}

/* Value of a name key ("/size") in the name, or NULL. */
static const char *name_sub(const char *s, const struct name_parts *np, const char *key,
                            size_t *len)
{
    size_t kl = strlen(key);
    if (strcmp(key, "/gomaxprocs") == 0 && np->n > 0 && s[np->part[np->n - 1].off] == '-') {
        *len = np->part[np->n - 1].len - 1;
        return s + np->part[np->n - 1].off + 1;
    }
    for (size_t i = 0; i < np->n; i++) {
        const char *p = s + np->part[i].off;
        if (np->part[i].len > kl && memcmp(p, key, kl) == 0 && p[kl] == '=') {
            *len = np->part[i].len - kl - 1;
            return p + kl + 1;
        }
    }
    *len = 0;
    return NULL;
}

static const char *config_lookup(const bl_gobench_result *r, const char *key)
{
    for (size_t i = 0; i < r->n_config; i++)
        if (strcmp(r->config[i].key, key) == 0)
            return r->config[i].value;
    return NULL;
}

/* .fullname with the parser's exclusions applied, into buf. */
static size_t fullname_excluded(const bl_compare *c, const bl_gobench_result *r,
                                const struct name_parts *np, struct bl__buf *buf)
{
    buf->len = 0;
    if (!c->n_excl && !c->excl_name) {
        bl__buf_append(buf, r->name, r->name_len);
        return buf->len;
    }
    if (c->excl_name)
        bl__buf_append(buf, "*", 1);
    else
        bl__buf_append(buf, r->name, np->base_len);
    for (size_t i = 0; i < np->n; i++) {
        const char *p = r->name + np->part[i].off;
        size_t len = np->part[i].len;
        int skip = 0;
        for (size_t k = 0; k < c->n_excl && !skip; k++) {
            size_t kl = strlen(c->excl[k]);
            if (len > kl && memcmp(p, c->excl[k], kl) == 0 && p[kl] == '=')
                skip = 1;
        }
        if (c->excl_procs && p[0] == '-')
            skip = 1;
        if (!skip)
            bl__buf_append(buf, p, len);
    }
    if (!buf->data)
        bl__buf_append(buf, "", 0);
    return buf->len;
}

static int is_config_excluded(const bl_compare *c, const char *key)
{
    for (size_t i = 0; i < c->n_config_excl; i++)
        if (strcmp(c->config_excl[i], key) == 0)
            return 1;
    return 0;
}

static long intern(bl_compare *c, const char *s, size_t n)
{
    return bl__strtab_intern(&c->str, s, n);
}

/* Fill p->row from result r (all but .unit). */
static int proj_populate(bl_compare *c, struct proj *p, const bl_gobench_result *r,
                         const struct name_parts *np)
{
    if (row_reserve(p))
        return -ENOMEM;
    memset(p->row, 0, p->cap_row * sizeof *p->row);
    for (size_t i = 0; i < p->n_top; i++) {
        struct field *f = p->top[i];
        long id = 0;
        switch (f->kind) {
        case FK_GROUP:
            for (size_t k = 0; k < r->n_config; k++) {
                if (k == 0 && strcmp(r->config[0].key, ".file") == 0)
                    continue; /* .file is not a file key */
                long kid = intern(c, r->config[k].key, strlen(r->config[k].key));
                if (kid < 0)
                    return -ENOMEM;
                uint64_t sub;
                struct field *sf;
                if (bl__umap_get(&f->seen, (uint64_t)kid, &sub)) {
                    sf = f->subs[sub];
                } else {
                    if (is_config_excluded(c, r->config[k].key))
                        continue;
                    sf = field_new(p, r->config[k].key, FK_CONFIG, ORD_FIRST);
                    if (!sf)
                        return -ENOMEM;
                    sf->track = 0; /* benchstat never records orders of .config keys */
                    struct field **ns = realloc(f->subs, (f->n_subs + 1) * sizeof *ns);
                    if (ns)
                        f->subs = ns;
                    if (!ns || umap_put(&f->seen, (uint64_t)kid, f->n_subs)) {
                        field_free(sf);
                        return -ENOMEM;
                    }
                    f->subs = ns;
                    f->subs[f->n_subs++] = sf;
                    if (row_reserve(p))
                        return -ENOMEM;
                }
                id = intern(c, r->config[k].value, strlen(r->config[k].value));
                if (id < 0)
                    return -ENOMEM;
                p->row[sf->idx] = (uint32_t)id;
            }
            continue;
        case FK_FULLNAME:
            fullname_excluded(c, r, np, &c->tmp);
            id = intern(c, c->tmp.data, c->tmp.len);
            break;
        case FK_NAME:
            id = intern(c, r->name, np->base_len);
            break;
        case FK_SUB: {
            size_t len;
            const char *v = name_sub(r->name, np, f->name, &len);
            id = v ? intern(c, v, len) : 0;
            break;
        }
        case FK_CONFIG: {
            const char *v = config_lookup(r, f->name);
            id = v ? intern(c, v, strlen(v)) : 0;
            break;
        }
        case FK_UNIT:
            continue;
        }
        if (id < 0)
            return -ENOMEM;
        p->row[f->idx] = (uint32_t)id;
    }
    return 0;
}

/* ---- filter evaluation ---- */

static int match_str(const struct bl__fnode *m, const char *s, size_t n)
{
    if (m->lit)
        return strlen(m->lit) == n && memcmp(m->lit, s, n) == 0;
    char stack[256];
    char *z = n < sizeof stack ? stack : malloc(n + 1);
    if (!z)
        return 0;
    memcpy(z, s, n);
    z[n] = '\0';
    int ok = regexec(m->re, z, 0, NULL, 0) == 0;
    if (z != stack)
        free(z);
    return ok;
}

/* Evaluate at value index vi (-1: whole result; .unit terms then count as
 * "depends": *dep is set). */
static int filter_eval(const bl_compare *c, const struct bl__fnode *n, const bl_gobench_result *r,
                       const struct name_parts *np, const char *unit, const char *orig_unit,
                       int *dep)
{
    switch (n->op) {
    case FN_AND:
        for (size_t i = 0; i < n->n_sub; i++)
            if (!filter_eval(c, n->sub[i], r, np, unit, orig_unit, dep))
                return 0;
        return 1;
    case FN_OR:
        for (size_t i = 0; i < n->n_sub; i++)
            if (filter_eval(c, n->sub[i], r, np, unit, orig_unit, dep))
                return 1;
        return 0;
    case FN_NOT:
        return !filter_eval(c, n->sub[0], r, np, unit, orig_unit, dep);
    default:
        break;
    }
    const char *k = n->key;
    if (strcmp(k, ".unit") == 0) {
        if (!unit) {
            *dep = 1;
            return 1;
        }
        return match_str(n, unit, strlen(unit)) ||
               (orig_unit && *orig_unit && match_str(n, orig_unit, strlen(orig_unit)));
    }
    if (strcmp(k, ".name") == 0)
        return match_str(n, r->name, np->base_len);
    if (strcmp(k, ".fullname") == 0)
        return match_str(n, r->name, r->name_len);
    if (k[0] == '/') {
        size_t len;
        const char *v = name_sub(r->name, np, k, &len);
        return match_str(n, v ? v : "", len);
    }
    const char *v = config_lookup(r, k);
    return match_str(n, v ? v : "", v ? strlen(v) : 0);
}

static int filter_uses_unit(const struct bl__fnode *n)
{
    if (n->op == FN_MATCH)
        return strcmp(n->key, ".unit") == 0;
    for (size_t i = 0; i < n->n_sub; i++)
        if (filter_uses_unit(n->sub[i]))
            return 1;
    return 0;
}

/* Fixed-order projections filter too ("/size@(1k 4k)"). */
static int fixed_ok(const bl_compare *c, const bl_gobench_result *r, const struct name_parts *np)
{
    for (size_t i = 0; i < c->n_fixed_filters; i++) {
        const struct field *f = c->fixed_filters[i];
        const char *v;
        size_t len;
        if (f->kind == FK_FULLNAME) {
            v = r->name;
            len = r->name_len;
        } else if (f->kind == FK_NAME) {
            v = r->name;
            len = np->base_len;
        } else if (f->kind == FK_SUB) {
            v = name_sub(r->name, np, f->name, &len);
            if (!v)
                v = "";
        } else {
            v = config_lookup(r, f->name);
            if (!v)
                v = "";
            len = strlen(v);
        }
        int ok = 0;
        for (size_t j = 0; j < f->n_fixed && !ok; j++)
            ok = strlen(f->fixed[j]) == len && memcmp(f->fixed[j], v, len) == 0;
        if (!ok)
            return 0;
    }
    return 1;
}

/* ---- units ---- */

/* Units are short: compare without a call. */
static inline int short_eq(const char *a, const char *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            return 0;
    }
    for (; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

static struct unitinfo *unit_info(bl_compare *c, const char *unit, size_t len, uint32_t *raw_id)
{
    for (size_t i = 0; i < c->n_ucache; i++) {
        struct ucache *u = &c->ucache[i];
        if (u->len == len && short_eq(u->s, unit, len)) {
            *raw_id = u->id;
            return &c->units[u->id];
        }
    }
    long id = intern(c, unit, len);
    if (id < 0)
        return NULL;
    if ((size_t)id >= c->cap_units) {
        size_t cap = (size_t)id * 2 + 16;
        struct unitinfo *nu = realloc(c->units, cap * sizeof *nu);
        if (!nu)
            return NULL;
        memset(nu + c->cap_units, 0, (cap - c->cap_units) * sizeof *nu);
        c->units = nu;
        c->cap_units = cap;
    }
    struct unitinfo *ui = &c->units[id];
    if (!ui->known) {
        char tidy[512];
        bl__unit_tidy(c->str.s[id], &ui->factor, tidy, sizeof tidy);
        long tid = intern(c, tidy, strlen(tidy));
        if (tid < 0)
            return NULL;
        ui = &c->units[id]; /* intern may not move units, but be safe */
        ui->tidy_id = (uint32_t)tid;
        ui->known = 1;
    }
    if (c->n_ucache < UCACHE) {
        struct ucache *u = &c->ucache[c->n_ucache++];
        u->s = c->str.s[id];
        u->len = len;
        u->id = (uint32_t)id;
    } else {
        struct ucache *u = &c->ucache[c->ucache_next++ % UCACHE];
        u->s = c->str.s[id];
        u->len = len;
        u->id = (uint32_t)id;
    }
    *raw_id = (uint32_t)id;
    return ui;
}

/* ---- cells ---- */

static long cell_get(bl_compare *c, uint32_t table, uint32_t row, uint32_t col)
{
    uint64_t k = ((uint64_t)table << 42) ^ ((uint64_t)row << 21) ^ col;
    k = mix64(k ^ ((uint64_t)table * 0x9E3779B97F4A7C15ull));
    /* chain on collision: the map stores the first cell; verify and probe */
    uint64_t v;
    for (uint64_t probe = k;; probe = mix64(probe + 1)) {
        if (!bl__umap_get(&c->cellmap, probe, &v)) {
            if (bl__grow((void **)&c->cells, &c->cap_cells, c->n_cells + 1, sizeof *c->cells))
                return -1;
            struct cell *cl = &c->cells[c->n_cells];
            memset(cl, 0, sizeof *cl);
            cl->table = table;
            cl->row = row;
            cl->col = col;
            if (umap_put(&c->cellmap, probe, c->n_cells))
                return -1;
            return (long)c->n_cells++;
        }
        struct cell *cl = &c->cells[v];
        if (cl->table == table && cl->row == row && cl->col == col)
            return (long)v;
    }
}

long bl__cell_find(const bl_compare *c, uint32_t table, uint32_t row, uint32_t col)
{
    uint64_t k = ((uint64_t)table << 42) ^ ((uint64_t)row << 21) ^ col;
    k = mix64(k ^ ((uint64_t)table * 0x9E3779B97F4A7C15ull));
    uint64_t v;
    for (uint64_t probe = k;; probe = mix64(probe + 1)) {
        if (!bl__umap_get(&c->cellmap, probe, &v))
            return -1;
        const struct cell *cl = &c->cells[v];
        if (cl->table == table && cl->row == row && cl->col == col)
            return (long)v;
    }
}

static int cell_add(struct cell *cl, double v, uint32_t residue)
{
    if (cl->n == cl->cap) {
        uint32_t cap = cl->cap ? cl->cap * 2 : 8;
        double *nv = realloc(cl->vals, cap * sizeof *nv);
        if (!nv)
            return -ENOMEM;
        cl->vals = nv;
        cl->cap = cap;
    }
    cl->vals[cl->n++] = v;
    if (cl->n_res && cl->res0 == residue)
        return 0;
    for (size_t i = 0; i < cl->n_res; i++)
        if (cl->res[i] == residue)
            return 0;
    uint32_t *nr = realloc(cl->res, (cl->n_res + 1) * sizeof *nr);
    if (!nr)
        return -ENOMEM;
    cl->res = nr;
    cl->res[cl->n_res++] = residue;
    cl->res0 = cl->res[0];
    return 0;
}

/* ---- memo: (config generation, name) -> projections ---- */

static struct memo *memo_find(bl_compare *c, const bl_gobench_result *r, uint64_t *hash)
{
    uint64_t h = bl__hash_bytes(r->name, r->name_len) ^ mix64(r->config_gen);
    *hash = h;
    if (!c->n_memo_slots)
        return NULL;
    /* slots hold the hash and the memo: one dependent load fewer per line */
    size_t j = (size_t)h & (c->n_memo_slots - 1);
    while (c->memo_slots[j].m) {
        struct memo *m = c->memo_slots[j].m;
        if (c->memo_slots[j].hash == h && m->gen == r->config_gen && m->name_len == r->name_len &&
            short_eq(m->name, r->name, r->name_len))
            return m;
        j = (j + 1) & (c->n_memo_slots - 1);
    }
    return NULL;
}

static struct memo *memo_add(bl_compare *c, const bl_gobench_result *r, uint64_t h)
{
    if ((c->n_memos + 1) * 2 > c->n_memo_slots) {
        size_t ns = c->n_memo_slots ? c->n_memo_slots * 2 : 1024;
        struct memo_slot *slots = calloc(ns, sizeof *slots);
        if (!slots)
            return NULL;
        for (size_t i = 0; i < c->n_memos; i++) {
            size_t j = (size_t)c->memos[i]->hash & (ns - 1);
            while (slots[j].m)
                j = (j + 1) & (ns - 1);
            slots[j].hash = c->memos[i]->hash;
            slots[j].m = c->memos[i];
        }
        free(c->memo_slots);
        c->memo_slots = slots;
        c->n_memo_slots = ns;
    }
    if (bl__grow((void **)&c->memos, &c->cap_memos, c->n_memos + 1, sizeof *c->memos))
        return NULL;
    struct memo *m = calloc(1, sizeof *m + r->name_len + 1);
    if (!m)
        return NULL;
    m->hash = h;
    m->gen = r->config_gen;
    m->name_len = r->name_len;
    m->name = (char *)(m + 1);
    memcpy(m->name, r->name, r->name_len);
    m->pass = PASS_UNKNOWN;
    c->memos[c->n_memos] = m;
    size_t j = (size_t)h & (c->n_memo_slots - 1);
    while (c->memo_slots[j].m)
        j = (j + 1) & (c->n_memo_slots - 1);
    c->memo_slots[j].hash = h;
    c->memo_slots[j].m = m;
    c->n_memos++;
    return m;
}

static int memo_project(bl_compare *c, struct memo *m, const bl_gobench_result *r,
                        const struct name_parts *np)
{
    /* table (without unit), row, col, residue: the order benchstat projects in */
    int err = proj_populate(c, c->tablep, r, np);
    if (err)
        return err;
    m->tbl_n = c->tablep->n_fields;
    m->tbl_row = malloc((m->tbl_n ? m->tbl_n : 1) * sizeof(uint32_t));
    if (!m->tbl_row)
        return -ENOMEM;
    memcpy(m->tbl_row, c->tablep->row, m->tbl_n * sizeof(uint32_t));
    long k;
    if ((err = proj_populate(c, c->rowp, r, np)) || (k = proj_intern(c->rowp)) < 0)
        return err ? err : -ENOMEM;
    m->row_key = (uint32_t)k;
    if ((err = proj_populate(c, c->colp, r, np)) || (k = proj_intern(c->colp)) < 0)
        return err ? err : -ENOMEM;
    m->col_key = (uint32_t)k;
    if ((err = proj_populate(c, c->resp, r, np)) || (k = proj_intern(c->resp)) < 0)
        return err ? err : -ENOMEM;
    m->res_key = (uint32_t)k;
    m->projected = 1;
    return 0;
}

static long table_key(bl_compare *c, struct memo *m, uint32_t unit_id)
{
    struct proj *p = c->tablep;
    if (row_reserve(p))
        return -1;
    memset(p->row, 0, p->cap_row * sizeof *p->row);
    memcpy(p->row, m->tbl_row,
           (m->tbl_n < p->n_fields ? m->tbl_n : p->n_fields) * sizeof(uint32_t));
    p->row[p->unit_field->idx] = unit_id;
    return proj_intern(p);
}

static int on_result(void *ctx, const bl_gobench_result *r)
{
    bl_compare *c = ctx;
    uint64_t h;
    struct memo *m = memo_find(c, r, &h);
    struct name_parts np;
    int have_np = 0;
    if (!m) {
        m = memo_add(c, r, h);
        if (!m)
            return -ENOMEM;
    }
    if (m->pass == PASS_UNKNOWN) {
        name_parse(r->name, r->name_len, &np);
        have_np = 1;
        int dep = 0;
        if (!fixed_ok(c, r, &np))
            m->pass = PASS_NONE;
        else if (c->filter_has_unit)
            m->pass = PASS_UNIT; /* decided per value */
        else
            m->pass = filter_eval(c, c->filter, r, &np, NULL, NULL, &dep) ? PASS_ALL : PASS_NONE;
    }
    if (m->pass == PASS_NONE)
        return 0;
    uint32_t uids[MEMO_UNITS];
    double vals[MEMO_UNITS];
    if (m->n_pat && r->n_values == m->n_pat) {
        size_t i;
        for (i = 0; i < r->n_values; i++) {
            const bl_gobench_value *gv = &r->values[i];
            uint32_t raw_id;
            struct unitinfo *ui = unit_info(c, gv->unit, gv->unit_len, &raw_id);
            if (!ui)
                return -ENOMEM;
            double v = gv->value, tv = v * ui->factor;
            uint32_t uid = tv != v ? ui->tidy_id : raw_id;
            if (uid != m->pat[i] || raw_id != m->pat_raw[i])
                break;
            vals[i] = tv != v ? tv : v;
        }
        if (i == r->n_values) {
            /* straight into the memo's arrays (see struct memo); positions
             * that a .unit filter rejected for this pattern are skipped */
            for (i = 0; i < r->n_values; i++) {
                if (!(m->pat_ok >> i & 1))
                    continue;
                if (m->pn[i] == m->pcap[i]) {
                    uint32_t cap = m->pcap[i] ? m->pcap[i] * 2 : 16;
                    double *nv = realloc(m->pv[i], cap * sizeof *nv);
                    if (!nv)
                        return -ENOMEM;
                    m->pv[i] = nv;
                    m->pcap[i] = cap;
                }
                m->pv[i][m->pn[i]++] = vals[i];
            }
            return 0;
        }
    }
    uint32_t raws[MEMO_UNITS], cells[MEMO_UNITS];
    unsigned char oks[MEMO_UNITS];
    for (size_t i = 0; i < r->n_values; i++) {
        const bl_gobench_value *gv = &r->values[i];
        uint32_t raw_id;
        struct unitinfo *ui = unit_info(c, gv->unit, gv->unit_len, &raw_id);
        if (!ui)
            return -ENOMEM;
        double v = gv->value, tv = v * ui->factor;
        uint32_t uid = raw_id;
        int tidied = tv != v;
        if (tidied) {
            v = tv;
            uid = ui->tidy_id;
        }
        if (i < MEMO_UNITS) {
            uids[i] = uid;
            raws[i] = raw_id;
            oks[i] = 0;
        }
        if (m->pass == PASS_UNIT) {
            if (!have_np) {
                name_parse(r->name, r->name_len, &np);
                have_np = 1;
            }
            int dep = 0;
            if (!filter_eval(c, c->filter, r, &np, c->str.s[uid], tidied ? c->str.s[raw_id] : NULL,
                             &dep))
                continue;
        }
        if (!m->projected) {
            if (!have_np) {
                name_parse(r->name, r->name_len, &np);
                have_np = 1;
            }
            /* Go projects the table key of every value before the row key;
             * orders are per projection, so this order is equivalent. */
            int err = memo_project(c, m, r, &np);
            if (err)
                return err;
        }
        long cell = -1;
        for (size_t k = 0; k < m->n_uc; k++)
            if (m->uc[k].unit == uid) {
                cell = (long)m->uc[k].cell;
                break;
            }
        if (cell < 0) {
            long tk = table_key(c, m, uid);
            if (tk < 0)
                return -ENOMEM;
            cell = cell_get(c, (uint32_t)tk, m->row_key, m->col_key);
            if (cell < 0)
                return -ENOMEM;
            if (m->n_uc < MEMO_UNITS) {
                m->uc[m->n_uc].unit = uid;
                m->uc[m->n_uc].cell = (uint32_t)cell;
                m->n_uc++;
            }
        }
        if (cell_add(&c->cells[cell], v, m->res_key))
            return -ENOMEM;
        if (i < MEMO_UNITS) {
            oks[i] = 1;
            cells[i] = (uint32_t)cell;
        }
    }
    /* The first line sets the memo's pattern: later lines with the same
     * units (tidied and as written) take the fast path. A .unit filter's
     * verdict depends on nothing else, so it is part of the pattern. */
    if (!m->n_pat && r->n_values <= MEMO_UNITS) {
        m->pat_ok = 0;
        for (size_t i = 0; i < r->n_values; i++) {
            m->pat[i] = uids[i];
            m->pat_raw[i] = raws[i];
            m->pat_cell[i] = oks[i] ? cells[i] : 0;
            m->pat_ok |= (unsigned)oks[i] << i;
        }
        m->n_pat = (uint32_t)r->n_values;
    }
    return 0;
}

/* Give the fast path's arrays to their cells: adopt when the cell has
 * fewer values of its own (the first line's), append otherwise. */
static int flush_memos(bl_compare *c)
{
    for (size_t i = 0; i < c->n_memos; i++) {
        struct memo *m = c->memos[i];
        for (size_t k = 0; k < m->n_pat; k++) {
            if (!m->pn[k])
                continue;
            struct cell *cl = &c->cells[m->pat_cell[k]];
            double *big = m->pv[k], *small = cl->vals;
            uint32_t nb = m->pn[k], cb = m->pcap[k], ns = cl->n;
            if (ns > nb) {
                big = cl->vals;
                small = m->pv[k];
                nb = cl->n;
                cb = cl->cap;
                ns = m->pn[k];
            }
            if (nb + ns > cb) {
                double *nv = realloc(big, (size_t)(nb + ns) * sizeof *nv);
                if (!nv)
                    return -ENOMEM;
                big = nv;
                cb = nb + ns;
            }
            if (ns)
                memcpy(big + nb, small, ns * sizeof *small);
            free(small);
            cl->vals = big;
            cl->n = nb + ns;
            cl->cap = cb;
            m->pv[k] = NULL;
            m->pn[k] = m->pcap[k] = 0;
        }
    }
    return 0;
}

/* Unit metadata is found by (unit, key) through a hash index of
 * "unit\0key" pairs: n Unit lines are O(n), not O(n^2). */
static char *umeta_pair(const char *unit, const char *key, size_t *len)
{
    size_t lu = strlen(unit), lk = strlen(key);
    char *p = malloc(lu + lk + 2);
    if (p) {
        memcpy(p, unit, lu + 1);
        memcpy(p + lu + 1, key, lk + 1);
    }
    *len = lu + 1 + lk;
    return p;
}

static const char *umeta_key(const void *arr, size_t i)
{
    return ((const struct umeta *)arr)[i].pair;
}

/* The position of (unit, key), -1, or -2 when memory runs out. */
static long find_umeta(const bl_compare *c, const char *unit, const char *key)
{
    size_t len;
    char *p = umeta_pair(unit, key, &len);
    if (!p)
        return -2;
    long at = bl__strindex_find(&c->umeta_index, p, len, umeta_key, c->umeta);
    free(p);
    return at;
}

static int on_unit(void *ctx, const char *unit, const char *key, const char *value,
                   const char *path, size_t line)
{
    bl_compare *c = ctx;
    double f;
    char tidy[512];
    bl__unit_tidy(unit, &f, tidy, sizeof tidy);
    if (f == 1)
        snprintf(tidy, sizeof tidy, "%s", unit);
    long at = find_umeta(c, tidy, key);
    if (at == -2)
        return -ENOMEM;
    if (at >= 0) {
        if (strcmp(c->umeta[at].value, value) != 0) {
            char where[512];
            snprintf(where, sizeof where, "%s:%zu", path, line);
            if (bl_diags_add(c->opts.diags, where, "metadata %s of unit %s already set to %s", key,
                             unit, c->umeta[at].value))
                return -ENOMEM;
        }
        return 0;
    }
    if (bl__grow((void **)&c->umeta, &c->cap_umeta, c->n_umeta + 1, sizeof *c->umeta))
        return -ENOMEM;
    struct umeta *u = &c->umeta[c->n_umeta];
    size_t len;
    u->unit = strdup(tidy);
    u->key = strdup(key);
    u->value = strdup(value);
    u->pair = umeta_pair(tidy, key, &len);
    if (!u->unit || !u->key || !u->value || !u->pair ||
        bl__strindex_add_n(&c->umeta_index, u->pair, len, c->n_umeta)) {
        free(u->unit);
        free(u->key);
        free(u->value);
        free(u->pair);
        return -ENOMEM;
    }
    c->n_umeta++;
    return 0;
}

const char *bl__unit_meta(const bl_compare *c, const char *unit, const char *key)
{
    long at = find_umeta(c, unit, key);
    return at >= 0 ? c->umeta[at].value : NULL;
}

static void on_error(void *ctx, const char *path, size_t line, const char *msg)
{
    bl_compare *c = ctx;
    char where[512];
    if (line)
        snprintf(where, sizeof where, "%s:%zu", path, line);
    else
        snprintf(where, sizeof where, "%s", path); /* JSON: msg starts with the member's path */
    bl_diags_add(c->opts.diags, where, "%s", msg);
}

static void on_meta(void *ctx, const char *key, const char *value)
{
    (void)ctx;
    (void)key;
    (void)value; /* run metadata does not take part in comparisons */
}

int bl__compare_feed_result(bl_compare *c, const bl_gobench_result *r)
{
    return on_result(c, r);
}

const bl_gobench_handler *bl__compare_handler(bl_compare *c)
{
    c->handler.ctx = c;
    c->handler.on_result = on_result;
    c->handler.on_unit = on_unit;
    c->handler.on_meta = on_meta;
    c->handler.on_error = on_error;
    return &c->handler;
}

/* ---- setup ---- */

void bl_compare_options_init(bl_compare_options *o)
{
    memset(o, 0, sizeof *o);
    o->table = ".config";
    o->row = ".fullname";
    o->col = ".file";
    o->ignore = "";
    o->filter = "*";
    o->alpha = 0.05;
    o->confidence = 0.95;
}

static int add_excl(char ***arr, size_t *n, const char *s)
{
    char **na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na)
        return -ENOMEM;
    *arr = na;
    na[*n] = strdup(s);
    if (!na[*n])
        return -ENOMEM;
    (*n)++;
    return 0;
}

/* makeProjection for each parsed element; errors are benchstat's. */
static int build_proj(bl_compare *c, struct proj *p, struct bl__pfield *pf, size_t n, const char *q,
                      char *err, size_t err_size)
{
    for (size_t i = 0; i < n; i++) {
        struct bl__pfield *e = &pf[i];
        if (e->order < 0) {
            bl__syntax_error(err, err_size, q, e->order_off, e->fixed[0]);
            return BL_EUSAGE;
        }
        int kind;
        if (strcmp(e->key, ".config") == 0) {
            if (e->order == ORD_FIXED) {
                bl__syntax_error(err, err_size, q, e->order_off,
                                 "fixed order not allowed for .config");
                return BL_EUSAGE;
            }
            c->have_config = 1;
            kind = FK_GROUP;
        } else if (strcmp(e->key, ".fullname") == 0) {
            c->have_fullname = 1;
            kind = FK_FULLNAME;
        } else if (strcmp(e->key, ".unit") == 0) {
            bl__syntax_error(err, err_size, q, e->key_off, ".unit is only allowed in filters");
            return BL_EUSAGE;
        } else {
            if (e->key[0] == '\0') {
                bl__syntax_error(err, err_size, q, e->key_off, "key must not be empty");
                return BL_EUSAGE;
            }
            if (strcmp(e->key, ".name") == 0 || e->key[0] == '/') {
                if (strcmp(e->key, ".name") == 0)
                    c->excl_name = 1;
                else if (add_excl(&c->excl, &c->n_excl, e->key))
                    return -ENOMEM;
                if (strcmp(e->key, "/gomaxprocs") == 0)
                    c->excl_procs = 1;
                kind = strcmp(e->key, ".name") == 0 ? FK_NAME : FK_SUB;
            } else {
                if (add_excl(&c->config_excl, &c->n_config_excl, e->key))
                    return -ENOMEM;
                kind = FK_CONFIG;
            }
        }
        if (!p)
            continue; /* -ignore: exclusions only */
        struct field *f = field_new(p, e->key, kind, e->order);
        if (!f)
            return -ENOMEM;
        if (e->order == ORD_FIXED) {
            f->fixed = e->fixed;
            f->n_fixed = e->n_fixed;
            e->fixed = NULL;
            e->n_fixed = 0;
            for (size_t j = 0; j < f->n_fixed; j++) {
                long id = intern(c, f->fixed[j], strlen(f->fixed[j]));
                uint64_t dummy;
                if (id < 0 || (!bl__umap_get(&f->fixed_map, (uint64_t)id, &dummy) &&
                               umap_put(&f->fixed_map, (uint64_t)id, j)))
                    return -ENOMEM;
            }
            struct field **ff = realloc(c->fixed_filters, (c->n_fixed_filters + 1) * sizeof *ff);
            if (!ff) {
                field_free(f);
                return -ENOMEM;
            }
            c->fixed_filters = ff;
            c->fixed_filters[c->n_fixed_filters++] = f;
        }
        if (proj_add_top(p, f))
            return -ENOMEM;
    }
    return 0;
}

int bl_compare_create(const bl_compare_options *opts, bl_compare **out, char *err, size_t err_size)
{
    *out = NULL;
    bl_compare *c = calloc(1, sizeof *c);
    if (!c)
        return -ENOMEM;
    c->opts = *opts;
    pthread_mutex_init(&c->warn_mu, NULL);
    int rc = bl__strtab_init(&c->str);
    struct bl__pfield *pf[4] = {0};
    size_t npf[4] = {0};
    const char *qs[4] = {opts->table, opts->row, opts->col, opts->ignore};
    static const char *names[4] = {"-table", "-row", "-col", "-ignore"};
    char msg[1024];
    if (rc)
        goto fail;
    rc = bl__parse_filter(opts->filter, &c->filter, msg, sizeof msg);
    if (rc) {
        if (rc == BL_EUSAGE)
            snprintf(err, err_size, "parsing -filter: %s", msg);
        goto fail;
    }
    c->filter_has_unit = filter_uses_unit(c->filter);
    c->tablep = calloc(1, sizeof *c->tablep);
    c->rowp = calloc(1, sizeof *c->rowp);
    c->colp = calloc(1, sizeof *c->colp);
    c->resp = calloc(1, sizeof *c->resp);
    if (!c->tablep || !c->rowp || !c->colp || !c->resp) {
        rc = -ENOMEM;
        goto fail;
    }
    /* All four parse before any is built: exclusions are global, and the
     * first error in argument order is the one reported. */
    struct proj *ps[4] = {c->tablep, c->rowp, c->colp, NULL};
    for (int i = 0; i < 4; i++) {
        rc = bl__parse_projection(qs[i], &pf[i], &npf[i], msg, sizeof msg);
        if (rc == 0)
            rc = build_proj(c, ps[i], pf[i], npf[i], qs[i], msg, sizeof msg);
        if (rc) {
            if (rc == BL_EUSAGE)
                snprintf(err, err_size, "parsing %s: %s", names[i], msg);
            goto fail;
        }
        if (i == 0) {
            struct field *u = field_new(c->tablep, ".unit", FK_UNIT, ORD_FIRST);
            if (proj_add_top(c->tablep, u)) {
                rc = -ENOMEM;
                goto fail;
            }
            c->tablep->unit_field = u;
        }
    }
    if (!c->have_config) {
        struct field *g = field_new(c->resp, ".config", FK_GROUP, ORD_FIRST);
        if (proj_add_top(c->resp, g)) {
            rc = -ENOMEM;
            goto fail;
        }
    }
    if (!c->have_fullname) {
        struct field *f = field_new(c->resp, ".fullname", FK_FULLNAME, ORD_FIRST);
        if (proj_add_top(c->resp, f)) {
            rc = -ENOMEM;
            goto fail;
        }
    }
    for (int i = 0; i < 4; i++)
        bl__pfields_free(pf[i], npf[i]);
    *out = c;
    return 0;
fail:
    for (int i = 0; i < 4; i++)
        bl__pfields_free(pf[i], npf[i]);
    bl_compare_destroy(c);
    return rc;
}

void bl_compare_destroy(bl_compare *c)
{
    if (!c)
        return;
    bl__fnode_free(c->filter);
    proj_free(c->tablep);
    proj_free(c->rowp);
    proj_free(c->colp);
    proj_free(c->resp);
    for (size_t i = 0; i < c->n_memos; i++) {
        free(c->memos[i]->tbl_row);
        for (size_t k = 0; k < MEMO_UNITS; k++)
            free(c->memos[i]->pv[k]);
        free(c->memos[i]);
    }
    free(c->memos);
    free(c->memo_slots);
    for (size_t i = 0; i < c->n_cells; i++) {
        free(c->cells[i].vals);
        free(c->cells[i].res);
        free(c->cells[i].warn);
        free(c->cells[i].cwarn);
    }
    free(c->cells);
    umap_fini(&c->cellmap);
    for (size_t i = 0; i < c->n_tables; i++) {
        free(c->tables[i].rows);
        free(c->tables[i].cols);
        for (size_t j = 0; j < c->tables[i].n_cols; j++)
            free(c->tables[i].sum[j].warn);
        free(c->tables[i].sum);
    }
    free(c->tables);
    for (size_t i = 0; i < c->n_excl; i++)
        free(c->excl[i]);
    free(c->excl);
    for (size_t i = 0; i < c->n_config_excl; i++)
        free(c->config_excl[i]);
    free(c->config_excl);
    free(c->fixed_filters);
    for (size_t i = 0; i < c->n_umeta; i++) {
        free(c->umeta[i].unit);
        free(c->umeta[i].key);
        free(c->umeta[i].value);
        free(c->umeta[i].pair);
    }
    free(c->umeta);
    bl__strindex_fini(&c->umeta_index);
    free(c->units);
    bl__buf_fini(&c->tmp);
    for (size_t i = 0; i < c->n_warn_strs; i++)
        free(c->warn_strs[i]);
    free(c->warn_strs);
    bl__strtab_fini(&c->str);
    pthread_mutex_destroy(&c->warn_mu);
    free(c);
}

/* ---- finishing: sort, summarise, compare ---- */

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

static int key_less(const bl_compare *c, const struct proj *p, uint32_t a, uint32_t b)
{
    for (size_t i = 0; i < p->n_flat; i++) {
        const struct field *f = p->flat[i];
        uint32_t va = bl__key_get(p, a, f), vb = bl__key_get(p, b, f);
        if (va != vb) {
            int r = field_cmp(c, f, va, vb);
            if (r)
                return r < 0;
            return str_less_go(c, va, vb);
        }
    }
    return 0;
}

static int key_qsort_cmp(const void *x, const void *y, void *arg)
{
    const struct sortctx *s = arg;
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    if (key_less(s->c, s->p, a, b))
        return -1;
    if (key_less(s->c, s->p, b, a))
        return 1;
    return 0;
}

static void sort_keys(const bl_compare *c, const struct proj *p, uint32_t *keys, size_t n)
{
    struct sortctx s = {c, p};
    qsort_r(keys, n, sizeof *keys, key_qsort_cmp, &s);
}

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

static int summarize_cell(bl_compare *c, struct cell *cl, int exact)
{
    bl_bstat_sort(cl->vals, cl->n);
    char msg[512], a[64], b[64];
    /* residue warning first: it is the sample's */
    if (cl->n_res > 1) {
        struct bl__buf w = {0};
        bl__buf_puts(&w, "benchmarks vary in ");
        int first = 1;
        for (size_t i = 0; i < c->resp->n_flat; i++) {
            const struct field *f = c->resp->flat[i];
            uint32_t base = bl__key_get(c->resp, cl->res[0], f);
            for (size_t k = 1; k < cl->n_res; k++) {
                if (bl__key_get(c->resp, cl->res[k], f) != base) {
                    if (!first)
                        bl__buf_puts(&w, ", ");
                    bl__buf_puts(&w, f->name);
                    first = 0;
                    break;
                }
            }
        }
        int rc = w.data ? add_warn(c, &cl->warn, &cl->n_warn, w.data) : -ENOMEM;
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
    if (flush_memos(c))
        return -ENOMEM;
    if (proj_flatten(c->tablep) || proj_flatten(c->rowp) || proj_flatten(c->colp) ||
        proj_flatten(c->resp))
        return -ENOMEM;
    /* tables: the distinct table keys of the cells */
    struct umap seen = {0};
    uint32_t *tkeys = malloc((c->n_cells ? c->n_cells : 1) * sizeof *tkeys);
    if (!tkeys)
        return -ENOMEM;
    size_t nt = 0;
    for (size_t i = 0; i < c->n_cells; i++) {
        uint64_t d;
        if (!bl__umap_get(&seen, c->cells[i].table, &d)) {
            if (umap_put(&seen, c->cells[i].table, nt)) {
                free(tkeys);
                umap_fini(&seen);
                return -ENOMEM;
            }
            tkeys[nt++] = c->cells[i].table;
        }
    }
    umap_fini(&seen);
    sort_keys(c, c->tablep, tkeys, nt);
    c->tables = calloc(nt ? nt : 1, sizeof *c->tables);
    if (!c->tables) {
        free(tkeys);
        return -ENOMEM;
    }
    c->n_tables = nt;
    struct umap tindex = {0};
    for (size_t i = 0; i < nt; i++) {
        c->tables[i].key = tkeys[i];
        c->tables[i].unit = bl__key_get(c->tablep, tkeys[i], c->tablep->unit_field);
        if (umap_put(&tindex, tkeys[i], i)) {
            free(tkeys);
            umap_fini(&tindex);
            return -ENOMEM;
        }
    }
    free(tkeys);
    /* rows and columns per table */
    struct umap rs = {0}, cs = {0};
    int rc = 0;
    for (size_t i = 0; i < c->n_cells && !rc; i++) {
        struct cell *cl = &c->cells[i];
        uint64_t ti, d;
        bl__umap_get(&tindex, cl->table, &ti);
        struct table *t = &c->tables[ti];
        uint64_t rk = ((uint64_t)ti << 32) | cl->row, ck = ((uint64_t)ti << 32) | cl->col;
        if (!bl__umap_get(&rs, rk, &d)) {
            if (umap_put(&rs, rk, 0) ||
                bl__grow((void **)&t->rows, &t->cap_rows, t->n_rows + 1, sizeof *t->rows))
                rc = -ENOMEM;
            else
                t->rows[t->n_rows++] = cl->row;
        }
        if (!rc && !bl__umap_get(&cs, ck, &d)) {
            if (umap_put(&cs, ck, 0) ||
                bl__grow((void **)&t->cols, &t->cap_cols, t->n_cols + 1, sizeof *t->cols))
                rc = -ENOMEM;
            else
                t->cols[t->n_cols++] = cl->col;
        }
    }
    umap_fini(&rs);
    umap_fini(&cs);
    umap_fini(&tindex);
    if (rc)
        return rc;
    for (size_t i = 0; i < nt && !rc; i++) {
        struct table *t = &c->tables[i];
        sort_keys(c, c->rowp, t->rows, t->n_rows);
        sort_keys(c, c->colp, t->cols, t->n_cols);
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

/* ---- inputs ---- */

int bl_compare_read_inputs(bl_compare *c, char *const *args, size_t n_args, char *err,
                           size_t err_size)
{
    static char dash[] = "-";
    static char *const stdin_arg[] = {dash};
    if (n_args == 0) {
        args = stdin_arg;
        n_args = 1;
    }
    struct input {
        const char *path;
        char *label;
        int labeled;
    } *in = calloc(n_args, sizeof *in);
    if (!in)
        return -ENOMEM;
    int rc = 0;
    for (size_t i = 0; i < n_args && !rc; i++) {
        const char *eq = strchr(args[i], '=');
        if (eq) {
            in[i].label = strndup(args[i], (size_t)(eq - args[i]));
            in[i].path = eq + 1;
            in[i].labeled = 1;
        } else {
            in[i].label = strdup(args[i]);
            in[i].path = args[i];
        }
        if (!in[i].label)
            rc = -ENOMEM;
    }
    /* the same unlabelled path twice: path#0, path#1, ... */
    for (size_t i = 0; i < n_args && !rc; i++) {
        if (in[i].labeled)
            continue;
        size_t count = 0, idx = 0;
        for (size_t j = 0; j < n_args; j++) {
            if (!in[j].labeled && strcmp(in[j].path, in[i].path) == 0) {
                if (j < i)
                    idx++;
                count++;
            }
        }
        if (count > 1) {
            struct bl__buf b = {0};
            bl__buf_printf(&b, "%s#%zu", in[i].path, idx);
            if (!b.data) {
                rc = -ENOMEM;
                break;
            }
            free(in[i].label);
            in[i].label = b.data;
        }
    }
    if (!rc) {
        const char **paths = malloc(n_args * sizeof *paths),
                   **labels = malloc(n_args * sizeof *labels);
        if (!paths || !labels) {
            rc = -ENOMEM;
        } else {
            for (size_t i = 0; i < n_args; i++) {
                paths[i] = in[i].path;
                labels[i] = in[i].label;
            }
            err[0] = '\0';
            rc = bl__compare_read_all(c, paths, labels, n_args, err, err_size);
        }
        free(paths);
        free(labels);
    }
    for (size_t i = 0; i < n_args; i++)
        free(in[i].label);
    free(in);
    return rc;
}
