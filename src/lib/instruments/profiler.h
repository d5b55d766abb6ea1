/* profiler.h - the profile pass (run --profile): the runner side (which
 * sampler to preload, the raw file names) and the worker side (finding the
 * profiler's controls in the worker). */
#ifndef BENCHLAB_INSTRUMENTS_PROFILER_H
#define BENCHLAB_INSTRUMENTS_PROFILER_H

#include <stddef.h>

enum bl__profile_mode { BL__PROFILE_NONE = 0, BL__PROFILE_SAMPLE, BL__PROFILE_TRACE };

/* "sample" or "trace" (NULL or "": sample); -1 for anything else. */
int bl__profile_mode_parse(const char *name);
const char *bl__profile_mode_name(int mode);

/*
 * Runner: the sampler to preload. With $BENCHLAB_SAMPLER_LIB set, *path is
 * that file and the return is -1; otherwise the copy embedded in
 * libbenchlab, in a memfd whose descriptor is returned. A negative errno
 * below -1 when neither is usable (*path then names the variable's value).
 */
int bl__sampler_preload(const char **path);

/* A benchmark's full name as a file name: letters, digits and ._=,+- are
 * kept, anything else (the '/' of sub-benchmarks) becomes '_'. Caller frees. */
char *bl__profile_file_base(const char *name);

/* Worker: the profiler's controls, as the libraries export them
 * (include/benchlab/profile_hook.h); resume and pause act on the calling
 * thread, so that each thread of a benchmark records its own timed
 * segments. */
struct bl__profiler {
    void (*resume)(void);
    void (*pause)(void);
    void (*flush)(void);
};

/* Find the controls of `mode`'s profiler in this process. 0, or -1 when it
 * is not loaded (the message for the runner in why). */
int bl__profiler_load(int mode, struct bl__profiler *p, char *why, size_t why_size);

#endif
