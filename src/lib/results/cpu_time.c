/*
 * cpu_time.c - a launch's on-CPU time per op (bl_launch_cpu_per_op, cpu/op):
 * the median over its clean measured batches of their CPU time per op, the
 * cost of reading the clocks and the loop overhead taken off (docs/engine.md,
 * "CPU time"). Split from results.c, which holds the time per op.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "benchlab/results.h"
#include "benchlab/stats.h"

/* A batch whose on-CPU time per op can be told: the thread's CPU clock
 * covers a batch's paused parts too, so a batch with pauses has none. */
static bool cpu_known(const bl_sample *s, bool take_disturbed)
{
    return (!s->invalid || take_disturbed) && s->reps > 0 && s->cpu_ns >= 0 && !s->pauses;
}

/* A batch's CPU time on the launch's clock: the process's (.process_cpu)
 * when the batch carries it; otherwise cpu_ns (the threads', or the
 * process's in results written before proc_cpu_ns). */
static double clock_ns(const bl_launch *l, const bl_sample *s)
{
    return l->cpu_clock == BL_CPU_PROCESS && s->proc_cpu_ns > 0 ? s->proc_cpu_ns : s->cpu_ns;
}

double bl_launch_cpu_per_op(const bl_launch *l)
{
    double *v = malloc((l->n_samples ? l->n_samples : 1) * sizeof *v);
    if (!v)
        return NAN;
    /* a launch kept with only disturbed batches (bl_launch_finish) takes
     * them all: time off CPU does not run the CPU clock */
    bool all = false;
    if (l->disturbed) {
        all = true;
        for (size_t i = 0; i < l->n_samples && all; i++)
            all = l->samples[i].stage != BL_STAGE_MEASURE || l->samples[i].invalid;
    }
    /* the CPU clock is read outside the wall clock's reads, so each batch's
     * CPU time carries their cost: the empty loop's excess over its wall
     * time is that cost */
    size_t n = 0;
    for (size_t i = 0; i < l->n_samples; i++)
        if (l->samples[i].stage == BL_STAGE_OVERHEAD && cpu_known(&l->samples[i], false))
            v[n++] = clock_ns(l, &l->samples[i]) - l->samples[i].ns;
    double reads = n ? bl_stats_median(v, n) : 0;
    reads = reads > 0 ? reads : 0;
    n = 0;
    for (size_t i = 0; i < l->n_samples; i++) {
        const bl_sample *s = &l->samples[i];
        if (s->stage != BL_STAGE_MEASURE || !cpu_known(s, all))
            continue;
        /* one thread cannot be on CPU longer than the wall time (per-op
         * hooks read the clocks once per op, not once per batch); the
         * process can, when other threads work for the body */
        double cpu =
            fmin(clock_ns(l, s) - reads, l->cpu_clock == BL_CPU_PROCESS ? INFINITY : s->ns);
        v[n++] = (cpu > 0 ? cpu : 0) / (double)s->reps;
    }
    double m = n ? bl_stats_median(v, n) : NAN;
    free(v);
    if (isfinite(m) && isfinite(l->overhead_ns))
        m = m > l->overhead_ns ? m - l->overhead_ns : 0;
    return m;
}
