/*
 * sampler.c - libbenchlab-sampler.so, the sampling profiler preloaded into a program.
 *
 * `benchlab profile` runs the program with LD_PRELOAD naming this library and
 * BENCHLAB_PROFILE_OUT naming the raw file (raw_format.h). Every thread, the
 * main one at load time and later ones through our pthread_create wrapper,
 * gets its own sampling clock whose signal (SIGPROF) is delivered to that
 * thread: a perf_event cpu-clock event (user time only) or, where perf
 * events are refused, a timer_create timer on the thread's CPU clock (capped
 * by the kernel tick). In wall mode it is a CLOCK_MONOTONIC timer, which
 * samples blocked threads too.
 *
 * The signal handler only reads registers and the thread's own stack and
 * appends to the thread's buffer (mmap'ed at thread start); a full buffer is
 * written with one write(2). Nothing there allocates, locks or calls into
 * the dynamic linker. Symbolization happens afterwards in the benchlab
 * process (src/profile/).
 *
 * Invariant: a buffer is written by its own thread's handler, or, once
 * g_stopping is set and its busy flag has dropped, by the thread finishing
 * the profile; never by both.
 *
 * Environment: BENCHLAB_PROFILE_OUT (required, else the library stays idle),
 * BENCHLAB_PROFILE_HZ (default 1000), BENCHLAB_PROFILE_CLOCK (cpu|wall),
 * BENCHLAB_PROFILE_PAUSED=1 (start paused; see benchlab_profile_resume()).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "benchlab/profile_hook.h"
#include "raw_format.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_THREADS 4096
#define MAX_WORDS 131 /* pc, two stack words, 128 return addresses */
#define BUF_BYTES (1u << 20)

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

struct thread_buf {
    atomic_int busy;    /* set while this thread's handler runs */
    atomic_int flushed; /* set once the buffer is written for good */
    pid_t tid;
    int perf_fd; /* -1 when the timer is a POSIX timer */
    timer_t timer;
    int has_timer;
    uintptr_t stack_lo, stack_hi;
    size_t used; /* bytes in data, chunk header included */
    size_t cap;
    unsigned char *data; /* starts with a struct bl_raw_header */
};

enum source { SRC_PERF, SRC_TIMER_CPU, SRC_TIMER_WALL };

static int g_fd = -1;
static uint64_t g_period_ns = 1000000;
static int g_wall;
static enum source g_source = SRC_PERF;
static atomic_int g_active;
static atomic_int g_stopping;
static atomic_int g_paused;
static atomic_int g_finished;
static atomic_int g_n_threads;
static atomic_ulong g_samples;
static atomic_ulong g_dropped;
static atomic_ulong g_truncated;
static atomic_int g_crash_signal;
static int g_perf_errno;
static struct timespec g_start;
static struct thread_buf *_Atomic g_threads[MAX_THREADS];
static pthread_key_t g_key;

static __thread struct thread_buf *tls_buf __attribute__((tls_model("initial-exec")));

static pid_t current_tid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

/* write(2) all of buf; async-signal-safe. */
static void write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static void flush_buf(struct thread_buf *tb)
{
    if (tb->used <= sizeof(struct bl_raw_header) || g_fd < 0)
        return;
    struct bl_raw_header *h = (struct bl_raw_header *)tb->data;
    h->magic = BL_RAW_MAGIC;
    h->type = BL_RAW_SAMPLES;
    h->tid = (uint32_t)tb->tid;
    h->reserved = 0;
    h->n_bytes = tb->used - sizeof *h;
    write_all(g_fd, tb->data, tb->used);
    tb->used = sizeof *h;
}

static int in_stack(const struct thread_buf *tb, uintptr_t p, size_t n)
{
    return p >= tb->stack_lo && p + n <= tb->stack_hi && p % sizeof(uintptr_t) == 0;
}

static void record_sample(struct thread_buf *tb, const ucontext_t *uc, uint32_t weight)
{
    uint64_t words[MAX_WORDS];
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
    uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
    uint32_t n = 0;
    words[n++] = pc;
    /* The leaf fix-up (done offline) needs the words at the top of the stack. */
    if (in_stack(tb, sp, 2 * sizeof(uintptr_t))) {
        words[n++] = ((const uintptr_t *)sp)[0];
        words[n++] = ((const uintptr_t *)sp)[1];
    } else {
        words[n++] = 0;
        words[n++] = 0;
    }
    /* Frame-pointer chain: each frame is {saved fp, return address}, and
     * frames only move towards the stack's top, so garbage ends the walk. */
    uintptr_t lo = sp;
    while (n < MAX_WORDS && fp >= lo && in_stack(tb, fp, 2 * sizeof(uintptr_t))) {
        const uintptr_t *frame = (const uintptr_t *)fp;
        if (frame[1] == 0)
            break;
        words[n++] = frame[1];
        lo = fp + 2 * sizeof(uintptr_t);
        fp = frame[0];
    }
    if (n == MAX_WORDS)
        atomic_fetch_add_explicit(&g_truncated, 1, memory_order_relaxed);
    size_t need = sizeof(struct bl_raw_sample) + n * sizeof(uint64_t);
    if (tb->used + need > tb->cap)
        flush_buf(tb);
    struct bl_raw_sample rec = {n, weight};
    memcpy(tb->data + tb->used, &rec, sizeof rec);
    memcpy(tb->data + tb->used + sizeof rec, words, n * sizeof(uint64_t));
    tb->used += need;
    atomic_fetch_add_explicit(&g_samples, 1, memory_order_relaxed);
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    int saved_errno = errno;
    struct thread_buf *tb = tls_buf;
    if (!tb) {
        atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
        errno = saved_errno;
        return;
    }
    atomic_store(&tb->busy, 1);
    if (!atomic_load(&g_stopping) && !atomic_load(&tb->flushed)) {
        uint32_t weight = 1;
        if (si->si_code == SI_TIMER && si->si_overrun > 0)
            weight += (uint32_t)si->si_overrun;
        if (!atomic_load_explicit(&g_paused, memory_order_relaxed))
            record_sample(tb, ucv, weight);
        if (tb->perf_fd >= 0)
            ioctl(tb->perf_fd, PERF_EVENT_IOC_REFRESH, 1);
    }
    atomic_store(&tb->busy, 0);
    errno = saved_errno;
}

static int start_perf(struct thread_buf *tb)
{
    struct perf_event_attr pe;
    memset(&pe, 0, sizeof pe);
    pe.type = PERF_TYPE_SOFTWARE;
    pe.size = sizeof pe;
    pe.config = PERF_COUNT_SW_CPU_CLOCK;
    pe.sample_period = g_period_ns;
    pe.disabled = 1;
    pe.exclude_kernel = 1;
    pe.exclude_hv = 1;
    pe.wakeup_events = 1;
    int fd = (int)syscall(SYS_perf_event_open, &pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct f_owner_ex owner = {F_OWNER_TID, tb->tid};
    if (fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
        fcntl(fd, F_SETOWN_EX, &owner) != 0) {
        int err = -errno;
        close(fd);
        return err;
    }
    tb->perf_fd = fd;
    ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
    return 0;
}

static int start_timer(struct thread_buf *tb, clockid_t clock)
{
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_notify_thread_id = tb->tid;
    if (timer_create(clock, &sev, &tb->timer) != 0)
        return -errno;
    tb->has_timer = 1;
    struct itimerspec its;
    its.it_interval.tv_sec = (time_t)(g_period_ns / 1000000000u);
    its.it_interval.tv_nsec = (long)(g_period_ns % 1000000000u);
    its.it_value = its.it_interval;
    timer_settime(tb->timer, 0, &its, NULL);
    return 0;
}

static void stop_clock(struct thread_buf *tb)
{
    if (tb->perf_fd >= 0) {
        ioctl(tb->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
        close(tb->perf_fd);
        tb->perf_fd = -1;
    }
    if (tb->has_timer) {
        timer_delete(tb->timer);
        tb->has_timer = 0;
    }
}

/* Make the calling thread a sampled one. Runs outside signal context. */
static void thread_register(void)
{
    size_t bytes = sizeof(struct thread_buf) + BUF_BYTES;
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return;
    struct thread_buf *tb = mem;
    tb->tid = current_tid();
    tb->perf_fd = -1;
    tb->data = (unsigned char *)mem + sizeof *tb;
    tb->cap = BUF_BYTES;
    tb->used = sizeof(struct bl_raw_header);
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr;
        size_t size;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            tb->stack_lo = (uintptr_t)addr;
            tb->stack_hi = (uintptr_t)addr + size;
        }
        pthread_attr_destroy(&attr);
    }
    int slot = atomic_fetch_add(&g_n_threads, 1);
    if (slot >= MAX_THREADS) {
        munmap(mem, bytes);
        return;
    }
    atomic_store(&g_threads[slot], tb);
    tls_buf = tb;
    pthread_setspecific(g_key, tb);
    if (g_source == SRC_PERF && start_perf(tb) != 0)
        g_source = SRC_TIMER_CPU; /* first thread decides; later ones follow */
    if (g_source == SRC_TIMER_CPU)
        start_timer(tb, CLOCK_THREAD_CPUTIME_ID);
    else if (g_source == SRC_TIMER_WALL)
        start_timer(tb, CLOCK_MONOTONIC);
}

/* Thread exit (pthread key destructor): stop the clock, write the buffer. */
static void thread_exit(void *arg)
{
    struct thread_buf *tb = arg;
    stop_clock(tb);
    tls_buf = NULL;
    atomic_signal_fence(memory_order_seq_cst);
    while (atomic_load(&tb->busy))
        ;
    if (!atomic_exchange(&tb->flushed, 1))
        flush_buf(tb);
}

struct start_arg {
    void *(*fn)(void *);
    void *arg;
};

static void *start_thread(void *p)
{
    struct start_arg s = *(struct start_arg *)p;
    free(p);
    thread_register();
    return s.fn(s.arg);
}

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg)
{
    static pthread_create_fn real;
    if (!real) {
        void *sym = dlsym(RTLD_NEXT, "pthread_create");
        memcpy(&real, &sym, sizeof real); /* ISO C has no object-to-function cast */
    }
    if (!real)
        return EAGAIN;
    if (!atomic_load(&g_active) || atomic_load(&g_stopping))
        return real(thread, attr, fn, arg);
    struct start_arg *s = malloc(sizeof *s);
    if (!s)
        return real(thread, attr, fn, arg);
    s->fn = fn;
    s->arg = arg;
    int err = real(thread, attr, start_thread, s);
    if (err)
        free(s);
    return err;
}

/* Decimal formatting without stdio, for the meta chunk (async-signal-safe). */
static size_t put_str(char *buf, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    return at;
}

static size_t put_kv(char *buf, size_t at, size_t cap, const char *key, uint64_t v)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    at = put_str(buf, at, cap, key);
    at = put_str(buf, at, cap, "=");
    while (n > 0 && at + 1 < cap)
        buf[at++] = digits[--n];
    return put_str(buf, at, cap, "\n");
}

static void write_chunk(uint32_t type, const void *data, size_t n)
{
    struct bl_raw_header h = {BL_RAW_MAGIC, type, (uint32_t)current_tid(), 0, n};
    /* One write per chunk keeps chunks whole under O_APPEND. */
    size_t total = sizeof h + n;
    void *mem = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return;
    memcpy(mem, &h, sizeof h);
    memcpy((char *)mem + sizeof h, data, n);
    write_all(g_fd, mem, total);
    munmap(mem, total);
}

static void write_maps(void)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    size_t cap = 1u << 20, used = 0;
    char *buf = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf != MAP_FAILED) {
        ssize_t r;
        while (used < cap && (r = read(fd, buf + used, cap - used)) > 0)
            used += (size_t)r;
        write_chunk(BL_RAW_MAPS, buf, used);
        munmap(buf, cap);
    }
    close(fd);
}

static void write_meta(void)
{
    char buf[1024];
    size_t at = 0, cap = sizeof buf;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t elapsed_ns = (uint64_t)(now.tv_sec - g_start.tv_sec) * 1000000000u +
                          (uint64_t)now.tv_nsec - (uint64_t)g_start.tv_nsec;
    struct rusage ru;
    uint64_t user_ns = 0, sys_ns = 0;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        user_ns =
            (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
        sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
    }
    at = put_str(buf, at, cap, "mode=sample\nclock=");
    at = put_str(buf, at, cap, g_wall ? "wall\n" : "cpu\n");
    at = put_str(buf, at, cap, "source=");
    at = put_str(buf, at, cap,
                 g_source == SRC_PERF        ? "perf\n"
                 : g_source == SRC_TIMER_CPU ? "timer\n"
                                             : "wall-timer\n");
    at = put_kv(buf, at, cap, "period_ns", g_period_ns);
    at = put_kv(buf, at, cap, "pid", (uint64_t)getpid());
    at = put_kv(buf, at, cap, "threads", (uint64_t)atomic_load(&g_n_threads));
    at = put_kv(buf, at, cap, "samples", atomic_load(&g_samples));
    at = put_kv(buf, at, cap, "dropped", atomic_load(&g_dropped));
    at = put_kv(buf, at, cap, "truncated", atomic_load(&g_truncated));
    at = put_kv(buf, at, cap, "elapsed_ns", elapsed_ns);
    at = put_kv(buf, at, cap, "user_ns", user_ns);
    at = put_kv(buf, at, cap, "sys_ns", sys_ns);
    at = put_kv(buf, at, cap, "perf_errno", (uint64_t)g_perf_errno);
    at = put_kv(buf, at, cap, "crash_signal", (uint64_t)atomic_load(&g_crash_signal));
    write_chunk(BL_RAW_META, buf, at);
}

/*
 * Write everything once: at exit, or from a crash handler. Only system
 * calls, so it is safe in a signal handler; threads still running are
 * stopped first, and we wait for any handler in flight on their buffers.
 */
static void finish(void)
{
    if (!atomic_load(&g_active) || atomic_exchange(&g_finished, 1))
        return;
    atomic_store(&g_stopping, 1);
    int n = atomic_load(&g_n_threads);
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    for (int i = 0; i < n; i++) {
        struct thread_buf *tb = atomic_load(&g_threads[i]);
        if (!tb || atomic_exchange(&tb->flushed, 1))
            continue;
        stop_clock(tb);
        /* A handler interrupted by this very crash would spin forever: skip
         * the wait for our own thread, whose handler cannot be running. */
        if (tb != tls_buf)
            for (long spin = 0; atomic_load(&tb->busy) && spin < 100000000L; spin++)
                ;
        flush_buf(tb);
    }
    write_meta();
    write_maps();
    /* g_fd stays open: a thread exiting right now may still be writing. */
}

static void on_crash(int sig)
{
    atomic_store(&g_crash_signal, sig);
    finish();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_crash_handlers(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
            continue; /* the program (or a sanitizer) handles it: leave it */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_crash;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigaction(sigs[i], &sa, NULL);
    }
}

static void after_fork_child(void)
{
    /* A forked child is not profiled: its copies of the buffers belong to the parent. */
    atomic_store(&g_stopping, 1);
    atomic_store(&g_active, 0);
    tls_buf = NULL;
    if (g_fd >= 0)
        close(g_fd);
    g_fd = -1;
}

/* Pause and resume recording; the run --profile hook (docs/profile.md). */
EXPORT void benchlab_profile_pause(void)
{
    atomic_store(&g_paused, 1);
}

EXPORT void benchlab_profile_resume(void)
{
    atomic_store(&g_paused, 0);
}

/* Write the profile now and stop sampling (a worker calls it before _exit). */
EXPORT void benchlab_profile_flush(void)
{
    finish();
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return *end ? dflt : (uint64_t)v;
}

__attribute__((constructor)) static void sampler_init(void)
{
    const char *out = getenv("BENCHLAB_PROFILE_OUT");
    if (!out || !*out)
        return;
    g_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    /* Child processes we exec inherit the preload but must not write here. */
    unsetenv("BENCHLAB_PROFILE_OUT");
    if (g_fd < 0)
        return;
    uint64_t hz = env_u64("BENCHLAB_PROFILE_HZ", 1000);
    if (hz < 1)
        hz = 1;
    if (hz > 100000)
        hz = 100000;
    g_period_ns = 1000000000u / hz;
    const char *clock = getenv("BENCHLAB_PROFILE_CLOCK");
    g_wall = clock && strcmp(clock, "wall") == 0;
    g_source = g_wall ? SRC_TIMER_WALL : SRC_PERF;
    const char *paused = getenv("BENCHLAB_PROFILE_PAUSED");
    atomic_store(&g_paused, paused && strcmp(paused, "1") == 0);
    clock_gettime(CLOCK_MONOTONIC, &g_start);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigprof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, NULL);
    pthread_key_create(&g_key, thread_exit);
    pthread_atfork(NULL, NULL, after_fork_child);
    install_crash_handlers();
    atomic_store(&g_active, 1);
    if (!g_wall) {
        /* Probe once so the meta chunk can say why we fell back. */
        struct perf_event_attr pe;
        memset(&pe, 0, sizeof pe);
        pe.type = PERF_TYPE_SOFTWARE;
        pe.size = sizeof pe;
        pe.config = PERF_COUNT_SW_CPU_CLOCK;
        pe.disabled = 1;
        pe.exclude_kernel = 1;
        pe.exclude_hv = 1;
        int fd = (int)syscall(SYS_perf_event_open, &pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) {
            g_perf_errno = errno;
            g_source = SRC_TIMER_CPU;
        } else {
            close(fd);
        }
        const char *force = getenv("BENCHLAB_PROFILE_SOURCE");
        if (force && strcmp(force, "timer") == 0)
            g_source = SRC_TIMER_CPU;
    }
    thread_register();
}

__attribute__((destructor)) static void sampler_fini(void)
{
    finish();
}
