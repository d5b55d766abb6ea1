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

static int width(const char *s)
{
    char safe[640];
    s = bl_terminal_text(safe, sizeof safe, s); /* as pad() prints it */
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(const char *s, int w, int right)
{
    char safe[640]; /* stored names and tags are shown, never sent to the terminal */
    s = bl_terminal_text(safe, sizeof safe, s);
    int n = w - width(s);
    if (right && n > 0)
        printf("%*s", n, "");
    fputs(s, stdout);
    if (!right && n > 0)
        printf("%*s", n, "");
}

static int terminal_columns(void)
{
    struct winsize ws;
    if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    return c && atoi(c) > 20 ? atoi(c) : 100;
}

/* The series' centres as ▁..█ scaled from their minimum to their maximum;
 * a space where the run lacks the benchmark. */
static void sparkline(char *out, size_t size, const bl_store_series *se, size_t first_run,
                      size_t n_runs)
{
    static const char *const bars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < se->n_points; i++) {
        double c = se->points[i].centre;
        if (se->points[i].run >= first_run && !isnan(c)) {
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
    }
    size_t pos = 0, k = 0;
    out[0] = '\0';
    for (size_t r = first_run; r < first_run + n_runs && pos + 4 < size; r++) {
        while (k < se->n_points && se->points[k].run < r)
            k++;
        const char *ch = " ";
        if (k < se->n_points && se->points[k].run == r && !isnan(se->points[k].centre)) {
            double c = se->points[k].centre;
            int level = hi > lo ? (int)((c - lo) / (hi - lo) * 7.0 + 0.5) : 3;
            ch = bars[level < 0 ? 0 : level > 7 ? 7 : level];
        }
        pos += (size_t)snprintf(out + pos, size - pos, "%s", ch);
    }
}

static const bl_store_point *point_at(const bl_store_series *se, size_t run)
{
    for (size_t i = 0; i < se->n_points; i++)
        if (se->points[i].run == run)
            return &se->points[i];
    return NULL;
}

/* The table of runs: id, date, commit, branch, host, tag (and uid). */
static void print_runs(const bl_store_history *h)
{
    static const char *const rhead[] = {"run", "date", "commit", "branch", "host", "tag"};
    int rw[6];
    for (int k = 0; k < 6; k++)
        rw[k] = width(rhead[k]);
    char cells[6][160];
    for (int pass = 0; pass < 2; pass++) { /* widths, then print */
        if (pass) {
            for (int k = 0; k < 6; k++) {
                pad(rhead[k], k == 5 ? 0 : rw[k], k == 0);
                fputs(k == 5 ? "\n" : "  ", stdout);
            }
        }
        for (size_t i = 0; i < h->n_runs; i++) {
            const bl_store_run *r = &h->runs[i];
            snprintf(cells[0], sizeof cells[0], "%lld", (long long)r->id);
            cli_short_date(cells[1], sizeof cells[1],
                           r->measured_at ? r->measured_at : r->saved_at);
            cli_short_commit(cells[2], sizeof cells[2], r);
            snprintf(cells[3], sizeof cells[3], "%s", r->branch ? r->branch : "-");
            snprintf(cells[4], sizeof cells[4], "%s", r->host ? r->host : "-");
            snprintf(cells[5], sizeof cells[5], "%s%s%s", r->tag ? r->tag : "",
                     r->uid ? (r->tag ? " " : "") : "", r->uid ? r->uid : "");
            for (int k = 0; k < 6; k++) {
                if (!pass) {
                    if (width(cells[k]) > rw[k])
                        rw[k] = width(cells[k]);
                    continue;
                }
                pad(cells[k], k == 5 ? 0 : rw[k], k == 0);
                fputs(k == 5 ? "\n" : "  ", stdout);
            }
        }
    }
}

/* A series' change from the first run that has it to the last, as the
 * table's last column: "+12.5%", or "-" with fewer than two values. */
static void print_change(const bl_store_series *se)
{
    const bl_store_point *a = NULL, *b = NULL;
    for (size_t k = 0; k < se->n_points; k++) {
        if (isnan(se->points[k].centre))
            continue;
        if (!a)
            a = &se->points[k];
        b = &se->points[k];
    }
    if (a && b && a != b && a->centre > 0)
        printf("  %+7.1f%%\n", (b->centre / a->centre - 1) * 100);
    else
        printf("  %8s\n", "-");
}

/* The table of benchmarks: as many run columns as fit (on a terminal), the
 * newest, then the trend when show_spark, then the change. */
static void print_series(const bl_store_history *h, int tty, int show_spark, int metric)
{
    int name_w = (int)strlen("benchmark");
    for (size_t i = 0; i < h->n_series; i++) {
        const char *n = h->series[i].name;
        n += strncmp(n, "Benchmark", 9) == 0 ? 9 : 0;
        if (width(n) > name_w)
            name_w = width(n);
    }
    const int col_w = 11;
    int avail = (tty ? terminal_columns() : 1 << 20) - name_w - 2 - 10 -
                (show_spark ? (int)h->n_runs + 2 : 0);
    size_t n_cols = avail > col_w ? (size_t)(avail / col_w) : 1;
    if (n_cols > h->n_runs)
        n_cols = h->n_runs;
    size_t first = h->n_runs - n_cols;
    pad("benchmark", name_w, 0);
    for (size_t r = first; r < h->n_runs; r++) {
        char head[32];
        snprintf(head, sizeof head, "#%lld", (long long)h->runs[r].id);
        fputs("  ", stdout);
        pad(head, col_w - 2, 1);
    }
    if (show_spark) {
        fputs("  ", stdout);
        pad("trend", (int)h->n_runs, 0);
    }
    printf("  %8s\n", "change");
    for (size_t i = 0; i < h->n_series; i++) {
        const bl_store_series *se = &h->series[i];
        const char *n = se->name + (strncmp(se->name, "Benchmark", 9) == 0 ? 9 : 0);
        pad(n, name_w, 0);
        for (size_t r = first; r < h->n_runs; r++) {
            const bl_store_point *p = point_at(se, r);
            char v[32];
            if (metric == BL_JUDGE_TIME || !p || isnan(p->centre))
                bl_format_duration(v, sizeof v, p ? p->centre : NAN);
            else
                snprintf(v, sizeof v, "%.4g", p->centre);
            fputs("  ", stdout);
            pad(v, col_w - 2, 1);
        }
        if (show_spark) {
            char line[256];
            sparkline(line, sizeof line, se, 0, h->n_runs);
            fputs("  ", stdout);
            pad(line, (int)h->n_runs, 0);
        }
        print_change(se);
    }
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
    printf("store %s: %zu run%s%s%s%s\n\n", bl_store_name(s), h->n_runs, h->n_runs == 1 ? "" : "s",
           a.filter ? " with matching benchmarks" : "", a.branch ? " on branch " : "",
           a.branch ? a.branch : "");
    if (!h->n_runs) {
        printf("nothing saved yet: save runs with --save (benchlab run SUITE --save)\n");
        bl_store_history_destroy(h);
        bl_store_close(s);
        return 0;
    }
    print_runs(h);
    putchar('\n');
    print_series(h, tty, show_spark, a.metric);
    bl_store_history_destroy(h);
    bl_store_close(s);
    return fflush(stdout) == 0 ? 0 : 2;
}
