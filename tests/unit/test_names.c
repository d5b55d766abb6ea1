/* test_names.c - benchmark names and parameter expansion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/bench.h"

static void base_name_gets_prefix_and_capital(void **state)
{
    (void)state;
    char *n = bl__bench_base_name("sort_small");
    assert_string_equal(n, "BenchmarkSort_small");
    free(n);
    n = bl__bench_base_name("BenchmarkAlready");
    assert_string_equal(n, "BenchmarkAlready");
    free(n);
}

static void dummy(bl_state *st)
{
    (void)st;
}

static void instance_name_joins_params_in_order(void **state)
{
    (void)state;
    bl_bench_def def = {
        .name = "Sort",
        .fn = dummy,
        .params = BL_PARAMS(BL_INTS("size", 10, 1000), BL_STRS("algo", "merge", "quick sort"))};
    size_t idx[2] = {1, 1};
    char *n = bl__instance_name(&def, idx, false, 1);
    assert_string_equal(n, "BenchmarkSort/size=1000/algo=quick_sort");
    free(n);
}

static void param_macros_count_values(void **state)
{
    (void)state;
    const bl_param *p = BL_PARAMS(BL_INTS("a", 1, 2, 3), BL_STRS("b", "x"));
    assert_int_equal(p[0].n_values, 3);
    assert_int_equal(p[0].kind, BL_PARAM_INT);
    assert_int_equal(p[0].ints[2], 3);
    assert_int_equal(p[1].n_values, 1);
    assert_string_equal(p[1].strs[0], "x");
    assert_null(p[2].name);
}

/* Registered here, expanded by the registry: 2 x 3 instances, last fastest. */
BENCHLAB(Grid, .params = BL_PARAMS(BL_INTS("n", 1, 2), BL_STRS("k", "a", "b", "c")))
{
    while (bl_loop(st)) {
    }
}
BENCHLAB(Pool, .params = BL_PARAMS(BL_INTS("n", 8, 64)), .threads = BL_THREADS(1, 4))
{
    while (bl_loop(st)) {
    }
}
BENCHLAB(Plain)
{
    while (bl_loop(st)) {
    }
}

/* Ranges written out as Google Benchmark's Range and DenseRange are. */
BENCHLAB(Ranged, .params = BL_PARAMS(BL_RANGE("n", 8, 4096, 8), BL_DENSE_RANGE("k", 0, 10, 5)))
{
    while (bl_loop(st)) {
    }
}
BENCHLAB(Bad, .params = BL_PARAMS(BL_RANGE("n", 9, 2, 2)))
{
    while (bl_loop(st)) {
    }
}
/* Named by a layer: as written, repeated names kept apart */
static const int raw_data = 7;
static const bl_bench_def raw_a = {.name = "BM_x/1", .fn = dummy, .raw_name = 1, .data = &raw_data};
static const bl_bench_def raw_b = {
    .name = "BM_x/1", .fn = dummy, .raw_name = 1, .threads = BL_THREADS(2, 4)};
__attribute__((constructor)) static void register_raw(void)
{
    bl_register(&raw_a);
    bl_register(&raw_b);
}

static void registry_expands_all_combinations(void **state)
{
    (void)state;
    size_t n;
    const struct bl__instance *in = bl__registry_instances(&n);
    assert_int_equal(n, 11 + 12 + 1 + 2);
    static const char *want[] = {"BenchmarkGrid/n=1/k=a",
                                 "BenchmarkGrid/n=1/k=b",
                                 "BenchmarkGrid/n=1/k=c",
                                 "BenchmarkGrid/n=2/k=a",
                                 "BenchmarkGrid/n=2/k=b",
                                 "BenchmarkGrid/n=2/k=c",
                                 "BenchmarkPool/n=8/threads=1",
                                 "BenchmarkPool/n=8/threads=4",
                                 "BenchmarkPool/n=64/threads=1",
                                 "BenchmarkPool/n=64/threads=4",
                                 "BenchmarkPlain"};
    static const int want_threads[] = {1, 1, 1, 1, 1, 1, 1, 4, 1, 4, 1};
    static const bool want_threaded[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0};
    for (size_t i = 0; i < 11; i++) {
        assert_string_equal(in[i].name, want[i]);
        assert_int_equal(in[i].threads, want_threads[i]);
        assert_int_equal(in[i].threaded, want_threaded[i]);
    }
    static const char *ranged[] = {
        "BenchmarkRanged/n=8/k=0",    "BenchmarkRanged/n=8/k=5",    "BenchmarkRanged/n=8/k=10",
        "BenchmarkRanged/n=64/k=0",   "BenchmarkRanged/n=64/k=5",   "BenchmarkRanged/n=64/k=10",
        "BenchmarkRanged/n=512/k=0",  "BenchmarkRanged/n=512/k=5",  "BenchmarkRanged/n=512/k=10",
        "BenchmarkRanged/n=4096/k=0", "BenchmarkRanged/n=4096/k=5", "BenchmarkRanged/n=4096/k=10"};
    for (size_t i = 0; i < 12; i++) {
        assert_string_equal(in[11 + i].name, ranged[i]);
        assert_null(in[11 + i].param_error);
        assert_int_equal(in[11 + i].params[0].kind, BL_PARAM_INT);
    }
    /* a bad range: one instance, failed by the worker with the reason */
    assert_string_equal(in[23].name, "BenchmarkBad/n=9");
    assert_non_null(in[23].param_error);
    assert_non_null(strstr(in[23].param_error, "BL_RANGE(\"n\", 9, 2, 2): lo is above hi"));
    assert_string_equal(in[24].name, "BenchmarkBM_x/1");
    assert_string_equal(in[25].name, "BenchmarkBM_x/1#01");
    assert_true(in[24].def->data == &raw_data);
    assert_int_equal(in[25].threads, 2); /* the first count only */
    assert_true(in[25].threaded);
    assert_non_null(bl__registry_find("BenchmarkGrid/n=2/k=b"));
    assert_null(bl__registry_find("BenchmarkGrid/n=3/k=b"));
}

/* One test, in order: the registry's suite name is process-wide state. */
static void suite_name_is_declared_else_a_source_file_stem(void **state)
{
    (void)state;
    char *name = NULL, err[256] = "";
    /* nothing declared: the stem of the file of the first benchmark */
    assert_int_equal(bl__suite_name(&name, err, sizeof err), 0);
    assert_string_equal(name, "test_names");
    free(name);
    /* BENCHLAB_MAIN() in another file: that file's stem wins */
    bl_register_suite("", "/home/u/zlib/bench/zlib_bench.c");
    assert_int_equal(bl__suite_name(&name, err, sizeof err), 0);
    assert_string_equal(name, "zlib_bench");
    free(name);
    /* a declared name wins over both; the same name twice is fine */
    bl_register_suite("zlib", NULL);
    bl_register_suite("zlib", "other.c");
    assert_int_equal(bl__suite_name(&name, err, sizeof err), 0);
    assert_string_equal(name, "zlib");
    free(name);
    /* two different names are refused, naming both */
    bl_register_suite("zstd", NULL);
    assert_int_equal(bl__suite_name(&name, err, sizeof err), BL_EUSAGE);
    assert_null(name);
    assert_non_null(strstr(err, "'zlib' and 'zstd'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(base_name_gets_prefix_and_capital),
        cmocka_unit_test(instance_name_joins_params_in_order),
        cmocka_unit_test(param_macros_count_values),
        cmocka_unit_test(registry_expands_all_combinations),
        cmocka_unit_test(suite_name_is_declared_else_a_source_file_stem),
    };
    return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
