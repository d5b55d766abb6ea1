/*
 * main.c - a suite's entry point (bl_main) and the runner's command line
 * (bl_run_main), which `benchlab run SUITE` shares.
 *
 * bl_main decides the mode from argv: "--benchlab-worker NAME ..." makes
 * this process a worker (the runner re-executed us), "--benchlab-list"
 * prints the instances for a runner in another process, anything else is
 * the runner. Output: the Go format on stdout as launches finish (so a
 * Ctrl-C keeps what was printed), a progress line and the summary table on
 * stderr. With --out FILE the results are written to FILE.tmp and renamed
 * at the end: whole or not at all.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/base.h"
#include "../engine/engine.h"
#include "../instruments/counters.h"
#include "../instruments/profiler.h"
#include "bench.h"
#include "benchlab/format.h"
#include "benchlab/run.h"

static const char usage[] =
    "usage: %s [options]\n"
    "\n"
    "Runs the benchmarks of this suite, each in worker processes of its own,\n"
    "and writes results in the Go benchmark format to stdout.\n"
    "\n"
    "  --filter REGEX     run the benchmarks whose full name matches (POSIX ERE)\n"
    "  --list             list the benchmarks and exit\n"
    "  --time DURATION    measuring budget per benchmark, split across its launches\n"
    "                     (default 0.5s; operations of 5ms or more get twice this)\n"
    "  --count N          launches (worker processes) per benchmark, interleaved, one\n"
    "                     result line each (default 6)\n"
    "  --timeout DURATION kill a worker that runs longer (default 60s)\n"
    "  --batch DURATION   target length of one timed batch (default 1ms)\n"
    "  --alloc            also count allocations in a pass of their own: B/op, allocs/op\n"
    "  --complexity       fit time/op against the size parameter of every benchmark that\n"
    "                     has one integer parameter: O(1), O(log n) ... O(n^3)\n"
    "  --counters[=LIST]  hardware counters per op: instructions, cycles, branches,\n"
    "                     branch-misses, cache-references, cache-misses (default: all)\n"
    "  --profile[=MODE]   also profile each benchmark in a pass of its own, only while\n"
    "                     measured batches run: sample (default) or trace (a suite built\n"
    "                     with -finstrument-functions, linked with -lbenchlab-trace)\n"
    "  --profile-dir DIR  where the profiles go (default: SUITE.profile)\n"
    "  --profile-format LIST  text (default: flat profile and call tree), flat, tree,\n"
    "                     folded, csv, svg, pprof, speedscope, chrome, raw; comma-separated\n"
    "  --profile-hz HZ    samples per second (default 1000)\n"
    "  --profile-top N    functions in the summary per benchmark (default 5; 0: none)\n"
    "  --seed N           seed for batch-size jitter (default: from the clock)\n"
    "  --out FILE         write the results to FILE instead of stdout\n"
    "  --save             also save the run in the results store (docs/store.md)\n"
    "  --store SPEC       the store: a file, or postgresql://... (default:\n"
    "                     $BENCHLAB_STORE, else .benchlab/results.db in the project);\n"
    "                     implies --save\n"
    "  --run-id NAME      save into the run NAME (shards of one CI run); implies --save\n"
    "  --tag TEXT         a label for the saved run, shown by benchlab history\n"
    "  --shard K/N        run shard K of N: the benchmarks whose name hashes to K\n"
    "                     (a CI matrix runs 1/N .. N/N; --run-id joins them in the store)\n"
    "  --format FMT       go, json, csv or markdown (default: from --out's extension,\n"
    "                     .json .csv .md .txt, else go)\n"
    "  --pkg NAME         value of the pkg: configuration line (default: program name)\n"
    "  --cpu LIST         pin workers to these CPUs, such as 1 or 0-3,6\n"
    "  --tune-file FILE   cache each benchmark's batch size in FILE for this machine:\n"
    "                     known benchmarks skip the pilot, new ones are added\n"
    "  --no-table         do not print the summary table on stderr\n"
    "  --no-plots         no sparklines in the table (also BENCHLAB_NO_PLOTS=1; they\n"
    "                     are drawn only when stderr is a terminal)\n"
    "  --color WHEN       auto, always or never (NO_COLOR is respected)\n"
    "  --version, --help\n"
    "\n"
    "Durations take a unit: 500ms, 2s, 1m (a bare number is seconds).\n";

double bl_parse_duration(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v >= 0))
        return -1;
    if (*end == '\0' || strcmp(end, "s") == 0)
        return v;
    if (strcmp(end, "ms") == 0)
        return v / 1e3;
    if (strcmp(end, "us") == 0 || strcmp(end, "µs") == 0)
        return v / 1e6;
    if (strcmp(end, "ns") == 0)
        return v / 1e9;
    if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
        return v * 60;
    return -1;
}

struct front {
    int tty;
    int color;
    int table;
    FILE *out;
    int fmt; /* enum out_format: anything but FMT_GO is written whole at the end */
    int progress_shown;
    char *alloc_said; /* the last allocation-pass message shown, said once */
    /* the profile pass */
    const char *profile_formats; /* validated list, "raw" included */
    long profile_top;
    char *profile_said; /* said once, as alloc_said */
    char cli[PATH_MAX]; /* the benchlab command that converts raw profiles; "" until found */
    int cli_searched;
    size_t units_written; /* Unit metadata lines written so far */
};

/* Output formats: the Go format streams launch by launch; the others are
 * written whole once the run is over. */
enum out_format { FMT_GO, FMT_JSON, FMT_CSV, FMT_MARKDOWN };

static int out_format(const char *name)
{
    return strcmp(name, "go") == 0         ? FMT_GO
           : strcmp(name, "json") == 0     ? FMT_JSON
           : strcmp(name, "csv") == 0      ? FMT_CSV
           : strcmp(name, "markdown") == 0 ? FMT_MARKDOWN
                                           : -1;
}

static int format_of_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && strcmp(dot, ".json") == 0)
        return FMT_JSON;
    if (dot && strcmp(dot, ".csv") == 0)
        return FMT_CSV;
    if (dot && strcmp(dot, ".md") == 0)
        return FMT_MARKDOWN;
    return FMT_GO; /* .txt and anything else */
}

static void on_begin(void *ctx, const bl_results *res, size_t total)
{
    struct front *fr = ctx;
    (void)total;
    if (fr->fmt == FMT_GO) {
        bl_gobench_write_header(fr->out, res);
        fflush(fr->out);
    }
    const char *hw = bl_results_get_meta(res, "counters-unsupported");
    if (hw)
        fprintf(stderr, "benchlab: --counters: %s\n", hw);
    const char *tune_note = bl_results_get_meta(res, "tune-note");
    if (tune_note)
        fprintf(stderr, "benchlab: --tune-file: %s\n", tune_note);
    const char *noise = bl_results_get_meta(res, "env-warnings");
    if (noise && fr->table)
        fprintf(stderr, "benchlab: noise on this machine: %s (benchlab env explains)\n", noise);
    const char *pdir = bl_results_get_meta(res, "profile-dir");
    if (pdir)
        fprintf(stderr,
                "benchlab: profiling (%s) in a pass of its own per benchmark, measured batches "
                "only; profiles go to %s/\n",
                bl_results_get_meta(res, "profile"), pdir);
}

static void on_start(void *ctx, const char *name, size_t index, size_t total)
{
    struct front *fr = ctx;
    if (!fr->tty)
        return;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", index + 1, total, name);
    fflush(stderr);
    fr->progress_shown = 1;
}

static void clear_progress(struct front *fr)
{
    if (fr->progress_shown) {
        fputs("\r\033[K", stderr);
        fr->progress_shown = 0;
    }
}

/* Show what the benchmark wrote, apart from the results. */
static void show_captured(const char *name, const char *what, const char *text, size_t total)
{
    if (!total)
        return;
    fprintf(stderr, "%s wrote %zu byte%s to %s:\n", name, total, total == 1 ? "" : "s", what);
    int lines = 0;
    const char *p = text ? text : "";
    while (*p && lines < 10) {
        size_t n = strcspn(p, "\n");
        fprintf(stderr, "  | %.*s\n", (int)(n > 200 ? 200 : n), p);
        p += n;
        if (*p == '\n')
            p++;
        lines++;
    }
    if (*p || total > strlen(text ? text : ""))
        fprintf(stderr, "  | ...\n");
}

static void on_launch(void *ctx, const bl_results *res, const bl_bench_result *b,
                      const bl_launch *l)
{
    struct front *fr = ctx;
    clear_progress(fr);
    if (fr->fmt == FMT_GO) {
        bl_gobench_write_units(fr->out, res, &fr->units_written);
        bl_gobench_write_launch(fr->out, b, l);
        fflush(fr->out);
    }
    if (l->status)
        fprintf(stderr, "benchlab: %s: %s%s\n", b->name, l->message ? l->message : "failed",
                l->disturbed ? " (launch discarded)" : "");
    if (b->alloc_message && b->n_launches == 1 &&
        !(fr->alloc_said && strcmp(fr->alloc_said, b->alloc_message) == 0 &&
          strstr(b->alloc_message, " is "))) {
        /* per-benchmark reasons name the benchmark; a reason about the whole
         * suite (statically linked, sanitizer) is said once */
        fprintf(stderr, "benchlab: %s: --alloc: %s\n", b->name, b->alloc_message);
        free(fr->alloc_said);
        fr->alloc_said = strdup(b->alloc_message);
    }
    show_captured(b->name, "stdout", l->out, l->out_total);
    show_captured(b->name, "stderr", l->err, l->err_total);
}

/* ---- the profile pass: raw profiles into profiles ----------------------- */

/*
 * Profile formats and the extension each output file gets; the names are
 * those of `benchlab profile --format`. Turning a raw profile into these
 * needs the symbolizer (libbenchlab-profile, elfutils), which libbenchlab
 * does not link: the benchlab command does it (`benchlab profile --load`),
 * in a process of its own, so a symbolizer failure cannot cost the run.
 */
static const struct {
    const char *name;
    const char *ext;
} profile_formats[] = {
    {"text", ".txt"},          {"flat", ".flat"},
    {"tree", ".tree"},         {"folded", ".folded"},
    {"csv", ".csv"},           {"svg", ".svg"},
    {"pprof", ".pb"},          {"speedscope", ".speedscope.json"},
    {"chrome", ".trace.json"}, {"raw", ".raw"},
};

/* Check a comma-separated list; 0, or -1 with the bad name in bad. */
static int profile_formats_check(const char *list, char *bad, size_t bad_size)
{
    const char *p = list;
    if (!*p) {
        snprintf(bad, bad_size, "(empty)");
        return -1;
    }
    while (*p) {
        size_t n = strcspn(p, ",");
        int known = 0;
        for (size_t i = 0; i < sizeof profile_formats / sizeof *profile_formats; i++)
            known |=
                strlen(profile_formats[i].name) == n && strncmp(profile_formats[i].name, p, n) == 0;
        if (!known) {
            snprintf(bad, bad_size, "%.*s", (int)(n > 60 ? 60 : n), p);
            return -1;
        }
        p += n + (p[n] == ',');
    }
    return 0;
}

static int has_format(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && strncmp(p, name, n) == 0)
            return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The benchlab command: beside this program (`benchlab run` itself, or a
 * suite in the build tree), else on PATH. */
static const char *find_cli(struct front *fr)
{
    if (fr->cli_searched)
        return fr->cli[0] ? fr->cli : NULL;
    fr->cli_searched = 1;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            int len = snprintf(fr->cli, sizeof fr->cli, "%s/benchlab", self);
            if (len > 0 && (size_t)len < sizeof fr->cli && executable(fr->cli))
                return fr->cli;
        }
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        size_t len = strcspn(p, ":");
        int w = snprintf(fr->cli, sizeof fr->cli, "%.*s/benchlab", (int)len, len ? p : ".");
        if (w > 0 && (size_t)w < sizeof fr->cli && executable(fr->cli))
            return fr->cli;
        p += len + (p[len] == ':');
    }
    fr->cli[0] = '\0';
    return NULL;
}

/* Run `benchlab profile --load RAW -o OUT...` with its output on our
 * stderr (stdout carries the results). Returns its exit status, or -1. */
static int run_converter(const char *cli, const char *raw, const char *formats, long top)
{
    size_t len = strlen(raw);
    size_t stem = len > 4 && strcmp(raw + len - 4, ".raw") == 0 ? len - 4 : len;
    enum { MAX_OUT = sizeof profile_formats / sizeof *profile_formats };
    char *outs[MAX_OUT] = {NULL};
    char *argv[8 + 2 * MAX_OUT];
    char top_s[24];
    snprintf(top_s, sizeof top_s, "%ld", top);
    int argc = 0, n_out = 0;
    argv[argc++] = (char *)cli;
    argv[argc++] = (char *)"profile";
    argv[argc++] = (char *)"--load";
    argv[argc++] = (char *)raw;
    argv[argc++] = (char *)"--top";
    argv[argc++] = top_s;
    for (size_t i = 0; i < MAX_OUT; i++) {
        if (strcmp(profile_formats[i].name, "raw") == 0 ||
            !has_format(formats, profile_formats[i].name))
            continue;
        struct bl__buf b = {0};
        bl__buf_printf(&b, "%.*s%s", (int)stem, raw, profile_formats[i].ext);
        outs[n_out] = b.data;
        if (!outs[n_out])
            continue;
        argv[argc++] = (char *)"-o";
        argv[argc++] = outs[n_out++];
    }
    argv[argc] = NULL;
    int status = -1;
    fflush(NULL);
    pid_t pid = n_out ? fork() : -1;
    if (pid == 0) {
        dup2(2, 1);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execv(cli, argv);
        _exit(127);
    }
    if (pid > 0) {
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
        status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    for (int i = 0; i < n_out; i++)
        free(outs[i]);
    return n_out ? status : 0;
}

static void on_profile(void *ctx, const bl_results *res, const bl_bench_result *b)
{
    struct front *fr = ctx;
    (void)res;
    clear_progress(fr);
    const char *msg = b->profile_message;
    if (msg && !(fr->profile_said && strcmp(fr->profile_said, msg) == 0)) {
        fprintf(stderr, "benchlab: %s: --profile: %s\n", b->name, msg);
        if (strstr(msg, " is ")) { /* about the whole suite (static, sanitizer): said once */
            free(fr->profile_said);
            fr->profile_said = strdup(msg);
        }
    }
    if (!b->profile_raw)
        return;
    const char *formats = fr->profile_formats ? fr->profile_formats : "text";
    int keep_raw = has_format(formats, "raw");
    const char *cli = find_cli(fr);
    if (!cli) {
        fprintf(stderr,
                "benchlab: %s: --profile: no benchlab command found to turn the raw profile "
                "into profiles; kept %s (benchlab profile --load %s)\n",
                b->name, b->profile_raw, b->profile_raw);
        return;
    }
    fprintf(stderr, "benchlab: profile of %s:\n", b->name);
    fflush(stderr);
    int st = run_converter(cli, b->profile_raw, formats, fr->profile_top);
    if (st != 0)
        fprintf(stderr, "benchlab: %s: --profile: the raw profile was not converted; kept %s\n",
                b->name, b->profile_raw);
    else if (!keep_raw)
        unlink(b->profile_raw);
}

static int worker_mode(int argc, char **argv)
{
    struct bl__worker_args a = {argv[2], 3, 0.5, 1.0, 0, 0, NULL, -1, 0, 0};
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--benchlab-fd") == 0)
            a.channel_fd = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--benchlab-time") == 0)
            a.time_s = strtod(argv[i + 1], NULL);
        else if (strcmp(argv[i], "--benchlab-batch") == 0)
            a.batch_ms = strtod(argv[i + 1], NULL);
        else if (strcmp(argv[i], "--benchlab-seed") == 0)
            a.seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--benchlab-reps") == 0)
            a.reps = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--benchlab-mode") == 0)
            a.alloc = strcmp(argv[i + 1], "alloc") == 0;
        else if (strcmp(argv[i], "--benchlab-counters") == 0)
            a.counters = argv[i + 1];
        else if (strcmp(argv[i], "--benchlab-cmd-fd") == 0)
            a.cmd_fd = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--benchlab-profile") == 0)
            a.profile =
                bl__profile_mode_parse(argv[i + 1]) > 0 ? bl__profile_mode_parse(argv[i + 1]) : 0;
    }
    return bl__worker_main(&a);
}

int bl_main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--benchlab-worker") == 0)
        return worker_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "--benchlab-list") == 0) {
        size_t n;
        const struct bl__instance *in = bl__registry_instances(&n);
        printf("benchlab-list 1\n");
        for (size_t i = 0; i < n; i++)
            printf("%s\n", in[i].name);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    return bl_run_main(argc, argv, NULL);
}

/* Accept --opt, -opt, --opt=value and --opt value. */
static int opt_is(const char *arg, const char *name, const char **value)
{
    if (arg[0] != '-')
        return 0;
    arg += arg[1] == '-' ? 2 : 1;
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '\0') {
        *value = NULL;
        return 1;
    }
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    return 0;
}

int bl_run_main(int argc, char **argv, const char *exe)
{
    const char *prog = exe ? exe : (argc > 0 ? argv[0] : "suite");
    bl_run_options o;
    bl_run_options_init(&o);
    o.exe = exe;
    const char *out_path = NULL, *color = "auto";
    bl_run_save_request save = {0};
    int do_save = 0;
    const char *format = NULL; /* NULL: from --out's extension, else go */
    int list = 0, table = 1, plots = 1;
    static const char *const with_value[] = {
        "filter",    "time",        "count",          "timeout",    "batch",
        "seed",      "out",         "format",         "pkg",        "color",
        "cpu",       "profile-dir", "profile-format", "profile-hz", "profile-top",
        "tune-file", "store",       "run-id",         "tag",        "shard"};
    const char *profile_list = "text";
    long profile_top = 5;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        const char *name = NULL;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++) {
            if (opt_is(a, with_value[k], &v)) {
                name = with_value[k];
                if (!v) {
                    if (i + 1 >= argc) {
                        fprintf(stderr, "%s: option --%s needs a value\n", prog, name);
                        return 2;
                    }
                    v = argv[++i];
                }
                break;
            }
        }
        if (!name) {
            const char *dummy;
            /* switches take no value: --alloc=no would otherwise turn it on */
            static const char *const switches[] = {"list",     "alloc", "complexity",
                                                   "no-table", "help",  "version"};
            for (size_t k = 0; k < sizeof switches / sizeof *switches; k++)
                if (opt_is(a, switches[k], &dummy) && dummy) {
                    fprintf(stderr, "%s: option --%s takes no value (got '%s')\n", prog,
                            switches[k], a);
                    return 2;
                }
            if (opt_is(a, "list", &dummy)) {
                list = 1;
            } else if (opt_is(a, "counters", &dummy)) {
                if (dummy && !*dummy) {
                    fprintf(stderr,
                            "%s: --counters=: no counter named (give a list, or --counters "
                            "alone for all)\n",
                            prog);
                    return 2;
                }
                o.counters = dummy ? dummy : "";
            } else if (opt_is(a, "alloc", &dummy)) {
                o.alloc = 1;
            } else if (opt_is(a, "complexity", &dummy)) {
                o.complexity = 1;
            } else if (opt_is(a, "profile", &dummy)) {
                if (dummy && strcmp(dummy, "sample") != 0 && strcmp(dummy, "trace") != 0) {
                    fprintf(stderr, "%s: --profile=%s: the mode is sample or trace\n", prog, dummy);
                    return 2;
                }
                o.profile = dummy ? dummy : "sample";
            } else if (opt_is(a, "save", &dummy)) {
                do_save = 1;
            } else if (opt_is(a, "no-plots", &dummy)) {
                plots = 0;
            } else if (opt_is(a, "no-table", &dummy)) {
                table = 0;
            } else if (opt_is(a, "help", &dummy) || opt_is(a, "h", &dummy)) {
                printf(usage, prog);
                return 0;
            } else if (opt_is(a, "version", &dummy)) {
                printf("benchlab %s\n", bl_version());
                return 0;
            } else {
                fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, a);
                return 2;
            }
            continue;
        }
        if (strcmp(name, "filter") == 0) {
            o.filter = v;
        } else if (strcmp(name, "time") == 0 || strcmp(name, "timeout") == 0 ||
                   strcmp(name, "batch") == 0) {
            double d = bl_parse_duration(v);
            if (!(d > 0)) {
                fprintf(stderr, "%s: --%s: '%s' is not a positive duration (try 500ms or 2s)\n",
                        prog, name, v);
                return 2;
            }
            if (name[1] == 'i' && name[4] == '\0')
                o.time_s = d;
            else if (name[1] == 'i')
                o.timeout_s = d;
            else
                o.batch_ms = d * 1e3;
        } else if (strcmp(name, "count") == 0) {
            char *end;
            long c = strtol(v, &end, 10);
            if (*end || c < 1 || c > 100000) {
                fprintf(stderr, "%s: --count: '%s' is not a count from 1 to 100000\n", prog, v);
                return 2;
            }
            o.count = (int)c;
        } else if (strcmp(name, "seed") == 0) {
            o.seed = strtoull(v, NULL, 0);
        } else if (strcmp(name, "out") == 0) {
            out_path = v;
        } else if (strcmp(name, "format") == 0) {
            if (out_format(v) < 0) {
                fprintf(stderr,
                        "%s: --format: unknown format '%s' (known: go, json, csv, markdown)\n",
                        prog, v);
                return 2;
            }
            format = v;
        } else if (strcmp(name, "pkg") == 0) {
            o.pkg = v;
        } else if (strcmp(name, "cpu") == 0) {
            o.cpus = v;
        } else if (strcmp(name, "tune-file") == 0) {
            o.tune_file = v;
        } else if (strcmp(name, "profile-dir") == 0) {
            o.profile_dir = v;
        } else if (strcmp(name, "profile-format") == 0) {
            char bad[64];
            if (profile_formats_check(v, bad, sizeof bad) != 0) {
                fprintf(stderr,
                        "%s: --profile-format: unknown format '%s' (known: text, flat, tree, "
                        "folded, csv, svg, pprof, speedscope, chrome, raw)\n",
                        prog, bad);
                return 2;
            }
            profile_list = v;
        } else if (strcmp(name, "profile-hz") == 0 || strcmp(name, "profile-top") == 0) {
            char *end;
            long hz = strtol(v, &end, 10);
            int is_hz = name[8] == 'h';
            if (*end || hz < (is_hz ? 1 : 0) || hz > (is_hz ? 100000 : 1000)) {
                fprintf(stderr, "%s: --%s: '%s' is not a number from %d to %d\n", prog, name, v,
                        is_hz ? 1 : 0, is_hz ? 100000 : 1000);
                return 2;
            }
            if (is_hz)
                o.profile_hz = (unsigned)hz;
            else
                profile_top = hz;
        } else if (strcmp(name, "store") == 0) {
            save.store = v;
            do_save = 1;
        } else if (strcmp(name, "run-id") == 0) {
            if (!*v) {
                fprintf(stderr, "%s: --run-id: give a name\n", prog);
                return 2;
            }
            save.run_uid = v;
            do_save = 1;
        } else if (strcmp(name, "tag") == 0) {
            save.tag = v;
            do_save = 1;
        } else if (strcmp(name, "shard") == 0) {
            int k = 0, n = 0, used = 0;
            if (sscanf(v, "%d/%d%n", &k, &n, &used) != 2 || v[used] || n < 1 || n > 100000 ||
                k < 1 || k > n) {
                fprintf(stderr, "%s: --shard: '%s' is not K/N with 1 <= K <= N\n", prog, v);
                return 2;
            }
            o.shard_index = k;
            o.shard_count = n;
            save.shard = v;
        } else if (strcmp(name, "color") == 0) {
            if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never")) {
                fprintf(stderr, "%s: --color: '%s' is not auto, always or never\n", prog, v);
                return 2;
            }
            color = v;
        }
    }

    if (o.counters) {
        /* unknown or repeated names are bad usage, before anything runs */
        int idx[BL__MAX_COUNTERS], nc;
        char why[300];
        if (bl__counters_parse(o.counters, idx, &nc, why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s\n", prog, why);
            return 2;
        }
    }
    if (list) {
        char **names;
        char why[512];
        long n = bl__list_matching(exe, o.filter, &names, why, sizeof why);
        if (n < 0) {
            fprintf(stderr, "%s: %s\n", prog, why);
            return 2;
        }
        n = (long)bl__shard_keep(names, (size_t)n, o.shard_index, o.shard_count);
        for (long i = 0; i < n; i++)
            printf("%s\n", names[i]);
        bl_names_free(names, (size_t)n);
        return 0;
    }

    struct front fr = {0};
    fr.tty = isatty(2);
    fr.color = strcmp(color, "always") == 0 ||
               (strcmp(color, "auto") == 0 && fr.tty && !getenv("NO_COLOR"));
    fr.table = table;
    fr.fmt = format ? out_format(format) : out_path ? format_of_path(out_path) : FMT_GO;
    fr.profile_formats = profile_list;
    fr.profile_top = profile_top;
    char *tmp_path = NULL;
    if (out_path) {
        struct bl__buf t = {0};
        bl__buf_printf(&t, "%s.tmp.%ld", out_path, (long)getpid());
        tmp_path = t.data;
        fr.out = tmp_path ? fopen(tmp_path, "w") : NULL;
        if (!fr.out) {
            fprintf(stderr, "%s: --out %s: %s\n", prog, out_path, strerror(errno));
            free(tmp_path);
            return 2;
        }
    } else {
        fr.out = stdout;
    }

    bl_run_install_signal_handlers();
    bl_run_observer obs = {&fr, on_begin, on_start, on_launch, on_profile};
    bl_results *res = NULL;
    char err[512] = "";
    int rc;
    rc = bl_run(&o, &obs, &res, err, sizeof err);
    clear_progress(&fr);
    if (rc < 0 && rc != BL_EINTR) {
        fprintf(stderr, "%s: %s\n", prog, err[0] ? err : bl_strerror(rc));
        if (out_path) {
            fclose(fr.out);
            unlink(tmp_path);
            free(tmp_path);
        }
        bl_results_destroy(res);
        return 2;
    }
    if (table && res) {
        fputc('\n', stderr);
        bl_table_write(stderr, res,
                       (fr.color ? BL_TABLE_COLOR : 0) |
                           (plots && bl_terminal_plots(2) ? BL_TABLE_PLOTS : 0));
    } else if (res) {
        /* without the table, still say what the complexity fits warn about */
        for (size_t i = 0; i < res->n_complexity; i++)
            if (res->complexity[i].message)
                fprintf(stderr, "%s: %s: complexity: %s\n", prog, res->complexity[i].name,
                        res->complexity[i].message);
    }
    if (o.complexity && res && res->n_complexity == 0 && rc != BL_EINTR)
        fprintf(stderr,
                "%s: --complexity: no benchmark here has a size to fit (exactly one integer "
                "parameter, or .complexity_param)\n",
                prog);
    if (fr.fmt == FMT_GO && res) {
        bl_gobench_write_complexity(fr.out, res);
        bl_gobench_write_notes(fr.out, res);
        fflush(fr.out);
    }
    int status = rc == BL_EINTR ? 130 : rc == 0 ? 0 : 1;
    if (fr.fmt != FMT_GO && res) {
        int werr = fr.fmt == FMT_JSON  ? bl_json_write(fr.out, res)
                   : fr.fmt == FMT_CSV ? bl_csv_write(fr.out, res)
                                       : bl_markdown_write(fr.out, res);
        if (werr) {
            fprintf(stderr, "%s: writing results: %s\n", prog, bl_strerror(werr));
            status = 2;
        }
    }
    if (out_path) {
        if (fflush(fr.out) != 0 || ferror(fr.out) || fclose(fr.out) != 0 ||
            rename(tmp_path, out_path) != 0) {
            fprintf(stderr, "%s: --out %s: %s\n", prog, out_path, strerror(errno));
            unlink(tmp_path);
            status = 2;
        }
        free(tmp_path);
    }
    if (rc == BL_EINTR)
        fprintf(stderr, "%s: interrupted; results above are the benchmarks that finished\n", prog);
    const char *tuned = res ? bl_results_get_meta(res, "tune") : NULL;
    if (tuned && table)
        fprintf(stderr, "benchlab: --tune-file: %s\n", tuned);
    const char *tune_err = res ? bl_results_get_meta(res, "tune-error") : NULL;
    if (tune_err)
        fprintf(stderr, "%s: %s: the results are complete, the tune file was not updated\n", prog,
                tune_err);
    if (do_save && res && rc == BL_EINTR) {
        fprintf(stderr,
                "%s: --save: an interrupted run is not saved (the store keeps whole runs)\n", prog);
    } else if (do_save && res) {
        /* after the results are out: a store that fails loses nothing */
        char why[1024] = "", where[512] = "";
        int64_t run_id = 0;
        bl_run_saver saver = bl__run_saver(why, sizeof why);
        int serr =
            saver ? saver(&save, res, &run_id, where, sizeof where, why, sizeof why) : BL_ENOTFOUND;
        if (serr) {
            fprintf(stderr, "%s: --save: %s\n%s: the results were written but not saved\n", prog,
                    why[0] ? why : bl_strerror(serr), prog);
            status = 2;
        } else {
            fprintf(stderr, "%s: saved as run %lld in %s\n", prog, (long long)run_id, where);
        }
    }
    bl_results_destroy(res);
    free(fr.alloc_said);
    free(fr.profile_said);
    return status;
}
