/*
 * model.c - the call-tree model every profile output is a view of.
 *
 * Functions are interned by name; nodes form a tree through parent,
 * first-child and next-sibling indices. Invariant: for every node, self ==
 * total - sum(children's total), so sampled stacks (value at the leaf) and
 * traced nodes (inclusive values from the tracer) fit the same model. The
 * flat profile counts a recursive function's time once per stack.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/base/base.h" /* bl__fnv1a, inline */
#include "profile_int.h"

static uint64_t hash_name(const char *s)
{
    return bl__fnv1a(BL__FNV1A_BASIS, s, strlen(s));
}

bl_profile *bl_profile_create(enum bl_profile_kind kind)
{
    bl_profile *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->kind = kind;
    p->unit_ns = 1.0;
    p->nodes = calloc(16, sizeof *p->nodes);
    if (!p->nodes) {
        free(p);
        return NULL;
    }
    p->cap_nodes = 16;
    p->n_nodes = 1;
    p->nodes[0] = (struct bl__node){BL__NO_NODE, 0, BL__NO_NODE, BL__NO_NODE, 0, 0, 0};
    return p;
}

void bl_profile_destroy(bl_profile *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_funcs; i++) {
        free(p->funcs[i].name);
        free(p->funcs[i].file);
    }
    free(p->funcs);
    free(p->events);
    free(p->func_index);
    free(p->nodes);
    free(p);
}

static int grow_index(bl_profile *p)
{
    size_t cap = p->cap_index ? p->cap_index * 2 : 256;
    uint32_t *index = malloc(cap * sizeof *index);
    if (!index)
        return -ENOMEM;
    memset(index, 0xff, cap * sizeof *index);
    for (size_t i = 0; i < p->n_funcs; i++) {
        size_t at = hash_name(p->funcs[i].name) & (cap - 1);
        while (index[at] != UINT32_MAX)
            at = (at + 1) & (cap - 1);
        index[at] = (uint32_t)i;
    }
    free(p->func_index);
    p->func_index = index;
    p->cap_index = cap;
    return 0;
}

uint32_t bl__profile_func(bl_profile *p, const char *name)
{
    if ((p->n_funcs + 1) * 2 > p->cap_index && grow_index(p) != 0)
        return BL__NO_NODE;
    size_t at = hash_name(name) & (p->cap_index - 1);
    while (p->func_index[at] != UINT32_MAX) {
        if (strcmp(p->funcs[p->func_index[at]].name, name) == 0)
            return p->func_index[at];
        at = (at + 1) & (p->cap_index - 1);
    }
    if (p->n_funcs == p->cap_funcs) {
        size_t cap = p->cap_funcs ? p->cap_funcs * 2 : 64;
        struct bl__func *funcs = realloc(p->funcs, cap * sizeof *funcs);
        if (!funcs)
            return BL__NO_NODE;
        p->funcs = funcs;
        p->cap_funcs = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return BL__NO_NODE;
    p->funcs[p->n_funcs] = (struct bl__func){copy, NULL, 0};
    p->func_index[at] = (uint32_t)p->n_funcs;
    return (uint32_t)p->n_funcs++;
}

void bl__profile_func_set_source(bl_profile *p, uint32_t func, const char *file, int line)
{
    if (func >= p->n_funcs || p->funcs[func].file || !file)
        return;
    p->funcs[func].file = strdup(file);
    p->funcs[func].line = line;
}

uint32_t bl__profile_child(bl_profile *p, uint32_t parent, uint32_t func)
{
    for (uint32_t c = p->nodes[parent].first_child; c != BL__NO_NODE; c = p->nodes[c].next_sibling)
        if (p->nodes[c].func == func)
            return c;
    if (p->n_nodes == p->cap_nodes) {
        size_t cap = p->cap_nodes * 2;
        struct bl__node *nodes = realloc(p->nodes, cap * sizeof *nodes);
        if (!nodes)
            return BL__NO_NODE;
        p->nodes = nodes;
        p->cap_nodes = cap;
    }
    uint32_t c = (uint32_t)p->n_nodes++;
    p->nodes[c] =
        (struct bl__node){func, parent, BL__NO_NODE, p->nodes[parent].first_child, 0, 0, 0};
    p->nodes[parent].first_child = c;
    return c;
}

void bl__profile_node_add(bl_profile *p, uint32_t node, double value, uint64_t calls)
{
    p->nodes[node].total += value;
    p->nodes[node].self += value;
    p->nodes[node].calls += calls;
    if (node == 0)
        return;
    uint32_t parent = p->nodes[node].parent;
    p->nodes[parent].self -= value;
    if (parent == 0) { /* the root's total is the sum of its children's */
        p->nodes[0].total += value;
        p->nodes[0].self += value;
    }
}

int bl_profile_add_stack(bl_profile *p, const char *const *frames, size_t n_frames, double value_ns,
                         uint64_t calls)
{
    uint32_t node = 0;
    for (size_t i = 0; i < n_frames; i++) {
        uint32_t func = bl__profile_func(p, frames[i]);
        if (func == BL__NO_NODE)
            return -ENOMEM;
        node = bl__profile_child(p, node, func);
        if (node == BL__NO_NODE)
            return -ENOMEM;
    }
    if (p->kind == BL_PROFILE_SAMPLED) {
        /* every frame on the stack was running: totals along the path */
        for (uint32_t n = node; n != 0; n = p->nodes[n].parent)
            p->nodes[n].total += value_ns;
        p->nodes[0].total += value_ns;
        p->nodes[node].self += value_ns;
    } else {
        bl__profile_node_add(p, node, value_ns, calls);
    }
    return 0;
}

double bl_profile_total_ns(const bl_profile *p)
{
    return p->nodes[0].total;
}

static int by_total(const void *a, const void *b)
{
    const struct bl_profile_function *x = a, *y = b;
    if (x->total_ns != y->total_ns)
        return x->total_ns < y->total_ns ? 1 : -1;
    if (x->self_ns != y->self_ns)
        return x->self_ns < y->self_ns ? 1 : -1;
    return strcmp(x->name, y->name);
}

size_t bl_profile_flat(const bl_profile *p, struct bl_profile_function **out)
{
    *out = NULL;
    struct bl_profile_function *fs = calloc(p->n_funcs ? p->n_funcs : 1, sizeof *fs);
    /* depth-first walk keeping, per function, how often it is on the current path */
    uint32_t *on_path = calloc(p->n_funcs ? p->n_funcs : 1, sizeof *on_path);
    if (!fs || !on_path) {
        free(fs);
        free(on_path);
        return 0;
    }
    for (size_t i = 0; i < p->n_funcs; i++) {
        fs[i].name = p->funcs[i].name;
        fs[i].file = p->funcs[i].file;
        fs[i].line = p->funcs[i].line;
    }
    uint32_t n = p->nodes[0].first_child;
    while (n != BL__NO_NODE) {
        const struct bl__node *node = &p->nodes[n];
        struct bl_profile_function *f = &fs[node->func];
        f->self_ns += node->self > 0 ? node->self : 0;
        f->calls += node->calls;
        if (on_path[node->func]++ == 0)
            f->total_ns += node->total;
        if (node->first_child != BL__NO_NODE) {
            n = node->first_child;
            continue;
        }
        /* leave nodes until one has a next sibling */
        while (n != 0) {
            on_path[p->nodes[n].func]--;
            if (p->nodes[n].next_sibling != BL__NO_NODE) {
                n = p->nodes[n].next_sibling;
                break;
            }
            n = p->nodes[n].parent;
        }
        if (n == 0)
            break;
    }
    free(on_path);
    qsort(fs, p->n_funcs, sizeof *fs, by_total);
    *out = fs;
    return p->n_funcs;
}

int bl__profile_add_event(bl_profile *p, double ts_ns, uint32_t func, uint32_t tid, int is_exit)
{
    if (p->n_events == p->cap_events) {
        size_t cap = p->cap_events ? p->cap_events * 2 : 1024;
        struct bl__event *events = realloc(p->events, cap * sizeof *events);
        if (!events)
            return -ENOMEM;
        p->events = events;
        p->cap_events = cap;
    }
    p->events[p->n_events++] = (struct bl__event){ts_ns, func, tid, is_exit};
    return 0;
}

void bl__profile_settle(bl_profile *p)
{
    double *below = calloc(p->n_nodes ? p->n_nodes : 1, sizeof *below);
    if (!below)
        return;
    /* children come after their parents: going down the indices, every
     * node's children are settled before it */
    for (size_t i = p->n_nodes; i-- > 0;) {
        struct bl__node *nd = &p->nodes[i];
        if (nd->total < below[i])
            nd->total = below[i];
        nd->self = nd->total - below[i];
        if (i > 0)
            below[nd->parent] += nd->total;
    }
    free(below);
}
