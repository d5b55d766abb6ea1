/*
 * fixture_proccpu.c - .process_cpu, for the end-to-end tests (e2e.sh, case
 * process-cpu-is-every-thread): a body that hands a fixed amount of
 * spinning work (100 us of its own CPU time) to a second thread every
 * repetition and does as much itself, timed on the benchmark thread's CPU clock (Handoff) and on
 * the process's (HandoffProcess, and with two threads HandoffProcessThreads). Each reports a
 * counter of one per repetition as a rate (BL_COUNTER_RATE), which is over the CPU seconds of the
 * benchmark's clock. BusyNeighbourProcess has a thread spinning beside a body that never waits.
 */
#include <benchlab.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/* about 100 us of dependent arithmetic: far more than starting a thread */
static uint64_t spin(uint64_t x)
{
    for (int i = 0; i < 100000; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

/* Nanoseconds of the calling thread's CPU time. */
static int64_t thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/*
 * Spin for 100 us of the calling thread's own CPU time: a fixed amount of
 * CPU time per op on each thread, whatever the load or the core's speed, so
 * the process clock holds at least twice what the thread's own clock holds
 * of the spinning (the tests compare the two clocks, not a speed).
 */
static uint64_t spin_cpu(uint64_t x)
{
    int64_t start = thread_cpu_ns();
    do
        for (int i = 0; i < 1000; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
    while (thread_cpu_ns() - start < 100000);
    return x;
}

static void *helper(void *arg)
{
    uint64_t *x = arg;
    *x = spin_cpu(*x);
    return NULL;
}

static void handoff(bl_state *st)
{
    uint64_t sum = 0;
    while (bl_loop(st)) {
        uint64_t theirs = bl_thread_index(st) + 1;
        pthread_t t;
        if (pthread_create(&t, NULL, helper, &theirs) != 0) {
            bl_fail(st, "pthread_create failed");
            break;
        }
        sum += spin_cpu(theirs + 1);
        pthread_join(t, NULL);
        sum += theirs;
    }
    bl_do_not_optimize(sum);
    bl_report_counter(st, "ops", (double)bl_iterations(st), BL_COUNTER_RATE);
}

BENCHLAB(Handoff)
{
    handoff(st);
}

BENCHLAB(HandoffProcess, .process_cpu = 1)
{
    handoff(st);
}

BENCHLAB(HandoffProcessThreads, .process_cpu = 1, .threads = BL_THREADS(2))
{
    handoff(st);
}

/* A neighbour thread that spins for as long as the benchmark runs, started
 * before its loop: the body's own thread never waits, so its batches are
 * on CPU unless the machine takes the CPU from it, while the process's CPU
 * time runs ahead of the wall time whenever the neighbour has a CPU of its
 * own (case process-cpu-judged-by-own-threads). */
static atomic_int neighbour_stop;

static void *neighbour(void *arg)
{
    uint64_t x = (uintptr_t)arg;
    while (!atomic_load_explicit(&neighbour_stop, memory_order_relaxed))
        x = spin(x) | 1;
    return (void *)(uintptr_t)x;
}

BENCHLAB(BusyNeighbourProcess, .process_cpu = 1)
{
    pthread_t t;
    atomic_store(&neighbour_stop, 0);
    if (pthread_create(&t, NULL, neighbour, (void *)(uintptr_t)7) != 0) {
        bl_fail(st, "pthread_create failed");
        return;
    }
    uint64_t sum = 0;
    while (bl_loop(st))
        sum = spin(sum + 1);
    atomic_store(&neighbour_stop, 1);
    pthread_join(t, NULL);
    bl_do_not_optimize(sum);
}

BENCHLAB_MAIN();
