/*
 * cmd_merge.c - `benchlab merge`: results files and stored runs into one run, written
 * or saved.
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
        status = cli_put_commit("merge", merged, sv.commit, sv.branch);
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
