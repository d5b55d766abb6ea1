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

/* What the flags ask for, beyond the engine's options. */
struct flags {
    bl_compare_options o;
    const char *format; /* text, csv, markdown or json */
    double gate_pct;    /* --fail-on-regression's threshold; < 0: no gate */
    int plots;          /* on a terminal; -no-plots or BENCHLAB_NO_PLOTS=1: none */
    enum bl_correction corr;
    const char *store;
};

/* Set f from one flag the table took; 0, or 2 after the message. */
static int take_flag(struct flags *f, const struct bl__hit *h)
{
    const char *value = h->value;
    switch ((enum bl__optid)h->opt->id) {
    case BL__ID_NO_PLOTS:
        f->plots = 0;
        break;
    case BL__ID_FAIL_ON_REGRESSION:
        f->gate_pct = 0;
        return value ? parse_float_flag(h->opt->name, value, &f->gate_pct) : 0;
    case BL__ID_TABLE:
        f->o.table = value;
        break;
    case BL__ID_ROW:
        f->o.row = value;
        break;
    case BL__ID_COL:
        f->o.col = value;
        break;
    case BL__ID_IGNORE:
        f->o.ignore = value;
        break;
    case BL__ID_FILTER:
        f->o.filter = value;
        break;
    case BL__ID_ALPHA:
        return parse_float_flag(h->opt->name, value, &f->o.alpha);
    case BL__ID_CONFIDENCE:
        return parse_float_flag(h->opt->name, value, &f->o.confidence);
    case BL__ID_FORMAT:
        f->format = value;
        break;
    case BL__ID_CORRECTION:
        f->corr = strcmp(value, "bh") == 0     ? BL_CORRECTION_BH
                  : strcmp(value, "none") == 0 ? BL_CORRECTION_NONE
                                               : BL_CORRECTION_HOLM;
        break;
    case BL__ID_STORE:
        f->store = value;
        break;
    default:
        break;
    }
    return 0;
}

/* Parse argv into f; *n_inputs: the inputs, argv's tail (Go style). 0,
 * -1 after the help, or 2 after the message and usage. */
static int parse_flags(int argc, char **argv, struct flags *f, size_t *n_inputs)
{
    bl_compare_options_init(&f->o);
    f->format = "text";
    f->gate_pct = -1;
    f->plots = 1;
    f->corr = BL_CORRECTION_HOLM;
    f->store = NULL;
    struct bl__args args;
    char perr[512];
    if (bl__args_parse(bl__command_find("compare"), argc, argv, &args, perr, sizeof perr)) {
        fprintf(stderr, "%s\n", perr);
        usage(stderr);
        return 2;
    }
    if (args.help) {
        usage(stdout);
        return -1;
    }
    for (size_t k = 0; k < args.n_hits; k++)
        if (take_flag(f, &args.hits[k]))
            return 2;
    *n_inputs = args.n_pos;
    if (args.n_pos == 0) {
        usage(stderr);
        return 2;
    }
    return 0;
}

/* The values benchstat checks after creating its comparison: 0, or 2
 * after the message. */
static int check_flags(const struct flags *f)
{
    const char *why = NULL;
    if (f->o.alpha < 0 || f->o.alpha > 1 || isnan(f->o.alpha))
        why = "-alpha must be in range [0, 1]";
    else if (f->o.confidence < 0 || f->o.confidence > 1 || isnan(f->o.confidence))
        why = "-confidence must be in range [0, 1]";
    else if (strcmp(f->format, "text") && strcmp(f->format, "csv") &&
             strcmp(f->format, "markdown") && strcmp(f->format, "json"))
        why = "-format must be text, csv, markdown or json";
    if (!why)
        return 0;
    fprintf(stderr, "benchlab compare: %s\n", why);
    return 2;
}

/* Read the n inputs (files, stored runs) into cmp and say what was
 * skipped: 0, CLI_SKIPPED (some records skipped), or 2 after the message. */
static int read_inputs(bl_compare *cmp, char **argv, size_t n, const char *store, bl_diags *skipped)
{
    /* stored runs (@latest, base=@HEAD~1) become inputs like files */
    char **inputs = NULL;
    int *fds = NULL;
    size_t n_fds = 0;
    if (cli_compare_refs(argv, n, store, &inputs, &fds, &n_fds)) {
        free_inputs(inputs, n, fds, n_fds);
        return 2;
    }
    char err[2048] = "";
    int rc = bl_compare_read_inputs(cmp, inputs, n, err, sizeof err);
    free_inputs(inputs, n, fds, n_fds);
    int skip_status = cli_print_skipped("benchlab compare", skipped);
    if (rc) {
        fflush(stdout);
        fprintf(stderr, "benchlab compare: %s\n", err[0] ? err : bl_strerror(rc));
        return 2;
    }
    return skip_status;
}

/* The tables on stdout in f's format: 0, or an error code. */
static int write_tables(bl_compare *cmp, const struct flags *f)
{
    int rc;
    if (strcmp(f->format, "csv") == 0)
        rc = bl_compare_write_csv(cmp, stdout, stderr);
    else if (strcmp(f->format, "markdown") == 0)
        rc = bl_compare_write_markdown(cmp, stdout);
    else if (strcmp(f->format, "json") == 0)
        rc = bl_compare_write_json(cmp, stdout);
    else if (f->plots && bl_terminal_plots(1))
        rc = bl_compare_write_text_plots(cmp, stdout);
    else
        rc = bl_compare_write_text(cmp, stdout);
    if (fflush(stdout) && !rc)
        rc = -errno;
    return rc;
}

/* The job summary of a gate: the tables in Markdown. */
static int write_summary(FILE *f, const void *cmp)
{
    return bl_compare_write_markdown((bl_compare *)cmp, f);
}

int cmd_compare(int argc, char **argv)
{
    struct flags f;
    size_t n_inputs = 0;
    int status = parse_flags(argc, argv, &f, &n_inputs);
    if (status)
        return status == -1 ? 0 : status;
    char err[2048] = "";
    bl_compare *cmp = NULL;
    bl_diags skipped = {0};
    f.o.diags = &skipped;
    int rc = bl_compare_create(&f.o, &cmp, err, sizeof err);
    if (rc) {
        fprintf(stderr, "benchlab compare: %s\n", rc == BL_EUSAGE ? err : bl_strerror(rc));
        return 2;
    }
    status = check_flags(&f);
    if (!status) {
        static char outbuf[1 << 16];
        setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
        status = read_inputs(cmp, argv + (argc - (int)n_inputs), n_inputs, f.store, &skipped);
    }
    bl_diags_fini(&skipped);
    if (status == 2) {
        bl_compare_destroy(cmp);
        return 2;
    }
    rc = bl_compare_finish(cmp);
    if (!rc)
        rc = write_tables(cmp, &f);
    if (rc) {
        fprintf(stderr, "benchlab compare: %s\n", bl_strerror(rc));
        bl_compare_destroy(cmp);
        return 2;
    }
    bl_compare_write_notes(cmp, stderr); /* a note that cannot be written is no failure */
    if (f.gate_pct >= 0) {
        if (bl_compare_gate_github(cmp, f.gate_pct, f.corr, stderr,
                                   bl_github_actions() ? stderr : NULL) > 0)
            status = 1;
        cli_github_summary("compare", write_summary, cmp);
    }
    bl_compare_destroy(cmp);
    return status;
}
