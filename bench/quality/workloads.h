/*
 * workloads.h - the reference workloads of bench/quality, shared by the
 * benchlab suite (suite.c), the Google Benchmark program (gbench.cc) and
 * the in-process truth measurement (truth.c), so that all three run the
 * same machine code.
 *
 * Each workload does a known few percent more work at `level` percent
 * (0, 1, 2, 5). The level is a runtime value everywhere: the builds used
 * for A/B differ only in the constant a volatile global starts with, never
 * in their code, and truth.c measures the realised difference of exactly
 * that code. How the extra work is added depends on the size of an op:
 *
 *  - short ops (ns1, ns20, sort, alloc): every 100th op does `level`
 *    extra ops' worth of the same work. A batch holds hundreds to
 *    millions of ops, so every batch (and a median of batches) sees the
 *    extra share;
 *  - long ops (copy, compute): each op does (100 + level)% of the base
 *    work: more bytes, more iterations. (With a few ops per batch, extra
 *    whole ops would land in a few batches, which a median leaves out.)
 *
 * A knob is not exact (caches, branch predictors, alignment): truth.c
 * prints the realised differences, and the table uses those.
 */
#ifndef BENCH_QUALITY_WORKLOADS_H
#define BENCH_QUALITY_WORKLOADS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* keep a value alive without a memory round trip (as the suites' sinks) */
#define QW_KEEP(v) __asm__ volatile("" : : "r"(v))
#define QW_CLOBBER() __asm__ volatile("" : : : "memory")

/* One step of a dependent chain: shift, add, xor, 3 cycles of latency. */
static inline uint64_t qw_step(uint64_t x)
{
    x += x >> 7;
    return x ^ 0x9E3779B97F4A7C15ull;
}

/* ---- ns1: one chain step per op (about 1 ns) ---------------------------- */

struct qw_ns1 {
    uint64_t x;
    int left; /* ops to the next extra */
    int level;
};

static inline void qw_ns1_init(struct qw_ns1 *w, int level)
{
    w->x = 12345;
    w->left = 100;
    w->level = level;
}

static inline void qw_ns1_op(struct qw_ns1 *w)
{
    uint64_t x = qw_step(w->x);
    if (__builtin_expect(--w->left == 0, 0)) {
        w->left = 100;
        for (int j = 0; j < w->level; j++)
            x = qw_step(x);
    }
    w->x = x;
}

/* ---- ns20: FNV-1a over 14 bytes (a dependent multiply chain, ~20 ns) ---- */

#define QW_NS20_BYTES 14

struct qw_ns20 {
    unsigned char buf[QW_NS20_BYTES];
    uint64_t h;
    int left;
    int level;
};

static inline void qw_ns20_init(struct qw_ns20 *w, int level)
{
    for (int i = 0; i < QW_NS20_BYTES; i++)
        w->buf[i] = (unsigned char)(i * 37 + 11);
    w->h = 0;
    w->left = 100;
    w->level = level;
}

static inline uint64_t qw_fnv(const unsigned char *p, uint64_t seed)
{
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (int i = 0; i < QW_NS20_BYTES; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static inline void qw_ns20_op(struct qw_ns20 *w)
{
    uint64_t h = qw_fnv(w->buf, w->h);
    if (__builtin_expect(--w->left == 0, 0)) {
        w->left = 100;
        for (int j = 0; j < w->level; j++)
            h = qw_fnv(w->buf, h);
    }
    w->h = h;
}

/* ---- sort: insertion sort of a 64-int array (about 0.5 us) --------------- */

#define QW_SORT_N 64

struct qw_sort {
    int src[QW_SORT_N];
    int dst[QW_SORT_N];
    int left;
    int level;
};

static inline void qw_sort_init(struct qw_sort *w, int level)
{
    uint32_t s = 2463534242u;
    for (int i = 0; i < QW_SORT_N; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        w->src[i] = (int)(s % 100000);
    }
    w->left = 100;
    w->level = level;
}

static inline void qw_sort_once(struct qw_sort *w)
{
    memcpy(w->dst, w->src, sizeof w->dst);
    QW_CLOBBER();
    int *a = w->dst;
    for (int i = 1; i < QW_SORT_N; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
    QW_CLOBBER();
}

static inline void qw_sort_op(struct qw_sort *w)
{
    qw_sort_once(w);
    if (__builtin_expect(--w->left == 0, 0)) {
        w->left = 100;
        for (int j = 0; j < w->level; j++)
            qw_sort_once(w);
    }
}

/* ---- copy: memcpy of 512 KiB chunks of 32 MiB regions (about 80 us) -----
 * Each op copies the next chunk, so the data always comes from beyond the
 * per-core L2 (2 MiB here): the copy runs at memory (or L3) bandwidth. */

#define QW_COPY_CHUNK (512u << 10)
#define QW_COPY_CHUNKS 32 /* each with 2 chunks of room: 32 MiB per side */

struct qw_copy {
    unsigned char *src, *dst;
    size_t bytes; /* per op */
    int next;
};

static inline int qw_copy_init(struct qw_copy *w, int level)
{
    w->bytes = ((size_t)QW_COPY_CHUNK * (size_t)(100 + level) / 100) & ~(size_t)63;
    size_t region = (size_t)QW_COPY_CHUNK * 2 * QW_COPY_CHUNKS; /* 32 MiB each */
    w->src = (unsigned char *)malloc(region);
    w->dst = (unsigned char *)malloc(region);
    w->next = 0;
    if (!w->src || !w->dst)
        return -1;
    memset(w->src, 1, region);
    memset(w->dst, 2, region);
    return 0;
}

static inline void qw_copy_fini(struct qw_copy *w)
{
    free(w->src);
    free(w->dst);
}

static inline void qw_copy_op(struct qw_copy *w)
{
    size_t off = (size_t)w->next * 2 * QW_COPY_CHUNK;
    memcpy(w->dst + off, w->src + off, w->bytes);
    w->next = w->next + 1 == QW_COPY_CHUNKS ? 0 : w->next + 1;
    QW_CLOBBER();
}

/* ---- compute: a 3.5-million-step dependent chain (about 5 ms) -------------- */

#define QW_COMPUTE_STEPS 3500000

struct qw_compute {
    uint64_t x;
    long steps;
};

static inline void qw_compute_init(struct qw_compute *w, int level)
{
    w->x = 99;
    w->steps = (long)QW_COMPUTE_STEPS * (100 + level) / 100;
}

static inline void qw_compute_op(struct qw_compute *w)
{
    uint64_t x = w->x;
    for (long i = 0; i < w->steps; i++)
        x = qw_step(x);
    w->x = x;
}

/* ---- alloc: 64 malloc/free pairs of mixed sizes (about 1.5 us) ---------
 * 64 blocks over 13 sizes stay within glibc's per-thread cache (7 per size),
 * so one more allocation costs what the others do; the extra is whole ops. */

#define QW_ALLOC_N 64

struct qw_alloc {
    void *p[QW_ALLOC_N];
    int left;
    int level;
};

static inline void qw_alloc_init(struct qw_alloc *w, int level)
{
    w->left = 100;
    w->level = level;
}

static inline void qw_alloc_once(struct qw_alloc *w)
{
    static const unsigned short sizes[13] = {16,  24,  40,  64,   96, 128, 200,
                                             256, 384, 512, 1024, 48, 3000};
    for (int i = 0; i < QW_ALLOC_N; i++) {
        w->p[i] = malloc(sizes[i % 13]);
        QW_KEEP(w->p[i]);
    }
    for (int i = QW_ALLOC_N - 1; i >= 0; i--)
        free(w->p[i]);
    QW_CLOBBER();
}

static inline void qw_alloc_op(struct qw_alloc *w)
{
    qw_alloc_once(w);
    if (__builtin_expect(--w->left == 0, 0)) {
        w->left = 100;
        for (int j = 0; j < w->level; j++)
            qw_alloc_once(w);
    }
}

#ifdef __cplusplus
}
#endif
#endif
