/*
 * refchain.c - the reference chain behind ref-cycles/op.
 *
 * A chain of dependent integer additions: each add needs the result of the
 * one before, so the chain runs at one add per core clock cycle on every
 * x86-64 and AArch64 core (latency 1), whatever the core's width, and its
 * time per step is the length of one cycle at the core's current speed.
 * Timing a short stretch of it right beside each measured batch and
 * dividing the batch's time per op by the time per step turns time into
 * cycles, which cancels frequency drift (turbo, thermal, a busy sibling
 * thread slowing the shared core) for compute-bound code. Memory-bound
 * code does not scale with the core clock and gains little (docs/engine.md).
 *
 * The adds are written in assembly so that no compiler can fold, vectorise
 * or reassociate them: tests/ab checks the disassembly for the 100 adds.
 * Other architectures get the same chain in C, each add fenced by an empty
 * asm that makes its operand opaque; there the cost of a step is whatever
 * that add costs, still a fixed amount of core cycles.
 */
#include <stdint.h>

#include "state.h"

#define ADD10(s) s s s s s s s s s s
#define ADD100(s) ADD10(ADD10(s))

__attribute__((noinline)) uint64_t bl__ref_chain(uint64_t loops, uint64_t x)
{
    uint64_t one = 1;
    for (uint64_t i = 0; i < loops; i++) {
#if defined(__x86_64__)
        __asm__ volatile(ADD100("add %1, %0\n\t") : "+r"(x) : "r"(one));
#elif defined(__aarch64__)
        __asm__ volatile(ADD100("add %0, %0, %1\n\t") : "+r"(x) : "r"(one));
#else
        for (int k = 0; k < BL__REF_STEPS_PER_LOOP; k++) {
            x += one;
            __asm__ volatile("" : "+r"(x));
        }
#endif
    }
    return x;
}

/*
 * Size one stretch of the chain to about 2.5 us: long enough that the two
 * clock reads around it (about 28 ns, subtracted) are about 1% of it,
 * short enough that six stretches per batch cost about 1.5% of a 1 ms
 * batch. Called once per worker, after the clock's calibration.
 */
void bl__ref_calibrate(struct bl__engine *e, double clock_ns)
{
    e->clock_ns = clock_ns;
    e->ref_sink = bl__ref_chain(1000, e->ref_sink); /* the core at speed, the code in cache */
    double best = 0;
    for (int t = 0; t < 5; t++) {
        uint64_t t0 = bl__now_ns();
        e->ref_sink = bl__ref_chain(100, e->ref_sink);
        double ns = (double)(bl__now_ns() - t0) - clock_ns;
        if (ns > 0 && (best == 0 || ns < best))
            best = ns;
    }
    double per_loop = best > 0 ? best / 100 : 30;
    double loops = 2500 / per_loop;
    e->ref_loops = loops < 1 ? 1 : (uint64_t)loops;
}

/*
 * ns per step of the chain now: the fastest of a few stretches, because
 * an interrupt can only lengthen a stretch. Three stretches, or one beside
 * a batch shorter than 0.5 ms, so the reference stays a few percent of
 * the batch.
 */
double bl__ref_measure(struct bl__engine *e)
{
    if (!e->ref_loops)
        return 0;
    int stretches = e->last_batch_ns > 0 && e->last_batch_ns < 5e5 ? 1 : 3;
    double best = 0, steps = (double)e->ref_loops * BL__REF_STEPS_PER_LOOP;
    for (int k = 0; k < stretches; k++) {
        uint64_t t0 = bl__now_ns();
        e->ref_sink = bl__ref_chain(e->ref_loops, e->ref_sink);
        double ns = (double)(bl__now_ns() - t0) - e->clock_ns;
        if (ns > 0 && (best == 0 || ns < best))
            best = ns;
    }
    return best / steps;
}
