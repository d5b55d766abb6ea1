/*
 * cmd_exec.c - `benchlab exec [options] CMD...`: benchmark whole commands
 * (hyperfine's job, with benchlab's statistics). Takes hyperfine's options
 * with their meanings (docs/exec.md lists the deliberate differences) from
 * exec's table in the shared option module (src/lib/front/options.c),
 * which the parser, --help, the man page and the completions all read;
 * here are what the options do and which may go together. Expands
 * parameters in hyperfine's order, opens the exports before measuring,
 * shows progress on a terminal and prints the summary; the measuring is
 * the library's (benchlab/exec.h), the summary too (bl_exec_write_summary).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchlab/exec.h"
#include "benchlab/format.h"
#include "benchlab/output.h"
#include "benchlab/results.h"
#include "cli.h"
#include "front.h"

#define MAX_PARAMS 8
#define MAX_SCAN_VALUES 100000
#define MAX_CMDS 256
#define MAX_CODES 64

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* ---- what the options set ---------------------------------------------------------- */

struct param_def {
    const char *name;
    char **values;
    size_t n_values;
};

struct cli {
    bl_exec_options o;
    const char *cmds[MAX_CMDS];
    size_t n_cmds;
    const char *names[MAX_CMDS];
    size_t n_names;
    const char *prepares[MAX_CMDS];
    size_t n_prepares;
    const char *concludes[MAX_CMDS];
    size_t n_concludes;
    const char *outputs[MAX_CMDS];
    size_t n_outputs;
    const char *setup, *cleanup, *reference, *reference_name;
    struct param_def params[MAX_PARAMS];
    size_t n_params;
    const char *scan_name, *scan_min, *scan_max, *scan_step;
    const char *exports[5]; /* asciidoc, csv, json, markdown, orgmode */
    int codes[MAX_CODES];
    int format_go;
    enum { STYLE_AUTO, STYLE_BASIC, STYLE_FULL, STYLE_NONE } style;
    enum { SORT_AUTO, SORT_COMMAND, SORT_TIME } sort;
    double unit_ns; /* --time-unit; 0: automatic */
    struct cli_save save;
};

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

/* hyperfine's list: split at ',', where "\," is a comma and "\\" a backslash. */
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
    char *w = copy;
    values[k++] = w; /* all point into copy, freed with values[0] */
    for (const char *p = list; *p; p++) {
        if (*p == '\\' && (p[1] == ',' || p[1] == '\\')) {
            *w++ = *++p;
        } else if (*p == ',') {
            *w++ = '\0';
            values[k++] = w;
        } else {
            *w++ = *p;
        }
    }
    *w = '\0';
    int err = add_param(c, name, values, k);
    if (err) {
        free(copy);
        free(values);
    }
    return err;
}

/* A whole number in int's range, as hyperfine's integer scans take it. */
static int parse_i32(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < INT_MIN || v > INT_MAX)
        return -1;
    *out = v;
    return 0;
}

/* The digits after the decimal point of a number as written ("0.25": 2). */
static int decimals_of(const char *s)
{
    const char *dot = strchr(s, '.');
    return dot ? (int)strspn(dot + 1, "0123456789") : 0;
}

/*
 * hyperfine's scan: integers when MIN, MAX and the step are all integers;
 * otherwise decimals, which need a step, counted exactly (in units of the
 * finest scale) and written as hyperfine's decimals are: MIN as given, then
 * each value with the scale of MIN or the step, whichever is finer
 * (-P t 0 1 -D 0.25: 0 0.25 0.50 0.75 1.00).
 */
static int expand_scan(struct cli *c)
{
    const char *n = c->scan_name;
    long long lo_i, hi_i, step_i = 1;
    int integral = !parse_i32(c->scan_min, &lo_i) && !parse_i32(c->scan_max, &hi_i) &&
                   (!c->scan_step || !parse_i32(c->scan_step, &step_i));
    double lo, hi, step = 1;
    if (!integral) {
        if (parse_double("--parameter-scan", c->scan_min, &lo) ||
            parse_double("--parameter-scan", c->scan_max, &hi) ||
            (c->scan_step && parse_double("--parameter-step-size", c->scan_step, &step)))
            return 2;
        if (!c->scan_step)
            return cli_error("exec: --parameter-scan %s %s %s: decimal bounds need a step "
                             "(-D/--parameter-step-size), as in hyperfine",
                             n, c->scan_min, c->scan_max);
    }
    int scale_min = integral ? 0 : decimals_of(c->scan_min);
    int scale = integral ? 0 : decimals_of(c->scan_step);
    if (scale_min > scale)
        scale = scale_min;
    if (scale > 9)
        return cli_error("exec: --parameter-scan %s: more than 9 decimals", n);
    double unit = pow(10, scale);
    long long lo_u = integral ? lo_i : llround(lo * unit),
              hi_u = integral ? hi_i : llround(hi * unit);
    long long step_u = integral ? step_i : llround(step * unit);
    if (step_u <= 0)
        return cli_error("exec: --parameter-scan %s: the step size must be positive, not %s", n,
                         c->scan_step ? c->scan_step : "1");
    if (lo_u > hi_u)
        return cli_error("exec: --parameter-scan %s: bad range %s..%s (MIN > MAX)", n, c->scan_min,
                         c->scan_max);
    long long count = (hi_u - lo_u) / step_u + 1;
    if (count > MAX_SCAN_VALUES)
        return cli_error("exec: --parameter-scan %s: %lld values, more than %d", n, count,
                         MAX_SCAN_VALUES);
    char **values = calloc((size_t)count + 1, sizeof *values);
    if (!values)
        return cli_error("exec: out of memory");
    for (long long i = 0; i < count; i++) {
        char buf[64];
        long long v = lo_u + i * step_u;
        if (integral)
            snprintf(buf, sizeof buf, "%lld", v);
        else if (i == 0)
            snprintf(buf, sizeof buf, "%.*f", scale_min, (double)v / unit);
        else
            snprintf(buf, sizeof buf, "%.*f", scale, (double)v / unit);
        values[i] = strdup(buf);
        if (!values[i])
            return cli_error("exec: out of memory");
    }
    int err = add_param(c, n, values, (size_t)count);
    if (err) {
        for (long long i = 0; i < count; i++)
            free(values[i]);
        free(values);
    }
    return err;
}

static int parse_ignore_failure(struct cli *c, const char *v)
{
    c->o.ignore_failure = 1;
    if (!v || !*v || strcmp(v, "all-non-zero") == 0)
        return 0;
    size_t n = 0;
    for (const char *p = v;;) {
        char *end;
        errno = 0;
        long code = strtol(p, &end, 10);
        while (*end == ' ')
            end++;
        if (errno || end == p || (*end && *end != ',') || code < INT_MIN || code > INT_MAX)
            return cli_error("exec: --ignore-failure=%s: not all-non-zero nor a list of exit "
                             "codes such as 1,2",
                             v);
        if (n == MAX_CODES)
            return cli_error("exec: --ignore-failure: at most %d exit codes", MAX_CODES);
        c->codes[n++] = (int)code;
        if (!*end)
            break;
        p = end + 1;
    }
    c->o.ignore_codes = c->codes;
    c->o.n_ignore_codes = n;
    return 0;
}

static int pick(const char *opt, const char *v, const char *const *names, int *out)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return 0;
        }
    char all[256] = "";
    for (int i = 0; names[i]; i++)
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? ", " : "", names[i]);
    return cli_error("exec: %s: '%s' is not one of %s", opt, v, all);
}

static int push(const char **list, size_t *n, const char *v)
{
    if (*n == MAX_CMDS)
        return cli_error("exec: at most %d of each option", MAX_CMDS);
    list[(*n)++] = v;
    return 0;
}

/* How many times the option `id` was given. */
static size_t given(const struct bl__args *a, int id)
{
    size_t n = 0;
    for (size_t k = 0; k < a->n_hits; k++)
        n += a->hits[k].opt->id == id;
    return n;
}

/* The options that save the session into the store: each implies --save. */
static int apply_save(struct cli *c, int id, const char *const *v)
{
    switch (id) {
    case BL__ID_SAVE:
        break;
    case BL__ID_STORE:
        c->save.store = v[0];
        break;
    case BL__ID_RUN_ID:
        c->save.run_uid = v[0];
        break;
    case BL__ID_TAG:
        c->save.tag = v[0];
        break;
    case BL__ID_COMMIT: {
        char err[256];
        if (bl__commit_check(v[0], err, sizeof err))
            return cli_error("exec: %s", err);
        c->save.commit = v[0];
        break;
    }
    case BL__ID_BRANCH:
        if (!*v[0])
            return cli_error("exec: --branch: give a name");
        c->save.branch = v[0];
        break;
    default:
        break;
    }
    c->save.on = 1;
    return 0;
}

/* Apply one option with its values (checked for their kind by the parser). */
static int apply(struct cli *c, const struct bl__hit *h)
{
    char opt[64];
    bl__opt_label(h->opt, opt, sizeof opt);
    const char *const *v = h->values;
    int k = 0;
    switch (h->opt->id) {
    case BL__ID_WARMUP:
        c->o.warmup = (int)h->num;
        break;
    case BL__ID_MIN_RUNS:
        c->o.min_runs = (int)h->num;
        break;
    case BL__ID_MAX_RUNS:
        c->o.max_runs = (int)h->num;
        break;
    case BL__ID_RUNS:
        c->o.runs = (int)h->num;
        break;
    case BL__ID_SETUP:
        c->setup = v[0];
        break;
    case BL__ID_CLEANUP:
        c->cleanup = v[0];
        break;
    case BL__ID_REFERENCE:
        c->reference = v[0];
        break;
    case BL__ID_REFERENCE_NAME:
        c->reference_name = v[0];
        break;
    case BL__ID_PREPARE:
        return push(c->prepares, &c->n_prepares, v[0]);
    case BL__ID_CONCLUDE:
        return push(c->concludes, &c->n_concludes, v[0]);
    case BL__ID_CMD_OUTPUT:
        return push(c->outputs, &c->n_outputs, v[0]);
    case BL__ID_COMMAND_NAME:
        return push(c->names, &c->n_names, v[0]);
    case BL__ID_PARAMETER_SCAN:
        c->scan_name = v[0];
        c->scan_min = v[1];
        c->scan_max = v[2];
        break;
    case BL__ID_PARAMETER_STEP:
        c->scan_step = v[0];
        break;
    case BL__ID_PARAMETER_LIST:
        return parse_list(c, v[0], v[1]);
    case BL__ID_SHELL:
        if (!*v[0])
            return cli_error("exec: --shell: empty");
        c->o.shell = strcmp(v[0], "none") == 0 ? NULL : strcmp(v[0], "default") == 0 ? "sh" : v[0];
        break;
    case BL__ID_NO_SHELL:
        c->o.shell = NULL;
        break;
    case BL__ID_IGNORE_FAILURE:
        return parse_ignore_failure(c, v[0]);
    case BL__ID_STYLE: {
        /* no colours in exec's output: nocolor is auto, color is basic */
        static const int style[] = {STYLE_AUTO, STYLE_BASIC, STYLE_FULL,
                                    STYLE_AUTO, STYLE_BASIC, STYLE_NONE};
        if (pick(opt, v[0], h->opt->choices, &k))
            return 2;
        c->style = style[k];
        break;
    }
    case BL__ID_SORT:
        if (pick(opt, v[0], h->opt->choices, &k))
            return 2;
        c->sort = k == 0 ? SORT_AUTO : k == 1 ? SORT_COMMAND : SORT_TIME;
        break;
    case BL__ID_TIME_UNIT:
        if (pick(opt, v[0], h->opt->choices, &k))
            return 2;
        c->unit_ns = k == 0 ? 1e3 : k == 1 ? 1e6 : 1e9;
        break;
    case BL__ID_EXPORT_ASCIIDOC:
    case BL__ID_EXPORT_CSV:
    case BL__ID_EXPORT_JSON:
    case BL__ID_EXPORT_MARKDOWN:
    case BL__ID_EXPORT_ORGMODE:
        c->exports[h->opt->id - BL__ID_EXPORT_ASCIIDOC] = v[0];
        break;
    case BL__ID_SHOW_OUTPUT:
        c->o.show_output = 1;
        break;
    case BL__ID_INPUT:
        c->o.input = strcmp(v[0], "null") == 0 ? NULL : v[0];
        break;
    case BL__ID_MIN_TIME:
    case BL__ID_TIME:
        if (parse_double(opt, v[0], &c->o.time_s))
            return 2;
        return c->o.time_s < 0 ? cli_error("exec: %s: '%s' is negative", opt, v[0]) : 0;
    case BL__ID_TIMEOUT:
        if (parse_double(opt, v[0], &c->o.timeout_s))
            return 2;
        return c->o.timeout_s <= 0 ? cli_error("exec: --timeout: '%s' is not positive", v[0]) : 0;
    case BL__ID_DEBUG_MODE:
        return cli_error("exec: --debug-mode (hyperfine's fake timings for tests) is not "
                         "supported: benchlab exec always measures");
    case BL__ID_ORDER:
        if (pick(opt, v[0], h->opt->choices, &k))
            return 2;
        c->o.order = k == 0 ? BL_EXEC_SHUFFLE : k == 1 ? BL_EXEC_INTERLEAVE : BL_EXEC_SEQUENTIAL;
        break;
    case BL__ID_SEQUENTIAL:
        c->o.order = BL_EXEC_SEQUENTIAL;
        break;
    case BL__ID_SEED: {
        char *end;
        errno = 0;
        c->o.seed = strtoull(v[0], &end, 10);
        if (errno || end == v[0] || *end)
            return cli_error("exec: --seed: '%s' is not a number", v[0]);
        break;
    }
    case BL__ID_FORMAT:
        if (pick(opt, v[0], h->opt->choices, &k))
            return 2;
        c->format_go = k == 1;
        break;
    case BL__ID_SAVE:
    case BL__ID_STORE:
    case BL__ID_RUN_ID:
    case BL__ID_TAG:
    case BL__ID_COMMIT:
    case BL__ID_BRANCH:
        return apply_save(c, h->opt->id, v);
    default:
        break;
    }
    return 0;
}

/* "--name" or "-x" of an option of exec's table, for messages. */
static const char *opt_name(const struct bl__command *cmd, int id, char *buf, size_t size)
{
    for (size_t k = 0; k < cmd->n_opts; k++)
        if (cmd->opts[k].id == id)
            return bl__opt_label(&cmd->opts[k], buf, size);
    return "?";
}

/* As hyperfine (clap): which options may not go together, which need another. */
static int check_combinations(const struct bl__command *cmd, const struct bl__args *args)
{
    static const struct {
        int a, b;
    } conflicts[] = {
        {BL__ID_RUNS, BL__ID_MIN_RUNS},
        {BL__ID_RUNS, BL__ID_MAX_RUNS},
        {BL__ID_PARAMETER_LIST, BL__ID_PARAMETER_SCAN},
        {BL__ID_PARAMETER_LIST, BL__ID_PARAMETER_STEP},
        {BL__ID_NO_SHELL, BL__ID_SHELL},
        {BL__ID_SHOW_OUTPUT, BL__ID_STYLE},
        {BL__ID_SHOW_OUTPUT, BL__ID_CMD_OUTPUT},
    };
    static const struct {
        int opt, needs;
    } requires[] = {{BL__ID_PARAMETER_STEP, BL__ID_PARAMETER_SCAN},
                    {BL__ID_REFERENCE_NAME, BL__ID_REFERENCE}};
    char a[48], b[48];
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++)
        if (given(args, conflicts[i].a) && given(args, conflicts[i].b))
            return cli_error("exec: %s cannot be used with %s",
                             opt_name(cmd, conflicts[i].a, a, sizeof a),
                             opt_name(cmd, conflicts[i].b, b, sizeof b));
    for (size_t i = 0; i < sizeof requires / sizeof requires[0]; i++)
        if (given(args, requires[i].opt) && !given(args, requires[i].needs))
            return cli_error("exec: %s needs %s", opt_name(cmd, requires[i].opt, a, sizeof a),
                             opt_name(cmd, requires[i].needs, b, sizeof b));
    return 0;
}

/* 0; 2 after an error; -1 after --help or --version (exit 0). */
static int parse_args(struct cli *c, int argc, char **argv, struct bl__args *args)
{
    const struct bl__command *cmd = bl__command_find("exec");
    int first = cli_parse("exec", argc, argv, args);
    if (first == -2)
        return 2;
    if (first == -1)
        return -1;
    if (args->version) {
        printf("benchlab exec %s\n", bl_version());
        return -1;
    }
    int err = 0;
    for (size_t k = 0; k < args->n_hits && !err; k++)
        err = apply(c, &args->hits[k]);
    for (size_t k = 0; k < args->n_pos && !err; k++) {
        if (!*args->pos[k])
            return cli_error("exec: an empty command");
        err = push(c->cmds, &c->n_cmds, args->pos[k]);
    }
    if (!err)
        err = check_combinations(cmd, args);
    if (err)
        return err;
    if (c->n_cmds == 0)
        return cli_error("exec: name a command: benchlab exec [options] CMD...");
    if (c->o.max_runs > 0 && c->o.max_runs < c->o.min_runs) {
        if (given(args, BL__ID_MIN_RUNS))
            return cli_error("exec: --min-runs %d is more than --max-runs %d", c->o.min_runs,
                             c->o.max_runs);
        c->o.min_runs = c->o.max_runs; /* only the default was larger */
    }
    int n_exports_stdout = c->format_go;
    for (int k = 0; k < 5; k++)
        n_exports_stdout += c->exports[k] && strcmp(c->exports[k], "-") == 0;
    if (n_exports_stdout > 1)
        return cli_error("exec: only one of --format go and the exports can write stdout ('-')");
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

/* "cmd (x = a, y = 1)": the parameters the command line does not use, as hyperfine shows them. */
static char *label_of(const char *name, const char *tmpl, const bl_exec_param *ps, size_t n)
{
    size_t len = strlen(name) + 4;
    for (size_t p = 0; p < n; p++)
        len += strlen(ps[p].name) + strlen(ps[p].value) + 6;
    char *out = malloc(len);
    if (!out)
        return NULL;
    strcpy(out, name);
    int any = 0;
    for (size_t p = 0; p < n; p++) {
        char key[256];
        snprintf(key, sizeof key, "{%s}", ps[p].name);
        if (strstr(tmpl, key))
            continue;
        strcat(out, any ? ", " : " (");
        strcat(out, ps[p].name);
        strcat(out, " = ");
        strcat(out, ps[p].value);
        any = 1;
    }
    if (any)
        strcat(out, ")");
    return out;
}

/*
 * The commands to run, in hyperfine's order: the --reference first, then
 * per combination of parameter values the commands in their order; the
 * commands vary fastest, then the first parameter, then the second...
 */
static int expand(const struct cli *c, struct expanded *e)
{
    size_t combos = 1;
    for (size_t p = 0; p < c->n_params; p++)
        combos *= c->params[p].n_values;
    size_t n_bench = c->n_cmds * combos, n = n_bench + (c->reference != NULL);
    if (c->n_params && c->n_names > 1 && c->n_names != n_bench)
        return cli_error("exec: %zu --command-name for %zu commands: give it once or once per "
                         "command (with the parameters' values)",
                         c->n_names, n_bench);
    if (!c->n_params && c->n_names > c->n_cmds)
        return cli_error("exec: more --command-name (%zu) than commands (%zu)", c->n_names,
                         c->n_cmds);
    const struct {
        const char *opt;
        size_t count;
    } per_cmd[] = {
        {"--prepare", c->n_prepares}, {"--conclude", c->n_concludes}, {"--output", c->n_outputs}};
    for (size_t k = 0; k < 3; k++)
        if (per_cmd[k].count > 1 && per_cmd[k].count != n)
            return cli_error("exec: give %s once, or once per command (%zu, counting a "
                             "--reference and the parameters' values), not %zu times",
                             per_cmd[k].opt, n, per_cmd[k].count);
    e->cmds = calloc(n, sizeof *e->cmds);
    e->params = calloc(n * (c->n_params ? c->n_params : 1), sizeof *e->params);
    e->strings = calloc(n * 8, sizeof *e->strings);
    if (!e->cmds || !e->params || !e->strings)
        return cli_error("exec: out of memory");
    for (size_t j = 0; j < n; j++) {
        bl_exec_command *x = &e->cmds[e->n_cmds];
        bl_exec_param *ps = &e->params[j * (c->n_params ? c->n_params : 1)];
        int is_ref = c->reference && j == 0;
        size_t k = j - (c->reference != NULL), i = is_ref ? 0 : k % c->n_cmds;
        size_t np = is_ref ? 0 : c->n_params, rest = k / c->n_cmds;
        for (size_t p = 0; p < np; p++) {
            ps[p].name = c->params[p].name;
            ps[p].value = c->params[p].values[rest % c->params[p].n_values];
            rest /= c->params[p].n_values;
        }
        const char *tmpl = is_ref ? c->reference : c->cmds[i];
        const char *name = tmpl;
        if (is_ref && c->reference_name)
            name = c->reference_name;
        else if (!is_ref && c->n_params && c->n_names)
            name = c->names[c->n_names > 1 ? k : 0];
        else if (!is_ref && !c->n_params && i < c->n_names)
            name = c->names[i];
        x->params = ps;
        x->n_params = np;
        const char *prep = c->n_prepares ? c->prepares[c->n_prepares > 1 ? j : 0] : NULL;
        const char *concl = c->n_concludes ? c->concludes[c->n_concludes > 1 ? j : 0] : NULL;
        x->output = c->n_outputs ? c->outputs[c->n_outputs > 1 ? j : 0] : NULL;
        x->command = keep(e, bl_exec_substitute(tmpl, ps, np));
        x->name = keep(e, bl_exec_substitute(name, ps, np));
        x->label = x->name ? keep(e, label_of(x->name, tmpl, ps, np)) : NULL;
        x->prepare = prep ? keep(e, bl_exec_substitute(prep, ps, np)) : NULL;
        x->conclude = concl ? keep(e, bl_exec_substitute(concl, ps, np)) : NULL;
        x->setup = c->setup ? keep(e, bl_exec_substitute(c->setup, ps, np)) : NULL;
        x->cleanup = c->cleanup ? keep(e, bl_exec_substitute(c->cleanup, ps, np)) : NULL;
        if (!x->command || !x->name || !x->label || (prep && !x->prepare) ||
            (concl && !x->conclude) || (c->setup && !x->setup) || (c->cleanup && !x->cleanup))
            return cli_error("exec: out of memory");
        e->n_cmds++;
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
    struct bl__progress line; /* front/output.c: the one progress line */
    unsigned long long last_ns;
};

static unsigned long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* At most ten updates a second: runs of a fast command come by thousands. */
static void on_run_start(void *ctx, size_t cmd, int k, int n, int is_warmup, double eta)
{
    struct progress *p = ctx;
    unsigned long long t = now_ns();
    if (p->line.shown && t - p->last_ns < 100000000ull)
        return;
    p->last_ns = t;
    char safe[256]; /* made safe before it is cut to 40 bytes, as it is shown */
    bl__progress_show(&p->line, "%.40s: %s %d of %d, ETA %.0f s",
                      bl_terminal_text(safe, sizeof safe,
                                       p->cmds[cmd].label ? p->cmds[cmd].label : p->cmds[cmd].name),
                      is_warmup ? "warm-up" : "run", k, n, ceil(eta));
}

/* ---- the command ------------------------------------------------------------------ */

enum { EX_ASCIIDOC, EX_CSV, EX_JSON, EX_MARKDOWN, EX_ORGMODE };

struct export_file {
    const char *path;
    bl_output *out; /* open before measuring: a bad path costs no measurement */
};

static int write_export(int kind, FILE *f, const struct cli *c, const bl_exec_results *res)
{
    if (kind == EX_CSV)
        return bl_exec_write_csv(f, res);
    if (kind == EX_JSON)
        return bl_exec_write_json(f, res);
    size_t *order = malloc((res->n_results ? res->n_results : 1) * sizeof *order);
    if (!order)
        return -ENOMEM;
    bl_exec_order(res, c->sort == SORT_TIME, 1, order);
    bl_exec_table_options t = {kind == EX_ASCIIDOC  ? BL_EXEC_ASCIIDOC
                               : kind == EX_ORGMODE ? BL_EXEC_ORGMODE
                                                    : BL_EXEC_MARKDOWN,
                               c->unit_ns, order, res->n_results, c->reference ? 0 : SIZE_MAX};
    int err = bl_exec_write_table(f, res, &t);
    free(order);
    return err;
}

int cmd_exec(int argc, char **argv)
{
    struct cli c;
    memset(&c, 0, sizeof c);
    bl_exec_options_init(&c.o);
    struct bl__args args;
    int status = parse_args(&c, argc, argv, &args);
    if (status == -1)
        return 0;
    struct expanded e;
    memset(&e, 0, sizeof e);
    struct export_file ex[5];
    int to_stdout = c.format_go;
    for (int i = 0; i < 5; i++) {
        ex[i].path = c.exports[i];
        ex[i].out = NULL;
    }
    if (!status)
        status = expand(&c, &e);
    /* open the exports now: an unwritable path must not cost a measurement */
    for (int i = 0; i < 5 && !status; i++) {
        if (!ex[i].path)
            continue;
        if (strcmp(ex[i].path, "-") == 0)
            to_stdout = 1;
        int oerr = bl_output_open(ex[i].path, &ex[i].out);
        if (oerr)
            status =
                cli_error("exec: cannot write export file '%s': %s", ex[i].path, bl_strerror(oerr));
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
        int show_progress = c.style == STYLE_FULL || (c.style == STYLE_AUTO && isatty(2));
        struct progress prog = {e.cmds, {show_progress ? stderr : NULL, 0}, 0};
        bl_exec_observer obs = {&prog, on_run_start, NULL};
        char msg[512];
        int err = bl_exec_run_all(e.cmds, e.n_cmds, &c.o, show_progress ? &obs : NULL, &res, msg,
                                  sizeof msg);
        bl__progress_clear(&prog.line);
        if (res) {
            if (c.format_go)
                bl_exec_write_gobench(stdout, res);
            /* stdout stays the machine-readable output when one goes there */
            if (c.style != STYLE_NONE)
                bl_exec_write_summary(to_stdout ? stderr : stdout, res, c.sort == SORT_COMMAND,
                                      c.reference != NULL, c.unit_ns);
            fflush(stdout);
            for (int i = 0; i < 5; i++) {
                int werr = ex[i].out
                               ? bl_output_end(ex[i].out,
                                               write_export(i, bl_output_file(ex[i].out), &c, res))
                               : 0;
                ex[i].out = NULL;
                if (werr)
                    status = cli_error("exec: export '%s': %s", ex[i].path, bl_strerror(werr));
            }
        }
        if (err == BL_EINTR) {
            fprintf(stderr, "benchlab: exec: interrupted; the runs measured so far are shown\n");
            status = 130;
        } else if (err == BL_EEXIT) {
            if (c.o.n_ignore_codes)
                fprintf(stderr, "benchlab: exec: %s, not one of --ignore-failure's exit codes\n",
                        msg);
            else
                fprintf(stderr, "benchlab: exec: %s; use --ignore-failure to measure it anyway\n",
                        msg);
            status = 1;
        } else if (err == BL_ETIMEOUT) {
            fprintf(stderr, "benchlab: exec: %s\n", msg);
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
    for (int i = 0; i < 5; i++)
        bl_output_discard(ex[i].out); /* no results: the previous file stays */
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
