/*
 * cmd_compare.c - `benchlab compare [flags] [label=]FILE...`: benchstat v2
 * over the library's compare engine (include/benchlab/compare.h).
 *
 * Flags follow Go's flag package, as benchstat's do: -flag and --flag,
 * "-flag value" or "-flag=value", parsing stops at the first argument that
 * is not a flag (or after "--"). Usage, flag errors, fatal errors and
 * every byte on stdout are benchstat's; help and errors speak as benchlab
 * compare (the flags are the table's in src/lib/front/options.c, with
 * "did you mean" for a mistyped one), and benchstat exits 0 after a fatal
 * error where we exit 2, so that a CI job notices unreadable inputs. Beyond benchstat: -format
 * markdown and -format json, and the gate --fail-on-regression[=PCT] with
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
#include "front.h"

/* Go's flag package prints the usage after a flag error; ours is the
 * table's (src/lib/front/options.c). */
static void usage(FILE *f)
{
    bl__help_write(f, bl__command_find("compare"), "benchlab compare");
}

/* Go's strconv.ParseFloat syntax, via the library's reader. */
#include "benchlab/format.h"

static int parse_float_flag(const char *name, const char *v, double *out)
{
    int rc = bl_gobench_parse_float(v, strlen(v), out);
    if (rc) {
        fprintf(stderr, "invalid value \"%s\" for flag -%s: %s\n", v, name,
                rc == -ERANGE ? "value out of range" : "parse error");
        usage(stderr);
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
    struct bl__args args;
    char perr[512];
    if (bl__args_parse(bl__command_find("compare"), argc, argv, &args, perr, sizeof perr)) {
        fprintf(stderr, "%s\n", perr);
        usage(stderr);
        return 2;
    }
    if (args.help) {
        usage(stdout);
        return 0;
    }
    int bad = 0;
    for (size_t k = 0; k < args.n_hits && !bad; k++) {
        const struct bl__hit *h = &args.hits[k];
        const char *value = h->value;
        switch ((enum bl__optid)h->opt->id) {
        case BL__ID_NO_PLOTS:
            plots = 0;
            break;
        case BL__ID_FAIL_ON_REGRESSION:
            gate_pct = 0;
            bad = value && parse_float_flag(h->opt->name, value, &gate_pct);
            break;
        case BL__ID_TABLE:
            o.table = value;
            break;
        case BL__ID_ROW:
            o.row = value;
            break;
        case BL__ID_COL:
            o.col = value;
            break;
        case BL__ID_IGNORE:
            o.ignore = value;
            break;
        case BL__ID_FILTER:
            o.filter = value;
            break;
        case BL__ID_ALPHA:
            bad = parse_float_flag(h->opt->name, value, &o.alpha);
            break;
        case BL__ID_CONFIDENCE:
            bad = parse_float_flag(h->opt->name, value, &o.confidence);
            break;
        case BL__ID_FORMAT:
            format = value;
            break;
        case BL__ID_CORRECTION:
            corr = strcmp(value, "bh") == 0     ? BL_CORRECTION_BH
                   : strcmp(value, "none") == 0 ? BL_CORRECTION_NONE
                                                : BL_CORRECTION_HOLM;
            break;
        case BL__ID_STORE:
            store = value;
            break;
        default:
            break;
        }
    }
    size_t n_pos = args.n_pos; /* Go style: the positionals are argv's tail */
    if (bad)
        return 2;
    if (n_pos == 0) {
        usage(stderr);
        return 2;
    }
    int i = argc - (int)n_pos;
    char err[2048] = "";
    bl_compare *cmp = NULL;
    bl_diags skipped = {0};
    o.diags = &skipped;
    int rc = bl_compare_create(&o, &cmp, err, sizeof err);
    if (rc) {
        fprintf(stderr, "benchlab compare: %s\n", rc == BL_EUSAGE ? err : bl_strerror(rc));
        return 2;
    }
    int status = 0;
    if (o.alpha < 0 || o.alpha > 1 || isnan(o.alpha)) {
        fprintf(stderr, "benchlab compare: -alpha must be in range [0, 1]\n");
        status = 2;
    } else if (o.confidence < 0 || o.confidence > 1 || isnan(o.confidence)) {
        fprintf(stderr, "benchlab compare: -confidence must be in range [0, 1]\n");
        status = 2;
    } else if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "markdown") &&
               strcmp(format, "json")) {
        fprintf(stderr, "benchlab compare: -format must be text, csv, markdown or json\n");
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
    int skip_status = cli_print_skipped("benchlab compare", &skipped);
    bl_diags_fini(&skipped);
    if (rc) {
        fflush(stdout);
        fprintf(stderr, "benchlab compare: %s\n", err[0] ? err : bl_strerror(rc));
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
        fprintf(stderr, "benchlab compare: %s\n", bl_strerror(rc));
        bl_compare_destroy(cmp);
        return 2;
    }
    bl_compare_write_notes(cmp, stderr); /* a note that cannot be written is no failure */
    if (gate_pct >= 0) {
        int n = bl_compare_gate(cmp, gate_pct, corr, stderr);
        if (n > 0)
            status = 1;
    }
    bl_compare_destroy(cmp);
    return status ? status : skip_status;
}
