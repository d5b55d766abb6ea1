/* test_strindex.c - the hash index behind lookups by name and key
 * (base/strindex.c), against a plain array searched by scan: adds,
 * removals (backward-shift deletion) and moves as the Go reader's
 * swap-with-last deletion does them; and the results model's lookups. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/base.h"
#include "benchlab/results.h"

#define N_KEYS 3000

static const char *key_at(const void *arr, size_t i)
{
    return ((char *const *)arr)[i];
}

/* A set of keys kept as benchfmt keeps configuration: appended, deleted by
 * swapping the last key into the hole; the index follows every change. */
static void index_follows_adds_swaps_and_removals(void **state)
{
    (void)state;
    static char names[N_KEYS][16];
    char *arr[N_KEYS];
    size_t n = 0;
    struct bl__strindex x = {0};
    struct bl__rng rng;
    bl__rng_seed(&rng, 7);
    for (int step = 0; step < 40000; step++) {
        unsigned k = (unsigned)(bl__rng_next(&rng) % N_KEYS);
        snprintf(names[k], sizeof names[k], "key%u", k);
        long at = bl__strindex_find(&x, names[k], strlen(names[k]), key_at, arr);
        long scan = -1;
        for (size_t i = 0; i < n; i++)
            if (strcmp(arr[i], names[k]) == 0)
                scan = (long)i;
        assert_int_equal(at, scan);
        if (at < 0) {
            assert_int_equal(bl__strindex_add(&x, names[k], n), 0);
            arr[n++] = names[k];
        } else if (bl__rng_next(&rng) % 2) {
            size_t last = n - 1;
            bl__strindex_remove(&x, arr[at], (size_t)at);
            if ((size_t)at != last)
                bl__strindex_move(&x, arr[last], last, (size_t)at);
            arr[at] = arr[last];
            n--;
        }
        assert_int_equal(x.n, n);
    }
    for (size_t i = 0; i < n; i++)
        assert_int_equal(bl__strindex_find(&x, arr[i], strlen(arr[i]), key_at, arr), (long)i);
    assert_int_equal(bl__strindex_find(&x, "key", 3, key_at, arr), -1);
    bl__strindex_fini(&x);
}

/* The results model finds benchmarks, configuration and metadata by name,
 * also entries appended to its arrays by code that does not go through
 * bl_results_bench (the index catches up on the next lookup). */
static void results_lookups_by_name(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    assert_non_null(r);
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "Bench%d", i);
        assert_non_null(bl_results_bench(r, name));
        snprintf(name, sizeof name, "key%d", i);
        assert_int_equal(bl_results_set_config(r, name, "v"), 0);
    }
    assert_int_equal(r->n_benches, 5000);
    assert_ptr_equal(bl_results_find(r, "Bench4321"), &r->benches[4321]);
    assert_null(bl_results_find(r, "Bench5000"));
    assert_int_equal(bl_results_set_config(r, "key17", "w"), 0);
    assert_int_equal(r->n_config, 5000);
    assert_string_equal(bl_results_get_config(r, "key17"), "w");
    assert_null(bl_results_get_config(r, "key5000"));
    assert_int_equal(bl_results_set_meta(r, "host", "h"), 0);
    assert_string_equal(bl_results_get_meta(r, "host"), "h");
    /* appended behind the index's back */
    bl_bench_result *b = bl_results_bench(r, "Bench0");
    assert_ptr_equal(b, &r->benches[0]);
    bl_results *other = bl_results_create();
    assert_non_null(bl_results_bench(other, "Extra"));
    assert_int_equal(bl_results_merge(r, other), 0);
    assert_ptr_equal(bl_results_find(r, "Extra"), &r->benches[5000]);
    bl_results_destroy(other);
    bl_results_destroy(r);
}

static const char *same_key(const void *arr, size_t i)
{
    (void)i;
    return arr;
}

/* A slot is 8 bytes (the index of a million strings is 16 MiB, not 32);
 * the price is that positions stop below UINT32_MAX: an add past that
 * fails, it does not wrap onto position 0. */
static void slots_are_8_bytes_and_positions_below_uint32_max(void **state)
{
    (void)state;
    assert_int_equal(sizeof(struct bl__strindex_slot), 8);
    struct bl__strindex x = {0};
    const char *k = "last";
    assert_int_equal(bl__strindex_add(&x, k, (size_t)UINT32_MAX - 1), 0);
    assert_int_equal(bl__strindex_find(&x, k, 4, same_key, k), (long)UINT32_MAX - 1);
    assert_int_equal(bl__strindex_add(&x, k, (size_t)UINT32_MAX), -ENOMEM);
    assert_int_equal(bl__strindex_add(&x, k, SIZE_MAX - 1), -ENOMEM);
    assert_int_equal(x.n, 1);
    bl__strindex_move(&x, k, (size_t)UINT32_MAX - 1, 3);
    assert_int_equal(bl__strindex_find(&x, k, 4, same_key, k), 3);
    bl__strindex_remove(&x, k, 3);
    assert_int_equal(x.n, 0);
    assert_int_equal(bl__strindex_find(&x, k, 4, same_key, k), -1);
    bl__strindex_fini(&x);
}

/* Unit metadata is found by (unit, key) with the pair built on the stack,
 * or on the heap when it is long: both find what was set, and a pair is
 * not confused with another whose parts split differently. */
static void unit_metadata_lookups_short_and_long(void **state)
{
    (void)state;
    bl_results *r = bl_results_create();
    assert_non_null(r);
    char longu[600];
    memset(longu, 'u', sizeof longu - 1);
    longu[sizeof longu - 1] = '\0';
    assert_int_equal(bl_results_set_unit_meta(r, "ns/op", "better", "lower"), 0);
    assert_int_equal(bl_results_set_unit_meta(r, longu, "better", "higher"), 0);
    assert_int_equal(bl_results_set_unit_meta(r, "ns/opb", "etter", "x"), 0);
    assert_int_equal(r->n_units, 3);
    /* the same value again: no change; another value: a conflict (1) */
    assert_int_equal(bl_results_set_unit_meta(r, "ns/op", "better", "lower"), 0);
    assert_int_equal(bl_results_set_unit_meta(r, longu, "better", "higher"), 0);
    assert_int_equal(bl_results_set_unit_meta(r, longu, "better", "lower"), 1);
    assert_int_equal(bl_results_set_unit_meta(r, "ns/opb", "etter", "y"), 1);
    assert_int_equal(r->n_units, 3);
    assert_string_equal(r->units[1].unit, longu);
    assert_string_equal(r->units[1].value, "higher");
    bl_results_destroy(r);
}

/* 300k keys of 2 to 19 bytes: some pairs share their 32 bits of slot hash
 * (about n^2 / 2^33 = 10 of them), so a lookup compares its key with a
 * shorter or longer one; that comparison must stop at the shorter string's
 * end (under ASan a memcmp of the probe's length read past it). */
#define N_MANY 300000
static void colliding_hashes_of_different_lengths(void **state)
{
    (void)state;
    /* each indexed key in a block of its own size, so that ASan sees a
     * read past its end */
    char **keys = calloc(N_MANY, sizeof *keys);
    assert_non_null(keys);
    struct bl__strindex x = {0};
    char k[32];
    for (size_t i = 0; i < N_MANY; i++) {
        size_t n = (size_t)snprintf(k, sizeof k, "k%zu%.*s", i, (int)(i % 13), "xxxxxxxxxxxxx");
        keys[i] = malloc(n + 1);
        assert_non_null(keys[i]);
        memcpy(keys[i], k, n + 1);
        assert_int_equal(bl__strindex_add(&x, keys[i], i), 0);
    }
    for (size_t i = 0; i < N_MANY; i++) {
        size_t n = (size_t)snprintf(k, sizeof k, "k%zu%.*s", i, (int)(i % 13), "xxxxxxxxxxxxx");
        assert_int_equal(bl__strindex_find(&x, k, n, key_at, keys), (long)i);
    }
    assert_int_equal(bl__strindex_find(&x, "k300000", 7, key_at, keys), -1);
    bl__strindex_fini(&x);
    for (size_t i = 0; i < N_MANY; i++)
        free(keys[i]);
    free(keys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(index_follows_adds_swaps_and_removals),
        cmocka_unit_test(results_lookups_by_name),
        cmocka_unit_test(slots_are_8_bytes_and_positions_below_uint32_max),
        cmocka_unit_test(unit_metadata_lookups_short_and_long),
        cmocka_unit_test(colliding_hashes_of_different_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
