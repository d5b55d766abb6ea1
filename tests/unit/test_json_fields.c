/* test_json_fields.c - benchlab JSON written and read back keeps what a
 * launch said of itself (its label, time unit, size for complexity fits,
 * intrinsic disturbances, the batch size it tuned), and the fits come back
 * as the run made them (bl_results_refit_complexity). */
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

#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/results.h"
#include "json_round_trip.h"

static char *copy_of(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    assert_non_null(d);
    memcpy(d, s, n);
    return d;
}

/* One launch of `name` taking ns per op over three measured batches. */
static bl_launch *add_launch(bl_results *r, const char *name, double ns)
{
    bl_launch *l = bl_results_add_launch(bl_results_bench(r, name));
    assert_non_null(l);
    for (int i = 0; i < 3; i++) {
        bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 100, .ns = 100 * ns, .cpu_ns = 100 * ns};
        assert_int_equal(bl_launch_add_sample(l, &m), 0);
    }
    l->overhead_ns = 0;
    l->ns_per_op = l->raw_ns_per_op = ns;
    l->measured_reps = 300;
    l->n_measured = 3;
    return l;
}

/* A run as the engine leaves it: a Google Benchmark family of three sizes
 * (2 threads, a label, its own unit, its own curve), a benchmark that
 * asked for no fit, fitted only with --complexity, and the fits made. */
static bl_results *make_run(void)
{
    bl_results *r = bl_results_create();
    assert_non_null(r);
    memcpy(r->time_unit, "ms", 3);
    assert_int_equal(bl_results_set_meta(r, "complexity-fit", "all"), 0);
    static const char *const names[] = {"BM_sort<int, double>/8", "BM_sort<int, double>/64",
                                        "BM_sort<int, double>/512"};
    const double n[] = {8, 64, 512};
    for (int i = 0; i < 3; i++) {
        bl_launch *l = add_launch(r, names[i], 3 * n[i] * log2(n[i]));
        l->threads = 2;
        l->label = copy_of("sorted input");
        memcpy(l->time_unit, "us", 3);
        l->intrinsic = BL_INVALID_MINFLT | BL_INVALID_GAP;
        l->tuned_reps = 100 + (uint64_t)i;
        l->tune_stale = i == 1;
        l->size.param = copy_of("n");
        l->size.n = n[i];
        l->size.complexity = BL_COMPLEXITY_AUTO;
        l->size.group = copy_of("BM_sort<int, double>");
        l->size.user_g = n[i] * log2(n[i]);
        l->size.user_name = copy_of("n lg n");
        l->size.n_sum = 2 * n[i];
        l->size.user_g_sum = 2 * n[i] * log2(2 * n[i]);
    }
    const double len[] = {100, 200, 400};
    static const char *const unasked[] = {"BenchmarkCopy/len=100", "BenchmarkCopy/len=200",
                                          "BenchmarkCopy/len=400"};
    for (int i = 0; i < 3; i++) {
        bl_launch *l = add_launch(r, unasked[i], 5 * len[i]);
        l->size.param = copy_of("len");
        l->size.n = len[i];
    }
    assert_int_equal(bl_results_fit_complexity(r, true), 0);
    assert_int_equal(r->n_complexity, 2);
    return r;
}

static char *json_text(const bl_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(bl_json_write(f, r), 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

static int read_text(const char *text, bl_results **out, char *err, size_t err_size)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    size_t len = strlen(text);
    assert_true(len < 60000); /* fits in the pipe */
    assert_int_equal(write(fds[1], text, len), (ssize_t)len);
    close(fds[1]);
    int rc = bl_results_read_fd(fds[0], "f.json", out, NULL, err, err_size);
    close(fds[0]);
    return rc;
}

static char *gbench_text(const bl_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(bl_gbench_json_write(f, r, "suite"), 0);
    assert_int_equal(fclose(f), 0);
    char *b = strstr(text, "\"benchmarks\"");
    assert_non_null(b);
    memmove(text, b, strlen(b) + 1); /* the context has the date */
    return text;
}

static void json_keeps_what_a_launch_said(void **state)
{
    (void)state;
    bl_results *in = make_run();
    bl_results *out = json_round_trip(in, "f.json", NULL);
    assert_string_equal(out->time_unit, "ms");
    assert_int_equal(out->n_benches, in->n_benches);
    for (size_t i = 0; i < in->n_benches; i++) {
        const bl_launch *a = &in->benches[i].launches[0], *b = &out->benches[i].launches[0];
        assert_string_equal(out->benches[i].name, in->benches[i].name);
        assert_int_equal(b->tuned_reps, a->tuned_reps);
        assert_int_equal(b->tune_stale, a->tune_stale);
        assert_int_equal(b->intrinsic, a->intrinsic);
        assert_string_equal(b->time_unit, a->time_unit);
        if (a->label)
            assert_string_equal(b->label, a->label);
        else
            assert_null(b->label);
        assert_string_equal(b->size.param, a->size.param);
        assert_true(b->size.n == a->size.n);
        assert_int_equal(b->size.complexity, a->size.complexity);
        assert_true(b->size.n_sum == a->size.n_sum);
        if (a->size.group) {
            assert_string_equal(b->size.group, a->size.group);
            assert_string_equal(b->size.user_name, a->size.user_name);
            assert_true(b->size.user_g == a->size.user_g);
            assert_true(b->size.user_g_sum == a->size.user_g_sum);
        } else {
            assert_null(b->size.group);
            assert_null(b->size.user_name);
            assert_true(isnan(b->size.user_g) && isnan(b->size.user_g_sum));
        }
    }
    bl_results_destroy(in);
    bl_results_destroy(out);
}

/* The fits are not read but made again, --complexity's too: the same as
 * the run's, and so is every output made of them. */
static void json_read_back_has_the_runs_fits(void **state)
{
    (void)state;
    bl_results *in = make_run();
    bl_results *out = json_round_trip(in, "f.json", NULL);
    assert_int_equal(out->n_complexity, in->n_complexity);
    for (size_t i = 0; i < in->n_complexity; i++) {
        const bl_complexity_result *a = &in->complexity[i], *b = &out->complexity[i];
        assert_string_equal(b->name, a->name);
        assert_int_equal(b->mode, a->mode);
        assert_int_equal(b->n_points, a->n_points);
        assert_int_equal(b->best.curve, a->best.curve);
        assert_true(b->best.coefficient == a->best.coefficient);
        assert_true(b->best.rms == a->best.rms);
    }
    char *j1 = json_text(in), *j2 = json_text(out);
    assert_non_null(strstr(j1, "\"complexity\":[\n{"));
    assert_string_equal(j1, j2);
    char *g1 = gbench_text(in), *g2 = gbench_text(out);
    assert_non_null(strstr(g1, "BM_sort<int, double>_BigO"));
    assert_non_null(strstr(g1, "\"label\": \"sorted input\""));
    assert_string_equal(g1, g2);
    free(j1);
    free(j2);
    free(g1);
    free(g2);
    bl_results_destroy(in);
    bl_results_destroy(out);
}

/* A file from before these members: read as before, no size, no fit. */
static void old_files_read_as_before(void **state)
{
    (void)state;
    static const char text[] =
        "{\"schema\":\"benchlab/1\",\"config\":{},\"meta\":{},\"units\":{},\"benchmarks\":["
        "{\"name\":\"BenchmarkA/n=1\",\"launches\":[{\"status\":\"ok\",\"ns_per_op\":5,"
        "\"threads\":0}]}],\"complexity\":[]}";
    bl_results *out = NULL;
    char err[256] = "";
    if (read_text(text, &out, err, sizeof err))
        fail_msg("read: %s", err);
    const bl_launch *l = &out->benches[0].launches[0];
    assert_null(l->label);
    assert_string_equal(l->time_unit, "");
    assert_string_equal(out->time_unit, "");
    assert_null(l->size.param);
    assert_int_equal(l->size.complexity, BL_COMPLEXITY_NONE);
    assert_true(isnan(l->size.user_g));
    assert_int_equal(l->tuned_reps, 0);
    assert_int_equal(l->intrinsic, 0);
    assert_int_equal(out->n_complexity, 0);
    bl_results_destroy(out);
}

/* A member of the wrong kind is an error that names it. */
static void bad_members_are_named(void **state)
{
    (void)state;
    static const struct {
        const char *member, *want;
    } cases[] = {
        {"\"time_unit\":\"ks\"", "benchmarks[0].launches[0]: time_unit: \"ks\" is not ns"},
        {"\"size\":{\"n\":1,\"complexity\":\"O(n!)\"}",
         "benchmarks[0].launches[0].size: complexity: \"O(n!)\" is not none, auto"},
        {"\"size\":{\"n\":\"one\"}", "benchmarks[0].launches[0].size: n: not a number"},
        {"\"label\":7", "benchmarks[0].launches[0]: label: not a string"},
        {"\"tune_stale\":1", "benchmarks[0].launches[0]: tune_stale: not true or false"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"schema\":\"benchlab/1\",\"benchmarks\":[{\"name\":\"BenchmarkA\","
                 "\"launches\":[{\"status\":\"ok\",\"ns_per_op\":5,%s}]}]}",
                 cases[i].member);
        bl_results *out = NULL;
        char err[256] = "";
        assert_int_equal(read_text(text, &out, err, sizeof err), BL_EFORMAT);
        assert_null(out);
        if (!strstr(err, cases[i].want))
            fail_msg("%s: got \"%s\"", cases[i].member, err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_keeps_what_a_launch_said),
        cmocka_unit_test(json_read_back_has_the_runs_fits),
        cmocka_unit_test(old_files_read_as_before),
        cmocka_unit_test(bad_members_are_named),
    };
    return cmocka_run_group_tests_name("json_fields", tests, NULL, NULL);
}
