/*
 * benchlab/env.h - what on this machine adds noise to measurements.
 *
 * bl_env_check() reads /proc and /sys (no privileges needed) and returns
 * one finding per source of noise: the frequency governor and boost, SMT,
 * ASLR, the load and the busiest other processes, a hypervisor,
 * perf_event_paranoid, isolated cores. The runner prints the warnings once
 * per run and records them in the results' metadata (key "env-warnings").
 */
#ifndef BENCHLAB_ENV_H
#define BENCHLAB_ENV_H

#include <stddef.h>

#include "benchlab/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum bl_env_level { BL_ENV_OK = 0, BL_ENV_NOTE = 1, BL_ENV_WARN = 2 };

typedef struct bl_env_finding {
    const char *check; /* "governor", "boost", "smt", "aslr", "load", ... (static) */
    char value[300];   /* what was found */
    enum bl_env_level level;
    char advice[200]; /* what to do about it; empty when nothing */
} bl_env_finding;

/*
 * Fill up to `max` findings. `sample_ms` > 0 also samples the other
 * processes' CPU use for that long, to name the busy ones. Returns the count.
 */
BL_API size_t bl_env_check(bl_env_finding *out, size_t max, int sample_ms);

/* Parse a CPU list such as "0-2,5" into a bit mask of CPUs 0..63.
 * Returns 0, or BL_EUSAGE for a malformed or out-of-range list. */
BL_API int bl_env_parse_cpus(const char *list, unsigned long long *mask);

/*
 * This machine's fingerprint, 16 hex digits: a hash of the architecture,
 * the processor model, the CPUs online, the memory and the kernel release
 * (not the host name, so identical CI runners share it). Runs with the
 * same fingerprint ran on the same kind of machine. Saved with every run.
 */
BL_API const char *bl_env_fingerprint(void);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_ENV_H */
