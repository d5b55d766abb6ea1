/*
 * truth.c - the realised difference of each workload variant, measured in
 * one process: base (level 0) and variant (level 1, 2, 5) alternate in
 * ABBA blocks of runs of about 2 ms each, for a long time, and the
 * difference is the median over blocks of (B1 + B2) / (A1 + A2) - 1. Both
 * sides run the same source (workloads.h) in the same process, so layout
 * and the machine's drift cancel; what is left is the knob's real effect.
 * Runs are timed in thread CPU time: on a shared machine wall time would
 * measure the neighbours (on the 2-core reference VM under a load of 10,
 * nearly every 8 ms block saw a preemption). What a preemption still
 * costs in CPU time (cold caches) lands in a few blocks, and the median
 * over blocks leaves them out. The output counts the preempted blocks.
 *
 * usage: truth SECONDS_PER_VARIANT
 * output: one line per workload and level:
 *   "truth WORKLOAD LEVEL PERCENT LO HI BLOCKS PREEMPTED"
 * (LO, HI: the interquartile range of the block ratios, in percent).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "workloads.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

static long switches(void)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return ru.ru_nivcsw;
}

static int preempted; /* set by run() when the thread was switched out */

enum { NS1, NS20, SORT, COPY, COMPUTE, ALLOC, N_WORKLOADS };
static const char *const names[N_WORKLOADS] = {"Ns1", "Ns20", "Sort", "Copy", "Compute", "Alloc"};

struct inst {
    int kind;
    union {
        struct qw_ns1 ns1;
        struct qw_ns20 ns20;
        struct qw_sort sort;
        struct qw_copy copy;
        struct qw_compute compute;
        struct qw_alloc alloc;
    } u;
};

static int inst_init(struct inst *in, int kind, int level)
{
    in->kind = kind;
    switch (kind) {
    case NS1:
        qw_ns1_init(&in->u.ns1, level);
        return 0;
    case NS20:
        qw_ns20_init(&in->u.ns20, level);
        return 0;
    case SORT:
        qw_sort_init(&in->u.sort, level);
        return 0;
    case COPY:
        return qw_copy_init(&in->u.copy, level);
    case COMPUTE:
        qw_compute_init(&in->u.compute, level);
        return 0;
    default:
        qw_alloc_init(&in->u.alloc, level);
        return 0;
    }
}

/* Time `ops` operations: seconds of thread CPU time. */
static double run(struct inst *in, long ops)
{
    long sw = switches();
    double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    switch (in->kind) {
    case NS1:
        for (long i = 0; i < ops; i++)
            qw_ns1_op(&in->u.ns1);
        QW_KEEP(in->u.ns1.x);
        break;
    case NS20:
        for (long i = 0; i < ops; i++)
            qw_ns20_op(&in->u.ns20);
        QW_KEEP(in->u.ns20.h);
        break;
    case SORT:
        for (long i = 0; i < ops; i++)
            qw_sort_op(&in->u.sort);
        break;
    case COPY:
        for (long i = 0; i < ops; i++)
            qw_copy_op(&in->u.copy);
        break;
    case COMPUTE:
        for (long i = 0; i < ops; i++)
            qw_compute_op(&in->u.compute);
        QW_KEEP(in->u.compute.x);
        break;
    default:
        for (long i = 0; i < ops; i++)
            qw_alloc_op(&in->u.alloc);
        break;
    }
    double t = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
    preempted |= switches() != sw;
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 4.0;
    static const int levels[] = {1, 2, 5};
    for (int k = 0; k < N_WORKLOADS; k++) {
        struct inst base;
        if (inst_init(&base, k, 0)) {
            fprintf(stderr, "truth: out of memory\n");
            return 1;
        }
        /* ops per run: about 2 ms (at least one op), from a warm measurement */
        long ops = 1;
        run(&base, 1);
        while (run(&base, ops) < 0.0005)
            ops *= 2;
        ops = (long)((double)ops * 0.002 / run(&base, ops)) + 1;
        for (size_t li = 0; li < sizeof levels / sizeof *levels; li++) {
            struct inst var;
            if (inst_init(&var, k, levels[li])) {
                fprintf(stderr, "truth: out of memory\n");
                return 1;
            }
            if (k == COPY) {
                /* the same memory as the base: which pages a buffer gets
                 * moves a memory-bound copy by more than its knob, and the
                 * knob (bytes per op) is what is measured here */
                qw_copy_fini(&var.u.copy);
                var.u.copy.src = base.u.copy.src;
                var.u.copy.dst = base.u.copy.dst;
            }
            size_t cap = 100000, n = 0, dropped = 0; /* dropped: preempted blocks */
            double *ratio = malloc(cap * sizeof *ratio);
            double end = now_s() + seconds;
            run(&var, ops);
            while ((now_s() < end || n < 20) && n < cap) {
                double a1, a2, b1, b2;
                preempted = 0;
                if (n % 2 == 0) { /* ABBA, then BAAB */
                    a1 = run(&base, ops);
                    b1 = run(&var, ops);
                    b2 = run(&var, ops);
                    a2 = run(&base, ops);
                } else {
                    b1 = run(&var, ops);
                    a1 = run(&base, ops);
                    a2 = run(&base, ops);
                    b2 = run(&var, ops);
                }
                dropped += preempted != 0;
                ratio[n++] = (b1 + b2) / (a1 + a2);
            }
            if (n == 0) {
                printf("truth %s %d nan nan nan 0 %zu\n", names[k], levels[li], dropped);
                free(ratio);
                continue;
            }
            qsort(ratio, n, sizeof *ratio, cmp);
            printf("truth %s %d %.3f %.3f %.3f %zu %zu\n", names[k], levels[li],
                   100 * (ratio[n / 2] - 1), 100 * (ratio[n / 4] - 1), 100 * (ratio[3 * n / 4] - 1),
                   n, dropped);
            fflush(stdout);
            free(ratio);
        }
        if (k == COPY)
            qw_copy_fini(&base.u.copy);
    }
    return 0;
}
