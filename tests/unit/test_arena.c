/* test_arena.c - the arena (base/arena.c) in both of its ways, from big
 * blocks and one malloc per allocation: alignment, allocations larger
 * than a block, a million small ones, and bl__arena_fini (the ASan build
 * of this test checks that it frees everything); and the JSON reader
 * (format/json_read.c), whose tree is allocated from one. */
#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/base.h"
#include "benchlab/common.h"
#include "format/json.h"

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif
#ifdef HAVE_ASAN
#include <sanitizer/asan_interface.h>
#endif

static struct bl__arena arena_of(int per_alloc)
{
    struct bl__arena a;
    bl__arena_init(&a);
    a.per_alloc = per_alloc;
    return a;
}

/* Every allocation is aligned as asked and none overlaps another: each is
 * filled with its own byte, and every byte is still there at the end. */
static void alignment_and_no_overlap(int per_alloc)
{
    struct bl__arena a = arena_of(per_alloc);
    enum { N = 3000 };
    static unsigned char *p[N];
    static size_t len[N];
    static const size_t aligns[] = {1, 2, 4, 8, 16};
    for (size_t i = 0; i < N; i++) {
        size_t al = aligns[i % 5] <= alignof(max_align_t) ? aligns[i % 5] : 1;
        len[i] = (i * 7919) % 301; /* 0 to 300 bytes */
        p[i] = bl__arena_alloc(&a, len[i], al);
        assert_non_null(p[i]);
        assert_int_equal((uintptr_t)p[i] % al, 0);
        memset(p[i], (int)(i & 0xff), len[i]);
    }
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < len[i]; k++)
            assert_int_equal(p[i][k], i & 0xff);
    bl__arena_fini(&a);
    assert_null(a.head);
}

static void alignment_blocks(void **state)
{
    (void)state;
    alignment_and_no_overlap(0);
}

static void alignment_per_alloc(void **state)
{
    (void)state;
    alignment_and_no_overlap(1);
}

/* Allocations larger than any block (1 MiB) between small ones: each gets
 * its bytes, and the small ones keep filling the block they were in. */
static void big_allocations(int per_alloc)
{
    struct bl__arena a = arena_of(per_alloc);
    char *small1 = bl__arena_alloc(&a, 8, 8);
    assert_non_null(small1);
    size_t big_len = (size_t)3 << 20;
    char *big = bl__arena_alloc(&a, big_len, 1);
    assert_non_null(big);
    memset(big, 'b', big_len);
    char *small2 = bl__arena_alloc(&a, 8, 8);
    assert_non_null(small2);
    if (!per_alloc)
        assert_ptr_equal(small2, small1 + 8); /* the big one did not end the block */
    char *big2 = bl__arena_alloc(&a, big_len + 1, 16);
    assert_non_null(big2);
    memset(big2, 'c', big_len + 1);
    memset(small1, 's', 8);
    memset(small2, 't', 8);
    for (size_t k = 0; k < big_len; k++)
        assert_true(big[k] == 'b' && big2[k] == 'c');
    assert_int_equal(big2[big_len], 'c');
    bl__arena_fini(&a);
}

static void big_blocks(void **state)
{
    (void)state;
    big_allocations(0);
}

static void big_per_alloc(void **state)
{
    (void)state;
    big_allocations(1);
}

/* A million nodes of the JSON tree's size come from a few dozen blocks
 * (consecutive allocations are adjacent except where a block ends), not
 * from a million mallocs; then the arena is freed and used again. */
static void many_nodes_few_blocks(void **state)
{
    (void)state;
    struct bl__arena a = arena_of(0);
    enum { N = 1000000 };
    size_t size = sizeof(struct bl__json);
    char *prev = NULL;
    size_t blocks = 0;
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < N; i++) {
            char *p = bl__arena_alloc(&a, size, alignof(struct bl__json));
            assert_non_null(p);
            memset(p, 0x5a, size);
            if (p != prev + size)
                blocks++;
            prev = p;
        }
        /* 56 MB in blocks of up to 1 MiB: 56 of them and the ~8 smaller
         * first ones */
        assert_in_range(blocks, 1, N * size / (1 << 20) + 12);
        bl__arena_fini(&a);
        assert_null(a.head);
        blocks = 0;
        prev = NULL;
    }
}

/* One malloc per allocation: ASan sees the end of each one (a read past it
 * is reported), which is why sanitizer builds allocate this way. */
static void per_alloc_bounds(void **state)
{
    (void)state;
    struct bl__arena a;
    bl__arena_init(&a);
#ifdef HAVE_ASAN
    assert_int_equal(a.per_alloc, 1); /* the default of an ASan build */
#endif
    a.per_alloc = 1;
    char *p = bl__arena_alloc(&a, 13, 1);
    char *q = bl__arena_alloc(&a, 13, 1);
    assert_non_null(p);
    assert_non_null(q);
    assert_true(p + 13 != q && q + 13 != p);
#ifdef HAVE_ASAN
    assert_true(__asan_address_is_poisoned(p + 13));
    assert_false(__asan_address_is_poisoned(p + 12));
#endif
    bl__arena_fini(&a);
}

/* The JSON tree: values, keys, escapes, a string longer than a block,
 * nesting; then errors, which free what was built (the ASan build checks). */
static void json_tree(void **state)
{
    (void)state;
    struct bl__buf doc = {0};
    assert_int_equal(
        bl__buf_puts(&doc, "{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\"],"
                           " \"empty\": {}, \"none\": [], \"big\": \""),
        0);
    size_t big_len = (size_t)2 << 20;
    for (size_t i = 0; i < big_len; i++)
        assert_int_equal(
            bl__buf_append(&doc, i % 1000 == 999 ? "\\\\" : "z", i % 1000 == 999 ? 2 : 1), 0);
    assert_int_equal(bl__buf_puts(&doc, "\", \"deep\": [[[[{\"k\": \"v\"}]]]]}"), 0);
    struct bl__json *v = NULL;
    char err[128] = "";
    assert_int_equal(bl__json_parse(doc.data, doc.len, &v, err, sizeof err), 0);
    assert_int_equal(v->type, BL_JOBJ);
    assert_int_equal(v->n, 5);
    assert_string_equal(v->keys[0], "a");
    assert_string_equal(v->keys[4], "deep");
    const struct bl__json *arr = bl__json_get(v, "a");
    assert_int_equal(arr->n, 6);
    assert_true(arr->items[0].type == BL_JNUM && arr->items[0].num == 1);
    assert_true(arr->items[1].num == -2500);
    assert_true(arr->items[2].type == BL_JBOOL && arr->items[2].boolean);
    assert_true(arr->items[3].type == BL_JBOOL && !arr->items[3].boolean);
    assert_int_equal(arr->items[4].type, BL_JNULL);
    assert_string_equal(bl__json_str(&arr->items[5]), "x\xc3\xa9\xf0\x9f\x98\x80\n");
    assert_int_equal(arr->items[5].len, 8);
    const struct bl__json *e = bl__json_get(v, "empty");
    assert_true(e->type == BL_JOBJ && e->n == 0);
    const struct bl__json *none = bl__json_get(v, "none");
    assert_true(none->type == BL_JARR && none->n == 0);
    const struct bl__json *big = bl__json_get(v, "big");
    assert_int_equal(big->len, big_len);
    assert_int_equal(strlen(big->str), big_len);
    assert_int_equal(big->str[998], 'z');
    assert_int_equal(big->str[999], '\\');
    const struct bl__json *d = bl__json_get(v, "deep");
    assert_string_equal(bl__json_str(bl__json_get(&d->items[0].items[0].items[0].items[0], "k")),
                        "v");
    assert_null(bl__json_get(v, "missing"));
    bl__json_free(v);

    static const char *const bad[] = {
        "{\"a\": [1, 2, {\"b\": \"unterminated",
        "[1, 2, 3,]",
        "{\"a\": \"x\\q\"}",
        "[\"ok\", \"\\u12\"]",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{\"k\": \"v\"} x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        v = (struct bl__json *)1;
        assert_int_equal(bl__json_parse(bad[i], strlen(bad[i]), &v, err, sizeof err), BL_EFORMAT);
        assert_null(v);
        assert_non_null(strstr(err, "line 1, column "));
    }
    bl__buf_fini(&doc);
}

/* The items of the tree's arrays come from the arena: the one-element
 * arrays of [[0],[1],...] are adjacent in memory (each its own malloc,
 * they would be at least a malloc header apart); in builds of one malloc
 * per allocation, each is its own, and ASan reports a read past it. */
static void json_nodes_from_arena(void **state)
{
    (void)state;
    struct bl__arena probe;
    bl__arena_init(&probe);
    struct bl__buf doc = {0};
    assert_int_equal(bl__buf_puts(&doc, "["), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(bl__buf_printf(&doc, "%s[%d]", i ? "," : "", i), 0);
    assert_int_equal(bl__buf_puts(&doc, "]"), 0);
    struct bl__json *v = NULL;
    char err[128];
    assert_int_equal(bl__json_parse(doc.data, doc.len, &v, err, sizeof err), 0);
    assert_int_equal(v->n, 1000);
    size_t adjacent = 0;
    for (size_t i = 1; i < v->n; i++) {
        assert_true(v->items[i].type == BL_JARR && v->items[i].n == 1);
        assert_true(v->items[i].items[0].num == (double)i);
        if (v->items[i].items == v->items[i - 1].items + 1)
            adjacent++;
#ifdef HAVE_ASAN
        if (probe.per_alloc)
            assert_true(__asan_address_is_poisoned(v->items[i].items + 1));
#endif
    }
    if (probe.per_alloc)
        assert_int_equal(adjacent, 0);
    else
        assert_true(adjacent >= 990); /* all but where a block ends */
    bl__json_free(v);
    bl__buf_fini(&doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alignment_blocks),
        cmocka_unit_test(alignment_per_alloc),
        cmocka_unit_test(big_blocks),
        cmocka_unit_test(big_per_alloc),
        cmocka_unit_test(many_nodes_few_blocks),
        cmocka_unit_test(per_alloc_bounds),
        cmocka_unit_test(json_tree),
        cmocka_unit_test(json_nodes_from_arena),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
