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
#include <fnmatch.h>
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

const char *bl_judge_metric_name(enum bl_judge_metric m)
{
    return m == BL_JUDGE_REF_CYCLES     ? "ref-cycles"
           : m == BL_JUDGE_INSTRUCTIONS ? "instructions"
           : m == BL_JUDGE_AUTO         ? "auto"
                                        : "time";
}

const char *bl_judge_metric_unit(enum bl_judge_metric m)
{
    return m == BL_JUDGE_REF_CYCLES     ? "ref-cycles/op"
           : m == BL_JUDGE_INSTRUCTIONS ? "instructions/op"
                                        : "ns/op";
}

int bl_judge_metric_parse(const char *name, enum bl_judge_metric *out)
{
    for (int m = BL_JUDGE_TIME; m <= BL_JUDGE_INSTRUCTIONS; m++)
        if (strcmp(name, bl_judge_metric_name(m)) == 0 ||
            strcmp(name, bl_judge_metric_unit(m)) == 0) {
            *out = (enum bl_judge_metric)m;
            return 0;
        }
    if (strcmp(name, "auto") == 0) {
        *out = BL_JUDGE_AUTO;
        return 0;
    }
    return BL_EUSAGE;
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

static double metric_of(const bl_launch *l, const char *unit)
{
    for (size_t i = 0; i < l->n_metrics; i++)
        if (l->metrics[i].unit && strcmp(l->metrics[i].unit, unit) == 0)
            return l->metrics[i].value;
    return NAN;
}

/* A successful launch's value of the metric; NAN when it has none. Results
 * read from the Go format carry ref-cycles/op and instructions/op as metrics. */
static double launch_value(const bl_launch *l, enum bl_judge_metric m)
{
    if (!launch_ok(l))
        return NAN;
    if (m == BL_JUDGE_TIME)
        return l->ns_per_op;
    if (m == BL_JUDGE_REF_CYCLES && !isnan(l->ref_cycles_per_op))
        return l->ref_cycles_per_op;
    return metric_of(l, bl_judge_metric_unit(m));
}

static size_t count_values(const bl_bench_result *b, enum bl_judge_metric m)
{
    size_t n = 0;
    for (size_t j = 0; j < b->n_launches; j++)
        n += !isnan(launch_value(&b->launches[j], m));
    return n;
}

/* Every successful launch of b has a reference-cycles value (and one does). */
static int has_ref_cycles(const bl_bench_result *b)
{
    size_t ok = count_ok(b);
    return ok && count_values(b, BL_JUDGE_REF_CYCLES) == ok;
}

/* The instructions per op of the counters pass (one count); NAN without. */
static double counted(const bl_bench_result *b)
{
    for (int i = 0; i < b->n_counters && i < 6; i++)
        if (strcmp(b->counter_unit[i], "instructions/op") == 0)
            return b->counter_per_op[i];
    return NAN;
}

/* A clean batch's value: its time per op net of the loop overhead, in ns
 * or, for ref-cycles, in cycles of the reference timed beside it. */
static int batch_value(const bl_sample *s, double ns, enum bl_judge_metric m, double *out)
{
    if (m == BL_JUDGE_TIME) {
        *out = ns > 0 ? ns : 0;
        return 1;
    }
    if (m == BL_JUDGE_REF_CYCLES && s->ref_ns > 0) {
        *out = ns > 0 ? ns / s->ref_ns : 0;
        return 1;
    }
    return 0;
}

/* The values of `b` to compare: one per launch that has the metric, or
 * the pooled per-op values of every clean batch. Caller frees. NULL on
 * ENOMEM. */
static double *values_of(const bl_bench_result *b, int launch_level, enum bl_judge_metric m,
                         size_t *n)
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
            double x = launch_value(l, m);
            if (!isnan(x))
                v[(*n)++] = x;
            continue;
        }
        double *x;
        long k = bl_launch_per_op(l, &x);
        if (k < 0) {
            free(v);
            return NULL;
        }
        /* bl_launch_per_op keeps the clean measured batches in order */
        long t = 0;
        for (size_t i = 0; i < l->n_samples && t < k; i++) {
            const bl_sample *s = &l->samples[i];
            if (s->stage != BL_STAGE_MEASURE || s->invalid)
                continue;
            *n += (size_t)batch_value(s, x[t++], m, &v[*n]);
        }
        free(x);
    }
    return v;
}

static size_t count_batches(const bl_bench_result *b, enum bl_judge_metric m)
{
    size_t n = 0;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (!launch_ok(l))
            continue;
        for (size_t k = 0; k < l->n_samples; k++) {
            const bl_sample *s = &l->samples[k];
            n += s->stage == BL_STAGE_MEASURE && !s->invalid &&
                 (m == BL_JUDGE_TIME || (m == BL_JUDGE_REF_CYCLES && s->ref_ns > 0));
        }
    }
    return n;
}

static void to_logs(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = log(v[i] > FLOOR_NS ? v[i] : FLOOR_NS);
}

/* One count a side (the counters pass): the ratio, no test. */
static void compare_counts(double a, double b, bl_judgement *j)
{
    j->test = BL_JUDGE_TEST_COUNT;
    j->launch_level = 1;
    j->n_base = j->n_new = 1;
    j->base_ns = a;
    j->new_ns = b;
    j->ratio = a > 0 ? b / a : NAN;
}

/* The change of values va, vb (clobbered: logs on return): medians, the U
 * test, the Hodges-Lehmann ratio and interval, and Welch's p on the logs
 * in *p_welch (NAN when it has none). 0 or -ENOMEM. */
static int compare_values(double *va, size_t na, double *vb, size_t nb, const bl_judge_options *o,
                          bl_judgement *j, double *p_welch)
{
    int rc = 0;
    j->base_ns = bl_stats_median(va, na);
    j->new_ns = bl_stats_median(vb, nb);
    j->test = BL_JUDGE_TEST_RANK;
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
    int w = bl_stats_welch(va, na, vb, nb, p_welch, NULL, NULL);
    if (w == -EDOM && na >= 2 && nb >= 2)
        *p_welch = 1; /* both constant and equal */
    return rc;
}

/*
 * The change of one benchmark present in both runs: fills everything but
 * the verdict and `significant`. The values are launch-level or pooled
 * batches (bl_judge_options.min_launches) of the metric; the change is
 * the Hodges-Lehmann estimate of the ratio, exp of the median of the
 * pairwise differences of log values, with the interval that goes with
 * it and with the U test. *p_welch (may be NULL) gets Welch's p on the
 * logs. 0, BL_ENOTFOUND when a side lacks the metric, or -ENOMEM.
 */
static int compare_one(const bl_bench_result *a, const bl_bench_result *b,
                       const bl_judge_options *o, bl_judgement *j, double *p_welch)
{
    double pw = NAN;
    size_t ok_a = count_values(a, o->metric), ok_b = count_values(b, o->metric);
    if (o->metric == BL_JUDGE_INSTRUCTIONS && (!ok_a || !ok_b)) {
        double ca = counted(a), cb = counted(b);
        if (p_welch)
            *p_welch = NAN;
        if (isnan(ca) || isnan(cb))
            return BL_ENOTFOUND;
        compare_counts(ca, cb, j);
        return 0;
    }
    int launch_level = ok_a >= o->min_launches && ok_b >= o->min_launches;
    if (!launch_level && (!count_batches(a, o->metric) || !count_batches(b, o->metric)))
        launch_level = 1; /* results read back without batches: launches are all there is */
    size_t na = 0, nb = 0;
    double *va = values_of(a, launch_level, o->metric, &na);
    double *vb = values_of(b, launch_level, o->metric, &nb);
    int rc = va && vb ? 0 : -ENOMEM;
    j->launch_level = launch_level;
    j->n_base = na;
    j->n_new = nb;
    if (!rc && (!na || !nb))
        rc = BL_ENOTFOUND;
    if (!rc)
        rc = compare_values(va, na, vb, nb, o, j, &pw);
    if (p_welch)
        *p_welch = pw;
    free(va);
    free(vb);
    return rc;
}

static bl_judgement blank(const bl_bench_result *b, enum bl_verdict v)
{
    bl_judgement j = {.name = b->name, .job = b->job, .verdict = v};
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
    *out = blank(current, BL_VERDICT_UNCHANGED);
    if (!(o.confidence > 0 && o.confidence < 1))
        return BL_EUSAGE;
    if (!count_ok(base) || !count_ok(current))
        return BL_ENOTFOUND;
    if (o.metric == BL_JUDGE_AUTO)
        o.metric =
            has_ref_cycles(base) && has_ref_cycles(current) ? BL_JUDGE_REF_CYCLES : BL_JUDGE_TIME;
    return compare_one(base, current, &o, out, NULL);
}

/* The benchmarks compared, with their p-values (U test and Welch's), as
 * bl_judge gathers them before the correction. */
struct family {
    double *p_rank, *p_welch;
    size_t *item; /* index into the items */
    size_t n;
};

/*
 * Each benchmark of the family takes the U test's p where that test can
 * reach the first level of the correction with its sample sizes, else
 * Welch's (when it has one): the choice is the sample sizes', never the
 * values'. p[] gets the p each benchmark is corrected with.
 */
static void choose_tests(bl_judgement_set *set, bl_judgement *items, const struct family *f,
                         double *p)
{
    set->level = bl_correction_first_level(set->opts.alpha, f->n, set->opts.correction);
    for (size_t t = 0; t < f->n; t++) {
        bl_judgement *j = &items[f->item[t]];
        p[t] = f->p_rank[t];
        if (j->test != BL_JUDGE_TEST_RANK || isnan(f->p_welch[t]))
            continue;
        double min_p = bl_stats_utest_min_p(j->n_base, j->n_new);
        /* a hair of slack: 2/C(10,5) against 0.05/6 must not flip on rounding */
        if (!(min_p > set->level * (1 + 1e-9)))
            continue;
        p[t] = j->p = f->p_welch[t];
        j->test = BL_JUDGE_TEST_WELCH;
        if (!set->n_welch++ || min_p > set->welch_rank_min_p) {
            set->welch_rank_min_p = min_p;
            set->welch_n_base = j->n_base;
            set->welch_n_new = j->n_new;
        }
    }
}

static void count_verdicts(bl_judgement_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        switch (set->items[i].verdict) {
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
}

/* The verdicts of the family after the correction, and of the counts. */
static int decide(bl_judgement_set *set, bl_judgement *items, const struct family *f)
{
    const bl_judge_options *o = &set->opts;
    double *p = malloc((f->n ? f->n : 1) * sizeof *p);
    unsigned char *reject = malloc(f->n ? f->n : 1);
    int rc = p && reject ? 0 : -ENOMEM;
    if (!rc) {
        choose_tests(set, items, f, p);
        if (f->n)
            rc = bl_multiple_reject(p, f->n, o->alpha, o->correction, reject);
    }
    double up = 1 + o->threshold_pct / 100;
    for (size_t t = 0; !rc && t < f->n; t++) {
        bl_judgement *j = &items[f->item[t]];
        j->significant = reject[t];
        if (j->significant && j->ratio > up)
            j->verdict = BL_VERDICT_SLOWER;
        else if (j->significant && j->ratio < 1 / up)
            j->verdict = BL_VERDICT_FASTER;
    }
    for (size_t i = 0; !rc && i < set->n; i++) {
        bl_judgement *j = &items[i];
        if (j->test != BL_JUDGE_TEST_COUNT)
            continue;
        set->n_counts++;
        j->significant = j->ratio > up || j->ratio < 1 / up;
        j->verdict = j->ratio > up       ? BL_VERDICT_SLOWER
                     : j->ratio < 1 / up ? BL_VERDICT_FASTER
                                         : BL_VERDICT_UNCHANGED;
    }
    free(p);
    free(reject);
    return rc;
}

/* One benchmark of the baseline: its judgement appended to items (with
 * its p-values to the family when it was tested). 0, -ENOMEM. */
static int judge_one(bl_judgement_set *set, bl_judgement *items, const bl_bench_result *a,
                     const bl_results *cur, struct family *f)
{
    const bl_bench_result *b = bl_results_find_job((bl_results *)cur, a->job, a->name);
    if (!b) {
        items[set->n++] = blank(a, BL_VERDICT_MISSING);
        return 0;
    }
    if (!count_ok(a)) /* nothing to compare against: judge it as new */
        return 0;
    bl_judgement j = blank(b, BL_VERDICT_UNCHANGED);
    if (!count_ok(b)) {
        j.verdict = BL_VERDICT_FAILED;
        items[set->n++] = j;
        return 0;
    }
    double pw = NAN;
    int rc = compare_one(a, b, &set->opts, &j, &pw);
    if (rc == BL_ENOTFOUND) {
        set->n_lacking++;
        rc = 0;
    }
    if (!rc && j.test == BL_JUDGE_TEST_RANK && !isnan(j.p)) {
        f->p_rank[f->n] = j.p;
        f->p_welch[f->n] = pw;
        f->item[f->n++] = set->n;
    }
    items[set->n++] = j;
    return rc;
}

static int compile_filter(const char *filter, regex_t *re, char *err, size_t err_size)
{
    int e = regcomp(re, filter, REG_EXTENDED | REG_NOSUB);
    if (!e)
        return 0;
    char m[200];
    regerror(e, re, m, sizeof m);
    snprintf(err, err_size, "--filter '%s': %s", filter, m);
    return BL_EUSAGE;
}

/* BL_JUDGE_AUTO for a set: ref-cycles when every benchmark that both runs
 * ran successfully (and the filter keeps) has them on every launch, else
 * time; time when no benchmark is in both. */
static enum bl_judge_metric auto_metric(const bl_results *base, const bl_results *cur,
                                        const regex_t *re)
{
    size_t both = 0;
    for (size_t i = 0; i < base->n_benches; i++) {
        const bl_bench_result *a = &base->benches[i];
        if (re && regexec(re, a->name, 0, NULL, 0) != 0)
            continue;
        const bl_bench_result *b = bl_results_find_job((bl_results *)cur, a->job, a->name);
        if (!b || !count_ok(a) || !count_ok(b))
            continue;
        if (!has_ref_cycles(a) || !has_ref_cycles(b))
            return BL_JUDGE_TIME;
        both++;
    }
    return both ? BL_JUDGE_REF_CYCLES : BL_JUDGE_TIME;
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
        !(o.confidence > 0 && o.confidence < 1) || (unsigned)o.metric > BL_JUDGE_AUTO) {
        snprintf(err, err_size, "judge: threshold must be >= 0, alpha and confidence in (0, 1)");
        return BL_EUSAGE;
    }
    if (o.min_launches < 2)
        o.min_launches = 2;
    regex_t re;
    if (o.filter && compile_filter(o.filter, &re, err, err_size))
        return BL_EUSAGE;
    if (o.metric == BL_JUDGE_AUTO)
        o.metric = auto_metric(base, cur, o.filter ? &re : NULL);
    bl_judgement_set *set = calloc(1, sizeof *set);
    bl_judgement *items = calloc(base->n_benches + cur->n_benches + 1, sizeof *items);
    struct family f = {0};
    size_t cap = base->n_benches + 1;
    f.p_rank = calloc(cap, sizeof *f.p_rank);
    f.p_welch = calloc(cap, sizeof *f.p_welch);
    f.item = calloc(cap, sizeof *f.item);
    int rc = set && items && f.p_rank && f.p_welch && f.item ? 0 : -ENOMEM;
    if (set)
        set->opts = o;
    for (size_t i = 0; !rc && i < base->n_benches; i++) {
        const bl_bench_result *a = &base->benches[i];
        if (!o.filter || regexec(&re, a->name, 0, NULL, 0) == 0)
            rc = judge_one(set, items, a, cur, &f);
    }
    for (size_t i = 0; !rc && i < cur->n_benches; i++) {
        const bl_bench_result *b = &cur->benches[i];
        if (o.filter && regexec(&re, b->name, 0, NULL, 0) != 0)
            continue;
        const bl_bench_result *a = bl_results_find_job((bl_results *)base, b->job, b->name);
        if (!a || !count_ok(a))
            items[set->n++] = blank(b, BL_VERDICT_NEW);
    }
    if (!rc)
        rc = decide(set, items, &f);
    free(f.p_rank);
    free(f.p_welch);
    free(f.item);
    if (o.filter)
        regfree(&re);
    if (rc) {
        free(items);
        free(set);
        snprintf(err, err_size, "judge: %s", bl_strerror(rc));
        return rc;
    }
    set->items = items;
    set->n_tested = f.n;
    count_verdicts(set);
    *out = set;
    return 0;
}

/*
 * The gate's verdict, apart from the statistics: a benchmark the baseline
 * has and the run lacks fails it, unless allowed, because a shard that
 * was lost or a job that crashed would otherwise pass the gate unjudged.
 */
size_t bl_judge_acknowledge(bl_judgement_set *set, const char *pattern, const char *commit)
{
    size_t n = 0;
    for (size_t i = 0; pattern && commit && i < set->n; i++) {
        bl_judgement *j = &set->items[i];
        if ((j->verdict != BL_VERDICT_SLOWER && j->verdict != BL_VERDICT_FAILED) || j->acknowledged)
            continue;
        const char *shown = strncmp(j->name, "Benchmark", 9) == 0 ? j->name + 9 : j->name;
        if (fnmatch(pattern, j->name, 0) != 0 && fnmatch(pattern, shown, 0) != 0)
            continue;
        j->acknowledged = commit;
        n++;
    }
    set->n_acknowledged += n;
    return n;
}

int bl_judge_gate(const bl_judgement_set *set, unsigned flags)
{
    if (set->n_slower + set->n_failed > set->n_acknowledged)
        return 1;
    return set->n_missing && !(flags & BL_JUDGE_ALLOW_MISSING) ? 1 : 0;
}
