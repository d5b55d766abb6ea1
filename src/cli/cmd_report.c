/*
 * cmd_report.c - `benchlab report [options] [label=]INPUT... [-o FILE]`:
 * results files read back (bl_results_read_file) and written as one
 * self-contained HTML report (bl_report_write). The first input is the
 * baseline unless --baseline names another. The file is written whole or
 * not at all (a temporary file renamed at the end). See docs/report.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchlab/format.h"
#include "benchlab/report.h"
#include "cli.h"

static const char usage[] =
    "usage: benchlab report [options] [label=]INPUT... [-o FILE]\n"
    "\n"
    "Writes one self-contained HTML file (no network, no external files) with,\n"
    "per benchmark, the distribution of the batches, the pilot's scaling curve,\n"
    "the batches over time, the comparison with the baseline and the history\n"
    "across the inputs, and an overview table sortable by change.\n"
    "\n"
    "INPUT is a results file: benchlab JSON (benchlab run --out x.json), Google\n"
    "Benchmark JSON or the Go benchmark format; '-' is stdin. label=INPUT names\n"
    "it in the report (default: the file name).\n"
    "\n"
    "  -o, --out FILE      write the report to FILE (default report.html; '-': stdout)\n"
    "  --baseline WHICH    the input the others are compared with: its label or its\n"
    "                      position from 1 (default: the first)\n"
    "  --title TEXT        the report's title (default \"benchlab report\")\n"
    "  --alpha A           significance of a change, after Holm's correction (0.05)\n"
    "  --confidence C      level of every interval (0.95)\n";

/* "--name value", "--name=value", "-o value"; sets *value and advances *i. */
static int flag(int argc, char **argv, int *i, const char *name, const char *alias,
                const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (alias && strcmp(a, alias) == 0) {
        if (*i + 1 >= argc)
            return -1;
        *value = argv[++*i];
        return 1;
    }
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, n) != 0)
        return 0;
    if (a[2 + n] == '=') {
        *value = a + 3 + n;
        return 1;
    }
    if (a[2 + n] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

static int parse_level(const char *name, const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x > 0 && x < 1))
        return cli_error("report: --%s: '%s' is not a number between 0 and 1", name, v);
    *out = x;
    return 0;
}

/* "label=path" when path names no file as a whole and the label has no '/'. */
static void split_label(const char *arg, const char **label, const char **path)
{
    const char *eq = strchr(arg, '=');
    struct stat st;
    *label = arg;
    *path = arg;
    if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg)) && stat(arg, &st) != 0) {
        *path = eq + 1;
        *label = NULL; /* the caller copies arg[0..eq) */
    }
}

int cmd_report(int argc, char **argv)
{
    bl_report_options o;
    bl_report_options_init(&o);
    const char *out_path = "report.html", *baseline = NULL;
    char **inputs = calloc((size_t)argc, sizeof *inputs);
    size_t n_inputs = 0;
    if (!inputs)
        return cli_error("report: out of memory");
    int status = 0;
    for (int i = 1; i < argc && !status; i++) {
        const char *a = argv[i], *v = NULL;
        int got;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            free(inputs);
            return 0;
        }
        if ((got = flag(argc, argv, &i, "out", "-o", &v)) != 0) {
            if (got < 0)
                status = cli_error("report: %s needs a file name", a);
            out_path = v;
        } else if ((got = flag(argc, argv, &i, "baseline", NULL, &v)) != 0) {
            if (got < 0)
                status = cli_error("report: --baseline needs a label or a position");
            baseline = v;
        } else if ((got = flag(argc, argv, &i, "title", NULL, &v)) != 0) {
            if (got < 0)
                status = cli_error("report: --title needs a text");
            o.title = v;
        } else if ((got = flag(argc, argv, &i, "alpha", NULL, &v)) != 0) {
            status = got < 0 ? cli_error("report: --alpha needs a value")
                             : parse_level("alpha", v, &o.alpha);
        } else if ((got = flag(argc, argv, &i, "confidence", NULL, &v)) != 0) {
            status = got < 0 ? cli_error("report: --confidence needs a value")
                             : parse_level("confidence", v, &o.confidence);
        } else if (a[0] == '-' && a[1] != '\0') {
            status = cli_error("report: unknown option '%s' (see benchlab report --help)", a);
        } else {
            inputs[n_inputs++] = argv[i];
        }
    }
    if (!status && n_inputs == 0)
        status = cli_error("report: name at least one results file: benchlab report run.json "
                           "[-o report.html]");
    bl_report_run *runs = calloc(n_inputs ? n_inputs : 1, sizeof *runs);
    char **labels = calloc(n_inputs ? n_inputs : 1, sizeof *labels);
    if (!status && (!runs || !labels))
        status = cli_error("report: out of memory");
    for (size_t k = 0; !status && k < n_inputs; k++) {
        const char *label, *path;
        split_label(inputs[k], &label, &path);
        if (!label) {
            size_t n = (size_t)(strchr(inputs[k], '=') - inputs[k]);
            labels[k] = strndup(inputs[k], n);
        } else {
            labels[k] = strdup(strcmp(path, "-") == 0 ? "stdin" : path);
        }
        runs[k].label = labels[k];
        if (path[0] == '@') {
            status = cli_error("report: %s: stored runs (@refs) need the results store, which "
                               "this build does not have; give results files",
                               path);
            break;
        }
        bl_results *res = NULL;
        char err[1024] = "";
        int rc = bl_results_read_file(path, &res, stderr, err, sizeof err);
        if (rc) {
            status = cli_error("report: %s", err[0] ? err : bl_strerror(rc));
            break;
        }
        runs[k].results = res;
    }
    if (!status && baseline) {
        char *end;
        long pos = strtol(baseline, &end, 10);
        size_t found = n_inputs;
        for (size_t k = 0; k < n_inputs; k++)
            if (strcmp(runs[k].label, baseline) == 0)
                found = k;
        if (found == n_inputs && *end == '\0' && pos >= 1 && (size_t)pos <= n_inputs)
            found = (size_t)pos - 1;
        if (found == n_inputs)
            status =
                cli_error("report: --baseline %s: no input has that label or position", baseline);
        o.baseline = found;
    }
    if (!status) {
        int to_stdout = strcmp(out_path, "-") == 0;
        size_t tlen = strlen(out_path) + 32;
        char *tmp = malloc(tlen);
        FILE *f = NULL;
        if (to_stdout) {
            f = stdout;
        } else if (tmp) {
            snprintf(tmp, tlen, "%s.tmp.%ld", out_path, (long)getpid());
            f = fopen(tmp, "w");
        }
        if (!f) {
            status = cli_error("report: %s: %s", out_path, strerror(errno));
        } else {
            int rc = bl_report_write(f, runs, n_inputs, &o);
            if (to_stdout) {
                if (fflush(f) != 0 && !rc)
                    rc = -errno;
            } else {
                int bad = fflush(f) != 0 || ferror(f);
                if (fclose(f) != 0 || bad) {
                    if (!rc)
                        rc = -EIO;
                } else if (!rc && rename(tmp, out_path) != 0) {
                    rc = -errno;
                }
                if (rc)
                    unlink(tmp);
            }
            if (rc)
                status =
                    cli_error("report: %s: %s", to_stdout ? "stdout" : out_path, bl_strerror(rc));
            else if (!to_stdout)
                fprintf(stderr, "benchlab: wrote %s (%zu input%s)\n", out_path, n_inputs,
                        n_inputs == 1 ? "" : "s");
        }
        free(tmp);
    }
    for (size_t k = 0; runs && k < n_inputs; k++)
        bl_results_destroy((bl_results *)runs[k].results);
    for (size_t k = 0; labels && k < n_inputs; k++)
        free(labels[k]);
    free(runs);
    free(labels);
    free(inputs);
    return status;
}
