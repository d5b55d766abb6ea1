/*
 * judge.c - faster, slower or unchanged, per benchmark, for a whole suite
 * (benchlab/judge.h explains the statistics; docs/store.md the choices).
 * The verdicts only: format/judge_write.c writes them as text and
 * Markdown. Used by `benchlab judge`, the store's history and the report
 * (bl_judge_bench, so that the two agree on the same runs).
 *
 * Holm-Bonferroni is the default correction because judge is a CI gate:
 * it bounds the chance that a run with no real change fails the build
 * (any false "slower" across the suite) by alpha, however many benchmarks
 * the suite has. Benjamini-Hochberg bounds the expected share of false
 * verdicts among those reported instead: more sensitive in large suites,
 * and the better choice when judge is read rather than gated on.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/judge.h"
#include "benchlab/stats.h"

/* Per-op times are compared in logs; a time overhead subtraction took to
 * zero counts as this much. */
#define FLOOR_NS 1e-3

const char *bl_verdict_name(enum bl_verdict v)
{
    static const char *const names[] = {"unchanged", "faster", "slower",
                                        "failed",    "new",    "missing"};
    return (unsigned)v < sizeof names / sizeof *names ? names[v] : "?";
}

void bl_judge_options_init(bl_judge_options *o)
{
    memset(o, 0, sizeof *o);
    o->threshold_pct = 5;
    o->alpha = 0.05;
    o->confidence = 0.95;
    o->correction = BL_CORRECTION_HOLM;
    o->min_launches = 5;
}

void bl_judgement_set_destroy(bl_judgement_set *set)
{
    if (!set)
        return;
    free(set->items);
    free(set);
}

static int launch_ok(const bl_launch *l)
{
    return !l->status && !l->skipped && !isnan(l->ns_per_op);
}

static size_t count_ok(const bl_bench_result *b)
{
    size_t n = 0;
    for (size_t j = 0; j < b->n_launches; j++)
        n += launch_ok(&b->launches[j]);
    return n;
}

/* The values of `b` to compare: one per successful launch, or the pooled
 * per-op values of every clean batch. Caller frees. NULL on ENOMEM. */
static double *values_of(const bl_bench_result *b, int launch_level, size_t *n)
{
    size_t cap = 1;
    for (size_t j = 0; j < b->n_launches; j++)
        cap += launch_level ? 1 : b->launches[j].n_samples;
    double *v = malloc(cap * sizeof *v);
    if (!v)
        return NULL;
    *n = 0;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (!launch_ok(l))
            continue;
        if (launch_level) {
            v[(*n)++] = l->ns_per_op;
            continue;
        }
        double *x;
        long k = bl_launch_per_op(l, &x);
        if (k < 0) {
            free(v);
            return NULL;
        }
        for (long t = 0; t < k; t++)
            v[(*n)++] = x[t] > 0 ? x[t] : 0;
        free(x);
    }
    return v;
}

static size_t count_batches(const bl_bench_result *b)
{
    size_t n = 0;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (!launch_ok(l))
            continue;
        for (size_t k = 0; k < l->n_samples; k++)
            n += l->samples[k].stage == BL_STAGE_MEASURE && !l->samples[k].invalid;
    }
    return n;
}

static void to_logs(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = log(v[i] > FLOOR_NS ? v[i] : FLOOR_NS);
}

/*
 * The change of one benchmark present in both runs: fills everything but
 * the verdict and `significant`. The values are launch-level or pooled
 * batches (bl_judge_options.min_launches); the change is the
 * Hodges-Lehmann estimate of the ratio, exp of the median of the pairwise
 * differences of log times, with the interval that goes with it and with
 * the U test. 0 or -ENOMEM.
 */
static int compare_one(const bl_bench_result *a, const bl_bench_result *b,
                       const bl_judge_options *o, bl_judgement *j)
{
    size_t ok_a = count_ok(a), ok_b = count_ok(b);
    int launch_level = ok_a >= o->min_launches && ok_b >= o->min_launches;
    if (!launch_level && (!count_batches(a) || !count_batches(b)))
        launch_level = 1; /* results read back without batches: launches are all there is */
    size_t na = 0, nb = 0;
    double *va = values_of(a, launch_level, &na), *vb = values_of(b, launch_level, &nb);
    int rc = va && vb ? 0 : -ENOMEM;
    j->launch_level = launch_level;
    j->n_base = na;
    j->n_new = nb;
    if (!rc && na && nb) {
        j->base_ns = bl_stats_median(va, na);
        j->new_ns = bl_stats_median(vb, nb);
        double p;
        int u = bl_stats_utest(va, na, vb, nb, &p);
        j->p = u == 0 ? p : u == -EDOM ? 1.0 : NAN;
        if (u == -ENOMEM)
            rc = -ENOMEM;
        to_logs(va, na);
        to_logs(vb, nb);
        double shift = NAN, lo, hi;
        int s = bl_stats_shift_ci(va, na, vb, nb, o->confidence, &shift, &lo, &hi);
        if (s == 0) {
            j->ratio_lo = exp(lo);
            j->ratio_hi = exp(hi);
        } else if (s == -ENOMEM) {
            rc = -ENOMEM;
        }
        /* the estimate is there even when the interval is not (too few values) */
        if ((s == 0 || s == -EDOM) && !isnan(shift))
            j->ratio = exp(shift);
        else
            j->ratio = j->base_ns > 0 ? j->new_ns / j->base_ns : NAN;
    }
    free(va);
    free(vb);
    return rc;
}

static bl_judgement blank(const char *name, enum bl_verdict v)
{
    bl_judgement j = {.name = name, .verdict = v};
    j.base_ns = j.new_ns = j.ratio = j.ratio_lo = j.ratio_hi = j.p = NAN;
    return j;
}

int bl_judge_bench(const bl_bench_result *base, const bl_bench_result *current,
                   const bl_judge_options *opts, bl_judgement *out)
{
    bl_judge_options o;
    if (opts)
        o = *opts;
    else
        bl_judge_options_init(&o);
    if (o.min_launches < 2)
        o.min_launches = 2;
    *out = blank(current->name, BL_VERDICT_UNCHANGED);
    if (!(o.confidence > 0 && o.confidence < 1))
        return BL_EUSAGE;
    if (!count_ok(base) || !count_ok(current))
        return BL_ENOTFOUND;
    return compare_one(base, current, &o, out);
}

int bl_judge(const bl_results *base, const bl_results *cur, const bl_judge_options *opts,
             bl_judgement_set **out, char *err, size_t err_size)
{
    *out = NULL;
    bl_judge_options o;
    if (opts)
        o = *opts;
    else
        bl_judge_options_init(&o);
    if (!(o.threshold_pct >= 0) || !(o.alpha > 0 && o.alpha < 1) ||
        !(o.confidence > 0 && o.confidence < 1)) {
        snprintf(err, err_size, "judge: threshold must be >= 0, alpha and confidence in (0, 1)");
        return BL_EUSAGE;
    }
    if (o.min_launches < 2)
        o.min_launches = 2;
    regex_t re;
    if (o.filter) {
        int e = regcomp(&re, o.filter, REG_EXTENDED | REG_NOSUB);
        if (e) {
            char m[200];
            regerror(e, &re, m, sizeof m);
            snprintf(err, err_size, "--filter '%s': %s", o.filter, m);
            return BL_EUSAGE;
        }
    }
    bl_judgement_set *set = calloc(1, sizeof *set);
    bl_judgement *items = calloc(base->n_benches + cur->n_benches + 1, sizeof *items);
    double *p = calloc(base->n_benches + 1, sizeof *p);
    size_t *tested = calloc(base->n_benches + 1, sizeof *tested);
    unsigned char *reject = calloc(base->n_benches + 1, 1);
    int rc = set && items && p && tested && reject ? 0 : -ENOMEM;
    size_t n = 0, n_tested = 0;
    for (size_t i = 0; !rc && i < base->n_benches; i++) {
        const bl_bench_result *a = &base->benches[i];
        if (o.filter && regexec(&re, a->name, 0, NULL, 0) != 0)
            continue;
        const bl_bench_result *b = bl_results_find((bl_results *)cur, a->name);
        if (!b) {
            items[n++] = blank(a->name, BL_VERDICT_MISSING);
            continue;
        }
        if (!count_ok(a)) /* nothing to compare against: judge it as new */
            continue;
        bl_judgement j = blank(b->name, BL_VERDICT_UNCHANGED);
        if (!count_ok(b)) {
            j.verdict = BL_VERDICT_FAILED;
            items[n++] = j;
            continue;
        }
        rc = compare_one(a, b, &o, &j);
        if (!isnan(j.p)) {
            p[n_tested] = j.p;
            tested[n_tested++] = n;
        }
        items[n++] = j;
    }
    for (size_t i = 0; !rc && i < cur->n_benches; i++) {
        const bl_bench_result *b = &cur->benches[i];
        if (o.filter && regexec(&re, b->name, 0, NULL, 0) != 0)
            continue;
        const bl_bench_result *a = bl_results_find((bl_results *)base, b->name);
        if (!a || !count_ok(a))
            items[n++] = blank(b->name, BL_VERDICT_NEW);
    }
    if (!rc && n_tested)
        rc = bl_multiple_reject(p, n_tested, o.alpha, o.correction, reject);
    double up = 1 + o.threshold_pct / 100;
    for (size_t t = 0; !rc && t < n_tested; t++) {
        bl_judgement *j = &items[tested[t]];
        j->significant = reject[t];
        if (j->significant && j->ratio > up)
            j->verdict = BL_VERDICT_SLOWER;
        else if (j->significant && j->ratio < 1 / up)
            j->verdict = BL_VERDICT_FASTER;
    }
    free(p);
    free(tested);
    free(reject);
    if (o.filter)
        regfree(&re);
    if (rc) {
        free(items);
        free(set);
        snprintf(err, err_size, "judge: %s", bl_strerror(rc));
        return rc;
    }
    set->items = items;
    set->n = n;
    set->n_tested = n_tested;
    set->opts = o;
    for (size_t i = 0; i < n; i++) {
        switch (items[i].verdict) {
        case BL_VERDICT_FASTER:
            set->n_faster++;
            break;
        case BL_VERDICT_SLOWER:
            set->n_slower++;
            break;
        case BL_VERDICT_FAILED:
            set->n_failed++;
            break;
        case BL_VERDICT_NEW:
            set->n_new++;
            break;
        case BL_VERDICT_MISSING:
            set->n_missing++;
            break;
        default:
            set->n_unchanged++;
        }
    }
    *out = set;
    return 0;
}

/*
 * The gate's verdict, apart from the statistics: a benchmark the baseline
 * has and the run lacks fails it, unless allowed, because a shard that
 * was lost or a job that crashed would otherwise pass the gate unjudged.
 */
int bl_judge_gate(const bl_judgement_set *set, unsigned flags)
{
    if (set->n_slower || set->n_failed)
        return 1;
    return set->n_missing && !(flags & BL_JUDGE_ALLOW_MISSING) ? 1 : 0;
}
