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
#include "benchlab/format.h"
#include "benchlab/output.h"
#include "benchlab/run.h"
#include "cli.h"
#include "front.h"

enum { FMT_TABLE, FMT_JSON, FMT_CSV };

struct front {
    struct bl__progress progress;
};

static void on_start(void *ctx, const char *name, size_t index, size_t total)
{
    struct front *fr = ctx;
    bl__progress_show(&fr->progress, "[%zu/%zu] %s", index + 1, total, name);
}

static void on_bench(void *ctx, const bl_ab_report *r, const bl_ab_bench *b)
{
    (void)r;
    struct front *fr = ctx;
    if (!fr->progress.to)
        return;
    bl__progress_clear(&fr->progress);
    if (b->message)
        fprintf(stderr, "benchlab ab: %s: %s\n", b->name, b->message);
}

static const char *const formats[] = {"table", "json", "csv", NULL};

static int parse_format(const char *v)
{
    for (int i = 0; formats[i]; i++)
        if (strcmp(formats[i], v) == 0)
            return i;
    return -1;
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

/* Write `fmt` to `path`, whole or not at all (benchlab/output.h). */
static int write_out_file(const char *path, int fmt, const bl_ab_report *r)
{
    bl_output *out = NULL;
    int err = bl_output_open(path, &out);
    if (err)
        return cli_error("ab: --out %s: %s", path, bl_strerror(err));
    err = bl_output_end(out, write_format(bl_output_file(out), fmt, r, 0));
    if (err)
        return cli_error("ab: --out %s: %s", path, bl_strerror(err));
    return 0;
}

/* The parsed options into the run's; 0, or 2 after the message. */
static int take_options(const struct bl__args *a, bl_ab_options *o, int *fmt, int *fail_on_slower,
                        const char **out_path, const char **color)
{
    for (size_t k = 0; k < a->n_hits; k++) {
        const struct bl__hit *h = &a->hits[k];
        const char *v = h->value;
        char *end;
        switch ((enum bl__optid)h->opt->id) {
        case BL__ID_FILTER:
            o->filter = v;
            break;
        case BL__ID_TIME:
            o->time_s = h->num;
            break;
        case BL__ID_BATCH:
            o->batch_ms = h->num * 1e3;
            break;
        case BL__ID_TIMEOUT:
            o->timeout_s = h->num;
            break;
        case BL__ID_THRESHOLD:
            if (parse_percent(v, &o->threshold))
                return 2;
            break;
        case BL__ID_METRIC:
            o->metric = strncmp(v, "ref-cycles", 10) == 0     ? BL_AB_METRIC_REF_CYCLES
                        : strncmp(v, "instructions", 12) == 0 ? BL_AB_METRIC_INSTRUCTIONS
                                                              : BL_AB_METRIC_TIME;
            break;
        case BL__ID_INSTRUCTIONS:
            o->metric = BL_AB_METRIC_INSTRUCTIONS;
            break;
        case BL__ID_PAIRS:
            o->pairs = (int)h->num;
            break;
        case BL__ID_CONFIDENCE: {
            double c = strtod(v, &end);
            if (*end || end == v || !(c >= 0.5 && c < 1))
                return cli_error("ab: --confidence: '%s' is not a level such as 0.95", v);
            o->confidence = c;
            break;
        }
        case BL__ID_FORMAT:
            *fmt = parse_format(v);
            break;
        case BL__ID_OUT:
            *out_path = v;
            break;
        case BL__ID_FAIL_ON_SLOWER:
            *fail_on_slower = 1;
            break;
        case BL__ID_CPU:
            o->cpus = v;
            break;
        case BL__ID_SEED:
            o->seed = strtoull(v, &end, 0);
            if (*end || end == v)
                return cli_error("ab: --seed: '%s' is not a number", v);
            break;
        case BL__ID_COLOR:
            *color = v;
            break;
        default:
            break;
        }
    }
    return 0;
}

static int write_summary(FILE *f, const void *report)
{
    return bl_ab_write_markdown(f, report);
}

int cmd_ab(int argc, char **argv)
{
    bl_ab_options o;
    bl_ab_options_init(&o);
    const char *exes[2] = {NULL, NULL};
    int n_exes = 0, fmt = -1, fail_on_slower = 0;
    const char *out_path = NULL, *color = "auto";
    struct bl__args args;
    char perr[512];
    const struct bl__command *table = bl__command_find("ab");
    if (bl__args_parse(table, argc, argv, &args, perr, sizeof perr))
        return cli_error("ab: %s", perr);
    if (args.help) {
        bl__help_write(stdout, table, "benchlab ab");
        return 0;
    }
    int rc_opts = take_options(&args, &o, &fmt, &fail_on_slower, &out_path, &color);
    for (size_t k = 0; k < args.n_pos && !rc_opts; k++) {
        if (n_exes == 2)
            rc_opts = cli_error("ab: one OLD and one NEW build, not '%s' too", args.pos[k]);
        else
            exes[n_exes++] = args.pos[k];
    }
    if (rc_opts)
        return rc_opts;
    if (n_exes != 2)
        return cli_error("ab: name two builds of a suite: benchlab ab OLD NEW [options]");
    o.old_exe = exes[0];
    o.new_exe = exes[1];
    if (fmt < 0)
        fmt = parse_format(bl__format_for(NULL, out_path, formats, "table"));

    struct front fr = {{isatty(2) ? stderr : NULL, 0}};
    FILE *table_to = fmt != FMT_TABLE && !out_path ? stderr : stdout;
    /* stdout is watched (bl_output_watch_stdout): its fileno is -1 */
    unsigned flags =
        (strcmp(color, "always") == 0 ||
         (strcmp(color, "auto") == 0 && bl_terminal_colors(table_to == stderr ? 2 : 1)))
            ? BL_AB_COLOR
            : 0;
    bl_run_install_signal_handlers();
    bl_ab_observer obs = {&fr, NULL, on_start, on_bench};
    bl_ab_report *r = NULL;
    char err[1024] = "";
    int rc = bl_ab_run(&o, &obs, &r, err, sizeof err);
    bl__progress_clear(&fr.progress);
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
    if (bl_github_actions())
        bl_ab_write_github(stderr, r);
    cli_github_summary("ab", write_summary, r);
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
