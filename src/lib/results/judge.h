/* judge.h - the invalidation rule, shared by the worker (to count clean
 * batches while it measures) and the runner (authoritative). */
#ifndef BENCHLAB_RESULTS_JUDGE_H
#define BENCHLAB_RESULTS_JUDGE_H
#include <stdbool.h>

#include "benchlab/results.h"

/* enum bl_invalid bits for one batch; faults_are_normal: most batches fault. */
unsigned bl__sample_judge(const bl_sample *s, bool faults_are_normal);

#endif
