/*
 * model.c - what the report shows, computed once before anything is
 * written: per benchmark (the union of the runs' benchmarks, in the order
 * the baseline ran them, then the others') and per run, the per-op values
 * and their robust summary, failures, discarded batches, drift and modes
 * (bl_bench_diagnose); per run
 * and benchmark, the comparison with the baseline.
 *
 * A benchmark's centre and interval are the run's own (bl_bench_estimate:
 * the median of 6+ launch centres with its distribution-free interval, or
 * the trimmed mean of fewer with a t interval), so the
 * report and the summary table agree. The batches serve the charts.
 *
 * The comparison is `benchlab judge`'s (bl_judge_bench), so the two agree
 * on the same runs: over the launches when both runs have five or more
 * (the launches are the independent values, docs/engine.md), else over the
 * clean batches, which leaves the variance between processes out and is
 * said so; the change is the Hodges-Lehmann estimate of the ratio with its
 * distribution-free interval, the test Mann-Whitney's U over the same
 * values. Holm's correction over the benchmarks of one run keeps the
 * chance of any false alarm in a suite at alpha. A change is called only
 * when the corrected test rejects and the interval excludes 1.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "../results/results_int.h"
#include "benchlab/changes.h"
#include "benchlab/judge.h"
#include "benchlab/stats.h"
#include "report_int.h"

#define MIN_LAUNCHES_FOR_LAUNCH_TEST 5

const char *bl__rshort_name(const char *name)
{
    return strncmp(name, "Benchmark", 9) == 0 && name[9] ? name + 9 : name;
}

double bl__rbatch_per_op(const bl_launch *l, const bl_sample *s)
{
    double ns = s->ns - (double)s->pauses * l->pause_ns;
    if (ns < 0)
        ns = 0;
    if (!s->reps)
        return NAN;
    return ns / (double)s->reps - (isnan(l->overhead_ns) ? 0 : l->overhead_ns);
}

static int push(double **arr, size_t *n, size_t *cap, double v)
{
    if (bl__grow((void **)arr, cap, *n + 1, sizeof **arr))
        return -ENOMEM;
    (*arr)[(*n)++] = v;
    return 0;
}

static void cell_fini(struct bl__rcell *c)
{
    free(c->vals);
    free(c->launch_vals);
}

/*
 * The on-CPU time of launches that have no batches (the Go format's
 * "cpu-ns/op" on each line), centred as bl_bench_estimate centres the
 * time: the median of 6+ launches, the trimmed mean of fewer; the spread
 * (max - min) / median from two launches on.
 */
static int cpu_from_lines(struct bl__rcell *c, const bl_bench_result *b, double confidence)
{
    double *v = malloc((b->n_launches ? b->n_launches : 1) * sizeof *v);
    if (!v)
        return -ENOMEM;
    size_t n = 0;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped || isnan(l->ns_per_op))
            continue;
        for (size_t k = 0; k < l->n_metrics; k++)
            if (strcmp(l->metrics[k].unit, "cpu-ns/op") == 0 && l->metrics[k].value >= 0) {
                v[n++] = l->metrics[k].value;
                break;
            }
    }
    bl__launch_centre_spread(v, n, confidence, &c->cpu_ns, &c->cpu_spread);
    free(v);
    return 0;
}

/* The values and summaries of a cell. */
static int cell_collect(struct bl__rcell *c, const bl_bench_result *b, double confidence)
{
    size_t cap = 0, lcap = 0, n_ok = 0, n_skip = 0, n_fail = 0, n_ovh = 0;
    double ovh = 0;
    bool any_batches = false;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status) {
            n_fail++;
            if (!c->message)
                c->message = l->message ? l->message : bl_strerror(l->status);
            continue;
        }
        if (l->skipped) {
            n_skip++;
            if (!c->message)
                c->message = l->message;
            continue;
        }
        n_ok++;
        if (!isnan(l->ns_per_op) && push(&c->launch_vals, &c->n_launch_vals, &lcap, l->ns_per_op))
            return -ENOMEM;
        if (!isnan(l->overhead_ns)) {
            ovh += l->overhead_ns;
            n_ovh++;
        }
        if (!c->first_ok)
            c->first_ok = l;
        c->n_disturbed += l->disturbed;
        c->n_measured += l->n_measured;
        c->n_invalid += l->n_invalid;
        for (unsigned k = 0; k < BL_INVALID_NREASONS; k++)
            c->invalid_by[k] += l->invalid_by[k];
        for (size_t k = 0; k < l->n_samples; k++) {
            const bl_sample *s = &l->samples[k];
            if (s->stage != BL_STAGE_MEASURE)
                continue;
            any_batches = true;
            if (s->invalid)
                continue;
            double v = bl__rbatch_per_op(l, s);
            if (!isnan(v) && push(&c->vals, &c->n_vals, &cap, v > 0 ? v : 0))
                return -ENOMEM;
        }
    }
    /* every launch disturbed: their batches are the measurement, as the
     * time's (bl_launch_finish), so the charts show them, flagged */
    if (!c->n_vals && any_batches && n_ok && c->n_disturbed == n_ok) {
        c->vals_disturbed = true;
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            for (size_t k = 0; !l->status && !l->skipped && k < l->n_samples; k++) {
                double v = l->samples[k].stage == BL_STAGE_MEASURE
                               ? bl__rbatch_per_op(l, &l->samples[k])
                               : NAN;
                if (!isnan(v) && push(&c->vals, &c->n_vals, &cap, v > 0 ? v : 0))
                    return -ENOMEM;
            }
        }
    }
    c->state = n_ok ? CELL_OK : n_fail ? CELL_FAILED : n_skip ? CELL_SKIPPED : CELL_MISSING;
    if (n_ovh)
        c->overhead_ns = ovh / (double)n_ovh;
    c->from_batches = any_batches;
    if (!any_batches) {
        for (size_t i = 0; i < c->n_launch_vals; i++)
            if (push(&c->vals, &c->n_vals, &cap, c->launch_vals[i]))
                return -ENOMEM;
    }
    if (c->n_vals) {
        int rc = bl_stats_summarize(c->vals, c->n_vals, confidence, &c->s);
        if (rc)
            return rc;
        c->has_s = true;
    }
    if (n_ok) {
        int rc = bl_bench_estimate(b, confidence, &c->est);
        if (rc == -ENOMEM)
            return rc;
        c->has_est = rc == 0 && !isnan(c->est.centre);
    }
    if (c->has_est) {
        c->cpu_ns = c->est.cpu_ns;
        c->cpu_spread = c->est.cpu_spread;
        c->disturbed = c->est.disturbed;
        c->idle = bl__no_measurable_work(&c->est);
        if (bl__spread_ranges(b, &c->est, &c->spread_ns, &c->cpu_spread_ns))
            return -ENOMEM;
        if (isnan(c->cpu_ns) && !any_batches && cpu_from_lines(c, b, confidence))
            return -ENOMEM;
    }
    return 0;
}

/* Fill a cell from one run's result for the benchmark (b may be NULL). */
static int cell_fill(struct bl__rcell *c, const bl_bench_result *b, double confidence)
{
    memset(c, 0, sizeof *c);
    c->b = b;
    c->overhead_ns = c->cpu_ns = c->cpu_spread = c->spread_ns = c->cpu_spread_ns = NAN;
    if (!b)
        return 0;
    int rc = cell_collect(c, b, confidence);
    if (!rc && c->from_batches) {
        /* drift within launches and modes: the library's diagnosis, the
         * one `benchlab run` shows */
        rc = bl_bench_diagnose(b, &c->diag);
        c->drift = c->diag.drift;
        c->drift_pct = c->diag.drift_pct;
        c->drift_p = c->diag.drift_p;
        c->multimodal = c->diag.batches_multimodal || c->diag.launches_multimodal;
    }
    return rc;
}

/*
 * The change of `run` against the baseline: exactly what `benchlab judge`
 * gives for the same two runs (bl_judge_bench): launch-level values when
 * both sides have five launches or more, else the clean batches; the
 * Hodges-Lehmann estimate of the ratio with its distribution-free
 * interval, and the U test over the same values.
 */
static int compare_cells(const struct bl__rcell *base, const struct bl__rcell *run,
                         double confidence, struct bl__rdelta *d)
{
    memset(d, 0, sizeof *d);
    d->ratio = d->lo = d->hi = d->p = NAN;
    /* disturbed batches are shown, not tested: as before they were shown */
    if (!base->has_est || !run->has_est || !(base->est.centre > 0) || !base->n_vals ||
        !run->n_vals || base->vals_disturbed || run->vals_disturbed || !base->b || !run->b)
        return 0;
    bl_judge_options jo;
    bl_judge_options_init(&jo);
    jo.confidence = confidence;
    jo.min_launches = MIN_LAUNCHES_FOR_LAUNCH_TEST;
    bl_judgement j;
    int rc = bl_judge_bench(base->b, run->b, &jo, &j);
    if (rc == -ENOMEM)
        return rc;
    if (rc)
        return 0;
    d->ok = true;
    d->by_launch = j.launch_level;
    d->n_base = j.n_base;
    d->n_run = j.n_new;
    d->ratio = j.ratio;
    d->lo = j.ratio_lo;
    d->hi = j.ratio_hi;
    d->p = j.p;
    return 0;
}

/* The benchmark's points among the earlier runs. */
/* Benchmarks are found by name through a hash index (ix, over
 * m->benches): a report of n benchmarks is O(n), not O(n^2). */
static const char *rbench_key(const void *arr, size_t i)
{
    return ((const struct bl__rbench *)arr)[i].name;
}

static long find_bench(const struct bl__rmodel *m, const struct bl__strindex *ix, const char *name)
{
    return bl__strindex_find(ix, name, strlen(name), rbench_key, m->benches);
}

/* A stored series of a run of jobs is "NAME [JOB]" (docs/store.md): the
 * baseline run's job's series is its benchmark's history. */
static long find_series(const struct bl__rmodel *m, const struct bl__strindex *ix, const char *name)
{
    long at = find_bench(m, ix, name);
    const char *job = m->n_runs ? m->runs[0].job : NULL;
    size_t n = strlen(name), nj = job ? strlen(job) : 0;
    if (at >= 0 || !job || n < nj + 4 || name[n - 1] != ']' || name[n - nj - 3] != ' ' ||
        name[n - nj - 2] != '[' || memcmp(name + n - nj - 1, job, nj) != 0)
        return at;
    return bl__strindex_find(ix, name, n - nj - 3, rbench_key, m->benches);
}

static void fill_history(struct bl__rmodel *m, const struct bl__strindex *ix,
                         const bl_report_history *h)
{
    for (size_t s = 0; h && s < h->n_series; s++) {
        long at = h->series[s].name ? find_series(m, ix, h->series[s].name) : -1;
        if (at < 0)
            continue;
        struct bl__rbench *b = &m->benches[at];
        for (size_t k = 0; k < h->series[s].n_points; k++) {
            const bl_report_point *p = &h->series[s].points[k];
            if (p->run >= h->n_runs || !(p->centre >= 0) || !isfinite(p->centre))
                continue;
            b->history[p->run] = (struct bl__rhist){true, p->centre, p->lo, p->hi};
        }
    }
}

/* b is of the run's job (any, when job is NULL) */
static bool of_job(const bl_bench_result *b, const char *job)
{
    return !job || (b->job && strcmp(b->job, job) == 0);
}

static int add_names(struct bl__rmodel *m, struct bl__strindex *ix, const bl_results *r,
                     const char *job, size_t *cap)
{
    for (size_t i = 0; r && i < r->n_benches; i++) {
        if (find_bench(m, ix, r->benches[i].name) >= 0 || !of_job(&r->benches[i], job))
            continue;
        if (bl__grow((void **)&m->benches, cap, m->n_benches + 1, sizeof *m->benches) ||
            bl__strindex_add(ix, r->benches[i].name, m->n_benches))
            return -ENOMEM;
        struct bl__rbench *b = &m->benches[m->n_benches++];
        memset(b, 0, sizeof *b);
        b->name = r->benches[i].name;
    }
    return 0;
}

/* where[r * n_benches + i]: benchmark i of the model in run r, or NULL */
static int place_runs(struct bl__rmodel *m, const struct bl__strindex *ix,
                      const bl_bench_result ***out)
{
    size_t n = m->n_benches ? m->n_benches : 1;
    const bl_bench_result **where = calloc(n * (m->n_runs ? m->n_runs : 1), sizeof *where);
    if (!where)
        return -ENOMEM;
    for (size_t r = 0; r < m->n_runs; r++) {
        const bl_results *res = m->runs[r].results;
        /* backwards: a name given twice takes its first entry, as a scan did */
        for (size_t i = res ? res->n_benches : 0; i-- > 0;) {
            if (!of_job(&res->benches[i], m->runs[r].job))
                continue;
            long at = find_bench(m, ix, res->benches[i].name);
            if (at >= 0)
                where[r * n + (size_t)at] = &res->benches[i];
        }
    }
    *out = where;
    return 0;
}

/* Holm's correction over the benchmarks, for the comparisons with run k. */
static int judge_run(struct bl__rmodel *m, size_t k)
{
    double *p = malloc((m->n_benches ? m->n_benches : 1) * sizeof *p);
    unsigned char *reject = malloc(m->n_benches ? m->n_benches : 1);
    size_t *idx = malloc((m->n_benches ? m->n_benches : 1) * sizeof *idx);
    int rc = p && reject && idx ? 0 : -ENOMEM;
    size_t n = 0;
    for (size_t i = 0; !rc && i < m->n_benches; i++) {
        const struct bl__rdelta *d = &m->benches[i].deltas[k];
        if (d->ok && !isnan(d->p)) {
            p[n] = d->p;
            idx[n++] = i;
        }
    }
    if (!rc && n)
        rc = bl_multiple_reject(p, n, m->o->alpha, BL_CORRECTION_HOLM, reject);
    for (size_t t = 0; !rc && t < n; t++) {
        struct bl__rdelta *d = &m->benches[idx[t]].deltas[k];
        bool excludes = !isnan(d->lo) && (d->lo > 1 || d->hi < 1);
        d->significant = reject[t] && excludes;
        d->verdict = d->significant ? (d->ratio < 1 ? -1 : 1) : 0;
    }
    free(p);
    free(reject);
    free(idx);
    return rc;
}

bool bl__rhistory_point(const struct bl__rmodel *m, const struct bl__rbench *b, size_t i,
                        struct bl__rhist *out, const char **label)
{
    const bl_report_history *h = m->o->history;
    size_t n_hist = h ? h->n_runs : 0;
    if (i < n_hist) {
        *out = b->history[i];
        *label = h->labels && h->labels[i] ? h->labels[i] : "";
        return out->has;
    }
    const struct bl__rcell *c = &b->cells[i - n_hist];
    *label = m->runs[i - n_hist].label;
    *out = (struct bl__rhist){c->has_est, c->est.centre, c->est.ci_lo, c->est.ci_hi};
    return c->has_est;
}

/* The change points of b's history chart: bl_changes_detect over the
 * points it shows, with the defaults of `benchlab history --changes`. */
static int find_changes(struct bl__rmodel *m, struct bl__rbench *b)
{
    size_t n_points = (m->o->history ? m->o->history->n_runs : 0) + m->n_runs, n = 0;
    double *x = malloc((n_points + 1) * sizeof *x);
    size_t *at = malloc((n_points + 1) * sizeof *at);
    int rc = x && at ? 0 : -ENOMEM;
    struct bl__rhist pt;
    const char *label;
    for (size_t i = 0; !rc && i < n_points; i++)
        if (bl__rhistory_point(m, b, i, &pt, &label) && isfinite(pt.centre)) {
            x[n] = pt.centre;
            at[n++] = i;
        }
    bl_change *c = NULL;
    size_t n_c = 0;
    if (!rc)
        rc = bl_changes_detect(x, n, NULL, &c, &n_c);
    if (!rc && n_c && !(b->changes = calloc(n_c, sizeof *b->changes)))
        rc = -ENOMEM;
    for (size_t k = 0; !rc && k < n_c; k++)
        b->changes[b->n_changes++] = (struct bl__rchange){at[c[k].at], c[k].kind,  c[k].before,
                                                          c[k].after,  c[k].ratio, c[k].p};
    free(c);
    free(x);
    free(at);
    return rc;
}

int bl__rmodel_build(struct bl__rmodel *m, const bl_report_run *runs, size_t n_runs,
                     const bl_report_options *o)
{
    memset(m, 0, sizeof *m);
    m->runs = runs;
    m->n_runs = n_runs;
    m->o = o;
    size_t cap = 0;
    struct bl__strindex ix = {0};
    const bl_bench_result **where = NULL;
    int rc = add_names(m, &ix, runs[o->baseline].results, runs[o->baseline].job, &cap);
    for (size_t r = 0; !rc && r < n_runs; r++)
        rc = add_names(m, &ix, runs[r].results, runs[r].job, &cap);
    if (!rc)
        rc = place_runs(m, &ix, &where);
    for (size_t i = 0; !rc && i < m->n_benches; i++) {
        struct bl__rbench *b = &m->benches[i];
        b->cells = calloc(n_runs, sizeof *b->cells);
        b->deltas = calloc(n_runs, sizeof *b->deltas);
        size_t n_hist = o->history ? o->history->n_runs : 0;
        b->history = calloc(n_hist ? n_hist : 1, sizeof *b->history);
        if (!b->cells || !b->deltas || !b->history)
            rc = -ENOMEM;
        for (size_t r = 0; !rc && r < n_runs; r++)
            rc = cell_fill(&b->cells[r], where[r * m->n_benches + i], o->confidence);
        for (size_t r = 0; !rc && r < n_runs; r++)
            if (r != o->baseline)
                rc = compare_cells(&b->cells[o->baseline], &b->cells[r], o->confidence,
                                   &b->deltas[r]);
    }
    if (!rc)
        fill_history(m, &ix, o->history);
    for (size_t i = 0; !rc && i < m->n_benches; i++)
        rc = find_changes(m, &m->benches[i]);
    free(where);
    bl__strindex_fini(&ix);
    for (size_t r = 0; !rc && r < n_runs; r++)
        if (r != o->baseline)
            rc = judge_run(m, r);
    return rc;
}

void bl__rmodel_fini(struct bl__rmodel *m)
{
    for (size_t i = 0; i < m->n_benches; i++) {
        struct bl__rbench *b = &m->benches[i];
        for (size_t r = 0; b->cells && r < m->n_runs; r++)
            cell_fini(&b->cells[r]);
        free(b->cells);
        free(b->deltas);
        free(b->history);
        free(b->changes);
    }
    free(m->benches);
    memset(m, 0, sizeof *m);
}
