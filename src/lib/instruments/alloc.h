/* alloc.h - the allocation instrument: runner side (handing the counting
 * library to a worker) and worker side (finding it). */
#ifndef BENCHLAB_INSTRUMENTS_ALLOC_H
#define BENCHLAB_INSTRUMENTS_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* Mirrors struct benchlab_alloc_counts in src/alloc/alloc_preload.c. */
struct bl__alloc_counts {
    uint64_t allocs, bytes, frees, foreign_frees, untracked;
};

struct bl__alloc_api {
    void (*begin)(void);
    void (*suspend)(int suspended);
    void (*end)(struct bl__alloc_counts *out);
};

/* Worker: find the preloaded counter. 0, or -1 when it is not loaded. */
int bl__alloc_api_load(struct bl__alloc_api *api);

/* Runner: can `exe` take a preloaded allocator? 0, or BL_EUNSUPPORTED with
 * the reason in `why` (statically linked, built with a sanitizer...). */
int bl__alloc_check_exe(const char *exe, char *why, size_t why_size);

/* Runner: a file descriptor holding libbenchlab-alloc.so (a memfd with
 * close-on-exec), created once; negative errno on failure. */
int bl__alloc_preload_fd(void);

#endif
