/* preload.h - libraries the runner preloads into a worker (the allocation
 * counter, the sampler): the ELF checks that say whether LD_PRELOAD can
 * reach a suite, and the memfds that carry the embedded copies. */
#ifndef BENCHLAB_INSTRUMENTS_PRELOAD_H
#define BENCHLAB_INSTRUMENTS_PRELOAD_H

#include <stddef.h>

enum bl__preload_verdict {
    BL__PRELOAD_OK = 0,
    BL__PRELOAD_UNREADABLE, /* cannot be opened or mapped */
    BL__PRELOAD_NOT_ELF,    /* not a 64-bit ELF executable */
    BL__PRELOAD_STATIC,     /* no dynamic linker: LD_PRELOAD never applies */
    BL__PRELOAD_SANITIZER,  /* needs a sanitizer runtime, which must load first */
};

/* Read `exe`'s ELF headers. Returns the verdict; for BL__PRELOAD_SANITIZER
 * the runtime's file name ("libasan.so.8") goes to lib, for
 * BL__PRELOAD_UNREADABLE the errno text. */
enum bl__preload_verdict bl__preload_check(const char *exe, char *lib, size_t lib_size);

/* A close-on-exec memfd named `name` holding `n` bytes of `data`, created
 * on the first call and kept in *cache (initialised to -1) for later ones.
 * Returns the descriptor, or a negative errno. */
int bl__preload_memfd(const char *name, const unsigned char *data, size_t n, int *cache);

#endif
