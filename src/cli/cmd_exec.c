/*
 * cmd_exec.c - `benchlab exec [options] CMD...`: benchmark whole commands
 * (hyperfine's job, with benchlab's statistics). Parses options (named as
 * hyperfine's where the concept is the same), expands parameters, opens
 * the exports before measuring, shows progress on a terminal and prints
 * the summary; the measuring is the library's (benchlab/exec.h).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchlab/exec.h"
#include "benchlab/format.h"
#include "benchlab/results.h"
#include "cli.h"

#define MAX_PARAMS 8
#define MAX_SCAN_VALUES 100000

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct param_def {
    const char *name;
    char **values;
    size_t n_values;
};

struct cli {
    bl_exec_options o;
    const char *cmds[256];
    size_t n_cmds;
    const char *names[256];
    size_t n_names;
    const char *prepares[256];
    size_t n_prepares;
    const char *concludes[256];
    size_t n_concludes;
    const char *setup, *cleanup;
    struct param_def params[MAX_PARAMS];
    size_t n_params;
    const char *scan_name, *scan_min, *scan_max, *scan_step;
    const char *export_json, *export_csv, *export_md;
    int format_go;
    int min_runs_given;
    struct cli_save save;
};

static void usage(FILE *f)
{
    fputs("usage: benchlab exec [options] CMD...\n\n"
          "Benchmarks each command: wall, user and system time, peak RSS, exit status.\n"
          "Commands run in shuffled rounds (one run of each per round) and with `sh -c`;\n"
          "the shell's start-up is measured in the same rounds and subtracted.\n\n"
          "  -w, --warmup N             untimed runs of each command first (0)\n"
          "  -r, --runs N               exactly N runs (default: the automatic budget)\n"
          "  -m, --min-runs N           automatic budget: at least N runs (10)\n"
          "  -M, --max-runs N           automatic budget: at most N runs (no limit)\n"
          "      --time S               automatic budget: about S seconds per command (3)\n"
          "  -p, --prepare CMD          before each run, untimed (once, or once per command)\n"
          "      --conclude CMD         after each run, untimed (once, or once per command)\n"
          "  -s, --setup CMD            once before a command's first run\n"
          "  -c, --cleanup CMD          once after a command's last run\n"
          "  -P, --parameter-scan NAME MIN MAX   run CMD for each {NAME} in MIN..MAX\n"
          "  -D, --parameter-step-size STEP      the scan's step (1)\n"
          "  -L, --parameter-list NAME A,B,C     run CMD for each {NAME} in the list\n"
          "  -S, --shell SHELL          the shell (sh); --shell=none runs CMD directly\n"
          "  -N                         the same as --shell=none\n"
          "      --input FILE           the commands' stdin (default /dev/null)\n"
          "      --show-output          show the commands' output (default: discarded)\n"
          "  -i, --ignore-failure       a non-zero exit is recorded, not an error\n"
          "  -n, --command-name NAME    the name of the next command in reports\n"
          "      --order ORDER          shuffle (default), interleave (A B A B), sequential\n"
          "      --sequential           all runs of one command, then the next (hyperfine's)\n"
          "      --seed N               the shuffle's seed\n"
          "      --format text|go       go: Go benchmark lines on stdout, summary on stderr\n"
          "      --export-json FILE     hyperfine's JSON (seconds)\n"
          "      --export-csv FILE      hyperfine's CSV\n"
          "      --export-markdown FILE a Markdown table\n"
          "      --save                 also save the runs in the results store (docs/store.md)\n"
          "      --store SPEC           the store (default: $BENCHLAB_STORE, else\n"
          "                             .benchlab/results.db in the project); implies --save\n"
          "      --run-id NAME, --tag TEXT   as for benchlab run; imply --save\n\n"
          "Exit status: 0 ok, 1 a command failed, 2 trouble, 130 interrupted.\n",
          f);
}

/* ---- option parsing ------------------------------------------------------------- */

static int parse_int(const char *opt, const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0 || v > 100000000)
        return cli_error("exec: %s: '%s' is not a count", opt, s);
    *out = (int)v;
    return 0;
}

static int parse_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end != s && *end == 's' && end[1] == '\0')
        end++;
    if (errno || end == s || *end || !isfinite(v))
        return cli_error("exec: %s: '%s' is not a number", opt, s);
    *out = v;
    return 0;
}

static int add_param(struct cli *c, const char *name, char **values, size_t n)
{
    if (c->n_params == MAX_PARAMS)
        return cli_error("exec: at most %d parameters", MAX_PARAMS);
    for (size_t i = 0; i < c->n_params; i++)
        if (strcmp(c->params[i].name, name) == 0)
            return cli_error("exec: parameter '%s' given twice", name);
    c->params[c->n_params++] = (struct param_def){name, values, n};
    return 0;
}

static int parse_list(struct cli *c, const char *name, const char *list)
{
    size_t n = 1;
    for (const char *p = list; *p; p++)
        n += *p == ',';
    char **values = calloc(n, sizeof *values);
    char *copy = strdup(list);
    if (!values || !copy) {
        free(values);
        free(copy);
        return cli_error("exec: out of memory");
    }
    size_t k = 0;
    for (char *tok = copy, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        values[k++] = tok; /* all point into copy, freed with values[0] */
    }
    return add_param(c, name, values, n);
}

static int expand_scan(struct cli *c)
{
    double lo, hi, step = 1;
    const char *n = c->scan_name;
    if (parse_double("--parameter-scan", c->scan_min, &lo) ||
        parse_double("--parameter-scan", c->scan_max, &hi) ||
        (c->scan_step && parse_double("--parameter-step-size", c->scan_step, &step)))
        return 2;
    if (step <= 0)
        return cli_error("exec: --parameter-scan %s: the step size must be positive, not %g", n,
                         step);
    if (lo > hi)
        return cli_error("exec: --parameter-scan %s: bad range %s..%s (MIN > MAX)", n, c->scan_min,
                         c->scan_max);
    double count = floor((hi - lo) / step + 1e-9) + 1;
    if (count > MAX_SCAN_VALUES)
        return cli_error("exec: --parameter-scan %s: %.0f values, more than %d", n, count,
                         MAX_SCAN_VALUES);
    int integral = lo == floor(lo) && step == floor(step);
    char **values = calloc((size_t)count + 1, sizeof *values);
    if (!values)
        return cli_error("exec: out of memory");
    for (size_t i = 0; i < (size_t)count; i++) {
        char buf[64];
        double v = lo + (double)i * step;
        if (integral)
            snprintf(buf, sizeof buf, "%.0f", v);
        else
            snprintf(buf, sizeof buf, "%.10g", v);
        values[i] = strdup(buf);
        if (!values[i])
            return cli_error("exec: out of memory");
    }
    return add_param(c, n, values, (size_t)count);
}

#define NEED(k)                                                                                    \
    do {                                                                                           \
        if (i + (k) >= argc && !inl)                                                               \
            return cli_error("exec: %s needs %d argument%s", opt, (k), (k) > 1 ? "s" : "");        \
    } while (0)
#define VAL() (inl ? inl : argv[++i])

static int parse_args(struct cli *c, int argc, char **argv)
{
    int err = 0;
    for (int i = 1; i < argc && !err; i++) {
        char *a = argv[i];
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (c->n_cmds == 256)
                return cli_error("exec: at most 256 commands");
            c->cmds[c->n_cmds++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc && c->n_cmds < 256; i++)
                c->cmds[c->n_cmds++] = argv[i];
            break;
        }
        char opt[64];
        const char *inl = NULL;
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        snprintf(opt, sizeof opt, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
        if (eq)
            inl = eq + 1;
#define IS(s, l) (strcmp(opt, s) == 0 || strcmp(opt, l) == 0)
        if (IS("-h", "--help")) {
            usage(stdout);
            exit(0);
        } else if (IS("-w", "--warmup")) {
            NEED(1);
            err = parse_int(opt, VAL(), &c->o.warmup);
        } else if (IS("-r", "--runs")) {
            NEED(1);
            err = parse_int(opt, VAL(), &c->o.runs);
            if (!err && c->o.runs == 0)
                err = cli_error("exec: --runs must be at least 1");
        } else if (IS("-m", "--min-runs")) {
            NEED(1);
            err = parse_int(opt, VAL(), &c->o.min_runs);
            c->min_runs_given = 1;
            if (!err && c->o.min_runs == 0)
                err = cli_error("exec: --min-runs must be at least 1");
        } else if (IS("-M", "--max-runs")) {
            NEED(1);
            err = parse_int(opt, VAL(), &c->o.max_runs);
            if (!err && c->o.max_runs == 0)
                err = cli_error("exec: --max-runs must be at least 1");
        } else if (IS("--time", "--time")) {
            NEED(1);
            err = parse_double(opt, VAL(), &c->o.time_s);
        } else if (IS("-p", "--prepare")) {
            NEED(1);
            if (c->n_prepares < 256)
                c->prepares[c->n_prepares++] = VAL();
        } else if (IS("--conclude", "--conclude")) {
            NEED(1);
            if (c->n_concludes < 256)
                c->concludes[c->n_concludes++] = VAL();
        } else if (IS("-s", "--setup")) {
            NEED(1);
            c->setup = VAL();
        } else if (IS("-c", "--cleanup")) {
            NEED(1);
            c->cleanup = VAL();
        } else if (IS("-P", "--parameter-scan")) {
            if (inl || i + 3 >= argc)
                return cli_error("exec: --parameter-scan needs NAME MIN MAX");
            if (c->scan_name)
                return cli_error("exec: --parameter-scan given twice");
            c->scan_name = argv[i + 1];
            c->scan_min = argv[i + 2];
            c->scan_max = argv[i + 3];
            i += 3;
        } else if (IS("-D", "--parameter-step-size")) {
            NEED(1);
            c->scan_step = VAL();
        } else if (IS("-L", "--parameter-list")) {
            if (inl || i + 2 >= argc)
                return cli_error("exec: --parameter-list needs NAME VALUES");
            err = parse_list(c, argv[i + 1], argv[i + 2]);
            i += 2;
        } else if (IS("-S", "--shell")) {
            NEED(1);
            const char *v = VAL();
            c->o.shell = strcmp(v, "none") == 0 ? NULL : v;
        } else if (IS("-N", "-N")) {
            c->o.shell = NULL;
        } else if (IS("--input", "--input")) {
            NEED(1);
            c->o.input = VAL();
        } else if (IS("--show-output", "--show-output")) {
            c->o.show_output = 1;
        } else if (IS("-i", "--ignore-failure")) {
            c->o.ignore_failure = 1;
        } else if (IS("-n", "--command-name")) {
            NEED(1);
            if (c->n_names < 256)
                c->names[c->n_names++] = VAL();
        } else if (IS("--order", "--order")) {
            NEED(1);
            const char *v = VAL();
            if (strcmp(v, "shuffle") == 0)
                c->o.order = BL_EXEC_SHUFFLE;
            else if (strcmp(v, "interleave") == 0)
                c->o.order = BL_EXEC_INTERLEAVE;
            else if (strcmp(v, "sequential") == 0)
                c->o.order = BL_EXEC_SEQUENTIAL;
            else
                err = cli_error("exec: --order: '%s' is not shuffle, interleave or sequential", v);
        } else if (IS("--sequential", "--sequential")) {
            c->o.order = BL_EXEC_SEQUENTIAL;
        } else if (IS("--seed", "--seed")) {
            NEED(1);
            c->o.seed = strtoull(VAL(), NULL, 10);
        } else if (IS("--format", "--format")) {
            NEED(1);
            const char *v = VAL();
            if (strcmp(v, "go") == 0)
                c->format_go = 1;
            else if (strcmp(v, "text") != 0)
                err = cli_error("exec: --format: '%s' is not text or go", v);
        } else if (IS("--export-json", "--export-json")) {
            NEED(1);
            c->export_json = VAL();
        } else if (IS("--export-csv", "--export-csv")) {
            NEED(1);
            c->export_csv = VAL();
        } else if (IS("--export-markdown", "--export-markdown")) {
            NEED(1);
            c->export_md = VAL();
        } else if (IS("--save", "--save")) {
            c->save.on = 1;
        } else if (IS("--store", "--store")) {
            NEED(1);
            c->save.store = VAL();
            c->save.on = 1;
        } else if (IS("--run-id", "--run-id")) {
            NEED(1);
            c->save.run_uid = VAL();
            c->save.on = 1;
        } else if (IS("--tag", "--tag")) {
            NEED(1);
            c->save.tag = VAL();
            c->save.on = 1;
        } else {
            return cli_error("exec: unknown option '%s' (benchlab exec --help)", a);
        }
#undef IS
    }
    if (err)
        return err;
    if (c->n_cmds == 0)
        return cli_error("exec: name a command: benchlab exec [options] CMD...");
    if (c->n_names > c->n_cmds)
        return cli_error("exec: more --command-name than commands");
    if (c->n_prepares > 1 && c->n_prepares != c->n_cmds)
        return cli_error("exec: give --prepare once, or once per command");
    if (c->n_concludes > 1 && c->n_concludes != c->n_cmds)
        return cli_error("exec: give --conclude once, or once per command");
    if (c->o.max_runs > 0 && c->o.max_runs < c->o.min_runs) {
        if (c->min_runs_given)
            return cli_error("exec: --min-runs %d is more than --max-runs %d", c->o.min_runs,
                             c->o.max_runs);
        c->o.min_runs = c->o.max_runs; /* only the default was larger */
    }
    if (c->scan_step && !c->scan_name)
        return cli_error("exec: --parameter-step-size needs --parameter-scan");
    if (c->scan_name)
        return expand_scan(c);
    return 0;
}

/* ---- commands from templates and parameters -------------------------------------- */

struct expanded {
    bl_exec_command *cmds;
    bl_exec_param *params; /* n_params per command */
    char **strings;        /* everything allocated here, to free */
    size_t n_cmds, n_strings;
};

static char *keep(struct expanded *e, char *s)
{
    if (s)
        e->strings[e->n_strings++] = s;
    return s;
}

static int expand(const struct cli *c, struct expanded *e)
{
    size_t combos = 1;
    for (size_t p = 0; p < c->n_params; p++)
        combos *= c->params[p].n_values;
    size_t n = c->n_cmds * combos;
    e->cmds = calloc(n, sizeof *e->cmds);
    e->params = calloc(n * (c->n_params ? c->n_params : 1), sizeof *e->params);
    e->strings = calloc(n * 7, sizeof *e->strings);
    if (!e->cmds || !e->params || !e->strings)
        return cli_error("exec: out of memory");
    for (size_t i = 0; i < c->n_cmds; i++) {
        for (size_t k = 0; k < combos; k++) {
            bl_exec_command *x = &e->cmds[e->n_cmds];
            bl_exec_param *ps = &e->params[e->n_cmds * (c->n_params ? c->n_params : 1)];
            size_t rest = k;
            for (size_t p = c->n_params; p-- > 0;) {
                ps[p].name = c->params[p].name;
                ps[p].value = c->params[p].values[rest % c->params[p].n_values];
                rest /= c->params[p].n_values;
            }
            x->params = ps;
            x->n_params = c->n_params;
            const char *name = i < c->n_names ? c->names[i] : c->cmds[i];
            const char *prep = c->n_prepares ? c->prepares[c->n_prepares > 1 ? i : 0] : NULL;
            const char *concl = c->n_concludes ? c->concludes[c->n_concludes > 1 ? i : 0] : NULL;
            x->command = keep(e, bl_exec_substitute(c->cmds[i], ps, c->n_params));
            x->name = keep(e, bl_exec_substitute(name, ps, c->n_params));
            x->prepare = prep ? keep(e, bl_exec_substitute(prep, ps, c->n_params)) : NULL;
            x->conclude = concl ? keep(e, bl_exec_substitute(concl, ps, c->n_params)) : NULL;
            x->setup = c->setup ? keep(e, bl_exec_substitute(c->setup, ps, c->n_params)) : NULL;
            x->cleanup =
                c->cleanup ? keep(e, bl_exec_substitute(c->cleanup, ps, c->n_params)) : NULL;
            if (!x->command || !x->name || (prep && !x->prepare) || (concl && !x->conclude) ||
                (c->setup && !x->setup) || (c->cleanup && !x->cleanup))
                return cli_error("exec: out of memory");
            e->n_cmds++;
        }
    }
    return 0;
}

static void expanded_free(struct expanded *e)
{
    for (size_t i = 0; e->strings && i < e->n_strings; i++)
        free(e->strings[i]);
    free(e->strings);
    free(e->cmds);
    free(e->params);
}

/* ---- progress and summary ------------------------------------------------------- */

struct progress {
    const bl_exec_command *cmds;
    unsigned long long last_ns;
    int shown;
};

static unsigned long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void on_run_start(void *ctx, size_t cmd, int k, int n, int is_warmup, double eta)
{
    struct progress *p = ctx;
    unsigned long long t = now_ns();
    if (p->shown && t - p->last_ns < 100000000ull)
        return;
    p->last_ns = t;
    p->shown = 1;
    fprintf(stderr, "\r\033[K%.40s: %s %d of %d, ETA %.0f s", p->cmds[cmd].name,
            is_warmup ? "warm-up" : "run", k, n, ceil(eta));
    fflush(stderr);
}

static void clear_progress(struct progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = 0;
}

static void print_result(FILE *f, size_t index, const bl_exec_result *r)
{
    char med[32], lo[32], hi[32], mean[32], sd[32], mad[32], mn[32], mx[32], us[32], sy[32];
    fprintf(f, "Benchmark %zu: %s\n", index + 1, r->command->name);
    if (!r->n_runs) {
        fprintf(f, "  no runs measured\n");
        return;
    }
    const bl_summary *w = &r->wall;
    bl_format_duration(med, sizeof med, w->median);
    bl_format_duration(mean, sizeof mean, w->mean);
    bl_format_duration(sd, sizeof sd, r->n_runs > 1 ? w->stddev : 0);
    bl_format_duration(mad, sizeof mad, w->mad);
    bl_format_duration(mn, sizeof mn, w->min);
    bl_format_duration(mx, sizeof mx, w->max);
    bl_format_duration(us, sizeof us, r->user.median);
    bl_format_duration(sy, sizeof sy, r->sys.median);
    if (isfinite(w->ci_lo)) {
        bl_format_duration(lo, sizeof lo, w->ci_lo);
        bl_format_duration(hi, sizeof hi, w->ci_hi);
        fprintf(f, "  median %s  [%s, %s] %.0f%% CI    mean %s ± %s (stddev)\n", med, lo, hi,
                w->confidence * 100, mean, sd);
    } else {
        fprintf(f, "  median %s  (too few runs for a %.0f%% CI)    mean %s ± %s (stddev)\n", med,
                w->confidence * 100, mean, sd);
    }
    fprintf(f, "  MAD %s    range %s … %s    user %s, system %s    peak RSS %.1f MiB    %zu runs\n",
            mad, mn, mx, us, sy, (double)r->max_rss_bytes / 1048576.0, r->n_runs);
    size_t failed = 0;
    for (size_t k = 0; k < r->n_runs; k++)
        failed += r->runs[k].exit_code != 0;
    if (failed)
        fprintf(f, "  warning: %zu of %zu runs exited with a non-zero status (ignored)\n", failed,
                r->n_runs);
    if (bl_exec_first_run_slow(r))
        fprintf(f, "  warning: the first run was much slower than the others (caches were cold?);"
                   " try --warmup or --prepare\n");
    size_t slow = bl_exec_count_slow(r);
    if (slow)
        fprintf(f,
                "  warning: %zu of %zu runs were much slower than the rest (other programs "
                "running?); the median resists them, the mean does not\n",
                slow, r->n_runs);
}

static void print_summary(FILE *f, const bl_exec_results *res)
{
    for (size_t i = 0; i < res->n_results; i++)
        print_result(f, i, &res->results[i]);
    if (res->n_shell_runs) {
        char sh[32];
        bl_format_duration(sh, sizeof sh, res->shell_wall_ns);
        fprintf(f,
                "Shell start-up (%s -c '', median of %zu runs in the same rounds): %s, "
                "subtracted from every run.\n",
                res->shell, res->n_shell_runs, sh);
    }
    if (res->stopped_early)
        fprintf(f, "Stopped before the time budget: the median's interval was within 1%%.\n");
    const bl_exec_result *a = &res->results[0];
    if (res->n_results < 2 || !a->n_runs)
        return;
    fprintf(f, "Relative to '%s' (ratio of medians, %.0f%% interval; Mann-Whitney U test):\n",
            a->command->name, a->wall.confidence * 100);
    for (size_t i = 1; i < res->n_results; i++) {
        const bl_exec_result *b = &res->results[i];
        double ratio, lo, hi, p;
        if (!b->n_runs || bl_exec_compare(a, b, &ratio, &lo, &hi, &p) != 0)
            continue;
        fprintf(f, "  %-30s %.3fx", b->command->name, ratio);
        if (isfinite(lo))
            fprintf(f, " [%.3f, %.3f]", lo, hi);
        if (p < 0.05)
            fprintf(f, "  %s (p=%.3g)\n", ratio > 1 ? "slower" : "faster", p);
        else
            fprintf(f, "  no significant difference (p=%.3g)\n", p);
    }
}

/* ---- the command ------------------------------------------------------------------ */

struct export_file {
    const char *path;
    FILE *f;
    int (*write)(FILE *f, const bl_exec_results *r);
};

int cmd_exec(int argc, char **argv)
{
    struct cli c;
    memset(&c, 0, sizeof c);
    bl_exec_options_init(&c.o);
    int status = parse_args(&c, argc, argv);
    struct expanded e;
    memset(&e, 0, sizeof e);
    struct export_file ex[3] = {{c.export_json, NULL, bl_exec_write_json},
                                {c.export_csv, NULL, bl_exec_write_csv},
                                {c.export_md, NULL, bl_exec_write_markdown}};
    if (!status)
        status = expand(&c, &e);
    /* open the exports now: an unwritable path must not cost a measurement */
    for (int i = 0; i < 3 && !status; i++) {
        if (ex[i].path && !(ex[i].f = fopen(ex[i].path, "w")))
            status =
                cli_error("exec: cannot write export file '%s': %s", ex[i].path, strerror(errno));
    }
    bl_exec_results *res = NULL;
    if (!status) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop; /* no SA_RESTART */
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        c.o.stop = &stop_flag;
        struct progress prog = {e.cmds, 0, 0};
        bl_exec_observer obs = {&prog, on_run_start, NULL};
        char msg[512];
        int err =
            bl_exec_run_all(e.cmds, e.n_cmds, &c.o, isatty(2) ? &obs : NULL, &res, msg, sizeof msg);
        clear_progress(&prog);
        if (res) {
            if (c.format_go)
                bl_exec_write_gobench(stdout, res);
            print_summary(c.format_go ? stderr : stdout, res);
            fflush(stdout);
            for (int i = 0; i < 3; i++)
                if (ex[i].f && ex[i].write(ex[i].f, res) != 0)
                    status = cli_error("exec: writing export file '%s' failed", ex[i].path);
        }
        if (err == BL_EINTR) {
            fprintf(stderr, "benchlab: exec: interrupted; the runs measured so far are shown\n");
            status = 130;
        } else if (err == BL_EEXIT) {
            fprintf(stderr, "benchlab: exec: %s; use --ignore-failure to measure it anyway\n", msg);
            status = 1;
        } else if (err) {
            status = cli_error("exec: %s", msg[0] ? msg : bl_strerror(err));
        }
        /* after the results are out, and only whole, successful sessions */
        if (c.save.on && res && err) {
            fprintf(stderr, "benchlab: exec: --save: not saved: %s\n",
                    err == BL_EINTR ? "the session was interrupted" : "a command failed");
        } else if (c.save.on && res) {
            bl_results *r = NULL;
            if (bl_exec_to_results(res, &r))
                status = cli_error("exec: --save: out of memory");
            else if (cli_save_results("exec", &c.save, r, "exec"))
                status = 2;
            bl_results_destroy(r);
        }
    }
    for (int i = 0; i < 3; i++)
        if (ex[i].f && fclose(ex[i].f) != 0 && !status)
            status = cli_error("exec: writing export file '%s' failed", ex[i].path);
    bl_exec_results_destroy(res);
    expanded_free(&e);
    for (size_t p = 0; p < c.n_params; p++) {
        if (c.scan_name && strcmp(c.params[p].name, c.scan_name) == 0) {
            for (size_t k = 0; k < c.params[p].n_values; k++)
                free(c.params[p].values[k]);
        } else if (c.params[p].n_values) {
            free(c.params[p].values[0]);
        }
        free(c.params[p].values);
    }
    return status;
}
