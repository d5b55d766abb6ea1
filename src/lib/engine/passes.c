/*
 * passes.c - one launch of a benchmark, and the passes that run beside
 * its timing launches: the allocation pass (a counting library
 * preloaded), the counters pass and the profile pass (the sampler
 * preloaded, or the tracer the suite links). Each pass is a worker of its
 * own, so that no instrument disturbs the reported timings.
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

int bl__launch_run(const struct bl__launcher *la, const char *name, unsigned long long seed,
                   bl_launch *l, const struct bl__pass *pass, unsigned long long reps,
                   double budget_s)
{
    static const struct bl__pass timing = {.preload_fd = -1};
    const char *exe = la->exe;
    const bl_run_options *o = la->o;
    if (!pass)
        pass = &timing;
    struct bl__alloc_out *alloc = pass->alloc;
    const char *counters = pass->counters;
    char **counters_line = pass->counters_line;
    char time_s[32], batch[32], seed_s[32], fd_s[8], reps_s[32];
    /* the benchmark's budget is split evenly across its launches */
    snprintf(time_s, sizeof time_s, "%.9g",
             budget_s > 0 ? budget_s : o->time_s / (o->count > 0 ? o->count : 1));
    snprintf(batch, sizeof batch, "%.17g", o->batch_ms);
    snprintf(seed_s, sizeof seed_s, "%llu", seed);
    snprintf(fd_s, sizeof fd_s, "%d", BL__CHANNEL_FD);
    char *argv[] = {(char *)exe,  (char *)"--benchlab-worker",
                    (char *)name, (char *)"--benchlab-fd",
                    fd_s,         (char *)"--benchlab-time",
                    time_s,       (char *)"--benchlab-batch",
                    batch,        (char *)"--benchlab-seed",
                    seed_s,       NULL,
                    NULL,         NULL,
                    NULL,         NULL,
                    NULL,         NULL};
    struct bl__spawn_env env = {.pin_mask = la->pin_mask, .preload_fd = -1, .extra = o->env};
    char out_var[4200], hz_var[64];
    if (alloc) {
        argv[11] = (char *)"--benchlab-mode";
        argv[12] = (char *)"alloc";
        env.preload_fd = bl__alloc_preload_fd();
        if (env.preload_fd < 0) {
            l->status = BL_EUNSUPPORTED;
            bl__launch_message(l, "cannot prepare the allocation counter: %s",
                               bl_strerror(env.preload_fd));
            return BL__LAUNCH_BROKEN;
        }
    } else if (counters) {
        argv[11] = (char *)"--benchlab-counters";
        argv[12] = (char *)counters;
    } else if (pass->instr_wrap) {
        argv[11] = (char *)"--benchlab-mode";
        argv[12] = (char *)"instr";
        env.wrap = pass->instr_wrap;
        env.no_aslr = true;
        /* glibc's routines pinned, no lazy binding (instructions.c) */
        env.set[0] = "LD_BIND_NOW=1";
        env.set[1] = bl__instr_tunables();
        env.set[2] = pass->instr_out;
        env.set[3] = pass->instr_reps;
    } else if (pass->profile) {
        argv[11] = (char *)"--benchlab-profile";
        argv[12] = (char *)bl__profile_mode_name(pass->profile);
        snprintf(out_var, sizeof out_var, "BENCHLAB_PROFILE_OUT=%s", pass->profile_raw);
        snprintf(hz_var, sizeof hz_var, "BENCHLAB_PROFILE_HZ=%u",
                 o->profile_hz ? o->profile_hz : 1000);
        const char *vars[] = {out_var,
                              "BENCHLAB_PROFILE_PAUSED=1",
                              hz_var,
                              "BENCHLAB_PROFILE_CLOCK=cpu",
                              "BENCHLAB_PROFILE_UNWIND=auto",
                              "BENCHLAB_TRACE_EVENTS=0",
                              NULL};
        memcpy(env.set, vars, sizeof vars);
        env.preload_fd = pass->preload_fd;
        env.preload_path = pass->preload_path;
    }
    if (reps) {
        int k = argv[11] ? 13 : 11;
        snprintf(reps_s, sizeof reps_s, "%llu", reps);
        argv[k] = (char *)"--benchlab-reps";
        argv[k + 1] = reps_s;
    }
    /* --iterations: the timing launches' fixed count */
    char iter_s[32];
    if (o->iterations && !alloc && !counters && !pass->instr_wrap) {
        int k = argv[13] ? 15 : argv[11] ? 13 : 11;
        snprintf(iter_s, sizeof iter_s, "%llu", o->iterations);
        argv[k] = (char *)"--benchlab-iterations";
        argv[k + 1] = iter_s;
    }
    struct bl__worker w;
    if (bl__worker_start(&w, exe, argv, &env, false, l))
        return BL__LAUNCH_BROKEN;
    w.alloc = alloc;
    uint64_t deadline = w.t0 + (uint64_t)(o->timeout_s * 1e9);
    int rc;
    while ((rc = bl__worker_poll(&w, deadline)) > 0) {
    }
    bl__worker_end(&w, exe, rc == BL_ETIMEOUT || rc == BL_EINTR ? rc : 0, o->timeout_s);
    int how =
        l->skipped || (l->status != 0 && l->status != BL_EINTR) ? BL__LAUNCH_BROKEN : BL__LAUNCH_OK;
    if (counters_line)
        *counters_line = w.counters_line;
    else
        free(w.counters_line);
    if (l->status == 0 && !l->skipped && !alloc && !counters && !pass->profile &&
        !pass->instr_wrap && isnan(l->ns_per_op)) {
        l->status = BL_EBENCH;
        struct bl__buf why = {0};
        for (unsigned b = 0; b < BL_INVALID_NREASONS; b++)
            if (l->invalid_by[b])
                bl__buf_printf(&why, "%s%s %zu", why.len ? ", " : "", bl_invalid_name(b),
                               l->invalid_by[b]);
        bl__launch_message(l, "no clean measurement: all %zu measured batches were disturbed (%s)",
                           l->n_measured, why.data ? why.data : "no batches");
        bl__buf_fini(&why);
        l->disturbed = true;
        bl_launch_finish(l); /* the disturbed batches' values, kept if no launch is clean */
        how = BL__LAUNCH_DISTURBED;
    }
    /* a timing launch that stands has a value (else it is BL_EBENCH above) */
    BL__CHECK(pass != &timing || l->skipped || l->status != 0 || !isnan(l->ns_per_op));
    return how;
}

/*
 * The allocation pass of one benchmark: a worker with the counting library
 * preloaded. Per-op counts are the difference between k+d and k counted
 * repetitions, divided by d: exact for deterministic code, and free of
 * whatever the benchmark allocates once per batch. Sets bench->has_alloc
 * or bench->alloc_message; never a number it cannot stand behind.
 */
void bl__pass_alloc(const struct bl__launcher *la, unsigned long long seed, bl_bench_result *b)
{
    bl_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    struct bl__alloc_out a;
    memset(&a, 0, sizeof a);
    struct bl__pass pass = {.alloc = &a, .preload_fd = -1};
    bl__launch_run(la, b->name, seed, &tmp, &pass, 0, 0);
    free(b->alloc_message);
    b->alloc_message = NULL;
    struct bl__buf msg = {0};
    if (tmp.status || tmp.skipped)
        bl__buf_printf(&msg, "the allocation pass failed: %s",
                       tmp.message ? tmp.message : bl_strerror(tmp.status));
    else if (!a.got)
        bl__buf_printf(&msg, "the allocation pass sent no counts");
    else if (a.foreign)
        bl__buf_printf(&msg,
                       "it frees or resizes memory that was not allocated in the measured loop "
                       "(%llu blocks, allocated in setup?): B/op and allocs/op would not "
                       "describe one repetition, so none are reported",
                       a.foreign);
    else if (a.untracked)
        bl__buf_printf(&msg, "too many live blocks to track (%llu untracked)", a.untracked);
    else if (a.allocs_kd < a.allocs_k || a.bytes_kd < a.bytes_k)
        bl__buf_printf(&msg,
                       "fewer allocations for more repetitions (%llu then %llu): the "
                       "benchmark is not deterministic enough to count",
                       a.allocs_k, a.allocs_kd);
    if (msg.data) {
        b->has_alloc = false;
        b->alloc_message = msg.data;
    } else {
        b->has_alloc = true;
        b->allocs_per_op = (double)(a.allocs_kd - a.allocs_k) / (double)a.d;
        b->alloc_bytes_per_op = (double)(a.bytes_kd - a.bytes_k) / (double)a.d;
    }
    bl__launch_fini(&tmp);
}

/* The counters pass of one benchmark: per-op counts by the same k, k+d
 * difference as the allocation pass, scaled when the kernel multiplexed. */
void bl__pass_counters(const struct bl__launcher *la, unsigned long long seed, bl_bench_result *b)
{
    bl_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    char *line = NULL;
    struct bl__pass pass = {.counters = la->o->counters[0] ? la->o->counters : "",
                            .counters_line = &line,
                            .preload_fd = -1};
    bl__launch_run(la, b->name, seed, &tmp, &pass, 0, 0);
    unsigned long long k = 0, d = 0;
    int scaled = 0, used = 0;
    if (tmp.status || tmp.skipped || !line ||
        sscanf(line, "counters %llu %llu %d%n", &k, &d, &scaled, &used) != 3 || d == 0) {
        free(b->counters_message);
        struct bl__buf m = {0};
        bl__buf_printf(&m, "the counters pass failed: %s",
                       tmp.message ? tmp.message
                       : line      ? "bad counts"
                                   : "no counts sent");
        b->counters_message = m.data;
    } else {
        const char *p = line + used;
        char name[32];
        double base, more;
        int adv = 0;
        b->n_counters = 0;
        while (b->n_counters < 6 && sscanf(p, " %31s %lf %lf%n", name, &base, &more, &adv) == 3) {
            snprintf(b->counter_unit[b->n_counters], sizeof b->counter_unit[0], "%.27s/op", name);
            b->counter_per_op[b->n_counters] = (more - base) / (double)d;
            b->n_counters++;
            p += adv;
        }
        b->counters_scaled = scaled != 0;
    }
    free(line);
    bl__launch_fini(&tmp);
}

/*
 * The profile pass of one benchmark: a timing worker with the profiler
 * attached (the sampler preloaded, or the tracer the suite links), which
 * records only in the timed segments of measured batches. Its timings are
 * thrown away, so the profiler never disturbs the reported numbers. Sets
 * bench->profile_raw when the raw file holds anything (a crash keeps the
 * samples taken until then) and bench->profile_message when something
 * went wrong.
 */
void bl__pass_profile(const struct bl__launcher *la, unsigned long long seed, bl_bench_result *b,
                      const struct bl__pass *proto, const char *raw)
{
    bl_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    struct bl__pass pass = *proto;
    pass.profile_raw = raw;
    unlink(raw); /* never a stale file from an earlier run */
    bl__launch_run(la, b->name, seed, &tmp, &pass, 0, 0);
    free(b->profile_message);
    b->profile_message = NULL;
    struct bl__buf msg = {0};
    if (tmp.status == BL_ECRASH)
        bl__buf_printf(&msg, "the profile pass %s; the profile holds the samples taken until then",
                       tmp.message);
    else if (tmp.status && tmp.status != BL_EINTR)
        bl__buf_printf(&msg, "the profile pass failed: %s",
                       tmp.message ? tmp.message : bl_strerror(tmp.status));
    else if (tmp.skipped)
        bl__buf_printf(&msg, "skipped: %s", tmp.message ? tmp.message : "");
    struct stat st;
    free(b->profile_raw);
    b->profile_raw = NULL;
    if (stat(raw, &st) == 0 && st.st_size > 0)
        b->profile_raw = bl__strdup(raw);
    else if (!msg.data && tmp.status != BL_EINTR)
        bl__buf_printf(&msg, "the profile pass recorded nothing");
    b->profile_message = msg.data;
    bl__launch_fini(&tmp);
}

/* A raw file name for `name` in `dir`, unique among those given out in this run. */
char *bl__pass_profile_raw_path(const char *dir, const char *name, char ***used, size_t *n_used)
{
    char *base = bl__profile_file_base(name);
    if (!base)
        return NULL;
    struct bl__buf path = {0};
    for (int k = 1; k < 1000; k++) {
        path.len = 0;
        bl__buf_printf(&path, k == 1 ? "%s/%s" : "%s/%s-%d", dir, base, k);
        bool taken = false;
        for (size_t i = 0; i < *n_used && !taken; i++)
            taken = path.data && strcmp((*used)[i], path.data) == 0;
        if (!taken)
            break;
    }
    free(base);
    char **grown = path.data ? realloc(*used, (*n_used + 1) * sizeof **used) : NULL;
    if (!grown) {
        bl__buf_fini(&path);
        return NULL;
    }
    *used = grown;
    (*used)[(*n_used)++] = bl__strdup(path.data);
    bl__buf_printf(&path, ".raw");
    return path.data;
}

/*
 * Prepare the profile pass: the mode, the directory (made here), and for
 * sampling the library to preload. A suite the sampler cannot reach
 * (static, sanitizer) is not an error: `refused` says why, per benchmark.
 */
int bl__pass_profile_setup(const bl_run_options *o, const char *exe, bl_results *res,
                           struct bl__pass *proto, char *dir, size_t dir_size, char *refused,
                           size_t refused_size, char *errbuf, size_t errsize)
{
    int mode = bl__profile_mode_parse(o->profile);
    if (mode < 0) {
        snprintf(errbuf, errsize, "--profile '%s': the mode is sample or trace", o->profile);
        return BL_EUSAGE;
    }
    const char *base = strrchr(exe, '/');
    int len = o->profile_dir && *o->profile_dir
                  ? snprintf(dir, dir_size, "%s", o->profile_dir)
                  : snprintf(dir, dir_size, "%s.profile", base ? base + 1 : exe);
    if (len < 0 || (size_t)len >= dir_size) {
        snprintf(errbuf, errsize, "--profile-dir: the path is too long");
        return BL_EUSAGE;
    }
    struct stat st;
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
        snprintf(errbuf, errsize, "--profile-dir %s: %s", dir,
                 errno == EEXIST ? "exists and is not a directory" : strerror(errno));
        return BL_EUSAGE;
    }
    *proto = (struct bl__pass){.profile = mode, .preload_fd = -1};
    bl_results_set_meta(res, "profile", bl__profile_mode_name(mode));
    bl_results_set_meta(res, "profile-dir", dir);
    if (mode != BL__PROFILE_SAMPLE)
        return 0;
    char lib[256];
    switch (bl__preload_check(exe, lib, sizeof lib)) {
    case BL__PRELOAD_OK:
        break;
    case BL__PRELOAD_STATIC:
        snprintf(refused, refused_size,
                 "%s is statically linked: the sampler cannot be preloaded into it; link it "
                 "dynamically, or build it for --profile=trace (docs/profile.md)",
                 exe);
        return 0;
    case BL__PRELOAD_SANITIZER:
        snprintf(refused, refused_size,
                 "%s is built with a sanitizer (%s), whose runtime must be loaded first and "
                 "refuses a preloaded sampler; profile a build without sanitizers",
                 exe, lib);
        return 0;
    default:
        snprintf(refused, refused_size, "%s: cannot read it as an ELF executable", exe);
        return 0;
    }
    const char *path = NULL;
    int fd = bl__sampler_preload(&path);
    if (fd < -1) {
        if (path)
            snprintf(refused, refused_size, "BENCHLAB_SAMPLER_LIB=%s: %s", path, strerror(-fd));
        else
            snprintf(refused, refused_size, "cannot prepare the sampler: %s", bl_strerror(fd));
        return 0;
    }
    proto->preload_fd = fd;
    proto->preload_path = path;
    return 0;
}
