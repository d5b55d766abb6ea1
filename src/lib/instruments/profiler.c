/*
 * profiler.c - the profile pass (`run --profile`), the part in libbenchlab.
 *
 * The profilers live outside libbenchlab: the sampler is a library the
 * runner preloads into a worker of its own (a copy is embedded here as
 * bytes, as the allocation counter is), the tracer a library the suite
 * links. The worker finds their pause, resume and flush controls at run
 * time and resumes them only around the timed segments of measured
 * batches (state.c). Turning the raw files into profiles needs the
 * symbolizer (libbenchlab-profile, elfutils), which libbenchlab must not
 * depend on: the runner's command line hands them to `benchlab profile
 * --load` (main.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/base.h"
#include "benchlab/profile_hook.h"
#include "preload.h"
#include "profiler.h"

extern const unsigned char bl__sampler_preload_blob[];
extern const size_t bl__sampler_preload_blob_size;

/*
 * The tracer's controls by weak reference: a suite that links
 * libbenchlab-trace.a into an executable does not export them to dlsym, but
 * the static link resolves these. Without the tracer they stay NULL.
 */
extern void benchlab_trace_pause(void) __attribute__((weak));
extern void benchlab_trace_resume(void) __attribute__((weak));
extern void benchlab_trace_flush(void) __attribute__((weak));

int bl__profile_mode_parse(const char *name)
{
    if (!name || !*name || strcmp(name, "sample") == 0)
        return BL__PROFILE_SAMPLE;
    if (strcmp(name, "trace") == 0)
        return BL__PROFILE_TRACE;
    return -1;
}

const char *bl__profile_mode_name(int mode)
{
    return mode == BL__PROFILE_TRACE ? "trace" : mode == BL__PROFILE_SAMPLE ? "sample" : "none";
}

int bl__sampler_preload(const char **path)
{
    const char *env = getenv("BENCHLAB_SAMPLER_LIB");
    if (env && *env) {
        *path = env;
        return access(env, R_OK) == 0 ? -1 : -errno;
    }
    static int fd = -1;
    *path = NULL;
    return bl__preload_memfd("libbenchlab-sampler.so", bl__sampler_preload_blob,
                             bl__sampler_preload_blob_size, &fd);
}

char *bl__profile_file_base(const char *name)
{
    char *s = bl__strdup(name);
    for (char *p = s; p && *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr("._=,+-", c)))
            *p = '_';
    }
    if (s && s[0] == '.')
        s[0] = '_'; /* never a hidden file, never ".." */
    return s;
}

/* dlsym as a function pointer (POSIX allows the conversion; ISO C does not). */
static void (*find(const char *name))(void)
{
    void *sym = dlsym(RTLD_DEFAULT, name);
    void (*fn)(void) = NULL;
    memcpy(&fn, &sym, sizeof fn);
    return fn;
}

int bl__profiler_load(int mode, struct bl__profiler *p, char *why, size_t why_size)
{
    memset(p, 0, sizeof *p);
    if (mode == BL__PROFILE_SAMPLE) {
        p->resume = find("benchlab_profile_resume_thread");
        p->pause = find("benchlab_profile_pause_thread");
        p->flush = find("benchlab_profile_flush");
        if (!p->resume || !p->pause || !p->flush) {
            snprintf(why, why_size,
                     "the sampler (libbenchlab-sampler.so) is not loaded in the "
                     "worker: LD_PRELOAD was refused or overridden");
            return -1;
        }
        return 0;
    }
    p->resume = benchlab_trace_resume ? benchlab_trace_resume : find("benchlab_trace_resume");
    p->pause = benchlab_trace_pause ? benchlab_trace_pause : find("benchlab_trace_pause");
    p->flush = benchlab_trace_flush ? benchlab_trace_flush : find("benchlab_trace_flush");
    if (!p->resume || !p->pause || !p->flush) {
        snprintf(why, why_size,
                 "the suite is not linked with libbenchlab-trace: build it with "
                 "-finstrument-functions and link -lbenchlab-trace (docs/profile.md), or use "
                 "--profile=sample");
        return -1;
    }
    return 0;
}
