/*
 * proj.c - the compare engine's projections and filter (benchstat's
 * benchproc): the fields of -table, -row, -col and -ignore, how a result
 * is projected into a key of each, and whether it passes -filter and the
 * fixed orders ("/size@(1k 4k)").
 *
 * Keys are interned: a key is the vector of string ids of its fields and
 * the id of its .config map (cfgmap.c), and a key's observation order is
 * recorded when it is first interned, as benchstat records it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

/* ---- projections ---- */

struct field *bl__field_new(struct proj *p, const char *name, int kind, int order)
{
    struct field *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->name = strdup(name);
    f->kind = kind;
    f->order = order;
    f->idx = kind == FK_GROUP ? -1 : (long)p->n_fields++;
    f->sub = -1;
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
    bl__umap_fini(&f->obs);
    bl__umap_fini(&f->fixed_map);
    free(f);
}

int bl__proj_add_top(struct proj *p, struct field *f)
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

void bl__proj_free(struct proj *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_top; i++)
        field_free(p->top[i]);
    free(p->top);
    free(p->flat);
    free(p->flat_at);
    free(p->row);
    free(p->pool);
    free(p->key_slots);
    free(p);
}

/* The flattened fields (config group expanded): the sort and header order. */
int bl__proj_flatten(struct proj *p)
{
    free(p->flat);
    free(p->flat_at);
    p->n_flat = 0;
    size_t n = 0;
    for (size_t i = 0; i < p->n_top; i++)
        n += p->top[i]->kind == FK_GROUP ? p->top[i]->n_subs : 1;
    p->flat = malloc((n ? n : 1) * sizeof *p->flat);
    p->flat_at = malloc((p->n_top ? p->n_top : 1) * sizeof *p->flat_at);
    if (!p->flat || !p->flat_at)
        return -ENOMEM;
    for (size_t i = 0; i < p->n_top; i++) {
        struct field *f = p->top[i];
        p->flat_at[i] = p->n_flat;
        if (f->kind == FK_GROUP)
            for (size_t j = 0; j < f->n_subs; j++)
                p->flat[p->n_flat++] = f->subs[j];
        else
            p->flat[p->n_flat++] = f;
    }
    return 0;
}

static const uint32_t *key_at(const struct proj *p, uint32_t key)
{
    return p->pool + (size_t)key * (p->n_fields + 1);
}

uint32_t bl__key_get(const struct proj *p, uint32_t key, const struct field *f)
{
    if (key == BL__KEY_EMPTY)
        return 0;
    if (f->sub >= 0)
        return bl__cfgmap_get(p->maps, key_at(p, key)[p->n_fields], (uint32_t)f->sub);
    if (f->idx < 0)
        return 0;
    return key_at(p, key)[f->idx];
}

const struct field *bl__key_diff(const struct proj *p, uint32_t a, uint32_t b, size_t *pos)
{
    if (a == b)
        return NULL;
    for (size_t i = 0; i < p->n_top; i++) {
        const struct field *f = p->top[i];
        size_t at = p->flat_at[i];
        if (f->kind != FK_GROUP) {
            if (at >= *pos && bl__key_get(p, a, f) != bl__key_get(p, b, f)) {
                *pos = at;
                return f;
            }
            continue;
        }
        if (at + f->n_subs <= *pos)
            continue;
        uint32_t ma = a == BL__KEY_EMPTY ? 0 : key_at(p, a)[p->n_fields];
        uint32_t mb = b == BL__KEY_EMPTY ? 0 : key_at(p, b)[p->n_fields];
        long d = bl__cfgmap_diff(p->maps, ma, mb, (uint32_t)(*pos > at ? *pos - at : 0));
        if (d >= 0 && (size_t)d < f->n_subs) {
            *pos = at + (size_t)d;
            return f->subs[d];
        }
    }
    return NULL;
}

int bl__row_reserve(struct proj *p)
{
    /* always allocated, even for a projection of no fields: the row is
     * passed to memcpy/memcmp/memset, which must not get NULL even for 0 bytes */
    if (p->row && p->cap_row > p->n_fields) /* and one for the .config map */
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

/* Intern p->row[0..n_fields) and p->row_cfg as a key; record observation
 * orders of new keys. */
long bl__proj_intern(struct proj *p)
{
    size_t w = p->n_fields + 1;
    p->row[p->n_fields] = p->row_cfg; /* cap_row > n_fields: see bl__row_reserve */
    uint64_t h = bl__hash_bytes(p->row, w * sizeof(uint32_t));
    if (p->n_key_slots) {
        size_t j = (size_t)h & (p->n_key_slots - 1);
        while (p->key_slots[j]) {
            uint32_t k = p->key_slots[j] - 1;
            if (memcmp(key_at(p, k), p->row, w * sizeof(uint32_t)) == 0)
                return k;
            j = (j + 1) & (p->n_key_slots - 1);
        }
    }
    if (p->n_keys >= UINT32_MAX - 1)
        return -ENOMEM;
    /* New key: update observation orders of the top-level fields. */
    for (size_t i = 0; i < p->n_top; i++) {
        struct field *f = p->top[i];
        if (!f->track)
            continue;
        uint32_t v = p->row[f->idx];
        uint64_t dummy;
        if (!bl__umap_get(&f->obs, v, &dummy) && bl__umap_put(&f->obs, v, f->obs.n))
            return -ENOMEM;
    }
    if ((p->n_keys + 1) * 2 > p->n_key_slots) {
        size_t ns = p->n_key_slots ? p->n_key_slots * 2 : 64;
        uint32_t *slots = calloc(ns, sizeof *slots);
        if (!slots)
            return -ENOMEM;
        for (size_t k = 0; k < p->n_keys; k++) {
            uint64_t hk = bl__hash_bytes(key_at(p, (uint32_t)k), w * sizeof(uint32_t));
            size_t j = (size_t)hk & (ns - 1);
            while (slots[j])
                j = (j + 1) & (ns - 1);
            slots[j] = (uint32_t)k + 1;
        }
        free(p->key_slots);
        p->key_slots = slots;
        p->n_key_slots = ns;
    }
    if (bl__grow((void **)&p->pool, &p->cap_pool, (p->n_keys + 1) * w, sizeof *p->pool))
        return -ENOMEM;
    uint32_t k = (uint32_t)p->n_keys++;
    memcpy(p->pool + (size_t)k * w, p->row, w * sizeof(uint32_t));
    size_t j = (size_t)h & (p->n_key_slots - 1);
    while (p->key_slots[j])
        j = (j + 1) & (p->n_key_slots - 1);
    p->key_slots[j] = k + 1;
    return k;
}

/* A .config key new to the group: its field in every .config group of p. */
int bl__proj_add_sub(struct proj *p, const char *name, uint32_t kid, size_t ord)
{
    for (size_t i = 0; i < p->n_top; i++) {
        struct field *g = p->top[i];
        if (g->kind != FK_GROUP)
            continue;
        struct field *sf = calloc(1, sizeof *sf);
        if (!sf || !(sf->name = strdup(name))) {
            free(sf);
            return -ENOMEM;
        }
        sf->kind = FK_CONFIG;
        sf->order = ORD_FIRST; /* benchstat never records orders of .config keys */
        sf->idx = -1;
        sf->sub = (long)ord;
        sf->kid = kid;
        struct field **ns = realloc(g->subs, (g->n_subs + 1) * sizeof *ns);
        if (!ns) {
            field_free(sf);
            return -ENOMEM;
        }
        g->subs = ns;
        g->subs[g->n_subs++] = sf;
    }
    return 0;
}

/* ---- names ---- */

void bl__name_parse(const char *s, size_t n, struct name_parts *np)
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

/* Value of a name key ("/size") in the name, or NULL: a "/size=8" part, or
 * Google Benchmark's "/size:8" (its names, and benchlab's of its suites). */
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
        if (np->part[i].len > kl && memcmp(p, key, kl) == 0 && (p[kl] == '=' || p[kl] == ':')) {
            *len = np->part[i].len - kl - 1;
            return p + kl + 1;
        }
    }
    *len = 0;
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
            if (len > kl && memcmp(p, c->excl[k], kl) == 0 && (p[kl] == '=' || p[kl] == ':'))
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

static long intern(bl_compare *c, const char *s, size_t n)
{
    return bl__strtab_intern(&c->str, s, n);
}

/* Fill p->row from result r (all but .unit). */
int bl__proj_populate(bl_compare *c, struct proj *p, const bl_gobench_result *r,
                      const struct name_parts *np)
{
    if (bl__row_reserve(p))
        return -ENOMEM;
    memset(p->row, 0, p->cap_row * sizeof *p->row);
    p->row_cfg = 0;
    for (size_t i = 0; i < p->n_top; i++) {
        struct field *f = p->top[i];
        long id = 0;
        switch (f->kind) {
        case FK_GROUP:
            p->row_cfg = c->cfg_map; /* cfg_sync (tables.c) made it current */
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
        case FK_CONFIG:
            id = bl__cfg_value(c, f->kid);
            break;
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
int bl__filter_eval(const bl_compare *c, const struct bl__fnode *n, const bl_gobench_result *r,
                    const struct name_parts *np, const char *unit, const char *orig_unit, int *dep)
{
    switch (n->op) {
    case FN_AND:
        for (size_t i = 0; i < n->n_sub; i++)
            if (!bl__filter_eval(c, n->sub[i], r, np, unit, orig_unit, dep))
                return 0;
        return 1;
    case FN_OR:
        for (size_t i = 0; i < n->n_sub; i++)
            if (bl__filter_eval(c, n->sub[i], r, np, unit, orig_unit, dep))
                return 1;
        return 0;
    case FN_NOT:
        return !bl__filter_eval(c, n->sub[0], r, np, unit, orig_unit, dep);
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
    const char *v = bl__cfg_lookup(c, k);
    return match_str(n, v, strlen(v));
}

int bl__filter_uses_unit(const struct bl__fnode *n)
{
    if (n->op == FN_MATCH)
        return strcmp(n->key, ".unit") == 0;
    for (size_t i = 0; i < n->n_sub; i++)
        if (bl__filter_uses_unit(n->sub[i]))
            return 1;
    return 0;
}

/* Fixed-order projections filter too ("/size@(1k 4k)"). */
int bl__fixed_ok(const bl_compare *c, const bl_gobench_result *r, const struct name_parts *np)
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
            v = c->str.s[bl__cfg_value(c, f->kid)];
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

int bl__compare_exclude_config(bl_compare *c, const char *key)
{
    for (size_t i = 0; i < c->n_config_excl; i++)
        if (strcmp(c->config_excl[i], key) == 0)
            return 0;
    return add_excl(&c->config_excl, &c->n_config_excl, key);
}

/* makeProjection for each parsed element; errors are benchstat's. */
int bl__build_proj(bl_compare *c, struct proj *p, struct bl__pfield *pf, size_t n, const char *q,
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
        struct field *f = bl__field_new(p, e->key, kind, e->order);
        if (!f)
            return -ENOMEM;
        if (kind == FK_CONFIG) {
            long kid = intern(c, e->key, strlen(e->key));
            if (kid < 0) {
                field_free(f);
                return -ENOMEM;
            }
            f->kid = (uint32_t)kid;
        }
        if (e->order == ORD_FIXED) {
            f->fixed = e->fixed;
            f->n_fixed = e->n_fixed;
            e->fixed = NULL;
            e->n_fixed = 0;
            for (size_t j = 0; j < f->n_fixed; j++) {
                long id = intern(c, f->fixed[j], strlen(f->fixed[j]));
                uint64_t dummy;
                if (id < 0 || (!bl__umap_get(&f->fixed_map, (uint64_t)id, &dummy) &&
                               bl__umap_put(&f->fixed_map, (uint64_t)id, j)))
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
        if (bl__proj_add_top(p, f))
            return -ENOMEM;
    }
    return 0;
}
