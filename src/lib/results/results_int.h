/* results_int.h - internals of results.c other modules use: the
 * invalidation rule, shared by the worker (to count clean batches while it
 * measures) and the runner (authoritative), and freeing a launch's memory. */
#ifndef BENCHLAB_RESULTS_RESULTS_INT_H
#define BENCHLAB_RESULTS_RESULTS_INT_H
#include <stdbool.h>
#include <stddef.h>

#include "benchlab/results.h"

/* enum bl_invalid bits for one batch, leaving out the reasons in `ignore`
 * (those a benchmark shows in most batches: its own nature). */
unsigned bl__sample_judge(const bl_sample *s, unsigned ignore);

/*
 * Whether reason bit `k` (enum bl_invalid: 1u << k), shown by `count` of
 * `n` measured batches, is the benchmark's own nature rather than a reason
 * to discard. Page faults are work the benchmark does (it maps or touches
 * new memory): its nature when most batches show them. Time lost off CPU
 * (a preemption, a migration, a gap) always inflates a batch; it is the
 * nature only of a benchmark in which (almost) no batch escapes it, one
 * that waits or runs more threads than CPUs: fewer than 3 batches without
 * it. On a loaded machine most batches may be preempted; the few clean
 * ones are then the measurement. Never for fewer than 3 batches showing it.
 */
static inline bool bl__is_intrinsic(unsigned k, size_t count, size_t n)
{
    if (count < 3)
        return false;
    if ((1u << k) & (BL_INVALID_MINFLT | BL_INVALID_MAJFLT))
        return count * 2 > n;
    return n - count < 3;
}

/*
 * The centre and spread bl_bench_estimate gives a per-launch quantity (v,
 * n of them, reordered): the median of enough launches (6 at 95%), the
 * BL_LAUNCH_TRIM trimmed mean of fewer; the spread (max - min) / median
 * from two launches on. Leaves *centre (n == 0) and *spread (n < 2) as
 * they were. The report uses it for the Go lines' cpu-ns/op.
 */
void bl__launch_centre_spread(double *v, size_t n, double confidence, double *centre,
                              double *spread);

/*
 * Whether the body of a benchmark with estimate e did no measurable work:
 * a centre under half a core cycle per op beyond the empty loop (half a
 * reference cycle, or 0.15 ns when the reference chain was not timed).
 * Its spreads are then noise over zero, and the tables show none.
 */
bool bl__no_measurable_work(const bl_estimate *e);

/*
 * The spreads of b's launches in ns, where a spread over their median
 * would measure noise over zero: when the median of the launches' time per
 * op (e, bl_bench_estimate's, for b) is below half a core cycle (half the
 * median of the launches' reference step ref_ns; 0.15 ns without one),
 * which is what subtracting the loop overhead resolves, *time_range_ns is
 * their range max - min in ns; likewise *cpu_range_ns for their on-CPU
 * time per op. Each is NAN where the spread over the median stands, and
 * with fewer than two launches. -ENOMEM or 0.
 */
int bl__spread_ranges(const bl_bench_result *b, const bl_estimate *e, double *time_range_ns,
                      double *cpu_range_ns);

/* Free what a launch owns (not the launch itself). */
void bl__launch_fini(bl_launch *l);

void bl__complexity_result_fini(bl_complexity_result *c);

#endif
