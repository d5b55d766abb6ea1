/*
 * umap.c - a u64 -> u64 hash map (open addressing, key ~0 is empty), for
 * maps keyed by ids or hashes rather than strings (strindex.c is the one
 * for strings): the compare engine's observation orders, fixed orders
 * and cells.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

uint64_t bl__mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

int bl__umap_get(const struct bl__umap *m, uint64_t k, uint64_t *v)
{
    if (!m->n_slots)
        return 0;
    size_t j = (size_t)bl__mix64(k) & (m->n_slots - 1);
    while (m->keys[j] != UINT64_MAX) {
        if (m->keys[j] == k) {
            *v = m->vals[j];
            return 1;
        }
        j = (j + 1) & (m->n_slots - 1);
    }
    return 0;
}

static int umap_grow(struct bl__umap *m)
{
    size_t ns = m->n_slots ? m->n_slots * 2 : 16;
    uint64_t *keys = malloc(ns * sizeof *keys), *vals = malloc(ns * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -ENOMEM;
    }
    memset(keys, 0xff, ns * sizeof *keys);
    struct bl__umap old = *m;
    m->keys = keys;
    m->vals = vals;
    m->n_slots = ns;
    m->n = 0;
    for (size_t i = 0; i < old.n_slots; i++)
        if (old.keys[i] != UINT64_MAX)
            bl__umap_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
    return 0;
}

int bl__umap_put(struct bl__umap *m, uint64_t k, uint64_t v)
{
    if ((m->n + 1) * 2 > m->n_slots && umap_grow(m))
        return -ENOMEM;
    size_t j = (size_t)bl__mix64(k) & (m->n_slots - 1);
    while (m->keys[j] != UINT64_MAX) {
        if (m->keys[j] == k) {
            m->vals[j] = v;
            return 0;
        }
        j = (j + 1) & (m->n_slots - 1);
    }
    m->keys[j] = k;
    m->vals[j] = v;
    m->n++;
    return 0;
}

void bl__umap_fini(struct bl__umap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
