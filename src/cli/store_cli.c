/*
 * store_cli.c - what the commands over the results store share (include/benchlab/store.h):
 * opening the store, a run's label, the stored runs as compare's inputs,
 * --commit and --branch, and the --save of exec and profile.
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

int cli_store_open(const char *cmd, const char *spec, unsigned flags, bl_store **out)
{
    char err[1024];
    int rc = bl_store_open(spec, flags, out, err, sizeof err);
    if (rc)
        return cli_error("%s: %s", cmd, err);
    return 0;
}

/* "2024-06-11T15:30:12Z" -> "2024-06-11 15:30". */
void cli_short_date(char *out, size_t size, const char *iso)
{
    if (!iso || strlen(iso) < 16) {
        snprintf(out, size, "%s", iso ? iso : "-");
        return;
    }
    snprintf(out, size, "%.10s %.5s", iso, iso + 11);
}

/* "3f7ec28" or "3f7ec28+" (uncommitted changes), "-" outside git. */
void cli_short_commit(char *out, size_t size, const bl_store_run *r)
{
    if (!r->commit)
        snprintf(out, size, "-");
    else
        snprintf(out, size, "%.7s%s", r->commit, r->dirty == 1 ? "+" : "");
}

void cli_run_label(char *out, size_t size, const char *ref, const bl_store_run *r)
{
    char c[24] = "", d[32];
    if (r->commit) {
        cli_short_commit(c + 2, sizeof c - 2, r);
        memcpy(c, ", ", 2);
    }
    cli_short_date(d, sizeof d, r->measured_at ? r->measured_at : r->saved_at);
    if (ref && strcmp(ref + (ref[0] == '@'), "latest") != 0 && ref[0])
        snprintf(out, size, "%s (run %lld%s, %s)", ref, (long long)r->id, c, d);
    else
        snprintf(out, size, "run %lld (%s%s)", (long long)r->id, d, c);
}

/* ---- compare @refs ------------------------------------------------------------------ */

/*
 * Replace every input of `benchlab compare` that names a stored run
 * ("@latest", "new=@HEAD~1") by "label=/proc/self/fd/N", N a memory file
 * holding the run in the Go benchmark format: compare then reads a stored
 * run exactly as it reads that run's own output. The store is opened only
 * when an input asks for it. *fds receives the files (close them after
 * reading). Returns 0, or 2 after printing the error.
 */
int cli_compare_refs(char **args, size_t n, const char *spec, char ***out, int **fds, size_t *n_fds)
{
    *out = calloc(n + 1, sizeof **out);
    *fds = calloc(n + 1, sizeof **fds);
    *n_fds = 0;
    if (!*out || !*fds)
        return cli_error("compare: out of memory");
    bl_store *s = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(args[i], '=');
        const char *ref = args[i][0] == '@' ? args[i] : eq && eq[1] == '@' ? eq + 1 : NULL;
        if (!ref || (args[i][0] == '@' && eq)) {
            (*out)[i] = strdup(args[i]);
            if (!(*out)[i])
                return cli_error("compare: out of memory");
            continue;
        }
        if (!s && cli_store_open("compare", spec, 0, &s))
            return 2;
        char err[1024];
        bl_results *r;
        if (bl_store_load_ref(s, ref, &r, NULL, err, sizeof err)) {
            bl_store_close(s);
            return cli_error("compare: %s", err);
        }
        int fd = memfd_create("benchlab-run", MFD_CLOEXEC);
        FILE *f = fd >= 0 ? fdopen(dup(fd), "w") : NULL;
        int werr = 0;
        if (f) {
            werr = bl_gobench_write(f, r);
            if (fclose(f) != 0)
                f = NULL;
        }
        bl_results_destroy(r);
        if (werr) {
            if (fd >= 0)
                close(fd);
            bl_store_close(s);
            return cli_error("compare: %s: %s", ref, bl_strerror(werr));
        }
        if (!f) {
            if (fd >= 0)
                close(fd);
            bl_store_close(s);
            return cli_error("compare: %s: cannot hold the run in memory", ref);
        }
        (*fds)[(*n_fds)++] = fd;
        int len = eq && args[i][0] != '@' ? (int)(eq - args[i]) : (int)strlen(args[i]);
        char arg[1024];
        snprintf(arg, sizeof arg, "%.*s=/proc/self/fd/%d", len, args[i], fd);
        (*out)[i] = strdup(arg);
        if (!(*out)[i]) {
            bl_store_close(s);
            return cli_error("compare: out of memory");
        }
    }
    bl_store_close(s);
    return 0;
}

/* --commit and --branch go in as the results' own, which the store takes
 * over the CI's variables and git. 0, or 2 after the message. */
int cli_put_commit(const char *cmd, bl_results *r, const char *commit, const char *branch)
{
    if ((commit && bl_results_set_meta(r, "commit", commit)) ||
        (branch && bl_results_set_meta(r, "branch", branch)))
        return cli_error("%s: --save: out of memory", cmd);
    return 0;
}

/* ---- --save of exec and profile ---------------------------------------------------- */

/* Print where the run went, or why it did not. 0, or 2 after an error. */
static int saved_or_not(const char *cmd, bl_store *s, int rc, int64_t id, const char *err)
{
    if (rc) {
        cli_error("%s: --save: %s", cmd, err);
        fprintf(stderr, "benchlab: %s: the results were written but not saved\n", cmd);
        return 2;
    }
    fprintf(stderr, "benchlab: %s: saved as run %lld in %s\n", cmd, (long long)id,
            bl_store_name(s));
    return 0;
}

int cli_save_results(const char *cmd, const struct cli_save *sv, bl_results *r, const char *kind)
{
    if (cli_put_commit(cmd, r, sv->commit, sv->branch))
        return 2;
    bl_store *s;
    if (cli_store_open(cmd, sv->store, BL_STORE_CREATE, &s)) {
        fprintf(stderr, "benchlab: %s: the results were written but not saved\n", cmd);
        return 2;
    }
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.kind = kind;
    o.run_uid = sv->run_uid;
    o.tag = sv->tag;
    char err[1024];
    int64_t id = 0;
    int rc = bl_store_save(s, r, &o, &id, err, sizeof err);
    rc = saved_or_not(cmd, s, rc, id, err);
    bl_store_close(s);
    return rc;
}

int cli_save_profile(const struct cli_save *sv, const bl_profile *p,
                     const struct bl_profile_info *info, char *const *command)
{
    bl_store *s;
    if (cli_store_open("profile", sv->store, BL_STORE_CREATE, &s)) {
        fprintf(stderr, "benchlab: profile: the profile was written but not saved\n");
        return 2;
    }
    struct bl_profile_function *fns = NULL;
    size_t n = bl_profile_flat(p, &fns);
    bl_store_profile_function *keep = calloc(n ? n : 1, sizeof *keep);
    /* the summary: the functions that matter, by total time */
    size_t n_keep = 0;
    for (size_t i = 0; keep && i < n && n_keep < 500; i++)
        keep[n_keep++] = (bl_store_profile_function){fns[i].name,    fns[i].file,     fns[i].line,
                                                     fns[i].self_ns, fns[i].total_ns, fns[i].calls};
    char cmdline[1024] = "", num[7][32];
    size_t len = 0;
    for (size_t i = 0; command && command[i] && len + 2 < sizeof cmdline; i++)
        len +=
            (size_t)snprintf(cmdline + len, sizeof cmdline - len, "%s%s", i ? " " : "", command[i]);
    snprintf(num[0], sizeof num[0], "%llu", (unsigned long long)info->period_ns);
    snprintf(num[1], sizeof num[1], "%llu", (unsigned long long)info->samples);
    snprintf(num[2], sizeof num[2], "%llu", (unsigned long long)info->threads);
    snprintf(num[3], sizeof num[3], "%llu", (unsigned long long)info->elapsed_ns);
    snprintf(num[4], sizeof num[4], "%.0f", bl_profile_total_ns(p));
    snprintf(num[5], sizeof num[5], "%llu", (unsigned long long)info->dropped);
    snprintf(num[6], sizeof num[6], "%zu", n);
    char date[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    bl_label labels[] = {
        {(char *)"date", date},
        {(char *)"command", cmdline},
        {(char *)"mode", (char *)(info->kind == BL_PROFILE_TRACED ? "traced" : "sampled")},
        {(char *)"clock", (char *)info->clock},
        {(char *)"source", (char *)info->source},
        {(char *)"period-ns", num[0]},
        {(char *)"samples", num[1]},
        {(char *)"threads", num[2]},
        {(char *)"elapsed-ns", num[3]},
        {(char *)"total-ns", num[4]},
        {(char *)"dropped", num[5]},
        {(char *)"functions", num[6]},
        {(char *)"benchlab-version", (char *)bl_version()},
        {(char *)"commit", (char *)sv->commit}, /* the last two only when given */
        {(char *)"branch", (char *)sv->branch},
    };
    size_t n_labels = sizeof labels / sizeof *labels - 2;
    if (sv->commit)
        n_labels++;
    if (sv->branch)
        labels[n_labels++] = labels[sizeof labels / sizeof *labels - 1];
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.run_uid = sv->run_uid;
    o.tag = sv->tag;
    char err[1024] = "out of memory";
    int64_t id = 0;
    int rc =
        keep ? bl_store_save_profile(s, labels, n_labels, keep, n_keep, &o, &id, err, sizeof err)
             : -ENOMEM;
    free(keep);
    free(fns);
    rc = saved_or_not("profile", s, rc, id, err);
    bl_store_close(s);
    return rc;
}
