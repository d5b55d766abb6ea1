/*
 * suite_prof.c - a benchmark suite for `run --profile`, with work of known
 * shares inside the measured loop and heavy work outside it that must not
 * show up in the profiles:
 *
 *   Hot      the loop: hot_fn (9 units) and cold_fn (1 unit); a global_setup
 *            (setup_heavy) that burns as long as the whole measuring budget
 *   PerOp    hot_fn per repetition; a setup_op (op_setup_work) as long as it
 *   Paused   hot_fn, and paused_work between bl_pause and bl_resume
 *   Threads  2 threads: thread 0 runs hot_fn, thread 1 spin directly, as
 *            long; both pause around paused_work
 *   Crash    hot_fn, then a SIGSEGV in its global_cleanup, after the measured
 *            batches (when SUITE_PROF_CRASH is set, so other cases stay quiet)
 *
 * Built three ways (tests/profile/CMakeLists.txt): plain for sampling,
 * with -finstrument-functions and libbenchlab-trace for tracing, static.
 */
#include <benchlab.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noinline)) uint64_t spin(uint64_t n)
{
    uint64_t x = n;
    for (uint64_t i = 0; i < n * 16; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

__attribute__((noinline)) void hot_fn(void)
{
    sink += spin(900);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void cold_fn(void)
{
    sink += spin(100);
    __asm__ volatile("" ::: "memory");
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* As much CPU time as the measuring budget of the tests (--time 0.3s). */
__attribute__((noinline)) void setup_heavy(void)
{
    double end = cpu_s() + 0.3;
    while (cpu_s() < end)
        sink += spin(1000);
}

static void global_setup(bl_state *st)
{
    (void)st;
    setup_heavy();
}

BENCHLAB(Hot, .global_setup = global_setup)
{
    while (bl_loop(st)) {
        hot_fn();
        cold_fn();
    }
}

__attribute__((noinline)) void op_setup_work(void)
{
    sink += spin(900);
    __asm__ volatile("" ::: "memory");
}

static void setup_op(bl_state *st)
{
    (void)st;
    op_setup_work();
}

BENCHLAB(PerOp, .setup_op = setup_op)
{
    while (bl_loop(st))
        hot_fn();
}

__attribute__((noinline)) void paused_work(void)
{
    sink += spin(900);
    __asm__ volatile("" ::: "memory");
}

BENCHLAB(Paused)
{
    while (bl_loop(st)) {
        bl_pause(st);
        paused_work();
        bl_resume(st);
        hot_fn();
    }
}

BENCHLAB(Threads, .threads = BL_THREADS(2))
{
    int first = bl_thread_index(st) == 0;
    while (bl_loop(st)) {
        bl_pause(st);
        paused_work();
        bl_resume(st);
        if (first)
            hot_fn();
        else
            sink += spin(900); /* as long as hot_fn, directly */
    }
}

static void crash_cleanup(bl_state *st)
{
    (void)st;
    if (getenv("SUITE_PROF_CRASH"))
        raise(SIGSEGV);
}

BENCHLAB(Crash, .global_cleanup = crash_cleanup)
{
    while (bl_loop(st))
        hot_fn();
}

BENCHLAB_MAIN()
