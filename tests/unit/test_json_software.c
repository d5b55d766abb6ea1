/* test_json_software.c - software counters in benchlab JSON, and back. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "benchlab/format.h"
#include "benchlab/results.h"
#include "json_round_trip.h"

/* A launch of three measured batches (one disturbed) and an overhead one,
 * whose counters are known. */
static bl_results *make_run(void)
{
    bl_results *r = bl_results_create();
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, "BenchmarkSw"));
    bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 100, .ns = 50, .cpu_ns = 50, .nivcsw = 9};
    bl_sample m1 = {.stage = BL_STAGE_MEASURE, .reps = 100, .ns = 1000, .cpu_ns = 990, .minflt = 2};
    bl_sample m2 = {.stage = BL_STAGE_MEASURE,
                    .reps = 120,
                    .ns = 1300,
                    .cpu_ns = 1100,
                    .nivcsw = 1,
                    .migrations = 1};
    bl_sample m3 = {
        .stage = BL_STAGE_MEASURE, .reps = 100, .ns = 1010, .cpu_ns = 1000, .majflt = 1};
    bl_launch_add_sample(l, &o);
    bl_launch_add_sample(l, &m1);
    bl_launch_add_sample(l, &m2);
    bl_launch_add_sample(l, &m3);
    bl_launch_finish(l);
    return r;
}

static void software_counters_sum_measured_batches(void **state)
{
    (void)state;
    bl_results *r = make_run();
    bl_software sw;
    bl_launch_software(&r->benches[0].launches[0], &sw);
    /* the overhead batch is not the benchmark's; disturbed batches count */
    assert_int_equal(sw.batches, 3);
    assert_int_equal(sw.reps, 320);
    assert_true(sw.wall_ns == 3310);
    assert_true(sw.task_clock_ns == 3090);
    assert_int_equal(sw.context_switches, 1);
    assert_int_equal(sw.migrations, 1);
    assert_int_equal(sw.page_faults, 2);
    assert_int_equal(sw.major_faults, 1);
    /* a batch without on-CPU time makes the total unknown, not smaller */
    r->benches[0].launches[0].samples[2].cpu_ns = -1;
    bl_launch_software(&r->benches[0].launches[0], &sw);
    assert_true(isnan(sw.task_clock_ns));
    bl_results_destroy(r);
}

static void json_carries_software_counters_and_reads_them_back(void **state)
{
    (void)state;
    bl_results *in = make_run();
    char *text = NULL;
    bl_results *out = json_round_trip(in, "sw.json", &text);
    assert_non_null(strstr(text, "\"software\":{\"batches\":3,\"reps\":320,\"wall_ns\":3310,"
                                 "\"task_clock_ns\":3090,\"context_switches\":1,"
                                 "\"migrations\":1,\"page_faults\":2,\"major_faults\":1}"));
    free(text);
    bl_software a, b;
    bl_launch_software(&in->benches[0].launches[0], &a);
    bl_launch_software(&out->benches[0].launches[0], &b);
    assert_int_equal(b.batches, a.batches);
    assert_int_equal(b.reps, a.reps);
    assert_true(b.wall_ns == a.wall_ns && b.task_clock_ns == a.task_clock_ns);
    assert_int_equal(b.context_switches, a.context_switches);
    assert_int_equal(b.migrations, a.migrations);
    assert_int_equal(b.page_faults, a.page_faults);
    assert_int_equal(b.major_faults, a.major_faults);
    bl_results_destroy(in);
    bl_results_destroy(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(software_counters_sum_measured_batches),
        cmocka_unit_test(json_carries_software_counters_and_reads_them_back),
    };
    return cmocka_run_group_tests_name("json_software", tests, NULL, NULL);
}
