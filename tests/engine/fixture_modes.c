/*
 * fixture_modes.c - benchmarks whose batches say something beyond their
 * centre, for the end-to-end tests (e2e.sh, case drift-and-modes-are-said):
 *
 *   Bimodal  each batch does the work once or twice, at random: two modes
 *            2x apart within every launch;
 *   Drifts   every repetition takes longer than the one before (+1% per
 *            1000 repetitions): drift within launches. Counted in
 *            repetitions, not in the worker's wall time, which a loaded
 *            machine stretches (at a load of 18 a launch lived 15x longer,
 *            its repetitions grew 15x slower, and too few batches fitted);
 *   Steady   the same work every time: neither.
 *
 * It also declares its name with BENCHLAB_SUITE and has a main of its own
 * (case suite-name-survives-copies).
 *
 * The effects are large on purpose: the tests must not depend on how
 * loaded the machine is.
 */
#include <benchlab.h>
#include <stdint.h>
#include <unistd.h>

static uint64_t spin(uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

BENCHLAB(Steady)
{
    uint64_t x = 1;
    while (bl_loop(st))
        x = spin(x, 400);
    bl_do_not_optimize(x);
}

BENCHLAB(Bimodal)
{
    /* A new batch starts when the repetitions left go up (the engine's
     * counter, read here only to know the batch: a fixture's liberty). */
    const struct bl__state_hot *hot = (const struct bl__state_hot *)(const void *)st;
    /* seeded per process: launches must not repeat one sequence of modes */
    uint64_t x = 1, prev_left = 0, rng = (uint64_t)getpid() * 0x9e3779b97f4a7c15u | 1;
    unsigned work = 400;
    while (bl_loop(st)) {
        if (hot->left >= prev_left) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            work = (rng >> 32) & 1 ? 800 : 400;
        }
        prev_left = hot->left;
        x = spin(x, work);
    }
    bl_do_not_optimize(x);
}

BENCHLAB(Drifts)
{
    uint64_t x = 1, n = 0;
    while (bl_loop(st)) {
        double grow = 1 + (double)n++ / 100000; /* +1% per 1000 repetitions */
        x = spin(x, (unsigned)(400 * grow));
    }
    bl_do_not_optimize(x);
}

/* A main of its own, and the suite's name declared apart (case
 * suite-name-survives-copies). */
BENCHLAB_SUITE("modes-suite")

int main(int argc, char **argv)
{
    return bl_main(argc, argv);
}
