/*
 * alloc.c - the allocation instrument (Caliper's allocation instrument for
 * C): B/op and allocs/op from a pass of its own.
 *
 * The counting library (src/alloc/alloc_preload.c) is embedded in
 * libbenchlab as bytes. For the allocation pass the runner writes it to a
 * memfd once and the worker is started with LD_PRELOAD=/proc/self/fd/N, so
 * a suite linked statically against libbenchlab, anywhere on disk, needs no
 * file to be found. The timing pass never loads it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "../base/base.h"
#include "alloc.h"
#include "benchlab/common.h"
#include "preload.h"

extern const unsigned char bl__alloc_preload_blob[];
extern const size_t bl__alloc_preload_blob_size;

int bl__alloc_api_load(struct bl__alloc_api *api)
{
    /* POSIX allows converting dlsym's void * to a function pointer. */
    void *b = dlsym(RTLD_DEFAULT, "benchlab_alloc_begin");
    void *s = dlsym(RTLD_DEFAULT, "benchlab_alloc_suspend");
    void *e = dlsym(RTLD_DEFAULT, "benchlab_alloc_end");
    if (!b || !s || !e)
        return -1;
    memcpy(&api->begin, &b, sizeof b);
    memcpy(&api->suspend, &s, sizeof s);
    memcpy(&api->end, &e, sizeof e);
    return 0;
}

int bl__alloc_preload_fd(void)
{
    static int fd = -1;
    return bl__preload_memfd("libbenchlab-alloc.so", bl__alloc_preload_blob,
                             bl__alloc_preload_blob_size, &fd);
}

int bl__alloc_check_exe(const char *exe, char *why, size_t n)
{
    char lib[256];
    switch (bl__preload_check(exe, lib, sizeof lib)) {
    case BL__PRELOAD_OK:
        return 0;
    case BL__PRELOAD_UNREADABLE:
        snprintf(why, n, "%s: %s", exe, lib);
        break;
    case BL__PRELOAD_NOT_ELF:
        snprintf(why, n, "%s is not a 64-bit ELF executable", exe);
        break;
    case BL__PRELOAD_STATIC:
        snprintf(why, n,
                 "%s is statically linked: no allocator can be preloaded into it; link it "
                 "dynamically against libc to count allocations",
                 exe);
        break;
    case BL__PRELOAD_SANITIZER:
        snprintf(why, n,
                 "%s is built with a sanitizer (%s), which replaces the allocator and "
                 "refuses a preload ahead of it",
                 exe, lib);
        break;
    }
    return BL_EUNSUPPORTED;
}
