/*
 * state.h - the benchmark state and the worker's measuring engine. Shared
 * by state.c (the loop, the stages, the API a benchmark calls) and
 * worker.c (the worker process around it).
 */
#ifndef BENCHLAB_BENCH_STATE_H
#define BENCHLAB_BENCH_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"
#include "../instruments/alloc.h"
#include "../instruments/hw_counters.h"
#include "../instruments/profiler.h"
#include "bench.h"

#define BL__MAX_METRICS 32
#define BL__WARM_WINDOW 4
#define BL__WARM_WINDOW_GIVEN 2 /* driven, batch size given: ab's later pairs */

enum { ST_RUN = 1, ST_SUB = 2 };
/* STAGE_DRIVEN (benchlab ab): after warmup, one measured batch per command
 * of the runner, read from the command pipe; the worker blocks in between. */
enum { STAGE_PILOT = 1, STAGE_WARMUP, STAGE_MEASURE, STAGE_DRIVEN, STAGE_DONE };
/* The allocation pass: a warm repetition, then k, then k+d counted ones.
 * The instruction count (MODE_INSTR, under callgrind) has the same phases,
 * each counted batch after a counted overhead batch of as many
 * repetitions. */
enum { MODE_TIME = 0, MODE_ALLOC = 1, MODE_COUNTERS = 2, MODE_INSTR = 3 };
enum { ALLOC_WARM = 0, ALLOC_BASE, ALLOC_MORE };

/* Disturbance counters read around every batch, outside the timed region
 * (task clock, migrations, context switches, faults: what tells a disturbed
 * batch; not the hardware counters of --counters, instruments/hw_counters.h);
 * each thread has its own. */
struct bl__disturb_counters {
    int perf_fd;      /* perf_event group leader (task-clock), or -1 */
    int perf_migr_fd; /* cpu-migrations in the group, or -1 */
    bool process_cpu; /* .process_cpu: the process's CPU clock is read too (state.c) */
};
struct bl__snapshot {
    uint64_t cpu_ns;
    uint64_t proc_ns; /* the process's CPU clock (.process_cpu; state.c reads it); 0 otherwise */
    uint64_t migrations;
    long nivcsw, minflt, majflt;
    int cpu;
};
/* Fills every field of *s but proc_ns, which the caller reads nearest the
 * timed region (state.c, snap_before and snap_after). */
void bl__disturb_read(const struct bl__disturb_counters *c, struct bl__snapshot *s);

/* Disturbances summed over the timed segments of a batch only: per-op
 * hooks and paused regions are outside, so a preemption there does not
 * count against the measurement. */
struct bl__acc {
    uint64_t cpu_ns, migrations;
    uint64_t proc_ns; /* the process's CPU time over the segments (.process_cpu) */
    long nivcsw, minflt, majflt;
};

/* The measuring policy of one worker. */
struct bl__engine {
    int fd;     /* the channel */
    int cmd_fd; /* driven mode: the runner's commands; -1 otherwise */
    /* the reference chain timed beside each measured batch (refchain.c) */
    double clock_ns;      /* cost of one clock read */
    uint64_t ref_loops;   /* loops of the chain in one stretch (about 2.5 us) */
    uint64_t ref_sink;    /* the chain's value, kept so it is computed */
    double ref_before;    /* ns per step right before the current batch; 0: none */
    double last_batch_ns; /* length of the last workload batch */
    double target_ns;     /* batch length we aim for */
    double budget_ns;     /* measuring budget of the worker */
    uint64_t t_begin;     /* when the first batch started */
    uint64_t stolen_ns;   /* time others had our CPU: not charged to the budget (state.c) */
    bool group_of_one;    /* one thread: batch boundaries are always on that thread */
    /* threads per CPU the worker may use (its affinity mask), when there are
     * more threads than CPUs; 0 otherwise. Batches are then sized by each
     * thread's CPU time (state.c, sizing_per_op). */
    double oversubscribed;
    int sched_fd;         /* the thread's /proc schedstat (a group of one); -1: per batch */
    bool sched_tried;     /* sched_fd was opened, or could not be */
    uint64_t sched_delay; /* its run-queue wait at the last batch boundary */
    int stage;
    uint64_t reps;           /* current batch size for warmup/measure (before jitter) */
    bool macro;              /* one invocation per batch, always */
    uint64_t given_reps;     /* batch size from the tune file (no pilot ran); 0: none */
    uint64_t batch_multiple; /* bl_set_batch_multiple: every batch a multiple of it; 0/1: any */
    bool given_checked;      /* a clean warmup batch confirmed (or replaced) it */
    uint64_t fixed_reps;     /* .iterations: one measured batch of exactly this many; 0: none */
    bool ovh_warmed;         /* fixed_reps: group_next ran the empty loop once more before the
                                first overhead batch, sent as a warm-up ('o'): a worker's first
                                batch is cold, its counter reads cost ~2x, and the timed overhead
                                batch is where cpu/op learns their cost (docs/engine.md) */
    double warmup_min_ns;    /* .warmup_s: the warmup lasts at least this long */
    bool manual;             /* .manual_time: batch time is what bl_set_iteration_time said */
    bool process_cpu;        /* .process_cpu: a batch also carries the process's CPU time per
                                thread (state.c, combine); its cpu_ns stays the threads' */
    double warm[64];         /* per-op times seen in warmup */
    int n_warm;
    uint64_t warm_begin;
    uint64_t warm_stolen_ns; /* stolen_ns when the warmup began */
    double warm_on_cpu[8];   /* per-op times of the last warmup batches that stayed on CPU */
    int n_warm_on_cpu;       /* how many were seen in all (a ring of the last 8) */
    uint64_t n_measured, n_valid;
    uint64_t reason_count[8]; /* per bl_invalid bit, over measured batches */
    struct bl__rng rng;
    bl_bench_fn overhead_fn;
    /* the allocation pass */
    int mode;
    struct bl__alloc_api alloc;
    int alloc_phase;
    bool counting; /* a counted batch is running */
    uint64_t alloc_k, alloc_d;
    struct bl__alloc_counts alloc_base, alloc_more;
    /* the counters pass shares the phases of the allocation pass */
    int hw_idx[BL__MAX_HW_COUNTERS];
    int n_hw;
    double hw_base[BL__MAX_HW_COUNTERS], hw_more[BL__MAX_HW_COUNTERS];
    int hw_scaled;
    /* MODE_INSTR: the overhead batch before the counted batch is counted */
    bool counting_overhead;
    const char *cg_out; /* callgrind's --callgrind-out-file (BENCHLAB_CG_OUT) */
    int cg_dumps;       /* dumps written so far: the last is cg_out.cg_dumps */
    uint64_t cg_reps;   /* the runner's repetitions to count (BENCHLAB_CG_REPS); 0: choose */
    /* the profile pass: the profiler runs only in the timed segments of
     * measured batches */
    bool profiling;
    struct bl__profiler prof;
};

/*
 * The threads that run one benchmark's body, in lockstep: every batch
 * starts for all of them when the last one arrives at the barrier, and
 * that last one judges the batch that ended and plans the next (the serial
 * part of bl__barrier_wait). A single-threaded benchmark is a group of one.
 */
struct bl__group {
    struct bl__barrier bar;
    int n;
    bl_state **st; /* the threads' states, by index */
    struct bl__engine *eng;
    bool done;         /* no more batches: every bl_loop returns false */
    bool batch_open;   /* a workload batch ran since the last rendezvous */
    uint64_t reps;     /* repetitions per thread in the next batch */
    uint64_t ovh_reps; /* the overhead batch before it; 0: none */
};

/*
 * Thread i's part of the group's batch that just ended, in ns: for a
 * workload batch, from the common start (the earliest clock start of any
 * thread) to its finish, its own pauses and hooks left out; for the
 * overhead batch, its own empty loop only, from its own clock start (the
 * wake-up from the barrier is not the loop's cost). The batch lasts as long
 * as the longest part.
 */
uint64_t bl__group_span(const struct bl__group *g, int i, bool overhead);

struct bl_state {
    struct bl__state_hot hot; /* must stay first: bl_loop() reads it */
    int kind;                 /* ST_RUN: the benchmark; ST_SUB: an overhead or calibration batch */
    const struct bl__instance *inst;
    struct bl__engine *eng;  /* NULL for ST_SUB */
    struct bl__group *group; /* the threads in lockstep; NULL for ST_SUB */
    int thread_index, n_threads;
    bool per_op; /* time each repetition on its own */
    /* this thread's counters: disturbances, and the counters pass */
    struct bl__disturb_counters ctr;
    struct bl__hw_group hw;
    double hw_vals[BL__MAX_HW_COUNTERS]; /* of the last counted batch */
    int hw_scaled;
    bool cg_on; /* MODE_INSTR: callgrind collects this thread now */
    /* the current batch */
    uint64_t batch_reps, ops_done;
    uint64_t t_start, batch_ns;
    uint64_t t_first; /* the first clock start of the batch */
    uint32_t pauses;
    bool in_batch, paused, finished, started;
    struct bl__snapshot before; /* counters at the start of the open timed segment */
    bool seg_open;
    bool prof_running; /* the profile pass: this thread's profiler is resumed */
    struct bl__acc acc;
    /* this thread's part of the overhead batch */
    uint64_t ovh_ns, ovh_first;
    uint32_t ovh_pauses;
    struct bl__acc ovh_acc;
    uint64_t total_iters;
    /* .manual_time: what bl_set_iteration_time reported in the current batch */
    double manual_ns;
    uint64_t manual_calls;
    /* what the benchmark told us */
    void *user;
    double bytes_per_op;
    double items_per_op;
    /* once merged: the sums of every thread's (Google Benchmark's sums) */
    double bytes_sum_per_op;
    double items_sum_per_op;
    char label[256];        /* bl_set_label; "" when none */
    long long complexity_n; /* bl_set_complexity_n; 0 when not called */
    /* once merged: every thread's complexity_n summed (Google Benchmark's n) */
    long long complexity_n_sum;
    int n_metrics;
    double metric_value[BL__MAX_METRICS];
    unsigned metric_flags[BL__MAX_METRICS];
    char metric_unit[BL__MAX_METRICS][64];
    /* bl_report_counter's: its flags (enum bl_counter_flags) and its raw
     * value in metric_value (the threads' sum once merged) */
    bool metric_is_counter[BL__MAX_METRICS];
    unsigned metric_counter_flags[BL__MAX_METRICS];
    int status; /* 0, 1 skipped, 2 failed */
    char message[512];
};

/*
 * The reference chain (refchain.c): BL__REF_STEPS_PER_LOOP dependent adds,
 * one core cycle each, per loop. bl__ref_calibrate sizes a stretch of it
 * to about 2.5 us; bl__ref_measure times the fastest of a few stretches
 * (3, or 1 beside batches under 0.5 ms) and returns ns per step.
 */
#define BL__REF_STEPS_PER_LOOP 100
uint64_t bl__ref_chain(uint64_t loops, uint64_t x);
void bl__ref_calibrate(struct bl__engine *e, double clock_ns);
double bl__ref_measure(struct bl__engine *e);

void bl__state_init(bl_state *st, int kind, const struct bl__instance *inst,
                    struct bl__engine *eng);
/* Time one batch of `reps` repetitions of fn in a sub-state; returns its ns.
 * Fills *pauses and *t_first (its first clock start) when not NULL. */
uint64_t bl__run_sub_batch(bl_bench_fn fn, uint64_t reps, bool per_op, uint32_t *pauses,
                           uint64_t *t_first);
/* Run the benchmark body in the calling thread as member st->thread_index
 * of st->group, and keep in step with the group until it stops, even when
 * the body returns early (the benchmark then fails). */
void bl__run_body(bl_state *st);
/* One batch of the whole group, as the runner sees it. */
struct bl__batch {
    uint64_t reps, ns;
    struct bl__acc acc;
    uint32_t pauses;
    double ref_ns;        /* ns per reference step beside the batch; 0: not measured */
    double thread_cpu_ns; /* the threads' mean CPU time in their timed parts */
};

/* The engine's decisions at a batch boundary (stages.c), in the group's
 * serial part. bl__stage_record sends the batch that just ended and moves
 * between the stages; bl__batch_sample is the batch as the runner's
 * invalidation sees it; bl__batch_send sends one "s" line; bl__add_stolen
 * charges the off-CPU time of a batch judged `why` as stolen (true when
 * the scheduler took the CPU); bl__jittered is reps +-10% (Caliper). */
void bl__stage_record(struct bl__engine *e, const struct bl__batch *b);
bl_sample bl__batch_sample(const struct bl__batch *b);
void bl__batch_send(struct bl__engine *e, char stage, const struct bl__batch *b);
bool bl__add_stolen(struct bl__engine *e, const struct bl__batch *b, unsigned why);
uint64_t bl__jittered(struct bl__engine *e, uint64_t reps);

/* Send one channel line (without the newline). */
void bl__send(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* BENCHLAB_BENCH_STATE_H */
