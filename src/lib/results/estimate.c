/*
 * estimate.c - a benchmark's estimate over its launches (bl_bench_estimate):
 * the centre of the launches' per-op times with its interval, and how
 * much launches and batches spread. Each launch's own number comes from
 * bl_launch_finish (results.c); this file only combines them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab.h"
#include "benchlab/results.h"
#include "benchlab/stats.h"
#include "results_int.h"

/* Robust coefficient of variation of a launch's clean batches: 1.4826 MAD
 * over the median (1.4826 makes the MAD a standard deviation for normal
 * data); NAN when there are none or the median is not positive. */
static double launch_batch_cv(const bl_launch *l, double *fastest, size_t *n_clean)
{
    double *v;
    long n = bl_launch_per_op(l, &v);
    *n_clean = n > 0 ? (size_t)n : 0;
    if (n <= 0) {
        if (n == 0)
            free(v);
        return NAN;
    }
    bl_summary s;
    double cv = NAN;
    if (bl_stats_summarize(v, (size_t)n, 0.95, &s) == 0) {
        *fastest = s.min;
        if (s.median > 0)
            cv = 1.4826 * s.mad / s.median;
    }
    free(v);
    return cv;
}

int bl_bench_estimate(const bl_bench_result *b, double confidence, bl_estimate *out)
{
    memset(out, 0, sizeof *out);
    out->confidence = confidence;
    out->centre = out->ci_lo = out->ci_hi = out->median = out->mean = out->min = out->max = NAN;
    out->spread = out->cv = out->batch_min = out->batch_cv = out->overhead_ns = NAN;
    out->ref_cycles = out->cpu_ns = out->cpu_spread = NAN;
    double *centres = malloc((b->n_launches ? b->n_launches : 1) * sizeof *centres);
    double *cvs = malloc((b->n_launches ? b->n_launches : 1) * sizeof *cvs);
    if (!centres || !cvs) {
        free(centres);
        free(cvs);
        return -ENOMEM;
    }
    size_t n = 0, n_cv = 0;
    const bl_launch *only = NULL;
    double ovh = 0, fastest = INFINITY;
    for (size_t i = 0; i < b->n_launches; i++) {
        const bl_launch *l = &b->launches[i];
        if (l->status || l->skipped || isnan(l->ns_per_op))
            continue;
        centres[n++] = l->ns_per_op;
        only = l;
        out->disturbed |= l->disturbed;
        ovh += isnan(l->overhead_ns) ? 0 : l->overhead_ns;
        out->n_measured += l->n_measured;
        double lmin = NAN;
        size_t clean = 0;
        double cv = launch_batch_cv(l, &lmin, &clean);
        out->n_batches += clean;
        if (!isnan(cv))
            cvs[n_cv++] = cv;
        if (lmin < fastest)
            fastest = lmin;
    }
    out->n_launches = n;
    int rc = 0;
    if (n == 0) {
        rc = BL_ENOTFOUND;
        goto done;
    }
    out->overhead_ns = ovh / (double)n;
    out->batch_min = isinf(fastest) ? NAN : (fastest > 0 ? fastest : 0);
    out->batch_cv = n_cv ? bl_stats_median(cvs, n_cv) : NAN;
    bl_summary s;
    if (bl_stats_summarize(centres, n, confidence, &s) != 0) {
        rc = -ENOMEM;
        goto done;
    }
    out->median = s.median;
    out->min = s.min;
    out->max = s.max;
    out->spread = s.median > 0 ? (s.max - s.min) / s.median : 0;
    out->cv = s.mean > 0 ? s.stddev / s.mean : 0;
    out->mean = s.mean;
    /* reference cycles: the same centre over the launches that have them */
    size_t n_ref = 0;
    for (size_t i = 0; i < b->n_launches; i++) {
        const bl_launch *l = &b->launches[i];
        if (!l->status && !l->skipped && !isnan(l->ns_per_op) && !isnan(l->ref_cycles_per_op))
            cvs[n_ref++] = l->ref_cycles_per_op; /* cvs is free again */
    }
    double ref_spread = NAN; /* not shown */
    bl__launch_centre_spread(cvs, n_ref, confidence, &out->ref_cycles, &ref_spread);
    /* on-CPU time: the same centre again, over launches of one CPU clock */
    size_t n_cpu = 0;
    bool mixed = false;
    for (size_t i = 0; i < b->n_launches; i++) {
        const bl_launch *l = &b->launches[i];
        double cpu = l->status || l->skipped || isnan(l->ns_per_op) ? NAN : bl_launch_cpu_per_op(l);
        if (isnan(cpu))
            continue;
        mixed |= n_cpu > 0 && l->cpu_clock != out->cpu_clock;
        out->cpu_clock = l->cpu_clock;
        cvs[n_cpu++] = cpu;
    }
    if (!mixed)
        bl__launch_centre_spread(cvs, n_cpu, confidence, &out->cpu_ns, &out->cpu_spread);
    double lo, hi, m;
    if (bl_stats_median_interval(centres, n, confidence, &m, &lo, &hi) == 0) {
        /* enough launches (6 at 95%): the median and its distribution-free
         * interval, robust to a third of the launches slowed by something
         * no counter sees */
        out->centre = m;
        out->ci_lo = lo > 0 ? lo : 0;
        out->ci_hi = hi;
        out->ci_method = BL_CI_LAUNCHES;
    } else if (n >= 2) {
        /* 2 to 5 launches: the (20% trimmed) mean and its t interval */
        bl_stats_trimmed_interval(centres, n, BL_LAUNCH_TRIM, confidence, &out->centre, &lo, &hi);
        out->ci_lo = lo > 0 ? lo : 0;
        out->ci_hi = hi;
        out->ci_method = BL_CI_LAUNCHES_T;
    } else {
        out->centre = centres[0];
        /* One launch: the distribution-free interval of its batches' median,
         * with the launch's overhead subtracted like its centre. It leaves
         * the variance between processes out; the summary says so. */
        double *v;
        long k = bl_launch_per_op(only, &v);
        if (k > 0 && bl_stats_summarize(v, (size_t)k, confidence, &s) == 0 && !isnan(s.ci_lo)) {
            out->ci_lo = s.ci_lo > 0 ? s.ci_lo : 0;
            out->ci_hi = s.ci_hi > 0 ? s.ci_hi : 0;
            out->ci_method = BL_CI_BATCHES;
        }
        if (k >= 0)
            free(v);
    }
done:
    free(centres);
    free(cvs);
    return rc;
}
