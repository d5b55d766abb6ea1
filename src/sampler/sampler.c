/*
 * sampler.c - libbenchlab-sampler.so, the sampling profiler preloaded into a program.
 *
 * `benchlab profile` runs the program with LD_PRELOAD naming this library and
 * BENCHLAB_PROFILE_OUT naming the raw file (raw_format.h). Every thread, the
 * main one at load time and later ones through our pthread_create wrapper,
 * gets its own sampling clock whose signal is delivered to that thread: a
 * perf_event cpu-clock event (user time only) that raises SIGTRAP itself
 * (sigtrap=1; SIGPROF through fasync on kernels before 5.13) or, where perf
 * events are refused, a timer_create timer on the thread's CPU clock
 * (SIGPROF, capped by the kernel tick). Wall mode adds a helper thread that
 * samples blocked threads (offcpu.c).
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
 * BENCHLAB_PROFILE_PAUSED=1 (start paused; see benchlab_profile_resume()),
 * BENCHLAB_PROFILE_UNWIND (auto, the default, dwarf or fp), BENCHLAB_PROFILE_STACK
 * (bytes of stack copied per sample, default 65536).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "benchlab/profile_hook.h"
#include "raw_format.h"
#include "sampler.h"

#define EXPORT __attribute__((visibility("default")))
#define SCAN_WORDS 64 /* stack words kept for the offline fix-up of frameless code */
#define MAX_WORDS (3 + SCAN_WORDS + 128) /* pc, sp, n_scan, scanned words, return addresses */

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/*
 * Where the signals come from. SRC_PERF: a perf_event cpu-clock event per
 * thread with sigtrap=1 (Linux 5.13+), whose overflow the kernel turns into
 * a SIGTRAP for that thread on its way back to user mode. SRC_PERF_ASYNC
 * (older kernels): the same event with a ring buffer, whose wakeup is sent
 * as SIGPROF through fasync; that path goes through irq_work, a self-IPI,
 * which costs one more interrupt per sample (11 us on the VM of
 * bench/profile, where the timer interrupt itself costs 16). SRC_TIMER_CPU:
 * timer_create on the thread's CPU clock, capped by the tick.
 */
enum source { SRC_PERF, SRC_PERF_ASYNC, SRC_TIMER_CPU };

static int g_fd = -1;
static pid_t g_pid;  /* the process we profile (not a forked child); chunks carry it */
static int g_follow; /* BENCHLAB_PROFILE_FOLLOW=1: programs we exec are profiled too */
static int g_root;   /* the first process of a followed tree */
static uint64_t g_period_ns = 1000000;
static int g_wall;
static enum source g_source = SRC_PERF;
static atomic_int g_active;
atomic_int g_stopping;
static atomic_int g_paused; /* the state new threads start in */
static atomic_int g_finished;
atomic_int g_n_threads;
atomic_ulong g_samples;
static atomic_ulong g_dropped;
static atomic_ulong g_truncated;
static atomic_int g_crash_signal;
static int g_perf_errno;
static struct sigaction g_old_sigtrap; /* the program's, for SIGTRAPs that are not ours */
#define SIGTRAP_COOKIE 0x424c5052u     /* sig_data of our events: "BLPR" */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

/*
 * A new random period every REDRAW samples, in [P/2, 3P/2). A fixed
 * period aliases with programs whose rounds repeat at a similar period:
 * one phase of the round gets all the samples. Drawing anew every sample
 * would be safest, but PERF_EVENT_IOC_PERIOD restarts the event's hrtimer,
 * a timer reprogramming that costs about as much as the sample itself in a
 * VM (14 us on the bench/profile VM); every 8th sample it costs 2 us per
 * sample, and a run of 8 samples at one phase is rare and short.
 */
#define REDRAW 8
static struct timespec g_start;
struct thread_buf *_Atomic g_threads[MAX_THREADS];
static pthread_key_t g_key;

static __thread struct thread_buf *tls_buf __attribute__((tls_model("initial-exec")));

/* The calling thread's id. */
static pid_t sampler_tid(void)
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

void bl__sampler_flush(struct thread_buf *tb)
{
    if (tb->used <= sizeof(struct bl_raw_header) || g_fd < 0)
        return;
    struct bl_raw_header *h = (struct bl_raw_header *)tb->data;
    h->magic = BL_RAW_MAGIC;
    h->type = BL_RAW_SAMPLES;
    h->tid = (uint32_t)tb->tid;
    h->pid = (uint32_t)g_pid;
    h->n_bytes = tb->used - sizeof *h;
    write_all(g_fd, tb->data, tb->used);
    tb->used = sizeof *h;
}

static int in_stack(const struct thread_buf *tb, uintptr_t p, size_t n)
{
    return p >= tb->stack_lo && p + n <= tb->stack_hi && p % sizeof(uintptr_t) == 0;
}

/*
 * Stack-copy mode (BENCHLAB_PROFILE_UNWIND=auto, the default, or dwarf):
 * copy the registers the unwinder starts from and the used part of the
 * stack, up to BENCHLAB_PROFILE_STACK bytes (default 64 KB), and leave the
 * unwinding to the reader, which picks per frame the module's call frame
 * information (.eh_frame) or, where there is none, the frame pointer. Beyond
 * the copy, the reader can only go on where the frame-pointer chain holds:
 * we walk it here and keep its frames that lie above the copy as {fp, return
 * address} pairs, which the reader joins where its own unwinding meets one
 * of them. Only the used part is copied, so a shallow stack costs little.
 */
#define CHAIN_PAIRS 64
enum unwind { UNWIND_FP, UNWIND_DWARF, UNWIND_AUTO };
static enum unwind g_unwind = UNWIND_AUTO;
static size_t g_stack_words = 65536 / sizeof(uint64_t);
static size_t g_buf_bytes = BUF_BYTES;

static void record_dwarf(struct thread_buf *tb, const ucontext_t *uc, uint32_t weight)
{
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
    uint64_t rbp = (uint64_t)uc->uc_mcontext.gregs[REG_RBP];
    const uint64_t saved[BL_RAW_N_SAVED] = {
        rbp,
        (uint64_t)uc->uc_mcontext.gregs[REG_RBX],
        (uint64_t)uc->uc_mcontext.gregs[REG_R12],
        (uint64_t)uc->uc_mcontext.gregs[REG_R13],
        (uint64_t)uc->uc_mcontext.gregs[REG_R14],
        (uint64_t)uc->uc_mcontext.gregs[REG_R15],
    };
    size_t n = 0;
    if (in_stack(tb, sp, sizeof(uintptr_t))) {
        n = (tb->stack_hi - sp) / sizeof(uintptr_t);
        if (n > g_stack_words)
            n = g_stack_words;
    }
    uint64_t pairs[2 * CHAIN_PAIRS];
    size_t n_pairs = 0;
    uintptr_t copy_end = sp + n * sizeof(uintptr_t), fp = (uintptr_t)rbp, lo = sp;
    while (n_pairs < CHAIN_PAIRS && fp >= lo && in_stack(tb, fp, 2 * sizeof(uintptr_t))) {
        const uintptr_t *frame = (const uintptr_t *)fp;
        if (frame[1] == 0)
            break;
        if (fp + 2 * sizeof(uintptr_t) > copy_end) {
            pairs[2 * n_pairs] = fp;
            pairs[2 * n_pairs + 1] = frame[1];
            n_pairs++;
        }
        lo = fp + 2 * sizeof(uintptr_t);
        fp = frame[0];
    }
    size_t n_words = 3 + n + BL_RAW_N_SAVED + 2 * n_pairs;
    size_t need = sizeof(struct bl_raw_sample) + n_words * sizeof(uint64_t);
    if (tb->used + need > tb->cap)
        bl__sampler_flush(tb);
    if (tb->used + need > tb->cap) {
        atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
        return;
    }
    struct bl_raw_sample rec = {(uint32_t)n_words, weight | BL_RAW_DWARF | BL_RAW_SAVED_REGS};
    uint64_t head[3] = {pc, sp, n};
    unsigned char *at = tb->data + tb->used;
    memcpy(at, &rec, sizeof rec);
    at += sizeof rec;
    memcpy(at, head, sizeof head);
    at += sizeof head;
    memcpy(at, (const void *)sp, n * sizeof(uint64_t));
    at += n * sizeof(uint64_t);
    memcpy(at, saved, sizeof saved);
    at += sizeof saved;
    memcpy(at, pairs, 2 * n_pairs * sizeof(uint64_t));
    tb->used += need;
    atomic_fetch_add_explicit(&g_samples, 1, memory_order_relaxed);
}

static void record_sample(struct thread_buf *tb, const ucontext_t *uc, uint32_t weight)
{
    if (g_unwind != UNWIND_FP) {
        record_dwarf(tb, uc, weight);
        return;
    }
    uint64_t words[MAX_WORDS];
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
    uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
    uint32_t n = 0;
    words[n++] = pc;
    words[n++] = sp;
    /* Code without a frame pointer (a leaf, libc) between pc and the frame
     * rbp points to: keep the stack words up to that frame, so that the
     * reader can find the return addresses the chain walk skips. */
    size_t n_scan = 0;
    if (in_stack(tb, sp, sizeof(uintptr_t))) {
        uintptr_t top =
            fp > sp && fp - sp < SCAN_WORDS * sizeof(uintptr_t) ? fp + 16 : sp + SCAN_WORDS * 8;
        if (top > tb->stack_hi)
            top = tb->stack_hi;
        n_scan = (top - sp) / sizeof(uintptr_t);
        if (n_scan > SCAN_WORDS)
            n_scan = SCAN_WORDS;
    }
    words[n++] = n_scan;
    memcpy(&words[n], (const void *)sp, n_scan * sizeof(uintptr_t));
    n += (uint32_t)n_scan;
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
        bl__sampler_flush(tb);
    struct bl_raw_sample rec = {n, weight};
    memcpy(tb->data + tb->used, &rec, sizeof rec);
    memcpy(tb->data + tb->used + sizeof rec, words, n * sizeof(uint64_t));
    tb->used += need;
    atomic_fetch_add_explicit(&g_samples, 1, memory_order_relaxed);
}

/*
 * The next period, uniform in [period/2, 3*period/2): a fixed period
 * aliases with programs whose work repeats at a similar period (a loop of
 * rounds), and then one phase of the round gets all the samples.
 */
uint64_t bl__sampler_next_period(struct thread_buf *tb)
{
    uint64_t x = tb->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    tb->rng = x;
    return g_period_ns / 2 + x % g_period_ns;
}

static void arm_timer(struct thread_buf *tb, uint64_t ns)
{
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = (time_t)(ns / 1000000000u);
    its.it_value.tv_nsec = (long)(ns % 1000000000u);
    timer_settime(tb->timer, 0, &its, NULL);
}

/* One tick of this thread's clock: record a sample unless paused, and
 * keep the clock going with a new random period now and then. */
static void tick(siginfo_t *si, void *ucv)
{
    int saved_errno = errno;
    struct thread_buf *tb = tls_buf;
    if (!tb) {
        atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
        errno = saved_errno;
        return;
    }
    atomic_store(&tb->busy, 1);
    if (!atomic_load(&g_stopping) && !atomic_load(&tb->flushed)) {
        tb->ticks++;
        uint32_t weight = 1;
        if (si->si_code == SI_TIMER && si->si_overrun > 0)
            weight += (uint32_t)si->si_overrun;
        if (!atomic_load_explicit(&tb->paused, memory_order_relaxed))
            record_sample(tb, ucv, weight);
        if (tb->ring) /* consume the (empty) records so that wakeups, and signals, keep coming */
            __atomic_store_n(&tb->ring->data_tail,
                             __atomic_load_n(&tb->ring->data_head, __ATOMIC_ACQUIRE),
                             __ATOMIC_RELEASE);
        if (tb->perf_fd >= 0 && --tb->period_left == 0) {
            uint64_t next = bl__sampler_next_period(tb);
            ioctl(tb->perf_fd, PERF_EVENT_IOC_PERIOD, &next);
            tb->period_left = REDRAW;
        } else if (tb->has_timer && si->si_code == SI_TIMER) {
            arm_timer(tb, bl__sampler_next_period(tb));
        }
    }
    atomic_store(&tb->busy, 0);
    errno = saved_errno;
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    tick(si, ucv);
}

static void on_crash(int sig);

/* si_perf_data: the kernel's siginfo has it right after si_addr (glibc's
 * siginfo_t does not name it yet). */
static uint64_t perf_data(const siginfo_t *si)
{
    unsigned long v;
    memcpy(&v, (const char *)&si->si_addr + sizeof(void *), sizeof v);
    return v;
}

/* SIGTRAP: ours when it is TRAP_PERF with our cookie; any other (a
 * breakpoint, the program's own) goes where it went without us. */
static void on_sigtrap(int sig, siginfo_t *si, void *ucv)
{
    if (si->si_code == TRAP_PERF && perf_data(si) == SIGTRAP_COOKIE) {
        tick(si, ucv);
        return;
    }
    if (g_old_sigtrap.sa_flags & SA_SIGINFO) {
        g_old_sigtrap.sa_sigaction(sig, si, ucv);
    } else if (g_old_sigtrap.sa_handler == SIG_IGN) {
        return;
    } else if (g_old_sigtrap.sa_handler != SIG_DFL) {
        g_old_sigtrap.sa_handler(sig);
    } else {
        on_crash(SIGTRAP); /* the default action kills: keep the samples first */
    }
}

/* The thread's cpu-clock event (user time only); with sigtrap, the
 * kernel signals the thread itself, else fasync sends SIGPROF on each
 * wakeup of a ring buffer. 0 or -errno. */
static int start_perf(struct thread_buf *tb, int sigtrap)
{
    struct perf_event_attr pe;
    memset(&pe, 0, sizeof pe);
    pe.type = PERF_TYPE_SOFTWARE;
    pe.size = sizeof pe;
    pe.config = PERF_COUNT_SW_CPU_CLOCK;
    pe.sample_period = bl__sampler_next_period(tb);
    pe.disabled = 1;
    pe.exclude_kernel = 1;
    pe.exclude_hv = 1;
    pe.sample_type = 0; /* records carry nothing: we only want the signal */
    if (sigtrap) {
        pe.sigtrap = 1;
        pe.remove_on_exec = 1; /* required with sigtrap */
        pe.sig_data = SIGTRAP_COOKIE;
    } else {
        pe.wakeup_events = 1;
    }
    int fd = (int)syscall(SYS_perf_event_open, &pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (!sigtrap) {
        long page = sysconf(_SC_PAGESIZE);
        void *ring = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        struct f_owner_ex owner = {F_OWNER_TID, tb->tid};
        if (ring == MAP_FAILED || fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0 ||
            fcntl(fd, F_SETSIG, SIGPROF) != 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0) {
            int err = -errno;
            if (ring != MAP_FAILED)
                munmap(ring, 2 * (size_t)page);
            close(fd);
            return err;
        }
        tb->ring = ring;
    }
    tb->perf_fd = fd;
    tb->period_left = REDRAW;
    ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
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
    arm_timer(tb,
              bl__sampler_next_period(tb)); /* one-shot: the handler re-arms with a new period */
    return 0;
}

static void stop_clock(struct thread_buf *tb)
{
    if (tb->perf_fd >= 0) {
        ioctl(tb->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
        /* the ring stays mapped: a handler may still be reading it (a few pages per thread) */
        close(tb->perf_fd);
        tb->perf_fd = -1;
    }
    if (tb->has_timer) {
        timer_delete(tb->timer);
        tb->has_timer = 0;
    }
}

struct thread_buf *bl__sampler_buf_new(size_t cap)
{
    void *mem = mmap(NULL, sizeof(struct thread_buf) + cap, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return NULL;
    struct thread_buf *tb = mem;
    tb->tid = sampler_tid();
    tb->perf_fd = -1;
    tb->data = (unsigned char *)mem + sizeof *tb;
    tb->cap = cap;
    tb->used = sizeof(struct bl_raw_header);
    return tb;
}

int bl__sampler_buf_publish(struct thread_buf *tb)
{
    int slot = atomic_fetch_add(&g_n_threads, 1);
    if (slot >= MAX_THREADS) {
        munmap(tb, sizeof *tb + tb->cap);
        return -1;
    }
    atomic_store(&g_threads[slot], tb);
    return 0;
}

/* Make the calling thread a sampled one. Runs outside signal context. */
static void thread_register(void)
{
    struct thread_buf *tb = bl__sampler_buf_new(g_buf_bytes);
    if (!tb)
        return;
    struct timespec seed;
    clock_gettime(CLOCK_MONOTONIC, &seed);
    tb->rng = ((uint64_t)tb->tid << 32 ^ (uint64_t)seed.tv_nsec) | 1;
    atomic_store(&tb->paused, atomic_load(&g_paused));
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
    if (bl__sampler_buf_publish(tb) != 0)
        return;
    tls_buf = tb;
    pthread_setspecific(g_key, tb);
    /* the first thread decides; later ones follow */
    if (g_source == SRC_PERF && start_perf(tb, 1) != 0)
        g_source = SRC_PERF_ASYNC; /* a kernel before 5.13: no sigtrap events */
    if (g_source == SRC_PERF_ASYNC && start_perf(tb, 0) != 0)
        g_source = SRC_TIMER_CPU;
    if (g_source == SRC_TIMER_CPU)
        start_timer(tb, CLOCK_THREAD_CPUTIME_ID);
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
        bl__sampler_flush(tb);
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
    void *ret = s.fn(s.arg);
    /* not a tail call: the reader knows a thread's stack is whole when it
     * ends here, even where libc's own start code has no symbols */
    __asm__ volatile("" ::: "memory");
    return ret;
}

pthread_create_fn bl__sampler_real_pthread_create(void)
{
    static pthread_create_fn real;
    if (!real) {
        void *sym = dlsym(RTLD_NEXT, "pthread_create");
        memcpy(&real, &sym, sizeof real); /* ISO C has no object-to-function cast */
    }
    return real;
}

EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg)
{
    pthread_create_fn real = bl__sampler_real_pthread_create();
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
    struct bl_raw_header h = {BL_RAW_MAGIC, type, (uint32_t)sampler_tid(), (uint32_t)g_pid, n};
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

/*
 * /proc/self/maps, opened at start-up and read at the end. A program that
 * sandboxes itself (xz restricts itself with Landlock) can no longer open
 * it by then, but a descriptor opened before the restriction still reads,
 * and a read from offset 0 gives the maps as they are at that moment.
 */
static int g_maps_fd = -1;

static void write_maps(void)
{
    int fd = g_maps_fd;
    if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
        fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return; /* the reader warns: no maps for this process */
    size_t cap = 1u << 20, used = 0;
    char *buf = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf != MAP_FAILED) {
        ssize_t r;
        while (used < cap && (r = read(fd, buf + used, cap - used)) > 0)
            used += (size_t)r;
        if (used > 0)
            write_chunk(BL_RAW_MAPS, buf, used);
        munmap(buf, cap);
    }
    if (fd != g_maps_fd)
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
    at = put_str(buf, at, cap,
                 g_unwind == UNWIND_FP      ? "unwind=fp\n"
                 : g_unwind == UNWIND_DWARF ? "unwind=dwarf\n"
                                            : "unwind=auto\n");
    at = put_kv(buf, at, cap, "stack_bytes", g_unwind == UNWIND_FP ? 0 : g_stack_words * 8);
    at = put_str(buf, at, cap, "mode=sample\nclock=");
    at = put_str(buf, at, cap, g_wall ? "wall\n" : "cpu\n");
    at = put_str(buf, at, cap, "source=");
    at = put_str(buf, at, cap,
                 g_source == SRC_PERF         ? "perf"
                 : g_source == SRC_PERF_ASYNC ? "perf-fasync"
                                              : "timer");
    at = put_str(buf, at, cap, g_wall ? "+offcpu\n" : "\n");
    at = put_kv(buf, at, cap, "period_ns", g_period_ns);
    at = put_kv(buf, at, cap, "pid", (uint64_t)getpid());
    at = put_kv(buf, at, cap, "root", (uint64_t)g_root);
    at = put_kv(buf, at, cap, "threads",
                (uint64_t)atomic_load(&g_n_threads) - (g_offcpu_buf != NULL)); /* not the helper */
    at = put_kv(buf, at, cap, "samples", atomic_load(&g_samples));
    uint64_t ticks = 0;
    int n_threads = atomic_load(&g_n_threads);
    for (int i = 0; i < n_threads && i < MAX_THREADS; i++) {
        struct thread_buf *tb = atomic_load(&g_threads[i]);
        if (tb && tb != g_offcpu_buf)
            ticks += tb->ticks;
    }
    at = put_kv(buf, at, cap, "ticks", ticks);
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
        bl__sampler_flush(tb);
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
    if (g_maps_fd >= 0)
        close(g_maps_fd); /* the parent's maps */
    g_maps_fd = -1;
}

/*
 * _exit() skips destructors (dash ends that way, and so do many forked
 * workers): write the profile first. Only in the process we profile: a
 * vfork child shares our memory but has its own pid.
 */

EXPORT void _exit(int status)
{
    if (g_pid && getpid() == g_pid)
        finish();
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

EXPORT void _Exit(int status)
{
    _exit(status);
}

/* Pause and resume recording: every thread, and the state threads created
 * later start in (docs/profile.md). */
static void set_all_paused(int paused)
{
    atomic_store(&g_paused, paused);
    int n = atomic_load(&g_n_threads);
    for (int i = 0; i < n && i < MAX_THREADS; i++) {
        struct thread_buf *tb = atomic_load(&g_threads[i]);
        if (tb)
            atomic_store(&tb->paused, paused);
    }
}

EXPORT void benchlab_profile_pause(void)
{
    set_all_paused(1);
}

EXPORT void benchlab_profile_resume(void)
{
    set_all_paused(0);
}

/* The calling thread only: run --profile's worker threads each record
 * their own timed segments. */
EXPORT void benchlab_profile_pause_thread(void)
{
    struct thread_buf *tb = tls_buf;
    if (tb)
        atomic_store_explicit(&tb->paused, 1, memory_order_relaxed);
}

EXPORT void benchlab_profile_resume_thread(void)
{
    struct thread_buf *tb = tls_buf;
    if (tb)
        atomic_store_explicit(&tb->paused, 0, memory_order_relaxed);
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
    /* Following (benchlab profile): every program this one starts inherits
     * the preload and the file, and appends its own chunks, tagged with its
     * pid, to the file benchlab created. Otherwise children must not write. */
    const char *follow = getenv("BENCHLAB_PROFILE_FOLLOW");
    g_follow = follow && strcmp(follow, "1") == 0;
    g_root = !getenv("BENCHLAB_PROFILE_ROOT");
    g_fd = open(out, O_WRONLY | O_CREAT | (g_follow ? 0 : O_TRUNC) | O_APPEND | O_CLOEXEC, 0644);
    if (!g_follow) {
        unsetenv("BENCHLAB_PROFILE_OUT");
    } else if (g_root) {
        char pid[24];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        setenv("BENCHLAB_PROFILE_ROOT", pid, 1);
    }
    if (g_fd < 0)
        return;
    g_maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    uint64_t hz = env_u64("BENCHLAB_PROFILE_HZ", 1000);
    if (hz < 1)
        hz = 1;
    if (hz > 100000)
        hz = 100000;
    g_period_ns = 1000000000u / hz;
    const char *clock = getenv("BENCHLAB_PROFILE_CLOCK");
    g_wall = clock && strcmp(clock, "wall") == 0;
    g_source = SRC_PERF;
    const char *unwind = getenv("BENCHLAB_PROFILE_UNWIND");
    g_unwind = !unwind || !*unwind || strcmp(unwind, "auto") == 0 ? UNWIND_AUTO
               : strcmp(unwind, "dwarf") == 0                     ? UNWIND_DWARF
                                                                  : UNWIND_FP;
    uint64_t stack_bytes = env_u64("BENCHLAB_PROFILE_STACK", 65536);
    if (stack_bytes < 512)
        stack_bytes = 512;
    if (stack_bytes > (1u << 20))
        stack_bytes = 1u << 20;
    g_stack_words = stack_bytes / sizeof(uint64_t);
    if (g_unwind != UNWIND_FP && 4 * (stack_bytes + 4096) > g_buf_bytes)
        g_buf_bytes = 4 * (stack_bytes + 4096); /* room for a few whole samples */
    const char *paused = getenv("BENCHLAB_PROFILE_PAUSED");
    atomic_store(&g_paused, paused && strcmp(paused, "1") == 0);
    clock_gettime(CLOCK_MONOTONIC, &g_start);
    g_pid = getpid();

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigprof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, NULL);
    sa.sa_sigaction = on_sigtrap;
    sigaction(SIGTRAP, &sa, &g_old_sigtrap);
    pthread_key_create(&g_key, thread_exit);
    pthread_atfork(NULL, NULL, after_fork_child);
    install_crash_handlers();
    atomic_store(&g_active, 1);
    {
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
        /* for tests and for programs that use SIGTRAP themselves */
        const char *force = getenv("BENCHLAB_PROFILE_SOURCE");
        if (force && strcmp(force, "timer") == 0)
            g_source = SRC_TIMER_CPU;
        else if (force && strcmp(force, "perf-fasync") == 0 && g_source == SRC_PERF)
            g_source = SRC_PERF_ASYNC;
    }
    thread_register();
    if (g_wall)
        bl__sampler_start_offcpu();
}

__attribute__((destructor)) static void sampler_fini(void)
{
    finish();
}
