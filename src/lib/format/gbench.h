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
int bl__gbench_json_extras(FILE *f, const bl_results *res, size_t b, int family, int instance);

#endif
