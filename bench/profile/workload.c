/*
 * workload.c - the program bench/profile/compare.py profiles with every tool.
 *
 *   main -> work -> hot_a  -> spin            (6 units)
 *                -> mid_b  -> leaf_c -> spin  (3 units)
 *                          -> spin            (1 unit)
 *                -> cold_d -> spin            (1 unit)
 *                -> many   -> tiny x K        (a tiny function called very often)
 *
 * spin is a leaf that gcc -O2 leaves without a frame; tiny is the function
 * tracers over-charge. Usage: workload ROUNDS [THREADS]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define UNITS 1800
#define TINY_CALLS 3000

static volatile uint64_t sink;
static long rounds = 1000;

__attribute__((noinline)) uint64_t spin(uint64_t n)
{
    uint64_t x = n;
    for (uint64_t i = 0; i < n * 16; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

__attribute__((noinline)) uint64_t tiny(uint64_t x)
{
    return x * 2654435761u + 1;
}

__attribute__((noinline)) void leaf_c(uint64_t n)
{
    sink += spin(3 * n);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void mid_b(uint64_t n)
{
    leaf_c(n);
    sink += spin(n);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void hot_a(uint64_t n)
{
    sink += spin(6 * n);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void cold_d(uint64_t n)
{
    sink += spin(n);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void many(uint64_t n)
{
    uint64_t x = n;
    for (int i = 0; i < TINY_CALLS; i++)
        x = tiny(x);
    sink += x;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void *work(void *arg)
{
    (void)arg;
    for (long r = 0; r < rounds; r++) {
        hot_a(UNITS);
        mid_b(UNITS);
        cold_d(UNITS);
        many(UNITS);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    rounds = argc > 1 ? atol(argv[1]) : 1000;
    int n_threads = argc > 2 ? atoi(argv[2]) : 1;
    if (n_threads < 1 || n_threads > 16)
        n_threads = 1;
    pthread_t threads[16];
    for (int i = 1; i < n_threads; i++)
        pthread_create(&threads[i], NULL, work, NULL);
    work(NULL);
    for (int i = 1; i < n_threads; i++)
        pthread_join(threads[i], NULL);
    printf("%llu\n", (unsigned long long)(sink & 1));
    return 0;
}
