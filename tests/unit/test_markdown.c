/*
 * test_markdown.c - the Markdown output (bl_markdown_write) says what
 * `run`'s table says: the estimate over launches (bl_bench_estimate), its
 * interval, ref-cycles, and the diagnosis notes below the table.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab/format.h"
#include "benchlab/results.h"

/* About normal, mean 0 and sd 1 (the sum of 12 uniforms, an LCG of
 * fixed seed): batch noise of one hump, so the diagnosis stays quiet. */
static double bell(void)
{
    static uint64_t x = 88172645463325252ull;
    double sum = 0;
    for (int k = 0; k < 12; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        sum += (double)(x >> 11) / 9007199254740992.0;
    }
    return sum - 6;
}

/* A launch of n measured batches of 1000 repetitions at `level` ns per op
 * times (1 + slope * i / n) (a drift when slope is not 0), 0.3% noise,
 * overhead batches of 1 ns per op. */
static void add_launch(bl_bench_result *b, size_t n, double level, double slope)
{
    bl_launch *l = bl_results_add_launch(b);
    assert_non_null(l);
    for (size_t i = 0; i < n; i++) {
        double wobble = 1 + 0.003 * bell();
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 1000, .cpu_ns = -1};
        bl_sample m = {.stage = BL_STAGE_MEASURE,
                       .reps = 1000,
                       .ns = 1000 * (level * (1 + slope * (double)i / (double)n) * wobble + 1),
                       .cpu_ns = -1};
        assert_int_equal(bl_launch_add_sample(l, &o), 0);
        assert_int_equal(bl_launch_add_sample(l, &m), 0);
    }
    bl_launch_finish(l);
}

static char *markdown_of(const bl_results *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(bl_markdown_write(f, r), 0);
    fclose(f);
    return buf;
}

static void markdown_shows_the_estimate_and_its_interval(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    assert_non_null(r);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkFlat");
    assert_non_null(b);
    /* six launches at different levels: the median of the centres and the
     * distribution-free interval over them, not a summary of one launch */
    static const double levels[] = {100, 104, 98, 101, 120, 99};
    for (int k = 0; k < 6; k++)
        add_launch(b, 30, levels[k], 0);
    bl_estimate e;
    assert_int_equal(bl_bench_estimate(b, 0.95, &e), 0);
    assert_int_equal(e.ci_method, BL_CI_LAUNCHES);
    char t[64], lo[64], hi[64], want[256];
    bl_format_duration(t, sizeof t, e.centre);
    bl_format_duration(lo, sizeof lo, e.ci_lo);
    bl_format_duration(hi, sizeof hi, e.ci_hi);
    snprintf(want, sizeof want, "| BenchmarkFlat | %s | %s – %s |", t, lo, hi);
    char *md = markdown_of(r);
    assert_non_null(strstr(md, "| benchmark | time/op | 95% CI |"));
    if (!strstr(md, want))
        fail_msg("no row '%s' in:\n%s", want, md);
    if (strstr(md, "Notes:")) /* flat batches: nothing to say */
        fail_msg("notes in:\n%s", md);
    assert_null(strstr(md, "one launch")); /* six launches: no footnote */
    free(md);
    bl_results_destroy(r);
}

static void markdown_notes_drift_below_the_table(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    assert_non_null(r);
    add_launch(bl_results_bench(r, "BenchmarkSteady"), 40, 50, 0);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkRamp");
    for (int k = 0; k < 6; k++)
        add_launch(b, 40, 100, 0.08); /* 8% slower from first batch to last */
    char *md = markdown_of(r);
    /* one launch of Steady: its interval comes from its batches, marked */
    assert_non_null(strstr(md, " \\*"));
    assert_non_null(strstr(md, "\\* one launch: the interval of its batches"));
    const char *notes = strstr(md, "\nNotes:\n\n- BenchmarkRamp: drift +");
    if (!notes)
        fail_msg("no drift note in:\n%s", md);
    assert_non_null(strstr(notes, "% within launches (p\\<1e-6)\n"));
    assert_null(strstr(md, "- BenchmarkSteady:"));
    free(md);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(markdown_shows_the_estimate_and_its_interval),
        cmocka_unit_test(markdown_notes_drift_below_the_table),
    };
    return cmocka_run_group_tests_name("markdown", tests, NULL, NULL);
}
