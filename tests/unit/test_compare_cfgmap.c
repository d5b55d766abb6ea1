/* test_compare_cfgmap.c - compare's interned configurations (cfgmap.c):
 * persistent maps from a .config key's ordinal to a string id, checked
 * against plain arrays: equal contents are the same id whatever the order
 * of the changes, get and diff agree with the arrays, a change makes
 * a bounded number of nodes however wide the map, and many changes at
 * once make the same map as one by one, each node once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare/compare_int.h"

#define WIDTH 300 /* ordinals 0..299: two levels and more */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static uint32_t build(struct bl__cfgmaps *m, const uint32_t *vals, const uint32_t *order)
{
    uint32_t map = 0;
    for (size_t i = 0; i < WIDTH; i++) {
        long r = bl__cfgmap_set(m, map, order[i], vals[order[i]]);
        assert_true(r >= 0);
        map = (uint32_t)r;
    }
    return map;
}

static long brute_diff(const uint32_t *a, const uint32_t *b, uint32_t from)
{
    for (uint32_t i = from; i < WIDTH; i++)
        if (a[i] != b[i])
            return i;
    return -1;
}

static void equal_contents_are_one_id_and_agree_with_arrays(void **state)
{
    (void)state;
    struct bl__cfgmaps m;
    assert_int_equal(bl__cfgmaps_init(&m), 0);
    enum { N = 24 };
    static uint32_t vals[N][WIDTH], order[WIDTH];
    uint32_t ids[N], again[N];
    for (size_t k = 0; k < N; k++) {
        /* sparse maps, some of them equal, some differing in one ordinal */
        for (size_t i = 0; i < WIDTH; i++)
            vals[k][i] = k > 0 && k % 3 == 0 ? vals[k - 1][i] : (next(4) == 0 ? 1 + next(5) : 0);
        if (k % 4 == 1)
            vals[k][next(WIDTH)] = 0;
        for (size_t i = 0; i < WIDTH; i++)
            order[i] = (uint32_t)i;
        ids[k] = build(&m, vals[k], order);
        for (size_t i = WIDTH - 1; i > 0; i--) { /* the same, in another order */
            size_t j = next((uint32_t)i + 1);
            uint32_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        again[k] = build(&m, vals[k], order);
        assert_int_equal(ids[k], again[k]);
    }
    for (size_t a = 0; a < N; a++) {
        for (uint32_t i = 0; i < WIDTH + 40; i++)
            assert_int_equal(bl__cfgmap_get(&m, ids[a], i), i < WIDTH ? vals[a][i] : 0);
        for (size_t b = 0; b < N; b++) {
            int same = memcmp(vals[a], vals[b], sizeof vals[a]) == 0;
            assert_int_equal(ids[a] == ids[b], same);
            for (uint32_t from = 0; from < WIDTH; from += 37)
                assert_int_equal(bl__cfgmap_diff(&m, ids[a], ids[b], from),
                                 brute_diff(vals[a], vals[b], from));
        }
    }
    bl__cfgmaps_fini(&m);
}

static void unsetting_returns_to_the_same_id(void **state)
{
    (void)state;
    struct bl__cfgmaps m;
    assert_int_equal(bl__cfgmaps_init(&m), 0);
    long a = bl__cfgmap_set(&m, 0, 3, 7);
    assert_true(a > 0);
    /* a far ordinal lifts the root; unsetting it lowers it back */
    long b = bl__cfgmap_set(&m, (uint32_t)a, 1u << 20, 9);
    assert_true(b > 0 && b != a);
    assert_int_equal(bl__cfgmap_get(&m, (uint32_t)b, 1u << 20), 9);
    assert_int_equal(bl__cfgmap_get(&m, (uint32_t)b, 3), 7);
    assert_int_equal(bl__cfgmap_diff(&m, (uint32_t)a, (uint32_t)b, 0), 1 << 20);
    assert_int_equal(bl__cfgmap_diff(&m, 0, (uint32_t)b, 4), 1 << 20);
    assert_int_equal(bl__cfgmap_set(&m, (uint32_t)b, 1u << 20, 0), a);
    assert_int_equal(bl__cfgmap_set(&m, (uint32_t)a, 3, 0), 0);
    /* unsetting what is not set changes nothing */
    assert_int_equal(bl__cfgmap_set(&m, (uint32_t)a, 1u << 30, 0), a);
    assert_int_equal(bl__cfgmap_diff(&m, (uint32_t)a, (uint32_t)a, 0), -1);
    bl__cfgmaps_fini(&m);
}

/* A configuration that grows by one key before every result (the go-keys
 * input): n maps of up to n keys cost O(n log n) nodes, not n^2 / 2 values. */
static void a_growing_configuration_costs_log_nodes_per_key(void **state)
{
    (void)state;
    struct bl__cfgmaps m;
    assert_int_equal(bl__cfgmaps_init(&m), 0);
    enum { KEYS = 20000 };
    uint32_t map = 0;
    for (uint32_t i = 0; i < KEYS; i++) {
        long r = bl__cfgmap_set(&m, map, i, 1000 + i);
        assert_true(r > 0);
        map = (uint32_t)r;
    }
    /* 20000 < 16^4: at most 4 levels, so at most 4 new nodes (and a lift) per key */
    assert_true(m.n <= 5u * KEYS + 1);
    for (uint32_t i = 0; i < KEYS; i += 997)
        assert_int_equal(bl__cfgmap_get(&m, map, i), 1000 + i);
    bl__cfgmaps_fini(&m);
}

/* Setting many ordinals at once gives the very map (the same id) that
 * setting them one by one gives: from the empty map and from another,
 * with unsets, ordinals beyond the root's level, and an ordinal twice. */
static void setting_many_at_once_is_setting_them_in_turn(void **state)
{
    (void)state;
    struct bl__cfgmaps m;
    assert_int_equal(bl__cfgmaps_init(&m), 0);
    enum { ROUNDS = 40, MAXP = 64 };
    uint32_t map_seq = 0, map_batch = 0;
    for (size_t round = 0; round < ROUNDS; round++) {
        uint32_t pairs[2 * MAXP];
        size_t n = 1 + next(MAXP);
        uint32_t ord = next(8);
        for (size_t i = 0; i < n; i++) {
            /* sorted, some repeated, some far (1 << 20), a third unsets */
            pairs[2 * i] = ord;
            pairs[2 * i + 1] = next(3) == 0 ? 0 : 1 + next(9);
            if (i + 1 < n)
                ord = next(5) == 0 ? ord : next(20) == 0 ? ord + (1u << 20) : ord + 1 + next(40);
        }
        for (size_t i = 0; i < n; i++) {
            long r = bl__cfgmap_set(&m, map_seq, pairs[2 * i], pairs[2 * i + 1]);
            assert_true(r >= 0);
            map_seq = (uint32_t)r;
        }
        long r = bl__cfgmap_set_many(&m, map_batch, pairs, n);
        assert_true(r >= 0);
        map_batch = (uint32_t)r;
        assert_int_equal(map_batch, map_seq);
        for (size_t i = 0; i < n; i++) /* the later of an ordinal given twice */
            if (i + 1 == n || pairs[2 * (i + 1)] != pairs[2 * i])
                assert_int_equal(bl__cfgmap_get(&m, map_batch, pairs[2 * i]), pairs[2 * i + 1]);
    }
    assert_int_equal(bl__cfgmap_set_many(&m, map_batch, NULL, 0), map_batch);
    bl__cfgmaps_fini(&m);
}

/* A whole configuration of n keys set at once (a benchlab JSON file's):
 * each node made once, about n/15 of them; one by one made about 4n,
 * whose hash table outgrew the cache (compare on 256k keys: 2.4x time
 * per doubling). */
static void a_whole_configuration_at_once_makes_each_node_once(void **state)
{
    (void)state;
    struct bl__cfgmaps m;
    assert_int_equal(bl__cfgmaps_init(&m), 0);
    enum { KEYS = 20000 };
    uint32_t *pairs = malloc(2 * KEYS * sizeof *pairs);
    assert_non_null(pairs);
    for (uint32_t i = 0; i < KEYS; i++) {
        pairs[2 * i] = i;
        pairs[2 * i + 1] = 1000 + i;
    }
    long map = bl__cfgmap_set_many(&m, 0, pairs, KEYS);
    assert_true(map > 0);
    /* the empty map, 1250 leaves, 79 + 5 + 1 above them */
    assert_int_equal(m.n, 1 + 1250 + 79 + 5 + 1);
    for (uint32_t i = 0; i < KEYS; i += 997)
        assert_int_equal(bl__cfgmap_get(&m, (uint32_t)map, i), 1000 + i);
    free(pairs);
    bl__cfgmaps_fini(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_contents_are_one_id_and_agree_with_arrays),
        cmocka_unit_test(unsetting_returns_to_the_same_id),
        cmocka_unit_test(a_growing_configuration_costs_log_nodes_per_key),
        cmocka_unit_test(setting_many_at_once_is_setting_them_in_turn),
        cmocka_unit_test(a_whole_configuration_at_once_makes_each_node_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
