/*
 * gbflags.c - Google Benchmark's command line (--benchmark_*) on a suite.
 *
 * bl_main calls bl__gbench_flags before its own parser: a suite built with
 * the Google Benchmark layer (include/benchlab-gbench) keeps answering the
 * flags its users and scripts pass, and benchlab's own options keep working
 * beside them. --benchmark_list_tests is answered here, from this process's
 * registry, with Google Benchmark's names; the other flags become benchlab
 * options (a filter on Google Benchmark names is applied here, as Google
 * Benchmark applies it, and what it selects becomes a --filter naming
 * those benchmarks). Flags that only change Google Benchmark's display are
 * accepted and have no effect; flags whose meaning benchlab cannot honour
 * are refused with a message naming them (docs/from-google-benchmark.md).
 */
#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/base.h"
#include "../bench/bench.h"
#include "benchlab/output.h"
#include "front.h"

/*
 * What bl__gbench_flags allocates (the rewritten argv and its strings)
 * lives as long as the program, as argv does; kept here, where it stays
 * reachable.
 */
static void **kept;
static size_t n_kept, cap_kept;

static void *keep(void *p)
{
    if (p && bl__grow((void **)&kept, &cap_kept, n_kept + 1, sizeof *kept) == 0)
        kept[n_kept++] = p;
    return p;
}

/* "--benchmark_out" once bl__gbench_flags made --out of it (messages about
 * the output then name the flag the user gave) */
static const char *out_option = "--out";

const char *bl__out_option(void)
{
    return out_option;
}

/* The name Google Benchmark prints: a raw name as written, else benchlab's. */
static const char *gb_name(const struct bl__instance *in)
{
    return in->def->raw_name ? in->def->name : in->name;
}

/*
 * The first backslash escape in the regex s that Google Benchmark's
 * std::regex (extended grammar) refuses, or 0. Outside a bracket
 * expression only . [ \ ( ) * + ? { | ^ $ may follow a backslash (not even
 * ] or }); inside one a backslash is an ordinary character. glibc's regcomp
 * would take the others, some as GNU operators (\w, \b) and the rest as the
 * bare letter, so that "\d" would silently select names with a "d".
 */
static char gb_bad_escape(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '\\') {
            if (!p[1])
                return 0; /* trailing backslash: regcomp's own message */
            if (!strchr(".[\\()*+?{|^$", p[1]))
                return p[1];
            p++;
        } else if (*p == '[') {
            /* [^]...], []...], and [:class:], [.coll.], [=equiv=] inside */
            p++;
            if (*p == '^')
                p++;
            if (*p == ']')
                p++;
            while (*p && *p != ']') {
                if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
                    const char *end = p + 2;
                    while (*end && !(end[0] == p[1] && end[1] == ']'))
                        end++;
                    if (!*end)
                        return 0; /* unterminated: regcomp says so */
                    p = end + 1;
                }
                p++;
            }
            if (!*p)
                return 0;
        }
    }
    return 0;
}

/*
 * Google Benchmark's filter as Google Benchmark applies it: the regex is
 * searched for in each GB name ("-RE": the names it is not found in; "" and
 * "all": every one). Compiles spec into *re, sets *negative; NULL spec:
 * every name. 0, or 2 after the message.
 */
static int gb_filter_compile(const char *prog, const char **spec, regex_t *re, int *negative)
{
    const char *s = *spec;
    *negative = s && s[0] == '-';
    if (*negative)
        s++;
    if (s && (!*s || strcmp(s, "all") == 0))
        s = NULL;
    *spec = s;
    if (!s)
        return 0;
    char esc = gb_bad_escape(s);
    if (esc) {
        fprintf(stderr,
                "%s: --benchmark_filter '%s': '\\%c' is not an escape in POSIX extended "
                "regular expressions, the filter's syntax (Google Benchmark refuses it too)%s\n",
                prog, s, esc,
                esc == 'd'   ? "; a digit is [0-9]"
                : esc == 's' ? "; a space is [[:space:]]"
                : esc == 'w' ? "; a word character is [[:alnum:]_]"
                             : "; an ordinary character needs no backslash");
        return 2;
    }
    int rc = regcomp(re, s, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char msg[200];
        regerror(rc, re, msg, sizeof msg);
        fprintf(stderr, "%s: --benchmark_filter '%s': %s\n", prog, s, msg);
        return 2;
    }
    return 0;
}

static int gb_selected(const regex_t *re, const char *spec, int negative,
                       const struct bl__instance *in)
{
    return !spec || (regexec(re, gb_name(in), 0, NULL, 0) == 0) != negative;
}

/* name with the characters special to a POSIX extended regex escaped */
static void put_escaped(struct bl__buf *b, const char *name)
{
    for (const char *p = name; *p; p++) {
        if (strchr("\\.[](){}*+?|^$", *p))
            bl__buf_puts(b, "\\");
        bl__buf_append(b, p, 1);
    }
}

/*
 * What --benchmark_filter selects, as a benchlab --filter: the selected
 * instances named by their full names, so that the run launches exactly
 * what --benchmark_list_tests lists (the GB regex cannot be rewritten into
 * one on benchlab's full names: "^" and "$" inside it, alternatives, and
 * the "Benchmark" prefix a pattern could match). The shorter of the
 * selected and the rest is named ("-^(...)$" for the rest). *filter is
 * NULL when every benchmark is selected. 0, or 2 after the message.
 */
static int select_filter(const char *prog, const char *spec, char **filter)
{
    const char *shown = spec;
    regex_t re;
    int negative;
    *filter = NULL;
    if (gb_filter_compile(prog, &spec, &re, &negative))
        return 2;
    size_t n, n_sel = 0;
    const struct bl__instance *in = bl__registry_instances(&n);
    for (size_t i = 0; i < n; i++)
        n_sel += (size_t)gb_selected(&re, spec, negative, &in[i]);
    int rc = 0;
    if (n_sel == 0 && n > 0) {
        fprintf(stderr,
                "%s: no benchmark matches --benchmark_filter '%s' (--benchmark_list_tests "
                "lists the names)\n",
                prog, shown);
        rc = 2;
    } else if (n_sel < n) {
        int name_rest = n - n_sel < n_sel;
        struct bl__buf b = {0};
        bl__buf_puts(&b, name_rest ? "-^(" : "^(");
        for (size_t i = 0, k = 0; i < n; i++) {
            if (gb_selected(&re, spec, negative, &in[i]) == name_rest)
                continue;
            if (k++)
                bl__buf_puts(&b, "|");
            put_escaped(&b, in[i].name);
        }
        bl__buf_puts(&b, ")$");
        if (!b.data) {
            fprintf(stderr, "%s: out of memory\n", prog);
            rc = 2;
        }
        *filter = b.data;
    }
    if (spec)
        regfree(&re);
    return rc;
}

int bl__list_flushed(const char *prog)
{
    int rc = bl_output_flush_stdout();
    if (rc == 0)
        return 0;
    fprintf(stderr, "%s: cannot write the list to stdout: %s\n", prog, bl_strerror(rc));
    return 2;
}

static int list_tests(const char *prog, const char *spec)
{
    regex_t re;
    int negative;
    if (gb_filter_compile(prog, &spec, &re, &negative))
        return 2;
    size_t n;
    const struct bl__instance *in = bl__registry_instances(&n);
    struct bl__buf safe = {0}; /* a name's control bytes as \xNN: one name, one line */
    for (size_t i = 0; i < n; i++)
        if (gb_selected(&re, spec, negative, &in[i]))
            printf("%s\n", bl__terminal_safe(&safe, gb_name(&in[i])));
    bl__buf_fini(&safe);
    if (spec)
        regfree(&re);
    return bl__list_flushed(prog);
}

static int is_true(const char *v)
{
    return !v || strcmp(v, "true") == 0 || strcmp(v, "1") == 0 || strcmp(v, "yes") == 0;
}

/* "--benchmark_NAME=VALUE" or "--benchmark_NAME": the name's length, *value. */
static int split(const char *arg, const char **value)
{
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    *value = eq ? eq + 1 : NULL;
    return (int)(eq ? (size_t)(eq - name) : strlen(name));
}

static int flag_is(const char *arg, int len, const char *name)
{
    return (size_t)len == strlen(name) && strncmp(arg + 2, name, (size_t)len) == 0;
}

/* --benchmark_format's and --benchmark_out_format's value as benchlab's
 * --format; NULL when it is none of Google Benchmark's. */
static const char *gb_format(const char *v)
{
    if (!v)
        return NULL;
    if (strcmp(v, "json") == 0)
        return "gbench-json";
    if (strcmp(v, "csv") == 0)
        return "gbench-csv";
    if (strcmp(v, "console") == 0)
        return "gbench-console";
    return NULL;
}

/* --benchmark_time_unit's value is one of Google Benchmark's units */
static int gb_unit(const char *v)
{
    return v && (strcmp(v, "ns") == 0 || strcmp(v, "us") == 0 || strcmp(v, "ms") == 0 ||
                 strcmp(v, "s") == 0);
}

/*
 * Google Benchmark's --benchmark_perf_counters list (libpfm names: CYCLES,
 * INSTRUCTIONS, BRANCHES, BRANCH-MISSES, CACHE-REFERENCES, CACHE-MISSES, in
 * any case, '_' for '-', with or without PERF_COUNT_HW_) as benchlab's
 * --counters list; the caller frees. NULL with *why for a name benchlab's
 * counters do not have (raw PMU events among them).
 */
static char *perf_counters(const char *list, char *why, size_t size)
{
    static const struct {
        const char *gb, *ours;
    } names[] = {
        {"cycles", "cycles"},
        {"cpu-cycles", "cycles"},
        {"instructions", "instructions"},
        {"branches", "branches"},
        {"branch-instructions", "branches"},
        {"branch-misses", "branch-misses"},
        {"cache-references", "cache-references"},
        {"cache-misses", "cache-misses"},
    };
    struct bl__buf out = {0};
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        char name[64];
        size_t k = 0;
        const char *q = p;
        if (n > 14 && strncasecmp(q, "PERF_COUNT_HW_", 14) == 0)
            q += 14;
        for (; q < p + n && k + 1 < sizeof name; q++)
            name[k++] = *q == '_' ? '-' : (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
        name[k] = '\0';
        const char *ours = NULL;
        for (size_t i = 0; i < sizeof names / sizeof *names && !ours; i++)
            if (strcmp(name, names[i].gb) == 0)
                ours = names[i].ours;
        if (!ours) {
            snprintf(why, size,
                     "'%.*s' is not one of the counters benchlab measures (CYCLES, "
                     "INSTRUCTIONS, BRANCHES, BRANCH-MISSES, CACHE-REFERENCES, CACHE-MISSES)",
                     (int)(n > 100 ? 100 : n), p);
            free(out.data);
            return NULL;
        }
        if (!out.data || !strstr(out.data, ours)) /* GB counts a repeated name once */
            bl__buf_printf(&out, "%s%s", out.data ? "," : "", ours);
        p += n;
        if (*p == ',')
            p++;
    }
    if (!out.data)
        snprintf(why, size, "no counter named in '%s'", list);
    return out.data;
}

/*
 * NULL when v is a whole number within the bounds of the suite's option
 * NAME (a count); else why not. Checked here rather than by that option,
 * so that the message names the Google Benchmark flag given (or its
 * BENCHMARK_ variable), not the benchlab option it becomes.
 */
static const char *bad_count(const char *v, const char *name)
{
    static char buf[120];
    size_t size = sizeof buf;
    const struct bl__opt *o = NULL;
    for (size_t i = 0; i < bl__suite_command.n_opts && !o; i++)
        if (bl__suite_command.opts[i].name && strcmp(bl__suite_command.opts[i].name, name) == 0)
            o = &bl__suite_command.opts[i];
    char *end;
    errno = 0;
    long long x = v ? strtoll(v, &end, 10) : 0;
    if (v && *v && end != v && !*end && !errno && o && (double)x >= o->min && (double)x <= o->max)
        return NULL;
    if (o)
        snprintf(buf, size, "'%.40s' is not a count from %.0f to %.0f", v ? v : "", o->min, o->max);
    else
        snprintf(buf, size, "'%.40s' is not a count", v ? v : "");
    return buf;
}

/*
 * --benchmark_min_time=V as benchlab's option: *opt "--iterations" and
 * *val N for Google Benchmark's Nx, else "--time" and V seconds. NULL, or
 * what is wrong with V.
 */
static const char *min_time(const char *v, const char **opt, const char **val)
{
    size_t vl = v ? strlen(v) : 0;
    struct bl__buf t = {0};
    if (!v || !*v)
        return "needs a value such as 0.5s";
    if (v[vl - 1] == 'x') {
        /* Google Benchmark's iteration form: exactly N iterations */
        char *end;
        errno = 0;
        unsigned long long iters = strtoull(v, &end, 10);
        if (v[0] < '0' || v[0] > '9' || end != v + vl - 1 || errno || iters < 1 ||
            iters > 1000000000000ull)
            return "the Nx form needs a whole number of iterations from 1 to 10^12, such as 100x";
        bl__buf_printf(&t, "%llu", iters);
        *opt = "--iterations";
    } else {
        bl__buf_printf(&t, "%s%s", v, v[vl - 1] == 's' ? "" : "s");
        if (!(bl_parse_duration(t.data ? t.data : "") > 0)) {
            bl__buf_fini(&t);
            return "is not a positive number of seconds";
        }
        *opt = "--time";
    }
    *val = keep(t.data);
    return NULL;
}

/*
 * --benchmark_dry_run (Google Benchmark 1.9.1; the last one on the line
 * wins): each benchmark once, one iteration, to see that it runs (its
 * numbers mean nothing): one launch of one repetition, in place of any
 * --benchmark_min_time or --benchmark_repetitions; a benchmark's own
 * Iterations(), Repetitions() or MinTime() still apply
 * (docs/from-google-benchmark.md).
 */
static int dry_run_asked(int n, char *const *in)
{
    int dry = 0;
    for (int i = 1; i < n; i++) {
        const char *a = in[i] + (strncmp(in[i], "--", 2) == 0 ? 2 : 1);
        if (in[i][0] == '-' && strncmp(a, "benchmark_dry_run", 17) == 0 &&
            (a[17] == '\0' || a[17] == '='))
            dry = is_true(a[17] ? a + 18 : NULL);
    }
    return dry;
}

/*
 * benchlab's own --out or --format beside --benchmark_out or
 * --benchmark_format (out, format: given): one of the two would be
 * dropped without a word. 1 after the message, else 0.
 */
static int named_twice(const char *prog, int n, char **in, bool out, bool format)
{
    for (int i = 1; i < n; i++) {
        const char *twice = NULL;
        if (out && (strcmp(in[i], "--out") == 0 || strncmp(in[i], "--out=", 6) == 0))
            twice = "--benchmark_out and --out both name the output";
        else if ((format || out) &&
                 (strcmp(in[i], "--format") == 0 || strncmp(in[i], "--format=", 9) == 0))
            twice = format ? "--benchmark_format and --format both name the format"
                           : "--benchmark_out and --format both name the output's format";
        if (twice) {
            fprintf(stderr, "%s: %s: give one\n", prog, twice);
            return 1;
        }
    }
    return 0;
}

int bl__gbench_flags(int *argc, char ***argv, int *status)
{
    int n = *argc;
    char **in = *argv;
    int any = 0;
    for (int i = 1; i < n; i++)
        any |= strncmp(in[i], "--benchmark_", 12) == 0 || strncmp(in[i], "-benchmark_", 11) == 0;
    if (!any)
        return 0;
    const char *prog = n > 0 ? in[0] : "suite";
    /* room for two per argument, four for --benchmark_out (--out F --format G)
     * and for --benchmark_dry_run (--iterations 1 --count 1), the NULL */
    char **out = keep(calloc((size_t)n * 2 + 5, sizeof *out));
    if (!out) {
        fprintf(stderr, "%s: out of memory\n", prog);
        *status = 2;
        return 1;
    }
    int m = 0, list = 0, dry_run = dry_run_asked(n, in);
    const char *filter = NULL, *format = NULL, *out_path = NULL, *out_format = NULL;
    out[m++] = in[0];
    for (int i = 1; i < n; i++) {
        const char *a = in[i], *v;
        if (strncmp(a, "-benchmark_", 11) == 0) {
            /* one dash, as Google Benchmark also accepts: the same flag */
            struct bl__buf t = {0};
            bl__buf_printf(&t, "-%s", in[i]);
            if (t.data)
                a = keep(t.data);
        }
        if (strncmp(a, "--benchmark_", 12) != 0) {
            out[m++] = in[i];
            continue;
        }
        int len = split(a, &v);
        const char *why = NULL;
        if (flag_is(a, len, "benchmark_list_tests")) {
            list = is_true(v);
        } else if (flag_is(a, len, "benchmark_filter")) {
            filter = v ? v : "";
        } else if (flag_is(a, len, "benchmark_min_time")) {
            /* checked; under a dry run, its plan is the dry run's */
            const char *opt = NULL, *val = NULL;
            why = min_time(v, &opt, &val);
            if (!why && !dry_run) {
                out[m++] = (char *)opt;
                out[m++] = (char *)val;
            }
        } else if (flag_is(a, len, "benchmark_dry_run")) {
            /* read before the loop (dry_run_asked) */
        } else if (flag_is(a, len, "benchmark_repetitions")) {
            if ((why = bad_count(v, "count")) == NULL && !dry_run) {
                out[m++] = (char *)"--count";
                out[m++] = (char *)v;
            }
        } else if (flag_is(a, len, "benchmark_format")) {
            format = gb_format(v);
            if (!format)
                why = "is console, json or csv";
        } else if (flag_is(a, len, "benchmark_out_format")) {
            out_format = gb_format(v);
            if (!out_format)
                why = "is json, console or csv";
        } else if (flag_is(a, len, "benchmark_out")) {
            if (!v || !*v)
                why = "needs a file name";
            out_path = v;
        } else if (flag_is(a, len, "benchmark_perf_counters")) {
            char msg[300];
            char *clist = v && *v ? perf_counters(v, msg, sizeof msg) : NULL;
            if (!v || !*v) {
                why = "needs a list such as CYCLES,INSTRUCTIONS";
            } else if (!clist) {
                fprintf(stderr, "%s: --benchmark_perf_counters: %s\n", prog, msg);
                *status = 2;
                return 1;
            } else {
                /* --counters takes its value only as --counters=LIST */
                struct bl__buf t = {0};
                bl__buf_printf(&t, "--counters=%s", clist);
                free(clist);
                out[m++] = keep(t.data);
            }
        } else if (flag_is(a, len, "benchmark_time_unit")) {
            if (!gb_unit(v)) /* the unit where a benchmark sets none (Unit()) */
                why = "is ns, us, ms or s";
            out[m++] = (char *)"--time-unit";
            out[m++] = (char *)(v ? v : "");
        } else if (flag_is(a, len, "benchmark_counters_tabular") ||
                   flag_is(a, len, "benchmark_color") ||
                   flag_is(a, len, "benchmark_display_aggregates_only") ||
                   flag_is(a, len, "benchmark_report_aggregates_only") ||
                   flag_is(a, len, "benchmark_enable_random_interleaving") ||
                   flag_is(a, len, "benchmark_context") ||
                   flag_is(a, len, "benchmark_min_warmup_time")) {
            /* display only, or what benchlab always does (interleaved
             * launches, its own warmup): accepted, no effect */
        } else {
            why = "is not a Google Benchmark flag this layer knows";
        }
        if (why) {
            fprintf(stderr, "%s: %.*s: %s\n", prog, len + 2, a, why);
            *status = 2;
            return 1;
        }
    }
    if (list) {
        *status = list_tests(prog, filter);
        return 1;
    }
    if (named_twice(prog, n, in, out_path != NULL, format != NULL)) {
        *status = 2;
        return 1;
    }
    if (filter) {
        char *f;
        if ((*status = select_filter(prog, filter, &f)) != 0)
            return 1;
        if (f) {
            out[m++] = (char *)"--filter";
            out[m++] = keep(f);
        }
    }
    if (dry_run) {
        out[m++] = (char *)"--iterations";
        out[m++] = (char *)"1";
        out[m++] = (char *)"--count";
        out[m++] = (char *)"1";
    }
    /* --benchmark_out=FILE writes Google Benchmark's JSON to FILE (its
     * default --benchmark_out_format), or its CSV or console table; stdout
     * then has nothing */
    if (out_path) {
        out_option = "--benchmark_out";
        out[m++] = (char *)"--out";
        out[m++] = (char *)out_path;
        format = out_format ? out_format : "gbench-json";
    }
    if (format) {
        out[m++] = (char *)"--format";
        out[m++] = (char *)format;
    }
    out[m] = NULL;
    *argc = m;
    *argv = out;
    return 0;
}
