/* test_output.c - the atomic output helper (base/output.c): the named
 * temporary file of file systems without O_TMPFILE is removed when a signal
 * ends the process, a file size limit is an EFBIG error, and a discarded
 * output leaves the previous file. Devices and the e2e cases are in
 * tests/output/output.sh. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "benchlab/output.h"

int bl__output_open(const char *path, int allow_unnamed, bl_output **out);
char *bl__path_dir(const char *path);

static char dir[64];
static char target[128];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/bl-output-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(target, sizeof target, "%s/out.txt", dir);
    FILE *f = fopen(target, "w");
    fputs("previous\n", f);
    fclose(f);
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static size_t count_entries(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ls -A %s | wc -l", dir);
    FILE *p = popen(cmd, "r");
    unsigned long n = 0;
    assert_int_equal(fscanf(p, "%lu", &n), 1);
    pclose(p);
    return n;
}

static void assert_previous(void)
{
    char line[64] = "";
    FILE *f = fopen(target, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "previous\n");
}

/* In a child: open the named fallback, write, then end by `sig`. */
static int child_killed_by(int sig)
{
    pid_t pid = fork();
    if (pid == 0) {
        bl_output *o = NULL;
        if (bl__output_open(target, 0, &o) != 0)
            _exit(3);
        fputs("half a result", bl_output_file(o));
        fflush(bl_output_file(o));
        raise(sig);
        _exit(4);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) ? WTERMSIG(st) : -WEXITSTATUS(st);
}

static void output_named_temp_is_removed_when_a_signal_ends_the_process(void **state)
{
    (void)state;
    const int sigs[] = {SIGTERM, SIGHUP, SIGINT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        assert_int_equal(child_killed_by(sigs[i]), sigs[i]);
        assert_int_equal(count_entries(), 1); /* out.txt alone */
        assert_previous();
    }
}

static void output_past_the_file_size_limit_is_efbig_and_keeps_the_previous_file(void **state)
{
    (void)state;
    for (int unnamed = 0; unnamed <= 1; unnamed++) {
        pid_t pid = fork();
        if (pid == 0) {
            struct rlimit rl = {4096, 4096};
            setrlimit(RLIMIT_FSIZE, &rl);
            bl_output *o = NULL;
            if (bl__output_open(target, unnamed, &o) != 0)
                _exit(3);
            for (int k = 0; k < 2000; k++)
                fputs("a line of results\n", bl_output_file(o));
            _exit(bl_output_close(o) == -EFBIG ? 0 : 5);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
        assert_int_equal(count_entries(), 1);
        assert_previous();
    }
}

static void output_discarded_leaves_the_previous_file(void **state)
{
    (void)state;
    for (int unnamed = 0; unnamed <= 1; unnamed++) {
        bl_output *o = NULL;
        assert_int_equal(bl__output_open(target, unnamed, &o), 0);
        fputs("new", bl_output_file(o));
        bl_output_discard(o);
        assert_int_equal(count_entries(), 1);
        assert_previous();
    }
}

static void output_closed_replaces_the_file_whole(void **state)
{
    (void)state;
    for (int unnamed = 0; unnamed <= 1; unnamed++) {
        bl_output *o = NULL;
        assert_int_equal(bl__output_open(target, unnamed, &o), 0);
        assert_string_equal(bl_output_name(o), target);
        fputs("new\n", bl_output_file(o));
        assert_int_equal(bl_output_close(o), 0);
        assert_int_equal(count_entries(), 1);
        char line[16] = "";
        FILE *f = fopen(target, "r");
        assert_non_null(fgets(line, sizeof line, f));
        fclose(f);
        assert_string_equal(line, "new\n");
        f = fopen(target, "w");
        fputs("previous\n", f);
        fclose(f);
    }
}

static void output_dash_is_stdout(void **state)
{
    (void)state;
    bl_output *o = NULL;
    assert_int_equal(bl_output_open("-", &o), 0);
    assert_ptr_equal(bl_output_file(o), stdout);
    assert_string_equal(bl_output_name(o), "stdout");
    assert_int_equal(bl_output_close(o), 0);
}

/* The one dir_of of output.c and front/preflight.c. */
static void path_dir_is_what_precedes_the_last_slash(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"out.json", "."}, {"/out.json", "/"}, {"a/b/out.json", "a/b"},
        {"/a/out", "/a"},  {"a//out", "a/"},   {"dir/", "dir"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = bl__path_dir(cases[i][0]);
        assert_non_null(got);
        assert_string_equal(got, cases[i][1]);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(output_named_temp_is_removed_when_a_signal_ends_the_process,
                                        make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(
            output_past_the_file_size_limit_is_efbig_and_keeps_the_previous_file, make_dir,
            remove_dir),
        cmocka_unit_test_setup_teardown(output_discarded_leaves_the_previous_file, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(output_closed_replaces_the_file_whole, make_dir,
                                        remove_dir),
        cmocka_unit_test(output_dash_is_stdout),
        cmocka_unit_test(path_dir_is_what_precedes_the_last_slash),
    };
    return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
