/*
 * strindex.c - a hash index over the strings of an array the caller owns
 * (benchmark names, configuration keys): lookups in O(1) expected time
 * instead of a scan, so that reading n names is O(n) and not O(n^2). The
 * index holds positions, not strings; the caller says how to get the
 * string at a position.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

static uint64_t str_hash(const char *s, size_t n)
{
    /* FNV-1a, then a final mix so that the low bits (the slot) depend on
     * every byte. */
    uint64_t h = bl__fnv1a(BL__FNV1A_BASIS, s, n);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

static int rehash(struct bl__strindex *x, size_t n_slots)
{
    struct bl__strindex_slot *s = calloc(n_slots, sizeof *s);
    if (!s)
        return -ENOMEM;
    for (size_t i = 0; i < x->n_slots; i++) {
        if (!x->slots[i].pos1)
            continue;
        size_t j = (size_t)x->slots[i].hash & (n_slots - 1);
        while (s[j].pos1)
            j = (j + 1) & (n_slots - 1);
        s[j] = x->slots[i];
    }
    free(x->slots);
    x->slots = s;
    x->n_slots = n_slots;
    return 0;
}

/* The slot's 32 bits of a key's hash: the low bits pick the slot, all of
 * them filter out other keys before a comparison of strings. */
static uint32_t slot_hash(const char *key, size_t len)
{
    uint64_t h = str_hash(key, len);
    return (uint32_t)(h ^ (h >> 32));
}

/* Whether the indexed string k is key[0..len). Byte by byte up to the
 * first difference, not memcmp: k may be shorter than len (two keys of
 * different lengths whose 32 bits of hash agree, one in 2^32 per probe),
 * and memcmp may read all of len bytes of k, past its end. A pair
 * "a\0b" is compared whole: its first NUL matches key's. */
static int key_eq(const char *k, const char *key, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (k[i] != key[i])
            return 0;
    return k[len] == '\0';
}

/* What bl__strindex_find compares: the entry's key, as key_of gives it. */
struct key_of_arr {
    bl__strindex_key key_of;
    const void *arr;
};

static int key_of_eq(const void *ctx, size_t pos, const char *key, size_t len)
{
    const struct key_of_arr *c = ctx;
    return key_eq(c->key_of(c->arr, pos), key, len);
}

long bl__strindex_find(const struct bl__strindex *x, const char *key, size_t len,
                       bl__strindex_key key_of, const void *arr)
{
    struct key_of_arr c = {key_of, arr};
    return bl__strindex_find_eq(x, key, len, key_of_eq, &c);
}

long bl__strindex_find_eq(const struct bl__strindex *x, const char *key, size_t len,
                          bl__strindex_eq eq, const void *arr)
{
    if (!x->n_slots)
        return -1;
    uint32_t h = slot_hash(key, len);
    for (size_t j = (size_t)h & (x->n_slots - 1); x->slots[j].pos1;
         j = (j + 1) & (x->n_slots - 1)) {
        const struct bl__strindex_slot *s = &x->slots[j];
        if (s->hash == h && eq(arr, s->pos1 - 1, key, len))
            return (long)(s->pos1 - 1);
    }
    return -1;
}

int bl__strindex_add(struct bl__strindex *x, const char *key, size_t pos)
{
    return bl__strindex_add_n(x, key, strlen(key), pos);
}

int bl__strindex_add_n(struct bl__strindex *x, const char *key, size_t len, size_t pos)
{
    if (pos >= UINT32_MAX || x->n_slots > (size_t)UINT32_MAX / 2 + 1)
        return -ENOMEM;
    if ((x->n + 1) * 4 > x->n_slots * 3 && rehash(x, x->n_slots ? x->n_slots * 2 : 16))
        return -ENOMEM;
    uint32_t h = slot_hash(key, len);
    size_t j = (size_t)h & (x->n_slots - 1);
    while (x->slots[j].pos1)
        j = (j + 1) & (x->n_slots - 1);
    x->slots[j].hash = h;
    x->slots[j].pos1 = (uint32_t)pos + 1;
    x->n++;
    return 0;
}

/* The slot that holds pos, or SIZE_MAX. */
static size_t slot_of(const struct bl__strindex *x, const char *key, size_t pos)
{
    if (!x->n_slots)
        return SIZE_MAX;
    uint32_t h = slot_hash(key, strlen(key));
    for (size_t j = (size_t)h & (x->n_slots - 1); x->slots[j].pos1; j = (j + 1) & (x->n_slots - 1))
        if (x->slots[j].pos1 == (uint64_t)pos + 1)
            return j;
    return SIZE_MAX;
}

void bl__strindex_remove(struct bl__strindex *x, const char *key, size_t pos)
{
    size_t j = slot_of(x, key, pos);
    if (j == SIZE_MAX)
        return;
    /* backward-shift deletion: move later entries of the probe run into
     * the hole when their home slot allows it, so lookups need no
     * tombstones */
    size_t mask = x->n_slots - 1;
    for (size_t k = (j + 1) & mask; x->slots[k].pos1; k = (k + 1) & mask) {
        size_t home = (size_t)x->slots[k].hash & mask;
        if (((k - home) & mask) >= ((k - j) & mask)) {
            x->slots[j] = x->slots[k];
            j = k;
        }
    }
    x->slots[j].pos1 = 0;
    x->n--;
}

void bl__strindex_move(struct bl__strindex *x, const char *key, size_t from, size_t to)
{
    size_t j = slot_of(x, key, from);
    if (j != SIZE_MAX)
        x->slots[j].pos1 = (uint32_t)to + 1;
}

void bl__strindex_fini(struct bl__strindex *x)
{
    free(x->slots);
    memset(x, 0, sizeof *x);
}

char *bl__strindex_pair(const char *a, const char *b, char *buf, size_t cap, size_t *len)
{
    size_t la = strlen(a), lb = strlen(b);
    char *p = la + lb + 2 <= cap ? buf : malloc(la + lb + 2);
    if (p) {
        memcpy(p, a, la + 1);
        memcpy(p + la + 1, b, lb + 1);
    }
    *len = la + 1 + lb;
    return p;
}
