/*
 * json_in.c - JSON inputs of `benchlab compare`, turned into the same
 * results the Go benchmark format gives, so that every rule of the engine
 * applies unchanged:
 *
 *  - Google Benchmark (--benchmark_format=json): one result per entry of
 *    "benchmarks" whose run_type is "iteration" (aggregates are skipped;
 *    benchstat computes its own), named as Google Benchmark names it
 *    ("key:value" parts are keys: -col /key works), as benchlab's Go lines
 *    of the same suite name it.
 *    real_time becomes ns/op (times the threads: benchlab's time per op is
 *    one thread's, Google Benchmark's the team's wall time over every
 *    thread's iterations), cpu_time cpu-ns/op, bytes_per_second B/s,
 *    items_per_second items/s, and any other numeric field (a user
 *    counter) a unit of its own name.
 *  - benchlab JSON ("schema": "benchlab/1", json_write.c): one result per
 *    successful launch, with the values the Go-format writer would print
 *    (ns/op, MB/s when bytes were set, the launch's metrics) and the run's
 *    configuration.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/base.h"
#include "../format/gbench.h"
#include "../format/gobench.h"
#include "../format/json.h"
#include "compare_int.h"

int bl__compare_read_json(int fd, const char *prefix, size_t prefix_len, const char *path,
                          const char *label, const bl_gobench_handler *h, char *err,
                          size_t err_size);

static int slurp(int fd, const char *prefix, size_t prefix_len, char **out, size_t *out_len)
{
    struct bl__buf b = {0};
    int rc = bl__buf_append(&b, prefix, prefix_len);
    if (!rc && fd >= 0)
        rc = bl__buf_read_fd(&b, fd, (size_t)1 << 32);
    if (rc) {
        bl__buf_fini(&b);
        return rc;
    }
    *out = b.data;
    *out_len = b.len;
    return 0;
}

struct emit {
    const bl_gobench_handler *h;
    bl_label *config;
    size_t n_config;
    unsigned long gen;
    const char *path;
    bl_gobench_value vals[64];
    char units[64][128];
    size_t n_vals;
    struct bl__buf name; /* the result's name as a Go line spells it (go_name) */
};

/* A benchmark's name into e->name as benchlab's Go lines spell it
 * (bl__gobench_field_buf: whitespace, U+00A0 too, and control characters
 * become '_'), whichever JSON it came from. 0 or -ENOMEM. */
static int go_name(struct emit *e, const char *name)
{
    e->name.len = 0;
    int rc = bl__gobench_field_buf(&e->name, name);
    if (!rc)
        rc = bl__buf_append(&e->name, "", 0); /* data NUL-terminated, never NULL */
    return rc;
}

static void skipped(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A value of the result. Its unit is one field (whitespace '_'); a unit the
 * result already has (the time's ns/op for a counter named "ns/op", a
 * counter "a b" beside "a_b") is read as "user:UNIT" ("user:user:UNIT"...),
 * as the Go-format writer writes such a metric: a value never takes the
 * place of another or adds a second sample to its cell.
 */
static void add_val(struct emit *e, const char *unit, double v)
{
    if (e->n_vals >= 64 || isnan(v))
        return;
    char *u = e->units[e->n_vals];
    for (int user = 0;; user++) {
        size_t len = 0;
        for (int k = 0; k < user && len + 5 < sizeof e->units[0]; k++, len += 5)
            memcpy(u + len, "user:", 5);
        snprintf(u + len, sizeof e->units[0] - len, "%s", unit);
        for (char *p = u; *p; p++)
            if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
                *p = '_'; /* a unit is one field */
        size_t i = 0;
        while (i < e->n_vals && strcmp(e->units[i], u) != 0)
            i++;
        if (i == e->n_vals)
            break;
        if (len + 5 >= sizeof e->units[0]) { /* cut short, it stays taken */
            skipped(e, "a value of unit %.60s: the unit is taken, even as user:...: skipped", unit);
            return;
        }
    }
    e->vals[e->n_vals].value = v;
    e->vals[e->n_vals].unit = u;
    e->vals[e->n_vals].unit_len = strlen(u);
    e->n_vals++;
}

static int send(struct emit *e, const char *name, size_t line, long long iters)
{
    if (!e->n_vals)
        return 0;
    bl_gobench_result r = {
        .name = name,
        .name_len = strlen(name),
        .iters = iters,
        .values = e->vals,
        .n_values = e->n_vals,
        .config = e->config,
        .n_config = e->n_config,
        .config_gen = e->gen,
        .path = e->path,
        .line = line,
    };
    e->n_vals = 0;
    return e->h->on_result ? e->h->on_result(e->h->ctx, &r) : 0;
}

/* A JSON number as an iteration count, without undefined conversions. */
static long long to_count(double x)
{
    if (!(x >= -9.2e18 && x <= 9.2e18))
        return 0;
    return (long long)x;
}

/* Not a user counter: an entry's own key, or the rates compare shows as B/s and items/s. */
static int is_known_gbench_field(const char *k)
{
    return bl__gbench_entry_key(k) || strcmp(k, "bytes_per_second") == 0 ||
           strcmp(k, "items_per_second") == 0;
}

/* A record skipped: reported as "path: benchmarks[i]...: why" (line 0). */

static void skipped(struct emit *e, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (e->h->on_error)
        e->h->on_error(e->h->ctx, e->path, 0, msg);
}

/* Google Benchmark JSON: the "iteration" entries; their aggregates are
 * left out (benchstat computes its own). A file of aggregates only
 * (--benchmark_report_aggregates_only) gives each benchmark's median as
 * one sample, with a warning naming the flag (docs/compare.md). */
static int read_gbench(struct emit *e, const struct bl__json *doc)
{
    const struct bl__json *bs = bl__json_get(doc, "benchmarks");
    if (!bs || bs->type != BL_JARR)
        return 0;
    size_t n_iter = 0, n_median = 0;
    for (size_t i = 0; i < bs->n; i++) {
        const char *rt = bl__json_str(bl__json_get(&bs->items[i], "run_type"));
        const char *agg = bl__json_str(bl__json_get(&bs->items[i], "aggregate_name"));
        n_iter += !rt || strcmp(rt, "iteration") == 0;
        n_median += rt && strcmp(rt, "aggregate") == 0 && agg && strcmp(agg, "median") == 0;
    }
    int medians = n_iter == 0 && n_median > 0;
    if (medians)
        skipped(e, "holds only aggregates (--benchmark_report_aggregates_only): each benchmark's "
                   "median is read as one sample; run without that flag for the repetitions");
    for (size_t i = 0; i < bs->n; i++) {
        const struct bl__json *b = &bs->items[i];
        const char *rt = bl__json_str(bl__json_get(b, "run_type"));
        const char *agg = bl__json_str(bl__json_get(b, "aggregate_name"));
        const struct bl__json *eo = bl__json_get(b, "error_occurred");
        const char *name = bl__json_str(bl__json_get(b, "name"));
        if (rt && strcmp(rt, "iteration") != 0) {
            if (!medians || strcmp(rt, "aggregate") != 0 || !agg || strcmp(agg, "median") != 0)
                continue;                                     /* a summary of entries read */
            name = bl__json_str(bl__json_get(b, "run_name")); /* not "BM_x_median" */
        }
        if (!name || !name[0]) {
            skipped(e, "benchmarks[%zu]: no name: skipped", i);
            continue;
        }
        if (eo && eo->type == BL_JBOOL && eo->boolean) {
            const char *msg = bl__json_str(bl__json_get(b, "error_message"));
            skipped(e, "benchmarks[%zu]: %s: failed (%s): skipped", i, name, msg ? msg : "error");
            continue;
        }
        const struct bl__json *sk = bl__json_get(b, "skipped"); /* 1.8's SkipWithMessage */
        if (sk && sk->type == BL_JBOOL && sk->boolean) {
            const char *msg = bl__json_str(bl__json_get(b, "skip_message"));
            skipped(e, "benchmarks[%zu]: %s: skipped (%s)", i, name, msg ? msg : "no message");
            continue;
        }
        /* Google Benchmark's name as benchlab's Go lines of the same suite
         * write it ("BM_x/size:8/threads:2", "/size" a key of it too), so
         * that the rows line up; spaces would split the name field, and
         * become "_" as in those lines */
        int rc = go_name(e, name);
        if (rc)
            return rc;
        const char *nm = e->name.data;
        const char *tu = bl__json_str(bl__json_get(b, "time_unit"));
        double scale = 1;
        if (tu && strcmp(tu, "us") == 0)
            scale = 1e3;
        else if (tu && strcmp(tu, "ms") == 0)
            scale = 1e6;
        else if (tu && strcmp(tu, "s") == 0)
            scale = 1e9;
        /* Google Benchmark's thread convention into benchlab's (its own
         * JSON's ns_per_op): with T threads, real_time is the team's wall
         * time over T x reps iterations, one thread's op took T times it;
         * cpu_time is already one thread's CPU time per op */
        long long threads = to_count(bl__json_num(bl__json_get(b, "threads"), 1));
        if (threads < 1 || threads > 1 << 20)
            threads = 1;
        const struct bl__json *rtv = bl__json_get(b, "real_time");
        const struct bl__json *ctv = bl__json_get(b, "cpu_time");
        if (rtv && rtv->type == BL_JNUM)
            add_val(e, "ns/op", rtv->num * scale * (double)threads);
        if (ctv && ctv->type == BL_JNUM)
            add_val(e, "cpu-ns/op", ctv->num * scale);
        const struct bl__json *bps = bl__json_get(b, "bytes_per_second");
        if (bps && bps->type == BL_JNUM)
            add_val(e, "B/s", bps->num);
        const struct bl__json *ips = bl__json_get(b, "items_per_second");
        if (ips && ips->type == BL_JNUM)
            add_val(e, "items/s", ips->num);
        if (!e->n_vals) {
            skipped(e, "benchmarks[%zu]: %s: no real_time: skipped", i, name);
            continue;
        }
        for (size_t k = 0; k < b->n; k++)
            if (b->items[k].type == BL_JNUM && !is_known_gbench_field(b->keys[k]))
                add_val(e, b->keys[k], b->items[k].num);
        long long iters = to_count(bl__json_num(bl__json_get(b, "iterations"), 0));
        rc = send(e, nm, i + 1, medians ? iters : iters / threads);
        if (rc)
            return rc;
    }
    return 0;
}

static int read_benchlab(struct emit *e, const struct bl__json *doc)
{
    const struct bl__json *bs = bl__json_get(doc, "benchmarks");
    if (!bs || bs->type != BL_JARR)
        return 0;
    for (size_t i = 0; i < bs->n; i++) {
        const struct bl__json *b = &bs->items[i];
        const char *name = bl__json_str(bl__json_get(b, "name"));
        const struct bl__json *ls = bl__json_get(b, "launches");
        if (!name || !name[0]) {
            skipped(e, "benchmarks[%zu]: no name: skipped", i);
            continue;
        }
        if (!ls || ls->type != BL_JARR) {
            if (ls)
                skipped(e, "benchmarks[%zu]: %s: launches is not an array: skipped", i, name);
            continue;
        }
        if (strncmp(name, "Benchmark", 9) == 0)
            name += 9;
        /* spelled as benchlab's Go lines and Google Benchmark's JSON of the
         * same suite are ("BM_f<int,_double>"), so that the rows of the
         * three line up */
        int rc = go_name(e, name);
        if (rc)
            return rc;
        name = e->name.data;
        for (size_t j = 0; j < ls->n; j++) {
            const struct bl__json *l = &ls->items[j];
            const char *status = bl__json_str(bl__json_get(l, "status"));
            const struct bl__json *sk = bl__json_get(l, "skipped");
            if ((status && strcmp(status, "ok") != 0) ||
                (sk && sk->type == BL_JBOOL && sk->boolean))
                continue; /* a failure the run reported; no time to compare, as in its Go output */
            double ns = bl__json_num(bl__json_get(l, "ns_per_op"), NAN);
            if (isnan(ns)) {
                skipped(e, "benchmarks[%zu].launches[%zu]: %s: no ns_per_op: skipped", i, j, name);
                continue;
            }
            if (!(ns > 0))
                ns = 0.001; /* as the Go-format writer: a literal 0 ns/op splits tables */
            add_val(e, "ns/op", ns);
            /* the rates the Go-format writer prints, by the same function */
            bl_launch tmp = {.ns_per_op = ns,
                             .bytes_per_op = bl__json_num(bl__json_get(l, "bytes_per_op"), 0),
                             .items_per_op = bl__json_num(bl__json_get(l, "items_per_op"), 0),
                             .threads = (int)to_count(bl__json_num(bl__json_get(l, "threads"), 0))};
            if (tmp.threads < 0 || tmp.threads > 1 << 20)
                tmp.threads = 0;
            bl_rates rates;
            bl_launch_rates(&tmp, &rates);
            add_val(e, "MB/s", rates.mb_per_s);
            add_val(e, "items/s", rates.items_per_s);
            add_val(e, "ops/s", rates.ops_per_s);
            double cyc = bl__json_num(bl__json_get(l, "ref_cycles_per_op"), NAN);
            if (!isnan(cyc))
                add_val(e, "ref-cycles/op", cyc);
            /* the instruments' passes, as the Go-format writer prints them */
            const struct bl__json *al = bl__json_get(b, "alloc");
            const struct bl__json *ab = bl__json_get(al, "bytes_per_op");
            const struct bl__json *an = bl__json_get(al, "allocs_per_op");
            if (ab && ab->type == BL_JNUM && an && an->type == BL_JNUM) {
                add_val(e, "B/op", trunc(ab->num));
                add_val(e, "allocs/op", trunc(an->num));
            }
            const struct bl__json *cs = bl__json_get(bl__json_get(b, "counters"), "per_op");
            for (size_t k = 0; cs && cs->type == BL_JOBJ && k < cs->n; k++)
                if (cs->items[k].type == BL_JNUM)
                    add_val(e, cs->keys[k], cs->items[k].num);
            const struct bl__json *ms = bl__json_get(l, "metrics");
            double x;
            for (size_t k = 0; ms && ms->type == BL_JOBJ && k < ms->n; k++)
                if (bl__json_metric(&ms->items[k], &x))
                    add_val(e, ms->keys[k], x);
            rc = send(e, name, i + 1, to_count(bl__json_num(bl__json_get(l, "measured_reps"), 0)));
            if (rc)
                return rc;
        }
    }
    return 0;
}

int bl__compare_read_json(int fd, const char *prefix, size_t prefix_len, const char *path,
                          const char *label, const bl_gobench_handler *h, char *err,
                          size_t err_size)
{
    char *text = NULL;
    size_t n = 0;
    int rc = slurp(fd, prefix, prefix_len, &text, &n);
    if (rc) {
        char m[128];
        snprintf(m, sizeof m, "%s", strerror(-rc));
        if (m[0] >= 'A' && m[0] <= 'Z')
            m[0] = (char)(m[0] - 'A' + 'a');
        snprintf(err, err_size, "%s:0: read %s: %s", path, path, m);
        return rc;
    }
    struct bl__json *doc = NULL;
    char msg[256];
    rc = bl__json_parse(text, n, &doc, msg, sizeof msg);
    free(text);
    if (rc) {
        if (rc == BL_EFORMAT)
            snprintf(err, err_size, "%s: invalid JSON: %s", path, msg);
        return rc;
    }
    struct emit *e = calloc(1, sizeof *e);
    if (!e) {
        bl__json_free(doc);
        return -ENOMEM;
    }
    e->h = h;
    e->path = path;
    e->gen = bl__gobench_next_gen();
    const struct bl__json *cfg = bl__json_get(doc, "config");
    size_t nc = 1 + (cfg && cfg->type == BL_JOBJ ? cfg->n : 0);
    e->config = calloc(nc, sizeof *e->config);
    if (!e->config) {
        free(e);
        bl__json_free(doc);
        return -ENOMEM;
    }
    e->config[0].key = (char *)".file";
    e->config[0].value = (char *)label;
    e->n_config = 1;
    for (size_t i = 0; cfg && cfg->type == BL_JOBJ && i < cfg->n; i++) {
        if (cfg->items[i].type != BL_JSTR || !cfg->items[i].str[0])
            continue;
        e->config[e->n_config].key = cfg->keys[i];
        e->config[e->n_config].value = cfg->items[i].str;
        e->n_config++;
    }
    /* unit metadata of benchlab JSON, as the Go format's Unit lines */
    const struct bl__json *units = bl__json_get(doc, "units");
    for (size_t i = 0; !rc && units && units->type == BL_JOBJ && i < units->n; i++) {
        const struct bl__json *kv = &units->items[i];
        for (size_t k = 0; !rc && kv->type == BL_JOBJ && k < kv->n; k++)
            if (kv->items[k].type == BL_JSTR && h->on_unit)
                rc = h->on_unit(h->ctx, units->keys[i], kv->keys[k], kv->items[k].str, path, 0);
    }
    const char *schema = bl__json_str(bl__json_get(doc, "schema"));
    const struct bl__json *benches = bl__json_get(doc, "benchmarks");
    const struct bl__json *bench0 =
        benches && benches->type == BL_JARR && benches->n ? &benches->items[0] : NULL;
    if (rc) {
        /* a callback stopped the reading */
    } else if (schema && strncmp(schema, "benchlab/", 9) == 0) {
        rc = read_benchlab(e, doc);
    } else if (bench0 && bench0->type == BL_JOBJ && bl__json_get(bench0, "launches")) {
        snprintf(err, err_size,
                 "%s: no \"schema\": benchlab JSON (its benchmarks have \"launches\") must say "
                 "\"schema\": \"benchlab/1\"",
                 path);
        rc = BL_EFORMAT;
    } else if (bench0 &&
               !(bench0->type == BL_JOBJ &&
                 (bl__json_get(bench0, "real_time") || bl__json_get(bench0, "run_type") ||
                  bl__json_get(bench0, "run_name") || bl__json_get(bench0, "iterations")))) {
        snprintf(err, err_size,
                 "%s: benchmarks[0]: neither benchlab (no \"schema\") nor Google Benchmark (no "
                 "real_time, run_type, run_name or iterations) output",
                 path);
        rc = BL_EFORMAT;
    } else if (bl__json_get(doc, "benchmarks")) {
        rc = read_gbench(e, doc);
    } else {
        snprintf(err, err_size, "%s: JSON is neither Google Benchmark nor benchlab output", path);
        rc = BL_EFORMAT;
    }
    free(e->config);
    bl__buf_fini(&e->name);
    free(e);
    bl__json_free(doc);
    return rc;
}
