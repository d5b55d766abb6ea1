/*
 * suite.c - the reference workloads (workloads.h) as a benchlab suite.
 * Built once per level: -DQUALITY_LEVEL=0 (the base), 1, 2 or 5 percent
 * more work. The level is a volatile global, so the builds differ only in
 * that constant's value, not in their code.
 */
#include <benchlab.h>

#include "workloads.h"

#ifndef QUALITY_LEVEL
#define QUALITY_LEVEL 0
#endif
volatile int quality_level = QUALITY_LEVEL;

BENCHLAB(Ns1)
{
    struct qw_ns1 w;
    qw_ns1_init(&w, quality_level);
    while (bl_loop(st))
        qw_ns1_op(&w);
    bl_do_not_optimize(w.x);
}

BENCHLAB(Ns20)
{
    struct qw_ns20 w;
    qw_ns20_init(&w, quality_level);
    while (bl_loop(st))
        qw_ns20_op(&w);
    bl_do_not_optimize(w.h);
}

BENCHLAB(Sort)
{
    struct qw_sort w;
    qw_sort_init(&w, quality_level);
    while (bl_loop(st))
        qw_sort_op(&w);
}

BENCHLAB(Copy)
{
    struct qw_copy w;
    if (qw_copy_init(&w, quality_level)) {
        bl_fail(st, "out of memory");
        return;
    }
    while (bl_loop(st))
        qw_copy_op(&w);
    bl_set_bytes_per_op(st, (double)w.bytes);
    qw_copy_fini(&w);
}

BENCHLAB(Compute)
{
    struct qw_compute w;
    qw_compute_init(&w, quality_level);
    while (bl_loop(st))
        qw_compute_op(&w);
    bl_do_not_optimize(w.x);
}

BENCHLAB(Alloc)
{
    struct qw_alloc w;
    qw_alloc_init(&w, quality_level);
    while (bl_loop(st))
        qw_alloc_op(&w);
}

BENCHLAB_MAIN()
