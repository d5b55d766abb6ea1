/*
 * fixture_jobs.c - one suite for the jobs tests (tests/jobs/e2e.sh), built
 * by the project's compiler and by clang. Work does BL_JOBS_FACTOR times
 * its base work (1 when unset), read from the worker's environment, so a
 * job given `--env NAME:BL_JOBS_FACTOR=2` does twice the work of one
 * without; it reports the factor it read as the metric "factor", which
 * says exactly which environment each job's workers saw. Same never reads
 * the variable; it reports the CPU its loop ended on as the metric "cpu",
 * which a job pinned to one CPU (--cpu JOB:N) makes exact.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <benchlab.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

/* A chain of dependent multiply-adds the compiler cannot shorten. */
static uint64_t chain(uint64_t x, int n)
{
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

static int factor(void)
{
    const char *s = getenv("BL_JOBS_FACTOR");
    int f = s ? atoi(s) : 1;
    return f >= 1 && f <= 8 ? f : 1;
}

BENCHLAB(Work)
{
    int f = factor();
    uint64_t x = 1;
    while (bl_loop(st))
        x = chain(x, 100 * f);
    bl_do_not_optimize(x);
    bl_report_metric(st, f, "factor");
}

BENCHLAB(Same)
{
    uint64_t x = 1;
    while (bl_loop(st))
        x = chain(x, 100);
    bl_do_not_optimize(x);
    bl_report_metric(st, sched_getcpu(), "cpu");
}

BENCHLAB_MAIN()
