/* engine.h - runner internals shared by the suite's command line
 * (front/), the run (run.c, passes.c, plan.c), worker processes
 * (worker_proc.c, channel.c) and the A/B runner (ab.c). */
#ifndef BENCHLAB_ENGINE_ENGINE_H
#define BENCHLAB_ENGINE_ENGINE_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../base/base.h"
#include "benchlab/results.h"
#include "benchlab/run.h"

/* The compiler and flags `exe` was built with (buildinfo.c): "" when
 * unknown. */
void bl__build_info(const char *exe, char *compiler, size_t csize, char *flags, size_t fsize);

/* Run argv (in dir; NULL: here) to its end, stdin /dev/null, its stdout
 * (and with `both` its stderr) into *out, the last `keep` bytes (0: all;
 * out NULL: dropped). The exit status (128 + signal), or -errno when it
 * cannot start (child.c). */
int bl__child_run(const char *dir, char *const argv[], int both, char **out, size_t keep);

/* `benchlab run --cmake` (jobs_build.c, docs/jobs.md): one build of the
 * project `source` per job, in root/NAME, with args[k] (NULL-terminated
 * words) as job k's CMake arguments; the target's executable into exe[k]
 * and jobs[k].exe, or why not into error[k] and jobs[k].error (the caller
 * frees both). Progress, a failed build's last lines and the warning for
 * an unoptimised build go to `log` (NULL: quiet). 0; BL_EUSAGE with a
 * message when the project is not there; BL_EINTR; -ENOMEM. */
struct bl__cmake_jobs {
    const char *source; /* the project's directory (its CMakeLists.txt) */
    const char *target; /* the suite's target */
    const char *root;   /* where the jobs' build directories go */
    FILE *log;
};
int bl__jobs_cmake(const struct bl__cmake_jobs *c, bl_run_job *jobs, char *const *const *args,
                   size_t n, char **exe, char **error, char *err, size_t err_size);

/* Keep the names of shard `index` (1-based) of `count` (bl_shard_of),
 * freeing the others; the new count. count <= 1 keeps all. */
size_t bl__shard_keep(char **names, size_t n, int index, int count);

/*
 * The instances of `exe` (NULL: this program) whose full name matches the
 * POSIX extended regex `filter` (NULL: all), in order. *names is freed
 * with bl_names_free(). Returns the count (0 when nothing matches), or a
 * negative error with a message in `err`: BL_EUSAGE for a bad regex,
 * BL_EPROTO when exe is not a benchlab suite.
 */
long bl__list_matching(const char *exe, const char *filter, char ***names, char *err,
                       size_t err_size);
/* What a benchmark's definition sets for its own plan (.count, .time_s;
 * 0: the run's), as a suite lists it to its runner: after the name's
 * line, a line "\tcount=N time=S" when the runner asks with
 * `--benchlab-list ... settings` (docs/engine.md, "The worker channel"). */
struct bl__bench_opts {
    int count;
    double time_s;
};
/* The same, and the suite's name in *suite (NULL: not asked; caller
 * frees; NULL when the suite has none to give): bl__suite_name() of this
 * program, or what the suite exe answers. BL_EUSAGE with a message when
 * its name is refused. The listing process is started as the run's
 * workers are, pinned and with the variables of `env` (NULL: as is). With `opts` not NULL, *opts
 * gets each name's settings, in the same order (caller frees). */
struct bl__spawn_env;
long bl__list_suite(const char *exe, const char *filter, const struct bl__spawn_env *env,
                    char ***names, char **suite, struct bl__bench_opts **opts, char *err,
                    size_t err_size);

/* What the allocation pass sends ("alloc ..."). */
struct bl__alloc_out {
    bool got;
    unsigned long long k, d, allocs_k, bytes_k, allocs_kd, bytes_kd, foreign, untracked;
};

/*
 * A worker process as the runner sees it: its pipes and what its channel
 * said so far. Samples, messages and captured output go to `launch`
 * (borrowed). Only the runner's thread touches it.
 */
struct bl__worker {
    pid_t pid;
    int pidfd;   /* readable when the worker itself exits; -1 without pidfd_open */
    bool exited; /* reaped by bl__worker_poll: its wait status is in `status` */
    int status;
    unsigned long long start_ticks; /* its start time (/proc/PID/stat), to tell its strays */
    int chan, out, err;             /* read ends, -1 once at end of file */
    int cmd;                        /* driven mode: write end of the command pipe, else -1 */
    uint64_t t0;                    /* when it was spawned */
    bl_launch *launch;
    struct bl__alloc_out *alloc; /* the allocation pass: where its counts go */
    char *counters_line;         /* the "counters ..." message of a counters pass */
    struct bl__buf line;
    bool got_hello, got_done;
    uint64_t done_ns;              /* when "done" came */
    int fail_kind;                 /* 0, 1 skip, 2 fail */
    long stray_pid;                /* a forked process of the body in the loop ("stray") */
    unsigned long long ready_reps; /* driven mode: reps of the "ready" message; 0 before */
    double ready_ns;               /* ... and its warm time per op */
    size_t n_measure_lines;        /* "s m" lines received */
    char proto_error[200];
};

/* The channel is fd 3 of the worker; the command pipe (driven mode) fd 5. */
#define BL__CHANNEL_FD 3
#define BL__COMMAND_FD 5

/* What a worker's environment gets besides the runner's: a library to
 * preload (a memfd or a path) and variables for it. */
struct bl__spawn_env {
    unsigned long long pin_mask; /* CPUs to pin the worker to (bit c: CPU c); 0: not pinned */
    int preload_fd;              /* -1: none */
    const char *preload_path;    /* NULL: none */
    const char *set[8];          /* "NAME=VALUE", NULL-terminated */
    /* a program the worker runs under (valgrind and its options), its
     * argv up to the worker's program; NULL: none */
    char *const *wrap;
    bool no_aslr; /* the worker's addresses not randomised (personality) */
    /* the run's and the job's variables (bl_run_options.env), set before
     * `set`, NULL-terminated; NULL: none */
    const char *const *extra;
};

/*
 * Start `exe` with `argv` as a worker (see worker_proc.c) that fills `launch`,
 * its environment extended by `env` (NULL: none). With `driven`, it also
 * gets a command pipe on BL__COMMAND_FD. 0, or a negative error (then no
 * process exists and `launch` says why).
 */
int bl__worker_start(struct bl__worker *w, const char *exe, char *const argv[],
                     const struct bl__spawn_env *env, bool driven, bl_launch *launch);
/*
 * Wait for the worker's output until `deadline_ns` (bl__now_ns() scale),
 * at most one poll round (<= 1 s), and parse what came. Returns 1 while
 * the worker runs, 0 when it has exited (what it wrote before is read; a
 * child of it that keeps the pipes open does not hold the launch) or all
 * its pipes are at end of file, BL_ETIMEOUT past the deadline, BL_EINTR
 * after SIGINT/SIGTERM.
 */
int bl__worker_poll(struct bl__worker *w, uint64_t deadline_ns);
/* Send one command line (without the newline). 0, or -EPIPE when the worker is gone. */
int bl__worker_command(struct bl__worker *w, const char *command);
/*
 * Reap the worker and judge it into its launch: status and message (crash
 * with its signal, time limit, early exit, protocol...), then
 * bl_launch_finish. `stop` is 0 when it ran to its end, or BL_ETIMEOUT /
 * BL_EINTR to kill it first; `timeout_s` is named in the time-limit message.
 * Then kills what the worker left: its process group, and the processes
 * that left the group (setsid, daemons) and were reparented to the runner,
 * which is their subreaper while a worker runs (PR_SET_CHILD_SUBREAPER).
 */
void bl__worker_end(struct bl__worker *w, const char *exe, int stop, double timeout_s);
/* The CPU mask of --cpu `cpus` in *mask (NULL: 0, no pinning). 0, or
 * BL_EUSAGE with a message naming the list (a CPU not available here). */
int bl__cpus_mask(const char *cpus, unsigned long long *mask, char *err, size_t err_size);
/* Fork and exec `exe` with `argv` as bl__worker_start does, without the
 * bookkeeping of a launch (listing). 0 or a negative error. */
int bl__spawn(const char *exe, char *const argv[], const struct bl__spawn_env *env, bool driven,
              struct bl__worker *w);
/* 0, or -EMFILE when the open-file limit is too low for a worker; its message. */
int bl__open_files_check(void);
void bl__open_files_message(char *err, size_t err_size);
/* Replace the launch's message. */
void bl__launch_message(bl_launch *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The channel (channel.c): parse `n` bytes the worker sent into w and its launch. */
void bl__channel_feed(struct bl__worker *w, const char *p, size_t n);
/* Append output to *dst, kept up to a cap; *total counts all of it. */
void bl__capture(char **dst, size_t *total, const char *p, size_t n);

/* ---- launches and passes (passes.c) ---------------------------------------- */

/* What every launch of a run shares. */
struct bl__launcher {
    const char *exe;
    const bl_run_options *o;     /* time, batch, timeout, counters, profile options */
    unsigned long long pin_mask; /* --cpu; 0: not pinned */
};

/* What a launch does besides timing: one pass at most; all zero for timing. */
struct bl__pass {
    struct bl__alloc_out *alloc; /* the allocation pass */
    const char *counters;        /* the counters pass, with this list */
    char **counters_line;        /* receives its "counters" message */
    int profile;                 /* the profile pass: enum bl__profile_mode */
    const char *profile_raw;     /* its raw file */
    int preload_fd;              /* the sampler: a memfd, */
    const char *preload_path;    /* or a file */
    /* the instruction count: the worker under this command (callgrind's,
     * engine/instructions.c), in "instr" mode; NULL: none */
    char *const *instr_wrap;
    const char *instr_out;  /* "BENCHLAB_CG_OUT=..." for it: its dumps' path */
    const char *instr_reps; /* "BENCHLAB_CG_REPS=..." the repetitions to count, fixed width */
};

/* How a launch ended, for the plan. */
enum {
    BL__LAUNCH_OK,        /* a value, or an instrument pass that ran */
    BL__LAUNCH_BROKEN,    /* the benchmark ended it (crash, time limit, early exit, bl_fail,
                             bl_skip, not a suite): launching it again would do the same */
    BL__LAUNCH_DISTURBED, /* every measured batch was disturbed: the machine's noise */
};

/* Run one launch of `name` to its end; fills `l`. `pass` NULL: timing.
 * `reps`: the batch size the tune file knows (the worker skips its
 * pilot), or 0. `budget_s`: the worker's budget, 0 for the run's --time
 * split over --count. Returns a BL__LAUNCH_ value. */
int bl__launch_run(const struct bl__launcher *la, const char *name, unsigned long long seed,
                   bl_launch *l, const struct bl__pass *pass, unsigned long long reps,
                   double budget_s);
/* The instruction count (--instructions, instructions.c): valgrind found
 * and asked its version, the model written in the results' metadata. */
struct bl__instr {
    char valgrind[PATH_MAX];
    char version[64];
};
/* 0, or BL_EUNSUPPORTED with the reason (no callgrind.h at build time, no
 * valgrind) before anything is measured. */
/* "GLIBC_TUNABLES=..." of the counting workers */
const char *bl__instr_tunables(void);
int bl__instr_setup(struct bl__instr *in, const bl_run_options *o, const char *exe, bl_results *res,
                    char *err, size_t err_size);
/* Count launch l's benchmark in a worker under callgrind: its metrics
 * instructions/op, L1-misses/op, LL-misses/op and est-cycles/op, or, when
 * the count failed, l failed (BL_EBENCH) with the reason. *reps: the
 * repetitions to count (0: the worker chooses), set to what it counted.
 * A BL__LAUNCH_*. */
int bl__pass_instructions(const struct bl__launcher *la, const struct bl__instr *in,
                          unsigned long long seed, const char *name, unsigned long long *reps,
                          bl_launch *l);

/* The allocation, counters and profile passes of benchmark b (passes.c). */
void bl__pass_alloc(const struct bl__launcher *la, unsigned long long seed, bl_bench_result *b);
void bl__pass_counters(const struct bl__launcher *la, unsigned long long seed, bl_bench_result *b);
void bl__pass_profile(const struct bl__launcher *la, unsigned long long seed, bl_bench_result *b,
                      const struct bl__pass *proto, const char *raw);
/* A raw file name for `name` in `dir`, unique among those in *used. */
char *bl__pass_profile_raw_path(const char *dir, const char *name, char ***used, size_t *n_used);
/* Prepare the profile pass into *proto (mode, directory, sampler); a
 * suite the sampler cannot reach is not an error: `refused` says why. */
int bl__pass_profile_setup(const bl_run_options *o, const char *exe, bl_results *res,
                           struct bl__pass *proto, char *dir, size_t dir_size, char *refused,
                           size_t refused_size, char *errbuf, size_t errsize);
/* SIGINT or SIGTERM arrived since bl_run_install_signal_handlers. */
bool bl__run_interrupted(void);

/* The warnings of bl_env_check as one line "check: value; ...", or NULL
 * when there are none (caller frees; env.c). */
char *bl__env_warnings(void);

/* ---- the tune file (tune.c) ---------------------------------------------- */

#define BL__TUNE_NKEYS 4 /* cpu, host, benchlab-version, batch-ms */

struct bl__tune {
    const char *path; /* borrowed; NULL: no tune file */
    double batch_ms;
    struct bl__tune_entry {
        char *name;
        unsigned long long reps;
    } * entry;
    size_t n, cap;
    size_t n_loaded; /* entries taken from the file */
    bool existed;    /* the file was there (and is a tune file) */
    bool changed;    /* something to write back */
    char *note;      /* why the file's entries were dropped (foreign fingerprint); NULL */
};

/*
 * Read `path` into *t (an absent file is an empty table, made at the end).
 * Entries of a file made on another machine, version or batch target are
 * dropped and t->note says why. Returns 0, or BL_EFORMAT / -errno with a
 * message naming the file (and line) in `err`; *t is then empty.
 */
int bl__tune_load(struct bl__tune *t, const char *path, double batch_ms, char *err,
                  size_t err_size);
/* The repetitions known for benchmark `name`; 0 when none. */
unsigned long long bl__tune_get(const struct bl__tune *t, const char *name);
/* Remember `reps` (1..1e12) for `name` (copied). 0, -EINVAL (reps out of
 * range, or a name the file cannot hold: empty, starting with '#', with a
 * tab, CR or newline, or over 4000 bytes) or -ENOMEM. */
int bl__tune_set(struct bl__tune *t, const char *name, unsigned long long reps);
/* Write the table back (a temporary file renamed over it) when it changed. */
int bl__tune_save(struct bl__tune *t, char *err, size_t err_size);
void bl__tune_fini(struct bl__tune *t);

/* ---- the plan (plan.c) ----------------------------------------------------- */

/* The benchmarks of a run and what is owed to each. */
struct bl__plan {
    char **names;
    size_t n;
    struct bl__plan_entry {
        bool stop;     /* broken: not launched again */
        int owed;      /* replacement launches owed for disturbed ones */
        int replaced;  /* replacements granted so far */
        int count;     /* its launches: .count, else --count */
        double time_s; /* its budget: .time_s, else --time */
    } * entry;
    const char *tune_file; /* --tune; NULL: none */
    struct bl__tune tune;
    size_t tune_known, tune_new, tune_stale;
};

/*
 * The plan of run `o`: the matching, sharded instances (a shard may hold
 * none), and the tune file loaded. *suite gets the suite's name (caller
 * frees). 0, or a negative error with a message in `err` (p and *suite
 * are then empty): BL_ENOTFOUND when nothing matches.
 */
int bl__plan_make(struct bl__plan *p, const bl_run_options *o, unsigned long long pin_mask,
                  char **suite, char *err, size_t err_size);
/* Whether benchmark i gets a launch in this round (a replacement once
 * its own count of rounds is done). */
bool bl__plan_wants(const struct bl__plan *p, size_t i, int round);
/* The most launches any benchmark of the plan has, and all of them. */
int bl__plan_max_count(const struct bl__plan *p);
size_t bl__plan_total(const struct bl__plan *p);
/* The repetitions the tune file knows for benchmark i; 0 when none. */
unsigned long long bl__plan_reps(const struct bl__plan *p, size_t i);
/* After launch l of benchmark i: what it tuned... */
void bl__plan_tuned(struct bl__plan *p, size_t i, const bl_launch *l);
/* ... and how it ended (a BL__LAUNCH_ value). */
void bl__plan_ended(struct bl__plan *p, size_t i, int how, bool replacement);
/* At the end of the run: the tune file's summary in res, the file saved. */
void bl__plan_finish(struct bl__plan *p, bl_results *res);
void bl__plan_fini(struct bl__plan *p);

#endif
