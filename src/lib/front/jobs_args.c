/*
 * jobs_args.c - `benchlab run`'s job options into the run's jobs:
 * --job NAME=SUITE, --env [JOB:]VAR=VALUE and --baseline NAME
 * (docs/jobs.md); with --cmake DIR --target T [--build-dir DIR], each
 * job's value is CMake arguments and its suite is built here first
 * (engine/jobs_build.c). The run itself (engine/run.c) checks the names,
 * the suites and the baseline; here only the shape of each option.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "../engine/engine.h"
#include "benchlab/exec.h"
#include "front.h"

/* A variable's text is VAR=VALUE with VAR not empty and without '='. */
static int env_ok(const char *s)
{
    const char *eq = strchr(s, '=');
    return eq && eq > s;
}

/* Append p to a NULL-terminated list. */
static int list_add(const char ***list, size_t *n, const char *p)
{
    const char **l = realloc(*list, (*n + 2) * sizeof *l);
    if (!l)
        return -ENOMEM;
    l[(*n)++] = p;
    l[*n] = NULL;
    *list = l;
    return 0;
}

int bl__jobs_take(struct bl__jobs_args *ja, const struct bl__hit *h, char *err, size_t err_size)
{
    const char *v = h->value;
    switch (h->opt->id) {
    case BL__ID_JOB: {
        const char *eq = strchr(v, '=');
        if (!eq || eq == v) { /* NAME= is a --cmake job of no arguments */
            snprintf(err, err_size, "--job '%s': give NAME=SUITE, such as gcc=build-gcc/suite", v);
            return BL_EUSAGE;
        }
        bl_run_job *jobs = realloc(ja->jobs, (ja->n + 1) * sizeof *jobs);
        struct bl__job_env *envs = realloc(ja->env, (ja->n + 1) * sizeof *envs);
        if (jobs)
            ja->jobs = jobs;
        if (envs)
            ja->env = envs;
        char *name = jobs && envs ? strndup(v, (size_t)(eq - v)) : NULL;
        if (!name)
            return -ENOMEM;
        ja->jobs[ja->n] = (bl_run_job){.name = name, .exe = eq + 1};
        ja->env[ja->n] = (struct bl__job_env){0};
        ja->n++;
        return 1;
    }
    case BL__ID_ENV: {
        /* JOB: before the first '=' names a job; a variable's name has no ':' */
        const char *eq = strchr(v, '='), *colon = strchr(v, ':');
        if (colon && eq && colon < eq) {
            if (!env_ok(colon + 1) || colon == v) {
                snprintf(err, err_size, "--env '%s': give JOB:VAR=VALUE or VAR=VALUE", v);
                return BL_EUSAGE;
            }
            return list_add(&ja->pending, &ja->n_pending, v) ? -ENOMEM : 1;
        }
        if (!env_ok(v)) {
            snprintf(err, err_size, "--env '%s': give VAR=VALUE or JOB:VAR=VALUE", v);
            return BL_EUSAGE;
        }
        return list_add(&ja->all, &ja->n_all, v) ? -ENOMEM : 1;
    }
    case BL__ID_BASELINE_JOB:
        ja->baseline = v;
        return 1;
    case BL__ID_CPU: {
        /* JOB:LIST is one job's; a CPU list itself has no ':' (the suite's
         * own --cpu is suite_main's) */
        const char *colon = strchr(v, ':');
        if (!colon)
            return 0;
        if (colon == v || !colon[1]) {
            snprintf(err, err_size, "--cpu '%s': give JOB:LIST or LIST, such as gcc:2 or 0-3", v);
            return BL_EUSAGE;
        }
        return list_add(&ja->pending_cpus, &ja->n_pending_cpus, v) ? -ENOMEM : 1;
    }
    case BL__ID_CMAKE:
        ja->cmake = v;
        return 1;
    case BL__ID_TARGET:
        ja->target = v;
        return 1;
    case BL__ID_BUILD_DIR:
        ja->build_dir = v;
        return 1;
    default:
        return 0;
    }
}

/* The index of the job named by the n bytes at name, or -1. */
static long job_named(const struct bl__jobs_args *ja, const char *name, size_t n)
{
    for (size_t k = 0; k < ja->n; k++)
        if (strlen(ja->jobs[k].name) == n && memcmp(ja->jobs[k].name, name, n) == 0)
            return (long)k;
    return -1;
}

int bl__jobs_finish(struct bl__jobs_args *ja, bl_run_options *o, char *err, size_t err_size)
{
    /* a job's variables, to the job they name (given before or after it) */
    for (size_t i = 0; i < ja->n_pending; i++) {
        const char *v = ja->pending[i], *colon = strchr(v, ':');
        long k = job_named(ja, v, (size_t)(colon - v));
        if (k < 0) {
            snprintf(err, err_size, "--env '%s': no --job is named '%.*s'", v, (int)(colon - v), v);
            return BL_EUSAGE;
        }
        if (list_add(&ja->env[k].vars, &ja->env[k].n, colon + 1))
            return -ENOMEM;
        ja->jobs[k].env = ja->env[k].vars;
    }
    for (size_t i = 0; i < ja->n_pending_cpus; i++) {
        const char *v = ja->pending_cpus[i], *colon = strchr(v, ':');
        long k = job_named(ja, v, (size_t)(colon - v));
        if (k < 0) {
            snprintf(err, err_size, "--cpu '%s': %s", v,
                     ja->n ? "no --job is named so" : "there are no jobs (--job NAME=SUITE)");
            return BL_EUSAGE;
        }
        ja->jobs[k].cpus = colon + 1;
    }
    if (ja->cmake && !ja->target) {
        snprintf(err, err_size, "--cmake %s: name the suite's target too (--target T)", ja->cmake);
        return BL_EUSAGE;
    }
    if (!ja->cmake && (ja->target || ja->build_dir)) {
        snprintf(err, err_size, "--%s goes with --cmake DIR", ja->target ? "target" : "build-dir");
        return BL_EUSAGE;
    }
    if (ja->cmake && !ja->n) {
        snprintf(err, err_size, "--cmake %s: give the variants as jobs: --job NAME='CMAKE ARGS'",
                 ja->cmake);
        return BL_EUSAGE;
    }
    for (size_t k = 0; k < ja->n; k++)
        if (!ja->cmake && !*ja->jobs[k].exe) {
            snprintf(err, err_size, "--job %s=: give NAME=SUITE, such as gcc=build-gcc/suite",
                     ja->jobs[k].name);
            return BL_EUSAGE;
        }
    if (ja->cmake) {
        /* each job's value is its CMake arguments; its suite comes from
         * bl__jobs_build, after the outputs are checked */
        ja->args = calloc(ja->n, sizeof *ja->args);
        ja->built = calloc(ja->n, sizeof *ja->built);
        ja->failed = calloc(ja->n, sizeof *ja->failed);
        if (!ja->args || !ja->built || !ja->failed)
            return -ENOMEM;
        for (size_t k = 0; k < ja->n; k++) {
            const char *v = ja->jobs[k].exe;
            int rc = v[strspn(v, " \t")]                         ? bl_exec_split(v, &ja->args[k])
                     : (ja->args[k] = calloc(1, sizeof(char *))) ? 0
                                                                 : -ENOMEM;
            if (rc == -ENOMEM)
                return rc;
            if (rc) {
                snprintf(err, err_size,
                         "--job %s='%s': cannot be split into words (an open quote?)",
                         ja->jobs[k].name, ja->jobs[k].exe);
                return BL_EUSAGE;
            }
            ja->jobs[k].exe = NULL;
        }
    }
    if (ja->n == 1) {
        snprintf(err, err_size,
                 "--job: one job only; give two or more to compare them, or run the suite "
                 "itself");
        return BL_EUSAGE;
    }
    if (ja->baseline && !ja->n) {
        snprintf(err, err_size, "--baseline: there are no jobs (--job NAME=SUITE)");
        return BL_EUSAGE;
    }
    if (ja->n_pending && !ja->n) {
        snprintf(err, err_size, "--env '%s': there are no jobs (--job NAME=SUITE)", ja->pending[0]);
        return BL_EUSAGE;
    }
    o->env = ja->all;
    o->jobs = ja->jobs;
    o->n_jobs = ja->n;
    o->baseline = ja->baseline;
    return 0;
}

int bl__jobs_build(struct bl__jobs_args *ja, const char *prog)
{
    if (!ja->cmake)
        return 0;
    struct bl__cmake_jobs c = {.source = ja->cmake,
                               .target = ja->target,
                               .root = ja->build_dir ? ja->build_dir : "benchlab-jobs",
                               .log = stderr};
    char err[1024] = "";
    int rc = bl__jobs_cmake(&c, ja->jobs, (char *const *const *)ja->args, ja->n, ja->built,
                            ja->failed, err, sizeof err);
    if (rc == 0)
        return 0;
    if (rc == BL_EINTR)
        fprintf(stderr, "%s: interrupted while building the jobs; nothing was measured\n", prog);
    else
        fprintf(stderr, "%s: %s; nothing was measured\n", prog,
                rc == -ENOMEM ? bl_strerror(rc) : err);
    return 2;
}

void bl__jobs_fini(struct bl__jobs_args *ja)
{
    for (size_t k = 0; k < ja->n; k++) {
        free((char *)ja->jobs[k].name);
        free(ja->env[k].vars);
        if (ja->args)
            bl_exec_argv_free(ja->args[k]);
        if (ja->built)
            free(ja->built[k]);
        if (ja->failed)
            free(ja->failed[k]);
    }
    free(ja->args);
    free(ja->built);
    free(ja->failed);
    free(ja->jobs);
    free(ja->env);
    free(ja->all);
    free(ja->pending);
    free(ja->pending_cpus);
    memset(ja, 0, sizeof *ja);
}
