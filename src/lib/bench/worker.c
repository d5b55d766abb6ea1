/*
 * worker.c - the worker process: measures one benchmark instance and sends
 * every batch to the runner on the channel fd, as soon as it is taken.
 *
 * Channel protocol (one text line per message, written with one write(),
 * so a message is whole or absent; documented in docs/formats.md):
 *   hello 1 PID
 *   calib CLOCK_NS PAUSE_NS COUNTERS      (COUNTERS: perf or rusage)
 *   s STAGE REPS NS CPU_NS NIVCSW MIGRATIONS MINFLT MAJFLT PAUSES
 *   bytes VALUE
 *   metric VALUE UNIT
 *   skip REASON...   |   fail MESSAGE...
 *   done ITERATIONS
 * The runner recognises a failed worker by its exit status and the missing
 * "done", never by a half-written line.
 *
 * Disturbances are counted around each batch with a perf_event group
 * (task-clock and cpu-migrations, software events available without
 * privileges for one's own thread) and getrusage(RUSAGE_THREAD) for
 * involuntary context switches and page faults. Where perf_event_open is
 * refused, the thread CPU clock and sched_getcpu() stand in.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "state.h"

static int perf_open(uint32_t type, uint64_t config, int group_fd)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config;
    attr.read_format = PERF_FORMAT_GROUP;
    attr.disabled = group_fd == -1;
    attr.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

void bl__counters_open(struct bl__counters *c)
{
    c->perf_fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
    c->perf_migr_fd = -1;
    if (c->perf_fd < 0)
        return;
    c->perf_migr_fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, c->perf_fd);
    if (c->perf_migr_fd < 0 || ioctl(c->perf_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
        bl__counters_close(c);
        return;
    }
}

void bl__counters_close(struct bl__counters *c)
{
    if (c->perf_migr_fd >= 0)
        close(c->perf_migr_fd);
    if (c->perf_fd >= 0)
        close(c->perf_fd);
    c->perf_fd = c->perf_migr_fd = -1;
}

void bl__counters_read(const struct bl__counters *c, struct bl__snapshot *s)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    s->nivcsw = ru.ru_nivcsw;
    s->minflt = ru.ru_minflt;
    s->majflt = ru.ru_majflt;
    uint64_t buf[3];
    if (c->perf_fd >= 0 && read(c->perf_fd, buf, sizeof buf) == (ssize_t)sizeof buf && buf[0] == 2) {
        s->cpu_ns = buf[1];
        s->migrations = buf[2];
        return;
    }
    s->cpu_ns = bl__thread_cpu_ns();
    int cpu = sched_getcpu();
    /* Without perf: a change of CPU between two reads counts as one migration. */
    s->migrations = (uint64_t)(cpu < 0 ? 0 : cpu);
}

/* ---- calibration ------------------------------------------------------------ */

static void empty_loop(bl_state *st)
{
    while (bl_loop(st)) {
    }
}

static void pause_loop(bl_state *st)
{
    while (bl_loop(st)) {
        bl_pause(st);
        bl_resume(st);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Median cost of one clock read, and the timed part of one pause/resume pair. */
static void calibrate(double *clock_ns, double *pause_ns)
{
    enum { TRIALS = 7, K = 1000 };
    uint64_t d[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
        uint64_t a = bl__now_ns();
        for (int i = 0; i < K - 1; i++)
            (void)bl__now_ns();
        d[t] = bl__now_ns() - a;
    }
    qsort(d, TRIALS, sizeof *d, cmp_u64);
    *clock_ns = (double)d[TRIALS / 2] / K;

    double diff[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
        uint64_t with = bl__run_sub_batch(pause_loop, K, false, NULL);
        uint64_t without = bl__run_sub_batch(empty_loop, K, false, NULL);
        diff[t] = ((double)with - (double)without) / K;
    }
    double tmp;
    for (int i = 1; i < TRIALS; i++) /* insertion sort */
        for (int j = i; j > 0 && diff[j - 1] > diff[j]; j--)
            tmp = diff[j], diff[j] = diff[j - 1], diff[j - 1] = tmp;
    *pause_ns = diff[TRIALS / 2] > 0 ? diff[TRIALS / 2] : 0;
}

/* Messages are single lines: squash newlines in user text. */
static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
}

int bl__worker_main(const struct bl__worker_args *a)
{
    int fd = a->channel_fd;
    signal(SIGPIPE, SIG_IGN);
    bl__send(fd, "hello 1 %ld", (long)getpid());
    const struct bl__instance *inst = bl__registry_find(a->name);
    if (!inst) {
        bl__send(fd, "fail no benchmark named %s in this suite", a->name);
        return 2;
    }

    struct bl__engine eng;
    memset(&eng, 0, sizeof eng);
    eng.fd = fd;
    eng.target_ns = a->batch_ms * 1e6;
    eng.budget_ns = a->time_s * 1e9;
    eng.stage = STAGE_PILOT;
    eng.reps = 1;
    if (inst->def->macro) {
        /* one timed invocation per batch: no pilot, no jitter (reps < 10) */
        eng.stage = STAGE_WARMUP;
        eng.warm_begin = bl__now_ns();
        eng.macro = true;
    }
    eng.overhead_fn = inst->def->overhead_fn;
    bl__rng_seed(&eng.rng, a->seed ? a->seed : bl__now_ns() ^ (uint64_t)getpid());
    bl__counters_open(&eng.counters);
    if (a->counters) {
        eng.mode = MODE_COUNTERS;
        int n = 0;
        char why[300];
        if (bl__counters_parse(a->counters, eng.hw_idx, &n, why, sizeof why) != 0 ||
            bl__hw_open(&eng.hw, eng.hw_idx, n) != 0) {
            bl__send(fd, "fail cannot open the hardware counters %s in the worker", a->counters);
            return 1;
        }
    } else if (a->alloc) {
        eng.mode = MODE_ALLOC;
        if (bl__alloc_api_load(&eng.alloc) != 0) {
            bl__send(fd, "fail the allocation counter (libbenchlab-alloc.so) is not loaded in "
                         "the worker: LD_PRELOAD was refused or overridden");
            return 1;
        }
    }

    double clock_ns, pause_ns;
    calibrate(&clock_ns, &pause_ns);
    bl__send(fd, "calib %.3f %.3f %s", clock_ns, pause_ns,
             eng.counters.perf_fd >= 0 ? "perf" : "rusage");

    bl_state st;
    bl__state_init(&st, ST_RUN, inst, &eng);
    if (inst->def->global_setup)
        inst->def->global_setup(&st);
    if (!st.status)
        inst->def->fn(&st);
    if (!st.status && !st.finished) {
        bl_fail(&st, st.started ? "the benchmark returned before its loop finished (a break or "
                                  "return inside while (bl_loop(st))?)"
                                : "the benchmark never called bl_loop()");
    }
    if (inst->def->global_cleanup)
        inst->def->global_cleanup(&st);
    bl__counters_close(&eng.counters);
    bl__hw_close(&eng.hw);

    one_line(st.message);
    if (st.status == 1) {
        bl__send(fd, "skip %s", st.message);
        return 0;
    }
    if (st.status == 2) {
        bl__send(fd, "fail %s", st.message);
        return 1;
    }
    if (st.bytes_per_op > 0)
        bl__send(fd, "bytes %.17g", st.bytes_per_op);
    for (int i = 0; i < st.n_metrics; i++)
        bl__send(fd, "metric %.17g %s", st.metric_value[i], st.metric_unit[i]);
    bl__send(fd, "done %llu", (unsigned long long)st.total_iters);
    return 0;
}
