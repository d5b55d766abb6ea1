/*
 * complexity_groups.c - grouping a run's instances by size and fitting their
 * times to the complexity curves (bl_results_fit_complexity).
 *
 * A group is the instances of one benchmark that differ only in the size
 * parameter the worker named (bl_launch.size): the name without its
 * "/size=N" part, the other parameters and the thread count kept, so
 * Sort/size=N/algo=merge and Sort/size=N/algo=qsort are two fits. The time
 * of an instance is the centre the summary shows (bl_bench_estimate: the
 * median of its launches' times per op).
 * A registration may name the group itself (.complexity_group, Google
 * Benchmark's families, whose sizes are no parameter): bl_size.group.
 * The fit itself is stats/complexity_fit.c (Google Benchmark's method).
 *
 * Judging a fit. The best curve is Google Benchmark's (lowest normalised
 * RMS), but that RMS weighs each size by its time, so with sizes growing
 * geometrically the largest one or two decide everything: a curve through
 * the largest point can miss the small sizes by a factor and still show an
 * RMS under 1%. So a fit is called good only when its RMS is at most
 * BL_COMPLEXITY_GOOD_RMS (15%) and it misses none of the larger half of
 * the sizes by more than BL_COMPLEXITY_GOOD_MISS (30%) of that size's
 * time. The smaller sizes are exempt: a fit through the origin leaves out
 * the fixed cost of a call, which dominates there (a hash of 64 bytes),
 * and says nothing about how the cost grows. Timing noise is a few
 * percent; a miss of 30% means the time does not follow the curve as n
 * grows, most often because the sizes cross a cache level and the cost
 * per element changes. When another curve also passes both tests with an
 * RMS within twice the best's (plus one point), the data do not prefer
 * one and both are named: over a narrow range of sizes O(n) and
 * O(n log n) cannot be told apart.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/results.h"
#include "benchlab/stats.h"
#include "results_int.h"

void bl__complexity_result_fini(bl_complexity_result *c)
{
    free(c->name);
    free(c->param);
    free(c->n);
    free(c->ns_per_op);
    free(c->user_name);
    free(c->message);
    free(c->benches);
}

/* The first successful launch that names a size, or NULL. */
static const bl_launch *sized_launch(const bl_bench_result *b)
{
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (!l->status && !l->skipped && !isnan(l->ns_per_op) && l->size.param)
            return l;
    }
    return NULL;
}

/* "BenchmarkSort/size=100/algo=merge" without "/size=100"; caller frees. */
static char *group_name(const char *name, const char *param)
{
    size_t plen = strlen(param);
    const char *p = name;
    while ((p = strchr(p, '/')) != NULL) {
        if (strncmp(p + 1, param, plen) == 0 && p[1 + plen] == '=')
            break;
        p++;
    }
    if (!p)
        return bl__strdup(name);
    const char *end = strchr(p + 1, '/');
    struct bl__buf b = {0};
    bl__buf_append(&b, name, (size_t)(p - name));
    if (end)
        bl__buf_puts(&b, end);
    return b.data;
}

/* The time per op the summary shows: the centre over the launches. */
static double centre_time(const bl_bench_result *b)
{
    bl_estimate e;
    return bl_bench_estimate(b, 0.95, &e) == 0 ? e.centre : NAN;
}

/* The largest relative miss of fit f over the larger half of the points
 * (sorted by size), and where. */
static double worst_miss(const bl_complexity_fit *f, const double *n, const double *t,
                         const double *g, size_t count, double *where)
{
    double worst = 0;
    for (size_t i = count / 2; i < count; i++) {
        double y =
            f->coefficient * (f->curve == BL_OUSER ? g[i] : bl_complexity_curve(f->curve, n[i]));
        double miss = t[i] > 0 ? fabs(t[i] - y) / t[i] : (y != 0 ? INFINITY : 0);
        if (miss > worst || i == count / 2) {
            worst = miss;
            if (where)
                *where = n[i];
        }
    }
    return worst;
}

struct point {
    double n, t, g;
};

static int by_n(const void *a, const void *b)
{
    double x = ((const struct point *)a)->n, y = ((const struct point *)b)->n;
    return (x > y) - (x < y);
}

static void set_message(bl_complexity_result *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_message(bl_complexity_result *c, const char *fmt, ...)
{
    struct bl__buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    bl__buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(c->message);
    c->message = b.data;
}

/* A group is within one job (bl_bench_result.job). */
static bool same_job(const bl_bench_result *a, const bl_bench_result *b)
{
    return a->job ? b->job && strcmp(a->job, b->job) == 0 : !b->job;
}

/* Fit one group: the benchmarks at idx[0..n). */
static int fit_group(bl_results *r, const size_t *idx, size_t n, int mode, bl_complexity_result *c)
{
    struct point *pt = calloc(n, sizeof *pt);
    c->n = calloc(n, sizeof *c->n);
    c->ns_per_op = calloc(n, sizeof *c->ns_per_op);
    c->benches = calloc(n, sizeof *c->benches);
    double *xs = calloc(n, sizeof *xs), *ts = calloc(n, sizeof *ts), *gs = calloc(n, sizeof *gs);
    int rc = (!pt || !c->n || !c->ns_per_op || !c->benches || !xs || !ts || !gs) ? -ENOMEM : 0;
    for (size_t i = 0; !rc && i < n; i++)
        c->benches[i] = idx[i];
    bool user = true;
    for (size_t i = 0; !rc && i < n; i++) {
        const bl_bench_result *b = &r->benches[idx[i]];
        const bl_launch *l = sized_launch(b);
        pt[i].n = l->size.n;
        pt[i].t = centre_time(b);
        pt[i].g = l->size.user_g;
        user &= !isnan(l->size.user_g);
    }
    if (!rc) {
        qsort(pt, n, sizeof *pt, by_n);
        for (size_t i = 0; i < n; i++) {
            c->n[i] = xs[i] = pt[i].n;
            c->ns_per_op[i] = ts[i] = pt[i].t;
            gs[i] = pt[i].g;
        }
        c->n_points = n;
    }
    size_t need = mode == BL_COMPLEXITY_AUTO ? 3 : 2;
    if (rc) {
    } else if (n < need) {
        set_message(c, "needs at least %zu sizes of %s to fit %s, has %zu", need, c->param,
                    mode == BL_COMPLEXITY_AUTO ? "the curves" : bl_complexity_name(mode), n);
    } else if (mode == BL_OUSER && !user) {
        set_message(c, "the curve of its own (.complexity_curve) gave no value");
    } else if (xs[0] < 1) {
        set_message(c, "sizes must be 1 or more to fit log n and n^k: %s=%g", c->param, xs[0]);
    } else if (bl_stats_fit_complexity(mode, xs, ts, user ? gs : NULL, n, &c->best, c->fits,
                                       &c->n_fits) != 0) {
        c->best.curve = 0;
        set_message(c, "no curve could be fitted to these times");
    } else {
        c->worst_miss = worst_miss(&c->best, xs, ts, gs, n, &c->worst_n);
        c->good = c->best.rms <= BL_COMPLEXITY_GOOD_RMS && c->worst_miss <= BL_COMPLEXITY_GOOD_MISS;
        const char *best_name = c->best.curve == BL_OUSER && c->user_name
                                    ? c->user_name
                                    : bl_complexity_name(c->best.curve);
        const bl_complexity_fit *other = NULL;
        for (size_t k = 0; c->good && k < c->n_fits && !other; k++)
            if (c->fits[k].curve != c->best.curve && c->fits[k].rms <= BL_COMPLEXITY_GOOD_RMS &&
                c->fits[k].rms <= 2 * c->best.rms + 0.01 &&
                worst_miss(&c->fits[k], xs, ts, gs, n, NULL) <= BL_COMPLEXITY_GOOD_MISS)
                other = &c->fits[k];
        if (c->best.rms > BL_COMPLEXITY_GOOD_RMS)
            set_message(c,
                        "no curve fits well: the best, %s, leaves an RMS of %.0f%% (above "
                        "%.0f%%); the cost per element changes over these sizes (a cache "
                        "level?) or the times are too noisy",
                        best_name, 100 * c->best.rms, 100 * BL_COMPLEXITY_GOOD_RMS);
        else if (!c->good)
            set_message(c,
                        "no curve fits well: the best, %s, misses %s=%g by %.0f%% (more than "
                        "%.0f%%), though its RMS is %.1f%%: the largest sizes decide the fit, "
                        "and the cost per element changes over these sizes (a cache level?)",
                        best_name, c->param, c->worst_n, 100 * c->worst_miss,
                        100 * BL_COMPLEXITY_GOOD_MISS, 100 * c->best.rms);
        else if (other)
            set_message(c,
                        "%s and %s both fit (RMS %.1f%% and %.1f%%): sizes over a wider range "
                        "would tell them apart",
                        best_name,
                        other->curve == BL_OUSER && c->user_name ? c->user_name
                                                                 : bl_complexity_name(other->curve),
                        100 * c->best.rms, 100 * other->rms);
    }
    free(pt);
    free(xs);
    free(ts);
    free(gs);
    return rc;
}

int bl_results_fit_complexity(bl_results *r, bool all)
{
    for (size_t i = 0; i < r->n_complexity; i++)
        bl__complexity_result_fini(&r->complexity[i]);
    free(r->complexity);
    r->complexity = NULL;
    r->n_complexity = 0;
    size_t cap = 0;
    size_t *idx = malloc((r->n_benches ? r->n_benches : 1) * sizeof *idx);
    char **groups = calloc(r->n_benches ? r->n_benches : 1, sizeof *groups);
    int rc = idx && groups ? 0 : -ENOMEM;
    /* each benchmark's group, or NULL when it is not fitted */
    for (size_t i = 0; !rc && i < r->n_benches; i++) {
        const bl_launch *l = sized_launch(&r->benches[i]);
        if (!l || (l->size.complexity == BL_COMPLEXITY_NONE && !all))
            continue;
        groups[i] = l->size.group ? bl__strdup(l->size.group)
                                  : group_name(r->benches[i].name, l->size.param);
        if (!groups[i])
            rc = -ENOMEM;
    }
    for (size_t i = 0; !rc && i < r->n_benches; i++) {
        if (!groups[i])
            continue;
        size_t n = 0;
        for (size_t j = i; j < r->n_benches; j++)
            if (groups[j] && strcmp(groups[j], groups[i]) == 0 &&
                same_job(&r->benches[i], &r->benches[j])) {
                idx[n++] = j;
                if (j != i) {
                    free(groups[j]);
                    groups[j] = NULL;
                }
            }
        if (bl__grow((void **)&r->complexity, &cap, r->n_complexity + 1, sizeof *r->complexity)) {
            rc = -ENOMEM;
            break;
        }
        bl_complexity_result *c = &r->complexity[r->n_complexity++];
        memset(c, 0, sizeof *c);
        const bl_launch *l = sized_launch(&r->benches[i]);
        c->name = groups[i];
        groups[i] = NULL;
        c->param = bl__strdup(l->size.param);
        c->user_name = bl__strdup(l->size.user_name);
        c->mode =
            l->size.complexity == BL_COMPLEXITY_NONE ? BL_COMPLEXITY_AUTO : l->size.complexity;
        rc = c->param ? fit_group(r, idx, n, c->mode, c) : -ENOMEM;
    }
    for (size_t i = 0; groups && i < r->n_benches; i++)
        free(groups[i]);
    free(groups);
    free(idx);
    return rc;
}

int bl_results_refit_complexity(bl_results *r)
{
    const char *fit = bl_results_get_meta(r, "complexity-fit");
    return bl_results_fit_complexity(r, fit && strcmp(fit, "all") == 0);
}
