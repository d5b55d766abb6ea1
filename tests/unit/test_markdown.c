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
#include "sim_data.h"

/* 0.3% noise around a flat level */
static double flat(size_t i, size_t n)
{
    (void)i, (void)n;
    return 1 + 0.003 * normal();
}

/* 8% slower from the first batch to the last, with the same noise */
static double ramp8(size_t i, size_t n)
{
    return (1 + 0.08 * (double)i / (double)n) * flat(i, n);
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
        sim_add_launch(b, 30, levels[k], 1, flat);
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
    sim_add_launch(bl_results_bench(r, "BenchmarkSteady"), 40, 50, 1, flat);
    bl_bench_result *b = bl_results_bench(r, "BenchmarkRamp");
    for (int k = 0; k < 6; k++)
        sim_add_launch(b, 40, 100, 1, ramp8);
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
