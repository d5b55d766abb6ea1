/* gbench.h - what gbench_json_write.c takes from gbench_text_write.c. */
#ifndef BENCHLAB_FORMAT_GBENCH_H
#define BENCHLAB_FORMAT_GBENCH_H
#include <stddef.h>
#include <stdio.h>

#include "benchlab/results.h"

/*
 * The rows Google Benchmark writes after benchmark b's repetitions and
 * aggregates, each preceded by ",\n": the definition's own statistics
 * (bl_statistic, with two launches or more), then the BigO and RMS of every
 * complexity fit whose last benchmark is b. 0 or -ENOMEM.
 */
/* Google Benchmark's four aggregates of x[0..n) (0 mean, 1 median,
 * 2 stddev, 3 cv), or the definition's own statistic st when not NULL. */
double bl__gbench_aggregate(int which, const struct bl_statistic *st, const double *x, size_t n);

int bl__gbench_json_extras(FILE *f, const bl_results *res, size_t b, int family, int instance);

#endif
