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
 * (a program that links libbenchlab-trace statically finds the trace
 * controls through weak references instead: the executable does not export
 * them to dlsym). Both profilers start paused when BENCHLAB_PROFILE_PAUSED=1.
 */
#ifndef BENCHLAB_PROFILE_HOOK_H
#define BENCHLAB_PROFILE_HOOK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stop and restart recording samples, in every thread (and the state threads
 * created later start in): stores to flags, async-signal-safe. While paused
 * the clocks keep ticking, each tick a signal that records nothing. */
void benchlab_profile_pause(void);
void benchlab_profile_resume(void);

/* The same for the calling thread only (run --profile: each thread of a
 * benchmark records its own timed segments). Async-signal-safe. */
void benchlab_profile_pause_thread(void);
void benchlab_profile_resume_thread(void);

/* Write the profile now and stop profiling: call before _exit(), which skips destructors. */
void benchlab_profile_flush(void);

/*
 * The tracer's equivalents. Pause and resume act on the calling thread
 * only; every thread starts paused when the program started with
 * BENCHLAB_PROFILE_PAUSED=1. Calls made while paused are neither counted
 * nor timed, and the functions open across a pause are charged only with
 * the time outside it. Each costs a loop over the thread's open calls; not
 * async-signal-safe.
 */
void benchlab_trace_pause(void);
void benchlab_trace_resume(void);
void benchlab_trace_flush(void);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_PROFILE_HOOK_H */
