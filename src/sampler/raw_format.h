/*
 * raw_format.h - the file the sampler and the tracer write and libbenchlab-profile reads.
 *
 * A raw profile is a sequence of chunks, each one write(2) on an O_APPEND
 * descriptor, so chunks from several threads never interleave. Host byte
 * order: a raw file is read on the machine that wrote it.
 *
 *   chunk  = header payload[n_bytes]
 *   header = magic "BLPC" (u32), type (u32), tid (u32), pid (u32), n_bytes (u64)
 *
 * pid: the process that wrote the chunk (0 in files of one process): with
 * BENCHLAB_PROFILE_FOLLOW=1 the programs a profiled program starts append
 * to the same file, each chunk with its pid, and the reader pairs each
 * process's samples with its own maps.
 *
 * BL_RAW_SAMPLES: records { u32 n_words; u32 weight; u64 words[n_words] }, where
 *   words[0] is the interrupted pc, words[1] the stack pointer, words[2] a
 *   count n of stack words copied from sp up (for the leaf fix-up), then those
 *   n words, then the return addresses of the frame-pointer chain, innermost
 *   first; weight counts periods (BL_RAW_SCAN_ONLY: an off-CPU sample
 *   without a chain).
 * BL_RAW_MAPS: the text of /proc/self/maps at exit.
 * BL_RAW_META: "key=value\n" lines (mode, period_ns, counts, exit status).
 * BL_RAW_TRACE: one thread's call tree, records struct bl_raw_trace_node,
 *   node 0 the root; a parent always comes before its children.
 * BL_RAW_EVENTS: one thread's timeline (BENCHLAB_TRACE_EVENTS=N keeps the
 *   first N), records { u64 tsc (top bit: exit); u64 fn }, in order.
 * BL_RAW_SCHED: one thread's { u64 run_ns; u64 wait_ns } while traced, from
 *   the scheduler (schedstat): time on a CPU and time runnable but waiting.
 */
#ifndef BENCHLAB_RAW_FORMAT_H
#define BENCHLAB_RAW_FORMAT_H
#include <stdint.h>

#define BL_RAW_MAGIC 0x43504c42u /* "BLPC" little-endian */

enum bl_raw_type {
    BL_RAW_SAMPLES = 1,
    BL_RAW_MAPS = 2,
    BL_RAW_META = 3,
    BL_RAW_TRACE = 4,
    BL_RAW_EVENTS = 5,
    BL_RAW_SCHED = 6,
};

struct bl_raw_header {
    uint32_t magic;
    uint32_t type;
    uint32_t tid;
    uint32_t pid; /* the writing process, or 0 */
    uint64_t n_bytes;
};

/* In bl_raw_sample.weight: no frame-pointer chain, unwind by scanning the stack copy. */
#define BL_RAW_SCAN_ONLY 0x80000000u
/* In bl_raw_sample.weight: a stack-copy sample (--unwind auto or dwarf), words = pc, sp,
 * n, n stack words, rbp, then {fp, return address} pairs of the frame-pointer chain
 * above the copy (the reader joins them where its unwinding meets one). */
#define BL_RAW_DWARF 0x40000000u
/* In bl_raw_sample.weight, with BL_RAW_DWARF: rbp is followed by the other
 * callee-saved registers, rbx, r12, r13, r14 and r15 (BL_RAW_N_SAVED words
 * from rbp on). Code whose call frame information keeps its frame in one of
 * them (ld.so's lazy-binding trampoline in rbx) unwinds only with them. */
#define BL_RAW_SAVED_REGS 0x20000000u
#define BL_RAW_N_SAVED 6
#define BL_RAW_WEIGHT_MASK 0x1fffffffu

struct bl_raw_sample {
    uint32_t n_words;
    uint32_t weight;
    /* uint64_t words[n_words] follow */
};

struct bl_raw_trace_node {
    uint64_t fn;     /* function entry address; 0 for the root */
    uint32_t parent; /* index of the parent node; 0 for the root itself */
    uint32_t reserved;
    uint64_t calls;     /* completed and open calls */
    uint64_t ticks;     /* inclusive time stamp counter ticks, tracer cost included */
    uint64_t sub_calls; /* calls made in the whole subtree below this node */
};

#endif /* BENCHLAB_RAW_FORMAT_H */
