/*
 * resolution.c - what subtracting the loop overhead resolves, for the
 * tables (format/run_rows.c) and the report (report/model.c): a body
 * whose centre is under half a core cycle per op did no measurable work
 * (its spreads are noise over zero), and a spread over a launch median
 * below half a cycle is given as a range in ns instead (docs/engine.md,
 * after the summary table). Half a cycle is half the launches' median
 * reference step (bl_launch.ref_ns), or 0.15 ns where the reference chain
 * was not timed.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "benchlab/results.h"
#include "benchlab/stats.h"
#include "results_int.h"

bool bl__no_measurable_work(const bl_estimate *e)
{
    if (!(e->centre >= 0))
        return false;
    return isnan(e->ref_cycles) ? e->centre < 0.15 : e->ref_cycles < 0.5;
}

int bl__spread_ranges(const bl_bench_result *b, const bl_estimate *e, double *time_range_ns,
                      double *cpu_range_ns)
{
    *time_range_ns = *cpu_range_ns = NAN;
    if (e->n_launches < 2)
        return 0;
    double *v = malloc(b->n_launches * sizeof *v);
    if (!v)
        return -ENOMEM;
    /* half a core cycle, as bl__no_measurable_work */
    size_t n = 0;
    for (size_t i = 0; i < b->n_launches; i++) {
        const bl_launch *l = &b->launches[i];
        if (!l->status && !l->skipped && !isnan(l->ns_per_op) && l->ref_ns > 0)
            v[n++] = l->ref_ns;
    }
    double resolved = n ? 0.5 * bl_stats_median(v, n) : 0.15;
    if (e->median < resolved)
        *time_range_ns = e->max - e->min;
    n = 0;
    for (size_t i = 0; i < b->n_launches; i++) {
        const bl_launch *l = &b->launches[i];
        double cpu = l->status || l->skipped || isnan(l->ns_per_op) ? NAN : bl_launch_cpu_per_op(l);
        if (!isnan(cpu))
            v[n++] = cpu;
    }
    if (n >= 2) {
        bl_stats_sort(v, n);
        if (bl_stats_quantile_sorted(v, n, 0.5) < resolved)
            *cpu_range_ns = v[n - 1] - v[0];
    }
    free(v);
    return 0;
}
