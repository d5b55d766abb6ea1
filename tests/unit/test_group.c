/* test_group.c - how the threads of a benchmark make one batch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/state.h"

/*
 * Two threads leave the barrier 8 us apart (a futex wake-up). The workload
 * batch is the group's wall time, from the common start, so it holds the
 * late start; the overhead batch is only what the empty loop costs, so
 * the wake-up is not subtracted from the result as loop overhead.
 */
static void overhead_of_a_group_leaves_out_the_barrier_wake_up(void **state)
{
    (void)state;
    static bl_state a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    bl_state *st[2] = {&a, &b};
    struct bl__group g;
    memset(&g, 0, sizeof g);
    g.n = 2;
    g.st = st;
    a.t_first = 1000000;
    b.t_first = 1008000; /* woke 8 us later */
    a.batch_ns = 200000;
    b.batch_ns = 200000;
    a.ovh_first = 2000000;
    b.ovh_first = 2008000;
    a.ovh_ns = 40;
    b.ovh_ns = 50;
    assert_int_equal(bl__group_span(&g, 0, false), 200000);
    assert_int_equal(bl__group_span(&g, 1, false), 208000);
    assert_int_equal(bl__group_span(&g, 0, true), 40);
    assert_int_equal(bl__group_span(&g, 1, true), 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(overhead_of_a_group_leaves_out_the_barrier_wake_up),
    };
    return cmocka_run_group_tests_name("group", tests, NULL, NULL);
}
