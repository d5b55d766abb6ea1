/*
 * phases.c - profiles only its middle phase through the run --profile hook:
 * started with BENCHLAB_PROFILE_PAUSED=1, it resumes the sampler around
 * phase_b (found with dlsym, as the benchmark worker does). Also the
 * wall-clock case: `phases sleep` spends half its time in nanosleep.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile uint64_t sink;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void burn(double seconds)
{
    double end = now_s() + seconds;
    uint64_t x = 1;
    while (now_s() < end)
        for (int i = 0; i < 1000; i++)
            x = x * 6364136223846793005u + 1;
    sink += x;
}

__attribute__((noinline)) void phase_a(void)
{
    burn(0.15);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void phase_b(void)
{
    burn(0.15);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void phase_c(void)
{
    burn(0.15);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void sleeper(void)
{
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
        sleeper();
        phase_a();
        phase_a();
        return 0;
    }
    void (*resume)(void) = NULL, (*pause)(void) = NULL;
    void *sym = dlsym(RTLD_DEFAULT, "benchlab_profile_resume");
    memcpy(&resume, &sym, sizeof sym);
    sym = dlsym(RTLD_DEFAULT, "benchlab_profile_pause");
    memcpy(&pause, &sym, sizeof sym);
    if (!resume || !pause) {
        fprintf(stderr, "phases: no sampler loaded\n");
        return 3;
    }
    phase_a();
    resume();
    phase_b();
    pause();
    phase_c();
    return 0;
}
