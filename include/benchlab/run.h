/*
 * benchlab/run.h - running benchmarks: the runner, its options and observer.
 *
 * bl_run() plans a run (filter, parameters, launches), spawns one worker
 * process per launch by re-executing the suite, watches it (time limit,
 * crash, early exit), reads its measurements from a dedicated pipe, and
 * fills a bl_results. It never measures anything itself.
 */
#ifndef BENCHLAB_RUN_H
#define BENCHLAB_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "benchlab/common.h"
#include "benchlab/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Launches per benchmark by default. Batches inside one process are not
 * independent samples; launches are, so every interval is computed over
 * launches. Six, because benchstat and `benchlab compare` need six values
 * for a 95% interval of the median, and because at a fixed budget six
 * launches gave the steadiest centre on the reference machine
 * (docs/engine.md, "Launches and intervals").
 */
#define BL_DEFAULT_LAUNCHES 6

struct bl_run_job;

typedef struct bl_run_options {
    const char *exe; /* suite executable; NULL: this program (/proc/self/exe) */
    const char
        *filter;      /* POSIX extended regex on full names; "-RE": those not matching; NULL: all */
    double time_s;    /* measuring budget per benchmark, split evenly across its
                         launches (pilot, warmup, batches); default 0.5. Operations of
                         5 ms or more get twice this (docs/engine.md) */
    double batch_ms;  /* target length of one timed batch; default 1 */
    double timeout_s; /* a worker is killed after this long; default 60 */
    int count;        /* launches (worker processes) per benchmark, each one result
                         line, interleaved across benchmarks; default (and when < 1)
                         BL_DEFAULT_LAUNCHES */
    unsigned long long seed; /* for jitter; 0 picks one from the clock */
    const char *pkg;         /* value of the pkg: configuration line; default: the suite's
                                name (BENCHLAB_SUITE in benchlab.h), else basename of exe */
    int alloc;               /* run the allocation pass: B/op and allocs/op */
    const char *counters;    /* hardware counters pass: a list, or "" for all; NULL: none */
    const char *cpus;        /* pin workers to these CPUs ("2", "0-3,6"); NULL: no pinning */
    const char *tune_file;   /* the tune file: batch sizes cached per machine and benchmark,
                                read before and written after the run; NULL: none */
    /* The profile pass: one more worker per benchmark, with a profiler that
     * records only while measured batches run; its timings are not kept. */
    const char *profile;     /* "sample" or "trace"; NULL: no profile pass */
    const char *profile_dir; /* where the raw profiles go (created); NULL: "<suite>.profile" */
    unsigned profile_hz;     /* sample mode: samples per second; 0: 1000 */
    int complexity;          /* fit every benchmark with one integer parameter, not only
                                those registered with .complexity (results->complexity) */
    /* --shard K/N: run only the benchmarks whose full name bl_shard_of()
     * puts in shard K (1-based) of N, after the filter; 0: all. */
    int shard_index, shard_count;
    /* a fixed count: each launch is one measurement of exactly this many
     * repetitions per thread (a benchmark's .iterations wins); 0: benchlab
     * sizes its batches (docs/engine.md, "Fixed iterations") */
    unsigned long long iterations;
    /* beside each launch, a worker under valgrind's callgrind counts the
     * measured repetitions: the launch's metrics instructions/op,
     * L1-misses/op, LL-misses/op and est-cycles/op (docs/instruments.md,
     * "Instruction counts"). Without valgrind, or in a libbenchlab built
     * without valgrind/callgrind.h, bl_run refuses (BL_EUNSUPPORTED)
     * before measuring. */
    int instructions;
    /* More variables for every worker's environment, "NAME=VALUE",
     * NULL-terminated; NULL: none. Set after the runner's own, before an
     * instrument's (whose LD_PRELOAD goes first in the list). */
    const char *const *env;
    /* Jobs (docs/jobs.md): with n_jobs >= 1, the run is the benchmarks of
     * every job's suite, matched by name, each launched `count` times per
     * job, the jobs' launches interleaved in one schedule; `exe`, `env`
     * and `cpus` above are then each job's default. A benchmark missing in
     * some jobs runs in the others, and the results' metadata "job-missing"
     * names it. Each result carries its job (bl_bench_result.job). */
    const struct bl_run_job *jobs;
    size_t n_jobs;
    const char *baseline; /* the job the others are compared with; NULL: the first */
} bl_run_options;

/* One job: a suite, and how its workers run. */
typedef struct bl_run_job {
    const char *name;       /* [A-Za-z0-9_.+-], at most 64 bytes, unique in the run */
    const char *exe;        /* its suite executable */
    const char *const *env; /* its workers' extra environment (after the run's); NULL: none */
    const char *cpus;       /* its --cpu; NULL: the run's */
    const char *error;      /* set: the job could not be made (its build failed): it is
                               named with this reason among the run's job-errors, not run */
} bl_run_job;

/*
 * The shard (0 .. n_shards-1) of a benchmark: its full name's FNV-1a hash
 * modulo n_shards. A name's shard depends on the name alone, so adding or
 * removing benchmarks never moves the others between shards, and every
 * machine of a CI matrix computes the same split.
 */
BL_API int bl_shard_of(const char *name, int n_shards);

/* Progress callbacks; any may be NULL. Called on the runner's thread. */
typedef struct bl_run_observer {
    void *ctx;
    /* The plan is made and the configuration known: `total` launches will run. */
    void (*on_begin)(void *ctx, const bl_results *results, size_t total);
    /* A launch is about to start: index in [0, total). */
    void (*on_start)(void *ctx, const char *name, size_t index, size_t total);
    /* A launch ended (fine or not); `launch` is borrowed until the results are destroyed. */
    void (*on_launch)(void *ctx, const bl_results *results, const bl_bench_result *bench,
                      const bl_launch *launch);
    /* The profile pass of `bench` ended: bench->profile_raw names the raw
     * profile (NULL when nothing was recorded), bench->profile_message says
     * what went wrong. Turn it into profiles with libbenchlab-profile
     * (bl_profile_load) or `benchlab profile --load`. */
    void (*on_profile)(void *ctx, const bl_results *results, const bl_bench_result *bench);
} bl_run_observer;

BL_API void bl_run_options_init(bl_run_options *opts);

/*
 * Run the benchmarks. *results receives everything measured, even when the
 * run was interrupted or some benchmarks failed (caller frees with
 * bl_results_destroy). Returns 0 when every launch succeeded or was
 * skipped, 1 when some failed, BL_EINTR when interrupted (SIGINT/SIGTERM),
 * or a negative error when the run could not start (no benchmark matches
 * the filter: BL_ENOTFOUND; a bad regex: BL_EUSAGE; the suite cannot be
 * listed: BL_EPROTO; unknown or repeated --counters names, an unknown
 * profile mode or a profile directory that cannot be made: BL_EUSAGE).
 * `err` receives a message for the negative cases. When the machine cannot
 * count the asked hardware counters, the run goes on and the results'
 * metadata "counters-unsupported" says why.
 */
BL_API int bl_run(const bl_run_options *opts, const bl_run_observer *observer, bl_results **results,
                  char *err, size_t err_size);

/*
 * The benchmark instances of a suite, parameters expanded, in order. With
 * exe == NULL, this program's registry. *names is an array of strings; free
 * with bl_names_free(). Returns the count, or a negative error.
 */
BL_API long bl_list(const char *exe, char ***names);
BL_API void bl_names_free(char **names, size_t n);

/*
 * The runner's command line, shared by a suite's own main (exe == NULL)
 * and `benchlab run SUITE` (exe == SUITE): parses argv (argv[0] is the
 * program name), runs, writes the Go format to stdout or --out, the table
 * and progress to stderr. Returns the exit status: 0 fine, 1 some
 * benchmark failed, 2 bad usage or the run could not start, 130 after
 * Ctrl-C (with everything finished so far written).
 */
BL_API int bl_run_main(int argc, char **argv, const char *exe);

/* A duration as the command lines take it: "500ms", "2s", "1.5" (seconds),
 * "100us", "20ns", "1m" -> seconds; -1 when malformed or negative. */
BL_API double bl_parse_duration(const char *s);

/*
 * --save: storing a finished run in a results store. The store lives in
 * libbenchlab-store (SQLite and libpq), which libbenchlab does not link;
 * bl_run_main calls the saver registered here, or else loads
 * libbenchlab-store.so.0 ($BENCHLAB_STORE_LIB, then beside the
 * libbenchlab that is loaded, then ../lib beside this program, then the
 * library search path) and calls its bl_store_run_saver. The saver is
 * called twice: before the first measurement with results NULL, to check
 * that the store opens and can be written (nothing is saved), and at the
 * end. The results have been written to stdout or --out before it saves,
 * so a failing store loses nothing.
 */
typedef struct bl_run_save_request {
    const char *store;   /* --store SPEC; NULL: $BENCHLAB_STORE or the project's default */
    const char *run_uid; /* --run-id NAME: join the run of that name (shards); NULL: a new run */
    const char *tag;     /* --tag TEXT; NULL: none */
    const char *shard;   /* "K/N" after --shard; NULL: the whole suite ran */
} bl_run_save_request;

/* Save `results`; 0 and *run_id, and the store's name in `where`; or an
 * error with one line in `err`. With `results` NULL, only check that the
 * store can be saved into (0 and `where`, *run_id untouched). */
typedef int (*bl_run_saver)(const bl_run_save_request *request, const bl_results *results,
                            int64_t *run_id, char *where, size_t where_size, char *err,
                            size_t err_size);

/* Register the saver for --save (NULL: find libbenchlab-store at run time). */
BL_API void bl_run_set_saver(bl_run_saver saver);

/* Install SIGINT/SIGTERM handlers that make a running bl_run stop after
 * killing its current worker. Called by bl_main and the CLI. */
BL_API void bl_run_install_signal_handlers(void);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_RUN_H */
