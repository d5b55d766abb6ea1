/* gbench.h - what gbench_json_write.c takes from gbench_text_write.c. */
#ifndef BENCHLAB_FORMAT_GBENCH_H
#define BENCHLAB_FORMAT_GBENCH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "benchlab/results.h"

/* A benchlab name as Google Benchmark's: "BenchmarkBM_x/8#01" -> "BM_x/8",
 * without benchlab's "Benchmark" prefix and Go's "#NN" suffix of a
 * repeated name, each only where something else is left ("Benchmark" and
 * "#01" stay: Google Benchmark's readers skip an entry without a name).
 * NULL when memory runs out; the caller frees. */
char *bl__gbench_name(const char *full);

/* A counter as Google Benchmark names it. */
struct gb_counter {
    char name[72];
    double value;
    unsigned flags; /* the metric's: BL_RATE, BL_INVERT, BL_ONEK_1024 */
};

/* The counters of a launch as Google Benchmark names them: bytes and items
 * per second, rates under their name without "/s" (an inverted one without
 * "ns/", in seconds), the rest as is; with `sorted`, by name as its
 * std::map, else in the launch's order. How many were put in out[0..cap). */
size_t bl__gbench_counters(const bl_launch *l, struct gb_counter *out, size_t cap, int sorted);
/* Whether k is a key Google Benchmark's JSON gives an entry of its own
 * (name, times, error, skip, aggregate and BigO fields), never a user
 * counter: the writer renames a counter so named ("user:NAME"), compare's
 * reader does not take it for one. bytes_per_second and items_per_second
 * are counters in Google Benchmark's JSON: not among them. */
bool bl__gbench_entry_key(const char *k);

/*
 * A launch as one Google Benchmark repetition, in Google Benchmark's thread
 * convention (v1.7.1's BenchmarkRunner: each thread's iterations, wall time
 * and CPU time are summed, the wall time divided by the threads, then both
 * times by the summed iterations). With T threads: `iterations` counts
 * every thread's (benchlab's repetitions per thread x T); `real` is the
 * team's wall time per operation of any thread, benchlab's time per op
 * (the wall time one thread's op took, all T running) over T; `cpu` is
 * benchlab's on-CPU time per op, what one thread spent on the CPU per op,
 * as Google Benchmark's summed CPU time over the summed iterations is
 * (the real time where it was not measured: `cpu_is_real`). T = 1 leaves
 * every value as it is.
 */
struct gb_times {
    unsigned long long iterations;
    double real, cpu; /* ns */
    int threads;
    int cpu_is_real;
};
void bl__gbench_times(const bl_launch *l, struct gb_times *out);

/* Google Benchmark's four aggregates of x[0..n) (0 mean, 1 median,
 * 2 stddev, 3 cv), or the definition's own statistic st when not NULL. */
double bl__gbench_aggregate(int which, const struct bl_statistic *st, const double *x, size_t n);

/* The unit Google Benchmark's outputs show launch l's times in: its
 * .time_unit, else the run's (bl_results.time_unit, --time-unit), else ns;
 * l NULL: the run's. */
const char *bl__gbench_unit(const bl_results *res, const bl_launch *l);
/* What turns ns into `unit` ("ms": 1e-6). */
double bl__gbench_unit_scale(const char *unit);
/* The label of an aggregate of br: the one every finished launch has, else
 * NULL (Google Benchmark's statistics.cc: only when all are the same). */
const char *bl__gbench_same_label(const bl_bench_result *br);

/*
 * The rows Google Benchmark writes after benchmark b's repetitions and
 * aggregates, each preceded by ",\n": the definition's own statistics
 * (bl_statistic, with two launches or more), then the BigO and RMS of every
 * complexity fit whose last benchmark is b. family[i] and
 * instance[i] are benchmark i's indexes in the JSON. 0 or -ENOMEM.
 */
int bl__gbench_json_extras(FILE *f, const bl_results *res, size_t b, const int *family,
                           const int *instance);

#endif
