/*
 * front.h - the command-line layer: one declarative option table per
 * command (options.c), the parser that reads argv against a table
 * (args.c), and the help text written from it (help.c). The suite's
 * command line (suite_main.c) and every `benchlab` command parse through
 * here; the man pages and shell completions are generated from the same
 * tables at build time (src/docgen), so help, man and completion cannot
 * drift from what the parser accepts.
 *
 * Internal to benchlab: src/cli and src/docgen include this header (they
 * link libbenchlab's archive); the public headers do not expose it.
 */
#ifndef BENCHLAB_FRONT_H
#define BENCHLAB_FRONT_H

#include <stddef.h>
#include <stdio.h>

#include "benchlab/run.h"

/* What an option's argument is; the parser checks it and says what is wrong. */
enum bl__arg {
    BL__ARG_NONE,     /* a switch: --alloc */
    BL__ARG_TEXT,     /* any text: a regex, a path, a name */
    BL__ARG_FILE,     /* a path (completed as a file) */
    BL__ARG_DIR,      /* a directory (completed as one) */
    BL__ARG_DURATION, /* 500ms, 2s, 1m; a bare number is seconds; must be > 0 */
    BL__ARG_COUNT,    /* a whole number in [min, max]: "is not a count from 1 to 100000" */
    BL__ARG_INT,      /* a whole number in [min, max]: "is not a number from 1 to 100000" */
    BL__ARG_LEVEL,    /* a number strictly between 0 and 1 (a confidence, an alpha) */
    BL__ARG_CHOICE,   /* one of `choices` */
    BL__ARG_LIST,     /* a comma-separated list of `choices` */
    BL__ARG_VALUES,   /* several values, one argument each: as many as `meta` has words
                       * ("VAR MIN MAX": -P n 1 9); never attached (--opt=V, -oV) */
};

/* The most values an option takes (BL__ARG_VALUES). */
#define BL__MAX_VALUES 4

enum {
    BL__OPT_OPTIONAL = 1u << 0, /* the value is optional and only given as --opt=VALUE
                                 * (-o=VALUE; -oX is -o then -X) */
    BL__OPT_HIDDEN = 1u << 1,   /* accepted, not shown in help, man or completion */
    BL__OPT_REPEAT = 1u << 2,   /* repeatable; each one counts (BL__STYLE_ONCE: the others
                                 * may be given once) */
};

/* One option. Tables are static arrays of these; `id` is what a command
 * switches on (its own enum; the shared groups below use BL__ID_*). */
struct bl__opt {
    const char *name;           /* long name without dashes: "filter"; NULL: short only */
    char short_name;            /* 'o' for -o; 0 for none (then name is needed); a short-only
                                 * option is for GNU-style tables */
    enum bl__arg arg;           /* kind of argument */
    unsigned flags;             /* BL__OPT_* */
    const char *meta;           /* the argument's name in help: "REGEX", "DURATION" */
    const char *const *choices; /* NULL-terminated, for CHOICE and LIST (and completion) */
    double min, max;            /* range of COUNT and INT */
    const char *def;            /* the default as shown in help ("0.5s"); NULL: none shown */
    const char *help;           /* one or more lines, no trailing newline */
    int id;
};

/* Parsing styles of a command. */
enum {
    BL__STYLE_GO = 1u << 0,        /* Go's flag package: -flag/--flag, stops at the first
                                    * non-flag; Go's error wording (compare) */
    BL__STYLE_DASH_LONG = 1u << 1, /* -name is --name when it names a long option (suites) */
    BL__STYLE_ABBREV = 1u << 2,    /* unique prefixes of long names (as getopt_long) */
    BL__STYLE_STOP = 1u << 3,      /* options end at the first positional (profile -- PROG) */
    BL__STYLE_ONCE = 1u << 4,      /* an option without BL__OPT_REPEAT may be given once
                                    * (clap's rule: exec) */
};

/* What a command's positional arguments are, for completion. */
enum bl__positional {
    BL__POS_NONE,
    BL__POS_SUITE,   /* first a suite executable, then its options */
    BL__POS_FILES,   /* results files */
    BL__POS_COMMAND, /* a command line */
    BL__POS_WORDS,   /* subcommand words (baseline set|list) */
};

struct bl__command {
    const char *name;    /* "run"; the suite's own table is "suite" */
    const char *usage;   /* after "usage: benchlab NAME ": one line per form, '\n' between */
    const char *summary; /* one line, for `benchlab --help` and the man page's NAME */
    const char *about;   /* paragraphs for --help and DESCRIPTION; may be NULL */
    const char *footer;  /* after the options (exit status, notes); may be NULL */
    const struct bl__opt *opts;
    size_t n_opts;
    unsigned style;
    enum bl__positional positional;
    const char *const *words; /* BL__POS_WORDS: the words */
};

/* Option ids: what an option means, shared by the tables (an option of the
 * same name means the same in every command). Commands switch on these. */
enum bl__optid {
    BL__ID_NONE,
    BL__ID_FILTER,
    BL__ID_LIST,
    BL__ID_TIME,
    BL__ID_COUNT,
    BL__ID_ITERATIONS,
    BL__ID_TIMEOUT,
    BL__ID_BATCH,
    BL__ID_ALLOC,
    BL__ID_INSTRUCTIONS,
    BL__ID_COMPLEXITY,
    BL__ID_COUNTERS,
    BL__ID_PROFILE,
    BL__ID_PROFILE_DIR,
    BL__ID_PROFILE_FORMAT,
    BL__ID_PROFILE_HZ,
    BL__ID_PROFILE_TOP,
    BL__ID_SEED,
    BL__ID_OUT,
    BL__ID_SHARD,
    BL__ID_FORMAT,
    BL__ID_PKG,
    BL__ID_CPU,
    BL__ID_TUNE_FILE,
    BL__ID_NO_TABLE,
    BL__ID_NO_PLOTS,
    BL__ID_COLOR,
    BL__ID_THRESHOLD,
    BL__ID_METRIC,
    BL__ID_PAIRS,
    BL__ID_CONFIDENCE,
    BL__ID_FAIL_ON_SLOWER,
    BL__ID_TABLE,
    BL__ID_ROW,
    BL__ID_COL,
    BL__ID_IGNORE,
    BL__ID_ALPHA,
    BL__ID_CORRECTION,
    BL__ID_FAIL_ON_REGRESSION,
    BL__ID_MODE,
    BL__ID_CLOCK,
    BL__ID_UNWIND,
    BL__ID_STACK_SIZE,
    BL__ID_FREQUENCY,
    BL__ID_EVENTS,
    BL__ID_RAW,
    BL__ID_LOAD,
    BL__ID_TOP,
    BL__ID_BASELINE,
    BL__ID_HISTORY,
    BL__ID_TITLE,
    BL__ID_LAST,
    BL__ID_SPARKLINE,
    BL__ID_AGAINST,
    BL__ID_ALLOW_MISSING,
    /* exec: hyperfine's options */
    BL__ID_WARMUP,
    BL__ID_MIN_RUNS,
    BL__ID_MAX_RUNS,
    BL__ID_RUNS,
    BL__ID_SETUP,
    BL__ID_REFERENCE,
    BL__ID_REFERENCE_NAME,
    BL__ID_PREPARE,
    BL__ID_CONCLUDE,
    BL__ID_CLEANUP,
    BL__ID_PARAMETER_SCAN,
    BL__ID_PARAMETER_STEP,
    BL__ID_PARAMETER_LIST,
    BL__ID_SHELL,
    BL__ID_NO_SHELL,
    BL__ID_IGNORE_FAILURE,
    BL__ID_STYLE,
    BL__ID_SORT,
    BL__ID_TIME_UNIT,
    BL__ID_EXPORT_ASCIIDOC, /* the five exports in this order */
    BL__ID_EXPORT_CSV,
    BL__ID_EXPORT_JSON,
    BL__ID_EXPORT_MARKDOWN,
    BL__ID_EXPORT_ORGMODE,
    BL__ID_SHOW_OUTPUT,
    BL__ID_CMD_OUTPUT, /* where the commands' output goes (exec's --output) */
    BL__ID_INPUT,
    BL__ID_COMMAND_NAME,
    BL__ID_MIN_TIME,
    BL__ID_DEBUG_MODE,
    BL__ID_ORDER,
    BL__ID_SEQUENTIAL,
    BL__ID_CHANGES,
    BL__ID_ALLOW_OTHER_MACHINE,
    BL__ID_BUILD,
    BL__ID_RUN_SUITE,
    BL__ID_RERUNS,
    BL__ID_REPO,
    BL__ID_REASON,
    BL__ID_JOB, /* run's jobs: --job, --env, --baseline */
    BL__ID_ENV,
    BL__ID_BASELINE_JOB,
    BL__ID_CMAKE, /* run --cmake DIR --target T --build-dir DIR */
    BL__ID_TARGET,
    BL__ID_BUILD_DIR,
    BL__ID_HELP = 9000,
    BL__ID_VERSION,
    /* the save group: --save, --store, --run-id, --tag, --commit, --branch */
    BL__ID_SAVE,
    BL__ID_STORE,
    BL__ID_RUN_ID,
    BL__ID_TAG,
    BL__ID_COMMIT,
    BL__ID_BRANCH,
};

/* Every command's table, in the order `benchlab --help` lists them. The
 * suite's own command line is bl__suite_command; `benchlab run`'s,
 * bl__run_command, is the same with the jobs' options. */
extern const struct bl__command *const bl__commands[];
extern const size_t bl__n_commands;
extern const struct bl__command bl__suite_command;
extern const struct bl__command bl__run_command;
const struct bl__command *bl__command_find(const char *name);
/* The command closest to a mistyped `name`, or NULL (none is close). */
const char *bl__command_closest(const char *name);

/* One option as given. `value` is borrowed from argv (NULL for a switch or
 * an optional value not given); `num` is the parsed number: seconds for a
 * DURATION, the value of COUNT, INT and LEVEL. `values` holds all n_values
 * of them (values[0] is value): several for BL__ARG_VALUES, else 0 or 1. */
struct bl__hit {
    const struct bl__opt *opt;
    const char *value;
    double num;
    const char *values[BL__MAX_VALUES];
    size_t n_values;
};

/* A parsed command line: options in the order given, then positionals.
 * Nothing to free: the hits live here, the positionals in argv. */
#define BL__MAX_HITS 512
struct bl__args {
    struct bl__hit hits[BL__MAX_HITS];
    size_t n_hits;
    char **pos; /* argv's tail: the parser moves positionals there, in order, as GNU getopt does */
    size_t n_pos;
    int help;    /* --help or -h was given: nothing else was checked */
    int version; /* --version was given (tables with a version entry): as for --help,
                  * nothing after it was checked */
};

/*
 * Parse argv[1..argc-1] against `cmd`, moving the positionals to the end of
 * argv (so pos == argv + argc - n_pos). Returns 0, or -1 with a one-line
 * message in err ("unknown option '--filtr' (did you mean --filter?)",
 * "option --time needs a value", "--count: '0' is not a count from 1 to
 * 100000"); -ENOMEM when memory runs out. Stops early at --help.
 */
int bl__args_parse(const struct bl__command *cmd, int argc, char **argv, struct bl__args *out,
                   char *err, size_t err_size);

/* The save group (--save, --store, --run-id, --tag, --commit, --branch), parsed once for every
 * command that has it. `on` is set by --save; store, run_uid and tag by
 * theirs; each command decides what implies --save (given_* say which). */
struct bl__save_args {
    int on;
    const char *store, *run_uid, *tag;
    const char *commit, *branch; /* --commit (lowercase hex), --branch; NULL: not given */
    int given_store, given_run_id, given_tag, given_commit, given_branch;
};
/* Take `hit` into *s when it belongs to the save group: 1 taken, 0 not
 * this group's, -1 with err filled (an empty --run-id or --branch, a
 * --commit that is not 4 to 64 hex digits). */
int bl__save_take(const struct bl__hit *hit, struct bl__save_args *s, char *err, size_t err_size);
/* 0 when sha reads as a commit id (4 to 64 lowercase hex digits), else -1
 * with err filled ("--commit: 'x' is not a commit id ..."). */
int bl__commit_check(const char *sha, char *err, size_t err_size);

/* --help of `cmd`; `prog` is what the usage line starts with ("benchlab
 * run", "./suite"). */
void bl__help_write(FILE *f, const struct bl__command *cmd, const char *prog);
/* `benchlab --help`: the commands and their summaries. */
void bl__help_write_commands(FILE *f);

/* bl_run_main for `benchlab run` (src/cli/cmd_run.c): its table, with the
 * jobs' options; exe NULL: a run of --job suites only. */
int bl__run_main_cli(int argc, char **argv, const char *exe);

/* `benchlab run`'s job options (jobs_args.c): --job NAME=SUITE, --env
 * [JOB:]VAR=VALUE, --baseline NAME, gathered option by option and
 * then set in the run's options. The strings of argv are borrowed. */
struct bl__job_env {
    const char **vars; /* NULL-terminated */
    size_t n;
};
struct bl__jobs_args {
    bl_run_job *jobs;
    struct bl__job_env *env; /* each job's variables */
    size_t n;
    const char **all; /* --env VAR=VALUE: every job's (and a suite's without jobs) */
    size_t n_all;
    const char **pending; /* --env JOB:VAR=VALUE, until the jobs are known */
    size_t n_pending;
    const char **pending_cpus; /* --cpu JOB:LIST, likewise */
    size_t n_pending_cpus;
    const char *baseline;
    /* --cmake DIR --target T [--build-dir DIR]: each --job's value is the
     * CMake arguments of a variant of DIR built here (docs/jobs.md) */
    const char *cmake, *target, *build_dir;
    char ***args;  /* per job: its arguments, split into words */
    char **built;  /* per job: its suite, once built */
    char **failed; /* per job: why its build failed */
};
/* 1 when the option was one of these, 0 when not, or BL_EUSAGE with a
 * message naming it, or -ENOMEM. */
int bl__jobs_take(struct bl__jobs_args *ja, const struct bl__hit *h, char *err, size_t err_size);
/* The jobs into `o` (o->env, o->jobs, o->n_jobs, o->baseline). 0 or
 * BL_EUSAGE with a message (an --env for no such job, one job alone). */
int bl__jobs_finish(struct bl__jobs_args *ja, bl_run_options *o, char *err, size_t err_size);
/* Under --cmake, build each job's suite (progress on stderr): 0, or 2
 * after a message naming what stops the run (the project is not there). */
int bl__jobs_build(struct bl__jobs_args *ja, const char *prog);
void bl__jobs_fini(struct bl__jobs_args *ja);

/* The saver for --save (saver.c): the registered one, else
 * libbenchlab-store's, loaded now. NULL with the reason in why. */
bl_run_saver bl__run_saver(char *why, size_t why_size);

/* What the end of a run writes, checked before its first measurement
 * (preflight.c): 0, or an error with one line in why that names the
 * option, the path and the reason. */
int bl__preflight_out(const char *path, char *why, size_t why_size);
int bl__preflight_profile_dir(const char *dir, char *why, size_t why_size);
/* All that `o` and bl_run_main's --out and --save (NULL: none) ask for. */
int bl__preflight(const bl_run_options *o, const char *out_path, const bl_run_save_request *save,
                  char *why, size_t why_size);

/* The format to write: `given` (--format) when set, else the one the
 * output path's extension names (.json .csv .md) when it is in `known`
 * (NULL-terminated: the command's --format choices), else `fallback`. */
const char *bl__format_for(const char *given, const char *path, const char *const *known,
                           const char *fallback);

/*
 * The progress line (output.c): one line on `to`, rewritten in place by
 * each bl__progress_show ("\r", erase to the end of line, the text) and
 * erased by bl__progress_clear before anything else is said. `to` is NULL
 * when no progress is shown: callers set it to stderr when stderr is a
 * terminal (or, for exec, when --style full asks). The text is printf's
 * format of fmt, shown terminal-safe (control bytes as \xNN, as
 * bl__terminal_safe); no newline.
 */
struct bl__progress {
    FILE *to;
    int shown; /* something is on the line: clear erases it */
};
void bl__progress_show(struct bl__progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void bl__progress_clear(struct bl__progress *p);

/* How an option is written in messages: "--name", else "-c". */
const char *bl__opt_label(const struct bl__opt *o, char *buf, size_t size);
/* The number of values of an option: the words of a BL__ARG_VALUES's meta,
 * 0 for a switch, else 1. */
size_t bl__opt_n_values(const struct bl__opt *o);

/* Parse a duration ("500ms", "2s", "1m"; a bare number is seconds) into
 * seconds; -1 when it is not one. */
double bl__parse_duration(const char *s);

/*
 * Google Benchmark's --benchmark_ flags (gbflags.c), for bl_main: returns
 * 0 with *argc and *argv rewritten into options (unchanged when no
 * such flag is there), or 1 when the process is done (a listing, or bad
 * usage already said on stderr) and should exit with *status.
 */
int bl__gbench_flags(int *argc, char ***argv, int *status);
/* A listing's end (--list, --benchmark_list_tests): stdout flushed, 0; or
 * 2 after saying on stderr why it could not be written (/dev/full). */
int bl__list_flushed(const char *prog);
/* The option that named the run's output file, for messages about it:
 * "--benchmark_out" when bl__gbench_flags made --out of it, else "--out". */
const char *bl__out_option(void);

void bl__statistics_write(FILE *f, const bl_results *res);
/* For benchlab run SUITE: the same lists, computed by the suite started
 * once more as `SUITE --benchlab-statistics` (nothing when it cannot say);
 * bl__statistics_detach takes them off res and ends that process. Each
 * answer has timeout_s (the run's --timeout; 0: 60 s), then the process
 * is killed and the statistics left are missing. */
void bl__statistics_attach_remote(bl_results *res, const char *exe, double timeout_s);
/* For the suite's own runner: the same, computed by a child forked now
 * (a function that crashes, exits or hangs loses the statistic, not the
 * run); in this process when no child can start. */
void bl__statistics_attach_self(bl_results *res, double timeout_s);
void bl__statistics_detach(bl_results *res);
/* `SUITE --benchlab-statistics`: answer the runner on stdin and stdout
 * until end of input. Returns the exit status. */
int bl__statistics_serve(void);

#endif /* BENCHLAB_FRONT_H */
