/*
 * fixture_threads.c - multi-threaded benchmarks for the end-to-end tests
 * (e2e.sh, cases threads-*): that T threads really run the body together,
 * each with its own loop; that hooks run per thread; and that a thread
 * that fails, skips or leaves its loop early stops the benchmark cleanly.
 */
#include <benchlab.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- T threads, together ---------------------------------------------------- */

#define MAX_SEEN 64
static _Atomic long seen_tid[MAX_SEEN];
static atomic_int n_seen, active, max_active;
static _Atomic uint64_t iters_min = UINT64_MAX, iters_max;

static void note_thread(void)
{
    long tid = (long)syscall(SYS_gettid);
    int n = atomic_load(&n_seen);
    for (int i = 0; i < n && i < MAX_SEEN; i++)
        if (atomic_load(&seen_tid[i]) == tid)
            return;
    int slot = atomic_fetch_add(&n_seen, 1);
    if (slot < MAX_SEEN)
        atomic_store(&seen_tid[slot], tid);
}

/* What every thread saw, read once they have all left their loops. */
static void together_cleanup(bl_state *st)
{
    bl_report_metric(st, (double)atomic_load(&n_seen), "threads-seen");
    bl_report_metric(st, (double)atomic_load(&max_active), "max-active");
    bl_report_metric(st, atomic_load(&iters_min) == atomic_load(&iters_max) ? 1 : 0, "iters-equal");
}

/* Each thread is in the group from before its loop to after it. With the
 * threads in lockstep, all T are inside their loops at once, so the most
 * active at any time is T; threads run one after another would show 1. */
BENCHLAB(Together, .threads = BL_THREADS(1, 2, 4), .global_cleanup = together_cleanup)
{
    note_thread();
    int now = atomic_fetch_add(&active, 1) + 1;
    for (int m = atomic_load(&max_active); now > m;)
        if (atomic_compare_exchange_weak(&max_active, &m, now))
            break;
    uint64_t x = (uint64_t)bl_thread_index(st) + 1;
    while (bl_loop(st)) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        bl_do_not_optimize(x);
    }
    uint64_t it = bl_iterations(st);
    for (uint64_t m = atomic_load(&iters_min); it < m;)
        if (atomic_compare_exchange_weak(&iters_min, &m, it))
            break;
    for (uint64_t m = atomic_load(&iters_max); it > m;)
        if (atomic_compare_exchange_weak(&iters_max, &m, it))
            break;
    atomic_fetch_sub(&active, 1);
    /* every thread reports: the merged value is the mean over the threads */
    bl_report_metric(st, (double)bl_threads(st), "threads-api");
    bl_report_metric(st, (double)bl_thread_index(st), "index-mean");
}

/* ---- per-thread hooks and shared global setup -------------------------------- */

struct shared {
    int magic;
    atomic_int setups;
};
static struct shared shared;

static void shared_setup(bl_state *st)
{
    shared.magic = 4242;
    bl_set_user(st, &shared);
}

/* Per-op hooks run in the thread that runs the repetition. */
static _Thread_local uint64_t my_setups, my_teardowns;
static void count_setup(bl_state *st)
{
    (void)st;
    my_setups++;
}
static void count_teardown(bl_state *st)
{
    (void)st;
    my_teardowns++;
}

BENCHLAB(Hooks, .threads = BL_THREADS(2), .global_setup = shared_setup, .setup_op = count_setup,
         .teardown_op = count_teardown)
{
    struct shared *sh = bl_user(st);
    int ok = sh && sh->magic == 4242;
    while (bl_loop(st)) {
        bl_do_not_optimize(ok);
    }
    /* every repetition of this thread, and nothing else, had its hooks */
    ok &= my_setups == bl_iterations(st) && my_teardowns == bl_iterations(st);
    bl_report_metric(st, ok, "hooks-ok");
}

/* ---- throughput: bytes and items per op ----------------------------------------- */

static void spin_op(bl_state *st)
{
    uint64_t x = 1;
    while (bl_loop(st)) {
        for (int i = 0; i < 16; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
        bl_do_not_optimize(x);
    }
    bl_set_bytes_per_op(st, 100);
    bl_set_items_per_op(st, 5);
}

BENCHLAB(Items, .threads = BL_THREADS(2))
{
    spin_op(st);
}

BENCHLAB(ItemsPlain)
{
    spin_op(st);
}

/* ---- failures ---------------------------------------------------------------- */

BENCHLAB(ThreadFails, .threads = BL_THREADS(3))
{
    uint64_t n = 0;
    while (bl_loop(st)) {
        if (bl_thread_index(st) == 2 && ++n == 3) /* every launch gets this far */
            bl_fail(st, "thread two gave up");
    }
}

BENCHLAB(ThreadBreaks, .threads = BL_THREADS(2))
{
    uint64_t n = 0;
    while (bl_loop(st)) {
        if (bl_thread_index(st) == 1 && ++n == 3)
            break; /* leaves its loop: the others must not wait forever */
    }
}

BENCHLAB(ThreadSkips, .threads = BL_THREADS(2))
{
    if (bl_thread_index(st) == 0) {
        bl_skip(st, "one thread lacks a device");
        return;
    }
    while (bl_loop(st)) {
    }
}

BENCHLAB(BadCount, .threads = BL_THREADS(2, -1, 0, 1000))
{
    while (bl_loop(st)) {
    }
}

/* ---- more threads than CPUs ------------------------------------------------- */

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Each operation spends 200 us of its own thread's CPU time, whatever the
 * scheduler does (sanitizers and load included): T threads on C CPUs take
 * at least T/C x 200 us of wall time per repetition of each thread. */
BENCHLAB(Oversubscribed, .threads = BL_THREADS(8, 64))
{
    uint64_t x = 1;
    while (bl_loop(st)) {
        uint64_t until = thread_cpu_ns() + 200000;
        do {
            for (int i = 0; i < 64; i++)
                x = x * 6364136223846793005u + 1442695040888963407u;
            bl_do_not_optimize(x);
        } while (thread_cpu_ns() < until);
    }
}

/* Each operation sleeps 2 ms: little CPU time, and at least 2 ms of wall
 * time per repetition of each thread, however many CPUs. */
BENCHLAB(OversubscribedSleeps, .threads = BL_THREADS(8))
{
    const struct timespec ms2 = {0, 2000000};
    while (bl_loop(st))
        nanosleep(&ms2, NULL);
}

BENCHLAB_MAIN()
