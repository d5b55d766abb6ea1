/*
 * callgrind.h - the worker's side of instruction counts (--instructions):
 * Valgrind's client requests, which switch callgrind's collection on and
 * off for the calling thread and write its counts to a dump file.
 *
 * The requests are a few no-op instructions that only callgrind reads
 * (valgrind/callgrind.h, from Debian's valgrind): natively they cost next
 * to nothing and libbenchlab links nothing for them. A libbenchlab built
 * without that header (BL_HAVE_CALLGRIND undefined) keeps the same calls,
 * and a worker asked to count says it cannot.
 */
#ifndef BENCHLAB_INSTRUMENTS_CALLGRIND_H
#define BENCHLAB_INSTRUMENTS_CALLGRIND_H

#include <stdbool.h>
#include <stddef.h>

#ifdef BL_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#define BL__CG_BUILT true
/* true when this process runs under valgrind */
#define bl__cg_running() (RUNNING_ON_VALGRIND != 0)
/* the calling thread's collection, on or off (callgrind keeps it per thread) */
#define bl__cg_toggle() CALLGRIND_TOGGLE_COLLECT
/* every thread's counts so far go to a dump file whose trigger says
 * `label`, and are zeroed (CALLGRIND_ZERO_STATS would zero the caller's
 * only) */
#define bl__cg_dump(label) CALLGRIND_DUMP_STATS_AT(label)
#else
#define BL__CG_BUILT false
#define bl__cg_running() false
#define bl__cg_toggle() ((void)0)
#define bl__cg_dump(label) ((void)(label))
#endif

/* ---- callgrind's output format (valgrind's docs, "Callgrind Format
 * Specification"): what the count reads of a dump file, callgrind_read.c.
 * The one reader: the worker sizes its batches with it, the runner takes
 * the counts. */

#define BL__CG_MAX_EVENTS 16

/* A dump's header: its events ("Ir", "D1mr", ...), the summary's cost of
 * each (events the summary leaves out cost 0), and what triggered the
 * dump (the label of CALLGRIND_DUMP_STATS_AT, "Program termination"). */
struct bl__cg_dump {
    int n_events;
    char event[BL__CG_MAX_EVENTS][16];
    double total[BL__CG_MAX_EVENTS];
    char trigger[128];
    char cmd[256];
};

/* Read the dump file at `path`. 0, or a negative errno or BL_EPROTO with a
 * message naming the file and what is wrong with it in `why`. */
int bl__cg_read_dump(const char *path, struct bl__cg_dump *d, char *why, size_t why_size);
/* The total of `event` ("Ir"), 0 when the dump has no such event. */
double bl__cg_total(const struct bl__cg_dump *d, const char *event);

#endif
