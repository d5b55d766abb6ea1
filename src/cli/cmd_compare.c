/*
 * cmd_compare.c - `benchlab compare [flags] [label=]FILE...`: benchstat v2
 * over the library's compare engine (include/benchlab/compare.h).
 *
 * Flags follow Go's flag package, as benchstat's do: -flag and --flag,
 * "-flag value" or "-flag=value", parsing stops at the first argument that
 * is not a flag (or after "--"). Usage, flag errors, fatal errors and
 * every output byte are benchstat's; the one deliberate difference is the
 * exit status: benchstat exits 0 after a fatal error, we exit 2, so that
 * a CI job notices unreadable inputs. Beyond benchstat: -format markdown
 * and -format json, and the gate --fail-on-regression[=PCT] with
 * --correction=holm|bh|none (exit 1 when it trips). See docs/compare.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/compare.h"
#include "cli.h"

static const char usage_text[] =
    "Usage: benchstat [flags] inputs...\n"
    "\n"
    "benchstat computes statistical summaries and A/B comparisons of Go\n"
    "benchmarks. It shows benchmark medians in a table with a row for each\n"
    "benchmark and a column for each input file. If there is more than one\n"
    "input file, it also shows A/B comparisons between the files. If a\n"
    "difference is likely to be noise, it shows \"~\".\n"
    "\n"
    "For details, see https://pkg.go.dev/golang.org/x/perf/cmd/benchstat.\n"
    "  -alpha \xce\xb1\n"
    "    \tconsider change significant if p < \xce\xb1 (default 0.05)\n"
    "  -col projection\n"
    "    \tsplit results into columns by distinct values of projection (default \".file\")\n"
    "  -confidence level\n"
    "    \tconfidence level for ranges (default 0.95)\n"
    "  -filter query\n"
    "    \tuse only benchmarks matching benchfilter query (default \"*\")\n"
    "  -format format\n"
    "    \tprint results in format:\n"
    "    \t  text - plain text\n"
    "    \t  csv  - comma-separated values (warnings will be written to stderr)\n"
    "    \t (default \"text\")\n"
    "  -ignore keys\n"
    "    \tignore variations in keys\n"
    "  -row projection\n"
    "    \tsplit results into rows by distinct values of projection (default \".fullname\")\n"
    "  -table projection\n"
    "    \tsplit results into tables by distinct values of projection (default \".config\")\n";

/* Go's strconv.ParseFloat syntax, via the library's reader. */
#include "benchlab/format.h"

static int parse_float_flag(const char *name, const char *v, double *out)
{
    int rc = bl_gobench_parse_float(v, strlen(v), out);
    if (rc) {
        fprintf(stderr, "invalid value \"%s\" for flag -%s: %s\n", v, name,
                rc == -ERANGE ? "value out of range" : "parse error");
        fputs(usage_text, stderr);
        return 2;
    }
    return 0;
}

static void free_inputs(char **inputs, size_t n, int *fds, size_t n_fds)
{
    for (size_t k = 0; inputs && k < n; k++)
        free(inputs[k]);
    free(inputs);
    for (size_t k = 0; k < n_fds; k++)
        close(fds[k]);
    free(fds);
}

int cmd_compare(int argc, char **argv)
{
    bl_compare_options o;
    bl_compare_options_init(&o);
    const char *format = "text";
    double gate_pct = -1;
    int plots = 1; /* on a terminal; -no-plots or BENCHLAB_NO_PLOTS=1: none */
    enum bl_correction corr = BL_CORRECTION_HOLM;
    const char *store = NULL;
    int i;
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strlen(s) < 2 || s[0] != '-')
            break;
        int minus = 1;
        if (s[1] == '-') {
            minus = 2;
            if (s[2] == '\0') {
                i++;
                break;
            }
        }
        const char *name = s + minus;
        if (name[0] == '\0' || name[0] == '-' || name[0] == '=') {
            fprintf(stderr, "bad flag syntax: %s\n", s);
            fputs(usage_text, stderr);
            return 2;
        }
        char nbuf[256];
        const char *eq = strchr(name, '=');
        const char *value = NULL;
        if (eq) {
            snprintf(nbuf, sizeof nbuf, "%.*s", (int)(eq - name), name);
            value = eq + 1;
        } else {
            snprintf(nbuf, sizeof nbuf, "%s", name);
        }
        if (strcmp(nbuf, "no-plots") == 0 && !value) {
            plots = 0;
            continue;
        }
        if (strcmp(nbuf, "fail-on-regression") == 0) {
            gate_pct = 0;
            if (value && parse_float_flag(nbuf, value, &gate_pct))
                return 2;
            continue;
        }
        static const char *const known[] = {"table", "row",        "col",    "ignore",     "filter",
                                            "alpha", "confidence", "format", "correction", "store"};
        int k;
        for (k = 0; k < (int)(sizeof known / sizeof *known); k++)
            if (strcmp(nbuf, known[k]) == 0)
                break;
        if (k == (int)(sizeof known / sizeof *known)) {
            if (strcmp(nbuf, "help") == 0 || strcmp(nbuf, "h") == 0) {
                fputs(usage_text, stderr);
                return 0;
            }
            fprintf(stderr, "flag provided but not defined: -%s\n", nbuf);
            fputs(usage_text, stderr);
            return 2;
        }
        if (!value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "flag needs an argument: -%s\n", nbuf);
                fputs(usage_text, stderr);
                return 2;
            }
            value = argv[++i];
        }
        switch (k) {
        case 0:
            o.table = value;
            break;
        case 1:
            o.row = value;
            break;
        case 2:
            o.col = value;
            break;
        case 3:
            o.ignore = value;
            break;
        case 4:
            o.filter = value;
            break;
        case 5:
            if (parse_float_flag(nbuf, value, &o.alpha))
                return 2;
            break;
        case 6:
            if (parse_float_flag(nbuf, value, &o.confidence))
                return 2;
            break;
        case 7:
            format = value;
            break;
        case 8:
            if (strcmp(value, "holm") == 0)
                corr = BL_CORRECTION_HOLM;
            else if (strcmp(value, "bh") == 0)
                corr = BL_CORRECTION_BH;
            else if (strcmp(value, "none") == 0)
                corr = BL_CORRECTION_NONE;
            else
                return cli_error("--correction must be holm, bh or none");
            break;
        case 9:
            store = value;
            break;
        }
    }
    if (i >= argc) {
        fputs(usage_text, stderr);
        return 2;
    }
    char err[2048] = "";
    bl_compare *cmp = NULL;
    o.diag = stderr;
    int rc = bl_compare_create(&o, &cmp, err, sizeof err);
    if (rc) {
        fprintf(stderr, "benchstat: %s\n", rc == BL_EUSAGE ? err : bl_strerror(rc));
        return 2;
    }
    int status = 0;
    if (o.alpha < 0 || o.alpha > 1 || isnan(o.alpha)) {
        fprintf(stderr, "benchstat: -alpha must be in range [0, 1]\n");
        status = 2;
    } else if (o.confidence < 0 || o.confidence > 1 || isnan(o.confidence)) {
        fprintf(stderr, "benchstat: -confidence must be in range [0, 1]\n");
        status = 2;
    } else if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "markdown") &&
               strcmp(format, "json")) {
        fprintf(stderr, "benchstat: -format must be text or csv\n");
        status = 2;
    }
    if (status) {
        bl_compare_destroy(cmp);
        return status;
    }
    /* stored runs (@latest, base=@HEAD~1) become inputs like files */
    char **inputs = NULL;
    int *fds = NULL;
    size_t n_fds = 0;
    if (cli_compare_refs(argv + i, (size_t)(argc - i), store, &inputs, &fds, &n_fds)) {
        free_inputs(inputs, (size_t)(argc - i), fds, n_fds);
        bl_compare_destroy(cmp);
        return 2;
    }
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    rc = bl_compare_read_inputs(cmp, inputs, (size_t)(argc - i), err, sizeof err);
    free_inputs(inputs, (size_t)(argc - i), fds, n_fds);
    if (rc) {
        fflush(stdout);
        fprintf(stderr, "benchstat: %s\n", err[0] ? err : bl_strerror(rc));
        bl_compare_destroy(cmp);
        return 2;
    }
    rc = bl_compare_finish(cmp);
    if (!rc) {
        if (strcmp(format, "csv") == 0)
            rc = bl_compare_write_csv(cmp, stdout, stderr);
        else if (strcmp(format, "markdown") == 0)
            rc = bl_compare_write_markdown(cmp, stdout);
        else if (strcmp(format, "json") == 0)
            rc = bl_compare_write_json(cmp, stdout);
        else if (plots && bl_terminal_plots(1))
            rc = bl_compare_write_text_plots(cmp, stdout);
        else
            rc = bl_compare_write_text(cmp, stdout);
    }
    if (fflush(stdout) && !rc)
        rc = -errno;
    if (rc) {
        fprintf(stderr, "benchstat: %s\n", bl_strerror(rc));
        bl_compare_destroy(cmp);
        return 2;
    }
    if (gate_pct >= 0) {
        int n = bl_compare_gate(cmp, gate_pct, corr, stderr);
        if (n > 0)
            status = 1;
    }
    bl_compare_destroy(cmp);
    return status;
}
