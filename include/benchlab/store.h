/*
 * benchlab/store.h - the results store: saved runs, their history and
 * named baselines, in SQLite (one file, the default) or PostgreSQL (a
 * server a team shares). See docs/store.md.
 *
 * A store holds runs. A run is what one `benchlab run --save` measured
 * (or `exec --save`, `profile --save`, `merge --save`): its metadata (git
 * commit, branch and dirty flag, dates, host, machine fingerprint,
 * compiler, benchlab version, environment warnings), and per benchmark
 * every launch with every batch, the estimates and the instruments'
 * values. Several saves with one run name (--run-id, the shards of a CI
 * matrix) are parts of one run. Runs are found by reference strings:
 *
 *   latest          the newest run that has benchmarks
 *   latest~N        the N-th run before it
 *   before:42       the newest run with benchmarks before run 42
 *   baseline:NAME   the run the baseline NAME points to
 *   42              the run with id 42 (ids are what `benchlab history` shows)
 *   NAME            the run saved with --run-id NAME
 *   HEAD~1, v1.2, 3f7ec28   a git revision (resolved by git in the project)
 *                   or a stored commit's prefix: the newest run of that commit
 *
 * A leading '@' (as the command line writes them: @latest) is accepted and
 * ignored.
 *
 * Every write is one transaction: a run is stored whole or not at all.
 * Link libbenchlab-store (pkg-config benchlab-store); it needs libsqlite3
 * and libpq, which libbenchlab itself never links.
 */
#ifndef BENCHLAB_STORE_H
#define BENCHLAB_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "benchlab/changes.h"
#include "benchlab/common.h"
#include "benchlab/results.h"
#include "benchlab/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque. Open with bl_store_open(), close with bl_store_close(). */
typedef struct bl_store bl_store;

/* The schema version this library writes, and reads (older ones are
 * migrated forward when opened). */
#define BL_STORE_SCHEMA_VERSION 4

enum bl_store_flags {
    /* Create the store when it does not exist: the file and its directory,
     * or the tables in an empty PostgreSQL database. Without it, a missing
     * store is BL_ENOTFOUND. */
    BL_STORE_CREATE = 1,
};

/*
 * The store to use when none is named: $BENCHLAB_STORE when set and not
 * empty, else ".benchlab/results.db" at the top of the git work tree that
 * holds the current directory, else in the current directory. Writes it to
 * out (truncated to size). Returns 0, or -ENAMETOOLONG.
 */
BL_API int bl_store_default_spec(char *out, size_t size);

/*
 * Open the store named by `spec`: "postgresql://..." or "postgres://..."
 * (a libpq connection URI), "sqlite:PATH", or a file path; NULL or "" for
 * bl_store_default_spec(). Writers wait for each other up to
 * $BENCHLAB_STORE_TIMEOUT seconds (default 30). With BL_STORE_CREATE (to
 * write), an SQLite file is first read page by page (PRAGMA quick_check):
 * a damaged one is BL_EFORMAT, "the file is damaged", and nothing is
 * written into it.
 *
 * Returns 0 and *out (close with bl_store_close), or a negative error with
 * one line in err that names the store:
 *   BL_ENOTFOUND     no store there (without BL_STORE_CREATE)
 *   BL_EFORMAT       the file or database is not a benchlab store
 *   BL_EUNSUPPORTED  written by a newer benchlab (a newer schema)
 *   -ECONNREFUSED    the PostgreSQL server cannot be reached
 *   -EBUSY           locked by another writer past the timeout
 *   -EROFS, -EACCES  the store cannot be written (creating it)
 * A store of an older schema is migrated; one that cannot be written opens
 * as it is (its runs load), and saving into it fails with -EROFS.
 *   other -errno
 */
BL_API int bl_store_open(const char *spec, unsigned flags, bl_store **out, char *err,
                         size_t err_size);
/* NULL is fine. */
BL_API void bl_store_close(bl_store *store);

/* The store's name for messages: its path, or its URI without a password.
 * Borrowed until the store is closed. */
BL_API const char *bl_store_name(const bl_store *store);

/* ---- runs -------------------------------------------------------------- */

/* One stored run. Strings are NULL when unknown; a bl_store_run filled by
 * this library owns them: free with bl_store_run_fini() (one) or
 * bl_store_runs_free() (an array). */
typedef struct bl_store_run {
    int64_t id;         /* the run's number: @42 */
    char *uid;          /* the --run-id it was saved with, or NULL */
    char *kind;         /* "run", "exec", "profile" or "merge" */
    char *saved_at;     /* when first saved, UTC, "2024-06-11T15:30:12Z" */
    char *measured_at;  /* when measured (the results' date), UTC */
    char *commit;       /* the git commit (40 hex digits), or NULL outside git */
    char *branch;       /* NULL when detached or outside git */
    int dirty;          /* 1 uncommitted changes to tracked files, 0 clean, -1 unknown */
    char *host;         /* hostname */
    char *fingerprint;  /* the machine fingerprint (same hardware and kernel: same value) */
    char *compiler;     /* the suite's compiler, when known */
    char *cflags;       /* its flags, when known */
    char *version;      /* benchlab's version that measured it */
    char *env_warnings; /* what `benchlab env` found noisy at the time */
    char *pkg;          /* the suite (pkg: configuration line) */
    char *tag;          /* --tag, or NULL */
    size_t n_parts;     /* saves that went into the run (shards) */
    size_t n_benches;   /* benchmarks, over all parts */
} bl_store_run;

BL_API void bl_store_run_fini(bl_store_run *run);
BL_API void bl_store_runs_free(bl_store_run *runs, size_t n);

/*
 * The stored runs, oldest first: the newest `last` of them (0: all).
 * *runs is caller-freed with bl_store_runs_free(runs, n). 0 or an error.
 */
BL_API int bl_store_list(bl_store *store, size_t last, bl_store_run **runs, size_t *n, char *err,
                         size_t err_size);

/*
 * Resolve a reference (see the top of this file) to a run id. Returns 0;
 * BL_ENOTFOUND with a message that says what was tried ("unknown run
 * @foo: ...", "no stored run of commit 3f7ec28 (HEAD~1)"); or an error.
 */
BL_API int bl_store_resolve(bl_store *store, const char *ref, int64_t *run_id, char *err,
                            size_t err_size);

/* Fill *run with the run `run_id` (free with bl_store_run_fini). BL_ENOTFOUND when absent. */
BL_API int bl_store_get_run(bl_store *store, int64_t run_id, bl_store_run *run, char *err,
                            size_t err_size);

/*
 * Load a run into a bl_results, the same model a run fills: configuration
 * and metadata labels, per benchmark every launch with every batch,
 * estimates, metrics, allocation and counter values. Benchmarks of several
 * parts (shards) follow each other in the order they were saved; a
 * benchmark saved in two parts has the launches of both. The run's store
 * facts are added as metadata: "run-id", "commit", "branch", "dirty",
 * "tag". *out is caller-freed with bl_results_destroy(). 0 or an error.
 */
BL_API int bl_store_load(bl_store *store, int64_t run_id, bl_results **out, char *err,
                         size_t err_size);

/* bl_store_resolve() then bl_store_load(); *run (optional) receives the
 * run's facts (free with bl_store_run_fini). */
BL_API int bl_store_load_ref(bl_store *store, const char *ref, bl_results **out, bl_store_run *run,
                             char *err, size_t err_size);

/* ---- saving ------------------------------------------------------------ */

typedef struct bl_store_save_options {
    const char *kind;    /* "run" (default), "exec", "profile", "merge" */
    const char *run_uid; /* add to the run of this name, creating it when new (shards
                            of one CI run); NULL: a new run of its own */
    const char *tag;     /* a free label shown by history; NULL: none */
    const char *shard;   /* "K/N" when the results are one shard; NULL: whole */
    const char *git_dir; /* where to ask git for commit, branch and dirty; NULL: the
                            current directory; "" : do not ask git */
} bl_store_save_options;

BL_API void bl_store_save_options_init(bl_store_save_options *opts);

/*
 * Save `results` (borrowed, not modified) in one transaction: a new run,
 * or a new part of the run named opts->run_uid. *run_id (optional)
 * receives the run's id. Failed and skipped launches are kept with their
 * messages. Returns 0; -EEXIST when run_uid names a run of another kind or
 * commit; -EBUSY, -EROFS, -EACCES, -ECONNRESET and the like with a message
 * naming the store. On error nothing of this save is in the store.
 */
BL_API int bl_store_save(bl_store *store, const bl_results *results,
                         const bl_store_save_options *opts, int64_t *run_id, char *err,
                         size_t err_size);

/* One function of a profile's flat summary, for bl_store_save_profile()
 * (the fields of struct bl_profile_function in benchlab/profile.h). */
typedef struct bl_store_profile_function {
    const char *name;
    const char *file; /* or NULL */
    int line;
    double self_ns;
    double total_ns;
    uint64_t calls; /* exact when traced, 0 when sampled */
} bl_store_profile_function;

/*
 * Save a profile's summary as a run of kind "profile": `info` labels (key
 * and value pairs such as "mode: sampled", "command: ./app") and the flat
 * profile's functions (the first n_functions, in the caller's order).
 * Strings are borrowed for the call. 0 or an error, as bl_store_save().
 */
BL_API int bl_store_save_profile(bl_store *store, const bl_label *info, size_t n_info,
                                 const bl_store_profile_function *functions, size_t n_functions,
                                 const bl_store_save_options *opts, int64_t *run_id, char *err,
                                 size_t err_size);

/* The functions of a stored profile, in saved order. *functions (strings
 * included) is freed with bl_store_profile_free(). */
BL_API int bl_store_load_profile(bl_store *store, int64_t run_id,
                                 bl_store_profile_function **functions, size_t *n, char *err,
                                 size_t err_size);
BL_API void bl_store_profile_free(bl_store_profile_function *functions, size_t n);

/* ---- baselines --------------------------------------------------------- */

/* Point baseline `name` at run `run_id` (replacing where it pointed). */
BL_API int bl_store_baseline_set(bl_store *store, const char *name, int64_t run_id, char *err,
                                 size_t err_size);

typedef struct bl_store_baseline {
    char *name;
    int64_t run_id;
    char *set_at; /* UTC */
} bl_store_baseline;

/* Every baseline, by name. Free with bl_store_baselines_free(). */
BL_API int bl_store_baseline_list(bl_store *store, bl_store_baseline **baselines, size_t *n,
                                  char *err, size_t err_size);
BL_API void bl_store_baselines_free(bl_store_baseline *baselines, size_t n);

/* ---- acknowledgements -------------------------------------------------- */

/*
 * An accepted change: "BENCH got slower at COMMIT, and that is known". A
 * regression of a matching benchmark that a judge finds across that
 * commit passes the gate, said as acknowledged (bl_judge_acknowledge),
 * and history --changes marks the change point there (docs/ci.md,
 * "Accepting a change"), as bencher and CodSpeed let users dismiss an
 * alert.
 */
typedef struct bl_store_ack {
    char *benchmark; /* a full name, or a shell pattern of names (fnmatch), as Hash/len=* */
    char *commit;    /* the full hash when git knew the revision, else the hex given */
    char *reason;    /* NULL: none given */
    char *acked_at;  /* UTC */
} bl_store_ack;

/*
 * Acknowledge `benchmark` (a name or pattern) at `commit`: a revision git
 * resolves in the current directory (HEAD, v1.2, a prefix), stored as its
 * full hash, or else a hash of 7 to 40 hex digits, stored as given.
 * Acknowledging the same pair again replaces its reason. BL_EUSAGE for an
 * empty benchmark or a commit that is neither.
 */
BL_API int bl_store_ack_add(bl_store *store, const char *benchmark, const char *commit,
                            const char *reason, char *err, size_t err_size);
/* Withdraw it (the same two words as given, or the stored hash):
 * BL_ENOTFOUND when there is none. */
BL_API int bl_store_ack_remove(bl_store *store, const char *benchmark, const char *commit,
                               char *err, size_t err_size);
/* Every acknowledgement, by benchmark then time. Free with bl_store_acks_free(). A store of
 * an older schema read as it is has none. */
BL_API int bl_store_ack_list(bl_store *store, bl_store_ack **acks, size_t *n, char *err,
                             size_t err_size);
BL_API void bl_store_acks_free(bl_store_ack *acks, size_t n);

/*
 * Whether `ack` names a change that came in between a run of commit
 * `from` (NULL or "": none before) and one of commit `to`: its commit is
 * (a prefix of) `to`, or git in the current directory says it is an
 * ancestor of `to` and not of `from`. Without git, or a history git does
 * not have (a shallow clone), only the first holds. 1 or 0.
 */
BL_API int bl_store_ack_covers(const bl_store_ack *ack, const char *from, const char *to);

/* Whether `ack` names the benchmark `name` (its full name, or without a
 * leading "Benchmark"). 1 or 0. */
BL_API int bl_store_ack_names(const bl_store_ack *ack, const char *name);

/* ---- history ----------------------------------------------------------- */

/* A benchmark's centre in one run: what the run's summary table showed
 * (bl_bench_estimate at 95%). */
typedef struct bl_store_point {
    size_t run;        /* index into bl_store_history.runs */
    double centre;     /* ns/op; NAN when no launch gave a value */
    double lo, hi;     /* its 95% confidence interval; NAN when there is none */
    int ci_method;     /* enum bl_ci_method: over launches, or one launch's batches */
    size_t n_launches; /* launches that gave a value */
    size_t n_batches;  /* clean batches over those launches */
} bl_store_point;

typedef struct bl_store_series {
    char *name;             /* full name, "BenchmarkSort/size=1000" */
    bl_store_point *points; /* oldest run first; only the runs that have the benchmark */
    size_t n_points;
} bl_store_series;

typedef struct bl_store_history {
    bl_store_run *runs; /* oldest first */
    size_t n_runs;
    bl_store_series *series; /* in the order the suite runs them (the newest run's;
                                one only in older runs after the one it followed there) */
    size_t n_series;
} bl_store_history;

/*
 * The newest `last` runs (0: all) that have a benchmark whose full name
 * matches `filter` (a POSIX extended regex; NULL: all), and per matching
 * benchmark its centre in each of them. *out is caller-freed with
 * bl_store_history_destroy(). BL_EUSAGE for a bad regex; an empty history
 * is not an error.
 */
BL_API int bl_store_history_load(bl_store *store, const char *filter, size_t last,
                                 bl_store_history **out, char *err, size_t err_size);

/* What bl_store_history_query reads. Zeroed: bl_store_history_load's. */
typedef struct bl_store_history_options {
    const char *filter; /* a POSIX extended regex on full names; NULL: every benchmark */
    size_t last;        /* the newest N matching runs; 0: all */
    const char *branch; /* only the runs saved on this branch; NULL: every branch */
    int metric;         /* enum bl_judge_metric (benchlab/judge.h): the points' centre is the
                           time per op of the run's table (BL_JUDGE_TIME, 0), or the median
                           over the successful launches of their ref-cycles/op or
                           instructions/op (else the counters pass's count); lo and hi are
                           then NAN */
} bl_store_history_options;

/* bl_store_history_load with the branch and the metric too. */
BL_API int bl_store_history_query(bl_store *store, const bl_store_history_options *options,
                                  bl_store_history **out, char *err, size_t err_size);
BL_API void bl_store_history_destroy(bl_store_history *history);

/*
 * Write `history` as `benchlab history` prints it: a line naming `store`
 * and what `query` asked (its filter, branch and metric; NULL: none), the
 * table of runs, then per benchmark its centre in each of the newest runs
 * that fit in `columns` characters (0: every run), a sparkline of all runs
 * when `sparkline`, and the change from its first value to its last.
 * Names, tags and hosts are made safe for a terminal. 0, or -EIO when f
 * reports a write error.
 */
BL_API int bl_store_history_write(FILE *f, const bl_store_history *history,
                                  const bl_store_history_options *query, const char *store,
                                  int columns, int sparkline);

/*
 * The change points and outliers of every series of `history`
 * (bl_changes_detect over its points' centres, in run order; runs without
 * a value left out) into *out, with each value's run id and commit, for
 * bl_changes_write; out->store and out->unit are the caller's to set.
 * options NULL: the defaults. Free with bl_store_changes_free (which
 * leaves the history alone: names and commits are borrowed from it).
 * 0, -EINVAL (bad options) or -ENOMEM.
 */
BL_API int bl_store_history_changes(const bl_store_history *history,
                                    const bl_changes_options *options, bl_changes_report *out);
BL_API void bl_store_changes_free(bl_changes_report *report);

/*
 * Mark the changes of `report` that an acknowledgement covers (one that
 * names the series' benchmark and covers the change's commit from the
 * run before it, bl_store_ack_covers): the series' `acked` (allocated
 * here, freed by bl_store_changes_free) holds per change the ack's
 * commit, borrowed from `acks`, or NULL. Outliers are not marked.
 * 0 or -ENOMEM.
 */
BL_API int bl_store_changes_acknowledge(bl_changes_report *report, const bl_store_ack *acks,
                                        size_t n_acks);

/* ---- the saver of bl_run_main ------------------------------------------ */

/*
 * The bl_run_saver of bl_run_main's --save (benchlab/run.h): open
 * request->store (creating it), save as a run of kind "run", close. With
 * results NULL it checks instead, before anything is measured: the store
 * opens (created when missing), has benchlab's schema, and takes a write
 * (one row written and rolled back). The
 * benchlab command registers it with bl_run_set_saver(); a suite's own
 * main loads libbenchlab-store.so.0 and finds it by this name.
 */
BL_API int bl_store_run_saver(const bl_run_save_request *request, const bl_results *results,
                              int64_t *run_id, char *where, size_t where_size, char *err,
                              size_t err_size);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_STORE_H */
