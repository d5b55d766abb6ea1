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
#include <ctype.h>
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
                        const char *suite, bool build_info)
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
    char compiler[256] = "", flags[1024] = "";
    if (build_info) /* with jobs, each job's (jobs_header) */
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

/* One job of a run (a run without jobs is one job without a name): its
 * suite, its options and plan, and its instruments' state. */
struct job {
    const char *name;    /* NULL: a run without jobs */
    bl_run_options o;    /* the run's, with the job's exe, env and cpus */
    const char **env;    /* o.env: the run's variables, then the job's */
    char self[PATH_MAX]; /* this program's path, when o.exe is NULL */
    struct bl__launcher la;
    struct bl__plan plan;
    bool ready;        /* planned; false: the job failed before measuring (job-errors) */
    const char *error; /* its spec's: it could not be made (bl_run_job.error) */
    char *suite;       /* the suite's own name, NULL when it has none */
    char alloc_refused[512];
    struct bl__instr instr;         /* --instructions */
    unsigned long long *instr_reps; /* per benchmark of the plan: what its first count counted */
};

/* A run in progress: what bl_run holds from its start to its one cleanup. */
struct run {
    bl_run_options o; /* with defaults for what the caller left unset */
    const bl_run_observer *obs;
    struct job *job;
    size_t n_jobs;
    /* the benchmarks of every job, in the first job's order and then the
     * others' new ones; at[u * n_jobs + j]: name u's index in job j's
     * plan, -1 where job j has no such benchmark */
    char **names;
    size_t n_names;
    long *at;
    bl_results *res;
    struct bl__rng rng;
    size_t total, index; /* launches planned (for progress), started */
    int rc;              /* 0, 1 when a benchmark failed, or a negative error */
    char counters_refused[512];
    struct bl__pass profile; /* the profile pass's prototype; profile == 0: none */
    char profile_dir[PATH_MAX], profile_refused[PATH_MAX + 512];
    char **raw_used; /* the profile raw files given out */
    size_t n_raw_used;
};

/* The run's options with their defaults. */
static void run_defaults(bl_run_options *o)
{
    if (o->count < 1)
        o->count = BL_DEFAULT_LAUNCHES;
    if (!(o->time_s > 0))
        o->time_s = 0.5;
    if (!(o->batch_ms > 0))
        o->batch_ms = 1.0;
    if (!(o->timeout_s > 0))
        o->timeout_s = 60.0;
}

/* A job's executable and --cpu checked. 0 or an error with a message. */
static int job_check(struct job *jb, char *errbuf, size_t errsize)
{
    bl_run_options *o = &jb->o;
    jb->la.o = o;
    jb->la.exe = o->exe;
    if (jb->error) {
        snprintf(errbuf, errsize, "%s", jb->error);
        return BL_ENOTFOUND;
    }
    if (!o->exe) {
        ssize_t n = readlink("/proc/self/exe", jb->self, sizeof jb->self - 1);
        if (n <= 0) {
            snprintf(errbuf, errsize, "cannot find this program's path: %s", strerror(errno));
            return -errno;
        }
        jb->self[n] = '\0';
        jb->la.exe = jb->self;
    } else if (access(o->exe, X_OK) != 0) {
        int e = -errno;
        snprintf(errbuf, errsize, "%s: %s", o->exe, strerror(errno));
        return e;
    }
    return bl__cpus_mask(o->cpus, &jb->la.pin_mask, errbuf, errsize);
}

/* A job name: [A-Za-z0-9_.+-], 1 to 64 bytes (it is a Go-format value and
 * part of metadata keys). */
static bool job_name_ok(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 64)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_.+-", *s))
            return false;
    return true;
}

/* The jobs of the run, each with its options: one without a name when the
 * caller gave none. 0 or an error with a message. */
static int jobs_make(struct run *r, char *errbuf, size_t errsize)
{
    const bl_run_options *o = &r->o;
    size_t n = o->n_jobs ? o->n_jobs : 1;
    if (!(r->job = calloc(n, sizeof *r->job)))
        return -ENOMEM;
    r->n_jobs = n;
    for (size_t j = 0; j < n; j++) {
        struct job *jb = &r->job[j];
        jb->o = *o;
        jb->o.jobs = NULL;
        jb->o.n_jobs = 0;
        if (!o->n_jobs)
            continue;
        const bl_run_job *spec = &o->jobs[j];
        if (!job_name_ok(spec->name)) {
            snprintf(errbuf, errsize, "job '%s': a job's name is 1 to 64 of A-Z a-z 0-9 _ . + -",
                     spec->name ? spec->name : "");
            return BL_EUSAGE;
        }
        for (size_t k = 0; k < j; k++)
            if (strcmp(o->jobs[k].name, spec->name) == 0) {
                snprintf(errbuf, errsize, "job '%s' is given twice", spec->name);
                return BL_EUSAGE;
            }
        if (!spec->exe && !spec->error) {
            snprintf(errbuf, errsize, "job '%s' has no suite", spec->name);
            return BL_EUSAGE;
        }
        jb->name = spec->name;
        jb->o.exe = spec->exe;
        jb->error = spec->error;
        if (spec->cpus)
            jb->o.cpus = spec->cpus;
        size_t ne = 0, k = 0;
        for (size_t i = 0; o->env && o->env[i]; i++)
            ne++;
        for (size_t i = 0; spec->env && spec->env[i]; i++)
            ne++;
        if (!(jb->env = calloc(ne + 1, sizeof *jb->env)))
            return -ENOMEM;
        for (size_t i = 0; o->env && o->env[i]; i++)
            jb->env[k++] = o->env[i];
        for (size_t i = 0; spec->env && spec->env[i]; i++)
            jb->env[k++] = spec->env[i];
        jb->o.env = jb->env;
    }
    if (o->baseline) {
        bool found = false;
        for (size_t j = 0; j < o->n_jobs; j++)
            found |= strcmp(o->jobs[j].name, o->baseline) == 0;
        if (!found) {
            snprintf(errbuf, errsize, "the baseline job '%s' is not one of the jobs", o->baseline);
            return BL_EUSAGE;
        }
    }
    /* a tune file caches batch sizes by benchmark name, and the profile
     * pass has one directory of raw files by name: neither tells jobs apart */
    if (o->n_jobs && o->tune_file) {
        snprintf(errbuf, errsize, "a tune file does not go with jobs: its sizes are by name");
        return BL_EUSAGE;
    }
    if (o->n_jobs && o->profile) {
        snprintf(errbuf, errsize,
                 "the profile pass does not go with jobs: profile each job's suite in a run "
                 "of its own");
        return BL_EUSAGE;
    }
    return 0;
}

/* The run's options checked, its jobs made and the open-file limit
 * checked. 0 or an error with a message. */
static int run_check(struct run *r, char *errbuf, size_t errsize)
{
    run_defaults(&r->o);
    int err = jobs_make(r, errbuf, errsize);
    /* without jobs, what is wrong with the one suite stops the run */
    if (!err && !r->o.n_jobs)
        err = job_check(&r->job[0], errbuf, errsize);
    if (!err && (err = bl__open_files_check()))
        bl__open_files_message(errbuf, errsize);
    return err;
}

/* A job that cannot run: its reason in the metadata "job-errors", as
 * "NAME: why; ...". The other jobs run. */
static void job_failed(bl_results *res, const struct job *jb, const char *why)
{
    const char *old = bl_results_get_meta(res, "job-errors");
    struct bl__buf b = {0};
    bl__buf_printf(&b, "%s%s%s: %s", old ? old : "", old ? "; " : "", jb->name, why);
    if (b.data)
        bl_results_set_meta(res, "job-errors", b.data);
    bl__buf_fini(&b);
}

/* The jobs' plans: each job's matching instances. Without jobs an error
 * stops the run; with jobs a job that fails is said in the metadata and
 * the others run, unless none can. */
static int jobs_plan(struct run *r, char *errbuf, size_t errsize)
{
    size_t ready = 0;
    int first_err = 0;
    for (size_t j = 0; j < r->n_jobs; j++) {
        struct job *jb = &r->job[j];
        char why[1024] = "";
        int err = r->o.n_jobs ? job_check(jb, why, sizeof why) : 0;
        if (!err)
            err = bl__plan_make(&jb->plan, &jb->o, jb->la.pin_mask, &jb->suite, why, sizeof why);
        if (!r->o.n_jobs && err) {
            snprintf(errbuf, errsize, "%s", why);
            return err;
        }
        if (err) {
            if (err == -ENOMEM)
                return err;
            if (!first_err) {
                first_err = err;
                snprintf(errbuf, errsize, "job '%s': %s", jb->name, why);
            }
            job_failed(r->res, jb, why);
            continue;
        }
        jb->ready = true;
        ready++;
    }
    if (!ready)
        return first_err ? first_err : BL_ENOTFOUND;
    return 0;
}

static const char *name_key(const void *arr, size_t i)
{
    return ((char *const *)arr)[i];
}

/* The union of the jobs' benchmark names and where each job has them. */
static int jobs_match(struct run *r)
{
    size_t cap = 0;
    for (size_t j = 0; j < r->n_jobs; j++)
        cap += r->job[j].plan.n;
    struct bl__strindex ix = {0};
    r->names = calloc(cap ? cap : 1, sizeof *r->names);
    r->at = malloc((cap ? cap : 1) * r->n_jobs * sizeof *r->at);
    if (!r->names || !r->at)
        return -ENOMEM;
    for (size_t j = 0; j < r->n_jobs; j++) {
        const struct bl__plan *p = &r->job[j].plan;
        for (size_t i = 0; i < p->n; i++) {
            long u = bl__strindex_find(&ix, p->names[i], strlen(p->names[i]), name_key, r->names);
            if (u < 0) {
                u = (long)r->n_names++;
                r->names[u] = p->names[i]; /* borrowed from the plan */
                for (size_t k = 0; k < r->n_jobs; k++)
                    r->at[(size_t)u * r->n_jobs + k] = -1;
                if (bl__strindex_add(&ix, p->names[i], (size_t)u)) {
                    bl__strindex_fini(&ix);
                    return -ENOMEM;
                }
            }
            r->at[(size_t)u * r->n_jobs + j] = (long)i;
        }
    }
    bl__strindex_fini(&ix);
    /* a benchmark some jobs lack runs in the others, and is said */
    struct bl__buf miss = {0};
    for (size_t u = 0; r->o.n_jobs && u < r->n_names; u++) {
        bool lacks = false;
        for (size_t j = 0; j < r->n_jobs; j++)
            lacks |= r->job[j].ready && r->at[u * r->n_jobs + j] < 0;
        if (!lacks)
            continue;
        bl__buf_printf(&miss, "%s%s (not in", miss.len ? "; " : "", r->names[u]);
        bool first = true;
        for (size_t j = 0; j < r->n_jobs; j++)
            if (r->job[j].ready && r->at[u * r->n_jobs + j] < 0) {
                bl__buf_printf(&miss, "%s%s", first ? " " : ", ", r->job[j].name);
                first = false;
            }
        bl__buf_printf(&miss, ")");
    }
    if (miss.data)
        bl_results_set_meta(r->res, "job-missing", miss.data);
    bl__buf_fini(&miss);
    return 0;
}

/* What the instruments need before the first launch: the allocation
 * counter's and the counters' refusals, the profile's directory and
 * sampler. 0 or an error with a message. */
static int run_instruments(struct run *r, char *errbuf, size_t errsize)
{
    const bl_run_options *o = &r->o;
    for (size_t j = 0; j < r->n_jobs; j++) {
        struct job *jb = &r->job[j];
        if (!jb->ready)
            continue;
        if (o->alloc)
            bl__alloc_check_exe(jb->la.exe, jb->alloc_refused, sizeof jb->alloc_refused);
        if (o->instructions) {
            int rc = bl__instr_setup(&jb->instr, &jb->o, jb->la.exe, r->res, errbuf, errsize);
            if (rc)
                return rc;
            if (!(jb->instr_reps = calloc(jb->plan.n > 0 ? jb->plan.n : 1, sizeof *jb->instr_reps)))
                return -ENOMEM;
        }
    }
    if (o->counters) {
        int idx[BL__MAX_HW_COUNTERS], nc;
        if (bl__hw_counters_parse(o->counters, idx, &nc, r->counters_refused,
                                  sizeof r->counters_refused) == 0)
            bl__hw_counters_probe(idx, nc, r->counters_refused, sizeof r->counters_refused);
        if (r->counters_refused[0])
            bl_results_set_meta(r->res, "counters-unsupported", r->counters_refused);
    }
    r->profile = (struct bl__pass){.preload_fd = -1};
    if (!o->profile)
        return 0;
    return bl__pass_profile_setup(&r->job[0].o, r->job[0].la.exe, r->res, &r->profile,
                                  r->profile_dir, sizeof r->profile_dir, r->profile_refused,
                                  sizeof r->profile_refused, errbuf, errsize);
}

/* The passes of benchmark i of job jb before its first launch. false when
 * the user interrupted one. */
static bool run_passes(struct run *r, struct job *jb, size_t i, bl_bench_result *b)
{
    const bl_run_options *o = &r->o;
    const char *name = jb->plan.names[i];
    if (o->alloc) {
        if (jb->alloc_refused[0]) {
            b->alloc_message = bl__strdup(jb->alloc_refused);
        } else {
            bl__pass_alloc(&jb->la, bl__rng_next(&r->rng) | 1, b);
            if (bl__run_interrupted())
                return false;
        }
    }
    if (o->counters && !r->counters_refused[0]) {
        bl__pass_counters(&jb->la, bl__rng_next(&r->rng) | 1, b);
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
            bl__pass_profile(&jb->la, bl__rng_next(&r->rng) | 1, b, &r->profile, raw);
        free(raw);
        if (bl__run_interrupted())
            return false;
        if (r->obs && r->obs->on_profile)
            r->obs->on_profile(r->obs->ctx, r->res, b);
    }
    return true;
}

/* One launch of benchmark i of job jb in `round` (its passes first in
 * round 0). false when the round stops: interrupted, or out of memory
 * (r->rc). */
static bool run_bench(struct run *r, struct job *jb, size_t i, int round)
{
    const bl_run_observer *obs = r->obs;
    const char *name = jb->plan.names[i];
    bool replacement = round >= jb->plan.entry[i].count;
    if (obs && obs->on_start)
        obs->on_start(obs->ctx, name, r->index < r->total ? r->index : r->total - 1, r->total);
    r->index++;
    bl_bench_result *b = bl_results_bench_job(r->res, jb->name, name);
    if (!b) {
        r->rc = -ENOMEM;
        return false;
    }
    const struct bl__plan_entry *pe = &jb->plan.entry[i];
    if (round == 0) {
        /* its own plan, for the outputs: the metadata say the run's */
        b->own_time_s = pe->time_s != r->o.time_s ? pe->time_s : 0;
        b->own_count = pe->count != r->o.count ? pe->count : 0;
        if (!run_passes(r, jb, i, b))
            return false;
    }
    bl_launch *l = bl_results_add_launch(b);
    if (!l) {
        r->rc = -ENOMEM;
        return false;
    }
    int how = bl__launch_run(&jb->la, name, bl__rng_next(&r->rng) | 1, l, NULL,
                             bl__plan_reps(&jb->plan, i), pe->time_s / pe->count);
    /* the launch is in the results whatever happened to its worker */
    BL__CHECK(b->n_launches > 0 && l == &b->launches[b->n_launches - 1]);
    bl__plan_tuned(&jb->plan, i, l);
    if (how == BL__LAUNCH_OK && r->o.instructions && l->status == 0 && !l->skipped &&
        !bl__run_interrupted())
        how = bl__pass_instructions(&jb->la, &jb->instr, bl__rng_next(&r->rng) | 1, name,
                                    &jb->instr_reps[i], l);
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
    bl__plan_ended(&jb->plan, i, how, replacement);
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

/* The rounds: each benchmark once a round in every job that has it, its
 * jobs back to back in an order that turns by one each round (so that no
 * job always runs first), `count` rounds, then rounds of replacements
 * while any is owed. */
static void run_rounds(struct run *r)
{
    int max_count = 0;
    for (size_t j = 0; j < r->n_jobs; j++)
        if (r->job[j].ready && bl__plan_max_count(&r->job[j].plan) > max_count)
            max_count = bl__plan_max_count(&r->job[j].plan);
    for (int round = 0; !bl__run_interrupted() && r->rc >= 0; round++) {
        bool any = false, stop = false;
        for (size_t u = 0; u < r->n_names && !stop && !bl__run_interrupted(); u++)
            for (size_t t = 0; t < r->n_jobs && !stop; t++) {
                size_t j = (t + (size_t)round) % r->n_jobs;
                long i = r->at[u * r->n_jobs + j];
                if (i < 0 || !bl__plan_wants(&r->job[j].plan, (size_t)i, round))
                    continue;
                any = true;
                stop = !run_bench(r, &r->job[j], (size_t)i, round);
            }
        if (!any && round >= max_count)
            break;
    }
}

/* What each job is, in the metadata: job.NAME.exe, .env, .compiler, .cflags. */
static void jobs_header(struct run *r)
{
    struct bl__buf names = {0};
    for (size_t j = 0; j < r->o.n_jobs; j++) {
        const struct job *jb = &r->job[j];
        bl__buf_printf(&names, "%s%s", j ? " " : "", jb->name);
        char key[128], compiler[256], flags[1024];
        snprintf(key, sizeof key, "job.%s.exe", jb->name);
        if (jb->o.exe)
            bl_results_set_meta(r->res, key, jb->o.exe);
        struct bl__buf env = {0};
        for (size_t i = 0; r->o.jobs[j].env && r->o.jobs[j].env[i]; i++)
            bl__buf_printf(&env, "%s%s", i ? " " : "", r->o.jobs[j].env[i]);
        snprintf(key, sizeof key, "job.%s.env", jb->name);
        if (env.data)
            bl_results_set_meta(r->res, key, env.data);
        bl__buf_fini(&env);
        if (r->o.jobs[j].cpus) {
            snprintf(key, sizeof key, "job.%s.cpus", jb->name);
            bl_results_set_meta(r->res, key, r->o.jobs[j].cpus);
        }
        if (!jb->ready)
            continue;
        bl__build_info(jb->la.exe, compiler, sizeof compiler, flags, sizeof flags);
        snprintf(key, sizeof key, "job.%s.compiler", jb->name);
        if (compiler[0])
            bl_results_set_meta(r->res, key, compiler);
        snprintf(key, sizeof key, "job.%s.cflags", jb->name);
        if (flags[0])
            bl_results_set_meta(r->res, key, flags);
    }
    if (names.data)
        bl_results_set_meta(r->res, "jobs", names.data);
    bl__buf_fini(&names);
    bl_results_set_meta(r->res, "baseline-job", r->o.baseline ? r->o.baseline : r->job[0].name);
}

static void run_free(struct run *r)
{
    for (size_t j = 0; j < r->n_jobs; j++) {
        free(r->job[j].suite);
        bl__plan_fini(&r->job[j].plan);
        free(r->job[j].instr_reps);
        free(r->job[j].env);
    }
    free(r->job);
    free(r->names); /* borrowed strings */
    free(r->at);
    bl_names_free(r->raw_used, r->n_raw_used);
    free(r);
}

int bl_run(const bl_run_options *opts, const bl_run_observer *obs, bl_results **out, char *errbuf,
           size_t errsize)
{
    struct run *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    r->o = *opts;
    r->obs = obs;
    int err = run_check(r, errbuf, errsize);
    if (!err && !(r->res = bl_results_create()))
        err = -ENOMEM;
    /* the plans: each job's matching instances, each `count` times,
     * interleaved by round */
    if (!err)
        err = jobs_plan(r, errbuf, errsize);
    if (!err)
        err = jobs_match(r);
    if (err) {
        bl_results_destroy(r->res);
        run_free(r);
        return err;
    }
    const struct job *first = &r->job[0];
    for (size_t j = 0; !first->ready && j < r->n_jobs; j++)
        first = &r->job[j];
    fill_header(r->res, &r->o, first->la.exe, first->suite, r->o.n_jobs == 0);
    if (r->o.n_jobs)
        jobs_header(r);
    *out = r->res;
    for (size_t j = 0; j < r->n_jobs; j++) {
        if (r->job[j].plan.tune.note)
            bl_results_set_meta(r->res, "tune-note", r->job[j].plan.tune.note);
        r->total += bl__plan_total(&r->job[j].plan);
    }
    bl__rng_seed(&r->rng, r->o.seed ? r->o.seed : bl__now_ns() ^ (uint64_t)getpid());
    err = run_instruments(r, errbuf, errsize);
    if (!err) {
        if (obs && obs->on_begin)
            obs->on_begin(obs->ctx, r->res, r->total);
        run_rounds(r);
        keep_disturbed(r->res);
        for (size_t j = 0; j < r->n_jobs; j++)
            bl__plan_finish(&r->job[j].plan, r->res);
        if (r->rc == 0)
            r->rc = run_verdict(r->res);
        /* a job that could not run fails the run, as a broken benchmark does */
        if (r->rc == 0 && bl_results_get_meta(r->res, "job-errors"))
            r->rc = 1;
        /* complexity fits over what finished, interrupted or not; without
         * memory for them the measurements still stand, unfitted */
        (void)bl_results_fit_complexity(r->res, r->o.complexity != 0);
        err = bl__run_interrupted() ? BL_EINTR : r->rc;
    }
    run_free(r);
    return err;
}
