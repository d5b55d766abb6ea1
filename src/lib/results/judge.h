/* judge.h - the invalidation rule, shared by the worker (to count clean
 * batches while it measures) and the runner (authoritative). */
#ifndef BENCHLAB_RESULTS_JUDGE_H
#define BENCHLAB_RESULTS_JUDGE_H
#include <stdbool.h>

#include "benchlab/results.h"

/* enum bl_invalid bits for one batch, leaving out the reasons in `ignore`
 * (those a benchmark shows in most batches: its own nature). */
unsigned bl__sample_judge(const bl_sample *s, unsigned ignore);

#endif
