/*
 * results.c - the result model and the per-launch estimate (a benchmark's
 * estimate over launches: estimate.c).
 *
 * bl_launch_finish() is where a launch's raw batches become a number:
 *   1. invalidation (Caliper): a measured batch is discarded when the
 *      thread was disturbed while it ran - an involuntary context switch, a
 *      CPU migration, a major page fault, minor page faults in a benchmark
 *      whose batches normally have none, or wall time well beyond on-CPU
 *      time (the thread sat off CPU);
 *   2. overhead: the median per-op time of the empty-loop batches;
 *   3. estimate: median per-op time of the valid batches, pause cost
 *      subtracted, minus the overhead, never below zero;
 *   4. the same in reference cycles: each batch's per-op time divided by
 *      the time of one step of the reference chain timed beside it.
 * Invariant: samples are never removed, only marked.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab.h"
#include "benchlab/results.h"
#include "benchlab/stats.h"
#include "results_int.h"

/* Off-CPU time above this share of the batch (and above GAP_MIN_NS) is a gap. */
#define GAP_SHARE 0.02
#define GAP_MIN_NS 50000.0
/* In batches this long, a context switch or migration is judged by the
 * off-CPU time it measurably cost (above LONG_GAP_SHARE), not by its mere
 * occurrence: a 70 ms batch almost always sees one, and discarding it would
 * leave long operations with no clean batch at all. */
#define LONG_BATCH_NS 1e7
#define LONG_GAP_SHARE 0.005

static const char *const invalid_names[BL_INVALID_NREASONS] = {
    "context-switch", "migration", "major-fault", "page-fault", "off-cpu-gap",
};

const char *bl_invalid_name(unsigned bit_index)
{
    return bit_index < BL_INVALID_NREASONS ? invalid_names[bit_index] : "unknown";
}

bl_results *bl_results_create(void)
{
    return calloc(1, sizeof(bl_results));
}

/* The index of names and keys: positions in r->benches, r->config and
 * r->meta by string, so that reading n benchmarks or n keys is O(n), not
 * O(n^2). Entries appended to the arrays by other code are indexed on the
 * next lookup; an array that shrank is indexed again. */
struct bl__results_index {
    struct bl__strindex benches, config, meta;
    size_t n_benches, n_config, n_meta;
    size_t cap_config, cap_meta;       /* allocated sizes of r->config, r->meta ... */
    const void *config_arr, *meta_arr; /* ... while they are these arrays */
    /* unit metadata by the pair "unit\0key" of r->units[i] (not kept:
     * unit_eq compares the two strings) */
    struct bl__strindex units;
    size_t n_units, cap_units;
    const void *units_arr; /* r->units while cap_units holds */
};

static void index_free(bl_results *r)
{
    if (!r->index)
        return;
    bl__strindex_fini(&r->index->benches);
    bl__strindex_fini(&r->index->config);
    bl__strindex_fini(&r->index->meta);
    bl__strindex_fini(&r->index->units);
    free(r->index);
    r->index = NULL;
}

static void free_labels(bl_label *l, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(l[i].key);
        free(l[i].value);
    }
    free(l);
}

void bl__launch_fini(bl_launch *l)
{
    free(l->message);
    free(l->label);
    free(l->samples);
    for (size_t i = 0; i < l->n_metrics; i++)
        free(l->metrics[i].unit);
    free(l->metrics);
    free(l->out);
    free(l->err);
    free(l->size.param);
    free(l->size.user_name);
    free(l->size.group);
}

void bl_results_destroy(bl_results *r)
{
    if (!r)
        return;
    index_free(r);
    free_labels(r->config, r->n_config);
    free_labels(r->meta, r->n_meta);
    for (size_t i = 0; i < r->n_benches; i++) {
        bl_bench_result *b = &r->benches[i];
        for (size_t j = 0; j < b->n_launches; j++)
            bl__launch_fini(&b->launches[j]);
        free(b->launches);
        free(b->name);
        free(b->job);
        free(b->alloc_message);
        free(b->counters_message);
        free(b->profile_raw);
        free(b->profile_message);
    }
    free(r->benches);
    for (size_t i = 0; i < r->n_units; i++) {
        free(r->units[i].unit);
        free(r->units[i].key);
        free(r->units[i].value);
    }
    free(r->units);
    for (size_t i = 0; i < r->n_complexity; i++)
        bl__complexity_result_fini(&r->complexity[i]);
    free(r->complexity);
    free(r);
}

/* A benchmark's key in the index: its name, or with a job its name, a
 * NUL and the job (a name holds no NUL, so the two never meet). */
static char *bench_key(const char *job, const char *name, char *small, size_t cap, size_t *len)
{
    if (!job) {
        *len = strlen(name);
        return (char *)name;
    }
    return bl__strindex_pair(name, job, small, cap, len);
}

static int bench_eq(const void *arr, size_t i, const char *key, size_t len)
{
    const bl_bench_result *b = (const bl_bench_result *)arr + i;
    size_t ln = strlen(b->name);
    if (!b->job)
        return ln == len && memcmp(b->name, key, len) == 0;
    return ln < len && memcmp(b->name, key, ln + 1) == 0 && strlen(b->job) == len - ln - 1 &&
           memcmp(b->job, key + ln + 1, len - ln - 1) == 0;
}

static int bench_index_add(struct bl__strindex *x, const bl_bench_result *b, size_t pos)
{
    char small[256];
    size_t len;
    char *k = bench_key(b->job, b->name, small, sizeof small, &len);
    int rc = k ? bl__strindex_add_n(x, k, len, pos) : -ENOMEM;
    if (k != small && k != b->name)
        free(k);
    return rc;
}

static const char *label_key(const void *arr, size_t i)
{
    return ((const bl_label *)arr)[i].key;
}

static int sync_one(struct bl__strindex *x, size_t *done, size_t n, bl__strindex_key key_of,
                    const void *arr)
{
    if (*done > n) {
        bl__strindex_fini(x);
        *done = 0;
    }
    for (; *done < n; (*done)++)
        if (bl__strindex_add(x, key_of(arr, *done), *done))
            return -ENOMEM;
    return 0;
}

static int sync_benches(struct bl__results_index *ix, const bl_results *r)
{
    if (ix->n_benches > r->n_benches) {
        bl__strindex_fini(&ix->benches);
        ix->n_benches = 0;
    }
    for (; ix->n_benches < r->n_benches; ix->n_benches++)
        if (bench_index_add(&ix->benches, &r->benches[ix->n_benches], ix->n_benches))
            return -ENOMEM;
    return 0;
}

/* The index, up to date; NULL when memory runs out (callers then scan). */
static struct bl__results_index *index_of(bl_results *r)
{
    if (!r->index) {
        r->index = calloc(1, sizeof *r->index);
        if (!r->index)
            return NULL;
    }
    struct bl__results_index *ix = r->index;
    if (sync_benches(ix, r) ||
        sync_one(&ix->config, &ix->n_config, r->n_config, label_key, r->config) ||
        sync_one(&ix->meta, &ix->n_meta, r->n_meta, label_key, r->meta)) {
        index_free(r);
        return NULL;
    }
    return ix;
}

static long find_label(const bl_label *arr, size_t n, const struct bl__strindex *x, size_t done,
                       const char *key)
{
    if (x && done == n)
        return bl__strindex_find(x, key, strlen(key), label_key, arr);
    for (size_t i = 0; i < n; i++)
        if (strcmp(arr[i].key, key) == 0)
            return (long)i;
    return -1;
}

static int set_label(bl_results *r, int meta, const char *key, const char *value)
{
    struct bl__results_index *ix = index_of(r);
    bl_label **arr = meta ? &r->meta : &r->config;
    size_t *n = meta ? &r->n_meta : &r->n_config;
    long at = find_label(*arr, *n, ix ? (meta ? &ix->meta : &ix->config) : NULL,
                         ix ? (meta ? ix->n_meta : ix->n_config) : 0, key);
    if (at >= 0) {
        char *v = bl__strdup(value ? value : "");
        if (!v)
            return -ENOMEM;
        free((*arr)[at].value);
        (*arr)[at].value = v;
        return 0;
    }
    /* grow by doubling (the index remembers the allocated size of the
     * array it saw last; an array replaced behind it counts as full) */
    size_t cap = *n, *capp = ix ? (meta ? &ix->cap_meta : &ix->cap_config) : &cap;
    const void **seen = ix ? (meta ? &ix->meta_arr : &ix->config_arr) : NULL;
    if ((seen && *seen != *arr) || *capp < *n)
        *capp = *n;
    if (bl__grow((void **)arr, capp, *n + 1, sizeof **arr))
        return -ENOMEM;
    if (seen)
        *seen = *arr;
    bl_label *na = *arr;
    na[*n].key = bl__strdup(key);
    na[*n].value = bl__strdup(value ? value : "");
    if (!na[*n].key || !na[*n].value) {
        free(na[*n].key);
        free(na[*n].value);
        return -ENOMEM;
    }
    (*n)++;
    if (ix && bl__strindex_add(meta ? &ix->meta : &ix->config, key, *n - 1) == 0)
        (*(meta ? &ix->n_meta : &ix->n_config))++;
    return 0;
}

int bl_results_set_config(bl_results *r, const char *key, const char *value)
{
    return set_label(r, 0, key, value);
}

int bl_results_set_meta(bl_results *r, const char *key, const char *value)
{
    return set_label(r, 1, key, value);
}

/* Lookups on a const result use the index only when it is complete (they
 * do not build it: a const object is not changed behind its reader). */
const char *bl_results_get_config(const bl_results *r, const char *key)
{
    const struct bl__results_index *ix = r->index;
    long at =
        find_label(r->config, r->n_config, ix ? &ix->config : NULL, ix ? ix->n_config : 0, key);
    return at >= 0 ? r->config[at].value : NULL;
}

const char *bl_results_get_meta(const bl_results *r, const char *key)
{
    const struct bl__results_index *ix = r->index;
    long at = find_label(r->meta, r->n_meta, ix ? &ix->meta : NULL, ix ? ix->n_meta : 0, key);
    return at >= 0 ? r->meta[at].value : NULL;
}

bl_bench_result *bl_results_find_job(bl_results *r, const char *job, const char *name)
{
    struct bl__results_index *ix = index_of(r);
    if (ix) {
        char small[256];
        size_t len;
        char *k = bench_key(job, name, small, sizeof small, &len);
        if (k) {
            long at = bl__strindex_find_eq(&ix->benches, k, len, bench_eq, r->benches);
            if (k != small && k != name)
                free(k);
            return at >= 0 ? &r->benches[at] : NULL;
        }
    }
    for (size_t i = 0; i < r->n_benches; i++)
        if (strcmp(r->benches[i].name, name) == 0 &&
            (job ? r->benches[i].job && strcmp(r->benches[i].job, job) == 0 : !r->benches[i].job))
            return &r->benches[i];
    return NULL;
}

bl_bench_result *bl_results_find(bl_results *r, const char *name)
{
    return bl_results_find_job(r, NULL, name);
}

bl_bench_result *bl_results_bench_job(bl_results *r, const char *job, const char *name)
{
    bl_bench_result *b = bl_results_find_job(r, job, name);
    if (b)
        return b;
    if (bl__grow((void **)&r->benches, &r->cap_benches, r->n_benches + 1, sizeof *b))
        return NULL;
    b = &r->benches[r->n_benches];
    memset(b, 0, sizeof *b);
    b->name = bl__strdup(name);
    b->job = job ? bl__strdup(job) : NULL;
    if (!b->name || (job && !b->job)) {
        free(b->name);
        free(b->job);
        return NULL;
    }
    r->n_benches++;
    struct bl__results_index *ix = r->index;
    if (ix && ix->n_benches == r->n_benches - 1 &&
        bench_index_add(&ix->benches, b, r->n_benches - 1) == 0)
        ix->n_benches++;
    return b;
}

bl_bench_result *bl_results_bench(bl_results *r, const char *name)
{
    return bl_results_bench_job(r, NULL, name);
}

bl_launch *bl_results_add_launch(bl_bench_result *b)
{
    if (bl__grow((void **)&b->launches, &b->cap_launches, b->n_launches + 1, sizeof(bl_launch)))
        return NULL;
    bl_launch *l = &b->launches[b->n_launches++];
    memset(l, 0, sizeof *l);
    l->ns_per_op = l->raw_ns_per_op = l->overhead_ns = NAN;
    l->size.user_g = l->size.user_g_sum = NAN;
    l->ref_ns = l->ref_cycles_per_op = NAN;
    l->clock_ns = l->pause_ns = 0;
    return l;
}

int bl_launch_add_sample(bl_launch *l, const bl_sample *s)
{
    if (bl__grow((void **)&l->samples, &l->cap_samples, l->n_samples + 1, sizeof *s))
        return -ENOMEM;
    l->samples[l->n_samples++] = *s;
    return 0;
}

int bl_launch_set_metric(bl_launch *l, const char *unit, double value)
{
    return bl_launch_set_metric_ex(l, unit, value, 0);
}

int bl_launch_set_metric_ex(bl_launch *l, const char *unit, double value, unsigned flags)
{
    /* a rate's value waits for the time per op (bl_launch_finish) */
    double written = flags & BL_RATE ? NAN : value;
    for (size_t i = 0; i < l->n_metrics; i++) {
        if (strcmp(l->metrics[i].unit, unit) == 0) {
            bl_metric *m = &l->metrics[i];
            char *keep = m->unit;
            memset(m, 0, sizeof *m);
            m->unit = keep;
            m->value = written;
            m->per_op = value;
            m->flags = flags;
            return 0;
        }
    }
    bl_metric *m = realloc(l->metrics, (l->n_metrics + 1) * sizeof *m);
    if (!m)
        return -ENOMEM;
    l->metrics = m;
    m += l->n_metrics;
    memset(m, 0, sizeof *m);
    m->unit = bl__strdup(unit);
    if (!m->unit)
        return -ENOMEM;
    m->value = written;
    m->per_op = value;
    m->flags = flags;
    l->n_metrics++;
    return 0;
}

int bl_launch_set_counter(bl_launch *l, const char *unit, double sum, unsigned metric_flags,
                          unsigned counter_flags)
{
    int rc = bl_launch_set_metric_ex(l, unit, sum, metric_flags);
    if (rc)
        return rc;
    for (size_t i = 0; i < l->n_metrics; i++) {
        bl_metric *m = &l->metrics[i];
        if (strcmp(m->unit, unit) == 0) {
            m->is_counter = true;
            m->counter_flags = counter_flags;
            m->counter_sum = sum;
            m->value = NAN; /* waits for the time (bl_launch_finish) */
            m->per_op = NAN;
        }
    }
    return 0;
}

double bl_counter_finish(double sum, unsigned flags, double iterations, double seconds,
                         double threads)
{
    double v = sum;
    if (flags & BL_COUNTER_RATE)
        v /= seconds;
    if (flags & BL_COUNTER_AVG_THREADS)
        v /= threads;
    if (flags & BL_COUNTER_ITERATION_INVARIANT)
        v *= iterations;
    if (flags & BL_COUNTER_AVG_ITERATIONS)
        v /= iterations;
    if (flags & BL_COUNTER_INVERT) /* always last; 1 / 0 is inf, as in Google Benchmark */
        v = v != 0 ? 1.0 / v : copysign(INFINITY, v);
    return v;
}

double bl_launch_counter_seconds_per_op(const bl_launch *l)
{
    if (isnan(l->ns_per_op))
        return NAN;
    double ns = l->ns_per_op > 0 ? l->ns_per_op : 0.001;
    double cpu = l->counter_clock == BL_CLOCK_CPU ? bl_launch_cpu_per_op(l) : NAN;
    if (isfinite(cpu)) /* every thread's CPU time */
        ns = (cpu > 0 ? cpu : 0.001) * (l->threads > 0 ? l->threads : 1);
    return ns * 1e-9;
}

static int unit_eq(const void *arr, size_t i, const char *pair, size_t len)
{
    const bl_unit_meta *u = (const bl_unit_meta *)arr + i;
    size_t lu = strlen(u->unit);
    return lu < len && memcmp(u->unit, pair, lu + 1) == 0 && strlen(u->key) == len - lu - 1 &&
           memcmp(u->key, pair + lu + 1, len - lu - 1) == 0;
}

/* The index of unit metadata, up to date; NULL: scan. */
static struct bl__results_index *unit_index(bl_results *r)
{
    struct bl__results_index *ix = index_of(r);
    if (!ix)
        return NULL;
    if (ix->n_units > r->n_units) { /* shrunk behind our back: start again */
        ix->n_units = 0;
        bl__strindex_fini(&ix->units);
    }
    for (; ix->n_units < r->n_units; ix->n_units++) {
        size_t len;
        char small[256];
        const bl_unit_meta *u = &r->units[ix->n_units];
        char *p = bl__strindex_pair(u->unit, u->key, small, sizeof small, &len);
        int rc = p ? bl__strindex_add_n(&ix->units, p, len, ix->n_units) : -ENOMEM;
        if (p != small)
            free(p);
        if (rc) {
            index_free(r);
            return NULL;
        }
    }
    return ix;
}

int bl_results_set_unit_meta(bl_results *r, const char *unit, const char *key, const char *value)
{
    struct bl__results_index *ix = unit_index(r);
    long at = -1;
    if (ix) {
        /* the pair on the stack unless it is long: one Unit line costs no
         * malloc/free for its lookup */
        size_t len;
        char small[256], *p = bl__strindex_pair(unit, key, small, sizeof small, &len);
        if (!p)
            return -ENOMEM;
        at = bl__strindex_find_eq(&ix->units, p, len, unit_eq, r->units);
        if (p != small)
            free(p);
    } else {
        for (size_t i = 0; i < r->n_units && at < 0; i++)
            if (strcmp(r->units[i].unit, unit) == 0 && strcmp(r->units[i].key, key) == 0)
                at = (long)i;
    }
    if (at >= 0)
        return strcmp(r->units[at].value, value) != 0;
    /* grow by doubling while the index knows the allocated size */
    size_t cap = r->n_units, *capp = ix ? &ix->cap_units : &cap;
    if ((ix && ix->units_arr != r->units) || *capp < r->n_units)
        *capp = r->n_units;
    if (bl__grow((void **)&r->units, capp, r->n_units + 1, sizeof *r->units))
        return -ENOMEM;
    if (ix)
        ix->units_arr = r->units;
    bl_unit_meta *u = &r->units[r->n_units];
    u->unit = bl__strdup(unit);
    u->key = bl__strdup(key);
    u->value = bl__strdup(value);
    if (!u->unit || !u->key || !u->value) {
        free(u->unit);
        free(u->key);
        free(u->value);
        return -ENOMEM;
    }
    r->n_units++;
    return 0;
}

const char *bl_results_declare_units(bl_results *r, const bl_bench_result *b, const bl_launch *l)
{
    const char *conflict = NULL;
    for (size_t i = 0; i < l->n_metrics; i++) {
        unsigned f = l->metrics[i].flags;
        if (!(f & (BL_LOWER_IS_BETTER | BL_HIGHER_IS_BETTER)))
            continue;
        const char *dir = f & BL_HIGHER_IS_BETTER ? "higher" : "lower";
        if (bl_results_set_unit_meta(r, l->metrics[i].unit, "better", dir) == 1 && !conflict)
            conflict = l->metrics[i].unit;
    }
    /* benchstat knows ns/op, B/op, allocs/op, MB/s; not these */
    bl_rates rates;
    bl_launch_rates(l, &rates);
    if (!isnan(rates.items_per_s))
        bl_results_set_unit_meta(r, "items/s", "better", "higher");
    if (!isnan(rates.ops_per_s))
        bl_results_set_unit_meta(r, "ops/s", "better", "higher");
    for (int i = 0; b && i < b->n_counters; i++)
        bl_results_set_unit_meta(r, b->counter_unit[i], "better", "lower");
    return conflict;
}

/* Per-op time of one batch, the timed cost of its pause/resume pairs removed. */
static double batch_per_op(const bl_launch *l, const bl_sample *s)
{
    double ns = s->ns - (double)s->pauses * l->pause_ns;
    if (ns < 0)
        ns = 0;
    return s->reps ? ns / (double)s->reps : NAN;
}

unsigned bl__sample_judge(const bl_sample *s, unsigned ignore)
{
    unsigned why = 0;
    double gap = s->cpu_ns >= 0 ? s->ns - s->cpu_ns : -1;
    bool costly = s->ns < LONG_BATCH_NS || gap < 0 || gap > LONG_GAP_SHARE * s->ns;
    if (s->nivcsw > 0 && costly)
        why |= BL_INVALID_CTXSW;
    if (s->migrations > 0 && costly)
        why |= BL_INVALID_MIGRATION;
    if (s->majflt > 0)
        why |= BL_INVALID_MAJFLT;
    if (s->minflt > 0)
        why |= BL_INVALID_MINFLT;
    if (gap > GAP_MIN_NS && gap > GAP_SHARE * s->ns)
        why |= BL_INVALID_GAP;
    return why & ~ignore;
}

void bl__launch_centre_spread(double *v, size_t n, double confidence, double *centre,
                              double *spread)
{
    double m, lo, hi;
    if (n && bl_stats_median_interval(v, n, confidence, &m, &lo, &hi) == 0)
        *centre = m;
    else if (n)
        bl_stats_trimmed_interval(v, n, BL_LAUNCH_TRIM, confidence, centre, &lo, &hi);
    if (n >= 2) {
        bl_stats_sort(v, n);
        double med = bl_stats_quantile_sorted(v, n, 0.5);
        *spread = med > 0 ? (v[n - 1] - v[0]) / med : 0;
    }
}

long bl_launch_per_op(const bl_launch *l, double **out)
{
    double *v = malloc((l->n_samples ? l->n_samples : 1) * sizeof *v);
    if (!v)
        return -ENOMEM;
    long n = 0;
    for (size_t i = 0; i < l->n_samples; i++) {
        const bl_sample *s = &l->samples[i];
        if (s->stage != BL_STAGE_MEASURE || s->invalid)
            continue;
        double x = batch_per_op(l, s) - (isnan(l->overhead_ns) ? 0 : l->overhead_ns);
        v[n++] = x;
    }
    *out = v;
    return n;
}

/*
 * A counter's value from its threads' sum, with Google Benchmark's
 * arithmetic over the repetitions of every thread and their seconds (the
 * time per op times the repetitions); an inverted rate in ns per unit.
 * Without the repetitions (a launch read from a file that did not keep
 * them) the value stays as read.
 */
static void set_counter_value(bl_launch *l, bl_metric *m)
{
    if (!l->loop_iterations)
        return;
    double threads = l->threads > 0 ? l->threads : 1;
    double n = (double)l->loop_iterations;
    double s_per_op = bl_launch_counter_seconds_per_op(l);
    unsigned f = m->counter_flags;
    if ((f & BL_COUNTER_RATE) && isnan(s_per_op)) {
        m->value = NAN;
        return;
    }
    m->value = bl_counter_finish(m->counter_sum, f, n * threads, s_per_op * n, threads);
    if ((f & BL_COUNTER_RATE) && (f & BL_COUNTER_INVERT))
        m->value *= 1e9; /* seconds per unit, written as ns/NAME */
}

void bl_launch_finish(bl_launch *l)
{
    /* A disturbance that is the benchmark's own nature (page faults of a
     * benchmark that maps memory in most batches, off-CPU time of one that
     * waits for another thread in nearly all: bl__is_intrinsic) does not
     * invalidate, or nothing would be left. l->intrinsic records which. */
    size_t n_meas = 0, count[BL_INVALID_NREASONS] = {0};
    for (size_t i = 0; i < l->n_samples; i++) {
        if (l->samples[i].stage != BL_STAGE_MEASURE)
            continue;
        n_meas++;
        unsigned why = bl__sample_judge(&l->samples[i], 0);
        for (unsigned b = 0; b < BL_INVALID_NREASONS; b++)
            count[b] += (why >> b) & 1;
    }
    l->intrinsic = 0;
    for (unsigned b = 0; b < BL_INVALID_NREASONS; b++)
        if (bl__is_intrinsic(b, count[b], n_meas))
            l->intrinsic |= 1u << b;

    l->n_measured = l->n_invalid = 0;
    l->measured_reps = 0;
    memset(l->invalid_by, 0, sizeof l->invalid_by);
    size_t cap = l->n_samples ? l->n_samples : 1;
    double *work = malloc(cap * sizeof *work);
    double *ovh = malloc(cap * sizeof *ovh);
    /* the same in reference cycles, for the batches that have a reference */
    double *cyc = malloc(cap * sizeof *cyc);
    double *ovh_cyc = malloc(cap * sizeof *ovh_cyc);
    double *refs = malloc(cap * sizeof *refs);
    size_t n_work = 0, n_ovh = 0, n_cyc = 0, n_ovh_cyc = 0;
    for (size_t i = 0; i < l->n_samples; i++) {
        bl_sample *s = &l->samples[i];
        if (s->stage != BL_STAGE_MEASURE && s->stage != BL_STAGE_OVERHEAD)
            continue;
        /* Overhead batches are judged by the plain rules: an empty loop has
         * no nature of its own. */
        s->invalid = bl__sample_judge(s, s->stage == BL_STAGE_MEASURE ? l->intrinsic : 0);
        if (s->stage == BL_STAGE_OVERHEAD) {
            if (!s->invalid && ovh)
                ovh[n_ovh++] = batch_per_op(l, s);
            if (!s->invalid && ovh_cyc && s->ref_ns > 0)
                ovh_cyc[n_ovh_cyc++] = batch_per_op(l, s) / s->ref_ns;
            continue;
        }
        l->n_measured++;
        if (s->invalid) {
            l->n_invalid++;
            for (unsigned b = 0; b < BL_INVALID_NREASONS; b++)
                if (s->invalid & (1u << b))
                    l->invalid_by[b]++;
            continue;
        }
        l->measured_reps += s->reps;
        if (work)
            work[n_work++] = batch_per_op(l, s);
        if (cyc && refs && s->ref_ns > 0) {
            cyc[n_cyc] = batch_per_op(l, s) / s->ref_ns;
            refs[n_cyc++] = s->ref_ns;
        }
    }
    /* A launch the runner kept although every measured batch was disturbed
     * (l->disturbed: no launch of its benchmark had a clean one) is
     * measured by all its batches, as they were: times that include the
     * time off CPU, flagged as such wherever they are shown. */
    if (n_work == 0 && l->disturbed && work && cyc && refs && ovh && ovh_cyc) {
        bool any_ovh = n_ovh > 0;
        for (size_t i = 0; i < l->n_samples; i++) {
            const bl_sample *s = &l->samples[i];
            if (s->stage == BL_STAGE_OVERHEAD && !any_ovh) {
                ovh[n_ovh++] = batch_per_op(l, s);
                if (s->ref_ns > 0)
                    ovh_cyc[n_ovh_cyc++] = batch_per_op(l, s) / s->ref_ns;
            }
            if (s->stage != BL_STAGE_MEASURE)
                continue;
            l->measured_reps += s->reps;
            work[n_work++] = batch_per_op(l, s);
            if (s->ref_ns > 0) {
                cyc[n_cyc] = batch_per_op(l, s) / s->ref_ns;
                refs[n_cyc++] = s->ref_ns;
            }
        }
    }
    l->overhead_ns = n_ovh ? bl_stats_median(ovh, n_ovh) : 0.0;
    l->raw_ns_per_op = n_work ? bl_stats_median(work, n_work) : NAN;
    if (n_work) {
        double net = l->raw_ns_per_op - l->overhead_ns;
        l->ns_per_op = net > 0 ? net : 0.0;
    } else {
        l->ns_per_op = NAN;
    }
    /* rates: per repetition as reported, per second now that the time is known */
    for (size_t i = 0; i < l->n_metrics; i++) {
        bl_metric *m = &l->metrics[i];
        if (m->is_counter) {
            set_counter_value(l, m);
            continue;
        }
        if (!(m->flags & BL_RATE))
            continue;
        double ns = l->ns_per_op > 0 ? l->ns_per_op : 0.001;
        m->value =
            isnan(l->ns_per_op) ? NAN : m->per_op * (l->threads > 0 ? l->threads : 1) / ns * 1e9;
        if (m->flags & BL_INVERT) /* ns per unit, after the rate (GB's kInvert) */
            m->value = isnan(m->value) ? NAN : m->value != 0 ? 1e9 / m->value : INFINITY;
    }
    /* ref-cycles/op: each batch divided by the reference timed beside it,
     * then the same median and overhead subtraction as the time */
    l->ref_ns = n_cyc ? bl_stats_median(refs, n_cyc) : NAN;
    if (n_cyc) {
        double ovh_c = n_ovh_cyc ? bl_stats_median(ovh_cyc, n_ovh_cyc) : l->overhead_ns / l->ref_ns;
        double net = bl_stats_median(cyc, n_cyc) - ovh_c;
        l->ref_cycles_per_op = net > 0 ? net : 0.0;
    } else {
        l->ref_cycles_per_op = NAN;
    }
    free(work);
    free(ovh);
    free(cyc);
    free(ovh_cyc);
    free(refs);
}

void bl_launch_rates(const bl_launch *l, bl_rates *r)
{
    r->mb_per_s = r->items_per_s = r->ops_per_s = NAN;
    if (isnan(l->ns_per_op))
        return;
    double ns = l->ns_per_op > 0 ? l->ns_per_op : 0.001;
    double threads = l->threads > 0 ? l->threads : 1;
    if (l->bytes_per_op > 0)
        r->mb_per_s = l->bytes_per_op * threads / ns * 1e3;
    if (l->items_per_op > 0)
        r->items_per_s = l->items_per_op * threads / ns * 1e9;
    if (!(l->bytes_per_op > 0) && !(l->items_per_op > 0) && l->threads > 0)
        r->ops_per_s = threads * 1e9 / ns;
}

void bl_launch_software(const bl_launch *l, bl_software *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < l->n_samples; i++) {
        const bl_sample *s = &l->samples[i];
        if (s->stage != BL_STAGE_MEASURE)
            continue;
        out->batches++;
        out->reps += s->reps;
        out->wall_ns += s->ns;
        out->task_clock_ns += s->cpu_ns >= 0 ? s->cpu_ns : NAN;
        out->context_switches += s->nivcsw;
        out->migrations += s->migrations;
        out->page_faults += s->minflt;
        out->major_faults += s->majflt;
    }
}

/* Deep copy of launch `src` into the zeroed launch `dst`. 0 or -ENOMEM. */
static int copy_launch(bl_launch *dst, const bl_launch *src)
{
    *dst = *src;
    dst->samples = NULL;
    dst->n_samples = dst->cap_samples = 0;
    dst->metrics = NULL;
    dst->n_metrics = 0;
    dst->message = dst->out = dst->err = dst->label = NULL;
    dst->size.param = dst->size.user_name = dst->size.group = NULL;
    if ((src->size.param && !(dst->size.param = bl__strdup(src->size.param))) ||
        (src->size.group && !(dst->size.group = bl__strdup(src->size.group))) ||
        (src->size.user_name && !(dst->size.user_name = bl__strdup(src->size.user_name))) ||
        (src->message && !(dst->message = bl__strdup(src->message))) ||
        (src->label && !(dst->label = bl__strdup(src->label))) ||
        (src->out && !(dst->out = bl__strdup(src->out))) ||
        (src->err && !(dst->err = bl__strdup(src->err))))
        return -ENOMEM;
    for (size_t k = 0; k < src->n_samples; k++)
        if (bl_launch_add_sample(dst, &src->samples[k]))
            return -ENOMEM;
    for (size_t k = 0; k < src->n_metrics; k++) {
        if (bl_launch_set_metric(dst, src->metrics[k].unit, src->metrics[k].value))
            return -ENOMEM;
        bl_metric *m = &dst->metrics[dst->n_metrics - 1];
        char *unit = m->unit;
        *m = src->metrics[k];
        m->unit = unit;
    }
    return 0;
}

int bl_results_merge(bl_results *into, const bl_results *from)
{
    for (size_t i = 0; i < from->n_config; i++)
        if (!bl_results_get_config(into, from->config[i].key) &&
            bl_results_set_config(into, from->config[i].key, from->config[i].value))
            return -ENOMEM;
    for (size_t i = 0; i < from->n_meta; i++)
        if (!bl_results_get_meta(into, from->meta[i].key) &&
            bl_results_set_meta(into, from->meta[i].key, from->meta[i].value))
            return -ENOMEM;
    for (size_t i = 0; i < from->n_units; i++)
        if (bl_results_set_unit_meta(into, from->units[i].unit, from->units[i].key,
                                     from->units[i].value) < 0)
            return -ENOMEM;
    if (!into->time_unit[0])
        memcpy(into->time_unit, from->time_unit, sizeof into->time_unit);
    for (size_t i = 0; i < from->n_benches; i++) {
        const bl_bench_result *s = &from->benches[i];
        bl_bench_result *d = bl_results_bench_job(into, s->job, s->name);
        if (!d)
            return -ENOMEM;
        if (!d->has_alloc && s->has_alloc) {
            d->has_alloc = true;
            d->alloc_bytes_per_op = s->alloc_bytes_per_op;
            d->allocs_per_op = s->allocs_per_op;
        }
        if (!d->alloc_message && s->alloc_message &&
            !(d->alloc_message = bl__strdup(s->alloc_message)))
            return -ENOMEM;
        if (!d->n_counters && s->n_counters) {
            d->n_counters = s->n_counters;
            memcpy(d->counter_unit, s->counter_unit, sizeof d->counter_unit);
            memcpy(d->counter_per_op, s->counter_per_op, sizeof d->counter_per_op);
            d->counters_scaled = s->counters_scaled;
        }
        if (!d->own_time_s && !d->own_count) {
            d->own_time_s = s->own_time_s;
            d->own_count = s->own_count;
        }
        if (!d->counters_message && s->counters_message &&
            !(d->counters_message = bl__strdup(s->counters_message)))
            return -ENOMEM;
        for (size_t j = 0; j < s->n_launches; j++) {
            bl_launch *l = bl_results_add_launch(d);
            if (!l)
                return -ENOMEM;
            int rc = copy_launch(l, &s->launches[j]);
            if (rc)
                return rc;
        }
    }
    return 0;
}
