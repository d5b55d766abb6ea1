/*
 * cmd_history.c - `benchlab history`: the stored runs and each benchmark's centre per
 * run, and with --changes its change points (benchlab/changes.h). Opens
 * the store read-only, asks the library, prints.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "benchlab/format.h"
#include "benchlab/judge.h"
#include "benchlab/output.h"
#include "benchlab/profile.h"
#include "benchlab/store.h"
#include "cli.h"
#include "front.h"

static int terminal_columns(void)
{
    struct winsize ws;
    if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    return c && atoi(c) > 20 ? atoi(c) : 100;
}

struct history_args {
    const char *filter, *spec, *spark, *branch, *format;
    long last;
    int last_given, changes, metric;
    bl_changes_options changes_opts;
};

/* history's options into a: 0, -1 after the help, or 2 after the message. */
static int parse_history(int argc, char **argv, struct history_args *a)
{
    memset(a, 0, sizeof *a);
    a->spark = "auto";
    a->format = "text";
    a->last = 10;
    a->metric = BL_JUDGE_TIME;
    bl_changes_options_init(&a->changes_opts);
    struct bl__args args;
    int first_pos = cli_parse("history", argc, argv, &args);
    if (first_pos < 0)
        return first_pos == -1 ? -1 : 2;
    const char *only_changes = NULL;
    for (size_t k = 0; k < args.n_hits; k++) {
        const char *v = args.hits[k].value;
        char *end;
        double d;
        enum bl_judge_metric m;
        switch (args.hits[k].opt->id) {
        case BL__ID_FILTER:
            a->filter = v;
            break;
        case BL__ID_LAST:
            a->last = strtol(v, &end, 10);
            if (*end || a->last < 0)
                return cli_error("history: --last: '%s' is not a count", v);
            a->last_given = 1;
            break;
        case BL__ID_BRANCH:
            if (!*v)
                return cli_error("history: --branch: give a name");
            a->branch = v;
            break;
        case BL__ID_METRIC: /* the option table allows only the names and units */
            bl_judge_metric_parse(v, &m);
            a->metric = (int)m;
            break;
        case BL__ID_CHANGES:
            a->changes = 1;
            break;
        case BL__ID_ALPHA:
            d = strtod(v, &end);
            if (*end || !(d > 0 && d < 1))
                return cli_error("history: --alpha: '%s' is not in (0, 1)", v);
            a->changes_opts.alpha = d;
            only_changes = "--alpha";
            break;
        case BL__ID_THRESHOLD:
            d = strtod(v, &end);
            if (*end == '%')
                end++;
            if (*end || !(d >= 0 && d < 1000))
                return cli_error("history: --threshold: '%s' is not a percentage", v);
            a->changes_opts.threshold = d / 100;
            only_changes = "--threshold";
            break;
        case BL__ID_FORMAT:
            a->format = v;
            if (strcmp(v, "text"))
                only_changes = "--format";
            break;
        case BL__ID_STORE:
            a->spec = v;
            break;
        case BL__ID_SPARKLINE:
            if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))
                return cli_error("history: --sparkline: '%s' is not auto, always or never", v);
            a->spark = v;
            break;
        }
    }
    if (first_pos < argc)
        return cli_error("history: unexpected argument '%s' (see --help)", argv[first_pos]);
    if (only_changes && !a->changes)
        return cli_error("history: %s is for --changes (the table of runs has one format)",
                         only_changes);
    if (a->changes && !a->last_given)
        a->last = 0; /* a change point needs the whole history */
    return 0;
}

/* history --changes: the report of every benchmark's change points. */
static int print_changes(bl_store *s, const bl_store_history *h, const struct history_args *a)
{
    bl_changes_report r;
    int rc = bl_store_history_changes(h, &a->changes_opts, &r);
    if (rc)
        return cli_error("history: finding the change points: %s", bl_strerror(rc));
    r.store = bl_store_name(s);
    r.unit = bl_judge_metric_unit((enum bl_judge_metric)a->metric);
    char err[1024];
    bl_store_ack *acks = NULL;
    size_t n_acks = 0;
    rc = bl_store_ack_list(s, &acks, &n_acks, err, sizeof err);
    if (!rc)
        rc = bl_store_changes_acknowledge(&r, acks, n_acks);
    if (rc) {
        bl_store_acks_free(acks, n_acks);
        bl_store_changes_free(&r);
        return cli_error("history: %s", rc == -ENOMEM ? bl_strerror(rc) : err);
    }
    enum bl_changes_format f = strcmp(a->format, "json") == 0       ? BL_CHANGES_JSON
                               : strcmp(a->format, "markdown") == 0 ? BL_CHANGES_MARKDOWN
                                                                    : BL_CHANGES_TEXT;
    rc = bl_changes_write(stdout, &r, f);
    bl_store_changes_free(&r);
    bl_store_acks_free(acks, n_acks);
    return rc || fflush(stdout) ? 2 : 0;
}

int cmd_history(int argc, char **argv)
{
    struct history_args a;
    int status = parse_history(argc, argv, &a);
    if (status)
        return status == -1 ? 0 : status;
    bl_store *s;
    if (cli_store_open("history", a.spec, 0, &s))
        return 2;
    char err[1024];
    bl_store_history *h;
    bl_store_history_options q = {
        .filter = a.filter, .last = (size_t)a.last, .branch = a.branch, .metric = a.metric};
    int rc = bl_store_history_query(s, &q, &h, err, sizeof err);
    if (rc) {
        bl_store_close(s);
        return cli_error("history: %s", err);
    }
    if (a.changes) {
        status = print_changes(s, h, &a);
        bl_store_history_destroy(h);
        bl_store_close(s);
        return status;
    }
    int tty = isatty(1);
    int show_spark = strcmp(a.spark, "always") == 0 || (strcmp(a.spark, "auto") == 0 && tty);
    rc = bl_store_history_write(stdout, h, &q, bl_store_name(s), tty ? terminal_columns() : 0,
                                show_spark);
    bl_store_history_destroy(h);
    bl_store_close(s);
    return rc == 0 && fflush(stdout) == 0 ? 0 : 2;
}
