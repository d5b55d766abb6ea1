/*
 * benchlab/profile_hook.h - controls that the profiler libraries export into a
 * profiled process, for code that wants to profile only part of its run
 * (the benchmark worker around its measured loop: `benchlab run --profile`).
 *
 * They live in libbenchlab-sampler.so (preloaded) and libbenchlab-trace, not
 * in libbenchlab: look them up at run time, so that a process without the
 * profiler runs unchanged:
 *
 *   void (*resume)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "benchlab_profile_resume");
 *   if (resume) resume();
 *
 * The sampler starts paused when BENCHLAB_PROFILE_PAUSED=1. Pausing stops
 * recording at once (the clocks keep ticking, each tick costs ~1 us).
 */
#ifndef BENCHLAB_PROFILE_HOOK_H
#define BENCHLAB_PROFILE_HOOK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stop and restart recording samples, in every thread. Async-signal-safe. */
void benchlab_profile_pause(void);
void benchlab_profile_resume(void);

/* Write the profile now and stop profiling: call before _exit(), which skips destructors. */
void benchlab_profile_flush(void);

/* The tracer's equivalent of benchlab_profile_flush(). */
void benchlab_trace_flush(void);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_PROFILE_HOOK_H */
