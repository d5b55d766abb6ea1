/*
 * workload.c - the benchmarks of bench/refcycles: one compute-bound (a
 * chain of dependent multiply-adds, whose time is a fixed number of core
 * cycles) and two memory-bound ones, whose time does not follow the core
 * clock: a copy of 16 MiB (memory bandwidth) and a random pointer chase
 * over 64 MiB (memory latency and TLB misses).
 */
#include <benchlab.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

BENCHLAB(Compute)
{
    uint64_t x = 1;
    while (bl_loop(st)) {
        for (int i = 0; i < 1000; i++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            __asm__ volatile("" : "+r"(x));
        }
    }
    bl_do_not_optimize(x);
}

#define CHASE_N (8u << 20) /* 8 Mi pointers: 64 MiB */

BENCHLAB(Chase)
{
    size_t *next = malloc(CHASE_N * sizeof *next);
    if (!next) {
        bl_fail(st, "out of memory");
        return;
    }
    /* one random cycle through all slots (Sattolo) */
    for (size_t i = 0; i < CHASE_N; i++)
        next[i] = i;
    uint64_t r = 88172645463325252u;
    for (size_t i = CHASE_N - 1; i > 0; i--) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        size_t j = (size_t)(r % i), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    size_t p = 0;
    while (bl_loop(st)) {
        for (int i = 0; i < 100; i++)
            p = next[p];
    }
    bl_do_not_optimize(p);
    free(next);
}

#define COPY_BYTES (16u << 20)

BENCHLAB(Copy)
{
    char *src = malloc(COPY_BYTES), *dst = malloc(COPY_BYTES);
    if (!src || !dst) {
        free(src);
        free(dst);
        bl_fail(st, "out of memory");
        return;
    }
    memset(src, 1, COPY_BYTES);
    memset(dst, 2, COPY_BYTES);
    while (bl_loop(st)) {
        memcpy(dst, src, COPY_BYTES);
        bl_escape(dst);
    }
    bl_set_bytes_per_op(st, COPY_BYTES);
    free(src);
    free(dst);
}

BENCHLAB_MAIN()
