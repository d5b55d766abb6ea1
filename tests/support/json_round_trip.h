/*
 * json_round_trip.h - results written as benchlab JSON (bl_json_write) and
 * read back (bl_results_read_fd), for the unit tests that check what the
 * format keeps. Include after cmocka.h and benchlab/format.h.
 */
#ifndef BENCHLAB_TESTS_JSON_ROUND_TRIP_H
#define BENCHLAB_TESTS_JSON_ROUND_TRIP_H

#include <stdio.h>
#include <stdlib.h>

/*
 * `in` as benchlab JSON, read back under the name `name` (which the
 * reader's messages show). The text written goes to *text when it is not
 * NULL (the caller frees it with free()), so that a test can look at the
 * JSON too. Fails the test when writing or reading fails, with the
 * reader's message. Caller frees the result with bl_results_destroy().
 */
static inline bl_results *json_round_trip(const bl_results *in, const char *name, char **text)
{
    char *json = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&json, &len);
    assert_non_null(f);
    assert_int_equal(bl_json_write(f, in), 0);
    assert_int_equal(fclose(f), 0);
    /* a file, not a pipe: any size fits */
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    assert_int_equal(fwrite(json, 1, len, tmp), len);
    assert_int_equal(fflush(tmp), 0);
    rewind(tmp);
    bl_results *out = NULL;
    char err[256] = "";
    int rc = bl_results_read_fd(fileno(tmp), name, &out, NULL, err, sizeof err);
    assert_int_equal(fclose(tmp), 0);
    if (text)
        *text = json;
    else
        free(json);
    if (rc)
        fail_msg("%s read back: %s", name, err);
    return out;
}

#endif
