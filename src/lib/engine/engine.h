/* engine.h - runner internals shared by the suite's command line
 * (bench/main.c), the run (runner.c) and the A/B runner (ab.c). */
#ifndef BENCHLAB_ENGINE_ENGINE_H
#define BENCHLAB_ENGINE_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../base/base.h"
#include "benchlab/results.h"

/* The compiler and flags `exe` was built with (buildinfo.c): "" when
 * unknown. */
void bl__build_info(const char *exe, char *compiler, size_t csize, char *flags, size_t fsize);

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
/* The same, and the suite's name in *suite (caller frees; NULL when the
 * suite has none to give): bl__suite_name() of this program, or what the
 * suite exe answers. BL_EUSAGE with a message when its name is refused. */
long bl__list_suite(const char *exe, const char *filter, char ***names, char **suite, char *err,
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
    int preload_fd;           /* -1: none */
    const char *preload_path; /* NULL: none */
    const char *set[8];       /* "NAME=VALUE", NULL-terminated */
};

/*
 * Start `exe` with `argv` as a worker (see runner.c) that fills `launch`,
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
/* Pin the workers started from now on to the CPUs of `cpus` (NULL: no
 * pinning). 0, or BL_EUSAGE with a message naming the list. */
int bl__run_set_pinning(const char *cpus, char *err, size_t err_size);
/* SIGINT or SIGTERM arrived since bl_run_install_signal_handlers. */
bool bl__run_interrupted(void);

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
/* Remember `reps` (1..1e12) for `name` (copied). 0, -EINVAL or -ENOMEM. */
int bl__tune_set(struct bl__tune *t, const char *name, unsigned long long reps);
/* Write the table back (a temporary file renamed over it) when it changed. */
int bl__tune_save(struct bl__tune *t, char *err, size_t err_size);
void bl__tune_fini(struct bl__tune *t);

#endif
