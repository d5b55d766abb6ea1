/*
 * cmd_report.c - `benchlab report [options] [label=]INPUT... [-o FILE]`:
 * results files (bl_results_read_file) and stored runs (@refs,
 * bl_store_load_ref) written as one self-contained HTML report
 * (bl_report_write), with the store's earlier runs in the history chart.
 * Without inputs: the store's latest run against the one before it. The
 * first input is the baseline unless --baseline names another. The file is
 * written whole or not at all (a temporary file renamed at the end). See
 * docs/report.md.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchlab/format.h"
#include "benchlab/output.h"
#include "benchlab/report.h"
#include "benchlab/store.h"
#include "cli.h"
#include "front.h"

/* "label=path" when path names no file as a whole and the label has no '/'
 * or '@'. Returns the label's length, or 0 when arg is all path. */
static size_t label_length(const char *arg)
{
    const char *eq = strchr(arg, '=');
    struct stat st;
    if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg)) && arg[0] != '@' &&
        stat(arg, &st) != 0)
        return (size_t)(eq - arg);
    return 0;
}

/* A stored run's name in the report: short, for legends and axes ("run 42",
 * "@baseline:main (run 40)", "run 41 3f7ec28"); the date and host are in
 * the report's table of runs. */
static void run_label(char *out, size_t size, const char *ref, const bl_store_run *r)
{
    char commit[16] = "";
    if (!ref && r->commit)
        snprintf(commit, sizeof commit, " %.7s", r->commit);
    if (ref && strcmp(ref + (ref[0] == '@'), "latest") != 0)
        snprintf(out, size, "%s (run %lld)", ref, (long long)r->id);
    else
        snprintf(out, size, "run %lld%s", (long long)r->id, commit);
}

/* What the command holds: the inputs, the store once opened, the history. */
struct job {
    bl_report_run *runs;
    char **labels;
    int64_t *run_ids; /* the stored run behind each input; 0 for a file */
    size_t n;
    const char *store_spec;
    bl_store *store;
    bl_store_history *hist;
    bl_report_history history;
    bl_report_series *series;
    bl_report_point *points;
    char **hist_labels;
    bl_diags skipped; /* records the readers skipped */
};

static int open_store(struct job *j)
{
    return j->store ? 0 : cli_store_open("report", j->store_spec, 0, &j->store);
}

/* Read input k: a stored run or a file. 0, or 2 after the error. */
static int load_input(struct job *j, size_t k, const char *arg)
{
    size_t ll = label_length(arg);
    const char *path = arg + (ll ? ll + 1 : 0);
    bl_results *res = NULL;
    char err[1024] = "";
    if (path[0] == '@') {
        if (open_store(j))
            return 2;
        bl_store_run info;
        memset(&info, 0, sizeof info);
        int rc = bl_store_load_ref(j->store, path, &res, &info, err, sizeof err);
        if (rc)
            return cli_error("report: %s", err[0] ? err : bl_strerror(rc));
        j->run_ids[k] = info.id;
        char label[256];
        run_label(label, sizeof label, path, &info);
        j->labels[k] = ll ? strndup(arg, ll) : strdup(label);
        bl_store_run_fini(&info);
    } else {
        int rc = bl_results_read_file(path, &res, &j->skipped, err, sizeof err);
        if (rc)
            return cli_error("report: %s", err[0] ? err : bl_strerror(rc));
        j->labels[k] = ll ? strndup(arg, ll) : strdup(strcmp(path, "-") == 0 ? "stdin" : path);
    }
    j->runs[k].results = res;
    j->runs[k].label = j->labels[k];
    return j->labels[k] ? 0 : cli_error("report: out of memory");
}

/*
 * The store's earlier runs for the history chart: the newest `last` runs
 * older than the oldest stored input (all of them when every input is a
 * file), without the inputs themselves.
 */
static int load_history(struct job *j, size_t last)
{
    int64_t oldest = INT64_MAX;
    for (size_t k = 0; k < j->n; k++)
        if (j->run_ids[k] && j->run_ids[k] < oldest)
            oldest = j->run_ids[k];
    char err[1024] = "";
    int rc = bl_store_history_load(j->store, NULL, last + j->n, &j->hist, err, sizeof err);
    if (rc)
        return cli_error("report: history: %s", err[0] ? err : bl_strerror(rc));
    const bl_store_history *h = j->hist;
    size_t *index = calloc(h->n_runs + 1, sizeof *index), kept = 0, first = 0;
    size_t n_points = 0;
    for (size_t s = 0; s < h->n_series; s++)
        n_points += h->series[s].n_points;
    j->hist_labels = calloc(h->n_runs + 1, sizeof *j->hist_labels);
    j->series = calloc(h->n_series + 1, sizeof *j->series);
    j->points = calloc(n_points + 1, sizeof *j->points);
    if (!index || !j->hist_labels || !j->series || !j->points) {
        free(index);
        return cli_error("report: out of memory");
    }
    /* the runs that qualify, and of them the newest `last` */
    size_t n_ok = 0;
    for (size_t r = 0; r < h->n_runs; r++)
        n_ok += h->runs[r].id < oldest;
    first = n_ok > last ? n_ok - last : 0;
    for (size_t r = 0, seen = 0; r < h->n_runs; r++) {
        index[r] = SIZE_MAX;
        if (h->runs[r].id >= oldest || seen++ < first)
            continue;
        char label[256];
        run_label(label, sizeof label, NULL, &h->runs[r]);
        j->hist_labels[kept] = strdup(label);
        index[r] = kept++;
    }
    size_t np = 0;
    for (size_t s = 0; s < h->n_series; s++) {
        j->series[s].name = h->series[s].name;
        j->series[s].points = j->points + np;
        for (size_t p = 0; p < h->series[s].n_points; p++) {
            const bl_store_point *sp = &h->series[s].points[p];
            if (sp->run >= h->n_runs || index[sp->run] == SIZE_MAX)
                continue;
            j->points[np++] = (bl_report_point){index[sp->run], sp->centre, sp->lo, sp->hi};
            j->series[s].n_points++;
        }
    }
    free(index);
    j->history =
        (bl_report_history){(const char *const *)j->hist_labels, kept, j->series, h->n_series};
    return 0;
}

/* How many runs the page shows: a run of jobs (docs/jobs.md) is one per job. */
static size_t shown_runs(const struct job *j)
{
    size_t n = 0;
    for (size_t k = 0; k < j->n; k++) {
        const char *jobs = j->runs[k].job ? NULL : bl_results_get_meta(j->runs[k].results, "jobs");
        size_t nj = 0;
        for (const char *p = jobs; p && *p; p += strspn(p, " ")) {
            nj++;
            p += strcspn(p, " ");
        }
        n += nj ? nj : 1;
    }
    return n;
}

static int write_report(const char *out_path, const struct job *j, const bl_report_options *o)
{
    int to_stdout = strcmp(out_path, "-") == 0;
    bl_output *out = NULL;
    int rc = bl_output_open(out_path, &out);
    if (rc)
        return cli_error("report: %s: %s", out_path, bl_strerror(rc));
    rc = bl_output_end(out, bl_report_write(bl_output_file(out), j->runs, j->n, o));
    if (rc)
        return cli_error("report: %s: %s", to_stdout ? "stdout" : out_path, bl_strerror(rc));
    size_t n = shown_runs(j);
    if (!to_stdout)
        fprintf(stderr, "benchlab: wrote %s (%zu run%s%s)\n", out_path, n, n == 1 ? "" : "s",
                o->history && o->history->n_runs ? " and their history" : "");
    return 0;
}

int cmd_report(int argc, char **argv)
{
    bl_report_options o;
    bl_report_options_init(&o);
    const char *out_path = "report.html", *baseline = NULL;
    long last = 20;
    struct job j;
    memset(&j, 0, sizeof j);
    const char **inputs = calloc((size_t)argc + 2, sizeof *inputs);
    size_t n_inputs = 0;
    if (!inputs)
        return cli_error("report: out of memory");
    int status = 0;
    struct bl__args args;
    char perr[512];
    const struct bl__command *table = bl__command_find("report");
    if (bl__args_parse(table, argc, argv, &args, perr, sizeof perr)) {
        free(inputs);
        return cli_error("report: %s", perr);
    }
    if (args.help) {
        bl__help_write(stdout, table, "benchlab report");
        free(inputs);
        return 0;
    }
    for (size_t k = 0; k < args.n_hits && !status; k++) {
        const struct bl__hit *h = &args.hits[k];
        const char *v = h->value;
        char *end = NULL;
        switch ((enum bl__optid)h->opt->id) {
        case BL__ID_OUT:
            out_path = v;
            break;
        case BL__ID_BASELINE:
            baseline = v;
            break;
        case BL__ID_STORE:
            j.store_spec = v;
            break;
        case BL__ID_HISTORY:
            last = strtol(v, &end, 10);
            if (end == v || *end || last < 0 || last > 100000)
                status = cli_error("report: --history: '%s' is not a count of runs", v);
            break;
        case BL__ID_TITLE:
            o.title = v;
            break;
        case BL__ID_ALPHA:
            o.alpha = h->num;
            break;
        case BL__ID_CONFIDENCE:
            o.confidence = h->num;
            break;
        default:
            break;
        }
    }
    for (size_t k = 0; k < args.n_pos; k++)
        inputs[n_inputs++] = args.pos[k];
    if (!status && n_inputs == 0) {
        /* the store's latest run against the one before it (alone when it is the first) */
        status = open_store(&j);
        int64_t id;
        char err[512];
        if (!status && bl_store_resolve(j.store, "latest~1", &id, err, sizeof err) == 0)
            inputs[n_inputs++] = "@latest~1";
        inputs[n_inputs++] = "@latest";
    }
    j.runs = calloc(n_inputs ? n_inputs : 1, sizeof *j.runs);
    j.labels = calloc(n_inputs ? n_inputs : 1, sizeof *j.labels);
    j.run_ids = calloc(n_inputs ? n_inputs : 1, sizeof *j.run_ids);
    if (!status && (!j.runs || !j.labels || !j.run_ids))
        status = cli_error("report: out of memory");
    for (size_t k = 0; !status && k < n_inputs; k++, j.n++)
        status = load_input(&j, k, inputs[k]);
    int skip_status = cli_print_skipped("benchlab: report", &j.skipped);
    bl_diags_fini(&j.skipped);
    if (!status && baseline) {
        char *end;
        long pos = strtol(baseline, &end, 10);
        size_t found = j.n;
        for (size_t k = 0; k < j.n; k++)
            if (strcmp(j.runs[k].label, baseline) == 0 || strcmp(inputs[k], baseline) == 0)
                found = k;
        if (found == j.n && *end == '\0' && pos >= 1 && (size_t)pos <= j.n)
            found = (size_t)pos - 1;
        if (found == j.n)
            status =
                cli_error("report: --baseline %s: no input has that label or position", baseline);
        o.baseline = found;
    }
    /* the history: from the store when one is open (a stored input), or named */
    if (!status && last > 0 && (j.store || j.store_spec)) {
        status = open_store(&j);
        if (!status)
            status = load_history(&j, (size_t)last);
        if (!status)
            o.history = &j.history;
    }
    if (!status)
        status = write_report(out_path, &j, &o);
    for (size_t k = 0; k < j.n; k++) {
        bl_results_destroy((bl_results *)j.runs[k].results);
        free(j.labels[k]);
    }
    for (size_t k = 0; j.hist_labels && k < j.history.n_runs; k++)
        free(j.hist_labels[k]);
    free(j.hist_labels);
    free(j.series);
    free(j.points);
    bl_store_history_destroy(j.hist);
    bl_store_close(j.store);
    free(j.runs);
    free(j.labels);
    free(j.run_ids);
    free(inputs);
    return status ? status : skip_status;
}
