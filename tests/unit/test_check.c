/* test_check.c - BL__CHECK (an invariant that aborts in debug and
 * sanitizer builds) and the plan's bookkeeping it guards in the engine. */
#define BENCHLAB_CHECKS 1 /* as a sanitizer build: checks on whatever NDEBUG says */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"
#include "engine/engine.h"

static void a_holding_check_does_nothing(void **state)
{
    (void)state;
    int n = 2;
    BL__CHECK(n == 2);
    assert_int_equal(n, 2);
}

static void a_broken_check_aborts_and_names_itself(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(p[1], 2);
        int n = 3;
        BL__CHECK(n == 2);
        _exit(0);
    }
    close(p[1]);
    char buf[512] = "";
    size_t have = 0;
    ssize_t got;
    while (have < sizeof buf - 1 && (got = read(p[0], buf + have, sizeof buf - 1 - have)) > 0)
        have += (size_t)got;
    close(p[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(buf, "internal check failed: n == 2"));
    assert_non_null(strstr(buf, "test_check.c:"));
}

/* A disturbed launch is replaced at most twice; a broken one stops its
 * benchmark; each benchmark has its own count of regular rounds. */
static void plan_replaces_disturbed_and_stops_broken(void **state)
{
    (void)state;
    struct bl__plan p;
    memset(&p, 0, sizeof p);
    struct bl__plan_entry e[2];
    memset(e, 0, sizeof e);
    e[0].count = 6;
    e[1].count = 2; /* a definition's own .count */
    p.entry = e;
    p.n = 2;
    assert_int_equal(bl__plan_max_count(&p), 6);
    assert_int_equal(bl__plan_total(&p), 8);
    assert_true(bl__plan_wants(&p, 0, 0));
    assert_true(bl__plan_wants(&p, 0, 5));
    assert_false(bl__plan_wants(&p, 0, 6)); /* a replacement, and nothing owed yet */
    assert_true(bl__plan_wants(&p, 1, 1));
    assert_false(bl__plan_wants(&p, 1, 2)); /* its own 2 rounds are done */
    for (int k = 0; k < 3; k++) {
        bl__plan_ended(&p, 0, BL__LAUNCH_DISTURBED, false);
    }
    assert_int_equal(e[0].owed, 2);
    assert_int_equal(e[0].replaced, 2);
    assert_true(bl__plan_wants(&p, 0, 6));
    bl__plan_ended(&p, 0, BL__LAUNCH_OK, true);
    bl__plan_ended(&p, 0, BL__LAUNCH_OK, true);
    assert_false(bl__plan_wants(&p, 0, 7));
    assert_true(bl__plan_wants(&p, 0, 0));
    bl__plan_ended(&p, 1, BL__LAUNCH_BROKEN, false);
    assert_false(bl__plan_wants(&p, 1, 0));
    assert_false(bl__plan_wants(&p, 1, 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_holding_check_does_nothing),
        cmocka_unit_test(a_broken_check_aborts_and_names_itself),
        cmocka_unit_test(plan_replaces_disturbed_and_stops_broken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
