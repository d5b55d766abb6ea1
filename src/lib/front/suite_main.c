/*
 * suite_main.c - a suite's entry point (bl_main) and the runner's command
 * line (bl_run_main), which `benchlab run SUITE` shares.
 *
 * bl_main decides the mode from argv: "--benchlab-worker NAME ..." makes
 * this process a worker (the runner re-executed us; bench/worker.c reads
 * the rest), "--benchlab-list" prints the instances for a runner in
 * another process, anything else is the runner: bl_run_main parses the
 * options on the suite's table (options.c), opens the output, runs,
 * writes and saves. Output: the Go format on stdout as launches finish (so
 * a Ctrl-C keeps what was printed), a progress line and the summary table
 * on stderr. With --out FILE the results are written whole or not at all,
 * and a device such as /dev/null in place (base/output.c).
 *
 * Calls: engine (the run, listing, shards), bench (the registry, the
 * worker), format (the writers), instruments (counter names).
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
#include "../bench/bench.h"
#include "../engine/engine.h"
#include "../instruments/hw_counters.h"
#include "../instruments/profiler.h"
#include "benchlab/format.h"
#include "benchlab/output.h"
#include "benchlab/run.h"
#include "front.h"

double bl_parse_duration(const char *s)
{
    return bl__parse_duration(s);
}

struct front {
    int tty;
    int color;
    int table;
    FILE *out;
    int fmt; /* enum out_format: anything but FMT_GO is written whole at the end */
    struct bl__progress progress;
    char *alloc_said; /* the last allocation-pass message shown, said once */
    /* the profile pass */
    const char *profile_formats; /* validated list, "raw" included */
    long profile_top;
    char *profile_said; /* said once, as alloc_said */
    char cli[PATH_MAX]; /* the benchlab command that converts raw profiles; "" until found */
    int cli_searched;
    size_t units_written;    /* Unit metadata lines written so far */
    const char *job_written; /* the job of the last "job:" line; NULL: none yet */
    int go_err;              /* the first error of the Go writer (a line too long): exit 2 */
    int out_existed;         /* --out named something that existed before the run */
    const bl_bench_result *go_refused; /* the last benchmark whose line was refused: said once */
    /* what launches wrote, already shown: a hash of each text per stream
     * (a suite's static constructors print the same at every launch) */
    unsigned long long said_hash[2][32];
    size_t n_said[2];
};

/* Output formats: the Go format streams launch by launch; the others are
 * written whole once the run is over. */
enum out_format {
    FMT_GO,
    FMT_JSON,
    FMT_CSV,
    FMT_MARKDOWN,
    FMT_GBENCH_JSON,
    FMT_GBENCH_CSV,
    FMT_GBENCH_CONSOLE
};
static const char *const out_formats[] = {
    "go", "json", "csv", "markdown", "gbench-json", "gbench-csv", "gbench-console", NULL};

static int out_format(const char *name)
{
    for (int i = 0; out_formats[i]; i++)
        if (strcmp(out_formats[i], name) == 0)
            return i;
    return FMT_GO;
}

static void on_begin(void *ctx, const bl_results *res, size_t total)
{
    struct front *fr = ctx;
    (void)total;
    if (fr->fmt == FMT_GO) {
        fr->go_err = bl_gobench_write_header(fr->out, res);
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
    bl__progress_show(&fr->progress, "[%zu/%zu] %s", index + 1, total, name);
}

static void clear_progress(struct front *fr)
{
    bl__progress_clear(&fr->progress);
}

/* Whether this text of stream k was shown before (then it is not shown
 * again); remembers it otherwise. */
static int said_before(struct front *fr, int k, const char *text, size_t total)
{
    unsigned long long h =
        bl__fnv1a(BL__FNV1A_BASIS ^ total, text ? text : "", text ? strlen(text) : 0);
    for (size_t i = 0; i < fr->n_said[k]; i++)
        if (fr->said_hash[k][i] == h)
            return 1;
    if (fr->n_said[k] < sizeof fr->said_hash[k] / sizeof fr->said_hash[k][0])
        fr->said_hash[k][fr->n_said[k]++] = h;
    return 0;
}

/* Show what the benchmark wrote, apart from the results: once, however
 * many launches write the same. */
static void show_captured(struct front *fr, const char *name, const char *what, const char *text,
                          size_t total)
{
    if (!total || said_before(fr, strcmp(what, "stdout") == 0, text, total))
        return;
    struct bl__buf safe = {0}; /* a benchmark's bytes never reach the terminal raw */
    fprintf(stderr, "%s wrote %zu byte%s to %s:\n", bl__terminal_safe(&safe, name), total,
            total == 1 ? "" : "s", what);
    int lines = 0;
    const char *p = text ? text : "";
    while (*p && lines < 10) {
        size_t n = strcspn(p, "\n");
        safe.len = 0;
        bl__buf_append(&safe, "", 0);
        bl__terminal_text(&safe, p, n > 200 ? 200 : n, 0);
        fprintf(stderr, "  | %s\n", safe.data ? safe.data : "");
        p += n;
        if (*p == '\n')
            p++;
        lines++;
    }
    if (*p || total > strlen(text ? text : ""))
        fprintf(stderr, "  | ...\n");
    bl__buf_fini(&safe);
}

static void on_launch(void *ctx, const bl_results *res, const bl_bench_result *b,
                      const bl_launch *l)
{
    struct front *fr = ctx;
    clear_progress(fr);
    if (fr->fmt == FMT_GO) {
        int werr = bl_gobench_write_units(fr->out, res, &fr->units_written);
        if (!werr && !l->status && !l->skipped)
            werr = bl_gobench_write_job(fr->out, &fr->job_written, b);
        if (!werr)
            werr = bl_gobench_write_launch(fr->out, b, l);
        fflush(fr->out);
        if (werr && b != fr->go_refused) {
            fr->go_refused = b;
            /* a name that long: its first 200 bytes say which */
            char head[201];
            struct bl__buf sn = {0};
            snprintf(head, sizeof head, "%s", b->name);
            fprintf(stderr, "benchlab: %s%s (%zu bytes): result not written: %s\n",
                    bl__terminal_safe(&sn, head), strlen(b->name) > 200 ? "..." : "",
                    strlen(b->name), bl_strerror(werr));
            bl__buf_fini(&sn);
        }
        if (werr && !fr->go_err)
            fr->go_err = werr;
    }
    if (l->status) {
        struct bl__buf sn = {0}, sm = {0};
        fprintf(stderr, "benchlab: %s: %s%s\n", bl__shown_bench(&sn, b->name, b->job),
                bl__terminal_safe(&sm, l->message ? l->message : "failed"),
                l->disturbed ? " (launch set aside: kept only if no launch is clean)" : "");
        bl__buf_fini(&sn);
        bl__buf_fini(&sm);
    }
    if (b->alloc_message && b->n_launches == 1 &&
        !(fr->alloc_said && strcmp(fr->alloc_said, b->alloc_message) == 0 &&
          strstr(b->alloc_message, " is "))) {
        /* per-benchmark reasons name the benchmark; a reason about the whole
         * suite (statically linked, sanitizer) is said once */
        fprintf(stderr, "benchlab: %s: --alloc: %s\n", bl__shown_name(b->name), b->alloc_message);
        free(fr->alloc_said);
        fr->alloc_said = strdup(b->alloc_message);
    }
    show_captured(fr, bl__shown_name(b->name), "stdout", l->out, l->out_total);
    show_captured(fr, bl__shown_name(b->name), "stderr", l->err, l->err_total);
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
        fprintf(stderr, "benchlab: %s: --profile: %s\n", bl__shown_name(b->name), msg);
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
                bl__shown_name(b->name), b->profile_raw, b->profile_raw);
        return;
    }
    fprintf(stderr, "benchlab: profile of %s:\n", bl__shown_name(b->name));
    fflush(stderr);
    int st = run_converter(cli, b->profile_raw, formats, fr->profile_top);
    if (st != 0)
        fprintf(stderr, "benchlab: %s: --profile: the raw profile was not converted; kept %s\n",
                bl__shown_name(b->name), b->profile_raw);
    else if (!keep_raw)
        unlink(b->profile_raw);
}

int bl_main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--benchlab-worker") == 0)
        return bl__worker_main_argv(argc, argv);
    if (argc == 2 && strcmp(argv[1], "--benchlab-statistics") == 0)
        return bl__statistics_serve(); /* for benchlab run SUITE (statistics.c) */
    if (argc >= 2 && strcmp(argv[1], "--benchlab-list") == 0) {
        size_t n;
        const struct bl__instance *in = bl__registry_instances(&n);
        /* a runner that asks (benchlab run SUITE) gets our name on the header */
        char *suite = NULL, why[512];
        bool ask_suite = false, ask_settings = false;
        for (int i = 2; i < argc; i++) {
            ask_suite |= strcmp(argv[i], "suite") == 0;
            ask_settings |= strcmp(argv[i], "settings") == 0;
        }
        int serr = ask_suite ? bl__suite_name(&suite, why, sizeof why) : 0;
        if (serr)
            printf("benchlab-list 1 error=%s\n", why);
        else if (suite)
            printf("benchlab-list 1 suite=%s\n", suite);
        else
            printf("benchlab-list 1\n");
        free(suite);
        for (size_t i = 0; i < n; i++) {
            printf("%s\n", in[i].name);
            /* a definition's own plan (.count, .time_s), for the runner */
            const bl_bench_def *d = in[i].def;
            if (ask_settings && (d->count > 0 || d->time_s > 0))
                printf("\tcount=%d time=%.17g\n", d->count > 0 ? d->count : 0,
                       d->time_s > 0 ? d->time_s : 0.0);
        }
        return bl_output_flush_stdout() == 0 ? 0 : 1;
    }
    bl_output_watch_stdout(); /* a failed write to stdout is named (>/dev/full) */
    int status;
    if (bl__gbench_flags(&argc, &argv, &status))
        return status;
    return bl_run_main(argc, argv, NULL);
}

/* Take the parsed options into the run's options; 0, or 2 after the message. */
struct suite_args {
    const char *out_path, *color, *format, *profile_list;
    const char *time_unit; /* --time-unit: Google Benchmark's formats; NULL: ns */
    long profile_top;
    int list, table, plots, do_save;
    bl_run_save_request save;
    const char *commit, *branch; /* --commit, --branch: saved as the results' own */
    struct bl__jobs_args jobs;   /* benchlab run's --job, --env, --baseline */
};

static int take_options(const struct bl__args *a, const char *prog, bl_run_options *o,
                        struct suite_args *s)
{
    struct bl__save_args save = {0};
    char err[256];
    for (size_t i = 0; i < a->n_hits; i++) {
        const struct bl__hit *h = &a->hits[i];
        const char *v = h->value;
        int taken = bl__save_take(h, &save, err, sizeof err);
        if (taken < 0) {
            fprintf(stderr, "%s: %s\n", prog, err);
            return 2;
        }
        if (taken)
            continue;
        if ((taken = bl__jobs_take(&s->jobs, h, err, sizeof err)) < 0) {
            fprintf(stderr, "%s: %s\n", prog, taken == -ENOMEM ? bl_strerror(taken) : err);
            return 2;
        }
        if (taken)
            continue;
        switch ((enum bl__optid)h->opt->id) {
        case BL__ID_FILTER:
            o->filter = v;
            break;
        case BL__ID_LIST:
            s->list = 1;
            break;
        case BL__ID_TIME:
            o->time_s = h->num;
            break;
        case BL__ID_TIMEOUT:
            o->timeout_s = h->num;
            break;
        case BL__ID_BATCH:
            o->batch_ms = h->num * 1e3;
            break;
        case BL__ID_COUNT:
            o->count = (int)h->num;
            break;
        case BL__ID_ITERATIONS:
            o->iterations = (unsigned long long)h->num;
            break;
        case BL__ID_ALLOC:
            o->alloc = 1;
            break;
        case BL__ID_INSTRUCTIONS:
            o->instructions = 1;
            break;
        case BL__ID_COMPLEXITY:
            o->complexity = 1;
            break;
        case BL__ID_COUNTERS:
            o->counters = v ? v : "";
            break;
        case BL__ID_PROFILE:
            o->profile = v ? v : "sample";
            break;
        case BL__ID_PROFILE_DIR:
            o->profile_dir = v;
            break;
        case BL__ID_PROFILE_FORMAT:
            s->profile_list = v;
            break;
        case BL__ID_PROFILE_HZ:
            o->profile_hz = (unsigned)h->num;
            break;
        case BL__ID_PROFILE_TOP:
            s->profile_top = (long)h->num;
            break;
        case BL__ID_SEED:
            o->seed = strtoull(v, NULL, 0);
            break;
        case BL__ID_OUT:
            s->out_path = v;
            break;
        case BL__ID_FORMAT:
            s->format = v;
            break;
        case BL__ID_TIME_UNIT:
            s->time_unit = v;
            break;
        case BL__ID_PKG:
            o->pkg = v;
            break;
        case BL__ID_CPU:
            o->cpus = v;
            break;
        case BL__ID_TUNE_FILE:
            o->tune_file = v;
            break;
        case BL__ID_NO_TABLE:
            s->table = 0;
            break;
        case BL__ID_NO_PLOTS:
            s->plots = 0;
            break;
        case BL__ID_COLOR:
            s->color = v;
            break;
        case BL__ID_SHARD: {
            int k = 0, n = 0, used = 0;
            if (sscanf(v, "%d/%d%n", &k, &n, &used) != 2 || v[used] || n < 1 || n > 100000 ||
                k < 1 || k > n) {
                fprintf(stderr, "%s: --shard: '%s' is not K/N with 1 <= K <= N\n", prog, v);
                return 2;
            }
            o->shard_index = k;
            o->shard_count = n;
            s->save.shard = v;
            break;
        }
        default:
            break;
        }
    }
    /* for a suite, every option of the save group asks for saving */
    s->do_save = save.on || save.given_store || save.given_run_id || save.given_tag ||
                 save.given_commit || save.given_branch;
    s->commit = save.commit;
    s->branch = save.branch;
    s->save.store = save.store;
    s->save.run_uid = save.run_uid;
    s->save.tag = save.tag;
    int jerr = bl__jobs_finish(&s->jobs, o, err, sizeof err);
    if (jerr) {
        fprintf(stderr, "%s: %s\n", prog, jerr == -ENOMEM ? bl_strerror(jerr) : err);
        return 2;
    }
    return 0;
}

/* Parse argv into *o and *sa. Returns -1 to go on, else the exit status
 * (after --help, --version or the message of a bad option). */
static int parse_command_line(int argc, char **argv, const char *prog,
                              const struct bl__command *cmd, bl_run_options *o,
                              struct suite_args *sa)
{
    struct bl__args args;
    char perr[512];
    if (bl__args_parse(cmd, argc, argv, &args, perr, sizeof perr)) {
        fprintf(stderr, "%s: %s\n", prog, perr);
        return 2;
    }
    if (args.help) {
        bl__help_write(stdout, cmd, prog);
        /* a suite of the Google Benchmark layer (its instances are named
         * raw): its users look here for the flags they know */
        size_t n;
        const struct bl__instance *in = bl__registry_instances(&n);
        bool gbench = false;
        for (size_t i = 0; i < n && !gbench; i++)
            gbench = in[i].def->raw_name != 0;
        if (gbench)
            printf("\nGoogle Benchmark's flags work too: --benchmark_filter=RE (-RE: the\n"
                   "others), --benchmark_list_tests, --benchmark_min_time=S (or Nx),\n"
                   "--benchmark_repetitions=N, --benchmark_format=console|json|csv,\n"
                   "--benchmark_out=FILE, --benchmark_out_format=F, --benchmark_time_unit=U,\n"
                   "--benchmark_perf_counters=LIST, and BENCHMARK_FILTER=RE... in the\n"
                   "environment: docs/from-google-benchmark.md.\n");
        return 0;
    }
    if (args.version) {
        printf("benchlab %s\n", bl_version());
        return 0;
    }
    if (args.n_pos) {
        fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, args.pos[0]);
        return 2;
    }
    int rc = take_options(&args, prog, o, sa);
    if (rc)
        return rc;
    if (o->counters) {
        /* unknown or repeated names are bad usage, before anything runs */
        int idx[BL__MAX_HW_COUNTERS], nc;
        char why[300];
        if (bl__hw_counters_parse(o->counters, idx, &nc, why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s\n", prog, why);
            return 2;
        }
    }
    return -1;
}

/* --list: the matching benchmarks (of this shard), one per line. */
static int list_benchmarks(const char *prog, const bl_run_options *o)
{
    char **names;
    char why[512];
    long n = bl__list_matching(o->exe, o->filter, &names, why, sizeof why);
    if (n < 0) {
        fprintf(stderr, "%s: %s\n", prog, why);
        return 2;
    }
    n = (long)bl__shard_keep(names, (size_t)n, o->shard_index, o->shard_count);
    struct bl__buf safe = {0}; /* a name's control bytes as \xNN: one name, one line */
    for (long i = 0; i < n; i++)
        printf("%s\n", bl__terminal_safe(&safe, names[i]));
    bl__buf_fini(&safe);
    bl_names_free(names, (size_t)n);
    return bl__list_flushed(prog);
}

/* The output: stdout, or --out (benchlab/output.h: a regular file is
 * replaced whole or not at all, a device written in place). 0, or 2 after
 * the message. */
static int open_output(struct front *fr, const struct suite_args *sa, const char *prog,
                       bl_output **output)
{
    fr->tty = isatty(2);
    fr->progress.to = fr->tty ? stderr : NULL;
    fr->color = strcmp(sa->color, "always") == 0 ||
                (strcmp(sa->color, "auto") == 0 && bl_terminal_colors(2));
    fr->table = sa->table;
    fr->fmt = out_format(bl__format_for(sa->format, sa->out_path, out_formats, "go"));
    fr->profile_formats = sa->profile_list;
    fr->profile_top = sa->profile_top;
    struct stat st;
    fr->out_existed = sa->out_path && stat(sa->out_path, &st) == 0;
    int err = bl_output_open(sa->out_path, output);
    if (err) {
        fprintf(stderr, "%s: %s %s: %s\n", prog, bl__out_option(), sa->out_path, bl_strerror(err));
        return 2;
    }
    fr->out = bl_output_file(*output);
    return 0;
}

/* Did any launch give a result (a time)? A run without one has nothing
 * to save and nothing to write to an --out file. */
static bool any_result(const bl_results *res)
{
    for (size_t i = 0; res && i < res->n_benches; i++)
        for (size_t j = 0; j < res->benches[i].n_launches; j++) {
            const bl_launch *l = &res->benches[i].launches[j];
            if (!l->status && !l->skipped && !isnan(l->ns_per_op))
                return true;
        }
    return false;
}

/* The table on stderr, what the Go format adds at the end, the whole-run
 * formats, and closing the output (every write checked). An --out file
 * is not written when no benchmark gave a result: a new path is not made
 * and a file that was there is left as it was (a device, a FIFO or stdout
 * has had the Go header and gets the rest, as the run goes). Returns the
 * exit status so far. */
static int write_results(struct front *fr, const struct suite_args *sa, const bl_run_options *o,
                         const char *prog, bl_results *res, int rc, bl_output *output)
{
    if (sa->table && res) {
        fputc('\n', stderr);
        bl_table_write(stderr, res,
                       (fr->color ? BL_TABLE_COLOR : 0) |
                           (sa->plots && bl_terminal_plots(2) ? BL_TABLE_PLOTS : 0));
        bl__statistics_write(stderr, res);
    } else if (res) {
        /* without the table, still say what the complexity fits warn about */
        for (size_t i = 0; i < res->n_complexity; i++)
            if (res->complexity[i].message)
                fprintf(stderr, "%s: %s: complexity: %s\n", prog,
                        bl__shown_name(res->complexity[i].name), res->complexity[i].message);
    }
    if (o->complexity && res && res->n_complexity == 0 && rc != BL_EINTR)
        fprintf(stderr,
                "%s: --complexity: no benchmark here has a size to fit (exactly one integer "
                "parameter, or .complexity_param)\n",
                prog);
    if (fr->fmt == FMT_GO && res) {
        /* launches kept at the end of the run although disturbed (bl_run:
         * no launch of their benchmark was clean) were not written when
         * they ended */
        int werr = 0;
        for (size_t i = 0; !werr && i < res->n_benches; i++)
            for (size_t j = 0; !werr && j < res->benches[i].n_launches; j++) {
                const bl_launch *l = &res->benches[i].launches[j];
                if (!l->disturbed || l->status || l->skipped)
                    continue;
                werr = bl_gobench_write_units(fr->out, res, &fr->units_written);
                if (!werr)
                    werr = bl_gobench_write_job(fr->out, &fr->job_written, &res->benches[i]);
                if (!werr)
                    werr = bl_gobench_write_launch(fr->out, &res->benches[i], l);
            }
        if (!werr)
            werr = bl_gobench_write_complexity(fr->out, res);
        if (!werr)
            werr = bl_gobench_write_notes(fr->out, res);
        if (!fr->go_err)
            fr->go_err = werr;
        fflush(fr->out);
    }
    int status = rc == BL_EINTR ? 130 : rc == 0 ? 0 : 1;
    if (!any_result(res) && bl__output_replaces(output)) {
        bl_output_discard(output);
        fprintf(stderr, "%s: %s %s: not written: no benchmark gave a result (%s)\n", prog,
                bl__out_option(), sa->out_path,
                fr->out_existed ? "the file is as it was" : "no file was made");
        return status;
    }
    if (fr->go_err) {
        if (fr->go_err != BL_ETOOLONG) /* that one was said at its launch */
            fprintf(stderr, "%s: writing results: %s\n", prog, bl_strerror(fr->go_err));
        status = 2;
    }
    if (fr->fmt != FMT_GO && res) {
        if (sa->time_unit)
            snprintf(res->time_unit, sizeof res->time_unit, "%s", sa->time_unit);
        int werr = fr->fmt == FMT_GBENCH_JSON      ? bl_gbench_json_write(fr->out, res, prog)
                   : fr->fmt == FMT_GBENCH_CSV     ? bl_gbench_csv_write(fr->out, res)
                   : fr->fmt == FMT_GBENCH_CONSOLE ? bl_gbench_console_write(fr->out, res)
                   : fr->fmt == FMT_JSON           ? bl_json_write(fr->out, res)
                   : fr->fmt == FMT_CSV            ? bl_csv_write(fr->out, res)
                                                   : bl_markdown_write(fr->out, res);
        if (werr) {
            fprintf(stderr, "%s: writing results: %s\n", prog, bl_strerror(werr));
            status = 2;
        }
    }
    int cerr = bl_output_close(output);
    if (cerr) {
        fprintf(stderr, "%s: %s%s%s: %s\n", prog, sa->out_path ? bl__out_option() : "",
                sa->out_path ? " " : "", sa->out_path ? sa->out_path : "stdout", bl_strerror(cerr));
        status = 2;
    }
    return status;
}

/* --save, after the results are out: a store that fails loses nothing.
 * Returns the exit status. */
static int save_results(const struct suite_args *sa, const char *prog, bl_results *res, int rc,
                        int status)
{
    if (!sa->do_save || !res)
        return status;
    if (rc == BL_EINTR) {
        fprintf(stderr,
                "%s: --save: an interrupted run is not saved (the store keeps whole runs)\n", prog);
        return status;
    }
    if (!any_result(res)) {
        /* a store the check before the run found missing is not made either */
        fprintf(stderr, "%s: --save: nothing saved: no benchmark gave a result\n", prog);
        return status;
    }
    /* the store takes a commit and branch the results carry over the CI's
     * variables and git (docs/store.md); the output is already written */
    if ((sa->commit && bl_results_set_meta(res, "commit", sa->commit)) ||
        (sa->branch && bl_results_set_meta(res, "branch", sa->branch))) {
        fprintf(stderr, "%s: --save: out of memory\n", prog);
        return 2;
    }
    char why[1024] = "", where[512] = "";
    int64_t run_id = 0;
    bl_run_saver saver = bl__run_saver(why, sizeof why);
    int serr =
        saver ? saver(&sa->save, res, &run_id, where, sizeof where, why, sizeof why) : BL_ENOTFOUND;
    if (serr) {
        fprintf(stderr, "%s: --save: %s\n%s: the results were written but not saved\n", prog,
                why[0] ? why : bl_strerror(serr), prog);
        return 2;
    }
    fprintf(stderr, "%s: saved as run %lld in %s\n", prog, (long long)run_id, where);
    return status;
}

static int run_suite(bl_run_options *op, struct suite_args *sap, const char *prog, const char *exe,
                     bool cli);

/* The suite's command line: parse -> open the output -> run -> write ->
 * save. `cli`: benchlab run's (with its job options); exe NULL there is a
 * run of jobs only. */
static int run_main(int argc, char **argv, const char *exe, bool cli)
{
    const char *prog = exe ? exe : cli ? "benchlab run" : (argc > 0 ? argv[0] : "suite");
    bl_run_options o;
    bl_run_options_init(&o);
    o.exe = exe;
    struct suite_args sa = {
        .color = "auto", .profile_list = "text", .profile_top = 5, .table = 1, .plots = 1};
    int rc =
        parse_command_line(argc, argv, prog, cli ? &bl__run_command : &bl__suite_command, &o, &sa);
    if (rc < 0 && cli && !exe && !o.n_jobs) {
        fprintf(stderr, "%s: name a suite executable, or give jobs: --job NAME=SUITE ...\n", prog);
        rc = 2;
    }
    if (rc < 0 && exe && o.n_jobs) {
        fprintf(stderr,
                "%s: a suite and --job: give the suite as a job too (--job NAME=%s), or no "
                "jobs\n",
                prog, exe);
        rc = 2;
    }
    if (rc >= 0) {
        bl__jobs_fini(&sa.jobs);
        return rc;
    }
    rc = run_suite(&o, &sa, prog, exe, cli);
    bl__jobs_fini(&sa.jobs);
    return rc;
}

int bl_run_main(int argc, char **argv, const char *exe)
{
    return run_main(argc, argv, exe, exe != NULL);
}

int bl__run_main_cli(int argc, char **argv, const char *exe)
{
    return run_main(argc, argv, exe, true);
}

static int run_suite(bl_run_options *op, struct suite_args *sap, const char *prog, const char *exe,
                     bool cli)
{
    bl_run_options o = *op;
    struct suite_args sa = *sap;
    int rc;
    if (sa.list)
        return list_benchmarks(prog, &o);
    char pre[2048];
    if (bl__preflight(&o, sa.out_path, sa.do_save ? &sa.save : NULL, pre, sizeof pre) != 0) {
        fprintf(stderr, "%s: %s; nothing was measured\n", prog, pre);
        return 2;
    }
    if (bl__jobs_build(&sa.jobs, prog))
        return 2;
    struct front fr = {0};
    bl_output *output = NULL;
    if (open_output(&fr, &sa, prog, &output))
        return 2;

    bl_run_install_signal_handlers();
    bl_run_observer obs = {&fr, on_begin, on_start, on_launch, on_profile};
    bl_results *res = NULL;
    char err[512] = "";
    rc = bl_run(&o, &obs, &res, err, sizeof err);
    clear_progress(&fr);
    if (!exe && !cli)
        bl__statistics_attach_self(
            res, o.timeout_s); /* the suite's own runner: a child of it computes */
    else if (exe && !o.n_jobs &&
             (sa.table || fr.fmt == FMT_GBENCH_JSON || fr.fmt == FMT_GBENCH_CSV ||
              fr.fmt == FMT_GBENCH_CONSOLE))
        bl__statistics_attach_remote(res, exe,
                                     o.timeout_s); /* benchlab run: the suite computes them */
    int status;
    if (rc < 0 && rc != BL_EINTR) {
        fprintf(stderr, "%s: %s\n", prog, err[0] ? err : bl_strerror(rc));
        bl_output_discard(output);
        status = 2;
    } else {
        status = write_results(&fr, &sa, &o, prog, res, rc, output);
        if (rc == BL_EINTR)
            fprintf(stderr, "%s: interrupted; results above are the benchmarks that finished\n",
                    prog);
        const char *tuned = res ? bl_results_get_meta(res, "tune") : NULL;
        if (tuned && sa.table)
            fprintf(stderr, "benchlab: --tune-file: %s\n", tuned);
        const char *tune_err = res ? bl_results_get_meta(res, "tune-error") : NULL;
        if (tune_err)
            fprintf(stderr, "%s: %s: the results are complete, the tune file was not updated\n",
                    prog, tune_err);
        status = save_results(&sa, prog, res, rc, status);
    }
    bl__statistics_detach(res);
    bl_results_destroy(res);
    free(fr.alloc_said);
    free(fr.profile_said);
    return status;
}
