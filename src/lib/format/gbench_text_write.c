/*
 * gbench_text_write.c - Google Benchmark's console table and CSV
 * (--benchmark_format=console|csv, --benchmark_out_format=console|csv), and
 * the rows Google Benchmark adds after a benchmark's repetitions, which its
 * JSON gets from here too (bl__gbench_json_extras): the statistics of the
 * definition's own (ComputeStatistics, bl_statistic) and, after the last
 * benchmark of a complexity fit, its BigO and RMS.
 *
 * The rows are Google Benchmark's runs: one "iteration" per launch (a
 * worker process), then, with two launches or more, the mean, median,
 * stddev and cv aggregates and the definition's own statistics, as
 * gbench_json_write.c writes them. Times are in the launch's unit
 * (.time_unit, else the run's --time-unit, else ns), its aggregates in the
 * unit of its first launch. A BigO row holds the coefficients of Google
 * Benchmark's fit of the iteration rows (gb_fit: every launch a point, the
 * times in its thread convention, the curve picked by the CPU times) in
 * the run's unit, as Google Benchmark ignores Unit() there, an RMS row the
 * normalised RMS of both fits. An
 * aggregate carries the label when every launch had the same one; a fit's
 * rows carry its first benchmark's (Google Benchmark's statistics.cc and
 * complexity.cc).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/stats.h"
#include "gbench.h"
#include "text.h"

enum run_kind { RUN_ITERATION, RUN_AGGREGATE, RUN_BIGO, RUN_RMS, RUN_ERROR };

struct gb_run {
    char *name;     /* as Google Benchmark prints it: "BM_x/8", "BM_x/8_mean", "BM_x_BigO" */
    char *run_name; /* without the aggregate's suffix */
    int kind;
    char aggregate[64]; /* "mean", ..., "BigO", "RMS" */
    bool percentage;    /* the aggregate is a fraction (cv, RMS, bl_statistic.percentage) */
    bool own_statistic; /* the definition's own (bl_statistic) */
    unsigned long long iterations;
    size_t repetitions;
    int threads;
    double real, cpu; /* ns; the coefficients of a BigO; fractions for a percentage */
    const char *unit; /* the unit shown: "ns", "us", "ms", "s" */
    double scale;     /* what turns ns into it */
    int curve;        /* BigO: enum bl_complexity */
    const char *label, *error;
    bool skipped; /* RUN_ERROR of a skip (SkipWithMessage), not an error */
    struct gb_counter counters[32];
    size_t n_counters;
};

struct gb_runs {
    struct gb_run *v;
    size_t n, cap;
};

static void runs_free(struct gb_runs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].name);
        free(r->v[i].run_name);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}

/* A new zeroed run named name + (suffix ? "_" suffix : ""); NULL: no memory. */
static struct gb_run *add_run(struct gb_runs *r, const char *run_name, const char *suffix)
{
    if (bl__grow((void **)&r->v, &r->cap, r->n + 1, sizeof *r->v))
        return NULL;
    struct gb_run *x = &r->v[r->n];
    memset(x, 0, sizeof *x);
    struct bl__buf b = {0};
    bl__buf_printf(&b, "%s%s%s", run_name, suffix ? "_" : "", suffix ? suffix : "");
    x->name = b.data;
    x->run_name = bl__strdup(run_name);
    if (!x->name || !x->run_name) {
        free(x->name);
        free(x->run_name);
        return NULL;
    }
    x->threads = 1;
    x->unit = "ns";
    x->scale = 1;
    r->n++;
    return x;
}

char *bl__gbench_name(const char *full)
{
    if (strncmp(full, "Benchmark", 9) == 0 && full[9])
        full += 9;
    char *s = bl__strdup(full);
    if (!s)
        return NULL;
    size_t n = strlen(s), k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k > 1 && k < n && s[k - 1] == '#')
        s[k - 1] = '\0';
    return s;
}

static bool launch_ok(const bl_launch *l)
{
    return l->status == 0 && !l->skipped && isfinite(l->ns_per_op);
}

const char *bl__gbench_unit(const bl_results *res, const bl_launch *l)
{
    if (l && l->time_unit[0])
        return l->time_unit;
    return res && res->time_unit[0] ? res->time_unit : "ns";
}

double bl__gbench_unit_scale(const char *unit)
{
    return strcmp(unit, "s") == 0    ? 1e-9
           : strcmp(unit, "ms") == 0 ? 1e-6
           : strcmp(unit, "us") == 0 ? 1e-3
                                     : 1;
}

const char *bl__gbench_same_label(const bl_bench_result *br)
{
    const char *label = NULL;
    bool first = true;
    for (size_t i = 0; i < br->n_launches; i++) {
        const bl_launch *l = &br->launches[i];
        if (!launch_ok(l))
            continue;
        const char *x = l->label ? l->label : "";
        if (!first && strcmp(x, label) != 0)
            return NULL;
        label = x;
        first = false;
    }
    return label && *label ? label : NULL;
}

static int by_counter_name(const void *a, const void *b)
{
    return strcmp(((const struct gb_counter *)a)->name, ((const struct gb_counter *)b)->name);
}

bool bl__gbench_entry_key(const char *k)
{
    static const char *const keys[] = {"name",
                                       "family_index",
                                       "per_family_instance_index",
                                       "run_name",
                                       "run_type",
                                       "repetitions",
                                       "repetition_index",
                                       "threads",
                                       "iterations",
                                       "real_time",
                                       "cpu_time",
                                       "time_unit",
                                       "cpu_time_is_real_time",
                                       "disturbed",
                                       "label",
                                       "error_occurred",
                                       "error_message",
                                       "skipped",
                                       "skip_message",
                                       "aggregate_name",
                                       "aggregate_unit",
                                       "big_o",
                                       "rms",
                                       "cpu_coefficient",
                                       "real_coefficient"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(k, keys[i]) == 0)
            return true;
    return false;
}

/* Whether a counter may not be named `name` in an entry that has out[0..n):
 * one of the keys Google Benchmark's JSON writes in an entry, or a counter
 * already there. */
static bool counter_name_taken(const struct gb_counter *out, size_t n, const char *name)
{
    if (bl__gbench_entry_key(name))
        return true;
    for (size_t i = 0; i < n; i++)
        if (strcmp(out[i].name, name) == 0)
            return true;
    return false;
}

/* prefix, s[0..len) and suffix into dst[size]: bytes that are not UTF-8
 * each U+FFFD (as every JSON string gets them: two names that differ there
 * would be one key), s cut short where it must be, at a character. */
static void counter_name_put(char *dst, size_t size, const char *prefix, const char *s, size_t len,
                             const char *suffix)
{
    size_t o = 0, room = size - 1 - strlen(suffix);
    for (const char *p = prefix; *p && o < room; p++)
        dst[o++] = *p;
    for (size_t i = 0; i < len;) {
        size_t n = bl__utf8_len((const unsigned char *)s + i);
        bool bad = n == 0 || n > len - i;
        size_t w = bad ? 3 : n;
        if (o + w > room)
            break;
        memcpy(dst + o, bad ? "\xEF\xBF\xBD" : s + i, w);
        o += w;
        i += bad ? 1 : n;
    }
    snprintf(dst + o, size - o, "%s", suffix);
}

/*
 * A counter's name, s[0..len), into dst (sizeof gb_counter.name): cut to
 * fit; where that name is taken (counter_name_taken), "user:NAME" (as the
 * Go writer names a metric that would take a figure's place), then
 * "NAME#2", "NAME#3"...: no key twice in an entry, which would replace
 * the time or the threads for a reader that keeps the last (Python's json,
 * Google Benchmark's tools/compare.py) and merge two counters into one.
 */
static void counter_name(char *dst, size_t size, const struct gb_counter *out, size_t n,
                         const char *s, size_t len)
{
    counter_name_put(dst, size, "", s, len, "");
    if (counter_name_taken(out, n, dst))
        counter_name_put(dst, size, "user:", s, len, "");
    for (int k = 2; counter_name_taken(out, n, dst); k++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "#%d", k);
        counter_name_put(dst, size, "", s, len, suffix);
    }
}

size_t bl__gbench_counters(const bl_launch *l, struct gb_counter *out, size_t cap, int sorted)
{
    size_t n = 0;
    bl_rates r;
    bl_launch_rates(l, &r);
    if (l->counter_clock != BL_CLOCK_UNSAID) {
        /* Google Benchmark's: the threads' sum over the seconds of its clock */
        double s = bl_launch_counter_seconds_per_op(l);
        r.mb_per_s = l->bytes_sum_per_op > 0 ? l->bytes_sum_per_op / s * 1e-6 : NAN;
        r.items_per_s = l->items_sum_per_op > 0 ? l->items_sum_per_op / s : NAN;
    }
    if (isfinite(r.mb_per_s) && n < cap) {
        snprintf(out[n].name, sizeof out[n].name, "bytes_per_second");
        out[n].flags = BL_RATE | BL_ONEK_1024;
        out[n++].value = r.mb_per_s * 1e6;
    }
    if (isfinite(r.items_per_s) && n < cap) {
        snprintf(out[n].name, sizeof out[n].name, "items_per_second");
        out[n].flags = BL_RATE;
        out[n++].value = r.items_per_s;
    }
    for (size_t i = 0; i < l->n_metrics && n < cap; i++) {
        const bl_metric *m = &l->metrics[i];
        size_t len = strlen(m->unit);
        if (!m->is_counter && (strcmp(m->unit, "ops/s") == 0 || strcmp(m->unit, "MB/s") == 0 ||
                               strcmp(m->unit, "items/s") == 0))
            continue; /* benchlab's own rates: not counters */
        bool rate = len > 2 && strcmp(m->unit + len - 2, "/s") == 0 && (m->flags & BL_RATE);
        bool inverted = (m->flags & BL_INVERT) && strncmp(m->unit, "ns/", 3) == 0;
        size_t from = inverted ? 3 : 0, keep = rate ? len - 2 : len;
        counter_name(out[n].name, sizeof out[n].name, out, n, m->unit + from,
                     keep < len - from ? keep : len - from);
        out[n].flags = m->flags;
        out[n++].value = inverted ? m->value * 1e-9 : m->value; /* GB's seconds */
    }
    if (sorted)
        qsort(out, n, sizeof *out, by_counter_name);
    return n;
}

static double mean_of(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return n ? s / (double)n : NAN;
}

static double sd_of(const double *x, size_t n)
{
    if (n < 2)
        return 0;
    double m = mean_of(x, n), s = 0;
    for (size_t i = 0; i < n; i++)
        s += (x[i] - m) * (x[i] - m);
    return sqrt(s / (double)(n - 1));
}

void bl__gbench_times(const bl_launch *l, struct gb_times *out)
{
    out->threads = l->threads > 0 ? l->threads : 1;
    out->iterations = l->measured_reps * (unsigned long long)out->threads;
    out->real = l->ns_per_op / out->threads;
    out->cpu = bl_launch_cpu_per_op(l);
    out->cpu_is_real = !isfinite(out->cpu);
    if (out->cpu_is_real)
        out->cpu = out->real;
}

double bl__gbench_aggregate(int which, const struct bl_statistic *st, const double *x, size_t n)
{
    if (st)
        return st->fn(x, n, st->data);
    double m = mean_of(x, n);
    switch (which) {
    case 0:
        return m;
    case 1:
        return bl_stats_median(x, n);
    case 2:
        return sd_of(x, n);
    default:
        return m != 0 ? sd_of(x, n) / m : 0;
    }
}

/* The aggregate rows of one benchmark: runs[first..first+k) are its
 * iterations. Counters present in every launch are aggregated too. */
static int add_aggregates(struct gb_runs *r, const bl_bench_result *br, size_t first, size_t k)
{
    const char *label = bl__gbench_same_label(br);
    static const char *const names[] = {"mean", "median", "stddev", "cv"};
    size_t n_stats = 0;
    while (br->statistics && br->statistics[n_stats].name)
        n_stats++;
    double *rt = calloc(k, sizeof *rt), *ct = calloc(k, sizeof *ct), *cv = calloc(k, sizeof *cv);
    int err = rt && ct && cv ? 0 : -ENOMEM;
    for (size_t i = 0; !err && i < k; i++) {
        rt[i] = r->v[first + i].real;
        ct[i] = r->v[first + i].cpu;
    }
    for (size_t a = 0; !err && a < 4 + n_stats; a++) {
        const bl_statistic *st = a >= 4 ? &br->statistics[a - 4] : NULL;
        if (st && !st->fn)
            continue;
        struct gb_run it0 = r->v[first]; /* add_run may move the array */
        struct gb_run *x = add_run(r, it0.run_name, st ? st->name : names[a]);
        if (!x) {
            err = -ENOMEM;
            break;
        }
        x->kind = RUN_AGGREGATE;
        snprintf(x->aggregate, sizeof x->aggregate, "%s", st ? st->name : names[a]);
        x->percentage = st ? st->percentage != 0 : a == 3;
        x->own_statistic = st != NULL;
        x->iterations = k;
        x->repetitions = k;
        x->threads = it0.threads;
        x->unit = it0.unit; /* Google Benchmark's: its first repetition's */
        x->scale = it0.scale;
        x->label = label;
        x->real = bl__gbench_aggregate((int)a, st, rt, k);
        x->cpu = bl__gbench_aggregate((int)a, st, ct, k);
        for (size_t c = 0; c < it0.n_counters; c++) {
            size_t nv = 0;
            for (size_t i = 0; i < k; i++) {
                const struct gb_run *it = &r->v[first + i];
                for (size_t q = 0; q < it->n_counters; q++)
                    if (strcmp(it->counters[q].name, it0.counters[c].name) == 0) {
                        cv[nv++] = it->counters[q].value; /* one per launch: names are unique */
                        break;
                    }
            }
            if (nv == k) {
                x->counters[x->n_counters] = it0.counters[c];
                x->counters[x->n_counters++].value = bl__gbench_aggregate((int)a, st, cv, k);
            }
        }
    }
    free(rt);
    free(ct);
    free(cv);
    return err;
}

/* The iteration rows of benchmark b, its aggregates, or its error row. */
static int add_bench(struct gb_runs *r, const bl_results *res, const bl_bench_result *br)
{
    char *name = bl__gbench_name(br->name);
    if (!name)
        return -ENOMEM;
    size_t first = r->n, k = 0, n_ok = 0;
    for (size_t i = 0; i < br->n_launches; i++)
        n_ok += launch_ok(&br->launches[i]);
    int err = 0;
    for (size_t i = 0; !err && i < br->n_launches; i++) {
        const bl_launch *l = &br->launches[i];
        if (!launch_ok(l))
            continue;
        struct gb_run *x = add_run(r, name, NULL);
        if (!x) {
            err = -ENOMEM;
            break;
        }
        x->kind = RUN_ITERATION;
        struct gb_times t;
        bl__gbench_times(l, &t);
        x->iterations = t.iterations;
        x->repetitions = n_ok;
        x->threads = t.threads;
        x->real = t.real;
        x->cpu = t.cpu;
        x->unit = bl__gbench_unit(res, l);
        x->scale = bl__gbench_unit_scale(x->unit);
        x->label = l->label;
        x->n_counters = bl__gbench_counters(l, x->counters, 32, 1);
        k++;
    }
    if (!err && n_ok == 0) {
        struct gb_run *x = add_run(r, name, NULL);
        if (!x) {
            err = -ENOMEM;
        } else {
            x->kind = RUN_ERROR;
            x->error = "no launch finished";
            for (size_t i = 0; i < br->n_launches; i++)
                if (br->launches[i].message) {
                    x->error = br->launches[i].message;
                    x->skipped = br->launches[i].skipped;
                }
        }
    }
    if (!err && k > 1)
        err = add_aggregates(r, br, first, k);
    free(name);
    return err;
}

/*
 * Google Benchmark's ComputeBigO (complexity.cc) over the rows written
 * before: every finished launch of the fit's benchmarks is one point, in
 * Google Benchmark's thread convention (bl__gbench_times: the wall time
 * over the threads; and n the sum of the threads' SetComplexityN, T x n
 * when each sets n, as its runner adds them up, with the benchmark's own
 * curve evaluated there, as GB calls its Complexity(lambda)); the CPU
 * times pick the curve (mode: one curve, BL_COMPLEXITY_AUTO or BL_OUSER,
 * the benchmark's own), and the wall times are fitted to that curve. 0, or -ENOMEM; a fit that
 * cannot be made leaves NAN coefficients.
 */
static int gb_fit(const bl_results *res, const bl_complexity_result *c, bl_complexity_fit *real,
                  bl_complexity_fit *cpu, int *threads)
{
    size_t cap = 0;
    for (size_t i = 0; i < c->n_points; i++)
        cap += res->benches[c->benches[i]].n_launches;
    double *ns = calloc(cap + 1, sizeof *ns), *rt = calloc(cap + 1, sizeof *rt);
    double *ct = calloc(cap + 1, sizeof *ct), *g = calloc(cap + 1, sizeof *g);
    int err = ns && rt && ct && g ? 0 : -ENOMEM;
    size_t n = 0;
    bool user = true;
    for (size_t i = 0; !err && i < c->n_points; i++) {
        const bl_bench_result *b = &res->benches[c->benches[i]];
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            if (!launch_ok(l) || !l->size.param)
                continue;
            struct gb_times t;
            bl__gbench_times(l, &t);
            /* its threads' n summed, where Google Benchmark calls a curve of
             * its own; results from before the worker said: T x n, and the
             * curve at n */
            bool sum = l->size.n_sum > 0;
            ns[n] = sum ? l->size.n_sum : l->size.n * t.threads;
            g[n] = sum ? l->size.user_g_sum : l->size.user_g;
            user &= isfinite(g[n]);
            rt[n] = t.real;
            ct[n++] = t.cpu;
            *threads = t.threads;
        }
    }
    real->coefficient = real->rms = cpu->coefficient = cpu->rms = NAN;
    real->curve = cpu->curve = c->best.curve;
    if (!err && n >= 2 &&
        bl_stats_fit_complexity(c->mode, ns, ct, user ? g : NULL, n, cpu, NULL, NULL) == 0 &&
        bl_stats_fit_complexity(cpu->curve, ns, rt, user ? g : NULL, n, real, NULL, NULL) != 0)
        real->coefficient = real->rms = NAN;
    free(ns);
    free(rt);
    free(ct);
    free(g);
    return err;
}

/* The BigO and RMS rows of fit c. */
static int add_fit(struct gb_runs *r, const bl_results *res, const bl_complexity_result *c)
{
    if (!c->best.curve || c->n_points < 2)
        return 0;
    int threads = 1;
    size_t first = c->benches[0]; /* the fit's first benchmark in run order */
    for (size_t i = 1; i < c->n_points; i++)
        if (c->benches[i] < first)
            first = c->benches[i];
    bl_complexity_fit fr, fc;
    int err = gb_fit(res, c, &fr, &fc, &threads);
    char *name = err ? NULL : bl__gbench_name(c->name);
    if (!err && !name)
        err = -ENOMEM;
    for (int k = 0; !err && k < 2; k++) {
        struct gb_run *x = add_run(r, name, k == 0 ? "BigO" : "RMS");
        if (!x) {
            err = -ENOMEM;
            break;
        }
        x->kind = k == 0 ? RUN_BIGO : RUN_RMS;
        snprintf(x->aggregate, sizeof x->aggregate, "%s", k == 0 ? "BigO" : "RMS");
        x->percentage = k == 1;
        /* its first benchmark's repetitions and first label, as Google
         * Benchmark's */
        const bl_launch *l0 = NULL;
        x->repetitions = 0;
        for (size_t j = 0; j < res->benches[first].n_launches; j++)
            if (launch_ok(&res->benches[first].launches[j])) {
                l0 = l0 ? l0 : &res->benches[first].launches[j];
                x->repetitions++;
            }
        x->threads = threads;
        x->curve = fc.curve;
        x->label = l0 ? l0->label : NULL;
        /* a coefficient is in the run's unit (Google Benchmark's default
         * unit: it ignores Unit() here); an RMS is a fraction */
        x->unit = bl__gbench_unit(res, NULL);
        x->scale = k == 0 ? bl__gbench_unit_scale(x->unit) : 1;
        x->real = k == 0 ? fr.coefficient : fr.rms;
        x->cpu = k == 0 ? fc.coefficient : fc.rms;
    }
    free(name);
    return err;
}

/* The fits whose last benchmark (in run order) is b. */
static int add_fits_after(struct gb_runs *r, const bl_results *res, size_t b)
{
    int err = 0;
    for (size_t i = 0; !err && i < res->n_complexity; i++) {
        const bl_complexity_result *c = &res->complexity[i];
        size_t last = 0;
        for (size_t k = 0; k < c->n_points; k++)
            if (c->benches[k] > last)
                last = c->benches[k];
        if (c->n_points && last == b)
            err = add_fit(r, res, c);
    }
    return err;
}

static int build(struct gb_runs *r, const bl_results *res)
{
    int err = 0;
    for (size_t b = 0; !err && b < res->n_benches; b++) {
        err = add_bench(r, res, &res->benches[b]);
        if (!err)
            err = add_fits_after(r, res, b);
    }
    if (err)
        runs_free(r);
    return err;
}

/* Google Benchmark's name of a curve (GetBigOString). */
static const char *big_o_name(int curve)
{
    switch (curve) {
    case BL_O1:
        return "(1)";
    case BL_ON:
        return "N";
    case BL_ON2:
        return "N^2";
    case BL_ON3:
        return "N^3";
    case BL_OLOGN:
        return "lgN";
    case BL_ONLOGN:
        return "NlgN";
    case BL_OUSER:
        return "f(N)";
    default:
        return "";
    }
}

/* ---- console ---------------------------------------------------------- */

/* Google Benchmark's FormatTime: 10 columns, fewer decimals as it grows. */
static void format_time(char *out, size_t size, double t)
{
    if (t < 1.0)
        snprintf(out, size, "%10.3f", t);
    else if (t < 10.0)
        snprintf(out, size, "%10.2f", t);
    else if (t < 100.0)
        snprintf(out, size, "%10.1f", t);
    else if (t > 9999999999.0)
        snprintf(out, size, "%1.4e", t);
    else
        snprintf(out, size, "%10.0f", t);
}

/* Google Benchmark's HumanReadableNumber: prefixes by powers of one_k
 * beyond 1.1 x one_k and below 0.01, %g in between; "inf" (a kInvert
 * counter of 0) and "nan" (the stddev of infinities) as it prints them. */
static void human_number(char *out, size_t size, double v, double one_k)
{
    static const char big[] = "kMGTPEZY", small[] = "munpfazy";
    if (isnan(v)) { /* its sign too: "-nan", as Google Benchmark's stream prints it */
        snprintf(out, size, "%g", v);
        return;
    }
    const char *sign = v < 0 ? "-" : "";
    v = fabs(v);
    const double thr = 1.1, big_thr = thr * one_k;
    if (v > big_thr) {
        double s = v;
        for (int i = 0; i < 8; i++) {
            s /= one_k;
            if (s <= big_thr) {
                /* SI letters for kIs1024 too, as Google Benchmark 1.7 prints them */
                snprintf(out, size, "%s%g%c", sign, s, big[i]);
                return;
            }
        }
    } else if (v < 0.01 && v > 0) {
        double s = v;
        for (int i = 0; i < 8; i++) {
            s *= one_k;
            if (s >= thr) {
                snprintf(out, size, "%s%g%c", sign, s, small[i]);
                return;
            }
        }
    }
    snprintf(out, size, "%s%g", sign, v);
}

static void console_row(FILE *f, const struct gb_run *x, int width)
{
    struct bl__buf safe = {0};
    fprintf(f, "%-*s ", width, bl__terminal_safe(&safe, x->name));
    if (x->kind == RUN_ERROR) {
        /* Google Benchmark 1.8's two forms: a skip (SkipWithMessage) or an error */
        fprintf(f, "%s: '%s'\n", x->skipped ? "SKIPPED" : "ERROR OCCURRED",
                bl__terminal_safe(&safe, x->error));
        bl__buf_fini(&safe);
        return;
    }
    char rt[64], ct[64];
    if (x->kind == RUN_BIGO) {
        fprintf(f, "%10.2f %-4s %10.2f %-4s ", x->real * x->scale, big_o_name(x->curve),
                x->cpu * x->scale, big_o_name(x->curve));
    } else if (x->kind == RUN_RMS) {
        fprintf(f, "%10.0f %-4s %10.0f %-4s ", x->real * 100, "%", x->cpu * 100, "%");
    } else if (x->percentage) {
        fprintf(f, "%10.2f %-4s %10.2f %-4s ", x->real * 100, "%", x->cpu * 100, "%");
    } else {
        format_time(rt, sizeof rt, x->real * x->scale);
        format_time(ct, sizeof ct, x->cpu * x->scale);
        fprintf(f, "%s %-4s %s %-4s ", rt, x->unit, ct, x->unit);
    }
    if (x->kind != RUN_BIGO && x->kind != RUN_RMS)
        fprintf(f, "%10llu", x->iterations);
    for (size_t c = 0; c < x->n_counters; c++) {
        const struct gb_counter *k = &x->counters[c];
        char v[64];
        const char *unit = "";
        if (x->percentage) {
            snprintf(v, sizeof v, "%.2f", 100 * k->value);
            unit = "%";
        } else {
            human_number(v, sizeof v, k->value, k->flags & BL_ONEK_1024 ? 1024 : 1000);
            if (k->flags & BL_RATE)
                unit = k->flags & BL_INVERT ? "s" : "/s";
        }
        fprintf(f, " %s=%s%s", bl__terminal_safe(&safe, k->name), v, unit);
    }
    if (x->label)
        fprintf(f, " %s", bl__terminal_safe(&safe, x->label));
    fputc('\n', f);
    bl__buf_fini(&safe);
}

int bl_gbench_console_write(FILE *f, const bl_results *results)
{
    struct gb_runs r = {0};
    int err = build(&r, results);
    if (err)
        return err;
    int width = 10;
    bool counters = false;
    for (size_t i = 0; i < r.n; i++) {
        int w = bl__text_width(r.v[i].name);
        if (w > width)
            width = w;
        counters |= r.v[i].n_counters > 0;
    }
    char head[512];
    int len = snprintf(head, sizeof head, "%-*s %13s %15s %12s%s", width, "Benchmark", "Time",
                       "CPU", "Iterations", counters ? " UserCounters..." : "");
    if (len < 0 || (size_t)len >= sizeof head)
        len = (int)strlen(head);
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1) {
            fprintf(f, "%s\n", head);
            continue;
        }
        for (int i = 0; i < len; i++)
            fputc('-', f);
        fputc('\n', f);
    }
    for (size_t i = 0; i < r.n; i++)
        console_row(f, &r.v[i], width);
    runs_free(&r);
    return ferror(f) ? -EIO : 0;
}

/* ---- CSV ---------------------------------------------------------------- */

/* Google Benchmark's CsvEscape: always quoted, quotes doubled; and, as
 * every benchlab CSV writer, a formula-looking cell written as text. */
static bool is_user_counter(const char *name)
{
    return strcmp(name, "bytes_per_second") != 0 && strcmp(name, "items_per_second") != 0;
}

static const struct gb_counter *find_counter(const struct gb_run *x, const char *name)
{
    for (size_t c = 0; c < x->n_counters; c++)
        if (strcmp(x->counters[c].name, name) == 0)
            return &x->counters[c];
    return NULL;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int bl_gbench_csv_write(FILE *f, const bl_results *results)
{
    struct gb_runs r = {0};
    int err = build(&r, results);
    if (err)
        return err;
    /* the user counters' columns: every name any row has, sorted */
    size_t n_names = 0, cap = 0;
    const char **names = NULL;
    for (size_t i = 0; !err && i < r.n; i++)
        for (size_t c = 0; !err && c < r.v[i].n_counters; c++) {
            const char *nm = r.v[i].counters[c].name;
            bool seen = !is_user_counter(nm);
            for (size_t k = 0; k < n_names && !seen; k++)
                seen = strcmp(names[k], nm) == 0;
            if (seen)
                continue;
            if (bl__grow((void **)&names, &cap, n_names + 1, sizeof *names))
                err = -ENOMEM;
            else
                names[n_names++] = nm;
        }
    if (err) {
        free(names);
        runs_free(&r);
        return err;
    }
    if (n_names)
        qsort(names, n_names, sizeof *names, by_string);
    fputs("name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,"
          "label,error_occurred,error_message",
          f);
    for (size_t k = 0; k < n_names; k++) {
        fputc(',', f);
        bl__csv_field_quoted(f, names[k]);
    }
    fputc('\n', f);
    for (size_t i = 0; i < r.n; i++) {
        const struct gb_run *x = &r.v[i];
        bl__csv_field_quoted(f, x->name);
        fputc(',', f);
        if (x->kind == RUN_ERROR) {
            /* Google Benchmark's: empty cells up to error_occurred (the
             * header's 10 columns less 3), then "true" and the message;
             * 1.8's skip is not an error */
            fputs(x->skipped ? ",,,,,,,false," : ",,,,,,,true,", f);
            bl__csv_field_quoted(f, x->error);
            fputc('\n', f);
            continue;
        }
        if (x->kind != RUN_BIGO && x->kind != RUN_RMS)
            fprintf(f, "%llu", x->iterations);
        /* a percentage aggregate as Google Benchmark 1.7.1's CSV writes it:
         * the fraction times the unit's count per second over the
         * repetitions (GetAdjustedRealTime; its console and JSON show the
         * fraction) */
        double mul = x->kind == RUN_AGGREGATE && x->percentage
                         ? 1e9 * bl__gbench_unit_scale(x->unit) / (double)x->iterations
                         : x->scale;
        fprintf(f, ",%g,%g,", x->real * mul, x->cpu * mul);
        if (x->kind == RUN_BIGO)
            fputs(big_o_name(x->curve), f);
        else if (x->kind != RUN_RMS)
            fputs(x->unit, f);
        const struct gb_counter *bps = find_counter(x, "bytes_per_second");
        const struct gb_counter *ips = find_counter(x, "items_per_second");
        fputc(',', f);
        if (bps)
            fprintf(f, "%g", bps->value);
        fputc(',', f);
        if (ips)
            fprintf(f, "%g", ips->value);
        fputc(',', f);
        if (x->label)
            bl__csv_field_quoted(f, x->label);
        fputs(",,", f);
        for (size_t k = 0; k < n_names; k++) {
            const struct gb_counter *c = find_counter(x, names[k]);
            fputc(',', f);
            if (c)
                fprintf(f, "%g", c->value);
        }
        fputc('\n', f);
    }
    free(names);
    runs_free(&r);
    return ferror(f) ? -EIO : 0;
}

/* ---- the JSON's extra rows ---------------------------------------------- */

static void json_row(FILE *f, const struct gb_run *x, int family, int instance)
{
    double k = x->percentage ? 1 : x->scale;
    fputs(",\n    {\n      \"name\": ", f);
    bl__json_string(f, x->name);
    fprintf(f, ",\n      \"family_index\": %d,\n      \"per_family_instance_index\": %d,\n", family,
            instance);
    fputs("      \"run_name\": ", f);
    bl__json_string(f, x->run_name);
    fprintf(f, ",\n      \"run_type\": \"aggregate\",\n      \"repetitions\": %zu,\n",
            x->repetitions);
    fprintf(f, "      \"threads\": %d,\n      \"aggregate_name\": ", x->threads);
    bl__json_string(f, x->aggregate);
    fprintf(f, ",\n      \"aggregate_unit\": \"%s\",\n", x->percentage ? "percentage" : "time");
    if (x->kind == RUN_BIGO) {
        fputs("      \"cpu_coefficient\": ", f);
        bl__json_number(f, x->cpu * k);
        fputs(",\n      \"real_coefficient\": ", f);
        bl__json_number(f, x->real * k);
        fprintf(f, ",\n      \"big_o\": \"%s\",\n      \"time_unit\": \"%s\"", big_o_name(x->curve),
                x->unit);
    } else if (x->kind == RUN_RMS) {
        fputs("      \"rms\": ", f);
        bl__json_number(f, x->cpu);
    } else {
        fprintf(f, "      \"iterations\": %llu,\n      \"real_time\": ", x->iterations);
        bl__json_number(f, x->real * k);
        fputs(",\n      \"cpu_time\": ", f);
        bl__json_number(f, x->cpu * k);
        fprintf(f, ",\n      \"time_unit\": \"%s\"", x->unit);
        for (size_t c = 0; c < x->n_counters; c++) {
            fputs(",\n      ", f);
            bl__json_string(f, x->counters[c].name);
            fputs(": ", f);
            bl__json_number(f, x->counters[c].value);
        }
    }
    if (x->label) {
        fputs(",\n      \"label\": ", f);
        bl__json_string(f, x->label);
    }
    fputs("\n    }", f);
}

int bl__gbench_json_extras(FILE *f, const bl_results *res, size_t b, const int *family,
                           const int *instance)
{
    struct gb_runs r = {0};
    const bl_bench_result *br = &res->benches[b];
    int err = 0;
    if (br->statistics && br->statistics[0].name)
        err = add_bench(&r, res, br);
    for (size_t i = 0; !err && i < r.n; i++) /* the statistics of the definition's own */
        if (r.v[i].own_statistic)
            json_row(f, &r.v[i], family[b], instance[b]);
    runs_free(&r);
    /* a fit's rows have its first benchmark's indexes, as Google Benchmark's */
    for (size_t i = 0; !err && i < res->n_complexity; i++) {
        const bl_complexity_result *c = &res->complexity[i];
        size_t first = SIZE_MAX, last = 0;
        for (size_t k = 0; k < c->n_points; k++) {
            first = c->benches[k] < first ? c->benches[k] : first;
            last = c->benches[k] > last ? c->benches[k] : last;
        }
        if (!c->n_points || last != b)
            continue;
        err = add_fit(&r, res, c);
        for (size_t k = 0; !err && k < r.n; k++)
            json_row(f, &r.v[k], family[first], instance[first]);
        runs_free(&r);
    }
    return err;
}
