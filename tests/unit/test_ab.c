/*
 * test_ab.c - `benchlab ab`'s runner where the end-to-end tests
 * (tests/ab/e2e.sh) cannot reach it: out of memory in the middle of a
 * comparison. The library's bl__grow is wrapped (-Wl,--wrap=bl__grow,
 * tests/unit/CMakeLists.txt): while `fail_blocks` is set, growing the
 * comparison's array of blocks fails.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab/ab.h"

int __real_bl__grow(void **arr, size_t *cap, size_t need, size_t elem);
int __wrap_bl__grow(void **arr, size_t *cap, size_t need, size_t elem);

/* engine/ab.c's struct block: the one element of that size the runner grows */
struct block_layout {
    size_t pair;
    bool b_first;
    size_t sample[4];
};

static bool fail_blocks;
static size_t n_failed;

int __wrap_bl__grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (fail_blocks && elem == sizeof(struct block_layout)) {
        n_failed++;
        return -ENOMEM;
    }
    return __real_bl__grow(arr, cap, need, elem);
}

static void start_failing(void *ctx, const char *name, size_t index, size_t total)
{
    (void)ctx, (void)name, (void)index, (void)total;
    fail_blocks = true;
}

/* A comparison that runs out of memory ends with an error and says why
 * (engine/ab.c's invariant, which BL__CHECK also checks in debug builds). */
static void ab_out_of_memory_is_an_error_with_a_message(void **state)
{
    (void)state;
    bl_ab_options o;
    bl_ab_options_init(&o);
    o.old_exe = o.new_exe = FIXTURE_DIR "/fixture_ab_old";
    o.filter = "^BenchmarkSame$";
    o.time_s = 0.2;
    o.pairs = 2;
    o.seed = 7;
    bl_ab_observer obs = {.on_start = start_failing};
    bl_ab_report *r = NULL;
    char err[256] = "";
    int rc = bl_ab_run(&o, &obs, &r, err, sizeof err);
    fail_blocks = false;
    if (rc < 0)
        fail_msg("bl_ab_run: %d: %s", rc, err);
    assert_int_equal(rc, 1); /* a comparison failed */
    assert_true(n_failed > 0);
    assert_non_null(r);
    assert_int_equal(r->n_benches, 1);
    assert_int_equal(r->benches[0].verdict, BL_AB_ERROR);
    assert_non_null(r->benches[0].message);
    assert_string_equal(r->benches[0].message, "out of memory");
    bl_ab_report_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ab_out_of_memory_is_an_error_with_a_message),
    };
    return cmocka_run_group_tests_name("ab", tests, NULL, NULL);
}
