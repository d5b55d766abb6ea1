/* test_exec.c - the library side of `benchlab exec`: the failure rule of
 * --ignore-failure=CODES, the early-stop rule the summary quotes, a shell
 * given as a command line, and hyperfine's markup tables (golden text). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "benchlab/exec.h"

static int run_one(const char *command, const char *shell, const int *codes, size_t n_codes,
                   bl_exec_results **res)
{
    static bl_exec_command cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.name = command;
    cmd.command = command;
    bl_exec_options o;
    bl_exec_options_init(&o);
    o.shell = shell;
    o.runs = 2;
    o.ignore_failure = codes != NULL;
    o.ignore_codes = codes;
    o.n_ignore_codes = n_codes;
    char err[256];
    return bl_exec_run_all(&cmd, 1, &o, NULL, res, err, sizeof err);
}

static void ignore_codes_ignore_only_those(void **state)
{
    (void)state;
    bl_exec_results *res = NULL;
    int one = 1, two[] = {1, 2};
    assert_int_equal(run_one("exit 2", "sh", &one, 1, &res), BL_EEXIT);
    assert_int_equal(res->results[0].n_runs, 0);
    bl_exec_results_destroy(res);
    assert_int_equal(run_one("exit 2", "sh", two, 2, &res), 0);
    assert_int_equal(res->results[0].n_runs, 2);
    assert_int_equal(res->results[0].runs[1].exit_code, 2);
    bl_exec_results_destroy(res);
    /* no list: every non-zero exit is ignored */
    assert_int_equal(run_one("exit 7", "sh", &one, 0, &res), 0);
    bl_exec_results_destroy(res);
}

static void early_stop_rule_is_reported(void **state)
{
    (void)state;
    bl_exec_results *res = NULL;
    assert_int_equal(run_one("true", NULL, NULL, 0, &res), 0);
    /* the rule the summary prints: 100 runs, an interval within 0.2% */
    assert_int_equal(res->early_min_runs, 100);
    assert_true(fabs(res->early_rel_width - 0.002) < 1e-12);
    bl_exec_results_destroy(res);
}

static void shell_is_a_command_line(void **state)
{
    (void)state;
    bl_exec_results *res = NULL;
    /* "sh -e": the shell's own words, then -c CMD */
    assert_int_equal(run_one("false; true", "sh -e", NULL, 0, &res), BL_EEXIT);
    bl_exec_results_destroy(res);
    assert_int_equal(run_one("false; true", "sh", NULL, 0, &res), 0);
    assert_string_equal(res->shell, "sh");
    assert_true(res->n_shell_runs >= 2);
    bl_exec_results_destroy(res);
    assert_int_equal(run_one("true", "'sh", NULL, 0, &res), BL_EUSAGE);
    bl_exec_results_destroy(res);
}

/* Two synthetic results: means 2 ms and 4 ms, stddev 0.1 and 0.2 ms. */
static void fake(bl_exec_results *res, bl_exec_result *r, bl_exec_command *c, bl_exec_run *runs)
{
    memset(res, 0, sizeof *res);
    memset(r, 0, 2 * sizeof *r);
    memset(c, 0, 2 * sizeof *c);
    c[0].name = "a|b";
    c[1].name = "slow";
    c[1].label = "slow (x = 1)";
    for (int i = 0; i < 2; i++) {
        r[i].command = &c[i];
        r[i].runs = runs;
        r[i].n_runs = 3;
        r[i].wall.mean = 2e6 * (i + 1);
        r[i].wall.stddev = 1e5 * (i + 1);
        r[i].wall.min = 1.9e6 * (i + 1);
        r[i].wall.max = 2.1e6 * (i + 1);
    }
    res->results = r;
    res->n_results = 2;
}

static char *table(const bl_exec_results *res, const bl_exec_table_options *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(bl_exec_write_table(f, res, o), 0);
    fclose(f);
    return text;
}

static void markup_tables_are_hyperfines(void **state)
{
    (void)state;
    bl_exec_results res;
    bl_exec_result r[2];
    bl_exec_command c[2];
    bl_exec_run runs[3];
    memset(runs, 0, sizeof runs);
    fake(&res, r, c, runs);
    bl_exec_table_options o = {BL_EXEC_MARKDOWN, 0, NULL, 0, SIZE_MAX};
    char *md = table(&res, &o);
    assert_string_equal(md, "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n"
                            "|:---|---:|---:|---:|---:|\n"
                            "| `a\\|b` | 2.0 ± 0.1 | 1.9 | 2.1 | 1.00 |\n"
                            "| `slow (x = 1)` | 4.0 ± 0.2 | 3.8 | 4.2 | 2.00 ± 0.14 |\n");
    free(md);
    o.markup = BL_EXEC_ORGMODE;
    o.unit_ns = 1e3;
    char *org = table(&res, &o);
    assert_string_equal(org, "| Command  |  Mean [µs] |  Min [µs] |  Max [µs] |  Relative |\n"
                             "|--+--+--+--+--|\n"
                             "| =a\\|b=  |  2000.0 ± 100.0 |  1900.0 |  2100.0 |  1.00 |\n"
                             "| =slow (x = 1)=  |  4000.0 ± 200.0 |  3800.0 |  4200.0 |  "
                             "2.00 ± 0.14 |\n");
    free(org);
    /* AsciiDoc, the slow one as the reference and listed first, in seconds */
    size_t order[] = {1, 0};
    bl_exec_table_options a = {BL_EXEC_ASCIIDOC, 1e9, order, 2, 1};
    char *adoc = table(&res, &a);
    assert_string_equal(adoc, "[cols=\"<,>,>,>,>\"]\n|===\n"
                              "| Command \n| Mean [s] \n| Min [s] \n| Max [s] \n| Relative \n\n"
                              "| `slow (x = 1)` \n| 0.004 ± 0.000 \n| 0.004 \n| 0.004 \n"
                              "| 1.00 \n\n"
                              "| `a\\|b` \n| 0.002 ± 0.000 \n| 0.002 \n| 0.002 \n"
                              "| 2.00 ± 0.14 \n|===\n");
    free(adoc);
    /* a mean of 0: no ratio, hyperfine's inf */
    r[0].wall.mean = 0;
    o.markup = BL_EXEC_MARKDOWN;
    o.reference = 1;
    char *zero = table(&res, &o);
    assert_non_null(strstr(zero, "| inf |"));
    assert_null(strstr(zero, "nan"));
    free(zero);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ignore_codes_ignore_only_those),
        cmocka_unit_test(early_stop_rule_is_reported),
        cmocka_unit_test(shell_is_a_command_line),
        cmocka_unit_test(markup_tables_are_hyperfines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
