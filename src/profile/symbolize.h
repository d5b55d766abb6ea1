/* symbolize.h - addresses of a finished process to functions (symbolize.c). */
#ifndef BENCHLAB_SYMBOLIZE_H
#define BENCHLAB_SYMBOLIZE_H
#include <stddef.h>
#include <stdint.h>

#include "benchlab/common.h"

typedef struct bl__symbolizer bl__symbolizer;

/* Strings are borrowed until the symbolizer is destroyed. */
struct bl__frame {
    const char *name;        /* function, or NULL when no symbol covers the address */
    const char *module;      /* file name of the mapping, or "[unknown]" */
    const char *module_path; /* full path as in maps */
    const char *file;        /* source file, when asked for and known */
    int line;
    uint64_t start; /* run-time address of the function's entry, or 0 */
};

/* From the text of /proc/PID/maps (copied). NULL only when out of memory. */
bl__symbolizer *bl__symbolizer_create(const char *maps, size_t n);
void bl__symbolizer_destroy(bl__symbolizer *s);

/* Symbolize one run-time address. 0, or BL_ENOTFOUND (out->module still set). */
int bl__symbolize(bl__symbolizer *s, uint64_t addr, int want_line, struct bl__frame *out);

/*
 * The leaf fix-up: given the sampled pc, the two words at the top of the
 * stack and the first return address of the frame-pointer chain, decide
 * whether the walk skipped the caller of the function at pc; if so store its
 * return address in *caller and return 1.
 */
int bl__fixup_leaf(bl__symbolizer *s, uint64_t pc, uint64_t top0, uint64_t top1, uint64_t first_ret,
                   uint64_t *caller);

#endif /* BENCHLAB_SYMBOLIZE_H */
