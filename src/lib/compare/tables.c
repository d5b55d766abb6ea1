/*
 * tables.c - the compare engine (benchstat v2's grouping and statistics,
 * golang.org/x/perf benchproc, benchtab, benchmath): the compare object's
 * lifecycle and the building of its tables from the results.
 *
 * Results stream in from the readers; each is filtered, projected into a
 * table key (with its unit), a row key, a column key and a residue key
 * (proj.c), and each of its values becomes a sample of one cell. Nothing
 * else of the input is kept. To keep that fast, the projection of a result
 * is memoised per (configuration generation, name): files of a thousand
 * repetitions of the same benchmarks hash each line's name once and append
 * a double.
 *
 * Observation orders (benchstat sorts rows, columns and units in the order
 * first seen) are recorded exactly when benchstat records them: when a key
 * is interned for the first time.
 *
 * bl_compare_finish() (finish.c) sorts tables, rows and columns (sort.c)
 * and computes every cell's summary, comparison and the geomean row; the
 * writers (write_*.c) only format.
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
#include "compare_int.h"

/* ---- units ---- */

static long intern(bl_compare *c, const char *s, size_t n)
{
    return bl__strtab_intern(&c->str, s, n);
}

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
    k = bl__mix64(k ^ ((uint64_t)table * 0x9E3779B97F4A7C15ull));
    /* chain on collision: the map stores the first cell; verify and probe */
    uint64_t v;
    for (uint64_t probe = k;; probe = bl__mix64(probe + 1)) {
        if (!bl__umap_get(&c->cellmap, probe, &v)) {
            if (bl__grow((void **)&c->cells, &c->cap_cells, c->n_cells + 1, sizeof *c->cells))
                return -1;
            struct cell *cl = &c->cells[c->n_cells];
            memset(cl, 0, sizeof *cl);
            cl->table = table;
            cl->row = row;
            cl->col = col;
            if (bl__umap_put(&c->cellmap, probe, c->n_cells))
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
    k = bl__mix64(k ^ ((uint64_t)table * 0x9E3779B97F4A7C15ull));
    uint64_t v;
    for (uint64_t probe = k;; probe = bl__mix64(probe + 1)) {
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

/* ---- the configuration in effect ----
 *
 * The readers tell each change of the configuration (bl__compare_config_set)
 * or, for a new input, the whole of it (bl__compare_config_reset); results
 * carry only its generation. A change is O(1) here; the .config map
 * (cfgmap.c) is brought up to date with the keys changed since, when a
 * result is next projected. A configuration that changes before every
 * result therefore costs O(log n) per change, not O(its width). */

#define CFG_EXCLUDED UINT32_MAX

/* The state of key k, or NULL when k has never been set (all zero). */
static inline struct cfg_ks *cfg_ks_of(const bl_compare *c, uint32_t k)
{
    return k < c->n_cfg_ks ? &c->cfg_ks[k] : NULL;
}

/* The same, made to exist (zero when new); NULL: out of memory. */
static struct cfg_ks *cfg_ks_make(bl_compare *c, uint32_t k)
{
    if (k >= c->n_cfg_ks) {
        size_t old = c->n_cfg_ks, cap = old;
        if (bl__grow((void **)&c->cfg_ks, &cap, (size_t)k + 1, sizeof *c->cfg_ks))
            return NULL;
        memset(c->cfg_ks + old, 0, (cap - old) * sizeof *c->cfg_ks);
        c->n_cfg_ks = cap;
    }
    return &c->cfg_ks[k];
}

uint32_t bl__cfg_value(const bl_compare *c, uint32_t k)
{
    if (k == c->cfg_file_key)
        return c->cfg_file;
    const struct cfg_ks *ks = cfg_ks_of(c, k);
    return ks && ks->pos1 ? c->cfg_val[ks->pos1 - 1] : 0;
}

const char *bl__cfg_lookup(const bl_compare *c, const char *key)
{
    long k = bl__strtab_find(&c->str, key, strlen(key));
    return k < 0 ? "" : c->str.s[bl__cfg_value(c, (uint32_t)k)];
}

static int cfg_pending_add(bl_compare *c, uint32_t k)
{
    if (bl__grow((void **)&c->cfg_pending, &c->cap_cfg_pending, c->n_cfg_pending + 1,
                 sizeof *c->cfg_pending))
        return -ENOMEM;
    c->cfg_pending[c->n_cfg_pending++] = k;
    return 0;
}

/* Set key k to v (v 0 with del: delete it, swapping the last key into its
 * place as the readers do, so that positions stay the reader's). */
static int cfg_set(bl_compare *c, uint32_t k, uint32_t v, int del)
{
    struct cfg_ks *ks = cfg_ks_of(c, k);
    size_t at = ks ? ks->pos1 : 0;
    if (del) {
        if (!at)
            return 0;
        size_t i = at - 1, last = c->n_cfg - 1;
        if (i != last) {
            c->cfg_key[i] = c->cfg_key[last];
            c->cfg_val[i] = c->cfg_val[last];
            c->cfg_ks[c->cfg_key[i]].pos1 = (uint32_t)(i + 1);
        }
        c->n_cfg--;
        ks->pos1 = 0;
        return cfg_pending_add(c, k);
    }
    if (at) {
        c->cfg_val[at - 1] = v; /* a key given twice (JSON): the last value, the first place */
        return cfg_pending_add(c, k);
    }
    size_t cap = c->cap_cfg;
    /* positions are below the number of string ids, a uint32_t */
    if (!(ks = cfg_ks_make(c, k)) ||
        bl__grow((void **)&c->cfg_key, &cap, c->n_cfg + 1, sizeof *c->cfg_key) ||
        bl__grow((void **)&c->cfg_val, &c->cap_cfg, c->n_cfg + 1, sizeof *c->cfg_val))
        return -ENOMEM;
    c->cfg_key[c->n_cfg] = k;
    c->cfg_val[c->n_cfg] = v;
    c->n_cfg++;
    ks->pos1 = (uint32_t)c->n_cfg;
    return cfg_pending_add(c, k);
}

int bl__compare_config_set(bl_compare *c, const char *key, const char *value)
{
    long k = intern(c, key, strlen(key));
    long v = value ? intern(c, value, strlen(value)) : 0;
    if (k < 0 || v < 0)
        return -ENOMEM;
    return cfg_set(c, (uint32_t)k, (uint32_t)v, !value);
}

int bl__compare_config_reset(bl_compare *c, const bl_label *config, size_t n)
{
    while (c->n_cfg) {
        uint32_t k = c->cfg_key[c->n_cfg - 1];
        c->n_cfg--;
        c->cfg_ks[k].pos1 = 0;
        if (cfg_pending_add(c, k))
            return -ENOMEM;
    }
    c->cfg_file = 0;
    for (size_t i = 0; i < n; i++) {
        long k = intern(c, config[i].key, strlen(config[i].key));
        long v = intern(c, config[i].value, strlen(config[i].value));
        if (k < 0 || v < 0)
            return -ENOMEM;
        if (i == 0 && (uint32_t)k == c->cfg_file_key) {
            c->cfg_file = (uint32_t)v; /* .file: not a file key */
            continue;
        }
        if (cfg_set(c, (uint32_t)k, (uint32_t)v, 0))
            return -ENOMEM;
    }
    return 0;
}

static int cmp_pos(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int cmp_ord(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int is_config_excluded(const bl_compare *c, const char *key)
{
    for (size_t i = 0; i < c->n_config_excl; i++)
        if (strcmp(c->config_excl[i], key) == 0)
            return 1;
    return 0;
}

/* Bring c->cfg_map up to date, creating the .config fields of keys new to it. */
static int cfg_sync(bl_compare *c)
{
    if (!c->n_cfg_pending)
        return 0;
    /* Keys new to the group, in the order of the configuration (as benchstat
     * meets them walking it): (position, key) pairs, sorted. */
    uint64_t *fresh = NULL;
    size_t n_fresh = 0, cap_fresh = 0;
    int rc = 0;
    for (size_t i = 0; i < c->n_cfg_pending && !rc; i++) {
        uint32_t k = c->cfg_pending[i];
        struct cfg_ks *ks = &c->cfg_ks[k]; /* a pending key has been set */
        if (ks->info)
            continue; /* known: a group key, or excluded */
        if (!ks->pos1)
            continue;
        if (is_config_excluded(c, c->str.s[k])) {
            ks->info = CFG_EXCLUDED;
            continue;
        }
        if (bl__grow((void **)&fresh, &cap_fresh, n_fresh + 1, 2 * sizeof *fresh)) {
            rc = -ENOMEM;
            break;
        }
        fresh[2 * n_fresh] = ks->pos1;
        fresh[2 * n_fresh + 1] = k;
        n_fresh++;
        /* mark it now so that a key pending twice is added once */
        ks->info = CFG_EXCLUDED;
    }
    if (!rc && n_fresh)
        qsort(fresh, n_fresh, 2 * sizeof *fresh, cmp_pos);
    struct proj *ps[4] = {c->tablep, c->rowp, c->colp, c->resp};
    for (size_t i = 0; i < n_fresh && !rc; i++) {
        uint32_t k = (uint32_t)fresh[2 * i + 1];
        size_t ord = c->n_cfg_ord++;
        c->cfg_ks[k].info = (uint32_t)(ord + 1); /* ordinals < string ids < UINT32_MAX */
        for (int j = 0; j < 4 && !rc; j++)
            rc = bl__proj_add_sub(ps[j], c->str.s[k], k, ord);
    }
    free(fresh);
    /* the changed keys as (ordinal, value) pairs in ordinal order, set at
     * once: a whole configuration read from JSON makes each map node once */
    uint32_t *pairs = NULL;
    size_t n_pairs = 0;
    if (!rc && !(pairs = malloc(c->n_cfg_pending * 2 * sizeof *pairs)))
        rc = -ENOMEM;
    for (size_t i = 0; i < c->n_cfg_pending && !rc; i++) {
        uint32_t k = c->cfg_pending[i];
        uint32_t info = c->cfg_ks[k].info;
        if (!info || info == CFG_EXCLUDED)
            continue;
        pairs[2 * n_pairs] = info - 1;
        pairs[2 * n_pairs + 1] = bl__cfg_value(c, k);
        n_pairs++;
    }
    if (!rc && n_pairs) {
        /* stable would keep the later of an ordinal pending twice; both
         * carry the key's current value, so any order does */
        qsort(pairs, n_pairs, 2 * sizeof *pairs, cmp_ord);
        long m = bl__cfgmap_set_many(&c->maps, c->cfg_map, pairs, n_pairs);
        if (m < 0)
            rc = -ENOMEM;
        else
            c->cfg_map = (uint32_t)m;
    }
    free(pairs);
    if (!rc)
        c->n_cfg_pending = 0;
    return rc;
}

/* ---- memo: (config generation, name) -> projections ---- */

static struct memo *memo_find(bl_compare *c, const bl_gobench_result *r, uint64_t *hash)
{
    uint64_t h = bl__hash_bytes(r->name, r->name_len) ^ bl__mix64(r->config_gen);
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
    m->name_len = (uint32_t)r->name_len;
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
    int err = cfg_sync(c);
    if (!err)
        err = bl__proj_populate(c, c->tablep, r, np);
    if (err)
        return err;
    m->tbl_n = c->tablep->n_fields;
    m->tbl_row = malloc((m->tbl_n ? m->tbl_n : 1) * sizeof(uint32_t));
    if (!m->tbl_row)
        return -ENOMEM;
    memcpy(m->tbl_row, c->tablep->row, m->tbl_n * sizeof(uint32_t));
    m->tbl_cfg = c->tablep->row_cfg;
    long k;
    if ((err = bl__proj_populate(c, c->rowp, r, np)) || (k = bl__proj_intern(c->rowp)) < 0)
        return err ? err : -ENOMEM;
    m->row_key = (uint32_t)k;
    if ((err = bl__proj_populate(c, c->colp, r, np)) || (k = bl__proj_intern(c->colp)) < 0)
        return err ? err : -ENOMEM;
    m->col_key = (uint32_t)k;
    if ((err = bl__proj_populate(c, c->resp, r, np)) || (k = bl__proj_intern(c->resp)) < 0)
        return err ? err : -ENOMEM;
    m->res_key = (uint32_t)k;
    m->projected = 1;
    return 0;
}

static long table_key(bl_compare *c, struct memo *m, uint32_t unit_id)
{
    struct proj *p = c->tablep;
    if (bl__row_reserve(p))
        return -1;
    memset(p->row, 0, p->cap_row * sizeof *p->row);
    memcpy(p->row, m->tbl_row,
           (m->tbl_n < p->n_fields ? m->tbl_n : p->n_fields) * sizeof(uint32_t));
    p->row_cfg = m->tbl_cfg;
    p->row[p->unit_field->idx] = unit_id;
    return bl__proj_intern(p);
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
        bl__name_parse(r->name, r->name_len, &np);
        have_np = 1;
        int dep = 0;
        if (!bl__fixed_ok(c, r, &np))
            m->pass = PASS_NONE;
        else if (c->filter_has_unit)
            m->pass = PASS_UNIT; /* decided per value */
        else
            m->pass =
                bl__filter_eval(c, c->filter, r, &np, NULL, NULL, &dep) ? PASS_ALL : PASS_NONE;
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
            if (uid != m->pu[i].pat || raw_id != m->pu[i].pat_raw)
                break;
            vals[i] = tv != v ? tv : v;
        }
        if (i == r->n_values) {
            /* straight into the memo's arrays (see struct memo); positions
             * that a .unit filter rejected for this pattern are skipped */
            for (i = 0; i < r->n_values; i++) {
                if (!(m->pat_ok >> i & 1))
                    continue;
                if (m->pu[i].pn == m->pu[i].pcap) {
                    uint32_t cap = m->pu[i].pcap ? m->pu[i].pcap * 2 : 4;
                    double *nv = realloc(m->pu[i].pv, cap * sizeof *nv);
                    if (!nv)
                        return -ENOMEM;
                    m->pu[i].pv = nv;
                    m->pu[i].pcap = cap;
                }
                m->pu[i].pv[m->pu[i].pn++] = vals[i];
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
                bl__name_parse(r->name, r->name_len, &np);
                have_np = 1;
            }
            int dep = 0;
            if (!bl__filter_eval(c, c->filter, r, &np, c->str.s[uid],
                                 tidied ? c->str.s[raw_id] : NULL, &dep))
                continue;
        }
        if (!m->projected) {
            if (!have_np) {
                bl__name_parse(r->name, r->name_len, &np);
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
            m->pu[i].pat = uids[i];
            m->pu[i].pat_raw = raws[i];
            m->pat_cell[i] = oks[i] ? cells[i] : 0;
            m->pat_ok |= (unsigned)oks[i] << i;
        }
        m->n_pat = (uint32_t)r->n_values;
    }
    return 0;
}

/* Give the fast path's arrays to their cells: adopt when the cell has
 * fewer values of its own (the first line's), append otherwise. */
int bl__flush_memos(bl_compare *c)
{
    for (size_t i = 0; i < c->n_memos; i++) {
        struct memo *m = c->memos[i];
        for (size_t k = 0; k < m->n_pat; k++) {
            if (!m->pu[k].pn)
                continue;
            struct cell *cl = &c->cells[m->pat_cell[k]];
            double *big = m->pu[k].pv, *small = cl->vals;
            uint32_t nb = m->pu[k].pn, cb = m->pu[k].pcap, ns = cl->n;
            if (ns > nb) {
                big = cl->vals;
                small = m->pu[k].pv;
                nb = cl->n;
                cb = cl->cap;
                ns = m->pu[k].pn;
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
            m->pu[k].pv = NULL;
            m->pu[k].pn = m->pu[k].pcap = 0;
        }
    }
    return 0;
}

/* Unit metadata is found by (unit, key) through a hash index of
 * "unit\0key" pairs: n Unit lines are O(n), not O(n^2). */
static const char *umeta_key(const void *arr, size_t i)
{
    const bl_compare *c = arr;
    return c->umeta_str.data + c->umeta[i].pair;
}

/* The position of (unit, key), -1, or -2 when memory runs out. The pair
 * is built on the stack unless it is long. */
static long find_umeta(const bl_compare *c, const char *unit, const char *key)
{
    size_t len;
    char small[256], *p = bl__strindex_pair(unit, key, small, sizeof small, &len);
    if (!p)
        return -2;
    long at = bl__strindex_find(&c->umeta_index, p, len, umeta_key, c);
    if (p != small)
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
        const char *was = c->umeta_str.data + c->umeta[at].value;
        if (strcmp(was, value) != 0) {
            char where[512];
            snprintf(where, sizeof where, "%s:%zu", path, line);
            if (bl_diags_add(c->opts.diags, where, "metadata %s of unit %s already set to %s", key,
                             unit, was))
                return -ENOMEM;
        }
        return 0;
    }
    if (bl__grow((void **)&c->umeta, &c->cap_umeta, c->n_umeta + 1, sizeof *c->umeta))
        return -ENOMEM;
    struct umeta *u = &c->umeta[c->n_umeta];
    struct bl__buf *b = &c->umeta_str;
    size_t at0 = b->len, lu = strlen(tidy), lk = strlen(key);
    if (bl__buf_append(b, tidy, lu + 1) || bl__buf_append(b, key, lk + 1) ||
        bl__buf_append(b, value, strlen(value) + 1) ||
        bl__strindex_add_n(&c->umeta_index, b->data + at0, lu + 1 + lk, c->n_umeta)) {
        b->len = at0;
        return -ENOMEM;
    }
    u->pair = at0;
    u->value = at0 + lu + 1 + lk + 1;
    c->n_umeta++;
    return 0;
}

const char *bl__unit_meta(const bl_compare *c, const char *unit, const char *key)
{
    long at = find_umeta(c, unit, key);
    return at >= 0 ? c->umeta_str.data + c->umeta[at].value : NULL;
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
    c->filter_has_unit = bl__filter_uses_unit(c->filter);
    c->tablep = calloc(1, sizeof *c->tablep);
    c->rowp = calloc(1, sizeof *c->rowp);
    c->colp = calloc(1, sizeof *c->colp);
    c->resp = calloc(1, sizeof *c->resp);
    long file_key = intern(c, ".file", 5);
    if (!c->tablep || !c->rowp || !c->colp || !c->resp || file_key < 0 ||
        bl__cfgmaps_init(&c->maps)) {
        rc = -ENOMEM;
        goto fail;
    }
    c->cfg_file_key = (uint32_t)file_key;
    c->tablep->maps = c->rowp->maps = c->colp->maps = c->resp->maps = &c->maps;
    /* All four parse before any is built: exclusions are global, and the
     * first error in argument order is the one reported. */
    struct proj *ps[4] = {c->tablep, c->rowp, c->colp, NULL};
    for (int i = 0; i < 4; i++) {
        rc = bl__parse_projection(qs[i], &pf[i], &npf[i], msg, sizeof msg);
        if (rc == 0)
            rc = bl__build_proj(c, ps[i], pf[i], npf[i], qs[i], msg, sizeof msg);
        if (rc) {
            if (rc == BL_EUSAGE)
                snprintf(err, err_size, "parsing %s: %s", names[i], msg);
            goto fail;
        }
        if (i == 0) {
            struct field *u = bl__field_new(c->tablep, ".unit", FK_UNIT, ORD_FIRST);
            if (bl__proj_add_top(c->tablep, u)) {
                rc = -ENOMEM;
                goto fail;
            }
            c->tablep->unit_field = u;
        }
    }
    if (!c->have_config) {
        struct field *g = bl__field_new(c->resp, ".config", FK_GROUP, ORD_FIRST);
        if (bl__proj_add_top(c->resp, g)) {
            rc = -ENOMEM;
            goto fail;
        }
    }
    if (!c->have_fullname) {
        struct field *f = bl__field_new(c->resp, ".fullname", FK_FULLNAME, ORD_FIRST);
        if (bl__proj_add_top(c->resp, f)) {
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
    bl__proj_free(c->tablep);
    bl__proj_free(c->rowp);
    bl__proj_free(c->colp);
    bl__proj_free(c->resp);
    for (size_t i = 0; i < c->n_memos; i++) {
        free(c->memos[i]->tbl_row);
        for (size_t k = 0; k < MEMO_UNITS; k++)
            free(c->memos[i]->pu[k].pv);
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
    bl__umap_fini(&c->cellmap);
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
    bl__buf_fini(&c->umeta_str);
    free(c->umeta);
    bl__strindex_fini(&c->umeta_index);
    free(c->units);
    free(c->cfg_key);
    free(c->cfg_val);
    free(c->cfg_pending);
    free(c->cfg_ks);
    bl__cfgmaps_fini(&c->maps);
    bl__buf_fini(&c->tmp);
    for (size_t i = 0; i < c->n_warn_strs; i++)
        free(c->warn_strs[i]);
    free(c->warn_strs);
    bl__strtab_fini(&c->str);
    pthread_mutex_destroy(&c->warn_mu);
    free(c);
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
