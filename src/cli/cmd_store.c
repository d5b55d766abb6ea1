/*
 * cmd_store.c - the commands over the results store (include/benchlab/store.h):
 * `benchlab history`, `benchlab baseline` and `benchlab judge`. Each opens
 * the store (--store, $BENCHLAB_STORE, or the project's default), asks the
 * library, and prints. Reading commands never create a store.
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

int cli_store_open(const char *cmd, const char *spec, unsigned flags, bl_store **out)
{
    char err[1024];
    int rc = bl_store_open(spec, flags, out, err, sizeof err);
    if (rc)
        return cli_error("%s: %s", cmd, err);
    return 0;
}

/* "2024-06-11T15:30:12Z" -> "2024-06-11 15:30". */
static void short_date(char *out, size_t size, const char *iso)
{
    if (!iso || strlen(iso) < 16) {
        snprintf(out, size, "%s", iso ? iso : "-");
        return;
    }
    snprintf(out, size, "%.10s %.5s", iso, iso + 11);
}

/* "3f7ec28" or "3f7ec28+" (uncommitted changes), "-" outside git. */
static void short_commit(char *out, size_t size, const bl_store_run *r)
{
    if (!r->commit)
        snprintf(out, size, "-");
    else
        snprintf(out, size, "%.7s%s", r->commit, r->dirty == 1 ? "+" : "");
}

void cli_run_label(char *out, size_t size, const char *ref, const bl_store_run *r)
{
    char c[24] = "", d[32];
    if (r->commit) {
        short_commit(c + 2, sizeof c - 2, r);
        memcpy(c, ", ", 2);
    }
    short_date(d, sizeof d, r->measured_at ? r->measured_at : r->saved_at);
    if (ref && strcmp(ref + (ref[0] == '@'), "latest") != 0 && ref[0])
        snprintf(out, size, "%s (run %lld%s, %s)", ref, (long long)r->id, c, d);
    else
        snprintf(out, size, "run %lld (%s%s)", (long long)r->id, d, c);
}

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
            short_date(cells[1], sizeof cells[1], r->measured_at ? r->measured_at : r->saved_at);
            short_commit(cells[2], sizeof cells[2], r);
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
    enum bl_changes_format f = strcmp(a->format, "json") == 0       ? BL_CHANGES_JSON
                               : strcmp(a->format, "markdown") == 0 ? BL_CHANGES_MARKDOWN
                                                                    : BL_CHANGES_TEXT;
    rc = bl_changes_write(stdout, &r, f);
    bl_store_changes_free(&r);
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

/* ---- compare @refs ------------------------------------------------------------------ */

/*
 * Replace every input of `benchlab compare` that names a stored run
 * ("@latest", "new=@HEAD~1") by "label=/proc/self/fd/N", N a memory file
 * holding the run in the Go benchmark format: compare then reads a stored
 * run exactly as it reads that run's own output. The store is opened only
 * when an input asks for it. *fds receives the files (close them after
 * reading). Returns 0, or 2 after printing the error.
 */
int cli_compare_refs(char **args, size_t n, const char *spec, char ***out, int **fds, size_t *n_fds)
{
    *out = calloc(n + 1, sizeof **out);
    *fds = calloc(n + 1, sizeof **fds);
    *n_fds = 0;
    if (!*out || !*fds)
        return cli_error("compare: out of memory");
    bl_store *s = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(args[i], '=');
        const char *ref = args[i][0] == '@' ? args[i] : eq && eq[1] == '@' ? eq + 1 : NULL;
        if (!ref || (args[i][0] == '@' && eq)) {
            (*out)[i] = strdup(args[i]);
            if (!(*out)[i])
                return cli_error("compare: out of memory");
            continue;
        }
        if (!s && cli_store_open("compare", spec, 0, &s))
            return 2;
        char err[1024];
        bl_results *r;
        if (bl_store_load_ref(s, ref, &r, NULL, err, sizeof err)) {
            bl_store_close(s);
            return cli_error("compare: %s", err);
        }
        int fd = memfd_create("benchlab-run", MFD_CLOEXEC);
        FILE *f = fd >= 0 ? fdopen(dup(fd), "w") : NULL;
        int werr = 0;
        if (f) {
            werr = bl_gobench_write(f, r);
            if (fclose(f) != 0)
                f = NULL;
        }
        bl_results_destroy(r);
        if (werr) {
            if (fd >= 0)
                close(fd);
            bl_store_close(s);
            return cli_error("compare: %s: %s", ref, bl_strerror(werr));
        }
        if (!f) {
            if (fd >= 0)
                close(fd);
            bl_store_close(s);
            return cli_error("compare: %s: cannot hold the run in memory", ref);
        }
        (*fds)[(*n_fds)++] = fd;
        int len = eq && args[i][0] != '@' ? (int)(eq - args[i]) : (int)strlen(args[i]);
        char arg[1024];
        snprintf(arg, sizeof arg, "%.*s=/proc/self/fd/%d", len, args[i], fd);
        (*out)[i] = strdup(arg);
        if (!(*out)[i]) {
            bl_store_close(s);
            return cli_error("compare: out of memory");
        }
    }
    bl_store_close(s);
    return 0;
}

/* ---- baseline ---------------------------------------------------------------------- */

int cmd_baseline(int argc, char **argv)
{
    const char *spec = NULL;
    struct bl__args args;
    int first_pos = cli_parse("baseline", argc, argv, &args);
    if (first_pos < 0)
        return first_pos == -1 ? 0 : 2;
    for (size_t k = 0; k < args.n_hits; k++) {
        const char *v = args.hits[k].value;
        int c = args.hits[k].opt->id;
        if (c == BL__ID_STORE)
            spec = v;
    }
    int n = argc - first_pos;
    char **a = argv + first_pos;
    int set = n >= 2 && n <= 3 && strcmp(a[0], "set") == 0;
    int list = n == 1 && strcmp(a[0], "list") == 0;
    if (!set && !list) {
        bl__help_write(stderr, bl__command_find("baseline"), "benchlab baseline");
        return 2;
    }
    bl_store *s;
    if (cli_store_open("baseline", spec, 0, &s))
        return 2;
    char err[1024], d[640];
    int rc = 0;
    if (set) {
        const char *ref = n == 3 ? a[2] : "@latest";
        int64_t id;
        rc = bl_store_resolve(s, ref, &id, err, sizeof err);
        if (!rc)
            rc = bl_store_baseline_set(s, a[1], id, err, sizeof err);
        if (!rc)
            printf("baseline %s = run %lld\n", bl_terminal_text(d, sizeof d, a[1]), (long long)id);
    } else {
        bl_store_baseline *b;
        size_t nb;
        rc = bl_store_baseline_list(s, &b, &nb, err, sizeof err);
        for (size_t i = 0; !rc && i < nb; i++) {
            char date[32];
            short_date(date, sizeof date, b[i].set_at);
            /* a shared store's names are anyone's: shown, not obeyed */
            printf("%s = run %lld (set %s)\n", bl_terminal_text(d, sizeof d, b[i].name),
                   (long long)b[i].run_id, date);
        }
        if (!rc)
            bl_store_baselines_free(b, nb);
    }
    bl_store_close(s);
    return rc ? cli_error("baseline: %s", err) : 0;
}

/* ---- judge ------------------------------------------------------------------------- */

/* s in Markdown as text: its punctuation that Markdown would read escaped
 * with a backslash, control characters dropped (a stored name is anyone's). */
static void markdown_text(const char *s)
{
    for (; *s; s++) {
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            continue;
        if (strchr("\\`*_{}[]()<>#+!|~", *s))
            putchar('\\');
        putchar(*s);
    }
}

/*
 * The first run of a history: no run with benchmarks before it, so there
 * is nothing to judge against yet. That is how every CI history starts,
 * and it passes, with a note saying so (in the Markdown too, for the pull
 * request), rather than fail the first pipeline. Returns the exit status.
 */
static int judge_first_run(const char *label, const bl_store_run *run, const bl_results *cur,
                           const char *store_name, int markdown)
{
    char safe[640];
    size_t n = cur->n_benches;
    if (markdown) {
        printf("### benchlab judge: :white_check_mark: nothing to judge against yet\n\n"
               "No earlier run to judge against: ");
        markdown_text(label);
        printf(" is the first of this store's runs with benchmarks (%zu benchmark%s, store ", n,
               n == 1 ? "" : "s");
        markdown_text(store_name);
        printf("). It passes; the next run is judged against it.\n");
    } else {
        printf("no earlier run to judge against: run %lld is the first of the runs with "
               "benchmarks in store %s\n",
               (long long)run->id, bl_terminal_text(safe, sizeof safe, store_name));
        printf("%s: %zu benchmark%s saved, nothing judged: passes (the next run is judged "
               "against it)\n",
               bl_terminal_text(safe, sizeof safe, label), n, n == 1 ? "" : "s");
    }
    return fflush(stdout) == 0 ? 0 : cli_error("judge: writing: %s", bl_strerror(-EIO));
}

int cmd_judge(int argc, char **argv)
{
    const char *spec = NULL, *against = NULL, *format = "text";
    unsigned gate = 0;
    bl_judge_options o;
    bl_judge_options_init(&o);
    struct bl__args args;
    int first_pos = cli_parse("judge", argc, argv, &args);
    if (first_pos < 0)
        return first_pos == -1 ? 0 : 2;
    for (size_t k = 0; k < args.n_hits; k++) {
        const char *v = args.hits[k].value;
        int c = args.hits[k].opt->id;
        char *end;
        switch (c) {
        case BL__ID_AGAINST:
            against = v;
            break;
        case BL__ID_THRESHOLD:
            o.threshold_pct = strtod(v, &end);
            if (*end == '%')
                end++;
            if (*end || !(o.threshold_pct >= 0))
                return cli_error("judge: --threshold: '%s' is not a percentage", v);
            break;
        case BL__ID_FORMAT:
            if (strcmp(v, "text") && strcmp(v, "markdown"))
                return cli_error("judge: --format: '%s' is not text or markdown", v);
            format = v;
            break;
        case BL__ID_CORRECTION:
            if (strcmp(v, "holm") == 0)
                o.correction = BL_CORRECTION_HOLM;
            else if (strcmp(v, "bh") == 0)
                o.correction = BL_CORRECTION_BH;
            else if (strcmp(v, "none") == 0)
                o.correction = BL_CORRECTION_NONE;
            else
                return cli_error("judge: --correction: '%s' is not holm, bh or none", v);
            break;
        case BL__ID_ALPHA:
            o.alpha = strtod(v, &end);
            if (*end || !(o.alpha > 0 && o.alpha < 1))
                return cli_error("judge: --alpha: '%s' is not in (0, 1)", v);
            break;
        case BL__ID_FILTER:
            o.filter = v;
            break;
        case BL__ID_METRIC: /* the option table allows only the names and units */
            bl_judge_metric_parse(v, &o.metric);
            break;
        case BL__ID_STORE:
            spec = v;
            break;
        case BL__ID_ALLOW_MISSING:
            gate |= BL_JUDGE_ALLOW_MISSING;
            break;
        }
    }
    int markdown = strcmp(format, "markdown") == 0;
    if (markdown)
        gate |= BL_JUDGE_MARKDOWN;
    if (argc - first_pos > 1)
        return cli_error("judge: one run to judge, not %d (see --help)", argc - first_pos);
    const char *ref = first_pos < argc ? argv[first_pos] : "@latest";
    bl_store *s;
    if (cli_store_open("judge", spec, 0, &s))
        return 2;
    char err[1024];
    bl_results *cur = NULL, *base = NULL;
    bl_store_run cur_run = {0}, base_run = {0};
    int rc = bl_store_load_ref(s, ref, &cur, &cur_run, err, sizeof err);
    char base_ref[300] = "";
    int first_run = 0;
    if (!rc) {
        if (!against) /* the run before RUN that has benchmarks */
            snprintf(base_ref, sizeof base_ref, "@before:%lld", (long long)cur_run.id);
        else if (against[0] == '@')
            snprintf(base_ref, sizeof base_ref, "%s", against);
        else
            snprintf(base_ref, sizeof base_ref, "@baseline:%s", against);
        int64_t base_id;
        rc = bl_store_resolve(s, base_ref, &base_id, err, sizeof err);
        /* a baseline named or referred to must exist: only the default has
         * a first run */
        first_run = !against && rc == BL_ENOTFOUND && cur->n_benches > 0;
        if (!rc)
            rc = bl_store_load_ref(s, base_ref, &base, &base_run, err, sizeof err);
    }
    if (first_run) {
        char nl[400];
        cli_run_label(nl, sizeof nl, ref, &cur_run);
        rc = judge_first_run(nl, &cur_run, cur, bl_store_name(s), markdown);
        bl_store_close(s);
        bl_results_destroy(cur);
        bl_store_run_fini(&cur_run);
        return rc;
    }
    bl_store_close(s);
    if (rc) {
        bl_results_destroy(cur);
        bl_store_run_fini(&cur_run);
        return cli_error("judge: %s", err);
    }
    bl_judgement_set *set = NULL;
    rc = bl_judge(base, cur, &o, &set, err, sizeof err);
    int status = 2;
    if (rc) {
        cli_error("judge: %s", err);
    } else {
        char bl[400], nl[400];
        cli_run_label(bl, sizeof bl, against ? base_ref : NULL, &base_run);
        cli_run_label(nl, sizeof nl, ref, &cur_run);
        rc = bl_judge_write(stdout, set, bl, nl, gate);
        size_t n_compared = set->n_slower + set->n_faster + set->n_unchanged + set->n_failed;
        if (fflush(stdout) != 0 || rc)
            cli_error("judge: writing: %s", bl_strerror(rc ? rc : -EIO));
        else if (!n_compared && set->n_new && set->n_missing)
            /* an exec session judged against a suite's run: a gate that compared
             * nothing must not pass */
            cli_error("judge: nothing to judge: %s and %s have no benchmark in common (%zu new, "
                      "%zu missing); name a run of the same suite or commands with --against "
                      "@REF",
                      nl, bl, set->n_new, set->n_missing);
        else if (set->n_lacking && !set->n_tested && !set->n_counts && !set->n_failed)
            /* --metric a run does not measure: a gate that could not fire */
            cli_error("judge: nothing to judge: no benchmark of %s and %s has %s on both sides "
                      "(%s)",
                      nl, bl, bl_judge_metric_unit(o.metric),
                      o.metric == BL_JUDGE_INSTRUCTIONS
                          ? "a run with --counters measures it, where the machine has the counter"
                          : "the runs were saved without it");
        else
            status = bl_judge_gate(set, gate);
    }
    bl_judgement_set_destroy(set);
    bl_results_destroy(cur);
    bl_results_destroy(base);
    bl_store_run_fini(&cur_run);
    bl_store_run_fini(&base_run);
    return status;
}

/* --commit and --branch go in as the results' own, which the store takes
 * over the CI's variables and git. 0, or 2 after the message. */
static int put_commit(const char *cmd, bl_results *r, const char *commit, const char *branch)
{
    if ((commit && bl_results_set_meta(r, "commit", commit)) ||
        (branch && bl_results_set_meta(r, "branch", branch)))
        return cli_error("%s: --save: out of memory", cmd);
    return 0;
}

/* ---- merge -------------------------------------------------------------------------- */

/* The format an output path asks for: "go", "json", "csv", "markdown". */
static const char *const merge_formats[] = {"go", "json", "csv", "markdown", NULL};

static int write_results(FILE *f, const bl_results *r, const char *format)
{
    if (strcmp(format, "json") == 0)
        return bl_json_write(f, r);
    if (strcmp(format, "csv") == 0)
        return bl_csv_write(f, r);
    if (strcmp(format, "markdown") == 0)
        return bl_markdown_write(f, r);
    return bl_gobench_write(f, r);
}

/* Write r to path (NULL or "-": stdout), whole or not at all. 0 or 2 after an error. */
static int write_out(const bl_results *r, const char *path, const char *format)
{
    bl_output *out = NULL;
    int rc = bl_output_open(path, &out);
    if (rc)
        return cli_error("merge: --out %s: %s", path, bl_strerror(rc));
    rc = bl_output_end(out, write_results(bl_output_file(out), r, format));
    if (rc)
        return cli_error("merge: %s%s: %s", path ? "--out " : "", path ? path : "stdout",
                         bl_strerror(rc));
    return 0;
}

int cmd_merge(int argc, char **argv)
{
    const char *out = NULL, *format = NULL;
    struct bl__save_args sv = {0};
    struct bl__args args;
    int first_pos = cli_parse("merge", argc, argv, &args);
    if (first_pos < 0)
        return first_pos == -1 ? 0 : 2;
    for (size_t k = 0; k < args.n_hits; k++) {
        const char *v = args.hits[k].value;
        char err[256];
        int taken = bl__save_take(&args.hits[k], &sv, err, sizeof err);
        if (taken < 0)
            return cli_error("merge: %s", err);
        if (taken)
            continue;
        switch (args.hits[k].opt->id) {
        case BL__ID_OUT:
            out = v;
            break;
        case BL__ID_FORMAT:
            if (strcmp(v, "go") && strcmp(v, "json") && strcmp(v, "csv") && strcmp(v, "markdown"))
                return cli_error("merge: --format: '%s' is not go, json, csv or markdown", v);
            format = v;
            break;
        }
    }
    /* merge's rule: --run-id and --tag imply --save; --store alone does
     * when no input is a stored run (below) */
    const char *spec = sv.store, *uid = sv.run_uid, *tag = sv.tag;
    int save = sv.on || sv.given_run_id || sv.given_tag || sv.given_commit || sv.given_branch;
    if (first_pos >= argc)
        return cli_error("merge: name the results to merge: benchlab merge INPUT... (see --help)");
    int any_ref = 0;
    for (int i = first_pos; i < argc; i++)
        any_ref |= argv[i][0] == '@';
    if (spec && !any_ref)
        save = 1;
    bl_store *s = NULL;
    if ((any_ref || save) && cli_store_open("merge", spec, save ? BL_STORE_CREATE : 0, &s))
        return 2;
    char err[1024];
    bl_results *merged = bl_results_create();
    int status = merged ? 0 : cli_error("merge: out of memory");
    bl_diags skipped = {0};
    for (int i = first_pos; i < argc && !status; i++) {
        bl_results *r = NULL;
        int rc = argv[i][0] == '@' ? bl_store_load_ref(s, argv[i], &r, NULL, err, sizeof err)
                                   : bl_results_read_file(argv[i], &r, &skipped, err, sizeof err);
        if (rc) {
            status = cli_error("merge: %s", err);
            break;
        }
        const char *a = bl_results_get_config(merged, "cpu"), *b = bl_results_get_config(r, "cpu");
        /* the CPUs and commits are the files' words: shown, not obeyed */
        char sa[200], sb[200], sp[400];
        if (i > first_pos && a && b && strcmp(a, b) != 0)
            fprintf(stderr, "benchlab: merge: %s ran on another CPU (%s, not %s)\n",
                    bl_terminal_text(sp, sizeof sp, argv[i]), bl_terminal_text(sb, sizeof sb, b),
                    bl_terminal_text(sa, sizeof sa, a));
        const char *ca = bl_results_get_meta(merged, "commit"),
                   *cb = bl_results_get_meta(r, "commit");
        if (i > first_pos && ca && cb && strcmp(ca, cb) != 0)
            fprintf(stderr, "benchlab: merge: %s is from commit %.12s, not %.12s\n",
                    bl_terminal_text(sp, sizeof sp, argv[i]), bl_terminal_text(sb, sizeof sb, cb),
                    bl_terminal_text(sa, sizeof sa, ca));
        if (bl_results_merge(merged, r))
            status = cli_error("merge: out of memory");
        bl_results_destroy(r);
    }
    /* the fits over the merged launches (each input's were over its own) */
    if (!status && bl_results_refit_complexity(merged))
        status = cli_error("merge: out of memory");
    int skip_status = cli_print_skipped("benchlab: merge", &skipped);
    bl_diags_fini(&skipped);
    if (!status) {
        char list[1024] = "";
        size_t len = 0;
        for (int i = first_pos; i < argc && len + 2 < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                    i > first_pos ? ", " : "", argv[i]);
        bl_results_set_meta(merged, "merged-from", list);
        status = write_out(merged, out, bl__format_for(format, out, merge_formats, "go"));
    }
    if (!status && save)
        status = put_commit("merge", merged, sv.commit, sv.branch);
    if (!status && save) {
        bl_store_save_options o;
        bl_store_save_options_init(&o);
        o.kind = "merge";
        o.run_uid = uid;
        o.tag = tag;
        int64_t id;
        if (bl_store_save(s, merged, &o, &id, err, sizeof err)) {
            cli_error("merge: %s", err);
            fprintf(stderr, "benchlab: merge: the merged results were written but not saved\n");
            status = 2;
        } else {
            fprintf(stderr, "benchlab: merge: saved as run %lld in %s\n", (long long)id,
                    bl_store_name(s));
        }
    }
    bl_results_destroy(merged);
    bl_store_close(s);
    return status ? status : skip_status;
}

/* ---- --save of exec and profile ---------------------------------------------------- */

/* Print where the run went, or why it did not. 0, or 2 after an error. */
static int saved_or_not(const char *cmd, bl_store *s, int rc, int64_t id, const char *err)
{
    if (rc) {
        cli_error("%s: --save: %s", cmd, err);
        fprintf(stderr, "benchlab: %s: the results were written but not saved\n", cmd);
        return 2;
    }
    fprintf(stderr, "benchlab: %s: saved as run %lld in %s\n", cmd, (long long)id,
            bl_store_name(s));
    return 0;
}

int cli_save_results(const char *cmd, const struct cli_save *sv, bl_results *r, const char *kind)
{
    if (put_commit(cmd, r, sv->commit, sv->branch))
        return 2;
    bl_store *s;
    if (cli_store_open(cmd, sv->store, BL_STORE_CREATE, &s)) {
        fprintf(stderr, "benchlab: %s: the results were written but not saved\n", cmd);
        return 2;
    }
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.kind = kind;
    o.run_uid = sv->run_uid;
    o.tag = sv->tag;
    char err[1024];
    int64_t id = 0;
    int rc = bl_store_save(s, r, &o, &id, err, sizeof err);
    rc = saved_or_not(cmd, s, rc, id, err);
    bl_store_close(s);
    return rc;
}

int cli_save_profile(const struct cli_save *sv, const bl_profile *p,
                     const struct bl_profile_info *info, char *const *command)
{
    bl_store *s;
    if (cli_store_open("profile", sv->store, BL_STORE_CREATE, &s)) {
        fprintf(stderr, "benchlab: profile: the profile was written but not saved\n");
        return 2;
    }
    struct bl_profile_function *fns = NULL;
    size_t n = bl_profile_flat(p, &fns);
    bl_store_profile_function *keep = calloc(n ? n : 1, sizeof *keep);
    /* the summary: the functions that matter, by total time */
    size_t n_keep = 0;
    for (size_t i = 0; keep && i < n && n_keep < 500; i++)
        keep[n_keep++] = (bl_store_profile_function){fns[i].name,    fns[i].file,     fns[i].line,
                                                     fns[i].self_ns, fns[i].total_ns, fns[i].calls};
    char cmdline[1024] = "", num[7][32];
    size_t len = 0;
    for (size_t i = 0; command && command[i] && len + 2 < sizeof cmdline; i++)
        len +=
            (size_t)snprintf(cmdline + len, sizeof cmdline - len, "%s%s", i ? " " : "", command[i]);
    snprintf(num[0], sizeof num[0], "%llu", (unsigned long long)info->period_ns);
    snprintf(num[1], sizeof num[1], "%llu", (unsigned long long)info->samples);
    snprintf(num[2], sizeof num[2], "%llu", (unsigned long long)info->threads);
    snprintf(num[3], sizeof num[3], "%llu", (unsigned long long)info->elapsed_ns);
    snprintf(num[4], sizeof num[4], "%.0f", bl_profile_total_ns(p));
    snprintf(num[5], sizeof num[5], "%llu", (unsigned long long)info->dropped);
    snprintf(num[6], sizeof num[6], "%zu", n);
    char date[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    bl_label labels[] = {
        {(char *)"date", date},
        {(char *)"command", cmdline},
        {(char *)"mode", (char *)(info->kind == BL_PROFILE_TRACED ? "traced" : "sampled")},
        {(char *)"clock", (char *)info->clock},
        {(char *)"source", (char *)info->source},
        {(char *)"period-ns", num[0]},
        {(char *)"samples", num[1]},
        {(char *)"threads", num[2]},
        {(char *)"elapsed-ns", num[3]},
        {(char *)"total-ns", num[4]},
        {(char *)"dropped", num[5]},
        {(char *)"functions", num[6]},
        {(char *)"benchlab-version", (char *)bl_version()},
        {(char *)"commit", (char *)sv->commit}, /* the last two only when given */
        {(char *)"branch", (char *)sv->branch},
    };
    size_t n_labels = sizeof labels / sizeof *labels - 2;
    if (sv->commit)
        n_labels++;
    if (sv->branch)
        labels[n_labels++] = labels[sizeof labels / sizeof *labels - 1];
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.run_uid = sv->run_uid;
    o.tag = sv->tag;
    char err[1024] = "out of memory";
    int64_t id = 0;
    int rc =
        keep ? bl_store_save_profile(s, labels, n_labels, keep, n_keep, &o, &id, err, sizeof err)
             : -ENOMEM;
    free(keep);
    free(fns);
    rc = saved_or_not("profile", s, rc, id, err);
    bl_store_close(s);
    return rc;
}
