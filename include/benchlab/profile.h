/*
 * benchlab/profile.h - profiles from `benchlab profile`: one call-tree model, many outputs.
 *
 * A profile is a call tree: each node is a function reached by one path
 * from the root, with an inclusive value (nanoseconds of CPU or wall time)
 * and, for traced profiles, an exact number of calls. Sampled profiles come
 * from libbenchlab-sampler (preloaded), traced ones from libbenchlab-trace
 * (-finstrument-functions); both write a raw file that bl_profile_load()
 * symbolizes. The flat profile, text tree, folded stacks, CSV, flame graph
 * SVG, pprof, speedscope and Chrome trace outputs are all views of the tree.
 *
 * Link libbenchlab-profile (it needs elfutils' libelf and libdw): `pkg-config
 * --cflags --libs benchlab-profile`, or find_package(benchlab COMPONENTS
 * profile) and benchlab::profile.
 */
#ifndef BENCHLAB_PROFILE_H
#define BENCHLAB_PROFILE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "benchlab/common.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Opaque. Create with bl_profile_create() or bl_profile_load(); free with bl_profile_destroy(). */
typedef struct bl_profile bl_profile;

enum bl_profile_kind {
    BL_PROFILE_SAMPLED, /* values are sample counts times the period */
    BL_PROFILE_TRACED,  /* values are measured times; calls are exact */
};

enum bl_profile_format {
    BL_PROFILE_FLAT,       /* text: self, total, calls per function */
    BL_PROFILE_TREE,       /* text: the call tree with inclusive and exclusive % */
    BL_PROFILE_FOLDED,     /* "main;f;g 42" lines, as flame graph tools read */
    BL_PROFILE_CSV,        /* function,calls,self,total (nanoseconds) */
    BL_PROFILE_SVG,        /* a self-contained, searchable flame graph */
    BL_PROFILE_PPROF,      /* pprof's profile.proto (uncompressed protobuf) */
    BL_PROFILE_SPEEDSCOPE, /* speedscope's JSON file format */
    BL_PROFILE_CHROME,     /* Chrome trace event JSON (complete events laid out from the tree) */
    BL_PROFILE_TEXT,       /* text: the flat profile, then the call tree */
};

/* What the profiled run reported about itself; filled by bl_profile_load(). */
struct bl_profile_info {
    enum bl_profile_kind kind;
    char clock[8];              /* "cpu" or "wall" */
    char source[16];            /* "perf", "timer" (tick-capped), "wall-timer", "trace" */
    uint64_t period_ns;         /* sampling period asked for; 0 when traced */
    uint64_t samples;           /* samples recorded */
    uint64_t dropped;           /* samples that arrived where they could not be kept */
    uint64_t threads;           /* threads seen */
    uint64_t elapsed_ns;        /* wall time from start-up to the end of profiling */
    uint64_t user_ns;           /* the process's user CPU time */
    int crash_signal;           /* the signal that killed the program, or 0 */
    int perf_errno;             /* why perf events were refused (timer fallback), or 0 */
    double delivered;           /* samples / (user time / period): the rate actually delivered */
    double trace_cost_ns;       /* traced: the tracer's own cost per call, subtracted */
    uint64_t unknown_frames;    /* frames no symbol covered */
    double wait_share;          /* traced: share of the threads' time spent runnable but waiting
                                   for a CPU (their share of the tracer's cost is subtracted too) */
    char unwind[8];             /* sampled: "auto", "dwarf" or "fp" */
    uint64_t stack_bytes;       /* sampled: the stack copy per sample (auto, dwarf), or 0 */
    uint64_t stacks;            /* sampled: stacks unwound (weighted as the samples) */
    uint64_t stacks_incomplete; /* of those, stacks that did not reach the thread's start; they
                                   hang under a BL_PROFILE_INCOMPLETE frame in the tree */
    uint64_t stacks_cut;        /* of those, stacks that ran past the stack copy */
    uint64_t processes;         /* processes profiled: the program and those it started */
    uint64_t maps_missing;      /* processes whose memory map could not be read: their
                                   frames are all [unknown] */
    uint64_t events_kept;       /* traced: timeline events kept (BENCHLAB_TRACE_EVENTS) */
    uint64_t events_total;      /* traced: events the timed threads had (2 per call) */
};

/* The outermost frame of a stack that could not be unwound to the thread's start. */
#define BL_PROFILE_INCOMPLETE "[incomplete-stack]"

/* One function of the flat profile. Strings are borrowed until the profile is destroyed. */
struct bl_profile_function {
    const char *name;
    const char *file; /* source file of the function's entry, or NULL */
    int line;         /* its line, or 0 */
    double self_ns;   /* time in the function itself */
    double total_ns;  /* time in the function and its callees, recursion counted once */
    uint64_t calls;   /* traced: exact calls; sampled: 0 */
};

BL_API bl_profile *bl_profile_create(enum bl_profile_kind kind);
BL_API void bl_profile_destroy(bl_profile *profile);

/*
 * Add `value_ns` to the stack frames[0] (outermost) .. frames[n_frames-1]
 * (where the time was spent). Strings are copied. For traced profiles,
 * `value_ns` is the inclusive time of the innermost frame and `calls` its
 * call count; for sampled ones pass calls = 0. Returns 0 or -ENOMEM.
 */
BL_API int bl_profile_add_stack(bl_profile *profile, const char *const *frames, size_t n_frames,
                                double value_ns, uint64_t calls);

/*
 * Read a raw file written by libbenchlab-sampler or libbenchlab-trace and
 * symbolize it. *info (optional) is filled even when the profile is empty.
 * Returns 0; -errno when the file cannot be read; BL_EFORMAT when it is not
 * a raw profile or is damaged (a chunk header that is not one where the
 * chunk before ends; a torn last chunk, as a killed process leaves, is
 * not damage: what came before it is read); BL_ENOTFOUND when it holds no
 * samples (the profile is still returned).
 */
BL_API int bl_profile_load(const char *raw_path, bl_profile **profile,
                           struct bl_profile_info *info);

/* The total value at the root (all stacks), in nanoseconds. */
BL_API double bl_profile_total_ns(const bl_profile *profile);

/*
 * The flat profile, sorted by total time, then name. Returns the number of
 * functions; *functions (caller frees with free()) holds them.
 */
BL_API size_t bl_profile_flat(const bl_profile *profile, struct bl_profile_function **functions);

/* Write the profile in `format`. Returns 0 or -errno (a write failed). */
BL_API int bl_profile_write(const bl_profile *profile, enum bl_profile_format format, FILE *out);

/* Parse "text", "flat", "tree", "folded", "csv", "svg", "pprof", "speedscope", "chrome".
 * 0 or BL_EUSAGE. */
BL_API int bl_profile_format_parse(const char *name, enum bl_profile_format *format);

/* The format a file name's extension asks for (.txt: TEXT, .flat, .tree, .folded, .csv,
 * .svg, .pb or .pprof, .speedscope.json, .trace.json), else FLAT. */
BL_API enum bl_profile_format bl_profile_format_for_path(const char *path);

/* A short summary: the top `n_top` functions by total time. */
BL_API int bl_profile_write_summary(const bl_profile *profile, size_t n_top, FILE *out);

/* What a program file is, as far as profiling it goes (bl_profile_check_program()). */
struct bl_profile_program {
    int is_elf;        /* an ELF file for this machine */
    int is_executable; /* ET_EXEC or ET_DYN with an entry point */
    int is_dynamic;    /* has a PT_INTERP: LD_PRELOAD can reach it */
    int has_symbols;   /* .symtab or .dynsym with defined functions */
    int has_symtab;    /* .symtab: static functions have names */
    int is_traced;     /* calls __cyg_profile_func_enter (built with -finstrument-functions) */
    int has_tracer;    /* linked with libbenchlab-trace */
    int is_suite;      /* a benchlab suite (refers to bl_main): its runner starts workers */
};

/* Inspect `path`. Returns 0, or -errno when it cannot be opened. */
BL_API int bl_profile_check_program(const char *path, struct bl_profile_program *program);

/*
 * The path of libbenchlab-sampler.so for a benchlab executable at
 * `exe_path` (NULL: this process): $BENCHLAB_SAMPLER_LIB, else ../LIBDIR/
 * or ../lib/ beside the executable's directory (symbolic links resolved),
 * else the libdir benchlab was configured with. Returns 0 and writes the
 * path to buf, or BL_ENOTFOUND.
 */
BL_API int bl_profile_sampler_path(const char *exe_path, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_PROFILE_H */
