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
    uint64_t vaddr; /* the address in the module's ELF (as addr2line -e MODULE takes it);
                       without a symbol, the entry of the function holding it, from its CFI */
    int has_vaddr;  /* vaddr is known: the module is an ELF file we could read */
};

/* From the text of /proc/PID/maps (copied; NULL: none yet, add processes). NULL only
 * when out of memory. */
bl__symbolizer *bl__symbolizer_create(const char *maps, size_t n);
/* Add a process's maps (copied): 0 or -ENOMEM. The first one added is selected. */
int bl__symbolizer_add_process(bl__symbolizer *s, uint32_t pid, const char *maps, size_t n);
/* Addresses are looked up in process pid's maps from now on: 0, or BL_ENOTFOUND (no maps
 * for it: every address is unknown). */
int bl__symbolizer_select(bl__symbolizer *s, uint32_t pid);
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

/* Why an unwind ended. */
enum bl__unwind_end {
    BL__UNWIND_STOPPED,   /* no rule for a frame (no CFI, no frame pointer), or a bad value */
    BL__UNWIND_OUTERMOST, /* the outermost frame: CFI marks its return address undefined */
    BL__UNWIND_COPY_END,  /* the next frame lies beyond the stack copy */
    BL__UNWIND_CHAIN,     /* went on past the copy along the sampler's frame-pointer chain */
};

/*
 * Unwind a copied-stack sample (registers and the stack from sp up) frame
 * by frame. `saved` holds the callee-saved registers at the sample, rbp
 * first, then rbx, r12, r13, r14 and r15 (n_saved of them: 1 in raw files
 * written before the others were kept). With the module's call frame information (.eh_frame,
 * through libdw) where it covers the pc, else by the frame pointer where the function keeps one.
 * Past the copy, it goes on along `chain` ({fp, return address} pairs the sampler walked above the
 * copy) when the current frame pointer is one of them. Stores the return addresses, innermost
 * first; returns how many, and why it ended in *end.
 */
size_t bl__unwind_dwarf(bl__symbolizer *s, uint64_t pc, uint64_t sp, const uint64_t *saved,
                        size_t n_saved, const uint64_t *stack, size_t n_stack,
                        const uint64_t *chain, size_t n_chain, uint64_t *callers, size_t max,
                        enum bl__unwind_end *end);

/*
 * Is rbp the frame pointer of the code at addr (its CFA is rbp + 16, by the
 * module's call frame information; by the function's prologue where it has
 * none)? A frame-pointer chain may only be followed through such frames.
 */
int bl__frame_pointer_at(bl__symbolizer *s, uint64_t addr);

#endif /* BENCHLAB_SYMBOLIZE_H */
