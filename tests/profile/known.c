/*
 * known.c - a profilee with a known call structure, for the profiler's tests and bench/.
 *
 *   main -> work -> hot_a  -> spin          6 units
 *                -> mid_b  -> leaf_c -> spin 3 units
 *                          -> spin          1 unit
 *                -> cold_d -> spin          1 unit
 *
 * so inclusive shares are hot_a 6/11, mid_b 4/11, leaf_c 3/11, cold_d 1/11
 * and spin (a leaf without a frame at -O2) all of it. Usage:
 *   known [units_per_round=20000] [rounds=2000] [threads=1] [crash|trap]
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;
static uint64_t units = 20000;
static uint64_t rounds = 2000;

__attribute__((noinline)) uint64_t spin(uint64_t n)
{
    uint64_t x = n;
    for (uint64_t i = 0; i < n * 16; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

__attribute__((noinline)) void leaf_c(uint64_t n)
{
    sink += spin(3 * n);
    __asm__ volatile("" ::: "memory"); /* no tail call */
}

__attribute__((noinline)) void mid_b(uint64_t n)
{
    leaf_c(n);
    sink += spin(n);
    __asm__ volatile("" ::: "memory");
}

void cold_d(uint64_t n);

__attribute__((noinline)) void hot_a(uint64_t n)
{
#ifdef KNOWN_FAKE_FRAME
    /* Code without frame pointers uses rbp as any other register, and it
     * may hold a stack address: here one that looks like a frame whose
     * return address is in cold_d, which a frame-pointer walk from spin
     * would take for hot_a's caller's caller. */
    volatile uint64_t fake[2] = {0, (uint64_t)(uintptr_t)cold_d + 8};
    register volatile uint64_t *frame __asm__("rbp") = fake;
    __asm__ volatile("" : "+r"(frame));
    sink += spin(6 * n);
    __asm__ volatile("" : "+r"(frame));
#else
    sink += spin(6 * n);
#endif
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void cold_d(uint64_t n)
{
    sink += spin(n);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void *work(void *arg)
{
    (void)arg;
    for (uint64_t r = 0; r < rounds; r++) {
        hot_a(units / 11);
        mid_b(units / 11);
        cold_d(units / 11);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        units = strtoull(argv[1], NULL, 10);
    if (argc > 2)
        rounds = strtoull(argv[2], NULL, 10);
    int n_threads = argc > 3 ? atoi(argv[3]) : 1;
    int crash = argc > 4 && strcmp(argv[4], "crash") == 0;
    int trap = argc > 4 && strcmp(argv[4], "trap") == 0;
    if (n_threads < 1 || n_threads > 64)
        n_threads = 1;
    pthread_t threads[64];
    for (int i = 1; i < n_threads; i++)
        pthread_create(&threads[i], NULL, work, NULL);
    work(NULL);
    for (int i = 1; i < n_threads; i++)
        pthread_join(threads[i], NULL);
    if (crash)
        raise(SIGSEGV);
    if (trap)
        raise(SIGTRAP); /* a SIGTRAP that is not the sampler's: the default action */
    printf("known: done %llu\n", (unsigned long long)(sink & 1));
    return 0;
}
