/*
 * benchlab/exec.h - benchmarking whole commands (`benchlab exec`).
 *
 * The runner/worker split of the engine applied to any program: the parent
 * forks each run, waits for it with wait4() and records its wall time,
 * user and system time, peak RSS and exit status. Several commands are run
 * in rounds (one run of each per round, in a shuffled or fixed order), so
 * that drift of a noisy machine hits all of them alike. With a shell, the
 * cost of starting the shell is measured in the same rounds and subtracted.
 * The library measures and never prints: progress goes to an observer,
 * the writers below take the caller's FILE. See docs/exec.md.
 */
#ifndef BENCHLAB_EXEC_H
#define BENCHLAB_EXEC_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "benchlab/common.h"
#include "benchlab/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One timed run of a command. Times in nanoseconds. */
typedef struct bl_exec_run {
    double wall_ns; /* fork to reaped, shell start-up already subtracted */
    double user_ns; /* from wait4's rusage, shell's share subtracted */
    double sys_ns;
    double raw_wall_ns;  /* as measured, before the subtraction */
    long peak_rss_bytes; /* ru_maxrss of the command's process (or its shell) */
    int exit_code;       /* exit status, or -1 when killed by a signal */
    int term_signal;     /* the signal that killed it, or 0 */
    /* peak_rss_bytes is only a bound, benchlab's own peak: the spawned process
     * shares benchlab's memory until it execs the command, and the kernel counts
     * that memory's peak in ru_maxrss. The command's own peak is at most this. */
    int peak_rss_is_bound;
} bl_exec_run;

enum bl_exec_order {
    BL_EXEC_SHUFFLE,    /* one run of each command per round, shuffled per round (default) */
    BL_EXEC_INTERLEAVE, /* one run of each per round, always A B C */
    BL_EXEC_SEQUENTIAL, /* all runs of A, then all of B (as hyperfine does) */
};

/* A parameter of a command: substituted for {name} (hyperfine's syntax). */
typedef struct bl_exec_param {
    const char *name;
    const char *value;
} bl_exec_param;

/* One command to benchmark. All strings borrowed until bl_exec_run_all returns. */
typedef struct bl_exec_command {
    const char *name;     /* display name (the command, or --command-name) */
    const char *command;  /* as the shell would see it, parameters substituted */
    const char *prepare;  /* before each run (untimed); NULL: none */
    const char *conclude; /* after each run (untimed); NULL: none */
    const char *setup;    /* once before the command's first run (untimed); NULL: none */
    const char *cleanup;  /* once after its last run (untimed); NULL: none */
    const bl_exec_param *params;
    size_t n_params;
    /* Where the command's stdout goes (stderr goes to /dev/null, except for
     * "inherit"): NULL or "null": /dev/null; "pipe": a pipe the parent
     * drains; "inherit": ours (stdout and stderr); anything else: a file,
     * created or truncated before every run (hyperfine's --output).
     * bl_exec_options.show_output overrides it with "inherit". */
    const char *output;
    /* The name for people (the summary, the markup tables): hyperfine shows
     * parameters that the command line does not use, "cmd (x = a)".
     * NULL: name. */
    const char *label;
} bl_exec_command;

typedef struct bl_exec_options {
    /* "sh" (default) runs `sh -c CMD`. A command line such as "bash --norc"
     * is split into words as sh would and -c CMD appended. NULL: no shell,
     * CMD split as sh would. */
    const char *shell;
    int warmup;   /* untimed runs of each command first; default 0 */
    int runs;     /* exactly this many runs; 0 (default): the automatic budget */
    int min_runs; /* automatic budget: at least this many; default 10 */
    int max_runs; /* automatic budget: at most this many; default 0, no limit */
    /* Automatic budget: about this many seconds of wall time per command,
     * counting everything its runs cost: prepare, the run, conclude, its
     * setup, and its share of the shell's start-up runs. Default 3. */
    double time_s;
    enum bl_exec_order order;
    unsigned long long seed; /* for BL_EXEC_SHUFFLE; 0: from the clock */
    const char *input;       /* the commands' stdin; NULL: /dev/null */
    int show_output;         /* nonzero: the commands' stdout/stderr are ours; else /dev/null */
    int ignore_failure;      /* nonzero: a non-zero exit is recorded, not an error */
    /* With ignore_failure: when n_ignore_codes > 0, only these exit codes
     * are ignored (hyperfine's --ignore-failure=1,2); any other status, or a
     * signal, is still an error. Borrowed. */
    const int *ignore_codes;
    size_t n_ignore_codes;
    /* Per process (each run, and each prepare, conclude, setup, cleanup):
     * kill its process group with SIGKILL after this many seconds and fail
     * with BL_ETIMEOUT. 0 (default): no limit. */
    double timeout_s;
    double confidence; /* of the median's interval, and of the early stop; default 0.95 */
    /* Set (from a signal handler) to stop: the run under way is dropped and
     * bl_exec_run_all returns BL_EINTR with the runs measured so far. */
    const volatile sig_atomic_t *stop;
} bl_exec_options;

BL_API void bl_exec_options_init(bl_exec_options *opts);

/* Progress, called from bl_exec_run_all; any member may be NULL. */
typedef struct bl_exec_observer {
    void *ctx;
    /* Before a run: command `cmd` (index), its run k (1-based) of about
     * n_planned, the whole session's estimated remaining time in seconds. */
    void (*on_run_start)(void *ctx, size_t cmd, int k, int n_planned, int is_warmup, double eta_s);
    /* After a timed run. */
    void (*on_run_done)(void *ctx, size_t cmd, const bl_exec_run *run);
} bl_exec_observer;

/* Everything measured for one command. */
typedef struct bl_exec_result {
    const bl_exec_command *command; /* borrowed from the caller's array */
    bl_exec_run *runs;              /* in the order they ran */
    size_t n_runs;
    size_t cap_runs;
    bl_summary wall, user, sys; /* of wall_ns, user_ns, sys_ns; valid when n_runs > 0 */
    long max_rss_bytes;         /* the largest measured peak_rss_bytes; else the largest bound */
    int max_rss_is_bound;       /* no run's peak was measured: max_rss_bytes is only a bound */
} bl_exec_result;

typedef struct bl_exec_results {
    bl_exec_result *results; /* one per command, in the caller's order */
    size_t n_results;
    /* The shell's own start-up (`shell -c ''`), measured in the same rounds;
     * its medians were subtracted from every run. n_shell_runs is 0 without a shell. */
    size_t n_shell_runs;
    double shell_wall_ns, shell_user_ns, shell_sys_ns;
    int stopped_early; /* the automatic budget stopped once the intervals were tight */
    /* The early-stop rule: at least early_min_runs runs and the median's
     * interval no wider than early_rel_width times the median. */
    size_t early_min_runs;
    double early_rel_width;
    double elapsed_s; /* the whole session */
    char shell[64];   /* "sh", or "" for none */
} bl_exec_results;

/*
 * Benchmark commands[0..n_commands) (borrowed until the results are
 * destroyed). *out is always set (free with bl_exec_results_destroy) and
 * holds every run measured, also on error (when a command fails before the
 * shell's start-up was measured, it is measured then, so that what is kept is
 * corrected too). Returns 0; BL_EINTR when *stop was set; BL_EEXIT when a
 * command exited non-zero or was killed (without ignore_failure);
 * BL_ETIMEOUT when a process ran past timeout_s; BL_EBENCH when setup, cleanup, prepare or conclude
 * failed; BL_ENOTFOUND when a program (the shell, or the command without
 * one) cannot be executed; BL_EUSAGE for bad options or a command that
 * cannot be split; -errno. A message naming the command is put in err.
 */
BL_API int bl_exec_run_all(const bl_exec_command *commands, size_t n_commands,
                           const bl_exec_options *opts, const bl_exec_observer *obs,
                           bl_exec_results **out, char *err, size_t err_size);

BL_API void bl_exec_results_destroy(bl_exec_results *results);

/*
 * Split `command` into words as sh would (quotes, backslashes; no
 * expansion). *argv is NULL-terminated and caller frees with
 * bl_exec_argv_free(). 0, BL_EUSAGE (an open quote, no words), -ENOMEM.
 */
BL_API int bl_exec_split(const char *command, char ***argv);
BL_API void bl_exec_argv_free(char **argv);

/*
 * Replace every {name} of params in `tmpl`. Returns a string the caller
 * frees with free(), or NULL when memory runs out.
 */
BL_API char *bl_exec_substitute(const char *tmpl, const bl_exec_param *params, size_t n_params);

/*
 * Comparison of b against a (the baseline): ratio of the medians of wall
 * time with a conservative interval (the ratio of the medians' interval
 * bounds), and the two-sided Mann-Whitney U p-value (bl_stats_utest;
 * 1 when all values are equal). Returns 0, or -EINVAL when either has no
 * runs. *ratio_lo and *ratio_hi are NAN when an interval is unknown.
 */
BL_API int bl_exec_compare(const bl_exec_result *a, const bl_exec_result *b, double *ratio,
                           double *ratio_lo, double *ratio_hi, double *p_value);

/* Outlier checks for plain-words warnings. */
/* The first timed run is above the upper fence (Q3 + 3 IQR) and the slowest. */
BL_API int bl_exec_first_run_slow(const bl_exec_result *r);
/* How many timed runs are above Tukey's upper fence (Q3 + 1.5 IQR). */
BL_API size_t bl_exec_count_slow(const bl_exec_result *r);

/*
 * The name in Go-format lines: "Exec/cmd=NAME[/param=value...]" with
 * whitespace and '/' in NAME and values replaced by '_'. Truncated to size.
 */
BL_API void bl_exec_go_name(const bl_exec_result *r, char *out, size_t size);

/*
 * The results as a bl_results, for the results store and the formats that
 * read one: per command a benchmark named "Benchmark" + bl_exec_go_name(),
 * per run a launch with one batch (the raw run, the shell's start-up as its
 * overhead, so ns_per_op is the corrected wall time), the metrics user-ns/op,
 * sys-ns/op and peak-RSS-bytes as bl_exec_write_gobench writes them, the
 * exit code and signal; configuration as that writer's, metadata with the
 * shell and each command line ("command Exec/cmd=NAME"). 0 or -ENOMEM.
 */
struct bl_results;
BL_API int bl_exec_to_results(const bl_exec_results *results, struct bl_results **out);

/* Writers. Each returns 0, or -EIO when writing failed. */
/* Go benchmark format: configuration lines, then one line per run:
 * BenchmarkExec/cmd=NAME 1 WALL ns/op USER user-ns/op SYS sys-ns/op RSS peak-RSS-bytes */
BL_API int bl_exec_write_gobench(FILE *f, const bl_exec_results *r);
/* hyperfine's JSON: {"results":[{"command","mean","stddev","median","user",
 * "system","min","max","times","exit_codes","parameters"}]}, seconds. */
BL_API int bl_exec_write_json(FILE *f, const bl_exec_results *r);
/* hyperfine's CSV columns: command,mean,stddev,median,user,system,min,max[,parameter_*]. */
BL_API int bl_exec_write_csv(FILE *f, const bl_exec_results *r);
/* A Markdown table like hyperfine's: Command | Mean [ms] | Min [ms] | Max [ms] | Relative. */
BL_API int bl_exec_write_markdown(FILE *f, const bl_exec_results *r);

/* hyperfine's markup tables, with its options. */
enum bl_exec_markup { BL_EXEC_MARKDOWN, BL_EXEC_ASCIIDOC, BL_EXEC_ORGMODE };
typedef struct bl_exec_table_options {
    enum bl_exec_markup markup;
    double unit_ns;      /* 1e3, 1e6 or 1e9; 0: from the first listed command's mean */
    const size_t *order; /* the rows, as indices into r->results; NULL: input order */
    size_t n_order;
    /* the Relative column: each mean over this command's (an index into
     * r->results); SIZE_MAX: the fastest mean */
    size_t reference;
} bl_exec_table_options;
BL_API int bl_exec_write_table(FILE *f, const bl_exec_results *r, const bl_exec_table_options *o);

/* What `benchlab exec` prints after a session, as hyperfine's summary
 * reads: each command's times (median and interval, mean and stddev, user
 * and system time, a first slow run, outliers), the shell start-up
 * subtracted and, with two commands or more, the comparison with the
 * reference (has_reference: the first command, as --reference gives it;
 * else the fastest, or with by_command the first with the lowest median):
 * ratio of medians, its interval and the U test. Times in `unit_ns` (1e3,
 * 1e6, 1e9; 0: each chosen by its size). 0, or -EIO when f failed. */
BL_API int bl_exec_write_summary(FILE *f, const bl_exec_results *r, int by_command,
                                 int has_reference, double unit_ns);
/* The order of the commands, indices into r (r->n_results of them): as
 * given, or with `by_time` by median (mean with `by_mean`), stable, the
 * commands without runs last. */
BL_API void bl_exec_order(const bl_exec_results *r, int by_time, int by_mean, size_t *order);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_EXEC_H */
