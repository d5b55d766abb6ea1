/*
 * benchlab/results.h - the result model that the runner fills and every
 * writer, statistic and report reads.
 *
 * One bl_results holds the run's configuration lines and metadata and, per
 * benchmark instance (full name such as "BenchmarkSort/size=1000"), one
 * bl_launch per worker process. A launch keeps every batch the worker
 * measured, the invalidated ones too, so nothing measured is ever lost.
 * The structs are readable directly; change them only through functions.
 */
#ifndef BENCHLAB_RESULTS_H
#define BENCHLAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchlab/common.h"
#include "benchlab/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stages of a worker, as in BenchmarkDotNet: the char is what the channel carries. */
enum bl_stage {
    BL_STAGE_PILOT = 'p',           /* finding repetitions per batch */
    BL_STAGE_WARMUP = 'w',          /* workload warmup */
    BL_STAGE_OVERHEAD_WARMUP = 'o', /* empty-loop warmup */
    BL_STAGE_OVERHEAD = 'O',        /* empty-loop measurement */
    BL_STAGE_MEASURE = 'm',         /* workload measurement */
};

/* Why a measured batch was discarded (bits). */
enum bl_invalid {
    BL_INVALID_CTXSW = 1u << 0,     /* involuntary context switch during the batch */
    BL_INVALID_MIGRATION = 1u << 1, /* moved to another CPU */
    BL_INVALID_MAJFLT = 1u << 2,    /* major page fault (disk I/O) */
    BL_INVALID_MINFLT = 1u << 3,    /* page faults in a benchmark that normally has none */
    BL_INVALID_GAP = 1u << 4,       /* wall time exceeded on-CPU time: the thread was off CPU */
};
#define BL_INVALID_NREASONS 5
/* A short name for reason bit i (0..BL_INVALID_NREASONS-1): "context-switch", ... */
BL_API const char *bl_invalid_name(unsigned bit_index);

/* One batch: `reps` repetitions timed together. */
typedef struct bl_sample {
    char stage;      /* enum bl_stage */
    uint64_t reps;   /* repetitions in the batch */
    double ns;       /* wall time of the batch, paused time excluded */
    double cpu_ns;   /* on-CPU time of the thread over the batch; < 0 when unknown */
    uint32_t nivcsw; /* involuntary context switches */
    uint32_t migrations;
    uint32_t minflt;
    uint32_t majflt;
    uint32_t pauses;    /* bl_pause/bl_resume pairs inside the batch */
    unsigned invalid;   /* enum bl_invalid bits; 0 = valid */
    double ref_ns;      /* ns per step of the reference chain timed beside the batch (one step
                           is one core cycle); 0 when not measured */
    double proc_cpu_ns; /* with BL_CPU_PROCESS (bl_launch.cpu_clock): the process's CPU time
                           over the batch per thread, which cpu/op is taken from, while cpu_ns
                           stays the benchmark threads' on-CPU time the invalidation reads;
                           0 or less when not measured (cpu_ns is then the launch's clock, as
                           in results written before it) */
} bl_sample;

typedef struct bl_metric {
    char *unit;
    double value;   /* as written; for a rate or a counter, set by bl_launch_finish */
    unsigned flags; /* enum bl_metric_flags of benchlab.h: better=, rate */
    double per_op;  /* a rate's value per repetition, as the benchmark reported it */
    /* A counter (bl_report_counter): its flags (enum bl_counter_flags of
     * benchlab.h) and the sum of its threads' values, from which
     * bl_launch_finish computes `value` (bl_counter_finish). */
    bool is_counter;
    unsigned counter_flags;
    double counter_sum;
} bl_metric;

/* The time the rates of counters are over (Google Benchmark's choice). */
enum bl_counter_clock {
    BL_CLOCK_UNSAID = 0, /* results from before benchlab said: wall time */
    BL_CLOCK_CPU,        /* the CPU time of all threads (the default) */
    BL_CLOCK_REAL,       /* the wall time (.real_time, UseRealTime) */
    BL_CLOCK_MANUAL,     /* the body's reported time (.manual_time, UseManualTime) */
};

/* Whose CPU time a launch's samples carry in cpu_ns (cpu/op). */
enum bl_cpu_clock {
    BL_CPU_THREAD = 0, /* the benchmark's threads' (the default, and results from before) */
    BL_CPU_PROCESS,    /* the whole worker process's, every thread (.process_cpu,
                          MeasureProcessCPUTime): per op of one thread, it may exceed the
                          wall time when other threads work for the body */
};

/* The size of a benchmark instance, for complexity fits: what the worker
 * says about its size parameter and the registration's .complexity. */
typedef struct bl_size {
    char *param;       /* the integer parameter that is n ("size"); NULL: none */
    double n;          /* its value in this instance */
    int complexity;    /* enum bl_complexity asked by the registration; NONE: only --complexity */
    double user_g;     /* the registration's own curve at n; NAN without one */
    char *user_name;   /* how that curve is shown ("n^1.5"); NULL without one */
    char *group;       /* the fit's group when the registration names it (.complexity_group,
                          "BenchmarkBM_Sort"); NULL: the name without "/PARAM=N" */
    double n_sum;      /* a threaded benchmark's n summed over its threads: Google Benchmark's
                          n (its runner adds up each thread's SetComplexityN), for its BigO
                          rows; 0: not said (one thread; older suites: n x threads) */
    double user_g_sum; /* the registration's own curve at n_sum (where Google Benchmark calls
                          a Complexity(lambda)); NAN without one or when not said */
} bl_size;

/* One worker process. */
typedef struct bl_launch {
    int status;     /* 0, or BL_ECRASH, BL_ETIMEOUT, BL_EEXIT, BL_EPROTO, BL_EBENCH, BL_EINTR */
    bool disturbed; /* every measured batch was disturbed: the machine's noise, not
                       the benchmark. Beside a launch with a clean batch it is BL_EBENCH,
                       discarded, and the runner launches another in its place (up to 2
                       per benchmark); when no launch of the benchmark has one, the runner
                       keeps it (status 0) with times from all its batches, which include
                       time off CPU (docs/engine.md, "Invalidation") */
    bool skipped;   /* the benchmark called bl_skip() */
    char *message;  /* what went wrong, or the skip reason; NULL when fine */
    bl_sample *samples;
    size_t n_samples;
    size_t cap_samples;
    double clock_ns;      /* cost of one clock read, measured in the worker */
    double pause_ns;      /* timed cost of one bl_pause/bl_resume pair */
    double overhead_ns;   /* median per-op time of the empty loop */
    double ns_per_op;     /* median workload per op minus overhead, >= 0; NAN if none */
    double raw_ns_per_op; /* median workload per op before subtracting overhead */
    double ref_ns;        /* median ns per reference step beside the valid batches; NAN if none */
    double ref_cycles_per_op; /* time per op in reference cycles, overhead subtracted, >= 0
                                 (docs/engine.md); NAN when no reference was measured */
    uint64_t measured_reps;   /* repetitions in valid measured batches */
    uint64_t tuned_reps;      /* repetitions per batch the warmup settled on (before jitter);
                                 0 when not said (macrobenchmarks, older suites) */
    bool tune_stale;          /* the tune file's batch size was far off: sized anew */
    size_t n_measured;        /* measured batches, valid or not */
    size_t n_invalid;         /* measured batches discarded */
    size_t invalid_by[BL_INVALID_NREASONS];
    unsigned intrinsic;       /* bl_invalid bits seen in most batches: the benchmark's nature,
                                 not used to discard */
    double bytes_per_op;      /* 0 when not set */
    double items_per_op;      /* 0 when not set */
    double bytes_sum_per_op;  /* the sum over the threads' bytes per op; 0: not said */
    double items_sum_per_op;  /* the same for items */
    uint64_t loop_iterations; /* repetitions the loop ran per thread, all stages (the
                                 iterations counters are totals of); 0: not said */
    int counter_clock;        /* enum bl_counter_clock */
    int cpu_clock;            /* enum bl_cpu_clock of the samples' cpu_ns */
    int threads;              /* threads that ran the body together (.threads); 0: not threaded */
    bl_size size;             /* for complexity fits */
    bl_metric *metrics;
    size_t n_metrics;
    char *out; /* the first bytes the benchmark wrote to stdout (NUL-terminated) */
    char *err; /* ... and to stderr */
    size_t out_total, err_total; /* bytes written in all */
    double wall_s;               /* the worker's life, spawn to reap */
    int exit_code;               /* when it exited */
    int term_signal;             /* when a signal killed it, else 0 */
    char *label;                 /* what the benchmark said of this run (bl_set_label); NULL */
    char time_unit[4]; /* its .time_unit, "ns" "us" "ms" "s", for Google Benchmark's outputs;
                          "": the run's (bl_results.time_unit) */
} bl_launch;

typedef struct bl_bench_result {
    char *name; /* full name, "BenchmarkSort/size=1000/algo=merge" */
    bl_launch *launches;
    size_t n_launches;
    size_t cap_launches;
    /* The allocation pass (--alloc), a worker of its own: exact per-op counts
     * by Caliper's difference of k and k+d repetitions. */
    bool has_alloc;            /* counts are valid */
    double alloc_bytes_per_op; /* bytes requested per repetition */
    double allocs_per_op;      /* allocating calls per repetition */
    char *alloc_message;       /* why the pass reported nothing; NULL when fine */
    /* The counters pass (--counters): hardware events per repetition. */
    int n_counters;           /* 0 when not measured */
    char counter_unit[6][32]; /* "instructions/op", ... */
    double counter_per_op[6];
    bool counters_scaled;   /* multiplexed: scaled by time enabled/running */
    char *counters_message; /* why the pass reported nothing; NULL when fine */
    /* The profile pass (--profile): a raw profile of the measured batches. */
    char *profile_raw;     /* its path; NULL when nothing was recorded */
    char *profile_message; /* what went wrong (the raw file may still hold samples); NULL */
    /* The definition's own statistics over launches (.statistics of
     * benchlab.h), set by the suite's runner, which has the functions
     * (borrowed for the life of the program), or by benchlab run, whose
     * functions ask the suite (until it detaches them); NULL otherwise
     * (results read back from a file). */
    const struct bl_statistic *statistics;
    /* The benchmark's own plan where its definition set one that differs
     * from the run's (.time_s and .count of benchlab.h; Google Benchmark's
     * MinTime and Repetitions): the run's are the metadata time-budget-s
     * and launches. 0 each: the run's. */
    double own_time_s; /* its time budget in seconds, over all its launches */
    int own_count;     /* its launches */
    /* The job it ran in (bl_run_options.jobs, docs/jobs.md): a benchmark
     * is its name and its job, so one name appears once per job. NULL:
     * a run without jobs. */
    char *job;
} bl_bench_result;

/* A key/value pair: Go-format configuration lines and run metadata. */
typedef struct bl_label {
    char *key;
    char *value;
} bl_label;

/*
 * A complexity fit: the instances of one benchmark that differ only in
 * their size parameter, time per op against n (bl_results_fit_complexity).
 */
typedef struct bl_complexity_result {
    char *name;  /* the benchmark without its size part: "BenchmarkSort/algo=merge" */
    char *param; /* the size parameter: "size" */
    int mode;    /* what was asked: BL_COMPLEXITY_AUTO or one curve */
    size_t n_points;
    double *n;              /* the sizes, ascending */
    double *ns_per_op;      /* the time per op at each (its bl_bench_estimate centre) */
    bl_complexity_fit best; /* lowest normalised RMS; .curve is 0 when nothing was fitted */
    bl_complexity_fit fits[7];
    size_t n_fits;     /* every curve fitted, in enum order */
    char *user_name;   /* the benchmark's own curve, when it has one */
    double worst_miss; /* the best curve's largest |t - c g(n)| / t, larger half of the sizes */
    double worst_n;    /* ... and the size where it is */
    bool good;       /* best.rms <= BL_COMPLEXITY_GOOD_RMS, worst_miss <= BL_COMPLEXITY_GOOD_MISS */
    char *message;   /* why nothing was fitted, or the warning; NULL when fine */
    size_t *benches; /* the fitted benchmarks, indexes into results->benches in run order
                        (n_points of them) */
} bl_complexity_result;

/* A fit is good when its normalised RMS is at most this and it misses none
 * of the larger half of the sizes by more than BL_COMPLEXITY_GOOD_MISS of
 * its time (docs/instruments.md). */
#define BL_COMPLEXITY_GOOD_RMS 0.15
#define BL_COMPLEXITY_GOOD_MISS 0.30

/* Unit metadata, as the Go format's "Unit hits/s better=higher" lines. */
typedef struct bl_unit_meta {
    char *unit;
    char *key;
    char *value;
} bl_unit_meta;

typedef struct bl_results {
    bl_label *config; /* stable per suite and machine: goos, goarch, cpu, pkg */
    size_t n_config;
    bl_label *meta; /* varies per run: date, host, benchlab-version, command */
    size_t n_meta;
    bl_bench_result *benches; /* in the order they were first run */
    size_t n_benches;
    size_t cap_benches;
    bl_unit_meta *units; /* in the order declared */
    size_t n_units;
    bl_complexity_result *complexity; /* bl_results_fit_complexity */
    size_t n_complexity;
    /* The unit of Google Benchmark's outputs (--time-unit): "ns", "us", "ms"
     * or "s" for benchmarks that set none and for the rows of complexity
     * fits; "": ns. Kept by benchlab JSON ("time_unit"), not by the store. */
    char time_unit[4];
    /* Internal: the hash index behind name and key lookups, kept by
     * bl_results_bench, bl_results_set_config and bl_results_set_meta
     * (arrays only appended to elsewhere stay indexed). NULL is fine. */
    struct bl__results_index *index;
} bl_results;

/* NULL only when memory runs out. */
BL_API bl_results *bl_results_create(void);
BL_API void bl_results_destroy(bl_results *results);
/* Set a configuration (or metadata) label; strings are copied. 0 or -ENOMEM. */
BL_API int bl_results_set_config(bl_results *results, const char *key, const char *value);
BL_API int bl_results_set_meta(bl_results *results, const char *key, const char *value);
BL_API const char *bl_results_get_meta(const bl_results *results, const char *key);
BL_API const char *bl_results_get_config(const bl_results *results, const char *key);
/*
 * Append every benchmark of `from` to `into` (copied): the launches of a
 * benchmark `into` already has follow its own, its allocation and counter
 * values are taken when `into` has none; configuration, metadata and unit
 * metadata keys `into` lacks are added. For `benchlab merge` and shards.
 * 0 or -ENOMEM (then `into` holds part of `from`).
 */
BL_API int bl_results_merge(bl_results *into, const bl_results *from);
/*
 * Declare unit metadata (strings copied). As in benchstat, the first value
 * of a (unit, key) pair stays: returns 0 when added or the same, 1 when a
 * different value was already set (kept), -ENOMEM.
 */
BL_API int bl_results_set_unit_meta(bl_results *results, const char *unit, const char *key,
                                    const char *value);
/* Declare the better= direction of every unit `launch` writes that has one:
 * its flagged metrics, items/s and ops/s (higher), hardware counters of
 * `bench` (lower). Returns the first conflict's unit (borrowed), or NULL. */
BL_API const char *bl_results_declare_units(bl_results *results, const bl_bench_result *bench,
                                            const bl_launch *launch);
/* Find by full name; NULL when absent. */
BL_API bl_bench_result *bl_results_find(bl_results *results, const char *name);
/* Find or add the benchmark `name` (copied). NULL when memory runs out. */
BL_API bl_bench_result *bl_results_bench(bl_results *results, const char *name);
/* The same for the benchmark `name` of job `job` (NULL: no job, as above). */
BL_API bl_bench_result *bl_results_find_job(bl_results *results, const char *job, const char *name);
BL_API bl_bench_result *bl_results_bench_job(bl_results *results, const char *job,
                                             const char *name);
/* Append a zeroed launch to `bench`; NULL when memory runs out. */
BL_API bl_launch *bl_results_add_launch(bl_bench_result *bench);
/* Append a sample to a launch. 0 or -ENOMEM. */
BL_API int bl_launch_add_sample(bl_launch *launch, const bl_sample *sample);
/* Set a metric on a launch (copied; replaces the same unit). 0 or -ENOMEM. */
BL_API int bl_launch_set_metric(bl_launch *launch, const char *unit, double value);
/* The same with bl_report_metric_ex's flags; a rate's `value` is per repetition. */
BL_API int bl_launch_set_metric_ex(bl_launch *launch, const char *unit, double value,
                                   unsigned flags);

/* Set a counter on a launch (copied; replaces the same unit): `sum` is its
 * threads' sum, `counter_flags` enum bl_counter_flags, `metric_flags` how
 * outputs show it; its value waits for bl_launch_finish. 0 or -ENOMEM. */
BL_API int bl_launch_set_counter(bl_launch *launch, const char *unit, double sum,
                                 unsigned metric_flags, unsigned counter_flags);

/*
 * Google Benchmark 1.7.1's arithmetic of a counter (counter.cc, Finish):
 * `sum` the threads' sum, `iterations` all threads' repetitions,
 * `seconds` the time of the clock, `threads` how many ran. A rate is
 * divided by seconds, kAvgThreads by threads, kIsIterationInvariant
 * multiplied by iterations, kAvgIterations divided by them, and kInvert
 * inverts last (1 / 0 is inf, as in Google Benchmark).
 */
BL_API double bl_counter_finish(double sum, unsigned counter_flags, double iterations,
                                double seconds, double threads);

/*
 * The seconds a launch's counters are over, per repetition of one thread
 * (so S = this x loop_iterations): its time per op (ns_per_op, the wall time
 * of the threads together) with BL_CLOCK_REAL, BL_CLOCK_MANUAL or
 * BL_CLOCK_UNSAID; with BL_CLOCK_CPU the CPU time per op of one thread
 * (bl_launch_cpu_per_op) times the threads, or ns_per_op where the CPU
 * time is unknown (Google Benchmark's outputs then show the wall time as
 * the CPU time).
 * A time overhead subtraction took to 0 counts as 0.001 ns. NAN when no
 * time was measured.
 */
BL_API double bl_launch_counter_seconds_per_op(const bl_launch *launch);

/*
 * Judge every measured batch of `launch` (invalidation) and compute its
 * overhead, raw and net time per op. The runner calls this when a worker
 * ends; readers of saved samples may call it again.
 */
BL_API void bl_launch_finish(bl_launch *launch);

/*
 * Throughput of a launch, counting the operations of all its threads (T =
 * launch->threads, 1 when 0): MB/s = bytes per op x T / ns per op x 1e3
 * (10^6 bytes per second, as Go) when bytes were set; items/s = items per
 * op x T x 1e9 / ns per op when items were set; ops/s = T x 1e9 / ns per
 * op for a multi-threaded benchmark that set neither. NAN where a rate
 * does not apply or no time was measured. A time that overhead
 * subtraction took to zero counts as 0.001 ns, as the Go-format writer
 * prints it.
 */
typedef struct bl_rates {
    double mb_per_s;
    double items_per_s;
    double ops_per_s;
} bl_rates;
BL_API void bl_launch_rates(const bl_launch *launch, bl_rates *rates);

/*
 * Fit the time per op of each group of instances that differ only in their
 * size parameter (bl_launch.size) to the curves their registration asked
 * for; with `all` (--complexity), groups that asked for nothing are fitted
 * to every curve too. Replaces results->complexity. A group with too few
 * sizes (2 for one curve, 3 for BL_COMPLEXITY_AUTO) gets a message instead
 * of a fit; a best fit with normalised RMS above BL_COMPLEXITY_GOOD_RMS is
 * kept and warned about. 0 or -ENOMEM.
 */
BL_API int bl_results_fit_complexity(bl_results *results, bool all);
/*
 * Fit again as the run did: bl_results_fit_complexity with `all` when the
 * run's metadata says "complexity-fit" is "all" (run --complexity). The
 * fits are derived from the launches' sizes and times and are not kept
 * with them, so whatever reads results back (benchlab JSON, the store) or
 * merges them calls this to have the run's fits. 0 or -ENOMEM.
 */
BL_API int bl_results_refit_complexity(bl_results *results);

/* Per-op values of the valid measured batches, pause cost and overhead
 * subtracted. Caller frees *out with free(). Returns the count, or -ENOMEM. */
BL_API long bl_launch_per_op(const bl_launch *launch, double **out);

/*
 * On-CPU time per op of a launch: the median over its valid measured
 * batches without pauses (the thread's CPU clock covers a batch's paused
 * parts too) of cpu_ns / reps, less the loop overhead as for the wall time,
 * not below 0. A batch's CPU time first loses the cost of reading the clocks
 * around it (what the empty loop's overhead batches spend on the CPU clock
 * beyond their wall time) and is taken as its wall time at most: one thread
 * is not on CPU longer than the wall clock ran. With .threads, a batch's
 * cpu_ns is its wall time less the longest stretch any thread spent off
 * CPU. With BL_CPU_PROCESS (launch->cpu_clock) cpu_ns is the process's CPU
 * time over the batch divided by the threads, and is not capped: other
 * threads may work beside the body. NAN when no batch has it (results read
 * from the Go format, a failed launch).
 */
BL_API double bl_launch_cpu_per_op(const bl_launch *launch);

/*
 * The software counters of a launch (perf_event task-clock and
 * cpu-migrations, getrusage's involuntary context switches and page
 * faults), summed over its measured batches, clean or discarded: what the
 * operating system did to the measurement. Computed from the samples, so a
 * launch read back from JSON gives the same. Divide by reps for per-op
 * values. For a multi-threaded benchmark the counts are summed over its
 * threads and task_clock_ns is each batch's wall time less the largest
 * off-CPU gap of any thread (docs/engine.md).
 */
typedef struct bl_software {
    size_t batches;            /* measured batches */
    uint64_t reps;             /* their repetitions (per thread) */
    double wall_ns;            /* their wall time, pauses excluded */
    double task_clock_ns;      /* their on-CPU time; NAN when some batch did not know it */
    uint64_t context_switches; /* involuntary */
    uint64_t migrations;       /* batches that moved to another CPU (or moves, with perf) */
    uint64_t page_faults;      /* minor */
    uint64_t major_faults;
} bl_software;
BL_API void bl_launch_software(const bl_launch *launch, bl_software *out);

/* How the interval of a benchmark's centre was computed. */
enum bl_ci_method {
    BL_CI_NONE = 0,       /* no value, or too few batches for any interval */
    BL_CI_LAUNCHES = 1,   /* 6+ launches (at 95%): distribution-free interval of the median
                             of the launch centres: includes the variance between processes */
    BL_CI_BATCHES = 2,    /* one launch only: order statistics of its batches, which
                             leave the variance between processes out */
    BL_CI_LAUNCHES_T = 3, /* 2 to 5 launches: Tukey-McLaughlin t interval of the 20% trimmed
                             mean of the launch centres (the plain mean below 5) */
};

/*
 * The estimate of one benchmark over its launches (docs/engine.md,
 * "Launches and intervals"). Each launch's centre is its ns_per_op (the
 * median of its clean batches, overhead subtracted); the launches are the
 * independent values. With enough of them for a distribution-free
 * interval (6 at 95%, the default count) the centre is their median, as
 * benchstat reads the same result lines; with 2 to 5, their 20% trimmed
 * mean and its t interval. All times in ns per op.
 */
#define BL_LAUNCH_TRIM 0.2
typedef struct bl_estimate {
    size_t n_launches;   /* launches that gave a value */
    double centre;       /* median of the launch centres (2-5 launches: their trimmed
                            mean): what the summary shows */
    double ci_lo, ci_hi; /* interval of the centre; NAN when there is none */
    double confidence;   /* the level asked for */
    int ci_method;       /* enum bl_ci_method */
    double median;       /* median of the launch centres */
    double mean;         /* mean of the launch centres */
    double ref_cycles;   /* ref-cycles/op of the launches, centred as the time is; NAN
                            when the launches have none */
    double min, max;     /* smallest and largest launch centre */
    double spread;       /* (max - min) / median of the launch centres; 0 for one */
    double cv;           /* standard deviation / mean of the launch centres; 0 for one */
    double batch_min;    /* fastest clean batch per op over all launches, overhead subtracted */
    double batch_cv;     /* median over launches of the batches' robust CV, 1.4826 MAD/median */
    size_t n_batches;    /* clean measured batches over all launches */
    size_t n_measured;   /* measured batches over all launches, clean or not */
    double overhead_ns;  /* mean over launches of the subtracted loop overhead */
    double cpu_ns;       /* on-CPU time per op (bl_launch_cpu_per_op), centred over the
                            launches as the time is; NAN when the launches have none */
    bool disturbed;      /* the launches had no clean batch (bl_launch.disturbed, kept
                            because no launch had one): the times include time off CPU */
    double cpu_spread;   /* (max - min) / median of the launches' on-CPU times per op, as
                            spread is of their times; NAN with fewer than 2 launches that
                            have one */
    int cpu_clock;       /* enum bl_cpu_clock of cpu_ns: the launches'; launches that
                            disagree (merged runs) have no cpu_ns (NAN) */
} bl_estimate;

/*
 * Estimate `bench` from its successful launches at `confidence` (such as
 * 0.95). Returns 0; BL_ENOTFOUND when no launch gave a value (*out then
 * has n_launches 0 and NAN times); -ENOMEM.
 */
BL_API int bl_bench_estimate(const bl_bench_result *bench, double confidence, bl_estimate *out);

/*
 * What a benchmark's batches say beyond their centre (docs/engine.md,
 * "Drift and multimodality"): a trend within the launches, and more than
 * one mode in the batch times or in the launch centres. Computed from the
 * clean measured batches of the successful launches, so results read back
 * from JSON give the same; results without batches (Go format) have none
 * tested.
 */
#define BL_DRIFT_MIN_PCT 2.0 /* drift is said from this size up ... */
#define BL_DRIFT_MAX_P 0.01  /* ... when Mann-Whitney's p is below this */
#define BL_MODALITY_MIN_N 12 /* values needed to judge modes (launch centres: --count 12) */
#define BL_MODES_MIN_PCT 2.0 /* modes are said when the outer two are this far apart or more */
typedef struct bl_diagnosis {
    /* Drift within launches: each launch's batches over that launch's
     * median (so that launches at different levels, the variance between
     * processes, do not count), the first thirds pooled against the last
     * thirds. Needs 3+ batches in each third and 6+ in all. */
    bool drift_tested;
    bool drift;       /* |drift_pct| >= BL_DRIFT_MIN_PCT and drift_p < BL_DRIFT_MAX_P */
    double drift_pct; /* median of the last thirds over that of the first, -1, in %; NAN */
    double drift_p;   /* two-sided Mann-Whitney U; NAN when not tested */
    size_t drift_n;   /* batches in each of the two groups */
    /* Modes of the batch times: each batch over its launch's mean (not the
     * median, which jumps from one mode to the other from launch to launch
     * when they hold about half the batches each), pooled; the modes are
     * then put back in ns per op at the median of the launch means. */
    bool batches_tested;     /* BL_MODALITY_MIN_N clean batches or more */
    bool batches_multimodal; /* mvalue >= BL_MVALUE_BIMODAL, 2+ prominent peaks, and the
                              * outer modes BL_MODES_MIN_PCT apart or more */
    bl_modality batches;     /* modes[] in ns per op */
    /* Modes of the launch centres (ns_per_op), with BL_MODALITY_MIN_N
     * launches or more: the whole process lands in one mode (memory
     * layout, pages). */
    bool launches_tested;
    bool launches_multimodal;
    bl_modality launches; /* modes[] in ns per op */
} bl_diagnosis;

/* Diagnose `bench` (not modified). Returns 0 or -ENOMEM; *out is always
 * set (nothing tested when the benchmark has no clean batches). */
BL_API int bl_bench_diagnose(const bl_bench_result *bench, bl_diagnosis *out);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_RESULTS_H */
