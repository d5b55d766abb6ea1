/* profile_int.h - the call-tree model shared by the loader and the writers. */
#ifndef BENCHLAB_PROFILE_INT_H
#define BENCHLAB_PROFILE_INT_H
#include <stdint.h>
#include <stdio.h>

#include "benchlab/profile.h"

#define BL__NO_NODE UINT32_MAX

struct bl__func {
    char *name;
    char *file; /* or NULL */
    int line;
};

/* Node 0 is the root. self = total - sum(children's total), kept up to date on every add. */
struct bl__node {
    uint32_t func; /* BL__NO_NODE for the root */
    uint32_t parent;
    uint32_t first_child;
    uint32_t next_sibling;
    double total;
    double self;
    uint64_t calls;
};

/* A traced timeline event (BENCHLAB_TRACE_EVENTS): enter or exit of func in thread tid. */
struct bl__event {
    double ts_ns; /* since the tracer started */
    uint32_t func;
    uint32_t tid;
    int is_exit;
};

struct bl_profile {
    enum bl_profile_kind kind;
    struct bl__func *funcs;
    size_t n_funcs, cap_funcs;
    uint32_t *func_index; /* open-addressing hash of names; UINT32_MAX empty */
    size_t cap_index;
    struct bl__node *nodes;
    size_t n_nodes, cap_nodes;
    double unit_ns; /* folded/pprof counts are value / unit_ns (the period when sampled) */
    struct bl__event *events; /* timeline, balanced per thread; usually none */
    size_t n_events, cap_events;
};

/* Append a timeline event; 0 or -ENOMEM. */
int bl__profile_add_event(bl_profile *p, double ts_ns, uint32_t func, uint32_t tid, int is_exit);

/* Intern a function by name; returns its index or BL__NO_NODE (no memory). */
uint32_t bl__profile_func(bl_profile *p, const char *name);
/* The child of `parent` for `func`, created if needed; BL__NO_NODE when out of memory. */
uint32_t bl__profile_child(bl_profile *p, uint32_t parent, uint32_t func);
/* Add to a node's inclusive value and calls, keeping self values consistent. */
void bl__profile_node_add(bl_profile *p, uint32_t node, double value, uint64_t calls);
/*
 * Make every node's total at least the sum of its children's, so that no
 * self value is negative: traced times have the tracer's calibrated cost
 * taken out, and its error can leave children above their parent.
 */
void bl__profile_settle(bl_profile *p);
/* Set a function's source location (copied) if it has none. */
void bl__profile_func_set_source(bl_profile *p, uint32_t func, const char *file, int line);

/* Children of `node` sorted by name (by_name) or by total, largest first; caller frees. */
uint32_t *bl__profile_children(const bl_profile *p, uint32_t node, size_t *n, int by_name);

int bl__profile_write_svg(const bl_profile *p, FILE *out);
int bl__profile_write_pprof(const bl_profile *p, FILE *out);
int bl__profile_write_speedscope(const bl_profile *p, FILE *out);
int bl__profile_write_chrome(const bl_profile *p, FILE *out);

#endif /* BENCHLAB_PROFILE_INT_H */
