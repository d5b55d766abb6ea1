/*
 * cfgmap.c - configurations interned: the values of the .config group's
 * keys as one id per distinct configuration.
 *
 * A configuration is a map from a key's ordinal (its position in the
 * .config group, 0, 1, 2, ...) to a string id (0: unset). Maps are
 * persistent radix-16 tries whose nodes are hash-consed: two equal maps
 * are the same node, so a map is one uint32_t, equality is ==, and
 * setting one key makes O(log16 n) new nodes however wide the
 * configuration is; setting k keys at once (bl__cfgmap_set_many, a JSON
 * file's whole configuration) makes each node on their paths once, about
 * k/15 nodes for k keys in a row, not k log16 k that would not stay in
 * the cache. A file whose configuration changes before every
 * result (each key added to all the previous ones) is then O(n log n) in
 * time and memory, not O(n^2) as with one vector per configuration.
 *
 * Canonical form (so that hash-consing gives equality): a node with no
 * non-zero child is 0; every child of a level-L node is at level L-1;
 * a root is at the lowest level that holds its largest ordinal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

#define FANOUT 16
#define MAX_LEVEL 7 /* 16^8 = 2^32 ordinals */

static const uint32_t zero_kids[FANOUT];

int bl__cfgmaps_init(struct bl__cfgmaps *m)
{
    memset(m, 0, sizeof *m);
    m->nodes = calloc(64, sizeof *m->nodes); /* node 0: the empty map */
    if (!m->nodes)
        return -ENOMEM;
    m->cap = 64;
    m->n = 1;
    return 0;
}

void bl__cfgmaps_fini(struct bl__cfgmaps *m)
{
    free(m->nodes);
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static uint64_t node_hash(unsigned level, const uint32_t *kids)
{
    uint64_t h = bl__hash_bytes(kids, FANOUT * sizeof *kids);
    return bl__mix64(h ^ level);
}

static int rehash(struct bl__cfgmaps *m, size_t n_slots)
{
    uint32_t *slots = calloc(n_slots, sizeof *slots);
    if (!slots)
        return -ENOMEM;
    for (size_t i = 1; i < m->n; i++) {
        size_t j = (size_t)node_hash(m->nodes[i].level, m->nodes[i].kids) & (n_slots - 1);
        while (slots[j])
            j = (j + 1) & (n_slots - 1);
        slots[j] = (uint32_t)i;
    }
    free(m->slots);
    m->slots = slots;
    m->n_slots = n_slots;
    return 0;
}

/* The node (level, kids): the existing one, a new one, 0 when all kids are
 * 0, or -ENOMEM. */
static long node_make(struct bl__cfgmaps *m, unsigned level, const uint32_t *kids)
{
    if (memcmp(kids, zero_kids, sizeof zero_kids) == 0)
        return 0;
    if (m->n * 2 >= m->n_slots && rehash(m, m->n_slots ? m->n_slots * 2 : 256))
        return -ENOMEM;
    uint64_t h = node_hash(level, kids);
    size_t j = (size_t)h & (m->n_slots - 1);
    while (m->slots[j]) {
        const struct bl__cfgnode *n = &m->nodes[m->slots[j]];
        if (n->level == level && memcmp(n->kids, kids, sizeof n->kids) == 0)
            return m->slots[j];
        j = (j + 1) & (m->n_slots - 1);
    }
    if (m->n >= UINT32_MAX)
        return -ENOMEM;
    if (bl__grow((void **)&m->nodes, &m->cap, m->n + 1, sizeof *m->nodes))
        return -ENOMEM;
    uint32_t id = (uint32_t)m->n++;
    memcpy(m->nodes[id].kids, kids, sizeof m->nodes[id].kids);
    m->nodes[id].level = level;
    m->slots[j] = id;
    return id;
}

static unsigned level_of(const struct bl__cfgmaps *m, uint32_t n)
{
    return n ? m->nodes[n].level : 0;
}

/* The lowest level whose node holds ordinal ord. */
static unsigned level_for(uint32_t ord)
{
    unsigned l = 0;
    while (l < MAX_LEVEL && (ord >> (4 * (l + 1))) != 0)
        l++;
    return l;
}

uint32_t bl__cfgmap_get(const struct bl__cfgmaps *m, uint32_t map, uint32_t ord)
{
    if (!map)
        return 0;
    unsigned l = m->nodes[map].level;
    if (level_for(ord) > l)
        return 0;
    uint32_t n = map;
    for (;;) {
        uint32_t k = m->nodes[n].kids[(ord >> (4 * l)) & (FANOUT - 1)];
        if (l == 0 || !k)
            return k;
        n = k;
        l--;
    }
}

/* Node n of the given level with pairs [0, n_pairs) (ordinals within it,
 * sorted) set: each node on their paths made once, however many of them. */
static long batch_rec(struct bl__cfgmaps *m, uint32_t n, unsigned level, const uint32_t *pairs,
                      size_t n_pairs)
{
    uint32_t kids[FANOUT];
    memcpy(kids, n ? m->nodes[n].kids : zero_kids, sizeof kids);
    for (size_t lo = 0, hi; lo < n_pairs; lo = hi) {
        unsigned i = (pairs[2 * lo] >> (4 * level)) & (FANOUT - 1);
        hi = lo + 1;
        while (hi < n_pairs && ((pairs[2 * hi] >> (4 * level)) & (FANOUT - 1)) == i)
            hi++;
        if (level == 0) {
            kids[i] = pairs[2 * hi - 1]; /* an ordinal given twice: the last value */
        } else {
            long k = batch_rec(m, kids[i], level - 1, pairs + 2 * lo, hi - lo);
            if (k < 0)
                return k;
            kids[i] = (uint32_t)k;
        }
    }
    return node_make(m, level, kids);
}

long bl__cfgmap_set_many(struct bl__cfgmaps *m, uint32_t map, const uint32_t *pairs, size_t n)
{
    if (!n)
        return map;
    unsigned l = level_of(m, map), need = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned li = level_for(pairs[2 * i]);
        if (pairs[2 * i + 1] && li > need)
            need = li;
    }
    for (; l < need; l++) {
        if (!map)
            continue;
        uint32_t kids[FANOUT] = {map};
        long w = node_make(m, l + 1, kids);
        if (w < 0)
            return w;
        map = (uint32_t)w;
    }
    /* ordinals above this level are unset already, and unset stay */
    size_t n_in = n;
    while (n_in > 0 && level_for(pairs[2 * (n_in - 1)]) > l)
        n_in--;
    long r = batch_rec(m, map, l, pairs, n_in);
    /* back to the lowest level that holds the largest ordinal */
    while (r > 0 && m->nodes[r].level > 0) {
        const uint32_t *k = m->nodes[r].kids;
        if (memcmp(k + 1, zero_kids, (FANOUT - 1) * sizeof *k) != 0)
            break;
        r = k[0];
    }
    return r;
}

long bl__cfgmap_set(struct bl__cfgmaps *m, uint32_t map, uint32_t ord, uint32_t val)
{
    uint32_t pair[2] = {ord, val};
    return bl__cfgmap_set_many(m, map, pair, 1);
}

/* The kids of node n (whose own level is nl) seen as a node of level l >= nl:
 * a lower node is kid 0 of the levels above it. */
static const uint32_t *kids_at(const struct bl__cfgmaps *m, uint32_t n, unsigned nl, unsigned l,
                               uint32_t *buf, unsigned *kid_level)
{
    if (!n) {
        *kid_level = l ? l - 1 : 0;
        return zero_kids;
    }
    if (nl == l) {
        *kid_level = l ? l - 1 : 0;
        return m->nodes[n].kids;
    }
    memset(buf, 0, FANOUT * sizeof *buf);
    buf[0] = n;
    *kid_level = nl;
    return buf;
}

static long diff_rec(const struct bl__cfgmaps *m, uint32_t a, unsigned la, uint32_t b, unsigned lb,
                     unsigned l, uint64_t base, uint64_t from)
{
    if (a == b)
        return -1;
    uint32_t bufa[FANOUT], bufb[FANOUT];
    unsigned kla, klb;
    const uint32_t *ka = kids_at(m, a, la, l, bufa, &kla);
    const uint32_t *kb = kids_at(m, b, lb, l, bufb, &klb);
    uint64_t span = (uint64_t)1 << (4 * l);
    for (unsigned i = 0; i < FANOUT; i++) {
        uint64_t lo = base + i * span;
        if (lo + span <= from || ka[i] == kb[i])
            continue;
        if (l == 0)
            return (long)lo;
        long r = diff_rec(m, ka[i], kla, kb[i], klb, l - 1, lo, from);
        if (r >= 0)
            return r;
    }
    return -1;
}

long bl__cfgmap_diff(const struct bl__cfgmaps *m, uint32_t a, uint32_t b, uint32_t from)
{
    if (a == b)
        return -1;
    unsigned la = level_of(m, a), lb = level_of(m, b);
    return diff_rec(m, a, la, b, lb, la > lb ? la : lb, 0, from);
}
