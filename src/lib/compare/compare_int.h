/*
 * compare_int.h - the compare module's one internal header, for its files
 * only (and the unit tests of units.c):
 *   - interned strings, units.c (tidying, scaling, Go number formatting)
 *     and query.c (projection and filter syntax): what needs no engine;
 *   - the engine's state (struct bl_compare, projections, cells, tables),
 *     filled by tables.c, proj.c, cfgmap.c, sort.c and finish.c, read by the inputs
 *     (compare_in.c, json_in.c) and formatted by the writers (write_*.c,
 *     gate.c, with the shared strings of cell_strings.c).
 */
#ifndef BENCHLAB_COMPARE_COMPARE_INT_H
#define BENCHLAB_COMPARE_COMPARE_INT_H

#include <pthread.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/base.h"
#include "benchlab/compare.h"
#include "benchlab/format.h"

/* ---- interned strings: id 0 is "" ----
 * The strings' bytes come from an arena, one after the other in the order
 * interned (no malloc or free per string); a slot keeps the high half of
 * its string's hash beside the id, so that a probe reads the string's
 * hash, length and bytes only when that half matches. */
struct bl__strtab {
    char **s;
    uint32_t *len;
    uint64_t *hash;
    size_t n, cap;
    struct bl__strtab_slot {
        uint32_t tag; /* the hash's high 32 bits */
        uint32_t id1; /* id + 1; 0 = empty */
    } * slots;
    size_t n_slots;
    struct bl__arena bytes;
};
uint64_t bl__hash_bytes(const void *p, size_t n);
int bl__strtab_init(struct bl__strtab *t);
void bl__strtab_fini(struct bl__strtab *t);
/* The id of s[0..n), added if new; -1 on ENOMEM. */
long bl__strtab_intern(struct bl__strtab *t, const char *s, size_t n);
/* The id of s[0..n), or -1 when it is not in the table. */
long bl__strtab_find(const struct bl__strtab *t, const char *s, size_t n);

/* ---- units.c ---- */
/* benchunit.Tidy: *factor and the tidied unit in out (size >= strlen(unit)+1+8). */
void bl__unit_tidy(const char *unit, double *factor, char *out, size_t out_size);
/* 1 when the unit's class is binary (powers of 1024). */
int bl__unit_is_binary(const char *unit);
/* Go's %v of a float64 (strconv 'g', shortest). */
void bl__go_fmt_g(char *out, size_t size, double x);
/* Go's %.*f with optional '+' flag (NaN, +Inf spelled as Go does). */
void bl__go_fmt_f(char *out, size_t size, int prec, double x, int plus);
struct bl__scaler {
    int prec;
    double factor;
    const char *prefix;
};
void bl__common_scale(const double *vals, size_t n, int binary, struct bl__scaler *s);
void bl__scaler_format(const struct bl__scaler *s, double v, char *out, size_t size);

/* ---- query.c: projection and filter syntax ---- */
enum { ORD_FIRST, ORD_ALPHA, ORD_NUM, ORD_FIXED };
struct bl__pfield { /* one parsed projection element */
    char *key;
    int order;
    char **fixed;
    size_t n_fixed;
    int key_off, order_off;
};
/* Parse a projection; on error returns BL_EUSAGE with "syntax error: ..." in err. */
int bl__parse_projection(const char *q, struct bl__pfield **out, size_t *n, char *err,
                         size_t err_size);
void bl__pfields_free(struct bl__pfield *f, size_t n);

enum { FN_AND, FN_OR, FN_NOT, FN_MATCH };
struct bl__fnode {
    int op;
    struct bl__fnode **sub;
    size_t n_sub;
    char *key;   /* FN_MATCH */
    char *lit;   /* literal, or NULL with re */
    regex_t *re; /* regexp match */
    int off;
};
int bl__parse_filter(const char *q, struct bl__fnode **out, char *err, size_t err_size);
void bl__fnode_free(struct bl__fnode *n);
/* "syntax error: MSG\n\tQUERY\n\t   ^" */
void bl__syntax_error(char *err, size_t size, const char *q, int off, const char *msg);

/* ---- the engine's state ---- */
enum { FK_GROUP, FK_FULLNAME, FK_NAME, FK_SUB, FK_CONFIG, FK_UNIT };

/* cfgmap.c: configurations interned (hash-consed persistent maps from a
 * .config key's ordinal to a string id; map 0 is the empty map). */
struct bl__cfgnode {
    uint32_t kids[16]; /* level 0: string ids; above: nodes */
    uint32_t level;
};
struct bl__cfgmaps {
    struct bl__cfgnode *nodes;
    size_t n, cap;
    uint32_t *slots; /* node ids; 0 = empty */
    size_t n_slots;
};
int bl__cfgmaps_init(struct bl__cfgmaps *m);
void bl__cfgmaps_fini(struct bl__cfgmaps *m);
/* The value of ordinal ord in map (0: unset). */
uint32_t bl__cfgmap_get(const struct bl__cfgmaps *m, uint32_t map, uint32_t ord);
/* map with ord set to val (0 unsets): the new map's id, or -ENOMEM. */
long bl__cfgmap_set(struct bl__cfgmaps *m, uint32_t map, uint32_t ord, uint32_t val);
/* map with n (ord, val) pairs set (pairs[2i], pairs[2i+1]), sorted by ord;
 * the value of an ord given twice is the later one. */
long bl__cfgmap_set_many(struct bl__cfgmaps *m, uint32_t map, const uint32_t *pairs, size_t n);
/* The smallest ordinal >= from at which maps a and b differ, or -1. */
long bl__cfgmap_diff(const struct bl__cfgmaps *m, uint32_t a, uint32_t b, uint32_t from);

struct field {
    char *name; /* ".fullname", "/size", "goos", ".unit", or a .config key */
    int kind;
    int order;
    long idx;     /* position in key vectors; -1 for the .config group and its keys */
    long sub;     /* a .config key: its ordinal (its index in the group's subs); else -1 */
    uint32_t kid; /* FK_CONFIG: the key's string id */
    int track;    /* records observation order (top-level "first" fields) */
    struct bl__umap obs;
    char **fixed;
    size_t n_fixed;
    struct bl__umap fixed_map;
    struct field **subs; /* .config group: its keys, in creation order */
    size_t n_subs;
};

/*
 * A projection's keys are interned: a key is the vector of the string ids
 * of its fields but the .config group's keys (n_fields wide), then the id
 * of its .config map (struct bl__cfgmaps; 0 when the projection has no
 * .config group). However many keys the configuration has, a key is a few
 * words.
 */
struct proj {
    struct field **top;
    size_t n_top;
    struct field **flat;
    size_t n_flat;
    size_t *flat_at; /* per top field: the flat position of its first field */
    size_t n_fields;
    struct field *unit_field;
    const struct bl__cfgmaps *maps; /* the compare's */
    uint32_t *row;                  /* scratch row, cap_row wide */
    size_t cap_row;
    uint32_t row_cfg; /* scratch: the .config map */
    uint32_t *pool;   /* key k at k * (n_fields + 1) */
    size_t n_keys, cap_pool;
    uint32_t *key_slots;
    size_t n_key_slots;
};
uint32_t bl__key_get(const struct proj *p, uint32_t key, const struct field *f);
/* The empty key (every field ""), for bl__key_diff. */
#define BL__KEY_EMPTY UINT32_MAX
/* The first field at flat position *pos or after in which keys a and b of p
 * differ (after bl__proj_flatten); *pos is set to its position. NULL when
 * none does. O(log n) however many .config keys there are. */
const struct field *bl__key_diff(const struct proj *p, uint32_t a, uint32_t b, size_t *pos);

struct cell {
    /* hot while reading: the first cache line */
    double *vals;
    uint32_t n, cap;
    uint32_t res0; /* the first residue key, kept inline */
    uint32_t table, row, col;
    uint32_t *res; /* distinct residue keys (res[0] == res0) */
    size_t n_res;
    /* after finish */
    double center, lo, hi;
    const char **warn; /* sample and summary warnings */
    size_t n_warn;
    long base;           /* baseline cell, or -1 */
    unsigned char exact; /* the table's unit has assume=exact */
    double p, alpha;
    size_t n1, n2;
    const char **cwarn; /* comparison warnings */
    size_t n_cwarn;
};

struct colsum {
    int has_summary, has_ratio;
    double summary, ratio;
    const char **warn;
    size_t n_warn;
};

struct table {
    uint32_t key;  /* table projection key (with unit) */
    uint32_t unit; /* string id */
    uint32_t *rows, *cols;
    size_t n_rows, cap_rows, n_cols, cap_cols;
    int exact, binary;
    struct colsum *sum; /* per column */
};

enum { PASS_UNKNOWN, PASS_NONE, PASS_ALL, PASS_UNIT };
#define MEMO_UNITS 8

/* Fast path: a line whose units (after tidying) are pat, as the first
 * passing line's were, appends its values to pv with no filtering,
 * projection or cell lookup; bl_compare_finish hands the arrays to
 * pat_cell[] (adopting them, no copy). Keeping the append point in the
 * memo saves a cache miss per value on large inputs. One value position's
 * fields together, so that a line of one or two values touches one cache
 * line of its memo. */
struct memo_unit {
    uint32_t pat;     /* unit id after tidying */
    uint32_t pat_raw; /* ... and as written */
    uint32_t pn, pcap;
    double *pv;
};

struct memo {
    /* hot: what every line of this benchmark touches, first */
    uint64_t hash;
    unsigned long gen;
    char *name;
    uint32_t name_len;
    uint32_t n_pat;
    int pass;
    unsigned pat_ok; /* bit i: value i passes the filter */
    struct memo_unit pu[MEMO_UNITS];
    /* cold */
    int projected;
    uint32_t row_key, col_key, res_key;
    uint32_t *tbl_row;
    size_t tbl_n;
    uint32_t tbl_cfg;
    struct {
        uint32_t unit, cell;
    } uc[MEMO_UNITS];
    size_t n_uc;
    uint32_t pat_cell[MEMO_UNITS];
};

struct unitinfo {
    int known;
    double factor;
    uint32_t tidy_id;
};

#define UCACHE 16
struct ucache {
    const char *s;
    size_t len;
    uint32_t id;
};

/* One Unit metadata entry: "unit\0key\0value" at offset `pair` of the
 * compare's umeta_str (the index's key is its "unit\0key" part), the value
 * at offset `value`. Two words per entry and no heap block of its own, so
 * that a million Unit lines stay small and are freed at once. */
struct umeta {
    size_t pair, value;
};

struct bl_compare {
    bl_compare_options opts;
    struct bl__strtab str;
    struct bl__fnode *filter;
    int filter_has_unit;
    struct proj *tablep, *rowp, *colp, *resp;
    int have_config, have_fullname;
    char **excl; /* "/key" sub-name keys excluded from .fullname */
    size_t n_excl;
    int excl_name, excl_procs;
    char **config_excl; /* file keys excluded from .config */
    size_t n_config_excl;
    struct field **fixed_filters;
    size_t n_fixed_filters;
    struct memo **memos;
    size_t n_memos, cap_memos;
    struct memo_slot {
        uint64_t hash;
        struct memo *m; /* NULL: empty */
    } * memo_slots;
    size_t n_memo_slots;
    struct cell *cells;
    size_t n_cells, cap_cells;
    struct bl__umap cellmap;
    /* The configuration in effect, followed through its changes (tables.c):
     * .file's value, then the other keys in the reader's order. */
    uint32_t cfg_file_key, cfg_file;
    uint32_t *cfg_key, *cfg_val;
    size_t n_cfg, cap_cfg;
    /* Per string id (the configuration keys are interned strings, whose
     * ids are dense): the key's position + 1 in cfg_key (0: not set) and
     * its ordinal + 1 in .config (0: not yet met, CFG_EXCLUDED: not in
     * .config); zero past n_cfg_ks. An array, not two hash maps of the
     * same keys: one access per key, and keys read in order are read in
     * order. */
    struct cfg_ks {
        uint32_t pos1, info;
    } * cfg_ks;
    size_t n_cfg_ks;
    uint32_t *cfg_pending; /* keys changed since the map was last brought up to date */
    size_t n_cfg_pending, cap_cfg_pending;
    uint32_t cfg_map; /* the .config map, as of the last cfg_sync (tables.c) */
    size_t n_cfg_ord;
    struct bl__cfgmaps maps;
    struct unitinfo *units;
    size_t cap_units;
    struct ucache ucache[UCACHE];
    size_t n_ucache, ucache_next;
    struct umeta *umeta;
    size_t n_umeta, cap_umeta;
    struct bl__strindex umeta_index; /* "unit\0key" -> position in umeta */
    struct bl__buf umeta_str;        /* the entries' strings */
    struct table *tables;
    size_t n_tables;
    int finished;
    struct bl__buf tmp;
    char **warn_strs; /* every warning text, once; guarded by warn_mu */
    size_t n_warn_strs;
    pthread_mutex_t warn_mu;
    bl_gobench_handler handler;
};

/* proj.c: projections (benchproc) and the filter. */
/* A benchmark name cut into its base and its "/key=value" and "-procs" parts. */
struct name_parts {
    size_t base_len;
    size_t n;
    struct {
        size_t off, len;
    } part[64];
    int overflow;
};
void bl__name_parse(const char *s, size_t n, struct name_parts *np);
/* Leave file configuration key `key` out of .config, as -ignore does (once).
 * 0 or -ENOMEM. */
int bl__compare_exclude_config(bl_compare *c, const char *key);
struct field *bl__field_new(struct proj *p, const char *name, int kind, int order);
int bl__proj_add_top(struct proj *p, struct field *f);
void bl__proj_free(struct proj *p);
/* The flattened fields (config group expanded): the sort and header order. */
int bl__proj_flatten(struct proj *p);
/* Make p->row hold every field. 0 or -ENOMEM. */
int bl__row_reserve(struct proj *p);
/* tables.c: the configuration in effect. The value of key id k ("" when unset). */
uint32_t bl__cfg_value(const bl_compare *c, uint32_t k);
/* The value of the configuration key named key ("" when unset). */
const char *bl__cfg_lookup(const bl_compare *c, const char *key);
/* A .config key new to the group: its field in every .config group. */
int bl__proj_add_sub(struct proj *p, const char *name, uint32_t kid, size_t ord);
/* Fill p->row from result r (all but .unit). */
int bl__proj_populate(bl_compare *c, struct proj *p, const bl_gobench_result *r,
                      const struct name_parts *np);
/* Intern p->row as a key (its id, or -ENOMEM); records observation orders. */
long bl__proj_intern(struct proj *p);
/* makeProjection for each parsed element (p NULL: -ignore, exclusions
 * only); errors are benchstat's. */
int bl__build_proj(bl_compare *c, struct proj *p, struct bl__pfield *pf, size_t n, const char *q,
                   char *err, size_t err_size);
/* Evaluate filter n on r with the given unit (NULL: the whole result; .unit
 * terms then count as "depends" and set *dep). */
int bl__filter_eval(const bl_compare *c, const struct bl__fnode *n, const bl_gobench_result *r,
                    const struct name_parts *np, const char *unit, const char *orig_unit, int *dep);
int bl__filter_uses_unit(const struct bl__fnode *n);
/* Whether r passes the fixed-order projections ("/size@(1k 4k)"). */
int bl__fixed_ok(const bl_compare *c, const bl_gobench_result *r, const struct name_parts *np);
/* sort.c: sort keys of projection p in benchstat's order. */
void bl__sort_keys(const bl_compare *c, const struct proj *p, uint32_t *keys, size_t n);
/* tables.c: project the memoised results into cells (before finishing). */
int bl__flush_memos(bl_compare *c);

long bl__cell_find(const bl_compare *c, uint32_t table, uint32_t row, uint32_t col);
const char *bl__unit_meta(const bl_compare *c, const char *unit, const char *key);
const bl_gobench_handler *bl__compare_handler(bl_compare *c);
/* The configuration in effect: one key set (value NULL: deleted), or the
 * whole of it (config[0] is .file). Results carry only its generation. */
int bl__compare_config_set(bl_compare *c, const char *key, const char *value);
int bl__compare_config_reset(bl_compare *c, const bl_label *config, size_t n);
/* cell_strings.c: what the writers show (strings only; each writer escapes
 * them for its destination). Benchstat's strings of a cell, with Go's
 * number formatting: its interval as "±" range ("∞", "?", "0%", "5%"), its
 * change against the base cell's center `old` ("~" when not significant,
 * "+1.23%"), "p=0.002 n=10" (or "n=10+12"), and a geomean ratio's change.
 * Each writes at most `size` bytes. */
void bl__cell_range_str(const struct cell *cl, char *out, size_t size);
void bl__cell_delta_str(const struct cell *cl, double old, char *out, size_t size);
void bl__cell_pval_str(const struct cell *cl, char *out, size_t size);
void bl__ratio_str(double ratio, char *out, size_t size);
/* Key.StringValues: key's non-empty values in projection p joined by
 * spaces, in b (reused). */
void bl__key_label(const bl_compare *c, const struct proj *p, uint32_t key, struct bl__buf *b);
/* The cell of table t at row r, column k, or NULL. */
const struct cell *bl__cell_at(const bl_compare *c, const struct table *t, size_t r, size_t k);
/* Table ti's key header lines ("goos: linux"), each passed to fn: every
 * field for the first table, then those that changed. */
typedef void (*bl__header_fn)(void *ctx, const char *line);
void bl__table_headers(bl_compare *c, size_t ti, bl__header_fn fn, void *ctx);
/* The same fields as name and value ("" where the table has none): every
 * field for the first table, then those that differ from the previous
 * table's, so that all tables together are linear in the input however
 * often the configuration changes. */
typedef void (*bl__field_fn)(void *ctx, const char *name, const char *value);
void bl__table_fields(bl_compare *c, size_t ti, bl__field_fn fn, void *ctx);
/* compare_in.c: read the inputs in order, detecting each one's format. */
int bl__compare_read_all(bl_compare *c, const char **paths, const char **labels, size_t n,
                         char *err, size_t err_size);

#endif /* BENCHLAB_COMPARE_COMPARE_INT_H */
