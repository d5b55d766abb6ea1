/* test_gbench_write.c - Google Benchmark's CSV as benchlab writes it:
 * Google Benchmark's columns and quoting, under the rules every CSV
 * follows (docs/formats.md, "Hostile bytes"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/results.h"

static char *csv_of(const bl_results *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(bl_gbench_csv_write(f, r), 0);
    fclose(f);
    return buf;
}

/* A name from a hostile benchmark: the terminal control sequence is shown
 * as text (the CSV may go to a terminal), the formula is neutralised, and
 * every name is quoted, as Google Benchmark quotes it. */
static void csv_names_are_quoted_and_neutralised(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    const char *names[] = {"BM_osc\x1b]52;c;cHduZWQ=\x07x", "=cmd|calc!A0", "BM_plain"};
    for (size_t i = 0; i < 3; i++) {
        bl_bench_result *b = bl_results_bench(r, names[i]);
        bl_launch *l = bl_results_add_launch(b);
        l->ns_per_op = 40.0;
        l->measured_reps = 1000;
    }
    char *csv = csv_of(r);
    assert_null(strchr(csv, '\x1b'));
    assert_null(strchr(csv, '\x07'));
    assert_non_null(strstr(csv, "\n\"BM_osc\\x1b]52;c;cHduZWQ=\\x07x\","));
    assert_non_null(strstr(csv, "\n\"'=cmd|calc!A0\","));
    assert_non_null(strstr(csv, "\n\"BM_plain\",1000,"));
    free(csv);
    bl_results_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_names_are_quoted_and_neutralised),
    };
    return cmocka_run_group_tests_name("gbench_write", tests, NULL, NULL);
}
