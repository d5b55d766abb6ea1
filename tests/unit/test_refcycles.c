/*
 * test_refcycles.c - ref-cycles/op from a launch's batches (results.c):
 * each batch divided by the reference step timed beside it, median,
 * overhead in cycles subtracted; the disturbed batches and the batches of
 * a suite without a reference left out.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <unistd.h>

#include "assert_close.h"
#include "benchlab/format.h"
#include "benchlab/results.h"
#include "json_round_trip.h"
#include "results/results_int.h"

static void add(bl_launch *l, char stage, uint64_t reps, double ns, double ref_ns, uint32_t nivcsw)
{
    bl_sample s;
    memset(&s, 0, sizeof s);
    s.stage = stage;
    s.reps = reps;
    s.ns = ns;
    s.cpu_ns = ns;
    s.ref_ns = ref_ns;
    s.nivcsw = nivcsw;
    assert_int_equal(bl_launch_add_sample(l, &s), 0);
}

static bl_launch *new_launch(bl_results **r)
{
    *r = bl_results_create();
    bl_bench_result *b = bl_results_bench(*r, "BenchmarkX");
    return bl_results_add_launch(b);
}

static void cycles_follow_the_reference_when_the_clock_drifts(void **state)
{
    (void)state;
    bl_results *r;
    bl_launch *l = new_launch(&r);
    /* 200 cycles of work per op at three core speeds: the time moves by
     * +-10%, the cycles do not */
    add(l, 'O', 1000, 500, 0.5, 0); /* 0.5 ns/op of overhead: 1 cycle */
    add(l, 'm', 1000, 100000, 0.5, 0);
    add(l, 'O', 1000, 550, 0.55, 0);
    add(l, 'm', 1000, 110000, 0.55, 0);
    add(l, 'O', 1000, 450, 0.45, 0);
    add(l, 'm', 1000, 90000, 0.45, 0);
    bl_launch_finish(l);
    assert_close(l->ns_per_op, 100 - 0.5, 1e-9);
    assert_close(l->ref_ns, 0.5, 1e-12);
    assert_close(l->ref_cycles_per_op, 200 - 1, 1e-9);
    bl_results_destroy(r);
}

static void disturbed_batches_do_not_count(void **state)
{
    (void)state;
    bl_results *r;
    bl_launch *l = new_launch(&r);
    add(l, 'm', 1000, 100000, 0.5, 0);
    add(l, 'm', 1000, 100000, 0.5, 0);
    add(l, 'm', 1000, 900000, 0.5, 1); /* preempted: discarded */
    bl_launch_finish(l);
    assert_int_equal(l->n_invalid, 1);
    assert_close(l->ref_cycles_per_op, 200, 1e-9);
    bl_results_destroy(r);
}

static void batches_without_a_reference_give_nan(void **state)
{
    (void)state;
    bl_results *r;
    bl_launch *l = new_launch(&r);
    add(l, 'O', 1000, 500, 0, 0);
    add(l, 'm', 1000, 100000, 0, 0); /* a suite built before the chain */
    bl_launch_finish(l);
    assert_close(l->ns_per_op, 99.5, 1e-9);
    assert_true(isnan(l->ref_cycles_per_op));
    assert_true(isnan(l->ref_ns));
    bl_results_destroy(r);
}

static void overhead_without_reference_uses_the_median_step(void **state)
{
    (void)state;
    bl_results *r;
    bl_launch *l = new_launch(&r);
    add(l, 'O', 1000, 500, 0, 0);
    add(l, 'm', 1000, 100000, 0.5, 0);
    bl_launch_finish(l);
    assert_close(l->ref_cycles_per_op, 200 - 0.5 / 0.5, 1e-9);
    /* never below zero */
    bl_launch *e = bl_results_add_launch(&r->benches[0]);
    add(e, 'O', 1000, 600, 0.5, 0);
    add(e, 'm', 1000, 500, 0.5, 0);
    bl_launch_finish(e);
    assert_close(e->ref_cycles_per_op, 0, 0);
    bl_results_destroy(r);
}

static void json_round_trip_keeps_the_reference(void **state)
{
    (void)state;
    bl_results *r;
    bl_launch *l = new_launch(&r);
    add(l, 'w', 1000, 100000, 0, 0); /* warmup: no reference */
    add(l, 'O', 1000, 500, 0.5, 0);
    add(l, 'm', 1000, 100000, 0.5, 0);
    bl_launch_finish(l);
    bl_results *back = json_round_trip(r, "rt.json", NULL);
    const bl_launch *b = &back->benches[0].launches[0];
    assert_close(b->ref_cycles_per_op, l->ref_cycles_per_op, 0);
    assert_close(b->ref_ns, 0.5, 0);
    assert_int_equal(b->n_samples, 3);
    assert_close(b->samples[0].ref_ns, 0, 0); /* null: not measured */
    assert_close(b->samples[2].ref_ns, 0.5, 0);
    bl_results_destroy(back);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cycles_follow_the_reference_when_the_clock_drifts),
        cmocka_unit_test(disturbed_batches_do_not_count),
        cmocka_unit_test(batches_without_a_reference_give_nan),
        cmocka_unit_test(overhead_without_reference_uses_the_median_step),
        cmocka_unit_test(json_round_trip_keeps_the_reference),
    };
    return cmocka_run_group_tests_name("refcycles", tests, NULL, NULL);
}
