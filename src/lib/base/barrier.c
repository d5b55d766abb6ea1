/*
 * barrier.c - the barrier that starts the threads of a multi-threaded
 * benchmark together (bench/state.c).
 *
 * Written here rather than taken from pthread_barrier_wait for measurement
 * quality: glibc's barrier always sleeps in the kernel, and a thread woken
 * from a futex starts its batch 5-50 us after the thread that woke it, which
 * at a 1 ms batch is a few percent of skew in every timed batch. Here a
 * waiter spins on the generation word for up to spin_ns (when there are at
 * least as many CPUs as threads) and only then sleeps, so threads that have
 * a CPU of their own leave the barrier within a cache-line transfer of each
 * other. With more threads than CPUs spinning only steals time from the
 * thread everyone waits for, so waiters sleep at once.
 */
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base.h"

#define SPIN_NS 50000 /* a futex round trip costs about as much as this */

void bl__barrier_init(struct bl__barrier *b, unsigned n)
{
    atomic_init(&b->arrived, 0);
    atomic_init(&b->gen, 0);
    atomic_init(&b->sleepers, 0);
    b->n = n ? n : 1;
    b->spin_ns = (int)b->n <= bl__sys_cpus_usable() ? SPIN_NS : 0;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

void bl__barrier_wait(struct bl__barrier *b, void (*serial)(void *ctx), void *ctx)
{
    unsigned gen = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 == b->n) {
        /* the last one in: everyone else is waiting, their writes visible */
        if (serial)
            serial(ctx);
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&b->gen, gen + 1, memory_order_seq_cst);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst))
            syscall(SYS_futex, &b->gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
        return;
    }
    if (b->spin_ns) {
        uint64_t t0 = bl__now_ns();
        for (unsigned i = 1;; i++) {
            if (atomic_load_explicit(&b->gen, memory_order_acquire) != gen)
                return;
            cpu_relax();
            if (i % 64 == 0 && bl__now_ns() - t0 > b->spin_ns)
                break;
        }
    }
    atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&b->gen, memory_order_seq_cst) == gen)
        syscall(SYS_futex, &b->gen, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
    atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_relaxed);
}
