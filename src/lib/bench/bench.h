/*
 * bench.h - internals of the authoring side: the registry of definitions,
 * expanded instances (one per parameter combination) and the worker.
 */
#ifndef BENCHLAB_BENCH_BENCH_H
#define BENCHLAB_BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "benchlab.h"
#include "benchlab/run.h"

/* The worker's exit status when the body closed or replaced its channel
 * descriptor (state.c, bl__send): the runner names that cause. */
#define BL__EXIT_CHANNEL_LOST 121

/* The most launches a definition's .count may ask for (as --count). */
#define BL__MAX_COUNT 100000

/* One benchmark instance: a definition with one value per parameter. */
struct bl__instance {
    const bl_bench_def *def;
    char *name;              /* "BenchmarkSort/size=1000/algo=merge" */
    const bl_param *params;  /* def's, with ranges expanded into BL_PARAM_INT lists */
    const char *param_error; /* a bad range: the worker fails the benchmark with this */
    size_t n_params;
    size_t *value_index; /* per parameter of params, the chosen value */
    int threads;         /* threads running the body, as listed (checked by the worker) */
    bool threaded;       /* def has .threads: the name has /threads=T */
};

/* Every instance of every registered benchmark, in registration order.
 * Built on first use; lives until the process exits. */
const struct bl__instance *bl__registry_instances(size_t *n);
const struct bl__instance *bl__registry_find(const char *name);

/*
 * The suite's name for the pkg: line, in *name (caller frees): the name it
 * declares (BENCHLAB_SUITE, BENCHLAB_MAIN("name")), else the stem of the
 * source file of BENCHLAB_MAIN() ("sum.c" -> "sum"), else of the file of the
 * first benchmark registered; NULL when none of these exists. BL_EUSAGE with
 * a message in err for two different declared names or a control character.
 */
int bl__suite_name(char **name, char *err, size_t err_size);

/* Build the display name of def with the given value indices (into def's
 * parameters, ranges expanded) and, when
 * threaded, the "/threads=T" part. Caller frees. */
char *bl__instance_name(const bl_bench_def *def, const size_t *value_index, bool threaded,
                        int threads);
/* "sort_small" -> "BenchmarkSort_small"; the caller frees. */
char *bl__bench_base_name(const char *id);

/* Worker entry: measure `name`, writing messages on channel_fd. Returns the exit status. */
struct bl__worker_args {
    const char *name;
    int channel_fd;
    double time_s;
    double batch_ms;
    unsigned long long seed;
    int alloc;               /* the allocation pass instead of timing */
    int instr;               /* the instruction count (under callgrind) instead of timing */
    const char *counters;    /* the counters pass, with this list, instead of timing */
    int cmd_fd;              /* driven mode (benchlab ab): commands on this fd; -1: none */
    int profile;             /* the profile pass (enum bl__profile_mode): timing, profiled */
    unsigned long long reps; /* repetitions per batch from the tune file: no pilot; 0: pilot */
    unsigned long long iterations; /* --iterations: a fixed count, unless .iterations; 0: none */
};
/* Worker entry from the command line the runner gives a worker:
 * "PROG --benchlab-worker NAME --benchlab-fd FD ..." (worker.c). */
int bl__worker_main_argv(int argc, char **argv);

#endif /* BENCHLAB_BENCH_BENCH_H */
