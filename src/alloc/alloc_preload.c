/*
 * alloc_preload.c - libbenchlab-alloc.so, the allocation counter preloaded
 * (LD_PRELOAD) into the worker of the allocation pass, and only there: the
 * timing pass runs with the plain allocator and pays nothing.
 *
 * It replaces malloc, calloc, realloc, free, posix_memalign, aligned_alloc,
 * memalign, valloc, pvalloc and reallocarray, forwarding to glibc's
 * __libc_* entry points. glibc routes its own internal allocations
 * (strdup, asprintf, fopen...) through these symbols, so they are counted
 * too. Counting is global over every thread (relaxed atomics) and happens
 * only between benchlab_alloc_begin() and benchlab_alloc_end(), which the
 * worker calls around each measured batch, except in a thread that has
 * suspended itself (benchlab_alloc_suspend) for a pause or a per-op hook;
 * the worker finds them with dlsym(RTLD_DEFAULT).
 *
 * A free() inside the window of a block that was not allocated inside it
 * (say, in setup) is counted as foreign: the worker then reports nothing
 * rather than numbers about memory it cannot account for. Live blocks of the
 * window are tracked in an open-addressing table in mmap'ed memory (no
 * malloc here, no recursion).
 *
 * Limits (docs/instruments.md): static executables cannot be preloaded;
 * allocators that do not go through malloc (custom pools, direct mmap, a
 * statically linked jemalloc) are invisible; AddressSanitizer replaces the
 * allocator itself and refuses a preload ahead of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

#define EXPORT __attribute__((visibility("default")))

struct benchlab_alloc_counts {
    uint64_t allocs;
    uint64_t bytes;
    uint64_t frees;
    uint64_t foreign_frees;
    uint64_t untracked; /* the live table was full: foreign frees may be missed */
};

void benchlab_alloc_begin(void);
void benchlab_alloc_suspend(int suspended);
void benchlab_alloc_end(struct benchlab_alloc_counts *out);

static atomic_int counting;
/* Suspension is per thread (pauses and per-op hooks of one thread of a
 * multi-threaded benchmark must not stop the count of the others).
 * initial-exec TLS: no __tls_get_addr, which could call malloc. */
static __thread int suspended __attribute__((tls_model("initial-exec")));
static _Atomic uint64_t n_allocs, n_bytes, n_frees, n_foreign, n_untracked;

/* The live-block table: 2^20 slots of pointers, 0 = empty, 1 = deleted. */
#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)
static _Atomic(uintptr_t) *table;
static atomic_flag table_lock = ATOMIC_FLAG_INIT;

static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&table_lock, memory_order_acquire)) {
    }
}
static void unlock(void)
{
    atomic_flag_clear_explicit(&table_lock, memory_order_release);
}

static size_t slot_of(uintptr_t p)
{
    uint64_t h = (uint64_t)p * 0x9e3779b97f4a7c15u;
    return (size_t)(h >> (64 - TABLE_BITS));
}

static void track(void *p)
{
    if (!p || !table)
        return;
    lock();
    size_t i = slot_of((uintptr_t)p);
    for (size_t n = 0; n < TABLE_SIZE; n++, i = (i + 1) & (TABLE_SIZE - 1)) {
        uintptr_t v = atomic_load_explicit(&table[i], memory_order_relaxed);
        if (v <= 1) {
            atomic_store_explicit(&table[i], (uintptr_t)p, memory_order_relaxed);
            unlock();
            return;
        }
    }
    unlock();
    atomic_fetch_add_explicit(&n_untracked, 1, memory_order_relaxed);
}

/* Remove p; returns whether it was there. */
static int untrack(void *p)
{
    if (!table)
        return 1;
    lock();
    size_t i = slot_of((uintptr_t)p);
    for (size_t n = 0; n < TABLE_SIZE; n++, i = (i + 1) & (TABLE_SIZE - 1)) {
        uintptr_t v = atomic_load_explicit(&table[i], memory_order_relaxed);
        if (v == 0)
            break;
        if (v == (uintptr_t)p) {
            atomic_store_explicit(&table[i], 1, memory_order_relaxed);
            unlock();
            return 1;
        }
    }
    unlock();
    return 0;
}

static inline int on(void)
{
    return atomic_load_explicit(&counting, memory_order_relaxed) && !suspended;
}

static void count_alloc(void *p, size_t bytes)
{
    if (!p || !on())
        return;
    atomic_fetch_add_explicit(&n_allocs, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&n_bytes, bytes, memory_order_relaxed);
    track(p);
}

static void count_free(void *p)
{
    if (!p || !on())
        return;
    atomic_fetch_add_explicit(&n_frees, 1, memory_order_relaxed);
    if (!untrack(p))
        atomic_fetch_add_explicit(&n_foreign, 1, memory_order_relaxed);
}

EXPORT void benchlab_alloc_begin(void)
{
    if (!table) {
        void *m = mmap(NULL, TABLE_SIZE * sizeof *table, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        table = m == MAP_FAILED ? NULL : m;
    } else {
        memset((void *)table, 0, TABLE_SIZE * sizeof *table);
    }
    atomic_store(&n_allocs, 0);
    atomic_store(&n_bytes, 0);
    atomic_store(&n_frees, 0);
    atomic_store(&n_foreign, 0);
    atomic_store(&n_untracked, 0);
    atomic_store(&counting, 1);
}

/* Stop and start counting in the calling thread without resetting: pauses
 * and per-op hooks. */
EXPORT void benchlab_alloc_suspend(int s)
{
    suspended = s;
}

EXPORT void benchlab_alloc_end(struct benchlab_alloc_counts *out)
{
    atomic_store(&counting, 0);
    out->allocs = atomic_load(&n_allocs);
    out->bytes = atomic_load(&n_bytes);
    out->frees = atomic_load(&n_frees);
    out->foreign_frees = atomic_load(&n_foreign);
    out->untracked = atomic_load(&n_untracked);
}

EXPORT void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    count_alloc(p, n);
    return p;
}

EXPORT void *calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);
    count_alloc(p, n * size);
    return p;
}

/*
 * realloc counts as one allocation of the new size (Go counts the same). The
 * old block leaves the live table; resizing a block from before the window
 * is a foreign free.
 */
EXPORT void *realloc(void *old, size_t n)
{
    if (!old)
        return malloc(n);
    if (n == 0) {
        free(old);
        return NULL;
    }
    int counted = on();
    int known = counted ? untrack(old) : 1;
    void *p = __libc_realloc(old, n);
    if (!p) {
        if (counted && known)
            track(old);
        return NULL;
    }
    if (counted) {
        if (!known)
            atomic_fetch_add_explicit(&n_foreign, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&n_allocs, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&n_bytes, n, memory_order_relaxed);
        track(p);
    }
    return p;
}

EXPORT void *reallocarray(void *old, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(old, bytes);
}

EXPORT void free(void *p)
{
    count_free(p);
    __libc_free(p);
}

EXPORT void *memalign(size_t align, size_t n)
{
    void *p = __libc_memalign(align, n);
    count_alloc(p, n);
    return p;
}

EXPORT void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    void *p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    count_alloc(p, n);
    *out = p;
    return 0;
}

EXPORT void *valloc(size_t n)
{
    void *p = __libc_valloc(n);
    count_alloc(p, n);
    return p;
}

EXPORT void *pvalloc(size_t n)
{
    void *p = __libc_pvalloc(n);
    count_alloc(p, n);
    return p;
}
