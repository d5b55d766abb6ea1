/*
 * options.c - every command's option table: the one place that says which
 * options exist, what their arguments are, their defaults and their help.
 * The parser (args.c), --help (help.c), the man pages and the shell
 * completions (src/docgen) all read these tables.
 *
 * To add an option: add an entry to its command's table (and an id to
 * enum bl__optid in front.h when it means something new), then handle the
 * id in the command. A group shared by several commands (the save group)
 * is one macro here and one function (bl__save_take) there.
 */
#include <stdbool.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab.h"
#include "front.h"

#define N(a) (sizeof(a) / sizeof *(a))
#define NO_RANGE 0, 0

static const char *const color_when[] = {"auto", "always", "never", NULL};
static const char *const run_formats[] = {"go", "json", "csv", "markdown", NULL};
/* a suite also writes Google Benchmark's JSON (docs/formats.md) */
static const char *const suite_formats[] = {
    "go", "json", "csv", "markdown", "gbench-json", "gbench-csv", "gbench-console", NULL};
/* Google Benchmark's time units, for its formats (--time-unit) */
static const char *const gbench_units[] = {"ns", "us", "ms", "s", NULL};
static const char *const profile_modes[] = {"sample", "trace", NULL};
static const char *const profile_outputs[] = {
    "text", "flat", "tree", "folded", "csv", "svg", "pprof", "speedscope", "chrome", "raw", NULL};
static const char *const counter_names[] = {
    "instructions",     "cycles",       "branches", "branch-misses",
    "cache-references", "cache-misses", NULL};
static const char *const corrections[] = {"holm", "bh", "none", NULL};

#define OPT_HELP                                                                                   \
    {                                                                                              \
        "help", 'h', BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL, "show this help", BL__ID_HELP    \
    }

/* The save group: run (and the suite), exec, profile, merge. What implies
 * --save is each command's to say (its help). */
#define SAVE_GROUP(save_help, store_help)                                                           \
    {"save", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL, save_help, BL__ID_SAVE},               \
        {"store", 0, BL__ARG_TEXT, 0, "SPEC", NULL, NO_RANGE, NULL, store_help, BL__ID_STORE},      \
        {"run-id",                                                                                  \
         0,                                                                                         \
         BL__ARG_TEXT,                                                                              \
         0,                                                                                         \
         "NAME",                                                                                    \
         NULL,                                                                                      \
         NO_RANGE,                                                                                  \
         NULL,                                                                                      \
         "save into the run NAME (shards of one CI run); implies --save",                           \
         BL__ID_RUN_ID},                                                                            \
        {"tag",     0,      BL__ARG_TEXT,                                                           \
         0,         "TEXT", NULL,                                                                   \
         NO_RANGE,  NULL,   "a label for the saved run, shown by benchlab history; implies --save", \
         BL__ID_TAG},                                                                               \
        {"commit",                                                                                  \
         0,                                                                                         \
         BL__ARG_TEXT,                                                                              \
         0,                                                                                         \
         "SHA",                                                                                     \
         NULL,                                                                                      \
         NO_RANGE,                                                                                  \
         NULL,                                                                                      \
         "the commit to save the run as (default: $GITHUB_SHA, $CI_COMMIT_SHA, else git's HEAD); "  \
         "implies --save",                                                                          \
         BL__ID_COMMIT},                                                                            \
    {                                                                                               \
        "branch", 0, BL__ARG_TEXT, 0, "NAME", NULL, NO_RANGE, NULL,                                 \
            "the branch to save the run as (default: $GITHUB_HEAD_REF, $GITHUB_REF_NAME, "          \
            "$CI_COMMIT_REF_NAME, else git's); implies --save",                                     \
            BL__ID_BRANCH                                                                           \
    }

#define STORE_HELP                                                                                 \
    "the results store: a file, or postgresql://... (default: $BENCHLAB_STORE, else "              \
    ".benchlab/results.db at the top of the git work tree)"

/* ---- the suite's command line: ./suite [options], benchlab run SUITE ---- */

/* The options of a suite's own command line, which `benchlab run` has too. */
// clang-format off
#define SUITE_OPTIONS                                                                                \
    {"filter", 0, BL__ARG_TEXT, 0, "REGEX", NULL, NO_RANGE, NULL,                                    \
     "run the benchmarks whose full name matches (POSIX ERE; -REGEX: those that do not)",            \
     BL__ID_FILTER},                                                                                 \
    {"list", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL, "list the benchmarks and exit",         \
     BL__ID_LIST},                                                                                   \
    {"time", 0, BL__ARG_DURATION, 0, "DURATION", NULL, NO_RANGE, "0.5s",                             \
     "measuring budget per benchmark, split across its launches (operations of 5ms or more get "     \
     "twice this)",                                                                                  \
     BL__ID_TIME},                                                                                   \
    {"count", 0, BL__ARG_COUNT, 0, "N", NULL, 1, 100000, "6",                                        \
     "launches (worker processes) per benchmark, interleaved, one result line each", BL__ID_COUNT},  \
    {"iterations", 0, BL__ARG_COUNT, 0, "N", NULL, 1, 1e12, NULL,                                    \
     "a fixed count: each launch is one measurement of exactly N repetitions (no pilot, no "         \
     "warmup); a benchmark's own .iterations wins",                                                  \
     BL__ID_ITERATIONS},                                                                             \
    {"timeout", 0, BL__ARG_DURATION, 0, "DURATION", NULL, NO_RANGE, "60s",                           \
     "kill a worker that runs longer", BL__ID_TIMEOUT},                                              \
    {"batch", 0, BL__ARG_DURATION, 0, "DURATION", NULL, NO_RANGE, "1ms",                             \
     "target length of one timed batch", BL__ID_BATCH},                                              \
    {"alloc", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,                                        \
     "also count allocations in a pass of their own: B/op, allocs/op", BL__ID_ALLOC},                \
    {"instructions", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,                                 \
     "also count each launch's instructions and simulated cache misses under valgrind's "            \
     "callgrind: instructions/op, L1-misses/op, LL-misses/op, est-cycles/op, the same on any "       \
     "machine",                                                                                      \
     BL__ID_INSTRUCTIONS},                                                                           \
    {"complexity", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,                                   \
     "fit time/op against the size parameter of every benchmark that has one integer parameter: "    \
     "O(1), O(log n) ... O(n^3)",                                                                    \
     BL__ID_COMPLEXITY},                                                                             \
    {"counters", 0, BL__ARG_LIST, BL__OPT_OPTIONAL, "COUNTER", counter_names, NO_RANGE, "all",       \
     "hardware counters per op, comma-separated", BL__ID_COUNTERS},                                  \
    {"profile", 0, BL__ARG_CHOICE, BL__OPT_OPTIONAL, "MODE", profile_modes, NO_RANGE, "sample",      \
     "also profile each benchmark in a pass of its own, only while measured batches run: sample, "   \
     "or trace (a suite built with -finstrument-functions, linked with -lbenchlab-trace)",           \
     BL__ID_PROFILE},                                                                                \
    {"profile-dir", 0, BL__ARG_DIR, 0, "DIR", NULL, NO_RANGE, "SUITE.profile",                       \
     "where the profiles go", BL__ID_PROFILE_DIR},                                                   \
    {"profile-format", 0, BL__ARG_LIST, 0, "FORMAT", profile_outputs, NO_RANGE, "text",              \
     "profile outputs, comma-separated (text: the flat profile and the call tree)",                  \
     BL__ID_PROFILE_FORMAT},                                                                         \
    {"profile-hz", 0, BL__ARG_INT, 0, "HZ", NULL, 1, 100000, "1000", "samples per second",           \
     BL__ID_PROFILE_HZ},                                                                             \
    {"profile-top", 0, BL__ARG_INT, 0, "N", NULL, 0, 1000, "5",                                      \
     "functions in the summary per benchmark (0: none)", BL__ID_PROFILE_TOP},                        \
    {"seed", 0, BL__ARG_TEXT, 0, "N", NULL, NO_RANGE, "from the clock",                              \
     "seed for batch-size jitter", BL__ID_SEED},                                                     \
    {"out", 0, BL__ARG_FILE, 0, "FILE", NULL, NO_RANGE, NULL,                                        \
     "write the results to FILE instead of stdout (whole or not at all)", BL__ID_OUT},               \
    SAVE_GROUP("also save the run in the results store (docs/store.md)",                             \
               STORE_HELP "; implies --save"),                                                       \
    {"shard", 0, BL__ARG_TEXT, 0, "K/N", NULL, NO_RANGE, NULL,                                       \
     "run shard K of N: the benchmarks whose name hashes to K (a CI matrix runs 1/N .. N/N; "        \
     "--run-id joins them in the store)",                                                            \
     BL__ID_SHARD},                                                                                  \
    {"format", 0, BL__ARG_CHOICE, 0, "FORMAT", suite_formats, NO_RANGE,                              \
     "from --out's extension (.json .csv .md .txt), else go", "the results' format", BL__ID_FORMAT}, \
    {"time-unit", 0, BL__ARG_CHOICE, 0, "UNIT", gbench_units, NO_RANGE, "ns",                        \
     "times in the gbench-* formats in UNIT, for benchmarks that set none (.time_unit)",             \
     BL__ID_TIME_UNIT},                                                                              \
    {"pkg", 0, BL__ARG_TEXT, 0, "NAME", NULL, NO_RANGE, "the suite's name",                          \
     "value of the pkg: configuration line", BL__ID_PKG},                                            \
    {"cpu", 0, BL__ARG_TEXT, 0, "LIST", NULL, NO_RANGE, NULL,                                        \
     "pin workers to these CPUs, such as 1 or 0-3,6 (with jobs, JOB:LIST for one job's)",          \
     BL__ID_CPU},                                                                                    \
    {"tune-file", 0, BL__ARG_FILE, 0, "FILE", NULL, NO_RANGE, NULL,                                  \
     "cache each benchmark's batch size in FILE for this machine: known benchmarks skip the "        \
     "pilot, new ones are added",                                                                    \
     BL__ID_TUNE_FILE},                                                                              \
    {"no-table", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,                                     \
     "do not print the summary table on stderr", BL__ID_NO_TABLE},                                   \
    {"no-plots", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,                                     \
     "no sparklines in the table (also BENCHLAB_NO_PLOTS=1; they are drawn only when stderr is a "   \
     "terminal)",                                                                                    \
     BL__ID_NO_PLOTS},                                                                               \
    {"color", 0, BL__ARG_CHOICE, 0, "WHEN", color_when, NO_RANGE, "auto",                            \
     "colour in the table (NO_COLOR is respected)", BL__ID_COLOR},                                   \
    {"version", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL, "print benchlab's version",          \
     BL__ID_VERSION}
// clang-format on

static const struct bl__opt suite_opts[] = {SUITE_OPTIONS, OPT_HELP};

/* `benchlab run`'s own: jobs (docs/jobs.md) */
static const struct bl__opt run_opts[] = {
    SUITE_OPTIONS,
    {"job", 0, BL__ARG_TEXT, BL__OPT_REPEAT, "NAME=SUITE", NULL, NO_RANGE, NULL,
     "a job: the suite executable SUITE, its results named NAME; two or more run interleaved, "
     "their benchmarks matched by name (then no SUITE before the options)",
     BL__ID_JOB},
    {"env", 0, BL__ARG_TEXT, BL__OPT_REPEAT, "[JOB:]VAR=VALUE", NULL, NO_RANGE, NULL,
     "set VAR in the workers' environment: of job JOB, or of every job", BL__ID_ENV},
    {"baseline", 0, BL__ARG_TEXT, 0, "NAME", NULL, NO_RANGE, "the first job",
     "the job the table's ratios are to", BL__ID_BASELINE_JOB},
    {"cmake", 0, BL__ARG_DIR, 0, "DIR", NULL, NO_RANGE, NULL,
     "build each job from the CMake project DIR: --job NAME='CMAKE ARGS' configures a variant "
     "of its own (Release unless the arguments set CMAKE_BUILD_TYPE)",
     BL__ID_CMAKE},
    {"target", 0, BL__ARG_TEXT, 0, "T", NULL, NO_RANGE, NULL,
     "with --cmake: the suite's target, built in every job", BL__ID_TARGET},
    {"build-dir", 0, BL__ARG_DIR, 0, "DIR", NULL, NO_RANGE, "benchlab-jobs",
     "with --cmake: where the jobs' build directories go (DIR/NAME)", BL__ID_BUILD_DIR},
    OPT_HELP,
};

#define SUITE_ABOUT                                                                                \
    "Runs the benchmarks of the suite, each in worker processes of its own, and writes results "   \
    "in the Go benchmark format to stdout, a progress line and the summary table to stderr."
#define SUITE_FOOTER "Durations take a unit: 500ms, 2s, 1m (a bare number is seconds)."

const struct bl__command bl__suite_command = {
    "suite",    "[options]",   "run this suite's benchmarks", SUITE_ABOUT,  SUITE_FOOTER,
    suite_opts, N(suite_opts), BL__STYLE_DASH_LONG,           BL__POS_NONE, NULL,
};

const struct bl__command bl__run_command = {
    "run",
    "SUITE [options] | --job NAME=SUITE --job NAME=SUITE... [options]",
    "run a benchmark suite: benchlab run SUITE [options]",
    "Runs a benchlab suite executable through the runner, with the same options as running the "
    "suite itself; or, with --job, several suites (builds, compilers, flags, environments) in "
    "one interleaved run, side by side (docs/jobs.md). " SUITE_ABOUT,
    SUITE_FOOTER,
    run_opts,
    N(run_opts),
    BL__STYLE_DASH_LONG,
    BL__POS_SUITE,
    NULL,
};

/* ---- exec: hyperfine's options with hyperfine's meanings (clap's rules:
 * whole names, each option once unless it repeats), then benchlab's own.
 * The values without a kind of their own (--style, --time, ...) are checked
 * by cmd_exec.c, which also says which options go together. ---- */

static const char *const exec_styles[] = {"auto",  "basic", "full", "nocolor",
                                          "color", "none",  NULL};
static const char *const exec_sorts[] = {"auto", "command", "mean-time", NULL};
static const char *const exec_units[] = {"microsecond", "millisecond", "second", NULL};
static const char *const exec_orders[] = {"shuffle", "interleave", "sequential", NULL};
static const char *const exec_formats[] = {"text", "go", NULL};

#define EXEC_RUNS(name, s, min, def, help, id)                                                     \
    {                                                                                              \
        name, s, BL__ARG_COUNT, 0, "NUM", NULL, min, 100000000, def, help, id                      \
    }
#define EXEC_EXPORT(name, help, id)                                                                \
    {                                                                                              \
        name, 0, BL__ARG_FILE, 0, "FILE", NULL, NO_RANGE, NULL, help " ('-': stdout)", id          \
    }

static const struct bl__opt exec_opts[] = {
    EXEC_RUNS("warmup", 'w', 0, "0", "untimed runs of each command first", BL__ID_WARMUP),
    EXEC_RUNS("min-runs", 'm', 1, "10", "automatic budget: at least NUM runs", BL__ID_MIN_RUNS),
    EXEC_RUNS("max-runs", 'M', 1, "no limit", "automatic budget: at most NUM runs",
              BL__ID_MAX_RUNS),
    EXEC_RUNS("runs", 'r', 1, NULL, "exactly NUM runs of each command", BL__ID_RUNS),
    {"setup", 's', BL__ARG_TEXT, 0, "CMD", NULL, NO_RANGE, NULL,
     "once before a command's first run", BL__ID_SETUP},
    {"reference", 0, BL__ARG_TEXT, 0, "CMD", NULL, NO_RANGE, NULL,
     "also benchmark CMD (first) and compare with it, not with the fastest", BL__ID_REFERENCE},
    {"reference-name", 0, BL__ARG_TEXT, 0, "NAME", NULL, NO_RANGE, NULL,
     "the name of --reference's CMD", BL__ID_REFERENCE_NAME},
    {"prepare", 'p', BL__ARG_TEXT, BL__OPT_REPEAT, "CMD", NULL, NO_RANGE, NULL,
     "before each run, untimed (once, or once per command)", BL__ID_PREPARE},
    {"conclude", 'C', BL__ARG_TEXT, BL__OPT_REPEAT, "CMD", NULL, NO_RANGE, NULL,
     "after each run, untimed (once, or once per command)", BL__ID_CONCLUDE},
    {"cleanup", 'c', BL__ARG_TEXT, 0, "CMD", NULL, NO_RANGE, NULL,
     "once after a command's last run", BL__ID_CLEANUP},
    {"parameter-scan", 'P', BL__ARG_VALUES, 0, "VAR MIN MAX", NULL, NO_RANGE, NULL,
     "a command per {VAR} in MIN..MAX", BL__ID_PARAMETER_SCAN},
    {"parameter-step-size", 'D', BL__ARG_TEXT, 0, "DELTA", NULL, NO_RANGE, "1", "the scan's step",
     BL__ID_PARAMETER_STEP},
    {"parameter-list", 'L', BL__ARG_VALUES, BL__OPT_REPEAT, "VAR VALUES", NULL, NO_RANGE, NULL,
     "a command per {VAR} in VALUES (a,b,c; \\, for a comma)", BL__ID_PARAMETER_LIST},
    {"shell", 'S', BL__ARG_TEXT, BL__OPT_REPEAT, "SHELL", NULL, NO_RANGE, "sh",
     "the shell: a name, path or command line (\"bash --norc\"); none: no shell", BL__ID_SHELL},
    {NULL, 'N', BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL, "the same as --shell=none",
     BL__ID_NO_SHELL},
    {"ignore-failure", 'i', BL__ARG_TEXT, BL__OPT_OPTIONAL, "MODE", NULL, NO_RANGE, NULL,
     "record non-zero exits: all (-i, =all-non-zero) or these (=1,2)", BL__ID_IGNORE_FAILURE},
    {"style", 0, BL__ARG_TEXT, 0, "TYPE", exec_styles, NO_RANGE, NULL,
     "auto, basic, full, nocolor, color, none (no summary on stdout)", BL__ID_STYLE},
    {"sort", 0, BL__ARG_TEXT, 0, "METHOD", exec_sorts, NO_RANGE, NULL,
     "auto (comparison by time, tables by command), command, mean-time", BL__ID_SORT},
    {"time-unit", 'u', BL__ARG_TEXT, 0, "UNIT", exec_units, NO_RANGE, NULL,
     "the unit of the summary and markup tables", BL__ID_TIME_UNIT},
    EXEC_EXPORT("export-asciidoc", "an AsciiDoc table", BL__ID_EXPORT_ASCIIDOC),
    EXEC_EXPORT("export-csv", "hyperfine's CSV", BL__ID_EXPORT_CSV),
    EXEC_EXPORT("export-json", "hyperfine's JSON, seconds, every run", BL__ID_EXPORT_JSON),
    EXEC_EXPORT("export-markdown", "a Markdown table", BL__ID_EXPORT_MARKDOWN),
    EXEC_EXPORT("export-orgmode", "an org-mode table", BL__ID_EXPORT_ORGMODE),
    {"show-output", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL, "the commands' output is ours",
     BL__ID_SHOW_OUTPUT},
    {"output", 0, BL__ARG_FILE, BL__OPT_REPEAT, "WHERE", NULL, NO_RANGE, NULL,
     "null (default), pipe, inherit or a FILE (once, or once per command)", BL__ID_CMD_OUTPUT},
    {"input", 0, BL__ARG_FILE, 0, "WHERE", NULL, NO_RANGE, NULL,
     "the commands' stdin: null (default) or a FILE", BL__ID_INPUT},
    {"command-name", 'n', BL__ARG_TEXT, BL__OPT_REPEAT, "NAME", NULL, NO_RANGE, NULL,
     "the name of the next command in reports", BL__ID_COMMAND_NAME},
    {"min-benchmarking-time", 0, BL__ARG_TEXT, BL__OPT_HIDDEN, "SECONDS", NULL, NO_RANGE, NULL,
     "hyperfine's hidden name of --time", BL__ID_MIN_TIME},
    {"debug-mode", 0, BL__ARG_NONE, BL__OPT_HIDDEN, NULL, NULL, NO_RANGE, NULL,
     "hyperfine's fake timings (refused)", BL__ID_DEBUG_MODE},
    {"version", 'V', BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL, "benchlab's version",
     BL__ID_VERSION},
    /* benchlab's own */
    {"time", 0, BL__ARG_TEXT, 0, "SECONDS", NULL, NO_RANGE, "3",
     "automatic budget: about SECONDS of wall time per command", BL__ID_TIME},
    {"timeout", 0, BL__ARG_TEXT, 0, "SECONDS", NULL, NO_RANGE, "no limit",
     "kill a run (or a helper) past SECONDS and fail", BL__ID_TIMEOUT},
    {"order", 0, BL__ARG_TEXT, 0, "ORDER", exec_orders, NO_RANGE, NULL,
     "shuffle (default), interleave (A B A B), sequential", BL__ID_ORDER},
    {"sequential", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,
     "all runs of one command, then the next", BL__ID_SEQUENTIAL},
    {"seed", 0, BL__ARG_TEXT, 0, "N", NULL, NO_RANGE, "from the clock", "the shuffle's seed",
     BL__ID_SEED},
    {"format", 0, BL__ARG_TEXT, 0, "FORMAT", exec_formats, NO_RANGE, "text",
     "text, or go: Go benchmark lines on stdout and the summary on stderr", BL__ID_FORMAT},
    SAVE_GROUP("also save the runs in the results store (docs/store.md)",
               STORE_HELP "; implies --save"),
    OPT_HELP,
};

static const struct bl__command exec_command = {
    "exec",
    "[options] CMD...",
    "benchmark whole commands: benchlab exec [options] CMD...",
    "Benchmarks each command: wall, user and system time, peak RSS, exit status. Commands run in "
    "shuffled rounds (one run of each per round) and with `sh -c`; the shell's start-up is "
    "measured in the same rounds and subtracted.\n\n"
    "The options up to --version are hyperfine's, with hyperfine's meanings; the others are "
    "benchlab's own. Short options may be bundled (-r2 -w1, -Ni). See docs/exec.md.",
    "Exit status: 0 ok, 1 a command failed, 2 trouble, 130 interrupted.",
    exec_opts,
    N(exec_opts),
    BL__STYLE_ONCE,
    BL__POS_COMMAND,
    NULL,
};

/* ---- env ---- */

static const struct bl__opt env_opts[] = {OPT_HELP};

static const struct bl__command env_command = {
    "env",
    "",
    "what on this machine adds noise to measurements",
    "Lists what on this machine adds noise to measurements: frequency governor and boost, SMT, "
    "ASLR, load and busy processes, a hypervisor, perf_event_paranoid, isolated cores.",
    "Exit status 1 when something warrants a warning.",
    env_opts,
    N(env_opts),
    0,
    BL__POS_NONE,
    NULL,
};

/* ---- ab ---- */

static const char *const ab_metrics[] = {
    "time", "ns/op", "ref-cycles", "ref-cycles/op", "instructions", "instructions/op", NULL};
static const char *const ab_formats[] = {"table", "json", "csv", NULL};

static const struct bl__opt ab_opts[] = {
    {"filter", 0, BL__ARG_TEXT, 0, "REGEX", NULL, NO_RANGE, NULL,
     "compare the benchmarks whose full name matches (POSIX ERE)", BL__ID_FILTER},
    {"time", 0, BL__ARG_DURATION, 0, "DURATION", NULL, NO_RANGE, "1s",
     "budget per benchmark comparison, start-up included", BL__ID_TIME},
    {"threshold", 0, BL__ARG_TEXT, 0, "PCT", NULL, NO_RANGE, "0.5%",
     "smallest change called faster or slower", BL__ID_THRESHOLD},
    {"metric", 0, BL__ARG_CHOICE, 0, "METRIC", ab_metrics, NO_RANGE, "time",
     "time (ns/op), ref-cycles (time over a reference chain timed beside each batch) or "
     "instructions (counted under valgrind's callgrind)",
     BL__ID_METRIC},
    {"instructions", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,
     "the same as --metric instructions", BL__ID_INSTRUCTIONS},
    {"pairs", 0, BL__ARG_COUNT, 0, "N", NULL, 2, 64, "4", "worker process pairs per benchmark",
     BL__ID_PAIRS},
    {"confidence", 0, BL__ARG_TEXT, 0, "LEVEL", NULL, NO_RANGE, "0.95", "of the interval",
     BL__ID_CONFIDENCE},
    {"format", 0, BL__ARG_CHOICE, 0, "FORMAT", ab_formats, NO_RANGE, "table", "table, json or csv",
     BL__ID_FORMAT},
    {"out", 0, BL__ARG_FILE, 0, "FILE", NULL, NO_RANGE, NULL,
     "write the format (or from .json/.csv) to FILE; the table stays on stdout", BL__ID_OUT},
    {"fail-on-slower", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,
     "exit 1 when a benchmark is slower", BL__ID_FAIL_ON_SLOWER},
    {"batch", 0, BL__ARG_DURATION, 0, "DURATION", NULL, NO_RANGE, "1ms",
     "target length of one batch", BL__ID_BATCH},
    {"timeout", 0, BL__ARG_DURATION, 0, "DURATION", NULL, NO_RANGE, "60s",
     "kill a worker that lives longer", BL__ID_TIMEOUT},
    {"cpu", 0, BL__ARG_TEXT, 0, "LIST", NULL, NO_RANGE, NULL,
     "pin the workers to these CPUs, such as 1 or 0-3,6", BL__ID_CPU},
    {"seed", 0, BL__ARG_TEXT, 0, "N", NULL, NO_RANGE, "from the clock", "block order and jitter",
     BL__ID_SEED},
    {"color", 0, BL__ARG_CHOICE, 0, "WHEN", color_when, NO_RANGE, "auto",
     "colour in the table (NO_COLOR is respected)", BL__ID_COLOR},
    OPT_HELP,
};

static const struct bl__command ab_command = {
    "ab",
    "OLD NEW [options]",
    "did my change make it slower? benchlab ab OLD NEW [options]",
    "Compares two builds of a benchmark suite, benchmark by benchmark: workers of both builds run "
    "side by side, alternating ~1 ms batches in random ABBA/BAAB blocks, in several process "
    "pairs; the ratio NEW/OLD gets a confidence interval and a verdict: faster, slower or no "
    "difference.",
    "Exit status: 0 done; 1 a comparison failed or had too few clean blocks, or (with "
    "--fail-on-slower) a benchmark is slower; 2 trouble; 130 interrupted.",
    ab_opts,
    N(ab_opts),
    BL__STYLE_DASH_LONG,
    BL__POS_SUITE,
    NULL,
};

/* ---- bisect ---- */

static const char *const bisect_formats[] = {"text", "json", NULL};

static const struct bl__opt bisect_opts[] = {
    {"build", 0, BL__ARG_TEXT, 0, "CMD", NULL, NO_RANGE, NULL,
     "shell command that builds the suite in a checkout (run in each worktree's top)",
     BL__ID_BUILD},
    {"run", 0, BL__ARG_TEXT, 0, "SUITE", NULL, NO_RANGE, NULL,
     "the suite's executable, relative to a checkout's top (build/bench_suite)", BL__ID_RUN_SUITE},
    {"filter", 0, BL__ARG_TEXT, 0, "REGEX", NULL, NO_RANGE, NULL,
     "the benchmarks to look at (POSIX ERE); the one BAD slowed most is followed", BL__ID_FILTER},
    {"threshold", 0, BL__ARG_TEXT, 0, "PCT", NULL, NO_RANGE, "0.5%",
     "smallest slowdown of BAD against GOOD worth bisecting", BL__ID_THRESHOLD},
    {"time", 0, BL__ARG_DURATION, 0, "DURATION", NULL, NO_RANGE, "1s",
     "ab's budget per step (doubled for each rerun of an unclear step)", BL__ID_TIME},
    {"reruns", 0, BL__ARG_COUNT, 0, "N", NULL, 0, 10, "2",
     "times an unclear step (its interval straddles the boundary) is measured again",
     BL__ID_RERUNS},
    {"metric", 0, BL__ARG_CHOICE, 0, "METRIC", ab_metrics, NO_RANGE, "time",
     "time (ns/op), ref-cycles or instructions (each step counted under callgrind)", BL__ID_METRIC},
    {"repo", 'C', BL__ARG_TEXT, 0, "DIR", NULL, NO_RANGE, ".", "the git checkout", BL__ID_REPO},
    {"format", 0, BL__ARG_CHOICE, 0, "FORMAT", bisect_formats, NO_RANGE, "text",
     "text or json (the result on stdout; progress on stderr)", BL__ID_FORMAT},
    OPT_HELP,
};

static const struct bl__command bisect_command = {
    "bisect",
    "GOOD BAD --build CMD --run SUITE [options]",
    "which commit made it slower: benchlab bisect GOOD BAD --build CMD --run SUITE",
    "Walks the commits between GOOD and BAD in temporary git worktrees (the checkout and its "
    "working tree are never touched), builds each with CMD, and decides each step with a paired "
    "ab of the commit's build against GOOD's: bad when the interval of NEW/GOOD lies above the "
    "geometric middle of GOOD and BAD, good when below, measured again when unclear. A commit "
    "whose build fails is skipped. Prints the first bad commit, its ratio and interval, and "
    "every step.",
    "Exit status 0 when the first bad commit was found; 1 when skipped builds hide it; 2 on "
    "trouble (an unknown revision, GOOD's or BAD's build failing, BAD not slower than GOOD); "
    "130 interrupted (no worktree is left behind). See docs/ab.md.",
    bisect_opts,
    N(bisect_opts),
    BL__STYLE_ABBREV,
    BL__POS_NONE,
    NULL,
};

/* ---- compare: Go's flags, benchstat's names and defaults ---- */

static const char *const compare_formats[] = {"text", "csv", "markdown", "json", NULL};

static const struct bl__opt compare_opts[] = {
    {"alpha", 0, BL__ARG_TEXT, 0, "\xce\xb1", NULL, NO_RANGE, "0.05",
     "consider change significant if p < \xce\xb1", BL__ID_ALPHA},
    {"col", 0, BL__ARG_TEXT, 0, "projection", NULL, NO_RANGE, "\".file\"",
     "split results into columns by distinct values of projection", BL__ID_COL},
    {"confidence", 0, BL__ARG_TEXT, 0, "level", NULL, NO_RANGE, "0.95",
     "confidence level for ranges", BL__ID_CONFIDENCE},
    {"correction", 0, BL__ARG_CHOICE, 0, "method", corrections, NO_RANGE, "\"holm\"",
     "multiple-comparison correction of -fail-on-regression: holm, bh (Benjamini-Hochberg) or "
     "none",
     BL__ID_CORRECTION},
    {"fail-on-regression", 0, BL__ARG_TEXT, BL__OPT_OPTIONAL, "pct", NULL, NO_RANGE, NULL,
     "exit 1 when a benchmark got significantly worse by more than pct percent (-fail-on-"
     "regression=5; alone: any significant regression)",
     BL__ID_FAIL_ON_REGRESSION},
    {"filter", 0, BL__ARG_TEXT, 0, "query", NULL, NO_RANGE, "\"*\"",
     "use only benchmarks matching benchfilter query", BL__ID_FILTER},
    {"format", 0, BL__ARG_TEXT, 0, "format", compare_formats, NO_RANGE, "\"text\"",
     "print results in format:\n  text     - plain text\n  csv      - comma-separated values "
     "(warnings will be written to stderr)\n  markdown - GitHub-flavoured Markdown tables\n  json "
     "    - one JSON document",
     BL__ID_FORMAT},
    {"ignore", 0, BL__ARG_TEXT, 0, "keys", NULL, NO_RANGE, NULL, "ignore variations in keys",
     BL__ID_IGNORE},
    {"no-plots", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,
     "no sparklines in the text table (also BENCHLAB_NO_PLOTS=1; drawn only on a terminal)",
     BL__ID_NO_PLOTS},
    {"row", 0, BL__ARG_TEXT, 0, "projection", NULL, NO_RANGE, "\".fullname\"",
     "split results into rows by distinct values of projection", BL__ID_ROW},
    {"store", 0, BL__ARG_TEXT, 0, "spec", NULL, NO_RANGE, NULL,
     "the results store that @REF inputs are read from", BL__ID_STORE},
    {"table", 0, BL__ARG_TEXT, 0, "projection", NULL, NO_RANGE, "\".config\"",
     "split results into tables by distinct values of projection", BL__ID_TABLE},
};

static const struct bl__command compare_command = {
    "compare",
    "[flags] [label=]INPUT...",
    "compare results as benchstat does: benchlab compare [flags] OLD NEW...",
    "benchlab compare computes statistical summaries and A/B comparisons of benchmarks, as "
    "benchstat v2 does, byte for byte: it shows benchmark medians in a table with a row for each "
    "benchmark and a column for each input. If there is more than one input, it also shows A/B "
    "comparisons between them. If a difference is likely to be noise, it shows \"~\". An INPUT is "
    "a file in the Go benchmark format, Google Benchmark or benchlab JSON, or a stored run "
    "(@latest, @HEAD~1, base=@baseline:main).",
    "Flags follow Go's flag package: -flag or --flag, \"-flag value\" or \"-flag=value\". "
    "Exit status: 0 done, 1 -fail-on-regression tripped, 2 trouble. See docs/compare.md.",
    compare_opts,
    N(compare_opts),
    BL__STYLE_GO,
    BL__POS_FILES,
    NULL,
};

/* ---- profile ---- */

static const char *const clocks[] = {"cpu", "wall", NULL};
static const char *const unwinds[] = {"auto", "fp", "dwarf", NULL};
static const char *const profile_formats[] = {"text", "flat",       "tree",   "folded", "csv",
                                              "svg",  "speedscope", "chrome", "pprof",  NULL};

static const struct bl__opt profile_opts[] = {
    {"mode", 0, BL__ARG_CHOICE, 0, "MODE", profile_modes, NO_RANGE, "sample",
     "sample (no rebuild) or trace (a program built with -finstrument-functions and linked with "
     "libbenchlab-trace)",
     BL__ID_MODE},
    {"clock", 0, BL__ARG_CHOICE, 0, "CLOCK", clocks, NO_RANGE, "cpu",
     "sample CPU time, or wall time (off-CPU included)", BL__ID_CLOCK},
    {"unwind", 0, BL__ARG_CHOICE, 0, "UNWIND", unwinds, NO_RANGE, "auto",
     "auto: a copy of the stack per sample, unwound per frame with the code's CFI (.eh_frame) or "
     "its frame pointer; fp: the frame-pointer chain alone (cheaper, for code built with "
     "-fno-omit-frame-pointer); dwarf: as auto",
     BL__ID_UNWIND},
    {"stack-size", 0, BL__ARG_TEXT, 0, "BYTES", NULL, NO_RANGE, "64K",
     "stack copied per sample, 512 to 1M (K and M suffixes)", BL__ID_STACK_SIZE},
    {"frequency", 'F', BL__ARG_TEXT, 0, "HZ", NULL, 1, 100000, "1000",
     "samples per second per thread (1 to 100000)", BL__ID_FREQUENCY},
    {"output", 'o', BL__ARG_FILE, BL__OPT_REPEAT, "FILE", NULL, NO_RANGE, NULL,
     "write the profile there (format from --format or the extension: .txt .flat .tree .folded "
     ".csv .svg .pb .speedscope.json .trace.json, else the flat profile); repeat -o for several "
     "files from one run",
     BL__ID_OUT},
    {"format", 0, BL__ARG_TEXT, 0, "FORMAT", profile_formats, NO_RANGE, NULL,
     "text (flat profile and call tree), flat, tree, folded, csv, svg, pprof, speedscope, chrome",
     BL__ID_FORMAT},
    {"events", 0, BL__ARG_TEXT, 0, "N", NULL, NO_RANGE, "50000 for chrome output, else 0",
     "trace mode: keep the first N calls per thread as a timeline", BL__ID_EVENTS},
    {"raw", 0, BL__ARG_FILE, 0, "FILE", NULL, NO_RANGE, NULL, "keep the raw profile in FILE",
     BL__ID_RAW},
    {"load", 0, BL__ARG_FILE, 0, "RAW", NULL, NO_RANGE, NULL,
     "read a raw profile written earlier (run --profile)", BL__ID_LOAD},
    {"top", 0, BL__ARG_TEXT, 0, "N", NULL, NO_RANGE, "15",
     "functions in the summary on stderr (given, the summary is shown with -o too)", BL__ID_TOP},
    SAVE_GROUP("also save the profile's summary in the results store",
               STORE_HELP "; implies --save"),
    OPT_HELP,
};

static const struct bl__command profile_command = {
    "profile",
    "[options] -- PROGRAM [ARGS...]\n--load RAW [-o FILE] [--format FORMAT]",
    "sample or trace a program: benchlab profile [options] -- PROGRAM",
    "Runs PROGRAM under the sampling profiler (preloaded, perf_event cpu-clock per thread) or the "
    "tracing profiler (-finstrument-functions), then symbolizes and writes the profile.",
    "Without -o, a summary goes to stderr and the flat profile and call tree to "
    "PROGRAM.profile.txt. See docs/profile.md for build recipes and limits.",
    profile_opts,
    N(profile_opts),
    BL__STYLE_STOP | BL__STYLE_ABBREV,
    BL__POS_COMMAND,
    NULL,
};

/* ---- report ---- */

static const struct bl__opt report_opts[] = {
    {"out", 'o', BL__ARG_FILE, 0, "FILE", NULL, NO_RANGE, "report.html",
     "write the report to FILE ('-': stdout)", BL__ID_OUT},
    {"baseline", 0, BL__ARG_TEXT, 0, "WHICH", NULL, NO_RANGE, "the first",
     "the input the others are compared with: its label or its position from 1", BL__ID_BASELINE},
    {"store", 0, BL__ARG_TEXT, 0, "SPEC", NULL, NO_RANGE, NULL, STORE_HELP, BL__ID_STORE},
    {"history", 0, BL__ARG_TEXT, 0, "N", NULL, NO_RANGE, "20",
     "earlier stored runs in the history chart (0: none)", BL__ID_HISTORY},
    {"title", 0, BL__ARG_TEXT, 0, "TEXT", NULL, NO_RANGE, "\"benchlab report\"",
     "the report's title", BL__ID_TITLE},
    {"alpha", 0, BL__ARG_LEVEL, 0, "A", NULL, NO_RANGE, "0.05",
     "significance of a change, after Holm's correction", BL__ID_ALPHA},
    {"confidence", 0, BL__ARG_LEVEL, 0, "C", NULL, NO_RANGE, "0.95", "level of every interval",
     BL__ID_CONFIDENCE},
    OPT_HELP,
};

static const struct bl__command report_command = {
    "report",
    "[options] [label=]INPUT... [-o FILE]",
    "an HTML report of results: benchlab report [options] INPUT... -o FILE",
    "Writes one self-contained HTML file (no network, no external files) with, per benchmark, "
    "the distribution of the batches, the pilot's scaling curve, the batches over time, the "
    "comparison with the baseline, the history across runs, and an overview table sortable by "
    "change.\n\nINPUT is a results file (benchlab JSON from benchlab run --out x.json, Google "
    "Benchmark JSON or the Go benchmark format; '-' is stdin) or a stored run: @latest, "
    "@latest~1, @42, @baseline:NAME, @HEAD~1, @<commit>. label=INPUT names it in the report. "
    "Without INPUT: @latest~1 @latest from the store.",
    NULL,
    report_opts,
    N(report_opts),
    0,
    BL__POS_FILES,
    NULL,
};

/* ---- history, judge, baseline, merge (the store's commands) ---- */

static const char *const judge_metrics[] = {
    "time", "ns/op", "ref-cycles", "ref-cycles/op", "instructions", "instructions/op", NULL};
static const char *const judge_metrics_auto[] = {
    "auto",          "time",         "ns/op",           "ref-cycles",
    "ref-cycles/op", "instructions", "instructions/op", NULL};
static const char *const history_formats[] = {"text", "json", "markdown", NULL};

static const struct bl__opt history_opts[] = {
    {"filter", 'f', BL__ARG_TEXT, 0, "REGEX", NULL, NO_RANGE, NULL,
     "benchmarks whose full name matches (POSIX ERE)", BL__ID_FILTER},
    {"last", 'n', BL__ARG_TEXT, 0, "N", NULL, NO_RANGE, "10; with --changes, 0",
     "the N newest runs that have such benchmarks (0: all)", BL__ID_LAST},
    {"branch", 'b', BL__ARG_TEXT, 0, "NAME", NULL, NO_RANGE, NULL,
     "only the runs saved on this branch (a main-branch history without the pull requests')",
     BL__ID_BRANCH},
    {"metric", 'm', BL__ARG_CHOICE, 0, "METRIC", judge_metrics, NO_RANGE, "time",
     "what each run's value is: time (ns/op), ref-cycles or instructions (per op, the median "
     "over the run's launches)",
     BL__ID_METRIC},
    {"changes", 'c', BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,
     "list each benchmark's change points (the run where its level moved, before and after, "
     "the p-value) and outliers, instead of the table",
     BL__ID_CHANGES},
    {"alpha", 'A', BL__ARG_TEXT, 0, "A", NULL, NO_RANGE, "0.001",
     "with --changes: the significance of each change point (its false alarms per benchmark)",
     BL__ID_ALPHA},
    {"threshold", 't', BL__ARG_TEXT, 0, "PCT", NULL, NO_RANGE, "1",
     "with --changes: smaller changes are merged into their neighbours", BL__ID_THRESHOLD},
    {"format", 'F', BL__ARG_CHOICE, 0, "FORMAT", history_formats, NO_RANGE, "text",
     "with --changes: text, json or markdown", BL__ID_FORMAT},
    {"store", 's', BL__ARG_TEXT, 0, "SPEC", NULL, NO_RANGE, NULL, STORE_HELP, BL__ID_STORE},
    {"sparkline", 0, BL__ARG_CHOICE, 0, "WHEN", color_when, NO_RANGE, "auto",
     "auto (on a terminal), always or never", BL__ID_SPARKLINE},
    OPT_HELP,
};

static const struct bl__command history_command = {
    "history",
    "[--filter REGEX] [--last N] [--branch NAME] [--metric M] [--changes] [--store SPEC]",
    "stored runs and each benchmark's centre over time, and where it changed",
    "The stored runs, newest last, then per benchmark its centre (ns/op, as the run's summary "
    "table showed it, or --metric's) in each run, a sparkline of the centres on a terminal, and "
    "the change from the first run shown to the last. With --changes: per benchmark, the runs "
    "where its level moved (change points: binary segmentation with a permutation test of the "
    "largest shift over split points and window scales, alpha 0.001 per benchmark), the levels "
    "before and after, and the runs "
    "off their level that did not stay (outliers). See docs/store.md.",
    NULL,
    history_opts,
    N(history_opts),
    BL__STYLE_STOP | BL__STYLE_ABBREV,
    BL__POS_NONE,
    NULL,
};

static const char *const judge_formats[] = {"text", "markdown", NULL};

static const struct bl__opt judge_opts[] = {
    {"against", 'a', BL__ARG_TEXT, 0, "NAME|@REF", NULL, NO_RANGE, "the run before RUN",
     "a baseline name (benchlab baseline set) or a run reference: @latest~1, @HEAD~1, @<commit>, "
     "@<run id>, @baseline:NAME",
     BL__ID_AGAINST},
    {"threshold", 't', BL__ARG_TEXT, 0, "PCT", NULL, NO_RANGE, "5", "smallest change that counts",
     BL__ID_THRESHOLD},
    {"format", 'F', BL__ARG_TEXT, 0, "FORMAT", judge_formats, NO_RANGE, "text",
     "text or markdown (a pull request comment)", BL__ID_FORMAT},
    {"correction", 'c', BL__ARG_TEXT, 0, "C", corrections, NO_RANGE, "holm",
     "holm, bh (Benjamini-Hochberg) or none", BL__ID_CORRECTION},
    {"alpha", 'A', BL__ARG_TEXT, 0, "A", NULL, NO_RANGE, "0.05", "significance level of the family",
     BL__ID_ALPHA},
    {"filter", 'f', BL__ARG_TEXT, 0, "REGEX", NULL, NO_RANGE, NULL,
     "judge the benchmarks whose full name matches", BL__ID_FILTER},
    {"metric", 'm', BL__ARG_CHOICE, 0, "METRIC", judge_metrics_auto, NO_RANGE,
     "auto: ref-cycles where both runs have them, else time",
     "what is judged: time (ns/op), ref-cycles (time over a reference chain timed beside each "
     "batch: steadier on a shared runner) or instructions (instructions/op)",
     BL__ID_METRIC},
    {"store", 's', BL__ARG_TEXT, 0, "SPEC", NULL, NO_RANGE, NULL, STORE_HELP, BL__ID_STORE},
    {"allow-missing", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,
     "pass benchmarks of the baseline that RUN lacks (by default they fail the gate: a lost "
     "shard, a crashed job)",
     BL__ID_ALLOW_MISSING},
    {"allow-other-machine", 0, BL__ARG_NONE, 0, NULL, NULL, NO_RANGE, NULL,
     "judge runs measured on different CPU models (by default not comparable: exit 3)",
     BL__ID_ALLOW_OTHER_MACHINE},
    OPT_HELP,
};

static const struct bl__command judge_command = {
    "judge",
    "[RUN] [options]",
    "faster, slower or unchanged against a baseline; exit 1 on a regression",
    "Per benchmark, is RUN (default @latest) faster, slower or unchanged against the baseline "
    "(default: the run before RUN)? Mann-Whitney U per benchmark (Welch's t on log values where "
    "the launches are too few for the U test to reach the corrected level), Holm-corrected "
    "across the suite, and a change must exceed the threshold (default 5%) to count.",
    "Exit status 1 when a benchmark is slower (or now fails) or, without --allow-missing, is "
    "missing from RUN; 0 otherwise, and for the first run of a history (nothing to judge "
    "against yet); 3 when the runs are not comparable (a baseline named that does not exist, "
    "no benchmark or metric in common, different CPU models); 2 on other trouble. Under "
    "GitHub Actions it annotates the run (::error, ::warning) and appends its Markdown to "
    "$GITHUB_STEP_SUMMARY. See docs/store.md and docs/ci.md.",
    judge_opts,
    N(judge_opts),
    BL__STYLE_ABBREV,
    BL__POS_NONE,
    NULL,
};

static const char *const baseline_words[] = {"set", "list", "ack", "acks", "unack", NULL};

static const struct bl__opt baseline_opts[] = {
    {"store", 's', BL__ARG_TEXT, 0, "SPEC", NULL, NO_RANGE, NULL, STORE_HELP, BL__ID_STORE},
    {"reason", 'r', BL__ARG_TEXT, 0, "TEXT", NULL, NO_RANGE, NULL,
     "with ack: why the change is accepted (shown by acks)", BL__ID_REASON},
    OPT_HELP,
};

static const struct bl__command baseline_command = {
    "baseline",
    "set NAME [RUN] [--store SPEC]\nlist [--store SPEC]\nack BENCH COMMIT [--reason TEXT]\n"
    "unack BENCH COMMIT\nacks",
    "name a stored run, or accept a change: benchlab baseline set NAME [RUN]",
    "Names a stored run (default @latest) so that judge and compare can use it: @baseline:NAME, "
    "or judge --against NAME. Setting a name again moves it. `ack BENCH COMMIT` accepts a "
    "change: BENCH (a full name or a shell pattern, 'Hash/*') got slower at COMMIT (a revision "
    "or a hash), and that is known. A judge whose two runs have COMMIT between them (it is the "
    "new run's commit, or git says it came after the baseline's) passes that benchmark's "
    "regression as acknowledged, and history --changes marks the change there. `acks` lists "
    "them, `unack` withdraws one.",
    NULL,
    baseline_opts,
    N(baseline_opts),
    BL__STYLE_ABBREV,
    BL__POS_WORDS,
    baseline_words,
};

static const struct bl__opt merge_opts[] = {
    {"out", 'o', BL__ARG_FILE, 0, "FILE", NULL, NO_RANGE, NULL,
     "write the merged results there (whole or not at all)", BL__ID_OUT},
    {"format", 0, BL__ARG_TEXT, 0, "FORMAT", run_formats, NO_RANGE,
     "from --out's extension, else go", "go, json, csv or markdown", BL__ID_FORMAT},
    SAVE_GROUP("save the merged run in the store (kind merge)",
               "the store to read @REFs from and save to; implies --save when no input is a "
               "stored run"),
    OPT_HELP,
};

static const struct bl__command merge_command = {
    "merge",
    "[options] INPUT...",
    "results files or stored runs into one run: benchlab merge INPUT...",
    "Merges results into one run: INPUT is a results file (benchlab JSON, or the Go benchmark "
    "format; - for stdin) or a stored run (@REF). A benchmark in several inputs keeps the "
    "launches of all, in input order; configuration and metadata come from the first input that "
    "has them. The merged run goes to stdout in the Go format, or to --out, and with --save into "
    "the store.",
    NULL,
    merge_opts,
    N(merge_opts),
    BL__STYLE_ABBREV,
    BL__POS_FILES,
    NULL,
};

const struct bl__command *const bl__commands[] = {
    &bl__run_command, &exec_command,     &env_command,    &ab_command,
    &compare_command, &profile_command,  &report_command, &history_command,
    &judge_command,   &baseline_command, &merge_command,  &bisect_command,
};
const size_t bl__n_commands = N(bl__commands);

const struct bl__command *bl__command_find(const char *name)
{
    for (size_t i = 0; i < bl__n_commands; i++)
        if (strcmp(bl__commands[i]->name, name) == 0)
            return bl__commands[i];
    return strcmp(name, "suite") == 0 ? &bl__suite_command : NULL;
}

const char *bl__command_closest(const char *name)
{
    const char *names[sizeof bl__commands / sizeof *bl__commands];
    for (size_t i = 0; i < bl__n_commands; i++)
        names[i] = bl__commands[i]->name;
    return bl__closest(name, names, bl__n_commands);
}

int bl_main_option_args(int argc, char **argv, int i)
{
    const char *a = argv[i];
    if (!a || a[0] != '-' || !a[1])
        return 0;
    /* the suite's style: -name is --name (BL__STYLE_DASH_LONG), -h */
    const char *name = a + (a[1] == '-' ? 2 : 1);
    size_t len = strcspn(name, "=");
    bool attached = name[len] == '=';
    for (size_t k = 0; k < N(suite_opts); k++) {
        const struct bl__opt *o = &suite_opts[k];
        bool is_long = o->name && strlen(o->name) == len && strncmp(name, o->name, len) == 0;
        bool is_short = a[1] != '-' && o->short_name && len == 1 && name[0] == o->short_name;
        if (!is_long && !is_short)
            continue;
        if (o->arg == BL__ARG_NONE || attached || (o->flags & BL__OPT_OPTIONAL))
            return 1;
        return i + 1 < argc ? 2 : 1;
    }
    return 0;
}
