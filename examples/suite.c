/*
 * suite.c - the example suite that `make demo` runs: what a realistic
 * benchlab suite looks like. Sorting at several sizes with two algorithms,
 * a hash over buffers (MB/s), string formatting, memcpy at cache-resident
 * and memory-bound sizes, a malloc-heavy case, a macrobenchmark (each
 * invocation timed on its own), and a counter shared by threads against a
 * counter per thread (a multi-threaded benchmark). Sort fits its time
 * against the size (.complexity).
 *
 * Build it by hand against an installed benchlab:
 *     cc -O2 suite.c $(pkg-config --cflags --libs benchlab) -o suite
 */
#include <benchlab.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sorting -------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void insertion_sort(int *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static void merge_sort_rec(int *a, int *tmp, size_t n)
{
    if (n < 16) {
        insertion_sort(a, n);
        return;
    }
    size_t h = n / 2;
    merge_sort_rec(a, tmp, h);
    merge_sort_rec(a + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

struct sort_data {
    int *work, *tmp;
    size_t n;
    uint32_t seed;
};

static uint32_t xorshift(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Per-repetition setup, outside timing: new random input every time.
 * Sorting the same input again and again lets the branch predictor learn
 * it at small sizes, which would make them look faster than they are. */
static void sort_setup_op(bl_state *st)
{
    struct sort_data *d = bl_user(st);
    for (size_t i = 0; i < d->n; i++)
        d->work[i] = (int)(xorshift(&d->seed) % 1000000);
}

static void sort_global_setup(bl_state *st)
{
    static struct sort_data d;
    d.n = (size_t)bl_param_int(st, "size");
    d.work = malloc(d.n * sizeof *d.work);
    d.tmp = malloc(d.n * sizeof *d.tmp);
    d.seed = 12345;
    bl_set_user(st, &d);
}

static void sort_global_cleanup(bl_state *st)
{
    struct sort_data *d = bl_user(st);
    free(d->work);
    free(d->tmp);
}

BENCHLAB(Sort,
         .params = BL_PARAMS(BL_INTS("size", 100, 1000, 10000, 50000),
                             BL_STRS("algo", "merge", "qsort")),
         .global_setup = sort_global_setup, .global_cleanup = sort_global_cleanup,
         .setup_op = sort_setup_op, .complexity = BL_COMPLEXITY_AUTO)
{
    struct sort_data *d = bl_user(st);
    int merge = strcmp(bl_param_str(st, "algo"), "merge") == 0;
    while (bl_loop(st)) {
        if (merge)
            merge_sort_rec(d->work, d->tmp, d->n);
        else
            qsort(d->work, d->n, sizeof *d->work, cmp_int);
        bl_escape(d->work);
    }
    bl_set_bytes_per_op(st, (double)(d->n * sizeof(int)));
    bl_set_items_per_op(st, (double)d->n); /* elements sorted per second */
}

/* ---- hashing (throughput) ------------------------------------------------- */

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3u;
    }
    return h;
}

BENCHLAB(HashFNV1a, .params = BL_PARAMS(BL_INTS("bytes", 64, 4096, 1048576)))
{
    size_t n = (size_t)bl_param_int(st, "bytes");
    unsigned char *buf = malloc(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(i * 131u);
    while (bl_loop(st)) {
        bl_escape(buf);
        bl_do_not_optimize(fnv1a(buf, n));
    }
    free(buf);
    bl_set_bytes_per_op(st, (double)n);
}

/* ---- string formatting ---------------------------------------------------- */

BENCHLAB(Snprintf, .params = BL_PARAMS(BL_STRS("fmt", "int", "float", "string")))
{
    const char *kind = bl_param_str(st, "fmt");
    char out[128];
    int i = 0;
    if (strcmp(kind, "int") == 0) {
        while (bl_loop(st)) {
            bl_do_not_optimize(snprintf(out, sizeof out, "%d", i++ * 7919));
            bl_escape(out);
        }
    } else if (strcmp(kind, "float") == 0) {
        while (bl_loop(st)) {
            bl_do_not_optimize(snprintf(out, sizeof out, "%.6g", (double)i++ * 1.000001));
            bl_escape(out);
        }
    } else {
        while (bl_loop(st)) {
            bl_do_not_optimize(snprintf(out, sizeof out, "user=%s id=%04x", "alice", i++));
            bl_escape(out);
        }
    }
}

/* ---- memcpy: cache-resident and memory-bound ------------------------------- */

BENCHLAB(Memcpy, .params = BL_PARAMS(BL_INTS("bytes", 4096, 262144, 67108864)))
{
    size_t n = (size_t)bl_param_int(st, "bytes");
    char *src = malloc(n), *dst = malloc(n);
    memset(src, 1, n);
    memset(dst, 2, n); /* touch the pages before timing */
    while (bl_loop(st)) {
        memcpy(dst, src, n);
        bl_escape(dst);
    }
    free(src);
    free(dst);
    bl_set_bytes_per_op(st, (double)n);
}

/* ---- malloc-heavy: a linked list built and freed ---------------------------- */

struct node {
    struct node *next;
    long value;
};

BENCHLAB(MallocList, .params = BL_PARAMS(BL_INTS("nodes", 16, 1024)))
{
    long n = bl_param_int(st, "nodes");
    while (bl_loop(st)) {
        struct node *head = NULL;
        for (long i = 0; i < n; i++) {
            struct node *e = malloc(sizeof *e);
            e->value = i;
            e->next = head;
            head = e;
        }
        bl_escape(head);
        while (head) {
            struct node *next = head->next;
            free(head);
            head = next;
        }
    }
    bl_report_metric(st, (double)n, "nodes/op");
}

/* ---- a macrobenchmark: filling a hash table ------------------------------------ */

/* Each invocation inserts 20000 keys into an empty open-addressing table:
 * ~100 us, long enough to time each one on its own (.macro = 1) and report
 * the whole distribution. Emptying the table is per-op setup, not timed. */
#define HT_SLOTS (1u << 16)
#define HT_KEYS 20000
static uint32_t ht_slot[HT_SLOTS];

static void ht_clear(bl_state *st)
{
    (void)st;
    memset(ht_slot, 0, sizeof ht_slot);
}

BENCHLAB(HashTableFill, .macro = 1, .setup_op = ht_clear)
{
    while (bl_loop(st)) {
        uint32_t seed = 2463534242u;
        for (int i = 0; i < HT_KEYS; i++) {
            uint32_t key = xorshift(&seed) | 1; /* 0 marks an empty slot */
            uint32_t h = (key * 2654435761u) >> 16;
            while (ht_slot[h] && ht_slot[h] != key)
                h = (h + 1) & (HT_SLOTS - 1);
            ht_slot[h] = key;
        }
        bl_escape(ht_slot);
    }
    bl_set_items_per_op(st, HT_KEYS);
}

/* ---- threads: one contended atomic counter, or one counter per thread -------- */

/* Each thread's own counter on a cache line of its own: no sharing at all. */
struct padded_counter {
    _Alignas(64) atomic_ulong n;
};
static struct padded_counter own_counter[BL_MAX_THREADS];
static atomic_ulong shared_counter;

/* The same atomic increment either way: with kind=shared every thread
 * fights for one cache line, and ns/op (per thread) grows with the thread
 * count while ops/s (all threads) stays flat; with kind=perthread ops/s
 * grows with the threads the machine can run at once. */
BENCHLAB(Counter, .params = BL_PARAMS(BL_STRS("kind", "shared", "perthread")),
         .threads = BL_THREADS(1, 2, 4))
{
    atomic_ulong *c = strcmp(bl_param_str(st, "kind"), "shared") == 0
                          ? &shared_counter
                          : &own_counter[bl_thread_index(st)].n;
    while (bl_loop(st))
        atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

BENCHLAB_MAIN()
