/*
 * trace.c - libbenchlab-trace, the tracing profiler behind -finstrument-functions.
 *
 * gcc and clang call __cyg_profile_func_enter/exit around every function of
 * code built with -finstrument-functions. Each thread keeps its own call
 * tree in thread-local storage (seed 004): entering a function moves the
 * thread's cursor to the matching child node, creating it once; leaving
 * moves it back up and adds the elapsed time stamp counter ticks. No lock
 * and no lookup in a shared table happens per call, and nothing allocates
 * with malloc: node arrays grow with mremap, so a traced signal handler
 * cannot deadlock in the allocator.
 *
 * The tracer's own cost per call is measured at start-up (calibrate()) and
 * written with the trees; the reader subtracts it (src/profile/load.c).
 * Calls abandoned by longjmp are closed when the stack pointer shows that
 * their frames are gone; a thread that exits mid-call has its open calls
 * closed by its key destructor. This library is built without
 * -finstrument-functions, so its own functions never appear.
 *
 * Active only when BENCHLAB_PROFILE_OUT names the raw file to write
 * (`benchlab profile --mode trace` sets it); otherwise every hook returns at
 * once.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../sampler/raw_format.h"
#include "benchlab/profile_hook.h"

#define EXPORT __attribute__((visibility("default")))
#define HOOK __attribute__((no_instrument_function, visibility("default")))
#define NOINST __attribute__((no_instrument_function))

struct tnode {
    uint64_t fn;
    uint32_t parent;
    uint32_t first_child;
    uint32_t next_sibling;
    uint32_t reserved;
    uint64_t calls;
    uint64_t ticks;
};

struct tframe {
    uint32_t node;
    uint64_t start;
    uintptr_t sp;
};

/* One timeline event: ts with the top bit set for an exit. */
struct tevent {
    uint64_t ts;
    uint64_t fn;
};
#define EXIT_BIT (1ull << 63)

struct tthread {
    struct tnode *nodes;
    size_t n_nodes, cap_nodes;
    struct tframe *stack;
    size_t depth, cap_stack;
    uint32_t cur;
    int busy; /* IN_HOOK: a traced signal handler interrupting us is not traced; PAUSED;
                 LOGGING: a timeline is kept. Any bit sends the hooks to their slow path. */
    int lost; /* out of memory: the tree stopped growing */
    pid_t tid;
    struct tthread *next;
    struct tevent *events; /* the timeline, when asked for: BENCHLAB_TRACE_EVENTS */
    size_t n_events;
    /* the scheduler's run and run-queue wait times of the thread at its
     * start, and over its life once it ended (sched_done) */
    uint64_t run0, wait0, run_ns, wait_ns;
    int sched_done;
};

#define IN_HOOK 1 /* in struct tthread.busy */
#define PAUSED 2
#define LOGGING 4

static atomic_int g_active;
static atomic_int g_dumped;
static atomic_int g_paused; /* threads start paused: BENCHLAB_PROFILE_PAUSED=1 */
static int g_fd = -1;
static _Atomic(struct tthread *) g_threads;
static pthread_key_t g_key;
static uint64_t g_tsc0;
static size_t g_events_cap; /* events kept per thread; 0: no timeline */
static struct timespec g_mono0;
static double g_cost_in, g_cost_call; /* ticks */
static atomic_int g_crash_signal;

static __thread struct tthread *tls_thread __attribute__((tls_model("initial-exec")));

static inline NOINST uint64_t ticks_now(void)
{
    return __builtin_ia32_rdtsc();
}

/*
 * Fresh zeroed memory, or a bigger copy of `old`. The old array stays mapped
 * (at most as much again as the final size): the dump at exit may be reading
 * it from another thread while this thread still runs, and must never fault.
 */
static NOINST void *grow(void *old, size_t old_bytes, size_t new_bytes)
{
    void *p = mmap(NULL, new_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (old)
        memcpy(p, old, old_bytes);
    return p;
}

/*
 * The thread's time on a CPU and waiting for one (runnable, preempted),
 * from /proc/self/task/TID/schedstat, in ns; 0 when unreadable. With
 * system calls only: this may run in a signal handler.
 */
static NOINST int read_schedstat(pid_t tid, uint64_t *run, uint64_t *wait)
{
    char path[64] = "/proc/self/task/", digits[16];
    size_t at = strlen(path);
    int n = 0;
    for (unsigned v = (unsigned)tid; n == 0 || v; v /= 10)
        digits[n++] = (char)('0' + v % 10);
    while (n > 0)
        path[at++] = digits[--n];
    memcpy(path + at, "/schedstat", sizeof "/schedstat");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[128];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0)
        return -1;
    buf[got] = '\0';
    uint64_t v[2] = {0, 0};
    const char *p = buf;
    for (int i = 0; i < 2; i++) {
        while (*p == ' ')
            p++;
        if (*p < '0' || *p > '9')
            return -1;
        while (*p >= '0' && *p <= '9')
            v[i] = v[i] * 10 + (uint64_t)(*p++ - '0');
    }
    *run = v[0];
    *wait = v[1];
    return 0;
}

/* The thread's run and wait times since it was first traced. */
static NOINST void sched_end(struct tthread *t)
{
    uint64_t run, wait;
    if (t->sched_done || read_schedstat(t->tid, &run, &wait) != 0)
        return;
    t->run_ns = run - t->run0;
    t->wait_ns = wait - t->wait0;
    t->sched_done = 1;
}

static NOINST struct tthread *thread_create(void)
{
    struct tthread *t = grow(NULL, 0, sizeof *t);
    if (!t)
        return NULL;
    t->cap_nodes = 1024;
    t->nodes = grow(NULL, 0, t->cap_nodes * sizeof *t->nodes);
    t->cap_stack = 256;
    t->stack = grow(NULL, 0, t->cap_stack * sizeof *t->stack);
    if (!t->nodes || !t->stack)
        return NULL;
    if (g_events_cap)
        t->events = grow(NULL, 0, g_events_cap * sizeof *t->events); /* NULL: no timeline */
    t->n_nodes = 1;
    t->nodes[0].first_child = UINT32_MAX;
    t->nodes[0].next_sibling = UINT32_MAX;
    t->tid = (pid_t)syscall(SYS_gettid);
    t->busy = (atomic_load(&g_paused) ? PAUSED : 0) | (t->events ? LOGGING : 0);
    read_schedstat(t->tid, &t->run0, &t->wait0);
    struct tthread *head = atomic_load(&g_threads);
    do
        t->next = head;
    while (!atomic_compare_exchange_weak(&g_threads, &head, t));
    return t;
}

static NOINST struct tthread *current(void)
{
    struct tthread *t = tls_thread;
    if (t || !atomic_load_explicit(&g_active, memory_order_relaxed))
        return t;
    t = thread_create();
    tls_thread = t;
    if (t)
        pthread_setspecific(g_key, t);
    return t;
}

static inline NOINST void log_event(struct tthread *t, uint64_t ts, uint64_t fn)
{
    if (t->events && t->n_events < g_events_cap) {
        t->events[t->n_events].ts = ts;
        t->events[t->n_events].fn = fn;
        t->n_events++;
    }
}

static inline NOINST void pop(struct tthread *t, uint64_t now)
{
    struct tframe *f = &t->stack[--t->depth];
    t->nodes[f->node].ticks += now - f->start;
    if (__builtin_expect(t->events != NULL, 0))
        log_event(t, now | EXIT_BIT, t->nodes[f->node].fn);
    t->cur = t->nodes[f->node].parent;
}

static NOINST uint32_t new_child(struct tthread *t, uint64_t fn)
{
    if (t->n_nodes == t->cap_nodes) {
        struct tnode *nodes =
            grow(t->nodes, t->cap_nodes * sizeof *nodes, 2 * t->cap_nodes * sizeof *nodes);
        if (!nodes || t->cap_nodes * 2 >= UINT32_MAX) {
            t->lost = 1;
            return UINT32_MAX;
        }
        t->nodes = nodes;
        t->cap_nodes *= 2;
        /* publish the array before a count that needs it (x86 keeps store order) */
        atomic_signal_fence(memory_order_seq_cst);
    }
    uint32_t c = (uint32_t)t->n_nodes++;
    struct tnode *n = &t->nodes[c];
    n->fn = fn;
    n->parent = t->cur;
    n->first_child = UINT32_MAX;
    n->next_sibling = t->nodes[t->cur].first_child;
    n->calls = 0;
    n->ticks = 0;
    t->nodes[t->cur].first_child = c;
    return c;
}

/*
 * The node for a call of fn from the cursor, pushed on the thread's stack
 * (its start time left to the caller), or NULL when memory ran out. Shared
 * by the traced and the paused paths.
 */
static inline NOINST __attribute__((always_inline)) struct tframe *
push_call(struct tthread *t, uint64_t fn, uintptr_t sp, int count)
{
    struct tnode *nodes = t->nodes;
    uint32_t prev = UINT32_MAX, c = nodes[t->cur].first_child;
    while (c != UINT32_MAX && nodes[c].fn != fn) {
        prev = c;
        c = nodes[c].next_sibling;
    }
    if (c == UINT32_MAX) {
        c = new_child(t, fn);
        if (c == UINT32_MAX)
            return NULL;
    } else if (prev != UINT32_MAX) { /* move to front: the next call finds it first */
        nodes[prev].next_sibling = nodes[c].next_sibling;
        nodes[c].next_sibling = nodes[t->cur].first_child;
        nodes[t->cur].first_child = c;
    }
    if (__builtin_expect(t->depth == t->cap_stack, 0)) {
        struct tframe *stack =
            grow(t->stack, t->cap_stack * sizeof *stack, 2 * t->cap_stack * sizeof *stack);
        if (!stack) {
            t->lost = 1;
            return NULL;
        }
        t->stack = stack;
        t->cap_stack *= 2;
        atomic_signal_fence(memory_order_seq_cst);
    }
    t->nodes[c].calls += (uint64_t)count;
    t->cur = c;
    struct tframe *f = &t->stack[t->depth++];
    f->node = c;
    f->sp = sp;
    return f;
}

/* Leave the top frame without counting its time: paused, or a pause banked it. */
static inline NOINST void pop_quiet(struct tthread *t)
{
    t->cur = t->nodes[t->stack[--t->depth].node].parent;
}

/*
 * While paused, calls are followed but neither counted nor timed, so that a
 * function entered during a pause (the benchmark function itself, entered
 * before its first measured batch) is still the parent of the calls made
 * once tracing resumes. Out of line: the traced path stays short.
 */
static NOINST __attribute__((noinline)) void enter_paused(struct tthread *t, uint64_t fn,
                                                          uintptr_t sp)
{
    t->busy |= IN_HOOK;
    while (t->depth && t->stack[t->depth - 1].sp <= sp)
        pop_quiet(t);
    struct tframe *f = push_call(t, fn, sp, 0);
    if (f)
        f->start = 0; /* set when tracing resumes */
    t->busy &= ~IN_HOOK;
}

static NOINST __attribute__((noinline)) void exit_paused(struct tthread *t, uint64_t fn)
{
    t->busy |= IN_HOOK;
    size_t d = t->depth;
    while (d > 0 && t->nodes[t->stack[d - 1].node].fn != fn)
        d--;
    /* d == 0: entered before the thread was known, or already closed */
    while (d > 0 && t->depth >= d)
        pop_quiet(t);
    t->busy &= ~IN_HOOK;
}

/* gcc's and clang's hooks; declared by no header. */
HOOK void __cyg_profile_func_enter(void *fn, void *call_site);
HOOK void __cyg_profile_func_exit(void *fn, void *call_site);

/* The stack pointer at the hook: only compared with other hooks' values. */
static inline NOINST uintptr_t stack_pointer(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
    return sp;
}

/*
 * The enter hook's general case: the thread's first call, paused, a hook
 * interrupted by a traced signal handler, frames a longjmp skipped, a
 * callee other than the last one from this caller, a new node, a stack to
 * grow, a timeline to log.
 */
static NOINST __attribute__((noinline)) void enter_slow(struct tthread *t, uint64_t fn,
                                                        uintptr_t sp)
{
    if (!t && !(t = current()))
        return;
    if (t->busy & (IN_HOOK | PAUSED)) {
        if (!(t->busy & IN_HOOK))
            enter_paused(t, fn, sp);
        return;
    }
    t->busy |= IN_HOOK;
    /* Frames at or below ours on the stack are gone: a longjmp skipped their exits. */
    if (t->depth && t->stack[t->depth - 1].sp <= sp) {
        uint64_t now = ticks_now();
        while (t->depth && t->stack[t->depth - 1].sp <= sp)
            pop(t, now);
    }
    struct tframe *f = push_call(t, fn, sp, 1);
    t->busy &= ~IN_HOOK;
    if (!f)
        return;
    f->start = ticks_now(); /* last, so that little of our own cost lands in the call */
    if (t->events)
        log_event(t, f->start, t->nodes[f->node].fn);
}

/*
 * Entering a function. The common case, the same callee as last time from
 * this caller, is a short leaf (no register saved, no call) around the time
 * stamp: at two rdtsc per call (about 12.5 ns each here) the hooks' own
 * work must hide in their shadow.
 */
HOOK void __cyg_profile_func_enter(void *fn, void *call_site)
{
    (void)call_site;
    struct tthread *t = tls_thread;
    uintptr_t sp = stack_pointer();
    if (__builtin_expect(t != NULL && t->busy == 0, 1)) {
        size_t d = t->depth;
        struct tnode *nodes = t->nodes;
        uint32_t c = nodes[t->cur].first_child;
        if (__builtin_expect(c != UINT32_MAX && nodes[c].fn == (uint64_t)(uintptr_t)fn &&
                                 d < t->cap_stack && (d == 0 || t->stack[d - 1].sp > sp),
                             1)) {
            /* busy keeps a traced signal handler out while we change the
             * tree; the fences keep the compiler from dropping the stores */
            t->busy = IN_HOOK;
            atomic_signal_fence(memory_order_seq_cst);
            nodes[c].calls++;
            t->cur = c;
            struct tframe *f = &t->stack[d];
            f->node = c;
            f->sp = sp;
            t->depth = d + 1;
            atomic_signal_fence(memory_order_seq_cst);
            t->busy = 0;
            f->start = ticks_now();
            return;
        }
    }
    enter_slow(t, (uint64_t)(uintptr_t)fn, sp);
}

/* The exit hook's general case: paused, unknown thread, exits a longjmp
 * skipped, a timeline to log. */
static NOINST __attribute__((noinline)) void exit_slow(struct tthread *t, uint64_t want,
                                                       uint64_t now)
{
    if (!t || (t->busy & (IN_HOOK | PAUSED))) {
        if (t && !(t->busy & IN_HOOK))
            exit_paused(t, want);
        return;
    }
    if (t->depth == 0)
        return;
    t->busy |= IN_HOOK;
    if (t->nodes[t->stack[t->depth - 1].node].fn != want) {
        /* exits we never saw (longjmp): close frames down to fn, if it is open at all */
        size_t d = t->depth;
        while (d > 0 && t->nodes[t->stack[d - 1].node].fn != want)
            d--;
        if (d == 0) {
            t->busy &= ~IN_HOOK;
            return;
        }
        while (t->depth > d)
            pop(t, now);
    }
    pop(t, now);
    t->busy &= ~IN_HOOK;
}

HOOK void __cyg_profile_func_exit(void *fn, void *call_site)
{
    uint64_t now = ticks_now();
    (void)call_site;
    struct tthread *t = tls_thread;
    if (__builtin_expect(t != NULL && t->busy == 0 && t->depth != 0, 1)) {
        struct tframe *f = &t->stack[t->depth - 1];
        struct tnode *n = &t->nodes[f->node];
        if (__builtin_expect(n->fn == (uint64_t)(uintptr_t)fn, 1)) {
            t->busy = IN_HOOK;
            atomic_signal_fence(memory_order_seq_cst);
            n->ticks += now - f->start;
            t->cur = n->parent;
            t->depth--;
            atomic_signal_fence(memory_order_seq_cst);
            t->busy = 0;
            return;
        }
    }
    exit_slow(t, (uint64_t)(uintptr_t)fn, now);
}

/*
 * Pause and resume tracing on the calling thread (run --profile: the
 * worker around its measured batches). A pause charges the calls still open
 * with their time so far; resuming restarts their clocks, so the time
 * between is nobody's. O(depth) each.
 */
EXPORT NOINST void benchlab_trace_pause(void)
{
    struct tthread *t = current();
    if (!t || (t->busy & PAUSED))
        return;
    t->busy |= PAUSED | IN_HOOK;
    uint64_t now = ticks_now();
    for (size_t d = 0; d < t->depth; d++)
        t->nodes[t->stack[d].node].ticks += now - t->stack[d].start;
    t->busy &= ~IN_HOOK;
}

EXPORT NOINST void benchlab_trace_resume(void)
{
    struct tthread *t = current();
    if (!t || !(t->busy & PAUSED))
        return;
    t->busy |= IN_HOOK;
    uint64_t now = ticks_now();
    for (size_t d = 0; d < t->depth; d++)
        t->stack[d].start = now;
    t->busy &= ~(IN_HOOK | PAUSED);
}

/* Thread exit: close the calls still open, so the thread's time is kept. */
static NOINST void thread_exit(void *arg)
{
    struct tthread *t = arg;
    int paused = t->busy & PAUSED; /* then the open calls' time is banked already */
    t->busy = IN_HOOK;
    uint64_t now = ticks_now();
    while (t->depth)
        if (paused)
            pop_quiet(t);
        else
            pop(t, now);
    sched_end(t); /* its task entry goes away with it */
    tls_thread = NULL;
}

/* An empty traced function, one frame below the caller as real calls are. */
static NOINST __attribute__((noinline)) void calibration_call(void *child)
{
    __cyg_profile_func_enter(child, NULL);
    __asm__ volatile("" ::: "memory");
    __cyg_profile_func_exit(child, NULL);
}

/* Minimum over batches of the cost of an empty traced call, in ticks. */
static NOINST void calibrate(void)
{
    struct tthread *t = current();
    if (!t)
        return;
    static const int batches = 7, n = 20000;
    double best_call = 1e300, best_in = 1e300;
    void *parent = (void *)(uintptr_t)calibrate, *child = (void *)(uintptr_t)thread_exit;
    for (int b = 0; b < batches; b++) {
        __cyg_profile_func_enter(parent, NULL);
        uint32_t pnode = t->cur;
        uint64_t t0 = ticks_now();
        for (int i = 0; i < n; i++)
            calibration_call(child);
        uint64_t t1 = ticks_now();
        uint32_t cnode = t->nodes[pnode].first_child;
        double in = (double)t->nodes[cnode].ticks / n;
        __cyg_profile_func_exit(parent, NULL);
        double call = (double)(t1 - t0) / n;
        if (call < best_call)
            best_call = call;
        if (in < best_in)
            best_in = in;
        t->nodes[cnode].ticks = 0;
    }
    g_cost_call = best_call;
    g_cost_in = best_in;
    /* forget the calibration tree */
    t->n_nodes = 1;
    t->nodes[0].first_child = UINT32_MAX;
    t->cur = 0;
    t->depth = 0;
    t->n_events = 0;
}

static NOINST void write_all(const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(g_fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static NOINST void write_chunk(uint32_t type, uint32_t tid, const void *data, size_t n)
{
    struct bl_raw_header h = {BL_RAW_MAGIC, type, tid, 0, n};
    size_t total = sizeof h + n;
    char *mem = grow(NULL, 0, total);
    if (!mem)
        return;
    memcpy(mem, &h, sizeof h);
    memcpy(mem + sizeof h, data, n);
    write_all(mem, total);
    munmap(mem, total);
}

/* One thread's tree as raw nodes, with open calls counted up to `now`. */
static NOINST void write_thread(const struct tthread *t, uint64_t now)
{
    /* A thread still running changes its tree as we read: take the count
     * first, then the array (published before any count that needs it).
     * Its values may be torn; the reader checks the structure. */
    size_t n = *(volatile const size_t *)&t->n_nodes;
    size_t depth = *(volatile const size_t *)&t->depth;
    atomic_signal_fence(memory_order_seq_cst);
    size_t bytes = n * sizeof(struct bl_raw_trace_node);
    struct bl_raw_trace_node *out = grow(NULL, 0, bytes);
    if (!out)
        return;
    for (size_t i = 0; i < n; i++) {
        const struct tnode *tn = &t->nodes[i];
        out[i] = (struct bl_raw_trace_node){tn->fn, i ? tn->parent : 0, 0, tn->calls, tn->ticks, 0};
    }
    const struct tframe *stack = t->stack;
    for (size_t d = 0; d < depth; d++)
        if (stack[d].node < n && now > stack[d].start)
            out[stack[d].node].ticks += now - stack[d].start;
    /* children come after their parent: sum subtree calls from the back */
    for (size_t i = n; i-- > 1;)
        if (out[i].parent < i)
            out[out[i].parent].sub_calls += out[i].sub_calls + out[i].calls;
    /* Paths followed only while paused (run --profile's set-up and pilot
     * stages) hold no call and no time: drop them, renumbering the rest. */
    uint32_t *map = grow(NULL, 0, n * sizeof *map);
    size_t kept = n;
    if (map) {
        kept = 0;
        for (size_t i = 0; i < n; i++) {
            struct bl_raw_trace_node rn = out[i];
            int keep = i == 0 || (rn.parent < i && map[rn.parent] != UINT32_MAX &&
                                  (rn.calls || rn.sub_calls || rn.ticks));
            map[i] = keep ? (uint32_t)kept : UINT32_MAX;
            if (keep) {
                rn.parent = i ? map[rn.parent] : 0;
                out[kept++] = rn;
            }
        }
        munmap(map, n * sizeof *map);
    }
    write_chunk(BL_RAW_TRACE, (uint32_t)t->tid, out, kept * sizeof *out);
    munmap(out, bytes);
}

/* The thread's timeline as logged; the reader closes calls still open. */
static NOINST void write_events(const struct tthread *t)
{
    if (t->events && t->n_events)
        write_chunk(BL_RAW_EVENTS, (uint32_t)t->tid, t->events,
                    t->n_events * sizeof(struct tevent));
}

/* Opened at start-up: a program that sandboxes itself later (Landlock)
 * cannot open it at exit, but this descriptor still reads (as the sampler's). */
static int g_maps_fd = -1;

static NOINST void write_maps(void)
{
    int fd = g_maps_fd;
    if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
        fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    size_t cap = 1u << 20, used = 0;
    char *buf = grow(NULL, 0, cap);
    if (buf) {
        ssize_t r;
        while (used < cap && (r = read(fd, buf + used, cap - used)) > 0)
            used += (size_t)r;
        write_chunk(BL_RAW_MAPS, 0, buf, used);
        munmap(buf, cap);
    }
    if (fd != g_maps_fd)
        close(fd);
}

static NOINST void dump(void)
{
    if (!atomic_load(&g_active) || atomic_exchange(&g_dumped, 1))
        return;
    uint64_t now = ticks_now();
    struct timespec mono;
    clock_gettime(CLOCK_MONOTONIC, &mono);
    double elapsed_ns =
        (double)(mono.tv_sec - g_mono0.tv_sec) * 1e9 + (double)(mono.tv_nsec - g_mono0.tv_nsec);
    double tsc_hz = elapsed_ns > 0 ? (double)(now - g_tsc0) * 1e9 / elapsed_ns : 1e9;
    int n_threads = 0, lost = 0;
    for (struct tthread *t = atomic_load(&g_threads); t; t = t->next) {
        int paused = t->busy & PAUSED; /* its open calls' time is banked already */
        t->busy = IN_HOOK; /* our own thread stops tracing; others are read as they are */
        write_thread(t, paused ? 0 : now);
        write_events(t);
        sched_end(t);
        if (t->sched_done) {
            uint64_t sched[2] = {t->run_ns, t->wait_ns};
            write_chunk(BL_RAW_SCHED, (uint32_t)t->tid, sched, sizeof sched);
        }
        n_threads++;
        lost |= t->lost;
    }
    char meta[512];
    int len = snprintf(meta, sizeof meta,
                       "mode=trace\nclock=wall\nsource=trace\ntsc_hz=%.0f\ncost_in_mticks=%.0f\n"
                       "cost_call_mticks=%.0f\nthreads=%d\nelapsed_ns=%.0f\nlost=%d\ntsc0=%llu\n"
                       "crash_signal=%d\npid=%d\n",
                       tsc_hz, g_cost_in * 1000, g_cost_call * 1000, n_threads, elapsed_ns, lost,
                       (unsigned long long)g_tsc0, atomic_load(&g_crash_signal), (int)getpid());
    write_chunk(BL_RAW_META, 0, meta, (size_t)len);
    write_maps();
}

static NOINST void on_crash(int sig)
{
    atomic_store(&g_crash_signal, sig);
    dump();
    signal(sig, SIG_DFL);
    raise(sig);
}

static NOINST void after_fork_child(void)
{
    atomic_store(&g_active, 0); /* the trees belong to the parent */
    tls_thread = NULL;
}

/* Write the trees now (a worker calls it before _exit). */
EXPORT NOINST void benchlab_trace_flush(void)
{
    dump();
}

__attribute__((constructor)) static NOINST void trace_init(void)
{
    const char *out = getenv("BENCHLAB_PROFILE_OUT");
    if (!out || !*out)
        return;
    g_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    unsetenv("BENCHLAB_PROFILE_OUT");
    if (g_fd < 0)
        return;
    g_maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    pthread_key_create(&g_key, thread_exit);
    pthread_atfork(NULL, NULL, after_fork_child);
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            signal(sigs[i], on_crash);
    }
    const char *events = getenv("BENCHLAB_TRACE_EVENTS");
    g_events_cap = events ? strtoull(events, NULL, 10) : 0;
    atomic_store(&g_active, 1);
    calibrate();
    const char *paused = getenv("BENCHLAB_PROFILE_PAUSED");
    if (paused && strcmp(paused, "1") == 0) {
        atomic_store(&g_paused, 1); /* every thread starts paused */
        benchlab_trace_pause();     /* this one is known already (calibrate) */
    }
    clock_gettime(CLOCK_MONOTONIC, &g_mono0);
    g_tsc0 = ticks_now();
}

__attribute__((destructor)) static NOINST void trace_fini(void)
{
    dump();
}
