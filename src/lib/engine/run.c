/*
 * run.c - the parent side of a benchmark run.
 *
 * Turns a plan (plan.c: which benchmark instances, how many launches, in
 * what order) into a bl_results. The runner never times anything: workers
 * (bench/worker.c) measure and send each batch on their channel as soon as
 * it is taken (worker_proc.c, channel.c), and judge its batches
 * (bl_launch_finish). Progress goes to the caller's observer.
 *
 * Invariant: a launch is in the results whatever happened to its worker,
 * with its status and everything it had sent; the run always goes on with
 * the next launch, unless the user interrupted it.
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

void bl_run_options_init(bl_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->time_s = 0.5;
    o->batch_ms = 1.0;
    o->timeout_s = 60.0;
    o->count = BL_DEFAULT_LAUNCHES;
}

/* ---- the run ----------------------------------------------------------------------- */

static void fill_header(bl_results *res, const bl_run_options *o, const char *exe,
                        const char *suite)
{
    bl_results_set_config(res, "goos", "linux");
    bl_results_set_config(res, "goarch", bl__sys_goarch());
    bl_results_set_config(res, "cpu", bl__sys_cpu_model());
    /* --pkg, else the suite's name (declared, or its source file's stem),
     * else, for a suite that does not say, the executable's file name */
    const char *pkg = o->pkg ? o->pkg : suite;
    if (!pkg) {
        pkg = strrchr(exe, '/');
        pkg = pkg ? pkg + 1 : exe;
    }
    bl_results_set_config(res, "pkg", pkg);
    char date[64];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    bl_results_set_meta(res, "date", date);
    bl_results_set_meta(res, "host", bl__sys_hostname());
    bl_results_set_meta(res, "kernel", bl__sys_kernel());
    bl_results_set_meta(res, "benchlab-version", BENCHLAB_VERSION_STRING);
    char buf[64];
    snprintf(buf, sizeof buf, "%g", o->time_s);
    bl_results_set_meta(res, "time-budget-s", buf);
    snprintf(buf, sizeof buf, "%d", o->count);
    bl_results_set_meta(res, "launches", buf);
    /* what on this machine adds noise: recorded with the results */
    char *warnings = bl__env_warnings();
    if (warnings)
        bl_results_set_meta(res, "env-warnings", warnings);
    free(warnings);
    if (o->cpus)
        bl_results_set_meta(res, "cpus", o->cpus);
    bl_results_set_meta(res, "fingerprint", bl_env_fingerprint());
    char compiler[256], flags[1024];
    bl__build_info(exe, compiler, sizeof compiler, flags, sizeof flags);
    if (compiler[0])
        bl_results_set_meta(res, "compiler", compiler);
    if (flags[0])
        bl_results_set_meta(res, "cflags", flags);
    /* --complexity: what fits the run made, so that results read back make them again
     * (bl_results_refit_complexity) */
    if (o->complexity)
        bl_results_set_meta(res, "complexity-fit", "all");
    if (o->shard_count > 1) {
        snprintf(buf, sizeof buf, "%d/%d", o->shard_index, o->shard_count);
        bl_results_set_meta(res, "shard", buf);
    }
}

/* A benchmark declared a unit's better= differently from one before it:
 * the first declaration stays (as in benchstat), and the run says so. */
static void note_unit_conflict(bl_results *res, const char *unit, const char *bench)
{
    const char *old = bl_results_get_meta(res, "unit-conflicts");
    struct bl__buf b = {0};
    bl__buf_printf(&b, "%s%s%s (%s)", old ? old : "", old ? "; " : "", unit, bench);
    if (b.data)
        bl_results_set_meta(res, "unit-conflicts", b.data);
    bl__buf_fini(&b);
}

/* A run in progress: what bl_run holds from its start to its one cleanup. */
struct run {
    bl_run_options o; /* with defaults for what the caller left unset */
    const bl_run_observer *obs;
    char self[PATH_MAX];    /* this program's path, when o.exe is NULL */
    struct bl__launcher la; /* the executable, o and the CPUs of --cpu */
    struct bl__plan plan;
    bl_results *res;
    struct bl__rng rng;
    size_t total, index; /* launches planned (for progress), started */
    int rc;              /* 0, 1 when a benchmark failed, or a negative error */
    char alloc_refused[512], counters_refused[512];
    struct bl__pass profile; /* the profile pass's prototype; profile == 0: none */
    char profile_dir[PATH_MAX], profile_refused[PATH_MAX + 512];
    char **raw_used; /* the profile raw files given out */
    size_t n_raw_used;
    struct bl__instr instr;         /* --instructions */
    unsigned long long *instr_reps; /* per benchmark of the plan: what its first count counted */
};

/* The options with their defaults, the executable, --cpu and the
 * open-file limit checked. 0 or an error with a message. */
static int run_check(struct run *r, char *errbuf, size_t errsize)
{
    bl_run_options *o = &r->o;
    if (o->count < 1)
        o->count = BL_DEFAULT_LAUNCHES;
    if (!(o->time_s > 0))
        o->time_s = 0.5;
    if (!(o->batch_ms > 0))
        o->batch_ms = 1.0;
    if (!(o->timeout_s > 0))
        o->timeout_s = 60.0;
    r->la.o = o;
    r->la.exe = o->exe;
    if (!o->exe) {
        ssize_t n = readlink("/proc/self/exe", r->self, sizeof r->self - 1);
        if (n <= 0) {
            snprintf(errbuf, errsize, "cannot find this program's path: %s", strerror(errno));
            return -errno;
        }
        r->self[n] = '\0';
        r->la.exe = r->self;
    } else if (access(o->exe, X_OK) != 0) {
        int e = -errno;
        snprintf(errbuf, errsize, "%s: %s", o->exe, strerror(errno));
        return e;
    }
    int err = bl__cpus_mask(o->cpus, &r->la.pin_mask, errbuf, errsize);
    if (err)
        return err;
    if ((err = bl__open_files_check()))
        bl__open_files_message(errbuf, errsize);
    return err;
}

/* What the instruments need before the first launch: the allocation
 * counter's and the counters' refusals, the profile's directory and
 * sampler. 0 or an error with a message. */
static int run_instruments(struct run *r, char *errbuf, size_t errsize)
{
    const bl_run_options *o = &r->o;
    if (o->alloc)
        bl__alloc_check_exe(r->la.exe, r->alloc_refused, sizeof r->alloc_refused);
    if (o->counters) {
        int idx[BL__MAX_HW_COUNTERS], nc;
        if (bl__hw_counters_parse(o->counters, idx, &nc, r->counters_refused,
                                  sizeof r->counters_refused) == 0)
            bl__hw_counters_probe(idx, nc, r->counters_refused, sizeof r->counters_refused);
        if (r->counters_refused[0])
            bl_results_set_meta(r->res, "counters-unsupported", r->counters_refused);
    }
    r->profile = (struct bl__pass){.preload_fd = -1};
    if (o->instructions) {
        int rc = bl__instr_setup(&r->instr, o, r->la.exe, r->res, errbuf, errsize);
        if (rc)
            return rc;
        if (!(r->instr_reps = calloc(r->plan.n > 0 ? r->plan.n : 1, sizeof *r->instr_reps)))
            return -ENOMEM;
    }
    if (!o->profile)
        return 0;
    return bl__pass_profile_setup(o, r->la.exe, r->res, &r->profile, r->profile_dir,
                                  sizeof r->profile_dir, r->profile_refused,
                                  sizeof r->profile_refused, errbuf, errsize);
}

/* The passes of benchmark i before its first launch. false when the
 * user interrupted one. */
static bool run_passes(struct run *r, size_t i, bl_bench_result *b)
{
    const bl_run_options *o = &r->o;
    const char *name = r->plan.names[i];
    if (o->alloc) {
        if (r->alloc_refused[0]) {
            b->alloc_message = bl__strdup(r->alloc_refused);
        } else {
            bl__pass_alloc(&r->la, bl__rng_next(&r->rng) | 1, b);
            if (bl__run_interrupted())
                return false;
        }
    }
    if (o->counters && !r->counters_refused[0]) {
        bl__pass_counters(&r->la, bl__rng_next(&r->rng) | 1, b);
        if (bl__run_interrupted())
            return false;
    }
    if (r->profile.profile) {
        char *raw = bl__pass_profile_raw_path(r->profile_dir, name, &r->raw_used, &r->n_raw_used);
        if (r->profile_refused[0])
            b->profile_message = bl__strdup(r->profile_refused);
        else if (!raw)
            b->profile_message = bl__strdup("out of memory");
        else
            bl__pass_profile(&r->la, bl__rng_next(&r->rng) | 1, b, &r->profile, raw);
        free(raw);
        if (bl__run_interrupted())
            return false;
        if (r->obs && r->obs->on_profile)
            r->obs->on_profile(r->obs->ctx, r->res, b);
    }
    return true;
}

/* One launch of benchmark i in `round` (its passes first in round 0).
 * false when the round stops: interrupted, or out of memory (r->rc). */
static bool run_bench(struct run *r, size_t i, int round)
{
    const bl_run_observer *obs = r->obs;
    const char *name = r->plan.names[i];
    bool replacement = round >= r->plan.entry[i].count;
    if (obs && obs->on_start)
        obs->on_start(obs->ctx, name, r->index < r->total ? r->index : r->total - 1, r->total);
    r->index++;
    bl_bench_result *b = bl_results_bench(r->res, name);
    if (!b) {
        r->rc = -ENOMEM;
        return false;
    }
    const struct bl__plan_entry *pe = &r->plan.entry[i];
    if (round == 0) {
        /* its own plan, for the outputs: the metadata say the run's */
        b->own_time_s = pe->time_s != r->o.time_s ? pe->time_s : 0;
        b->own_count = pe->count != r->o.count ? pe->count : 0;
        if (!run_passes(r, i, b))
            return false;
    }
    bl_launch *l = bl_results_add_launch(b);
    if (!l) {
        r->rc = -ENOMEM;
        return false;
    }
    int how = bl__launch_run(&r->la, name, bl__rng_next(&r->rng) | 1, l, NULL,
                             bl__plan_reps(&r->plan, i), pe->time_s / pe->count);
    /* the launch is in the results whatever happened to its worker */
    BL__CHECK(b->n_launches > 0 && l == &b->launches[b->n_launches - 1]);
    bl__plan_tuned(&r->plan, i, l);
    if (how == BL__LAUNCH_OK && r->o.instructions && l->status == 0 && !l->skipped &&
        !bl__run_interrupted())
        how = bl__pass_instructions(&r->la, &r->instr, bl__rng_next(&r->rng) | 1, name,
                                    &r->instr_reps[i], l);
    if (l->status == BL_EINTR) {
        BL__CHECK(bl__run_interrupted());
        b->n_launches--; /* nothing finished: drop it */
        bl__launch_fini(l);
        return false;
    }
    if (l->status == 0 && !l->skipped) {
        const char *clash = bl_results_declare_units(r->res, b, l);
        if (clash)
            note_unit_conflict(r->res, clash, b->name);
    }
    bl__plan_ended(&r->plan, i, how, replacement);
    if (obs && obs->on_launch)
        obs->on_launch(obs->ctx, r->res, b, l);
    return true;
}

/*
 * A benchmark whose every launch found only disturbed batches (a long
 * operation on a loaded machine: no batch of it runs without being
 * preempted) still gets a number, as Google Benchmark would give one: its
 * disturbed launches are kept, measured by all their batches
 * (bl_launch_finish), and stay marked `disturbed` for every writer to
 * flag. Beside a launch with a clean measurement they stay discarded.
 */
static void keep_disturbed(bl_results *res)
{
    for (size_t i = 0; i < res->n_benches; i++) {
        bl_bench_result *b = &res->benches[i];
        bool good = false;
        for (size_t j = 0; j < b->n_launches; j++)
            good |= b->launches[j].status == 0 && !b->launches[j].skipped;
        for (size_t j = 0; !good && j < b->n_launches; j++) {
            bl_launch *l = &b->launches[j];
            if (l->disturbed && l->status == BL_EBENCH && !isnan(l->ns_per_op))
                l->status = 0;
        }
    }
}

/* The run failed when a benchmark broke, or found no clean measurement
 * in any launch; disturbed launches beside good ones are only noted. */
static int run_verdict(const bl_results *res)
{
    for (size_t i = 0; i < res->n_benches; i++) {
        const bl_bench_result *b = &res->benches[i];
        bool good = false, broken = false;
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            good |= l->status == 0;
            broken |= l->status != 0 && !l->disturbed;
        }
        if (broken || !good)
            return 1;
    }
    return 0;
}

/* The rounds: each benchmark of the plan once a round, `count` rounds,
 * then rounds of replacements while any is owed. */
static void run_rounds(struct run *r)
{
    for (int round = 0; !bl__run_interrupted() && r->rc >= 0; round++) {
        bool any = false;
        for (size_t i = 0; i < r->plan.n && !bl__run_interrupted(); i++) {
            if (!bl__plan_wants(&r->plan, i, round))
                continue;
            any = true;
            if (!run_bench(r, i, round))
                break;
        }
        if (!any && round >= bl__plan_max_count(&r->plan))
            break;
    }
}

int bl_run(const bl_run_options *opts, const bl_run_observer *obs, bl_results **out, char *errbuf,
           size_t errsize)
{
    struct run *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    r->o = *opts;
    r->obs = obs;
    char *suite = NULL;
    int err = run_check(r, errbuf, errsize);
    /* the plan: matching instances, each `count` times, interleaved by round */
    if (!err)
        err = bl__plan_make(&r->plan, &r->o, r->la.pin_mask, &suite, errbuf, errsize);
    if (!err && !(r->res = bl_results_create()))
        err = -ENOMEM;
    if (!err) {
        fill_header(r->res, &r->o, r->la.exe, suite);
        *out = r->res;
        if (r->plan.tune.note)
            bl_results_set_meta(r->res, "tune-note", r->plan.tune.note);
        bl__rng_seed(&r->rng, r->o.seed ? r->o.seed : bl__now_ns() ^ (uint64_t)getpid());
        r->total = bl__plan_total(&r->plan);
        err = run_instruments(r, errbuf, errsize);
    }
    if (!err) {
        if (obs && obs->on_begin)
            obs->on_begin(obs->ctx, r->res, r->total);
        run_rounds(r);
        keep_disturbed(r->res);
        bl__plan_finish(&r->plan, r->res);
        if (r->rc == 0)
            r->rc = run_verdict(r->res);
        /* complexity fits over what finished, interrupted or not; without
         * memory for them the measurements still stand, unfitted */
        (void)bl_results_fit_complexity(r->res, r->o.complexity != 0);
        err = bl__run_interrupted() ? BL_EINTR : r->rc;
    }
    free(suite);
    bl__plan_fini(&r->plan);
    bl_names_free(r->raw_used, r->n_raw_used);
    free(r->instr_reps);
    free(r);
    return err;
}
