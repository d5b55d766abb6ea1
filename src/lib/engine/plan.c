/*
 * plan.c - what a run launches: the benchmarks of a suite (asked with
 * --benchlab-list, or this program's registry), filtered and sharded, the
 * names closest to a filter that matched none, and the bookkeeping of the
 * plan: which benchmark is stopped or owed a replacement launch, and what
 * the tune file knew, learned and found stale.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/base.h"
#include "../bench/bench.h"
#include "../instruments/alloc.h"
#include "../instruments/hw_counters.h"
#include "../instruments/preload.h"
#include "../instruments/profiler.h"
#include "../results/results_int.h"
#include "benchlab/env.h"
#include "benchlab/run.h"
#include "engine.h"

/* ---- listing -------------------------------------------------------------------- */

void bl_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static long list_self(char ***names, struct bl__bench_opts **opts)
{
    size_t n;
    const struct bl__instance *in = bl__registry_instances(&n);
    char **v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return -ENOMEM;
    if (opts && !(*opts = calloc(n ? n : 1, sizeof **opts))) {
        free(v);
        return -ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        v[i] = bl__strdup(in[i].name);
        if (!v[i]) {
            bl_names_free(v, i);
            if (opts) {
                free(*opts);
                *opts = NULL;
            }
            return -ENOMEM;
        }
        if (opts)
            (*opts)[i] = (struct bl__bench_opts){
                in[i].def->count <= BL__MAX_COUNT ? in[i].def->count : 0, in[i].def->time_s};
    }
    *names = v;
    return (long)n;
}

/* "\tcount=N time=S" after a name: its settings (unknown keys are left
 * for a later version; a bad value is the run's default). */
static void parse_settings(const char *line, struct bl__bench_opts *o)
{
    for (const char *p = line; *p; p++) {
        if (p != line && p[-1] != ' ')
            continue;
        if (strncmp(p, "count=", 6) == 0) {
            long c = strtol(p + 6, NULL, 10);
            o->count = c > 0 && c <= BL__MAX_COUNT ? (int)c : 0;
        } else if (strncmp(p, "time=", 5) == 0) {
            double t = strtod(p + 5, NULL);
            o->time_s = t > 0 && isfinite(t) ? t : 0;
        }
    }
}

/*
 * Ask a suite for its benchmarks: `exe --benchlab-list suite`, one name a
 * line after the header. The header carries the suite's name (`benchlab-list
 * 1 suite=NAME`) or why it has none that can be used (`... error=MESSAGE`);
 * a suite built before names were declared prints the bare header and
 * ignores the extra argument. With suite NULL the name is not asked for.
 */
static long list_exe(const char *exe, const struct bl__spawn_env *base, char ***names, char **suite,
                     struct bl__bench_opts **opts, char *why, size_t why_size)
{
    /* "settings": each name's .count and .time_s on a line of its own
     * after it (a suite from before them ignores the word) */
    char *argv[] = {(char *)exe, (char *)"--benchlab-list", suite ? (char *)"suite" : NULL, NULL,
                    NULL};
    if (opts)
        argv[suite ? 3 : 2] = (char *)"settings";
    struct bl__worker w;
    struct bl__spawn_env env = {.preload_fd = -1};
    if (base)
        env = (struct bl__spawn_env){
            .pin_mask = base->pin_mask, .preload_fd = -1, .extra = base->extra};
    int err = bl__spawn(exe, argv, &env, false, &w);
    if (err)
        return err;
    close(w.chan);
    struct bl__buf out = {0};
    char buf[4096];
    uint64_t deadline = bl__now_ns() + 10ull * 1000000000ull;
    while (w.out >= 0 && bl__now_ns() < deadline) {
        struct pollfd p = {w.out, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t got = read(w.out, buf, sizeof buf);
        if (got <= 0)
            break;
        bl__buf_append(&out, buf, (size_t)got);
    }
    kill(-w.pid, SIGKILL);
    int status;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(w.out);
    close(w.err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !out.data ||
        strncmp(out.data, "benchlab-list 1", 15) != 0 ||
        (out.data[15] != '\n' && out.data[15] != ' ') || !strchr(out.data, '\n')) {
        bl__buf_fini(&out);
        return BL_EPROTO;
    }
    char *body = strchr(out.data, '\n') + 1;
    body[-1] = '\0';
    const char *header = out.data + 15;
    if (suite && strncmp(header, " error=", 7) == 0) {
        snprintf(why, why_size, "%s: %s", exe, header + 7);
        bl__buf_fini(&out);
        return BL_EUSAGE;
    }
    if (suite && strncmp(header, " suite=", 7) == 0 && header[7] &&
        !(*suite = bl__strdup(header + 7))) {
        bl__buf_fini(&out);
        return -ENOMEM;
    }
    size_t n = 0, cap = 0, cap_o = 0;
    char **v = NULL;
    struct bl__bench_opts *ov = NULL;
    char *save = NULL;
    for (char *line = strtok_r(body, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '\t') { /* the settings of the name before (never a name: "Benchmark...") */
            if (ov && n > 0)
                parse_settings(line + 1, &ov[n - 1]);
            continue;
        }
        if (bl__grow((void **)&v, &cap, n + 1, sizeof *v) || !(v[n] = bl__strdup(line)) ||
            (opts && bl__grow((void **)&ov, &cap_o, n + 1, sizeof *ov))) {
            bl_names_free(v, v && v[n] ? n + 1 : n);
            free(ov);
            bl__buf_fini(&out);
            return -ENOMEM;
        }
        if (opts)
            ov[n] = (struct bl__bench_opts){0, 0};
        n++;
    }
    bl__buf_fini(&out);
    *names = v ? v : calloc(1, sizeof *v);
    if (opts)
        *opts = ov ? ov : calloc(1, sizeof *ov);
    return (long)n;
}

long bl_list(const char *exe, char ***names)
{
    return exe ? list_exe(exe, 0, names, NULL, NULL, NULL, 0) : list_self(names, NULL);
}

int bl_shard_of(const char *name, int n_shards)
{
    uint64_t h = bl__fnv1a(BL__FNV1A_BASIS, name, strlen(name));
    return n_shards > 1 ? (int)(h % (uint64_t)n_shards) : 0;
}

size_t bl__shard_keep(char **names, size_t n, int index, int count)
{
    if (count <= 1)
        return n;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (bl_shard_of(names[i], count) == index - 1)
            names[kept++] = names[i];
        else
            free(names[i]);
    }
    return kept;
}

long bl__list_matching(const char *exe, const char *filter, char ***out, char *err, size_t err_size)
{
    return bl__list_suite(exe, filter, NULL, out, NULL, NULL, err, err_size);
}

long bl__list_suite(const char *exe, const char *filter, const struct bl__spawn_env *env,
                    char ***out, char **suite, struct bl__bench_opts **opts, char *err,
                    size_t err_size)
{
    if (suite)
        *suite = NULL;
    if (opts)
        *opts = NULL;
    regex_t re;
    /* "-REGEX" keeps the names that do not match, as Google Benchmark's
     * --benchmark_filter does */
    const char *shown = filter;
    bool negative = filter && filter[0] == '-';
    if (negative)
        filter++;
    if (filter) {
        int rc = regcomp(&re, filter, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char msg[200];
            regerror(rc, &re, msg, sizeof msg);
            snprintf(err, err_size, "--filter '%s': %s", shown, msg);
            return BL_EUSAGE;
        }
    }
    char **names = NULL;
    long n;
    if (!exe) {
        n = list_self(&names, opts);
        if (n >= 0 && suite) {
            int serr = bl__suite_name(suite, err, err_size);
            if (serr) {
                bl_names_free(names, (size_t)n);
                n = serr;
            }
        }
    } else {
        n = list_exe(exe, env, &names, suite, opts, err, err_size);
    }
    if (n < 0 && suite) {
        free(*suite);
        *suite = NULL;
    }
    if (n < 0 && opts) {
        free(*opts);
        *opts = NULL;
    }
    if (n == BL_EUSAGE) {
        if (filter)
            regfree(&re);
        return n;
    }
    if (n < 0) {
        if (n == -EMFILE)
            bl__open_files_message(err, err_size);
        else if (n == BL_EPROTO)
            snprintf(err, err_size,
                     "%s is not a benchlab suite (it did not answer --benchlab-list; a "
                     "Google Benchmark suite is one once built against benchlab's layer, "
                     "pkg-config benchlab-gbench: docs/from-google-benchmark.md)",
                     exe ? exe : "this program");
        else
            snprintf(err, err_size, "%s: cannot list benchmarks: %s", exe ? exe : "this program",
                     bl_strerror((int)n));
        if (filter)
            regfree(&re);
        return n;
    }
    size_t kept = 0;
    for (long i = 0; i < n; i++) {
        if (!filter || (regexec(&re, names[i], 0, NULL, 0) == 0) != negative) {
            if (opts)
                (*opts)[kept] = (*opts)[i];
            names[kept++] = names[i];
        } else {
            free(names[i]);
        }
    }
    if (filter)
        regfree(&re);
    *out = names;
    return (long)kept;
}

/*
 * After "no benchmark matches --filter F": the benchmark names closest to
 * F (up to three), by the edit distance from F to the part of the name it
 * comes closest to, appended to msg: "; closest: BenchmarkSum/size=64".
 * When even the closest is too far to be what was meant, say so instead.
 */
static void plan_closest(const char *exe, const char *filter, char *msg, size_t size)
{
    char **all = NULL;
    char why[256];
    long n = bl__list_matching(exe, NULL, &all, why, sizeof why);
    if (n <= 0) {
        bl_names_free(all, n > 0 ? (size_t)n : 0);
        return;
    }
    /* the names at the smallest distance, if it is small: one edit in
     * four letters of the filter (one at least) */
    size_t min_d = SIZE_MAX;
    for (long i = 0; i < n; i++) {
        size_t d = bl__substring_distance(filter, all[i]);
        if (d < min_d)
            min_d = d;
    }
    size_t limit = strlen(filter) / 4 + 1;
    long pick[3] = {-1, -1, -1};
    for (long i = 0, k = 0; i < n && k < 3 && min_d <= limit; i++)
        if (bl__substring_distance(filter, all[i]) == min_d)
            pick[k++] = i;
    size_t used = strlen(msg);
    for (int k = 0; k < 3 && pick[k] >= 0 && used < size; k++) {
        int w = snprintf(msg + used, size - used, "%s%s", k ? ", " : "; closest: ", all[pick[k]]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (pick[0] < 0 && used < size)
        snprintf(msg + used, size - used,
                 " (none of the %ld benchmarks is close; --list names them)", n);
    bl_names_free(all, (size_t)n);
}

/* ---- the plan of a run ------------------------------------------------------------ */

/* A benchmark that crashed, failed, timed out or skipped is not launched
 * again: its next launch would do the same (and a hang would cost the
 * time limit each time). A launch that only found no clean batch (the
 * machine's noise, not the benchmark) is discarded and replaced, up to
 * MAX_REPLACEMENTS times per benchmark, after the regular rounds. */
enum { MAX_REPLACEMENTS = 2 };

int bl__plan_make(struct bl__plan *p, const bl_run_options *o, unsigned long long pin_mask,
                  char **suite, char *errbuf, size_t errsize)
{
    memset(p, 0, sizeof *p);
    struct bl__bench_opts *opts = NULL;
    struct bl__spawn_env env = {.pin_mask = pin_mask, .preload_fd = -1, .extra = o->env};
    long n = bl__list_suite(o->exe, o->filter, &env, &p->names, suite, &opts, errbuf, errsize);
    if (n < 0) {
        p->names = NULL;
        return (int)n;
    }
    p->n = (size_t)n;
    int err = 0;
    if (p->n == 0) {
        snprintf(errbuf, errsize,
                 o->filter ? "no benchmark matches --filter '%s'"
                           : "the suite defines no benchmarks%s",
                 o->filter ? o->filter : "");
        if (o->filter)
            plan_closest(o->exe, o->filter, errbuf, errsize);
        err = BL_ENOTFOUND;
    }
    /* a shard may hold none of them: an empty run, not an error, so that a
     * CI matrix wider than the suite still passes */
    if (!err && o->shard_count > 1) {
        size_t kept = 0;
        for (size_t i = 0; i < p->n; i++) {
            if (bl_shard_of(p->names[i], o->shard_count) == o->shard_index - 1) {
                opts[kept] = opts[i];
                p->names[kept++] = p->names[i];
            } else {
                free(p->names[i]);
            }
        }
        p->n = kept;
    }
    /* a tune file that is not one, or is malformed, stops the run before
     * anything is measured (and is never overwritten) */
    if (!err && o->tune_file) {
        err = bl__tune_load(&p->tune, o->tune_file, o->batch_ms, errbuf, errsize);
        if (!err)
            p->tune_file = o->tune_file;
    }
    if (!err && !(p->entry = calloc(p->n ? p->n : 1, sizeof *p->entry)))
        err = -ENOMEM;
    /* a definition's own count and budget (.count, .time_s) win over the
     * run's, as Google Benchmark's Repetitions() and MinTime() do */
    for (size_t i = 0; !err && i < p->n; i++) {
        p->entry[i].count = opts[i].count > 0 ? opts[i].count : o->count;
        p->entry[i].time_s = opts[i].time_s > 0 ? opts[i].time_s : o->time_s;
    }
    free(opts);
    for (size_t i = 0; !err && p->tune_file && i < p->n; i++)
        p->tune_known += bl__tune_get(&p->tune, p->names[i]) != 0;
    if (err) {
        bl__plan_fini(p);
        free(*suite);
        *suite = NULL;
    }
    return err;
}

bool bl__plan_wants(const struct bl__plan *p, size_t i, int round)
{
    bool replacement = round >= p->entry[i].count;
    return !p->entry[i].stop && !(replacement && p->entry[i].owed == 0);
}

int bl__plan_max_count(const struct bl__plan *p)
{
    int m = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->entry[i].count > m)
            m = p->entry[i].count;
    return m;
}

size_t bl__plan_total(const struct bl__plan *p)
{
    size_t t = 0;
    for (size_t i = 0; i < p->n; i++)
        t += (size_t)p->entry[i].count;
    return t;
}

unsigned long long bl__plan_reps(const struct bl__plan *p, size_t i)
{
    return p->tune_file ? bl__tune_get(&p->tune, p->names[i]) : 0;
}

void bl__plan_tuned(struct bl__plan *p, size_t i, const bl_launch *l)
{
    /* the first launch of a benchmark the file did not know tunes it for
     * the others and for the next run */
    const char *name = p->names[i];
    if (p->tune_file && l->tuned_reps && (!bl__tune_get(&p->tune, name) || l->tune_stale)) {
        bool known = bl__tune_get(&p->tune, name) != 0;
        if (bl__tune_set(&p->tune, name, l->tuned_reps) == 0) { /* a name the file can hold */
            p->tune_new += !known;
            p->tune_stale += l->tune_stale;
        }
    }
}

void bl__plan_ended(struct bl__plan *p, size_t i, int how, bool replacement)
{
    struct bl__plan_entry *e = &p->entry[i];
    BL__CHECK(!e->stop && (!replacement || e->owed > 0)); /* only what the plan wants ran */
    if (replacement)
        e->owed--;
    if (how == BL__LAUNCH_BROKEN) {
        e->stop = true;
    } else if (how == BL__LAUNCH_DISTURBED && e->replaced < MAX_REPLACEMENTS) {
        e->replaced++;
        e->owed++;
    }
    BL__CHECK(e->owed >= 0 && e->owed <= e->replaced && e->replaced <= MAX_REPLACEMENTS);
}

void bl__plan_finish(struct bl__plan *p, bl_results *res)
{
    if (!p->tune_file)
        return;
    char msg[600];
    snprintf(msg, sizeof msg,
             "%zu benchmarks sized from %s, %zu tuned and added, %zu stale and tuned again",
             p->tune_known, p->tune_file, p->tune_new, p->tune_stale);
    bl_results_set_meta(res, "tune", msg);
    char why[512] = "";
    if (bl__tune_save(&p->tune, why, sizeof why) != 0)
        bl_results_set_meta(res, "tune-error", why);
}

void bl__plan_fini(struct bl__plan *p)
{
    bl_names_free(p->names, p->n);
    free(p->entry);
    bl__tune_fini(&p->tune);
    memset(p, 0, sizeof *p);
}
