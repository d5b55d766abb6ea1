/* test_preflight.c - what a run checks before its first measurement
 * (src/lib/bench/preflight.c): --out destinations and profile
 * directories. The store's check is end to end (tests/store/cli.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "front/front.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/bl_preflight_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void out_devices_are_written_in_place(void **state)
{
    (void)state;
    char why[512] = "";
    /* /dev is not writable for everyone, and a device is never replaced
     * through its directory: a device itself is what counts */
    assert_int_equal(bl__preflight_out("/dev/null", why, sizeof why), 0);
    assert_int_equal(bl__preflight_out("/dev/stdout", why, sizeof why), 0);
    assert_string_equal(why, "");
}

static void out_new_file_needs_an_existing_directory(void **state)
{
    (void)state;
    char path[128], why[512];
    snprintf(path, sizeof path, "%s/r.json", dir);
    assert_int_equal(bl__preflight_out(path, why, sizeof why), 0);
    snprintf(path, sizeof path, "%s/missing/r.json", dir);
    assert_true(bl__preflight_out(path, why, sizeof why) < 0);
    assert_non_null(strstr(why, "--out "));
    assert_non_null(strstr(why, "does not exist"));
    assert_non_null(strstr(why, path));
    /* a bare file name is in the current directory */
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(bl__preflight_out("r.txt", why, sizeof why), 0);
}

static void out_directory_or_file_as_directory_is_refused(void **state)
{
    (void)state;
    char path[128], why[512];
    assert_true(bl__preflight_out(dir, why, sizeof why) < 0);
    assert_non_null(strstr(why, "is a directory"));
    snprintf(path, sizeof path, "%s/plain", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(bl__preflight_out(path, why, sizeof why), 0); /* replaced: fine */
    snprintf(path, sizeof path, "%s/plain/r.json", dir);
    assert_true(bl__preflight_out(path, why, sizeof why) < 0);
    assert_non_null(strstr(why, "Not a directory")); /* ENOTDIR, named with the path */
    assert_non_null(strstr(why, path));
}

static void profile_dir_existing_new_or_blocked(void **state)
{
    (void)state;
    char path[128], why[512];
    assert_int_equal(bl__preflight_profile_dir(dir, why, sizeof why), 0);
    snprintf(path, sizeof path, "%s/p", dir);
    assert_int_equal(bl__preflight_profile_dir(path, why, sizeof why), 0);
    snprintf(path, sizeof path, "%s/no/p", dir);
    assert_true(bl__preflight_profile_dir(path, why, sizeof why) < 0);
    assert_non_null(strstr(why, "does not exist"));
    snprintf(path, sizeof path, "%s/plain", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_true(bl__preflight_profile_dir(path, why, sizeof why) < 0);
    assert_non_null(strstr(why, "exists and is not a directory"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(out_devices_are_written_in_place),
        cmocka_unit_test(out_new_file_needs_an_existing_directory),
        cmocka_unit_test(out_directory_or_file_as_directory_is_refused),
        cmocka_unit_test(profile_dir_existing_new_or_blocked),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
