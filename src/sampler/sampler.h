/*
 * sampler.h - what sampler.c shares with offcpu.c inside
 * libbenchlab-sampler.so: the per-thread sample buffers, the table of the
 * process's threads and the few functions both sides call. Everything here
 * has hidden visibility (the library exports only its hooks).
 */
#ifndef BENCHLAB_SAMPLER_H
#define BENCHLAB_SAMPLER_H
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define MAX_THREADS 4096
#define BUF_BYTES (1u << 20)

struct thread_buf {
    atomic_int busy;    /* set while this thread's handler runs */
    atomic_int paused;  /* samples are not recorded (the clock still ticks) */
    atomic_int flushed; /* set once the buffer is written for good */
    pid_t tid;
    int perf_fd;                       /* -1 when the timer is a POSIX timer */
    struct perf_event_mmap_page *ring; /* the event's ring buffer: signals come on its wakeups */
    timer_t timer;
    int has_timer;
    uintptr_t stack_lo, stack_hi;
    size_t used; /* bytes in data, chunk header included */
    size_t cap;
    uint64_t rng;         /* xorshift state for the period jitter */
    uint64_t ticks;       /* signals handled, recorded or paused: the rate delivered */
    uint32_t period_left; /* samples before the next random period */
    unsigned char *data;  /* starts with a struct bl_raw_header */
};

/* Threads registered so far (a slot each, never reused) and their buffers. */
extern atomic_int g_n_threads;
extern struct thread_buf *_Atomic g_threads[MAX_THREADS];
/* Set once the profile is being finished: no new samples. */
extern atomic_int g_stopping;
/* Samples recorded, all threads. */
extern atomic_ulong g_samples;
/* The off-CPU sampler's own buffer (offcpu.c), or NULL outside wall mode. */
extern struct thread_buf *g_offcpu_buf;

/* A new empty buffer of `cap` sample bytes for the calling thread (its own
 * mapping, rng not seeded), or NULL; outside signal context. */
struct thread_buf *bl__sampler_buf_new(size_t cap);
/* Put tb in g_threads, where flushing finds it; 0, or -1 when every slot is
 * taken (tb is then unmapped). */
int bl__sampler_buf_publish(struct thread_buf *tb);
/* Write the buffer's samples as one chunk and empty it (async-signal-safe). */
void bl__sampler_flush(struct thread_buf *tb);
/* The next sampling period of the thread, uniform in [period/2, 3*period/2). */
uint64_t bl__sampler_next_period(struct thread_buf *tb);
typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
/* libc's pthread_create, behind our wrapper; NULL if not found. */
pthread_create_fn bl__sampler_real_pthread_create(void);
/* Start the helper thread that samples blocked threads (offcpu.c). */
void bl__sampler_start_offcpu(void);

#endif /* BENCHLAB_SAMPLER_H */
