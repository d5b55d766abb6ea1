/*
 * fixture_proccpu.c - .process_cpu, for the end-to-end tests (e2e.sh, case
 * process-cpu-is-every-thread): a body that hands a fixed amount of
 * spinning work to a second thread every repetition and does as much
 * itself, timed on the benchmark thread's CPU clock (Handoff) and on the
 * process's (HandoffProcess, and with two threads HandoffProcessThreads).
 * Each reports a counter of one per repetition as a rate (BL_COUNTER_RATE),
 * which is over the CPU seconds of the benchmark's clock.
 */
#include <benchlab.h>
#include <pthread.h>
#include <stdint.h>

/* about 100 us of dependent arithmetic: far more than starting a thread */
static uint64_t spin(uint64_t x)
{
    for (int i = 0; i < 100000; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

static void *helper(void *arg)
{
    uint64_t *x = arg;
    *x = spin(*x);
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
        sum += spin(theirs + 1);
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

BENCHLAB_MAIN();
