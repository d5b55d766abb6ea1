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
 * The leaf fix-up: a frame-pointer walk from code without a frame pointer
 * (a small leaf, a function in its prologue or epilogue, libc) skips that
 * code's callers. Given the sampled pc, the stack words from sp upwards and
 * the first return address of the chain, find the skipped return addresses
 * (innermost first) and store up to `max` of them in callers. Returns how many.
 */
size_t bl__fixup_frames(bl__symbolizer *s, uint64_t pc, const uint64_t *scan, size_t n_scan,
                        uint64_t first_ret, uint64_t *callers, size_t max);

/* Unwind a sample that has no frame-pointer chain (an off-CPU sample) by scanning alone. */
size_t bl__unwind_by_scan(bl__symbolizer *s, uint64_t pc, const uint64_t *scan, size_t n_scan,
                          uint64_t *callers, size_t max);

/*
 * Unwind a DWARF sample (registers and a copy of the stack from sp up) with
 * the call frame information of each module (.eh_frame, through libdw).
 * Stores the return addresses, innermost first; returns how many.
 */
size_t bl__unwind_dwarf(bl__symbolizer *s, uint64_t pc, uint64_t sp, uint64_t rbp,
                        const uint64_t *stack, size_t n_stack, uint64_t *callers, size_t max);

#endif /* BENCHLAB_SYMBOLIZE_H */
