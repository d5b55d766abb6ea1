/*
 * args.c - reading argv against a command's option table (front.h).
 *
 * GNU style by default: --opt=VALUE, --opt VALUE, -o VALUE, -oVALUE,
 * bundled switches (-ab), "--" ends the options, positionals may come
 * between options unless the command stops at the first one. An option of
 * several values (-P VAR MIN MAX) takes the next arguments, whatever they
 * look like, as a getopt-style value does. Go style
 * (compare): -flag and --flag alike, "=" or the next argument, options end
 * at the first non-flag, and Go's wording for errors. Every value is
 * checked against its kind here, so commands see only valid values, and an
 * unknown option or value is answered with the closest known one.
 *
 * Calls: base (the edit distance of "did you mean") only. Never prints.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "front.h"

double bl__parse_duration(const char *s)
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

static int fail(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (size)
        vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return -1;
}

static int visible(const struct bl__opt *o)
{
    return !(o->flags & BL__OPT_HIDDEN);
}

const char *bl__opt_label(const struct bl__opt *o, char *buf, size_t size)
{
    if (o->name)
        snprintf(buf, size, "--%s", o->name);
    else
        snprintf(buf, size, "-%c", o->short_name);
    return buf;
}

size_t bl__opt_n_values(const struct bl__opt *o)
{
    if (o->arg == BL__ARG_NONE)
        return 0;
    if (o->arg != BL__ARG_VALUES || !o->meta)
        return 1;
    size_t n = 0;
    for (const char *p = o->meta; *p;) {
        p += strspn(p, " ");
        if (*p)
            n++;
        p += strcspn(p, " ");
    }
    return n < BL__MAX_VALUES ? n : BL__MAX_VALUES;
}

/* The closest long option of `cmd` to `name`, for "did you mean". */
static const char *closest_option(const struct bl__command *cmd, const char *name, size_t len)
{
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word - 1 ? len : sizeof word - 1), name);
    const char *names[256];
    size_t n = 0;
    for (size_t i = 0; i < cmd->n_opts && n < 256; i++)
        if (visible(&cmd->opts[i]) && cmd->opts[i].name)
            names[n++] = cmd->opts[i].name;
    return bl__closest(word, names, n);
}

/*
 * Google Benchmark's flags are read by a suite run by itself (gbflags.c),
 * not by the benchlab command: said so, with what to write instead where
 * the command takes the suite's options (benchlab run).
 */
static const char *const gbench_instead[][2] = {
    {"benchmark_filter", "--filter REGEX (on benchlab's names: Benchmark + Google Benchmark's)"},
    {"benchmark_repetitions", "--count N"},
    {"benchmark_min_time", "--time DURATION (Nx: --iterations N)"},
    {"benchmark_format", "--format gbench-json, gbench-csv or gbench-console"},
    {"benchmark_out", "--out FILE (with --format gbench-json for Google Benchmark's JSON)"},
    {"benchmark_time_unit", "--time-unit UNIT"},
    {"benchmark_perf_counters", "--counters"},
    {"benchmark_list_tests", "--list"},
};

static int gbench_flag(const struct bl__command *cmd, const char *arg, const char *name, size_t len,
                       char *err, size_t size)
{
    const char *instead = NULL;
    if (cmd == &bl__suite_command || cmd == &bl__run_command)
        for (size_t i = 0; i < sizeof gbench_instead / sizeof *gbench_instead && !instead; i++)
            if (strlen(gbench_instead[i][0]) == len &&
                strncmp(name, gbench_instead[i][0], len) == 0)
                instead = gbench_instead[i][1];
    return fail(err, size,
                "unknown option '%s': Google Benchmark's flags are read by a suite run by itself "
                "(./SUITE %s), not by benchlab %s; %s%s",
                /* the suite's own table sees them only under benchlab run:
                 * a suite run by itself took them first */
                arg, arg, strcmp(cmd->name, "suite") == 0 ? "run" : cmd->name,
                instead ? "here: " : "see --help for its options", instead ? instead : "");
}

static int unknown_option(const struct bl__command *cmd, const char *arg, const char *name,
                          size_t len, char *err, size_t size)
{
    if (!(cmd->style & BL__STYLE_GO) && len > 10 && strncmp(name, "benchmark_", 10) == 0)
        return gbench_flag(cmd, arg, name, len, err, size);
    const char *near = closest_option(cmd, name, len);
    const char *dashes = cmd->style & BL__STYLE_GO ? "-" : "--";
    if (cmd->style & BL__STYLE_GO) {
        if (near)
            return fail(err, size, "flag provided but not defined: -%.*s (did you mean -%s?)",
                        (int)len, name, near);
        return fail(err, size, "flag provided but not defined: -%.*s", (int)len, name);
    }
    if (near)
        return fail(err, size, "unknown option '%s' (did you mean %s%s?)", arg, dashes, near);
    return fail(err, size, "unknown option '%s' (see --help)", arg);
}

/* "a, b or c" into buf. */
static void list_choices(const char *const *c, char *buf, size_t size)
{
    size_t n = 0, used = 0;
    while (c[n])
        n++;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s",
                         i == 0       ? ""
                         : i + 1 == n ? " or "
                                      : ", ",
                         c[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static int is_choice(const char *const *c, const char *v, size_t len)
{
    for (size_t i = 0; c[i]; i++)
        if (strlen(c[i]) == len && strncmp(c[i], v, len) == 0)
            return 1;
    return 0;
}

/* The noun of an option's values in messages: its metavariable in lower
 * case ("FORMAT" -> "format"), else "value". */
static void noun_of(const struct bl__opt *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s", o->meta && *o->meta ? o->meta : "value");
    for (char *p = buf; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    if (strcmp(buf, "when") == 0) /* "the when is auto..." reads badly */
        snprintf(buf, size, "value");
}

static int bad_choice(const struct bl__opt *o, const char *v, size_t len, char *err, size_t size)
{
    char known[512], noun[32], word[128], label[64];
    bl__opt_label(o, label, sizeof label);
    list_choices(o->choices, known, sizeof known);
    noun_of(o, noun, sizeof noun);
    snprintf(word, sizeof word, "%.*s", (int)(len < 100 ? len : 100), v);
    size_t n = 0;
    while (o->choices[n])
        n++;
    const char *near = bl__closest(word, o->choices, n);
    char hint[160] = "";
    if (near)
        snprintf(hint, sizeof hint, "did you mean %s? ", near);
    /* a list names the bad item; a single value is quoted first */
    if (o->arg == BL__ARG_LIST)
        return fail(err, size, "%s: unknown %s '%s' (%sthe %s is %s)", label, noun, word, hint,
                    noun, known);
    return fail(err, size, "%s: '%s' is not a known %s (%sthe %s is %s)", label, word, noun, hint,
                noun, known);
}

/* Check `v` against the option's kind; fill hit->num. */
static int check_value(const struct bl__opt *o, const char *v, struct bl__hit *hit, char *err,
                       size_t size)
{
    char *end, label[64];
    bl__opt_label(o, label, sizeof label);
    switch (o->arg) {
    case BL__ARG_NONE:
    case BL__ARG_TEXT:
    case BL__ARG_FILE:
    case BL__ARG_DIR:
    case BL__ARG_VALUES:
        return 0;
    case BL__ARG_DURATION:
        hit->num = bl__parse_duration(v);
        if (!(hit->num > 0))
            return fail(err, size, "%s: '%s' is not a positive duration (try 500ms or 2s)", label,
                        v);
        return 0;
    case BL__ARG_COUNT:
    case BL__ARG_INT: {
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (end == v || *end || errno || (double)x < o->min || (double)x > o->max)
            return fail(err, size, "%s: '%s' is not a %s from %.0f to %.0f", label, v,
                        o->arg == BL__ARG_COUNT ? "count" : "number", o->min, o->max);
        hit->num = (double)x;
        return 0;
    }
    case BL__ARG_LEVEL:
        errno = 0;
        hit->num = strtod(v, &end);
        if (end == v || *end || errno || !(hit->num > 0 && hit->num < 1))
            return fail(err, size, "%s: '%s' is not a number between 0 and 1", label, v);
        return 0;
    case BL__ARG_CHOICE:
        if (!is_choice(o->choices, v, strlen(v)))
            return bad_choice(o, v, strlen(v), err, size);
        return 0;
    case BL__ARG_LIST:
        if (!*v) {
            char noun[32];
            noun_of(o, noun, sizeof noun);
            if (o->flags & BL__OPT_OPTIONAL)
                return fail(err, size, "%s=: no %s named (give a list, or %s alone for all)", label,
                            noun, label);
            return fail(err, size, "%s: no %s named", label, noun);
        }
        for (const char *p = v; *p;) {
            size_t n = strcspn(p, ",");
            if (!is_choice(o->choices, p, n))
                return bad_choice(o, p, n, err, size);
            p += n + (p[n] == ',');
        }
        return 0;
    }
    return 0;
}

static const struct bl__opt *find_long(const struct bl__command *cmd, const char *name, size_t len,
                                       int *ambiguous)
{
    const struct bl__opt *prefix = NULL;
    int n_prefix = 0;
    *ambiguous = 0;
    for (size_t i = 0; i < cmd->n_opts; i++) {
        const struct bl__opt *o = &cmd->opts[i];
        if (!o->name)
            continue;
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
        if (len && strncmp(o->name, name, len) == 0) {
            prefix = o;
            n_prefix++;
        }
    }
    if (!(cmd->style & BL__STYLE_ABBREV) || n_prefix == 0)
        return NULL;
    if (n_prefix > 1) {
        *ambiguous = 1;
        return NULL;
    }
    return prefix;
}

static const struct bl__opt *find_short(const struct bl__command *cmd, char c)
{
    for (size_t i = 0; i < cmd->n_opts; i++)
        if (cmd->opts[i].short_name == c)
            return &cmd->opts[i];
    return NULL;
}

static int add_hit(struct bl__args *a, const struct bl__opt *o, char *const *v, size_t n)
{
    if (a->n_hits == BL__MAX_HITS)
        return -E2BIG;
    struct bl__hit *h = &a->hits[a->n_hits++];
    memset(h, 0, sizeof *h);
    h->opt = o;
    for (size_t k = 0; k < n && k < BL__MAX_VALUES; k++)
        h->values[h->n_values++] = v[k];
    h->value = h->n_values ? h->values[0] : NULL;
    return 0;
}

/* BL__STYLE_ONCE: `o` was given before (and may not be again). */
static int given_before(const struct bl__command *cmd, const struct bl__args *a,
                        const struct bl__opt *o)
{
    if (!(cmd->style & BL__STYLE_ONCE) || (o->flags & BL__OPT_REPEAT))
        return 0;
    for (size_t k = 0; k < a->n_hits; k++)
        if (a->hits[k].opt == o)
            return 1;
    return 0;
}

/* Record option `o` with its n values `v` (checked; n is 0 for a switch or
 * an optional value not given); 0, -1 (err) or -ENOMEM. */
static int take_n(const struct bl__command *cmd, struct bl__args *a, const struct bl__opt *o,
                  char *const *v, size_t n, char *err, size_t size)
{
    if (o->id == BL__ID_HELP) {
        a->help = 1;
        return 0;
    }
    if (o->id == BL__ID_VERSION) {
        a->version = 1;
        return 0;
    }
    if (given_before(cmd, a, o)) {
        char label[64];
        return fail(err, size, "option %s given more than once",
                    bl__opt_label(o, label, sizeof label));
    }
    int rc = add_hit(a, o, v, n);
    if (rc == 0 && n)
        rc = check_value(o, v[0], &a->hits[a->n_hits - 1], err, size);
    return rc;
}

static int take(const struct bl__command *cmd, struct bl__args *a, const struct bl__opt *o,
                const char *v, char *err, size_t size)
{
    char *one = (char *)v;
    return take_n(cmd, a, o, &one, v != NULL, err, size);
}

/* An option of several values: the next n arguments after argv[*i]. */
static int take_values(const struct bl__command *cmd, int argc, char **argv, int *i,
                       struct bl__args *a, const struct bl__opt *o, char *err, size_t size)
{
    size_t n = bl__opt_n_values(o);
    char label[64];
    if ((size_t)(argc - 1 - *i) < n)
        return fail(err, size, "option %s needs %s", bl__opt_label(o, label, sizeof label),
                    o->meta);
    int at = *i + 1;
    *i += (int)n;
    return take_n(cmd, a, o, argv + at, n, err, size);
}

/* A long option at argv[*i]: `body` is after the dashes. */
static int parse_long(const struct bl__command *cmd, int argc, char **argv, int *i,
                      const char *body, struct bl__args *a, char *err, size_t size)
{
    const char *arg = argv[*i];
    const char *eq = strchr(body, '=');
    size_t len = eq ? (size_t)(eq - body) : strlen(body);
    int ambiguous;
    const struct bl__opt *o = find_long(cmd, body, len, &ambiguous);
    int go = cmd->style & BL__STYLE_GO;
    if (!o && !eq && !go && (len == 4 && strncmp(body, "help", 4) == 0)) {
        a->help = 1;
        return 0;
    }
    if (!o && go && (len == 1 || len == 4) &&
        (strncmp(body, "h", len) == 0 || strncmp(body, "help", len) == 0)) {
        a->help = 1;
        return 0;
    }
    if (ambiguous)
        return fail(err, size, "option '%.*s' is ambiguous (see --help)", (int)(len + 2), arg);
    if (!o)
        return unknown_option(cmd, arg, body, len, err, size);
    if (o->arg == BL__ARG_NONE) {
        if (eq)
            return fail(err, size, "option --%s takes no value (got '%s')", o->name, arg);
        return take(cmd, a, o, NULL, err, size);
    }
    if (o->arg == BL__ARG_VALUES) {
        if (eq)
            return fail(err, size, "option --%s takes %s as separate arguments (got '%s')", o->name,
                        o->meta, arg);
        return take_values(cmd, argc, argv, i, a, o, err, size);
    }
    if (eq)
        return take(cmd, a, o, eq + 1, err, size);
    if (o->flags & BL__OPT_OPTIONAL)
        return take(cmd, a, o, NULL, err, size);
    if (*i + 1 >= argc) {
        if (go)
            return fail(err, size, "flag needs an argument: -%s", o->name);
        return fail(err, size, "option --%s needs a value", o->name);
    }
    return take(cmd, a, o, argv[++*i], err, size);
}

/* A bundle of short options at argv[*i]: -ab, -o FILE, -oFILE, -r2. */
static int parse_shorts(const struct bl__command *cmd, int argc, char **argv, int *i,
                        struct bl__args *a, char *err, size_t size)
{
    const char *arg = argv[*i];
    for (const char *p = arg + 1; *p; p++) {
        const struct bl__opt *o = find_short(cmd, *p);
        if (!o && *p == 'h') {
            a->help = 1;
            return 0;
        }
        if (!o) {
            if (p == arg + 1)
                return unknown_option(cmd, arg, arg + 1, strlen(arg + 1), err, size);
            return fail(err, size, "unknown option '-%c' in '%s' (see --help)", *p, arg);
        }
        /* a switch, or an optional value not given with '=': the bundle goes on */
        if (o->arg == BL__ARG_NONE || ((o->flags & BL__OPT_OPTIONAL) && p[1] != '=')) {
            int rc = take(cmd, a, o, NULL, err, size);
            if (rc || a->help || a->version)
                return rc;
            continue;
        }
        if (o->arg == BL__ARG_VALUES) {
            if (p[1])
                return fail(err, size, "option -%c must end its bundle '%s': it takes %s", *p, arg,
                            o->meta);
            return take_values(cmd, argc, argv, i, a, o, err, size);
        }
        if (p[1])
            return take(cmd, a, o, p + 1 + (p[1] == '='), err, size);
        if (*i + 1 >= argc) {
            if (o->name)
                return fail(err, size, "option -%c (--%s) needs a value", *p, o->name);
            return fail(err, size, "option -%c needs a value", *p);
        }
        return take(cmd, a, o, argv[++*i], err, size);
    }
    return 0;
}

/* Positionals are marked in `is_pos` (argv's slots) while parsing. */
static int add_pos(struct bl__args *a, char *is_pos, int i)
{
    is_pos[i] = 1;
    a->n_pos++;
    return 0;
}

/* Move the positional slots to the end of argv, in order, as GNU getopt
 * does; the options' values point at strings, not slots, so they stay. */
static int permute(int argc, char **argv, const char *is_pos)
{
    char **tmp = malloc((size_t)argc * sizeof *tmp);
    if (!tmp)
        return -ENOMEM;
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 1; i < argc; i++)
            if (is_pos[i] == pass)
                tmp[n++] = argv[i];
    memcpy(argv + 1, tmp, (size_t)n * sizeof *tmp);
    free(tmp);
    return 0;
}

int bl__args_parse(const struct bl__command *cmd, int argc, char **argv, struct bl__args *a,
                   char *err, size_t size)
{
    memset(a, 0, sizeof *a);
    if (size)
        err[0] = '\0';
    char *is_pos = calloc((size_t)argc + 1, 1);
    if (!is_pos) {
        fail(err, size, "out of memory");
        return -ENOMEM;
    }
    int go = cmd->style & BL__STYLE_GO;
    int stop = go || (cmd->style & BL__STYLE_STOP);
    int i, rc = 0, only_pos = 0;
    for (i = 1; i < argc && rc == 0 && !a->help && !a->version; i++) {
        char *arg = argv[i];
        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            if (go && !only_pos)
                break; /* Go: the first non-flag ends the flags */
            rc = add_pos(a, is_pos, i);
            if (stop)
                only_pos = 1;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (go) {
            const char *body = arg + (arg[1] == '-' ? 2 : 1);
            if (body[0] == '\0' || body[0] == '-' || body[0] == '=')
                rc = fail(err, size, "bad flag syntax: %s", arg);
            else
                rc = parse_long(cmd, argc, argv, &i, body, a, err, size);
        } else if (arg[1] == '-') {
            rc = parse_long(cmd, argc, argv, &i, arg + 2, a, err, size);
        } else {
            /* -name is --name for suites (Go-style habits), when it names one */
            int ambiguous;
            size_t len = strcspn(arg + 1, "=");
            if ((cmd->style & BL__STYLE_DASH_LONG) && len > 1 &&
                (find_long(cmd, arg + 1, len, &ambiguous) ||
                 (len == 4 && strncmp(arg + 1, "help", 4) == 0)))
                rc = parse_long(cmd, argc, argv, &i, arg + 1, a, err, size);
            else
                rc = parse_shorts(cmd, argc, argv, &i, a, err, size);
        }
    }
    if (go)
        for (; i < argc && rc == 0 && !a->help; i++)
            rc = add_pos(a, is_pos, i);
    if (rc == 0)
        rc = permute(argc, argv, is_pos);
    free(is_pos);
    if (rc == -ENOMEM)
        fail(err, size, "out of memory");
    if (rc == -E2BIG)
        fail(err, size, "more than %d options", BL__MAX_HITS);
    a->pos = argv + argc - a->n_pos;
    return rc;
}

int bl__commit_check(const char *sha, char *err, size_t size)
{
    size_t n = strspn(sha, "0123456789abcdef");
    if (sha[n] || n < 4 || n > 64)
        return fail(err, size,
                    "--commit: '%s' is not a commit id (4 to 64 lowercase hex digits, as git "
                    "rev-parse prints)",
                    sha);
    return 0;
}

int bl__save_take(const struct bl__hit *hit, struct bl__save_args *s, char *err, size_t size)
{
    switch (hit->opt->id) {
    case BL__ID_SAVE:
        s->on = 1;
        return 1;
    case BL__ID_STORE:
        s->store = hit->value;
        s->given_store = 1;
        return 1;
    case BL__ID_RUN_ID:
        if (!*hit->value)
            return fail(err, size, "--run-id: give a name");
        s->run_uid = hit->value;
        s->given_run_id = 1;
        return 1;
    case BL__ID_TAG:
        s->tag = hit->value;
        s->given_tag = 1;
        return 1;
    case BL__ID_COMMIT:
        if (bl__commit_check(hit->value, err, size))
            return -1;
        s->commit = hit->value;
        s->given_commit = 1;
        return 1;
    case BL__ID_BRANCH:
        if (!*hit->value)
            return fail(err, size, "--branch: give a name");
        s->branch = hit->value;
        s->given_branch = 1;
        return 1;
    default:
        return 0;
    }
}
