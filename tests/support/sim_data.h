/*
 * sim_data.h - simulated measurements for the unit tests: a seeded
 * xorshift generator (uniform and normal draws, the same sequence on every
 * run) and a launch of synthetic batches. A test that wants its own
 * sequence defines SIM_SEED before including this. Include after cmocka.h
 * and benchlab/results.h.
 */
#ifndef BENCHLAB_TESTS_SIM_DATA_H
#define BENCHLAB_TESTS_SIM_DATA_H

#include <math.h>
#include <stdint.h>

#ifndef SIM_SEED
#define SIM_SEED 88172645463325252u
#endif

static uint64_t sim_rng = SIM_SEED;

/* uniform on (0, 1), never 0 (log() of it is finite) */
static inline double uniform01(void)
{
    sim_rng ^= sim_rng << 13;
    sim_rng ^= sim_rng >> 7;
    sim_rng ^= sim_rng << 17;
    return ((double)(sim_rng >> 11) + 0.5) / 9007199254740992.0;
}

/* standard normal (Box-Muller) */
static inline double normal(void)
{
    return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

/* A launch of n measured batches of 1000 repetitions: per op `level` ns
 * times gen(i, n), each after an overhead batch that costs `ovh_ns` per op;
 * finished (bl_launch_finish) as the runner finishes one. */
static inline void sim_add_launch(bl_bench_result *b, size_t n, double level, double ovh_ns,
                                  double (*gen)(size_t i, size_t n))
{
    bl_launch *l = bl_results_add_launch(b);
    assert_non_null(l);
    for (size_t i = 0; i < n; i++) {
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 1000 * ovh_ns, .cpu_ns = -1};
        bl_sample m = {.stage = BL_STAGE_MEASURE,
                       .reps = 1000,
                       .ns = 1000 * (level * gen(i, n) + ovh_ns),
                       .cpu_ns = -1};
        assert_int_equal(bl_launch_add_sample(l, &o), 0);
        assert_int_equal(bl_launch_add_sample(l, &m), 0);
    }
    bl_launch_finish(l);
}

/*
 * A body near the empty loop's own cost, as a sub-ns benchmark gives it:
 * five launches (BenchmarkSubNs) of 20 batches each, per op 0, 0.00001,
 * 0.00002, 0.4 and 0.6 ns beyond an empty loop of 1 ns, every batch timed
 * beside a reference step of 0.25 ns (one core cycle). Their centre (the
 * trimmed mean of five: 0.133 ns, 0.53 cycles) is measurable work; their
 * median, 0.00002 ns, is not, and a spread over it read 3000000%.
 * Caller destroys.
 */
static inline bl_results *sim_sub_ns_run(void)
{
    static const double net[] = {0, 0.00001, 0.00002, 0.4, 0.6};
    bl_results *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(r, "BenchmarkSubNs");
    assert_non_null(b);
    for (size_t k = 0; k < 5; k++) {
        bl_launch *l = bl_results_add_launch(b);
        assert_non_null(l);
        for (int i = 0; i < 20; i++) {
            bl_sample o = {.stage = BL_STAGE_OVERHEAD,
                           .reps = 1000,
                           .ns = 1000,
                           .cpu_ns = 1000,
                           .ref_ns = 0.25};
            bl_sample m = {.stage = BL_STAGE_MEASURE,
                           .reps = 1000,
                           .ns = 1000 * (1 + net[k]),
                           .cpu_ns = 1000 * (1 + net[k]),
                           .ref_ns = 0.25};
            assert_int_equal(bl_launch_add_sample(l, &o), 0);
            assert_int_equal(bl_launch_add_sample(l, &m), 0);
        }
        bl_launch_finish(l);
    }
    return r;
}

#endif
