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

/* A disturbance `count` of `n` measured batches show is the benchmark's
 * own nature (not a reason to discard) when most batches show it, and at
 * least 3 do: one or two disturbed batches alone are just disturbed. */
static inline bool bl__is_intrinsic(size_t count, size_t n)
{
    return count >= 3 && count * 2 > n;
}

/* Free what a launch owns (not the launch itself). */
void bl__launch_fini(bl_launch *l);

void bl__complexity_result_fini(bl_complexity_result *c);

#endif
