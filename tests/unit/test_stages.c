/* test_stages.c - the engine's decisions at a batch boundary (bench/stages.c). */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/state.h"

/* A single-threaded worker in its warmup, batches sized for 1 ms, a budget
 * large enough that only the steady-state rule ends the warmup. */
static void warmup_engine(struct bl__engine *e, int fd)
{
    memset(e, 0, sizeof *e);
    e->fd = fd;
    e->cmd_fd = -1;
    e->sched_fd = -1;
    e->target_ns = 1e6;
    e->budget_ns = 1e12;
    e->stage = STAGE_WARMUP;
    e->reps = 2500;
    e->t_begin = e->warm_begin = bl__now_ns();
}

/* A batch of 2500 repetitions that lasted `ns`, all of it on CPU (host
 * steal on a VM looks like this: no context switch, no gap). */
static struct bl__batch batch_of(uint64_t ns)
{
    struct bl__batch b;
    memset(&b, 0, sizeof b);
    b.reps = 2500;
    b.ns = ns;
    b.acc.cpu_ns = ns;
    return b;
}

/*
 * One warmup batch 15x slow (over 10x the target length) must not size the
 * measurement. It used to: the window of the steady-state rule was chosen
 * from the batch that just ended (1 for batches over 10 ms), so the slow
 * batch was found "steady" against the one before and sized the measured
 * batches alone (2500 -> 167 repetitions; a Drifts launch of the engine
 * tests was measured in batches of 3 instead of 2300).
 */
static void one_slow_warmup_batch_does_not_size_the_measurement(void **state)
{
    (void)state;
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    struct bl__engine e;
    warmup_engine(&e, fd);
    uint64_t lengths[] = {1100000, 1050000, 15000000};
    int n = 0;
    for (; n < 3; n++) {
        struct bl__batch b = batch_of(lengths[n]);
        bl__stage_record(&e, &b);
    }
    while (e.stage == STAGE_WARMUP && n < 64) {
        struct bl__batch b = batch_of(1000000);
        bl__stage_record(&e, &b);
        n++;
    }
    assert_int_equal(e.stage, STAGE_MEASURE);
    /* 1 ms per 2500 repetitions: sized at 2500 */
    assert_in_range(e.reps, 2400, 2600);
    close(fd);
}

/*
 * A warmup cut short by its quarter of the budget after one batch that
 * the host slowed 30x (on CPU as far as the worker can tell) is not sized
 * by that batch alone: the pilot's size stands. It used to be sized from
 * the one batch (2500 -> 83 repetitions).
 */
static void warmup_cut_short_by_one_slow_batch_keeps_the_pilot_size(void **state)
{
    (void)state;
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    struct bl__engine e;
    warmup_engine(&e, fd);
    e.budget_ns = 80e6; /* a quarter: 20 ms */
    e.t_begin = e.warm_begin = bl__now_ns() - 30000000;
    struct bl__batch b = batch_of(30000000);
    bl__stage_record(&e, &b);
    assert_int_equal(e.stage, STAGE_MEASURE);
    assert_in_range(e.reps, 2400, 2600);
    close(fd);
}

/* An operation that is long by nature (every batch over 10x the target)
 * still ends its warmup on windows of one batch. */
static void long_batches_warm_up_on_windows_of_one(void **state)
{
    (void)state;
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    struct bl__engine e;
    warmup_engine(&e, fd);
    e.reps = 1;
    struct bl__batch b = batch_of(20000000);
    b.reps = 1;
    bl__stage_record(&e, &b);
    assert_int_equal(e.stage, STAGE_WARMUP);
    b.ns = b.acc.cpu_ns = 20000000;
    bl__stage_record(&e, &b);
    assert_int_equal(e.stage, STAGE_MEASURE);
    assert_int_equal(e.reps, 1);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_slow_warmup_batch_does_not_size_the_measurement),
        cmocka_unit_test(warmup_cut_short_by_one_slow_batch_keeps_the_pilot_size),
        cmocka_unit_test(long_batches_warm_up_on_windows_of_one),
    };
    return cmocka_run_group_tests_name("stages", tests, NULL, NULL);
}
