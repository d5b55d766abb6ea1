/*
 * results_read.c - results files back into a bl_results, so that a run can
 * be re-analysed (reported, re-summarised) without being measured again.
 *
 *  - benchlab JSON ("benchlab/1", json_write.c): everything as written,
 *    every batch of every launch, the estimates, the instruments' passes,
 *    configuration and metadata. A member of the wrong type is an error
 *    that names it ("benchmarks[2].launches[0].samples[7].reps: not a
 *    number"); a missing member takes its zero value, so that files written
 *    before a member was added still read.
 *  - Google Benchmark JSON: one launch per "iteration" entry, real time per
 *    op as ns_per_op (a threaded entry's converted from Google Benchmark's
 *    thread convention: real_time x threads, iterations / threads), no
 *    batches.
 *  - The Go benchmark format (gobench_read.c, benchstat's rules): one launch
 *    per result line with ns/op, MB/s (as bytes per op), B/op and allocs/op
 *    (the allocation pass) and every other unit as a metric; no batches.
 *
 * Readers of the result see n_samples == 0 where an input had no batches
 * and say so; nothing is invented.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/base.h"
#include "benchlab/format.h"
#include "gobench.h"
#include "json.h"

#define MAX_INPUT ((size_t)1 << 32)

/* A reading context: the input's name and where we are in the document,
 * for messages such as "x.json: benchmarks[2].name: not a string". */
struct ctx {
    const char *path;
    bl_diags *diags; /* what was skipped */
    char *err;
    size_t err_size;
    char where[256];
};

static int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ctx *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->err && c->err_size)
        snprintf(c->err, c->err_size, "%s: %s%s%s", c->path, c->where, c->where[0] ? ": " : "",
                 msg);
    return BL_EFORMAT;
}

/* Set the document position shown in messages. */
static void at(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void at(struct ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->where, sizeof c->where, fmt, ap);
    va_end(ap);
}

/* A number member: absent or null gives dflt; another type is an error. */
static int num(struct ctx *c, const struct bl__json *obj, const char *key, double dflt, double *out)
{
    const struct bl__json *v = bl__json_get(obj, key);
    *out = dflt;
    if (!v || v->type == BL_JNULL)
        return 0;
    if (v->type != BL_JNUM)
        return fail(c, "%s: not a number", key);
    *out = v->num;
    return 0;
}

/* A metric's member: num, or "inf" and "-inf" (bl__json_metric_number). */
static int metric_num(struct ctx *c, const struct bl__json *obj, const char *key, double dflt,
                      double *out)
{
    const struct bl__json *v = bl__json_get(obj, key);
    *out = dflt;
    if (!v || v->type == BL_JNULL || bl__json_metric(v, out))
        return 0;
    return fail(c, "%s: not a number, null, \"inf\" or \"-inf\"", key);
}

/* A count member, clamped into [0, max] (a double beyond the range of the
 * integer type is not converted: that is undefined behaviour). */
static int count(struct ctx *c, const struct bl__json *obj, const char *key, double max,
                 double *out)
{
    int rc = num(c, obj, key, 0, out);
    if (rc)
        return rc;
    if (!(*out >= 0))
        *out = 0;
    if (*out > max)
        *out = max;
    *out = floor(*out);
    return 0;
}

static int str(struct ctx *c, const struct bl__json *obj, const char *key, const char **out)
{
    const struct bl__json *v = bl__json_get(obj, key);
    *out = NULL;
    if (!v || v->type == BL_JNULL)
        return 0;
    if (v->type != BL_JSTR)
        return fail(c, "%s: not a string", key);
    *out = v->str;
    return 0;
}

static int boolean(struct ctx *c, const struct bl__json *obj, const char *key, bool *out)
{
    const struct bl__json *v = bl__json_get(obj, key);
    *out = false;
    if (!v || v->type == BL_JNULL)
        return 0;
    if (v->type != BL_JBOOL)
        return fail(c, "%s: not true or false", key);
    *out = v->boolean != 0;
    return 0;
}

/* An object member (absent: NULL, fine); another type is an error. */
static int object(struct ctx *c, const struct bl__json *obj, const char *key, int type,
                  const struct bl__json **out)
{
    const struct bl__json *v = bl__json_get(obj, key);
    *out = NULL;
    if (!v || v->type == BL_JNULL)
        return 0;
    if (v->type != type)
        return fail(c, "%s: not %s", key, type == BL_JARR ? "an array" : "an object");
    *out = v;
    return 0;
}

static int status_code(const char *s)
{
    static const struct {
        const char *name;
        int code;
    } map[] = {{"ok", 0},
               {"crash", BL_ECRASH},
               {"timeout", BL_ETIMEOUT},
               {"exit", BL_EEXIT},
               {"protocol", BL_EPROTO},
               {"failed", BL_EBENCH},
               {"interrupted", BL_EINTR}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(s, map[i].name) == 0)
            return map[i].code;
    return BL_EBENCH; /* "error" and names from a later version: a failure all the same */
}

static int read_labels(struct ctx *c, bl_results *r, const struct bl__json *doc, const char *key,
                       int meta)
{
    const struct bl__json *o;
    at(c, "%s", "");
    int rc = object(c, doc, key, BL_JOBJ, &o);
    for (size_t i = 0; !rc && o && i < o->n; i++) {
        if (o->items[i].type != BL_JSTR) {
            at(c, "%s", key);
            return fail(c, "%s: not a string", o->keys[i]);
        }
        rc = meta ? bl_results_set_meta(r, o->keys[i], o->items[i].str)
                  : bl_results_set_config(r, o->keys[i], o->items[i].str);
    }
    return rc;
}

static int read_sample(struct ctx *c, bl_launch *l, const struct bl__json *s)
{
    if (s->type != BL_JOBJ)
        return fail(c, "not an object");
    bl_sample b;
    memset(&b, 0, sizeof b);
    const char *stage;
    double v;
    int rc = str(c, s, "stage", &stage);
    if (rc)
        return rc;
    if (!stage || strlen(stage) != 1 || !strchr("pwoOm", stage[0]))
        return fail(c, "stage: not one of p, w, o, O, m");
    b.stage = stage[0];
    if ((rc = count(c, s, "reps", 1.8e19, &v)))
        return rc;
    b.reps = (uint64_t)v;
    if ((rc = num(c, s, "ns", NAN, &b.ns)) || (rc = num(c, s, "cpu_ns", -1, &b.cpu_ns)) ||
        (rc = num(c, s, "ref_ns", 0, &b.ref_ns)) ||
        (rc = num(c, s, "proc_cpu_ns", -1, &b.proc_cpu_ns)))
        return rc;
    if (!(b.proc_cpu_ns > 0)) /* absent, null: not measured (the thread's clock) */
        b.proc_cpu_ns = -1;
    if (!(b.ref_ns > 0) || isinf(b.ref_ns))
        b.ref_ns = 0; /* not measured */
    if (isnan(b.ns))
        return fail(c, "ns: missing");
    static const char *const counts[] = {"nivcsw", "migrations", "minflt",
                                         "majflt", "pauses",     "invalid"};
    uint32_t *dst[] = {&b.nivcsw, &b.migrations, &b.minflt, &b.majflt, &b.pauses, NULL};
    for (size_t k = 0; k < 6; k++) {
        if ((rc = count(c, s, counts[k], 4294967295.0, &v)))
            return rc;
        if (dst[k])
            *dst[k] = (uint32_t)v;
        else
            b.invalid = (unsigned)v;
    }
    return bl_launch_add_sample(l, &b);
}

/* A time unit as Google Benchmark's outputs take it; absent or null: "". */
static int time_unit(struct ctx *c, const struct bl__json *obj, char out[4])
{
    const char *u;
    int rc = str(c, obj, "time_unit", &u);
    out[0] = '\0';
    if (rc || !u)
        return rc;
    if (strcmp(u, "ns") && strcmp(u, "us") && strcmp(u, "ms") && strcmp(u, "s"))
        return fail(c, "time_unit: \"%s\" is not ns, us, ms or s", u);
    snprintf(out, 4, "%s", u);
    return 0;
}

/* An owned copy of a string member (absent or null: NULL). */
static int str_dup(struct ctx *c, const struct bl__json *obj, const char *key, char **out)
{
    const char *s;
    int rc = str(c, obj, key, &s);
    if (!rc && s && !(*out = bl__strdup(s)))
        rc = -ENOMEM;
    return rc;
}

/* "size" (json_write.c's write_size): absent leaves the launch without one. */
static int read_size(struct ctx *c, bl_size *z, const struct bl__json *j)
{
    const struct bl__json *o;
    const char *asked;
    int rc = object(c, j, "size", BL_JOBJ, &o);
    if (rc || !o)
        return rc;
    size_t len = strlen(c->where);
    snprintf(c->where + len, sizeof c->where - len, ".size");
    if ((rc = num(c, o, "n", 0, &z->n)) || (rc = num(c, o, "user_g", NAN, &z->user_g)) ||
        (rc = num(c, o, "n_sum", 0, &z->n_sum)) ||
        (rc = num(c, o, "user_g_sum", NAN, &z->user_g_sum)) ||
        (rc = str(c, o, "complexity", &asked)))
        return rc;
    if (!(z->n_sum > 0) || isinf(z->n_sum))
        z->n_sum = 0; /* not said */
    z->complexity = -1;
    if (!asked || strcmp(asked, "none") == 0)
        z->complexity = BL_COMPLEXITY_NONE;
    else if (strcmp(asked, "auto") == 0)
        z->complexity = BL_COMPLEXITY_AUTO;
    for (int k = BL_O1; z->complexity < 0 && k <= BL_OUSER; k++)
        if (strcmp(asked, bl_complexity_name(k)) == 0)
            z->complexity = k;
    if (z->complexity < 0)
        return fail(c, "complexity: \"%s\" is not none, auto or a curve such as O(n)", asked);
    if ((rc = str_dup(c, o, "param", &z->param)) || (rc = str_dup(c, o, "group", &z->group)) ||
        (rc = str_dup(c, o, "user_name", &z->user_name)))
        return rc;
    c->where[len] = '\0';
    return 0;
}

/* l's metric of that unit; NULL when it has none */
static bl_metric *metric_named(bl_launch *l, const char *unit)
{
    for (size_t i = 0; i < l->n_metrics; i++)
        if (strcmp(l->metrics[i].unit, unit) == 0)
            return &l->metrics[i];
    return NULL;
}
static int read_launch(struct ctx *c, bl_launch *l, const struct bl__json *j)
{
    if (j->type != BL_JOBJ)
        return fail(c, "not an object");
    const char *status, *message;
    int rc = str(c, j, "status", &status);
    if (!rc)
        rc = str(c, j, "message", &message);
    if (!rc)
        rc = boolean(c, j, "skipped", &l->skipped);
    if (!rc)
        rc = boolean(c, j, "disturbed", &l->disturbed);
    if (rc)
        return rc;
    l->status = status ? status_code(status) : 0;
    if (message && !(l->message = bl__strdup(message)))
        return -ENOMEM;
    struct {
        const char *key;
        double *dst;
        double dflt;
    } nums[] = {{"ns_per_op", &l->ns_per_op, NAN},
                {"raw_ns_per_op", &l->raw_ns_per_op, NAN},
                {"overhead_ns", &l->overhead_ns, NAN},
                {"clock_ns", &l->clock_ns, 0},
                {"pause_ns", &l->pause_ns, 0},
                {"bytes_per_op", &l->bytes_per_op, 0},
                {"items_per_op", &l->items_per_op, 0},
                {"wall_s", &l->wall_s, 0},
                {"bytes_sum_per_op", &l->bytes_sum_per_op, 0},
                {"items_sum_per_op", &l->items_sum_per_op, 0},
                {"ref_ns", &l->ref_ns, NAN},
                {"ref_cycles_per_op", &l->ref_cycles_per_op, NAN}};
    for (size_t k = 0; k < sizeof nums / sizeof *nums; k++)
        if ((rc = num(c, j, nums[k].key, nums[k].dflt, nums[k].dst)))
            return rc;
    double v;
    if ((rc = count(c, j, "measured_reps", 1.8e19, &v)))
        return rc;
    l->measured_reps = (uint64_t)v;
    if ((rc = count(c, j, "n_measured", 1e15, &v)))
        return rc;
    l->n_measured = (size_t)v;
    if ((rc = count(c, j, "n_invalid", 1e15, &v)))
        return rc;
    l->n_invalid = (size_t)v;
    if ((rc = num(c, j, "exit_code", 0, &v)))
        return rc;
    l->exit_code = v >= -1e9 && v <= 1e9 ? (int)v : 0;
    if ((rc = count(c, j, "term_signal", 1e9, &v)))
        return rc;
    l->term_signal = (int)v;
    if ((rc = count(c, j, "threads", 1 << 20, &v)))
        return rc;
    l->threads = (int)v;
    if ((rc = count(c, j, "loop_iterations", 1.8e19, &v)))
        return rc;
    l->loop_iterations = (uint64_t)v;
    if ((rc = count(c, j, "tuned_reps", 1.8e19, &v)) ||
        (rc = boolean(c, j, "tune_stale", &l->tune_stale)))
        return rc;
    l->tuned_reps = (uint64_t)v;
    if ((rc = count(c, j, "intrinsic", 4294967295.0, &v)))
        return rc;
    l->intrinsic = (unsigned)v & ((1u << BL_INVALID_NREASONS) - 1); /* bits of known reasons */
    if ((rc = str_dup(c, j, "label", &l->label)) || (rc = time_unit(c, j, l->time_unit)) ||
        (rc = read_size(c, &l->size, j)))
        return rc;
    const char *clock;
    if ((rc = str(c, j, "counter_clock", &clock)))
        return rc;
    l->counter_clock = !clock                         ? BL_CLOCK_UNSAID
                       : strcmp(clock, "real") == 0   ? BL_CLOCK_REAL
                       : strcmp(clock, "manual") == 0 ? BL_CLOCK_MANUAL
                                                      : BL_CLOCK_CPU;
    const char *cpu_clock; /* absent (files from before it): the thread's */
    if ((rc = str(c, j, "cpu_clock", &cpu_clock)))
        return rc;
    if (cpu_clock && strcmp(cpu_clock, "process") != 0 && strcmp(cpu_clock, "thread") != 0)
        return fail(c, "cpu_clock: \"%.40s\" is neither \"thread\" nor \"process\"", cpu_clock);
    l->cpu_clock = cpu_clock && strcmp(cpu_clock, "process") == 0 ? BL_CPU_PROCESS : BL_CPU_THREAD;
    const struct bl__json *o;
    if ((rc = object(c, j, "invalid_by", BL_JOBJ, &o)))
        return rc;
    for (unsigned k = 0; o && k < BL_INVALID_NREASONS; k++) {
        if ((rc = count(c, o, bl_invalid_name(k), 1e15, &v)))
            return rc;
        l->invalid_by[k] = (size_t)v;
    }
    if ((rc = object(c, j, "metrics", BL_JOBJ, &o)))
        return rc;
    for (size_t k = 0; o && k < o->n; k++) {
        /* null: a value that was not known (a rate without a time) */
        double x = NAN;
        if (o->items[k].type != BL_JNULL && !bl__json_metric(&o->items[k], &x))
            return fail(c, "metrics: %s: not a number, null, \"inf\" or \"-inf\"", o->keys[k]);
        if ((rc = bl_launch_set_metric(l, o->keys[k], x)))
            return rc;
    }
    /* the counters among them (files from before they were kept: none) */
    if ((rc = object(c, j, "user_counters", BL_JOBJ, &o)))
        return rc;
    for (size_t k = 0; o && k < o->n; k++) {
        bl_metric *m = metric_named(l, o->keys[k]);
        const struct bl__json *u = &o->items[k];
        double flags, cflags, sum;
        if (!m || u->type != BL_JOBJ)
            return fail(c, "user_counters: %s: not an object naming one of the metrics",
                        o->keys[k]);
        if ((rc = count(c, u, "flags", 4294967295.0, &flags)) ||
            (rc = count(c, u, "counter_flags", 4294967295.0, &cflags)) ||
            (rc = metric_num(c, u, "sum", NAN, &sum)))
            return rc;
        m->is_counter = true;
        m->flags = (unsigned)flags;
        m->counter_flags = (unsigned)cflags;
        m->counter_sum = sum; /* the value stays as written */
    }
    /* the other metrics' flags (files from before they were kept: none) */
    if ((rc = object(c, j, "metric_flags", BL_JOBJ, &o)))
        return rc;
    for (size_t k = 0; o && k < o->n; k++) {
        bl_metric *m = metric_named(l, o->keys[k]);
        const struct bl__json *u = &o->items[k];
        double flags, per_op;
        if (!m || m->is_counter || u->type != BL_JOBJ)
            return fail(c, "metric_flags: %s: not an object naming one of the metrics", o->keys[k]);
        if ((rc = count(c, u, "flags", 4294967295.0, &flags)) ||
            (rc = metric_num(c, u, "per_op", m->value, &per_op)))
            return rc;
        m->flags = (unsigned)flags; /* the value stays as written */
        m->per_op = per_op;
    }
    if ((rc = object(c, j, "samples", BL_JARR, &o)))
        return rc;
    size_t len = strlen(c->where);
    for (size_t k = 0; o && k < o->n; k++) {
        snprintf(c->where + len, sizeof c->where - len, ".samples[%zu]", k);
        if ((rc = read_sample(c, l, &o->items[k])))
            return rc;
    }
    c->where[len] = '\0';
    return 0;
}

static int read_passes(struct ctx *c, bl_bench_result *b, const struct bl__json *j)
{
    const struct bl__json *o;
    const char *msg;
    int rc = object(c, j, "alloc", BL_JOBJ, &o);
    if (!rc && o) {
        const struct bl__json *bytes = bl__json_get(o, "bytes_per_op");
        if ((rc = num(c, o, "bytes_per_op", NAN, &b->alloc_bytes_per_op)) ||
            (rc = num(c, o, "allocs_per_op", NAN, &b->allocs_per_op)) ||
            (rc = str(c, o, "message", &msg)))
            return rc;
        b->has_alloc = bytes && !isnan(b->alloc_bytes_per_op) && !isnan(b->allocs_per_op);
        if (msg && !(b->alloc_message = bl__strdup(msg)))
            return -ENOMEM;
    }
    if (!rc)
        rc = object(c, j, "counters", BL_JOBJ, &o);
    if (!rc && o) {
        const struct bl__json *per;
        if ((rc = boolean(c, o, "scaled", &b->counters_scaled)) ||
            (rc = object(c, o, "per_op", BL_JOBJ, &per)) || (rc = str(c, o, "message", &msg)))
            return rc;
        for (size_t k = 0; per && k < per->n && b->n_counters < 6; k++) {
            if (per->items[k].type != BL_JNUM)
                return fail(c, "counters: %s: not a number", per->keys[k]);
            snprintf(b->counter_unit[b->n_counters], sizeof b->counter_unit[0], "%s", per->keys[k]);
            b->counter_per_op[b->n_counters++] = per->items[k].num;
        }
        if (msg && !(b->counters_message = bl__strdup(msg)))
            return -ENOMEM;
    }
    return rc;
}

/* "own_plan": the benchmark's own budget and count (absent: the run's). */
static int read_own_plan(struct ctx *c, bl_bench_result *b, const struct bl__json *j)
{
    const struct bl__json *o;
    double t = 0, n = 0;
    int rc = object(c, j, "own_plan", BL_JOBJ, &o);
    if (!rc && o && !(rc = num(c, o, "time_s", 0, &t)))
        rc = count(c, o, "count", 1e6, &n);
    if (rc)
        return rc;
    b->own_time_s = t > 0 && isfinite(t) ? t : 0;
    b->own_count = (int)n;
    return 0;
}

static int read_benchlab(struct ctx *c, bl_results *r, const struct bl__json *doc)
{
    int rc = read_labels(c, r, doc, "config", 0);
    if (!rc)
        rc = read_labels(c, r, doc, "meta", 1);
    if (!rc)
        rc = time_unit(c, doc, r->time_unit);
    /* unit metadata: {"hits/s": {"better": "higher"}} */
    const struct bl__json *units = NULL;
    if (!rc)
        rc = object(c, doc, "units", BL_JOBJ, &units);
    for (size_t i = 0; !rc && units && i < units->n; i++) {
        const struct bl__json *kv = &units->items[i];
        at(c, "units");
        if (kv->type != BL_JOBJ)
            return fail(c, "%s: not an object", units->keys[i]);
        for (size_t k = 0; !rc && k < kv->n; k++) {
            if (kv->items[k].type != BL_JSTR)
                return fail(c, "%s: %s: not a string", units->keys[i], kv->keys[k]);
            if (bl_results_set_unit_meta(r, units->keys[i], kv->keys[k], kv->items[k].str) < 0)
                rc = -ENOMEM;
        }
    }
    const struct bl__json *bs = NULL;
    if (!rc)
        rc = object(c, doc, "benchmarks", BL_JARR, &bs);
    for (size_t i = 0; !rc && bs && i < bs->n; i++) {
        const struct bl__json *b = &bs->items[i];
        at(c, "benchmarks[%zu]", i);
        if (b->type != BL_JOBJ)
            return fail(c, "not an object");
        const char *name;
        if ((rc = str(c, b, "name", &name)))
            return rc;
        if (!name || !name[0])
            return fail(c, "name: missing");
        const char *job = NULL;
        if ((rc = str(c, b, "job", &job)))
            return rc;
        bl_bench_result *br = bl_results_bench_job(r, job && *job ? job : NULL, name);
        if (!br)
            return -ENOMEM;
        const struct bl__json *ls;
        if ((rc = object(c, b, "launches", BL_JARR, &ls)))
            return rc;
        for (size_t k = 0; !rc && ls && k < ls->n; k++) {
            bl_launch *l = bl_results_add_launch(br);
            if (!l)
                return -ENOMEM;
            at(c, "benchmarks[%zu].launches[%zu]", i, k);
            rc = read_launch(c, l, &ls->items[k]);
        }
        at(c, "benchmarks[%zu]", i);
        if (!rc)
            rc = read_passes(c, br, b);
        if (!rc)
            rc = read_own_plan(c, br, b);
    }
    /* the fits are derived: made again from the sizes as the run made them,
     * not read from "complexity" (files from before sizes were written have
     * none, as before) */
    if (!rc)
        rc = bl_results_refit_complexity(r);
    return rc;
}

/* A record skipped: named in c->diags as "path: benchmarks[i]". */
static int skipped(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int skipped(struct ctx *c, const char *fmt, ...)
{
    char msg[512], where[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(where, sizeof where, "%s%s%s", c->path, c->where[0] ? ": " : "", c->where);
    return bl_diags_add(c->diags, where, "%s", msg);
}

/* Whether an entry of "benchmarks" looks like Google Benchmark's. */
static int gbench_like(const struct bl__json *b)
{
    return b->type == BL_JOBJ && (bl__json_get(b, "real_time") || bl__json_get(b, "run_type") ||
                                  bl__json_get(b, "run_name") || bl__json_get(b, "iterations"));
}

/*
 * Google Benchmark's --benchmark_format=json: the "iteration" entries. The
 * aggregates (mean, median, stddev, cv) that come with repetitions are
 * left out: they summarise the iterations read. A file that holds only
 * aggregates (--benchmark_report_aggregates_only) has no repetitions: each
 * benchmark's median is read as one launch, with a warning naming the flag
 * to drop (docs/formats.md).
 */
static int read_gbench(struct ctx *c, bl_results *r, const struct bl__json *doc)
{
    const struct bl__json *ctx = bl__json_get(doc, "context");
    for (size_t i = 0; ctx && ctx->type == BL_JOBJ && i < ctx->n; i++)
        if (ctx->items[i].type == BL_JSTR &&
            bl_results_set_meta(r, ctx->keys[i], ctx->items[i].str))
            return -ENOMEM;
    const struct bl__json *bs;
    int rc = object(c, doc, "benchmarks", BL_JARR, &bs);
    int n_iter = 0, n_median = 0;
    for (size_t i = 0; !rc && bs && i < bs->n; i++) {
        const char *rt = bl__json_str(bl__json_get(&bs->items[i], "run_type"));
        const char *agg = bl__json_str(bl__json_get(&bs->items[i], "aggregate_name"));
        n_iter += !rt || strcmp(rt, "iteration") == 0;
        n_median += rt && strcmp(rt, "aggregate") == 0 && agg && strcmp(agg, "median") == 0;
    }
    int medians = n_iter == 0 && n_median > 0;
    if (!rc && medians) {
        at(c, "%s", "");
        if ((rc = skipped(c, "holds only aggregates (--benchmark_report_aggregates_only): each "
                             "benchmark's median is read as one launch; run without that flag for "
                             "the repetitions")))
            return rc;
    }
    for (size_t i = 0; !rc && bs && i < bs->n; i++) {
        const struct bl__json *b = &bs->items[i];
        at(c, "benchmarks[%zu]", i);
        if (b->type != BL_JOBJ)
            return fail(c, "not an object");
        const char *name, *run_type, *unit, *error, *skip, *agg, *label;
        double real, iters, bps, threads;
        if ((rc = str(c, b, "name", &name)) || (rc = str(c, b, "run_type", &run_type)) ||
            (rc = str(c, b, "time_unit", &unit)) || (rc = str(c, b, "error_message", &error)) ||
            (rc = str(c, b, "skip_message", &skip)) || (rc = str(c, b, "label", &label)) ||
            (rc = str(c, b, "aggregate_name", &agg)) || (rc = num(c, b, "real_time", NAN, &real)) ||
            (rc = count(c, b, "iterations", 1.8e19, &iters)) ||
            (rc = num(c, b, "bytes_per_second", 0, &bps)) ||
            (rc = count(c, b, "threads", 1 << 20, &threads)))
            return rc;
        if (run_type && strcmp(run_type, "iteration") != 0) {
            if (!medians || strcmp(run_type, "aggregate") != 0 || !agg || strcmp(agg, "median"))
                continue; /* a summary of entries read (or of the median read) */
            /* the aggregate's name is "BM_x_median": the benchmark's is run_name */
            const char *run_name = bl__json_str(bl__json_get(b, "run_name"));
            if (run_name)
                name = run_name;
        }
        if (!name || !name[0]) {
            if ((rc = skipped(c, "no name: skipped")))
                return rc;
            continue;
        }
        if (isnan(real) && !error && !skip) {
            if ((rc = skipped(c, "%s: no real_time: skipped", name)))
                return rc;
            continue;
        }
        double scale = !unit || strcmp(unit, "ns") == 0 ? 1
                       : strcmp(unit, "us") == 0        ? 1e3
                       : strcmp(unit, "ms") == 0        ? 1e6
                       : strcmp(unit, "s") == 0         ? 1e9
                                                        : NAN;
        if (isnan(scale))
            return fail(c, "time_unit: \"%s\" is not ns, us, ms or s", unit);
        bl_bench_result *br = bl_results_bench(r, name);
        bl_launch *l = br ? bl_results_add_launch(br) : NULL;
        if (!l)
            return -ENOMEM;
        /* Google Benchmark's thread convention back into benchlab's
         * (bl__gbench_times inverted): with T threads, real_time is the
         * team's wall time over all T x reps iterations, benchlab's time
         * per op is one thread's, T times it; the iterations count every
         * thread's (an aggregate's count repetitions); bytes_per_second is
         * the team's, as bl_launch_rates */
        int t = threads > 1 ? (int)threads : 1;
        l->threads = t > 1 ? t : 0;
        bool iteration = !run_type || strcmp(run_type, "iteration") == 0;
        l->measured_reps = (uint64_t)iters / (iteration ? (uint64_t)t : 1);
        l->ns_per_op = l->raw_ns_per_op = real * scale * t;
        if (bps > 0 && l->ns_per_op > 0)
            l->bytes_per_op = bps * l->ns_per_op / 1e9 / t;
        /* the unit it was shown in (Unit()) and its label stay with it,
         * for the outputs that show them (Google Benchmark's, benchlab's JSON) */
        if (unit)
            snprintf(l->time_unit, sizeof l->time_unit, "%s", unit);
        if (label && !(l->label = bl__strdup(label)))
            return -ENOMEM;
        if (error) {
            l->status = BL_EBENCH;
            if (!(l->message = bl__strdup(error)))
                return -ENOMEM;
        } else if (skip) {
            /* Google Benchmark 1.8's SkipWithMessage: skipped, not failed */
            l->skipped = true;
            if (!(l->message = bl__strdup(skip)))
                return -ENOMEM;
        }
    }
    return rc;
}

/* ---- the Go benchmark format ------------------------------------------------ */

struct go_reader {
    bl_results *r;
    bl_diags *diags;
    /* configuration keys changed since the last result (value "" when
     * deleted), applied at the next result: O(1) per configuration line
     * instead of the whole configuration at each result */
    bl_results *pending;
    char *job; /* the "job:" configuration line in force (docs/jobs.md); NULL: none */
    size_t n_results, n_errors;
    char first_error[512];
    int oom;
};

static int go_result(void *ctx, const bl_gobench_result *g)
{
    struct go_reader *gr = ctx;
    struct bl__buf name = {0};
    if (bl__buf_printf(&name, "Benchmark%.*s", (int)g->name_len, g->name))
        goto oom;
    /* a key takes its value at the last result that had it */
    for (size_t i = 0; i < gr->pending->n_config; i++)
        if (gr->pending->config[i].value[0] && strcmp(gr->pending->config[i].key, "job") != 0 &&
            bl_results_set_config(gr->r, gr->pending->config[i].key, gr->pending->config[i].value))
            goto oom;
    bl_results_destroy(gr->pending);
    if (!(gr->pending = bl_results_create()))
        goto oom;
    /* a job is part of a benchmark's identity, not a configuration of the
     * whole file */
    bl_bench_result *b = bl_results_bench_job(gr->r, gr->job, name.data);
    bl_launch *l = b ? bl_results_add_launch(b) : NULL;
    if (!l)
        goto oom;
    l->measured_reps = g->iters > 0 ? (uint64_t)g->iters : 0;
    double mbs = NAN, items = NAN, ops = NAN, bytes = NAN, allocs = NAN;
    for (size_t i = 0; i < g->n_values; i++) {
        const char *u = g->values[i].unit;
        double v = g->values[i].value;
        if (strcmp(u, "ns/op") == 0)
            l->ns_per_op = l->raw_ns_per_op = v;
        else if (strcmp(u, "sec/op") == 0)
            l->ns_per_op = l->raw_ns_per_op = v * 1e9;
        else if (strcmp(u, "MB/s") == 0)
            mbs = v;
        else if (strcmp(u, "items/s") == 0)
            items = v;
        else if (strcmp(u, "ops/s") == 0)
            ops = v;
        else if (strcmp(u, "B/op") == 0)
            bytes = v;
        else if (strcmp(u, "allocs/op") == 0)
            allocs = v;
        else if (bl_launch_set_metric(l, u, v))
            goto oom;
    }
    /* the rates back into per-op counts (bl_launch_rates inverted: rates
     * count every thread, and ops/s, written when neither bytes nor items
     * were set, says how many threads there were) */
    if (!isnan(ops) && l->ns_per_op > 0 && ops * l->ns_per_op / 1e9 < (1 << 20))
        l->threads = (int)lround(ops * l->ns_per_op / 1e9);
    if (!isnan(mbs) && l->ns_per_op > 0)
        l->bytes_per_op = mbs * l->ns_per_op / 1e3;
    if (!isnan(items) && l->ns_per_op > 0)
        l->items_per_op = items * l->ns_per_op / 1e9;
    if (!isnan(bytes) && !isnan(allocs)) {
        b->has_alloc = true;
        b->alloc_bytes_per_op = bytes;
        b->allocs_per_op = allocs;
    } else if (!isnan(bytes) || !isnan(allocs)) {
        if ((!isnan(bytes) && bl_launch_set_metric(l, "B/op", bytes)) ||
            (!isnan(allocs) && bl_launch_set_metric(l, "allocs/op", allocs)))
            goto oom;
    }
    gr->n_results++;
    bl__buf_fini(&name);
    return 0;
oom:
    bl__buf_fini(&name);
    gr->oom = 1;
    return -ENOMEM;
}

static int go_unit(void *ctx, const char *unit, const char *key, const char *value,
                   const char *path, size_t line)
{
    struct go_reader *gr = ctx;
    (void)path;
    (void)line;
    if (bl_results_set_unit_meta(gr->r, unit, key, value) < 0) {
        gr->oom = 1;
        return -ENOMEM;
    }
    return 0;
}

static void go_config(void *ctx, const char *key, const char *value)
{
    struct go_reader *gr = ctx;
    if (strcmp(key, "job") == 0) {
        free(gr->job);
        gr->job = value && *value ? strdup(value) : NULL;
        if (value && *value && !gr->job)
            gr->oom = 1;
        return;
    }
    if (gr->pending && bl_results_set_config(gr->pending, key, value ? value : ""))
        gr->oom = 1;
}

static void go_meta(void *ctx, const char *key, const char *value)
{
    struct go_reader *gr = ctx;
    if (bl_results_set_meta(gr->r, key, value))
        gr->oom = 1;
}

static void go_error(void *ctx, const char *path, size_t line, const char *msg)
{
    struct go_reader *gr = ctx;
    if (!gr->n_errors++)
        snprintf(gr->first_error, sizeof gr->first_error, "%s:%zu: %s", path, line, msg);
    char where[512];
    snprintf(where, sizeof where, "%s:%zu", path, line);
    if (bl_diags_add(gr->diags, where, "%s", msg))
        gr->oom = 1;
}

static int read_go(struct ctx *c, int fd, const char *prefix, size_t prefix_len, bl_results *r)
{
    struct go_reader gr = {.r = r, .diags = c->diags, .pending = bl_results_create()};
    bl_gobench_handler h = {.ctx = &gr,
                            .on_result = go_result,
                            .on_unit = go_unit,
                            .on_meta = go_meta,
                            .on_error = go_error,
                            .on_config = go_config};
    if (!gr.pending)
        return -ENOMEM;
    int rc = bl__gobench_read(fd, prefix, prefix_len, c->path, c->path, &h, c->err, c->err_size);
    bl_results_destroy(gr.pending);
    free(gr.job);
    if (gr.oom)
        return -ENOMEM;
    if (rc)
        return rc;
    if (gr.n_results == 0) {
        if (gr.n_errors)
            snprintf(c->err, c->err_size, "%s", gr.first_error);
        else
            snprintf(c->err, c->err_size,
                     "%s: no benchmark results (not JSON, and no result line of the Go "
                     "benchmark format)",
                     c->path);
        return BL_EFORMAT;
    }
    return 0;
}

static int read_json(struct ctx *c, const char *text, size_t n, bl_results *r)
{
    struct bl__json *doc = NULL;
    char msg[256];
    int rc = bl__json_parse(text, n, &doc, msg, sizeof msg);
    if (rc) {
        if (rc == BL_EFORMAT)
            snprintf(c->err, c->err_size, "%s: invalid JSON: %s", c->path, msg);
        return rc;
    }
    const char *schema = NULL;
    const struct bl__json *bs = NULL;
    if (doc->type != BL_JOBJ)
        rc = fail(c, "JSON is neither benchlab nor Google Benchmark output");
    else if ((rc = str(c, doc, "schema", &schema)) == 0) {
        if (schema && strcmp(schema, "benchlab/1") == 0)
            rc = read_benchlab(c, r, doc);
        else if (schema && strncmp(schema, "benchlab/", 9) == 0)
            rc = fail(c,
                      "schema \"%s\" is newer than this benchlab reads (benchlab/1): "
                      "upgrade benchlab",
                      schema);
        else if (schema)
            rc = fail(c, "schema \"%s\" is not a benchlab results schema", schema);
        else if ((rc = object(c, doc, "benchmarks", BL_JARR, &bs)) != 0)
            ;
        else if (!bs)
            rc = fail(c, "JSON is neither benchlab nor Google Benchmark output");
        else if (bs->n && bl__json_get(&bs->items[0], "launches"))
            rc = fail(c, "no \"schema\": benchlab JSON (its benchmarks have \"launches\") "
                         "must say \"schema\": \"benchlab/1\"");
        else if (bs->n && !gbench_like(&bs->items[0]))
            rc = fail(c, "benchmarks[0]: neither benchlab (no \"schema\") nor Google Benchmark "
                         "(no real_time, run_type, run_name or iterations) output");
        else
            rc = read_gbench(c, r, doc);
    }
    bl__json_free(doc);
    return rc;
}

int bl_results_read_fd(int fd, const char *path, bl_results **out, bl_diags *diags, char *err,
                       size_t err_size)
{
    char dummy[8];
    struct ctx c = {.path = path ? path : "-",
                    .diags = diags,
                    .err = err ? err : dummy,
                    .err_size = err ? err_size : sizeof dummy};
    *out = NULL;
    if (c.err_size)
        c.err[0] = '\0';
    bl_results *r = bl_results_create();
    if (!r)
        return -ENOMEM;
    /* Sniff: read until the first non-blank byte. JSON is read whole (a
     * tree); the Go format streams from there, its memory bounded by the
     * line limit whatever the input's size. */
    struct bl__buf text = {0};
    int rc = bl__buf_reserve(&text, 4096);
    size_t i = 0;
    while (!rc) {
        while (i < text.len && strchr(" \t\r\n", text.data[i]))
            i++;
        if (i < text.len || text.len >= 65536)
            break;
        ssize_t got = read(fd, text.data + text.len, text.cap - text.len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            rc = -errno;
        else if (got == 0)
            break;
        else
            text.len += (size_t)got;
    }
    if (!rc && i < text.len && (text.data[i] == '{' || text.data[i] == '[')) {
        rc = bl__buf_read_fd(&text, fd, MAX_INPUT);
        if (!rc)
            rc = read_json(&c, text.data, text.len, r);
        else if (rc != -ENOMEM)
            snprintf(c.err, c.err_size, "%s: %s", c.path,
                     rc == -EFBIG ? "larger than 4 GiB" : strerror(-rc));
    } else if (!rc) {
        rc = read_go(&c, fd, text.data, text.len, r);
    } else if (rc != -ENOMEM) {
        snprintf(c.err, c.err_size, "%s: %s", c.path, strerror(-rc));
    }
    bl__buf_fini(&text);
    if (rc) {
        bl_results_destroy(r);
        return rc;
    }
    *out = r;
    return 0;
}

int bl_results_read_file(const char *path, bl_results **out, bl_diags *diags, char *err,
                         size_t err_size)
{
    *out = NULL;
    int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (err && err_size)
            snprintf(err, err_size, "%s: %s", path, strerror(e));
        return -e;
    }
    int rc = bl_results_read_fd(fd, path, out, diags, err, err_size);
    if (fd != 0)
        close(fd);
    return rc;
}
