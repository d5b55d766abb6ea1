/*
 * cmd_ab.c - `benchlab ab OLD NEW [options]`: did my change make it slower?
 * Parses options, shows progress on a terminal, prints the table and the
 * machine-readable output; the measuring and the statistic are the
 * library's (benchlab/ab.h).
 *
 * Outputs: the table on stdout; with --format json|csv that format goes to
 * stdout and the table to stderr; with --out FILE the format (from
 * --format or the extension) goes to FILE, written whole or not at all.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/ab.h"
#include "benchlab/run.h"
#include "cli.h"

static void usage(FILE *f)
{
    fputs("usage: benchlab ab OLD NEW [options]\n\n"
          "Compares two builds of a benchmark suite, benchmark by benchmark: workers of\n"
          "both builds run side by side, alternating ~1 ms batches in random ABBA/BAAB\n"
          "blocks, in several process pairs; the ratio NEW/OLD gets a confidence interval\n"
          "and a verdict: faster, slower or no difference.\n\n"
          "  --filter REGEX       compare the benchmarks whose full name matches (POSIX ERE)\n"
          "  --time DURATION      budget per benchmark comparison, start-up included (1s)\n"
          "  --threshold PCT      smallest change called faster or slower (0.5%)\n"
          "  --metric METRIC      time (ns/op, default) or ref-cycles (time over a\n"
          "                       reference chain timed beside each batch)\n"
          "  --pairs N            worker process pairs per benchmark (4)\n"
          "  --confidence LEVEL   of the interval (0.95)\n"
          "  --format FMT         table (default), json or csv\n"
          "  --out FILE           write the format (or from .json/.csv) to FILE; the table\n"
          "                       stays on stdout\n"
          "  --fail-on-slower     exit 1 when a benchmark is slower\n"
          "  --batch DURATION     target length of one batch (1ms)\n"
          "  --timeout DURATION   kill a worker that lives longer (60s)\n"
          "  --cpu LIST           pin the workers to these CPUs, such as 1 or 0-3,6\n"
          "  --seed N             block order and jitter (default: from the clock)\n"
          "  --color WHEN         auto, always or never (NO_COLOR is respected)\n\n"
          "Exit status: 0 done; 1 a comparison failed or had too few clean blocks, or\n"
          "(with --fail-on-slower) a benchmark is slower; 2 trouble; 130 interrupted.\n",
          f);
}

enum { FMT_TABLE, FMT_JSON, FMT_CSV };

struct front {
    int tty;
    int progress_shown;
};

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

static void on_bench(void *ctx, const bl_ab_report *r, const bl_ab_bench *b)
{
    (void)r;
    struct front *fr = ctx;
    if (!fr->tty)
        return;
    clear_progress(fr);
    if (b->message)
        fprintf(stderr, "benchlab ab: %s: %s\n", b->name, b->message);
}

static int parse_format(const char *v)
{
    return strcmp(v, "table") == 0  ? FMT_TABLE
           : strcmp(v, "json") == 0 ? FMT_JSON
           : strcmp(v, "csv") == 0  ? FMT_CSV
                                    : -1;
}

static int format_of_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && strcmp(dot, ".json") == 0)
        return FMT_JSON;
    if (dot && strcmp(dot, ".csv") == 0)
        return FMT_CSV;
    return FMT_TABLE;
}

/* "0.5%", "0.5" and "2%" are percents. */
static int parse_percent(const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (*end == '%')
        end++;
    if (errno || end == v || *end || !(x >= 0) || x >= 100)
        return cli_error("ab: --threshold: '%s' is not a percentage such as 0.5%% or 2", v);
    *out = x / 100;
    return 0;
}

static int write_format(FILE *f, int fmt, const bl_ab_report *r, unsigned table_flags)
{
    return fmt == FMT_JSON  ? bl_ab_write_json(f, r)
           : fmt == FMT_CSV ? bl_ab_write_csv(f, r)
                            : bl_ab_write_table(f, r, table_flags);
}

/* Write `fmt` to `path` through a temporary file renamed at the end. */
static int write_out_file(const char *path, int fmt, const bl_ab_report *r)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cli_error("ab: --out %s: %s", path, strerror(errno));
    int err = write_format(f, fmt, r, 0);
    if (fclose(f) != 0 || err || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return cli_error("ab: --out %s: %s", path, err ? bl_strerror(err) : strerror(e));
    }
    return 0;
}

int cmd_ab(int argc, char **argv)
{
    bl_ab_options o;
    bl_ab_options_init(&o);
    const char *exes[2] = {NULL, NULL};
    int n_exes = 0, fmt = -1, fail_on_slower = 0;
    const char *out_path = NULL, *color = "auto";
    static const char *const with_value[] = {"filter", "time",  "threshold", "metric",  "pairs",
                                             "format", "out",   "batch",     "timeout", "cpu",
                                             "seed",   "color", "confidence"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--fail-on-slower") == 0) {
            fail_on_slower = 1;
            continue;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (n_exes == 2)
                return cli_error("ab: one OLD and one NEW build, not '%s' too", a);
            exes[n_exes++] = a;
            continue;
        }
        const char *name = a + (a[1] == '-' ? 2 : 1), *v = NULL;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const char *opt = NULL;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
            if (strlen(with_value[k]) == len && strncmp(name, with_value[k], len) == 0)
                opt = with_value[k];
        if (!opt)
            return cli_error("ab: unknown option '%s' (see benchlab ab --help)", a);
        if (eq) {
            v = eq + 1;
        } else {
            if (i + 1 >= argc)
                return cli_error("ab: option --%s needs a value", opt);
            v = argv[++i];
        }
        if (strcmp(opt, "filter") == 0) {
            o.filter = v;
        } else if (strcmp(opt, "time") == 0 || strcmp(opt, "batch") == 0 ||
                   strcmp(opt, "timeout") == 0) {
            double d = bl_parse_duration(v);
            if (!(d > 0))
                return cli_error("ab: --%s: '%s' is not a positive duration (try 500ms or 2s)", opt,
                                 v);
            if (opt[0] == 'b')
                o.batch_ms = d * 1e3;
            else if (strcmp(opt, "time") == 0)
                o.time_s = d;
            else
                o.timeout_s = d;
        } else if (strcmp(opt, "threshold") == 0) {
            if (parse_percent(v, &o.threshold))
                return 2;
        } else if (strcmp(opt, "metric") == 0) {
            if (strcmp(v, "time") == 0 || strcmp(v, "ns/op") == 0)
                o.metric = BL_AB_METRIC_TIME;
            else if (strcmp(v, "ref-cycles") == 0 || strcmp(v, "ref-cycles/op") == 0)
                o.metric = BL_AB_METRIC_REF_CYCLES;
            else
                return cli_error("ab: --metric: '%s' is not time or ref-cycles", v);
        } else if (strcmp(opt, "pairs") == 0) {
            char *end;
            long p = strtol(v, &end, 10);
            if (*end || end == v || p < 2 || p > 64)
                return cli_error("ab: --pairs: '%s' is not a count from 2 to 64", v);
            o.pairs = (int)p;
        } else if (strcmp(opt, "confidence") == 0) {
            char *end;
            double c = strtod(v, &end);
            if (*end || end == v || !(c >= 0.5 && c < 1))
                return cli_error("ab: --confidence: '%s' is not a level such as 0.95", v);
            o.confidence = c;
        } else if (strcmp(opt, "format") == 0) {
            fmt = parse_format(v);
            if (fmt < 0)
                return cli_error("ab: --format: unknown format '%s' (known: table, json, csv)", v);
        } else if (strcmp(opt, "out") == 0) {
            out_path = v;
        } else if (strcmp(opt, "cpu") == 0) {
            o.cpus = v;
        } else if (strcmp(opt, "seed") == 0) {
            char *end;
            o.seed = strtoull(v, &end, 0);
            if (*end || end == v)
                return cli_error("ab: --seed: '%s' is not a number", v);
        } else if (strcmp(opt, "color") == 0) {
            if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))
                return cli_error("ab: --color: '%s' is not auto, always or never", v);
            color = v;
        }
    }
    if (n_exes != 2)
        return cli_error("ab: name two builds of a suite: benchlab ab OLD NEW [options]");
    o.old_exe = exes[0];
    o.new_exe = exes[1];
    if (out_path && fmt < 0)
        fmt = format_of_path(out_path);
    if (fmt < 0)
        fmt = FMT_TABLE;

    struct front fr = {isatty(2), 0};
    FILE *table_to = fmt != FMT_TABLE && !out_path ? stderr : stdout;
    int is_tty = isatty(fileno(table_to));
    unsigned flags = (strcmp(color, "always") == 0 ||
                      (strcmp(color, "auto") == 0 && is_tty && !getenv("NO_COLOR")))
                         ? BL_AB_COLOR
                         : 0;
    bl_run_install_signal_handlers();
    bl_ab_observer obs = {&fr, NULL, on_start, on_bench};
    bl_ab_report *r = NULL;
    char err[1024] = "";
    int rc = bl_ab_run(&o, &obs, &r, err, sizeof err);
    clear_progress(&fr);
    if (rc < 0 && rc != BL_EINTR) {
        cli_error("ab: %s", err[0] ? err : bl_strerror(rc));
        bl_ab_report_destroy(r);
        return 2;
    }
    int status = rc == BL_EINTR ? 130 : rc ? 1 : 0;
    if (fail_on_slower && status == 0)
        for (size_t i = 0; i < r->n_benches; i++)
            if (r->benches[i].verdict == BL_AB_SLOWER)
                status = 1;
    if (bl_ab_write_table(table_to, r, flags) != 0)
        status = 2;
    if (out_path) {
        if (write_out_file(out_path, fmt, r))
            status = 2;
    } else if (fmt != FMT_TABLE && write_format(stdout, fmt, r, 0) != 0) {
        status = 2;
    }
    if (fflush(stdout) != 0)
        status = 2;
    bl_ab_report_destroy(r);
    return status;
}
