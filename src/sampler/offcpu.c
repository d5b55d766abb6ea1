/*
 * offcpu.c - the off-CPU half of the sampler's wall-clock mode
 * (BENCHLAB_PROFILE_CLOCK=wall), in libbenchlab-sampler.so with sampler.c.
 *
 * Wall-clock mode: running threads are sampled by their CPU clock as in CPU
 * mode; blocked threads by this helper thread, every period, without a
 * signal (a signal would cut nanosleep, poll and friends short with EINTR
 * even under SA_RESTART). A blocked thread's user pc and sp are in
 * /proc/self/task/TID/syscall; its stack is copied with process_vm_readv,
 * which fails instead of faulting if the thread has just exited. Such
 * samples have no frame-pointer chain: the reader unwinds them by scanning
 * the copy for return addresses (BL_RAW_SCAN_ONLY).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "raw_format.h"
#include "sampler.h"

#define OFFCPU_WORDS 2048

struct thread_buf *g_offcpu_buf;
static pthread_t g_offcpu_thread;
static atomic_int g_offcpu_running;
static uint64_t g_offcpu_scan[OFFCPU_WORDS];

static ssize_t read_small(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n >= 0)
        buf[n] = '\0';
    return n;
}

static int thread_blocked(pid_t tid, uint64_t *sp, uint64_t *pc)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
    if (read_small(path, buf, sizeof buf) <= 0)
        return 0;
    const char *close_paren = strrchr(buf, ')');
    if (!close_paren || (close_paren[2] != 'S' && close_paren[2] != 'D'))
        return 0;
    snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
    if (read_small(path, buf, sizeof buf) <= 0)
        return 0;
    /* "nr arg1 .. arg6 sp pc", or "running", or "-1 sp pc" outside a system call */
    unsigned long long v[9];
    int n = sscanf(buf, "%lld %llx %llx %llx %llx %llx %llx %llx %llx", (long long *)&v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]);
    if (n == 9) {
        *sp = v[7];
        *pc = v[8];
    } else if (n == 3) {
        *sp = v[1];
        *pc = v[2];
    } else {
        return 0;
    }
    return *sp != 0 && *pc != 0;
}

static void offcpu_sample(struct thread_buf *from, struct thread_buf *out)
{
    uint64_t sp, pc;
    if (!thread_blocked(from->tid, &sp, &pc) || sp < from->stack_lo || sp >= from->stack_hi)
        return;
    size_t n = (from->stack_hi - sp) / sizeof(uint64_t);
    if (n > OFFCPU_WORDS)
        n = OFFCPU_WORDS;
    struct iovec local = {g_offcpu_scan, n * sizeof(uint64_t)};
    struct iovec remote = {(void *)(uintptr_t)sp, n * sizeof(uint64_t)};
    ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (got <= 0)
        return;
    n = (size_t)got / sizeof(uint64_t);
    size_t need = sizeof(struct bl_raw_sample) + (3 + n) * sizeof(uint64_t);
    atomic_store(&out->busy, 1);
    if (!atomic_load(&g_stopping) && !atomic_load(&out->flushed) &&
        !atomic_load_explicit(&from->paused, memory_order_relaxed) && need <= out->cap) {
        if (out->used + need > out->cap)
            bl__sampler_flush(out);
        struct bl_raw_sample rec = {(uint32_t)(3 + n), 1u | BL_RAW_SCAN_ONLY};
        uint64_t head[3] = {pc, sp, n};
        memcpy(out->data + out->used, &rec, sizeof rec);
        memcpy(out->data + out->used + sizeof rec, head, sizeof head);
        memcpy(out->data + out->used + sizeof rec + sizeof head, g_offcpu_scan, n * 8);
        out->used += need;
        atomic_fetch_add_explicit(&g_samples, 1, memory_order_relaxed);
    }
    atomic_store(&out->busy, 0);
}

static void *offcpu_main(void *arg)
{
    struct thread_buf *out = arg;
    while (!atomic_load(&g_stopping)) {
        uint64_t ns = bl__sampler_next_period(out);
        struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
        nanosleep(&ts, NULL);
        int n = atomic_load(&g_n_threads);
        if (n > MAX_THREADS)
            n = MAX_THREADS;
        for (int i = 0; i < n && !atomic_load(&g_stopping); i++) {
            struct thread_buf *tb = atomic_load(&g_threads[i]);
            if (tb && tb != out && !atomic_load(&tb->flushed))
                offcpu_sample(tb, out);
        }
    }
    atomic_store(&g_offcpu_running, 0);
    return NULL;
}

void bl__sampler_start_offcpu(void)
{
    struct thread_buf *tb = bl__sampler_buf_new(BUF_BYTES);
    if (!tb)
        return;
    tb->rng = 0x9e3779b97f4a7c15u;
    if (bl__sampler_buf_publish(tb) != 0)
        return;
    g_offcpu_buf = tb;
    pthread_create_fn real = bl__sampler_real_pthread_create();
    atomic_store(&g_offcpu_running, 1);
    if (!real || real(&g_offcpu_thread, NULL, offcpu_main, tb) != 0)
        atomic_store(&g_offcpu_running, 0);
}
