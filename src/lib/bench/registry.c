/*
 * registry.c - the benchmarks this program defines.
 *
 * BENCHLAB() registers a static definition from a constructor, before main.
 * Instances (one per combination of parameter values, the last parameter
 * varying fastest) are expanded once, on first use. Constructors run in an
 * unspecified order across translation units, so instances are listed in
 * the order definitions registered, which within one file is source order.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "bench.h"

static const bl_bench_def **defs;
static size_t n_defs, cap_defs;
static struct bl__instance *instances;
static size_t n_instances;
static int expanded;
/* the suite's name: declared (BENCHLAB_SUITE, BENCHLAB_MAIN("name")), a
 * second, different declaration, and the file of BENCHLAB_MAIN() */
static const char *suite_name, *suite_conflict, *main_file;

void bl_register(const bl_bench_def *def)
{
    if (!def || !def->name || !def->fn)
        return;
    if (bl__grow((void **)&defs, &cap_defs, n_defs + 1, sizeof *defs)) {
        fprintf(stderr, "benchlab: out of memory registering %s\n", def->name);
        return;
    }
    defs[n_defs++] = def;
}

void bl_register_suite(const char *name, const char *file)
{
    if (name && name[0]) {
        if (!suite_name)
            suite_name = name;
        else if (strcmp(suite_name, name) != 0 && !suite_conflict)
            suite_conflict = name;
    }
    if (file && file[0] && !main_file)
        main_file = file;
}

/* "src/zlib_bench.c" -> "zlib_bench": the base name without its last
 * extension (a leading dot is part of the name). Caller frees. */
static char *file_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    return n ? strndup(base, n) : NULL;
}

int bl__suite_name(char **name, char *err, size_t err_size)
{
    *name = NULL;
    if (suite_conflict) {
        snprintf(err, err_size,
                 "the suite declares two names, '%s' and '%s' (BENCHLAB_SUITE or "
                 "BENCHLAB_MAIN): keep one",
                 suite_name, suite_conflict);
        return BL_EUSAGE;
    }
    if (suite_name) {
        for (const char *c = suite_name; *c; c++) {
            if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                snprintf(err, err_size,
                         "the suite's declared name (BENCHLAB_SUITE or BENCHLAB_MAIN) has a "
                         "control character at byte %zu: it must fit on the pkg: line",
                         (size_t)(c - suite_name));
                return BL_EUSAGE;
            }
        }
        *name = bl__strdup(suite_name);
        return *name ? 0 : -ENOMEM;
    }
    const char *file = main_file ? main_file : n_defs ? defs[0]->file : NULL;
    if (file)
        *name = file_stem(file);
    return 0;
}

char *bl__bench_base_name(const char *id)
{
    struct bl__buf b = {0};
    bl__buf_puts(&b, "Benchmark");
    if (strncmp(id, "Benchmark", 9) == 0)
        id += 9;
    size_t start = b.len;
    bl__buf_puts(&b, id);
    if (b.data && b.len > start)
        b.data[start] = (char)toupper((unsigned char)b.data[start]);
    return b.data;
}

/* Parameter values must not contain whitespace (the Go format splits
 * fields on it, Unicode spaces included), control characters nor '/' (it
 * separates name parts): we replace them with '_'. */
static void append_clean(struct bl__buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
    while (p < end) {
        size_t n = bl__space_len(p, end); /* U+00A0 and the other Unicode spaces too */
        if (n || *p == '/' || *p < 0x20 || *p == 0x7F) {
            bl__buf_append(b, "_", 1);
            p += n ? n : 1;
        } else {
            bl__buf_append(b, p++, 1);
        }
    }
}

/*
 * The parameters of def with each BL_RANGE and BL_DENSE_RANGE written out
 * as an integer list; def's own array when it has no range. Built once per
 * definition, kept for the life of the program. A bad range becomes the
 * one value lo, and *error says why (the worker fails the benchmark with
 * it: the registry cannot refuse a definition made before main).
 */
static const bl_param *expand_ranges(const bl_bench_def *def, const char **error)
{
    char why[256];
    *error = NULL;
    size_t n = 0;
    int any = 0;
    for (; def->params && def->params[n].name; n++)
        any |= def->params[n].kind == BL_PARAM_RANGE || def->params[n].kind == BL_PARAM_DENSE_RANGE;
    if (!any)
        return def->params;
    bl_param *out = calloc(n + 1, sizeof *out);
    if (!out)
        return NULL;
    for (size_t p = 0; p < n; p++) {
        const bl_param *q = &def->params[p];
        out[p] = *q;
        if (q->kind != BL_PARAM_RANGE && q->kind != BL_PARAM_DENSE_RANGE)
            continue;
        int dense = q->kind == BL_PARAM_DENSE_RANGE;
        long long lo = q->ints[0], hi = q->ints[1], by = q->ints[2];
        size_t cap = 0, k = 0;
        long long *v = NULL;
        if (lo > hi || by < (dense ? 1 : 2) || (!dense && lo < 0)) {
            snprintf(why, sizeof why, "%s(\"%.100s\", %lld, %lld, %lld): %s",
                     dense ? "BL_DENSE_RANGE" : "BL_RANGE", q->name, lo, hi, by,
                     lo > hi  ? "lo is above hi"
                     : dense  ? "the step must be at least 1"
                     : lo < 0 ? "lo must not be negative (list negative values with BL_INTS)"
                              : "the multiplier must be at least 2");
            if (!*error)
                *error = strdup(why); /* kept by the instances, like the lists */
            hi = lo;
        }
        /* lo, then (dense) every step, or the powers of `by` inside (lo, hi), then hi */
        for (long long x = lo;;) {
            if (bl__grow((void **)&v, &cap, k + 1, sizeof *v)) {
                free(v);
                return NULL;
            }
            if (k == 0 || x != v[k - 1])
                v[k++] = x;
            if (x >= hi)
                break;
            long long next;
            if (dense) {
                next = __builtin_add_overflow(x, by, &next) || next > hi ? hi : next;
            } else {
                /* the next power of by above x (powers start at 1) */
                long long pw = 1;
                while (pw <= x && !__builtin_mul_overflow(pw, by, &pw))
                    ;
                next = pw <= x || pw > hi ? hi : pw;
            }
            x = next;
        }
        out[p].kind = BL_PARAM_INT;
        out[p].n_values = k;
        out[p].ints = v;
    }
    return out;
}

static char *instance_name(const bl_bench_def *def, const bl_param *params,
                           const size_t *value_index, bool threaded, int threads)
{
    struct bl__buf b = {0};
    if (def->raw_name) {
        bl__buf_puts(&b, "Benchmark");
        for (const char *s = def->name; *s; s++) {
            /* spaces stay (Google Benchmark's "BM_t<int, long>"); the Go
             * format writes them as '_'. Other whitespace would break the
             * line-based listing and channel. */
            char c = *s != ' ' && isspace((unsigned char)*s) ? '_' : *s;
            bl__buf_append(&b, &c, 1);
        }
        return b.data;
    }
    char *base = bl__bench_base_name(def->name);
    if (!base)
        return NULL;
    bl__buf_puts(&b, base);
    free(base);
    for (size_t p = 0; params && params[p].name; p++) {
        const bl_param *par = &params[p];
        bl__buf_puts(&b, "/");
        append_clean(&b, par->name);
        bl__buf_puts(&b, "=");
        if (par->kind == BL_PARAM_INT)
            bl__buf_printf(&b, "%lld", par->ints[value_index[p]]);
        else
            append_clean(&b, par->strs[value_index[p]]);
    }
    if (threaded)
        bl__buf_printf(&b, "/threads=%d", threads);
    return b.data;
}

/* Frees what expand_ranges allocated for def (nothing when it returned def's own). */
static void free_params(const bl_bench_def *def, const bl_param *params)
{
    if (!params || params == def->params)
        return;
    for (size_t p = 0; params[p].name; p++)
        if (params[p].ints != def->params[p].ints)
            free((void *)params[p].ints);
    free((void *)params);
}

char *bl__instance_name(const bl_bench_def *def, const size_t *value_index, bool threaded,
                        int threads)
{
    const char *error;
    const bl_param *params = expand_ranges(def, &error);
    if (def->params && !params)
        return NULL;
    char *name = instance_name(def, params, value_index, threaded, threads);
    free_params(def, params);
    free((void *)error);
    return name;
}

static size_t count_params(const bl_param *params)
{
    size_t n = 0;
    while (params && params[n].name)
        n++;
    return n;
}

/*
 * A layer's names may repeat (Google Benchmark registers BM_x/1 twice when a
 * suite asks twice). Each instance must keep a name of its own, or a worker
 * asked for the second would run the first: the later ones get Go's
 * suffix for repeated sub-benchmark names, #01, #02, ... Takes ownership
 * of name; NULL when memory runs out.
 */
static char *unique_name(char *name)
{
    int seen = 0;
    for (size_t i = 0; i < n_instances; i++)
        seen |= strcmp(instances[i].name, name) == 0;
    for (int k = 1; seen && k < 1000000; k++) {
        struct bl__buf b = {0};
        bl__buf_printf(&b, "%s#%02d", name, k);
        if (!b.data)
            break;
        seen = 0;
        for (size_t i = 0; i < n_instances && !seen; i++)
            seen = strcmp(instances[i].name, b.data) == 0;
        if (!seen) {
            free(name);
            return b.data;
        }
        free(b.data);
    }
    if (seen) {
        free(name);
        return NULL;
    }
    return name;
}

static void add_instance(const bl_bench_def *def, const bl_param *params, const char *error,
                         size_t np, const size_t *idx, bool threaded, int threads)
{
    static size_t cap;
    if (bl__grow((void **)&instances, &cap, n_instances + 1, sizeof *instances))
        return;
    struct bl__instance *in = &instances[n_instances];
    in->def = def;
    in->params = params;
    in->param_error = error;
    in->n_params = np;
    in->value_index = calloc(np ? np : 1, sizeof *in->value_index);
    if (!in->value_index)
        return;
    memcpy(in->value_index, idx, np * sizeof *idx);
    in->threads = threads;
    in->threaded = threaded;
    in->name = instance_name(def, params, idx, threaded, threads);
    if (!in->name)
        return;
    if (def->raw_name)
        in->name = unique_name(in->name);
    if (!in->name)
        return;
    n_instances++;
}

static void expand(void)
{
    expanded = 1;
    for (size_t d = 0; d < n_defs; d++) {
        const bl_bench_def *def = defs[d];
        if (def->raw_name) {
            /* named by its layer: one instance, the first thread count */
            const size_t none = 0;
            if (def->threads && def->threads[0] != BL__THREADS_END)
                add_instance(def, NULL, NULL, 0, &none, true, def->threads[0]);
            else
                add_instance(def, NULL, NULL, 0, &none, false, 1);
            continue;
        }
        /* kept for the life of the program: the instances point into it */
        const char *error;
        const bl_param *params = expand_ranges(def, &error);
        if (def->params && !params)
            continue; /* out of memory */
        size_t np = count_params(params);
        size_t idx[64] = {0};
        if (np > 64)
            np = 64;
        int empty = 0;
        for (size_t p = 0; p < np; p++)
            empty |= params[p].n_values == 0;
        if (empty)
            continue;
        for (;;) {
            /* the thread counts vary fastest: BenchmarkX/size=8/threads=1, .../threads=2 */
            if (def->threads)
                for (const int *t = def->threads; *t != BL__THREADS_END; t++)
                    add_instance(def, params, error, np, idx, true, *t);
            else
                add_instance(def, params, error, np, idx, false, 1);
            /* odometer: the last parameter varies fastest */
            size_t p = np;
            while (p > 0) {
                p--;
                if (++idx[p] < params[p].n_values)
                    break;
                idx[p] = 0;
                if (p == 0) {
                    p = SIZE_MAX;
                    break;
                }
            }
            if (np == 0 || p == SIZE_MAX)
                break;
        }
    }
}

const struct bl__instance *bl__registry_instances(size_t *n)
{
    if (!expanded)
        expand();
    *n = n_instances;
    return instances;
}

const struct bl__instance *bl__registry_find(const char *name)
{
    size_t n;
    const struct bl__instance *in = bl__registry_instances(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(in[i].name, name) == 0)
            return &in[i];
    return NULL;
}
