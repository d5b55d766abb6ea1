/*
 * fixture_alloc.c - known allocation patterns for the --alloc instrument.
 * Each benchmark's expected B/op and allocs/op is in alloc.sh.
 */
#include <benchlab.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

BENCHLAB(FixedSizes) /* 3 allocs, 16 + 32 + 100 = 148 B */
{
    while (bl_loop(st)) {
        void *a = malloc(16), *b = malloc(32), *c = malloc(100);
        bl_escape(a), bl_escape(b), bl_escape(c);
        free(a), free(b), free(c);
    }
}

BENCHLAB(ReallocGrowth) /* malloc 8, realloc 16, realloc 32: 3 allocs, 56 B */
{
    while (bl_loop(st)) {
        char *p = malloc(8);
        bl_escape(p);
        p = realloc(p, 16);
        bl_escape(p);
        p = realloc(p, 32);
        bl_escape(p);
        free(p);
    }
}

BENCHLAB(Calloc) /* 1 alloc, 80 B */
{
    while (bl_loop(st)) {
        long *p = calloc(10, sizeof(long));
        bl_escape(p);
        free(p);
    }
}

BENCHLAB(Aligned) /* 4 allocs, 100 + 128 + 50 + 10 = 288 B */
{
    while (bl_loop(st)) {
        void *a = NULL;
        if (posix_memalign(&a, 64, 100) != 0)
            bl_fail(st, "posix_memalign");
        void *b = aligned_alloc(64, 128);
        void *c = memalign(32, 50);
        void *d = valloc(10);
        bl_escape(a), bl_escape(b), bl_escape(c), bl_escape(d);
        free(a), free(b), free(c), free(d);
    }
}

BENCHLAB(SetupNotCounted) /* setup allocates; the loop does not: 0, 0 */
{
    char *buf = malloc(1 << 20);
    memset(buf, 1, 1 << 20);
    unsigned long s = 0;
    while (bl_loop(st)) {
        s += (unsigned char)buf[s % (1 << 20)];
        bl_do_not_optimize(s);
    }
    free(buf);
}

static void free_op(bl_state *st)
{
    free(bl_user(st));
    bl_set_user(st, NULL);
}

BENCHLAB(TeardownFrees, .teardown_op = free_op) /* 1 alloc, 64 B; the free is a hook */
{
    while (bl_loop(st)) {
        void *p = malloc(64);
        bl_escape(p);
        bl_set_user(st, p);
    }
}

BENCHLAB(Paused) /* what happens while paused is not counted: 1 alloc, 8 B */
{
    while (bl_loop(st)) {
        bl_pause(st);
        void *q = malloc(50);
        bl_escape(q);
        free(q);
        bl_resume(st);
        void *p = malloc(8);
        bl_escape(p);
        free(p);
    }
}

static sem_t go, done;
static pthread_t helper;
static volatile int stop;

static void *helper_main(void *arg)
{
    (void)arg;
    for (;;) {
        sem_wait(&go);
        if (stop)
            return NULL;
        void *p = malloc(77);
        bl_escape(p);
        free(p);
        sem_post(&done);
    }
}

static void start_helper(bl_state *st)
{
    (void)st;
    sem_init(&go, 0, 0);
    sem_init(&done, 0, 0);
    pthread_create(&helper, NULL, helper_main, NULL);
}

static void stop_helper(bl_state *st)
{
    (void)st;
    stop = 1;
    sem_post(&go);
    pthread_join(helper, NULL);
}

/* the allocation happens in another thread: 1 alloc, 77 B */
BENCHLAB(SecondThread, .global_setup = start_helper, .global_cleanup = stop_helper)
{
    while (bl_loop(st)) {
        sem_post(&go);
        sem_wait(&done);
    }
}

BENCHLAB(Strdup) /* libc allocating through malloc: 1 alloc, 6 B */
{
    while (bl_loop(st)) {
        char *s = strdup("hello");
        bl_escape(s);
        free(s);
    }
}

BENCHLAB(Asprintf) /* counted, whatever glibc does inside: > 0 and deterministic */
{
    int i = 0;
    while (bl_loop(st)) {
        char *s = NULL;
        if (asprintf(&s, "%d", 12345 + (i++ & 1)) < 0)
            bl_fail(st, "asprintf");
        bl_escape(s);
        free(s);
    }
}

/* Threads: the allocations of every thread count, per repetition of one
 * thread. Per-thread setup before the loop, per-op setup hooks and one
 * thread's paused region are not counted, and that pause does not stop the
 * count of the other threads: 1 alloc, 48 B. */
static void threaded_setup_op(bl_state *st)
{
    (void)st;
    void *p = malloc(1000);
    bl_escape(p);
    free(p);
}

BENCHLAB(Threaded, .threads = BL_THREADS(1, 3), .setup_op = threaded_setup_op)
{
    void *mine = malloc(4096);
    bl_escape(mine);
    while (bl_loop(st)) {
        void *p = malloc(48);
        bl_escape(p);
        free(p);
        if (bl_thread_index(st) == 1) {
            bl_pause(st);
            void *q = malloc(7);
            bl_escape(q);
            free(q);
            bl_resume(st);
        }
    }
    free(mine);
}

BENCHLAB(ForeignFree) /* frees blocks from setup: must report nothing, with a reason */
{
    enum { N = 1 << 16 };
    static void *pool[N];
    for (int i = 0; i < N; i++)
        pool[i] = malloc(24);
    int next = 0;
    while (bl_loop(st)) {
        if (next < N) {
            free(pool[next]);
            pool[next++] = NULL;
        }
    }
    for (int i = next; i < N; i++)
        free(pool[i]);
}

BENCHLAB_MAIN()
