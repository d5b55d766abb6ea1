/*
 * state.c - the measured loop: what happens when bl_loop() leaves its fast
 * path, and the calls of a benchmark body that touch the clock
 * (bl_pause, bl_resume, bl_set_batch_multiple); the others are body.c's.
 * What a batch boundary decides (the stages below, the batch sizes, the
 * budget) is stages.c's.
 *
 * One call of the benchmark function runs the whole measurement: the slow
 * path of bl_loop() ends a batch (clock read first, then everything else),
 * sends it to the runner at once, decides the next batch and starts it
 * (clock read last). The stages, after BenchmarkDotNet and BenchmarkTools:
 *
 *   pilot    batches of 1, then x2..x10 repetitions, until a batch lasts
 *            about the target (1 ms by default): the repetitions per batch
 *            that make the two clock reads negligible (< 0.01% at 28 ns).
 *            A group of more threads than CPUs is sized by each thread's
 *            CPU time instead (sizing_per_op).
 *   warmup   batches of that size until the per-op time stops falling:
 *            the median of the last 4 batches is no better than 98% of the
 *            4 before, or a quarter of the budget is spent.
 *   measure  batches until the budget is spent with >= 10 clean batches
 *            (or 2x the budget with >= 3; at 5x we stop and the runner
 *            flags the benchmark).
 *
 * The budget is charged with the worker's wall time less the time it
 * waited for a CPU (charged_ns: a single thread's schedstat, else the
 * off-CPU part of the batches it would discard): on a loaded machine a
 * launch takes longer instead of measuring fewer batches, so it does not
 * end with no clean batch, or with too few to judge drift and modes.
 * MAX_WALL budgets of wall time (wall_cap_ns) bound it all the same.
 *
 * Every warmup and measured batch is preceded by an overhead batch of the
 * same size: the benchmark's empty loop (compiled in the user's file by
 * BENCHLAB()), so the overhead is sampled under the same drift as the
 * workload. Batch sizes are jittered by +-10% (Caliper) so periodic
 * effects do not alias with the batch length.
 *
 * The threads of a benchmark (one, or T with .threads) form a group that
 * moves in lockstep: at every batch boundary each thread stops its clock
 * and waits at the group's barrier; the last to arrive judges the batch
 * (time from the common start to the slowest thread's finish), sends it,
 * plans the next, and releases them all, and each restarts its own clock
 * last. The overhead batch runs in every thread the same way.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../instruments/callgrind.h"
#include "../results/results_int.h"
#include "state.h"

#define SWITCH_MIN_NS 10000

/*
 * The worker's pid, taken at its first message ("hello"). A process the
 * benchmark forked that does not exit but goes on into benchlab's loop
 * would send its own batches and "done" on the channel it inherited, and
 * they would mix with the worker's without a word: such a process sends
 * one "stray PID" instead, which fails the launch, and ends there.
 *
 * The channel's identity (device and inode of its pipe) is taken then too.
 * A body that closes descriptors it did not open may close the channel,
 * or open a file of its own that gets its number: the worker would write
 * its messages into that file. Each message checks first, and on a
 * channel closed or replaced says so on stderr and exits with
 * BL__EXIT_CHANNEL_LOST, which the runner names.
 */
static pid_t channel_owner;
static dev_t channel_dev;
static ino_t channel_ino;

static void channel_lost(int fd, const char *how)
{
    char msg[300];
    int n = snprintf(msg, sizeof msg,
                     "benchlab worker: the benchmark %s the channel to the runner (fd %d): its "
                     "results cannot be sent\n",
                     how, fd);
    if (n > 0)
        (void)bl__write_all(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    _exit(BL__EXIT_CHANNEL_LOST);
}

/* Is fd still the channel of "hello"? Ends the worker when it is not. */
static void channel_check(int fd, pid_t me)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        if (errno == EBADF)
            channel_lost(fd, "closed");
        return;
    }
    if (!channel_owner) {
        channel_owner = me; /* "hello", before the body runs or any thread starts */
        channel_dev = st.st_dev;
        channel_ino = st.st_ino;
    } else if (st.st_dev != channel_dev || st.st_ino != channel_ino) {
        channel_lost(fd, "replaced");
    }
}

static void stray(int fd, pid_t me)
{
    char line[64];
    int n = snprintf(line, sizeof line, "stray %ld\n", (long)me);
    if (n > 0)
        (void)bl__write_all(fd, line, (size_t)n);
    _exit(3);
}

void bl__send(int fd, const char *fmt, ...)
{
    pid_t me = getpid();
    if (channel_owner && me != channel_owner)
        stray(fd, me);
    channel_check(fd, me);
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    int err = bl__write_all(fd, line, (size_t)n);
    if (err == -EBADF)
        channel_lost(fd, "closed"); /* by another thread of the body, since the check */
    if (err)
        _exit(3); /* the runner is gone: nobody wants our numbers */
}

void bl__state_init(bl_state *st, int kind, const struct bl__instance *inst, struct bl__engine *eng)
{
    memset(st, 0, sizeof *st);
    st->kind = kind;
    st->inst = inst;
    st->eng = eng;
    st->n_threads = 1;
    st->ctr.perf_fd = st->ctr.perf_migr_fd = -1;
    if (inst)
        st->per_op = inst->def->setup_op || inst->def->teardown_op || inst->def->macro;
}

/*
 * The profile pass (run --profile): each thread's profiler records only
 * inside its timed segments of measured batches, from just after the clock
 * starts to just before it stops, so neither the engine's clock reads nor
 * its counters are in the profile. That pass's timings are thrown away.
 */
static inline void profile_on(bl_state *st)
{
    struct bl__engine *e = st->eng;
    if (e->profiling && e->stage == STAGE_MEASURE && !st->prof_running) {
        e->prof.resume();
        st->prof_running = true;
    }
}

static inline void profile_off(bl_state *st)
{
    if (st->prof_running) {
        st->eng->prof.pause();
        st->prof_running = false;
    }
}

static inline void start_clock(bl_state *st)
{
    st->t_start = bl__now_ns();
    profile_on(st);
}

static void acc_add(struct bl__acc *acc, const struct bl__snapshot *a, const struct bl__snapshot *b)
{
    acc->cpu_ns += b->cpu_ns - a->cpu_ns;
    acc->proc_ns += b->proc_ns - a->proc_ns;
    acc->migrations += b->migrations != a->migrations; /* also right without perf */
    acc->nivcsw += b->nivcsw - a->nivcsw;
    acc->minflt += b->minflt - a->minflt;
    acc->majflt += b->majflt - a->majflt;
}

/* The counters before and after a timed region; the process's CPU clock
 * (.process_cpu) nearest the region, so that its window holds one read of
 * that clock (a system call, about 1 us; the overhead batches' CPU time
 * beyond their wall time takes it off, bl_launch_cpu_per_op) and not the
 * other counters' reads. */
static void snap_before(bl_state *st, struct bl__snapshot *s)
{
    bl__disturb_read(&st->ctr, s);
    s->proc_ns = st->ctr.process_cpu ? bl__process_cpu_ns() : 0;
}

static void snap_after(bl_state *st, struct bl__snapshot *s)
{
    uint64_t proc_ns = st->ctr.process_cpu ? bl__process_cpu_ns() : 0;
    bl__disturb_read(&st->ctr, s);
    s->proc_ns = proc_ns;
}

/* Disturbance counters around each timed segment, read outside it: right
 * before its clock start and right after its clock stop. */
static void seg_begin(bl_state *st)
{
    if (!st->eng || st->eng->mode != MODE_TIME)
        return;
    snap_before(st, &st->before);
    st->seg_open = true;
}

static void seg_end(bl_state *st, uint64_t seg_ns)
{
    if (!st->seg_open)
        return;
    struct bl__snapshot now;
    snap_after(st, &now);
    /* A segment shorter than SWITCH_MIN_NS cannot hold a preemption: a
     * thread switched out stays off CPU far longer. A switch counted around
     * it happened in the counter reads outside the timed region, which in a
     * benchmark that pauses or times every operation take 20x longer than
     * the timed part itself. Whole batches (>= ~1 ms) always count. */
    if (seg_ns < SWITCH_MIN_NS) {
        now.migrations = st->before.migrations;
        now.nivcsw = st->before.nivcsw;
    }
    acc_add(&st->acc, &st->before, &now);
    st->seg_open = false;
}

/* ---- sub-states: one batch of an overhead or calibration loop ---------- */

static bool sub_next(bl_state *st)
{
    uint64_t now = bl__now_ns();
    if (!st->in_batch) {
        if (st->finished || st->batch_reps == 0)
            return false;
        st->in_batch = true;
        st->ops_done = 0;
        st->hot.left = st->per_op ? 0 : st->batch_reps - 1;
        st->t_start = bl__now_ns();
        st->t_first = st->t_start;
        return true;
    }
    if (!st->paused)
        st->batch_ns += now - st->t_start;
    if (st->per_op && ++st->ops_done < st->batch_reps) {
        st->t_start = bl__now_ns();
        return true;
    }
    st->in_batch = false;
    st->finished = true;
    return false;
}

uint64_t bl__run_sub_batch(bl_bench_fn fn, uint64_t reps, bool per_op, uint32_t *pauses,
                           uint64_t *t_first)
{
    bl_state sub;
    bl__state_init(&sub, ST_SUB, NULL, NULL);
    sub.per_op = per_op;
    sub.batch_reps = reps;
    fn(&sub);
    if (pauses)
        *pauses = sub.pauses;
    if (t_first)
        *t_first = sub.t_first;
    return sub.batch_ns;
}

uint64_t bl__group_span(const struct bl__group *g, int i, bool overhead)
{
    const bl_state *s = g->st[i];
    if (overhead)
        return s->ovh_ns;
    uint64_t t0 = UINT64_MAX;
    for (int k = 0; k < g->n; k++)
        if (g->st[k]->t_first < t0)
            t0 = g->st[k]->t_first;
    return s->batch_ns + (s->t_first - t0);
}

/*
 * The group's batch as one: timed from the common start (the earliest
 * clock start of any thread) to the finish of the slowest thread, where
 * each thread's part leaves out its own pauses and per-op hooks. The
 * disturbances of all threads are summed, and the batch's on-CPU time is
 * its wall time less the largest off-CPU gap of any thread, so one thread
 * that sat off CPU makes the batch disturbed. A group of one is its
 * thread's batch unchanged.
 *
 * The overhead batch is the loop's cost only: the slowest thread's own
 * empty loop, from its own clock start. Timed from the common start it
 * also held the threads' wake-up from the barrier (microseconds when the
 * barrier sleeps: 8 us, 3% of a 200 us body, on a loaded machine), and
 * subtracting that, a noisy draw of its own, from every workload batch
 * made the result noisier, not truer. The workload batch keeps the
 * wake-up: it is part of the group's wall time.
 */
static void combine(const struct bl__group *g, bool overhead, struct bl__batch *out)
{
    memset(out, 0, sizeof *out);
    out->reps = overhead ? g->ovh_reps : g->reps;
    if (g->n == 1) {
        const bl_state *s = g->st[0];
        out->ns = overhead ? s->ovh_ns : s->batch_ns;
        out->acc = overhead ? s->ovh_acc : s->acc;
        out->pauses = overhead ? s->ovh_pauses : s->pauses;
        out->thread_cpu_ns = (double)out->acc.cpu_ns;
        return;
    }
    uint64_t gap = 0, cpu_sum = 0, proc_sum = 0;
    for (int i = 0; i < g->n; i++) {
        const bl_state *s = g->st[i];
        const struct bl__acc *a = overhead ? &s->ovh_acc : &s->acc;
        uint64_t span = bl__group_span(g, i, overhead);
        if (span >= out->ns) {
            out->ns = span;
            out->pauses = overhead ? s->ovh_pauses : s->pauses;
        }
        if (span > a->cpu_ns && span - a->cpu_ns > gap)
            gap = span - a->cpu_ns;
        cpu_sum += a->cpu_ns;
        proc_sum += a->proc_ns;
        out->acc.migrations += a->migrations;
        out->acc.nivcsw += a->nivcsw;
        out->acc.minflt += a->minflt;
        out->acc.majflt += a->majflt;
    }
    out->acc.cpu_ns = out->ns > gap ? out->ns - gap : 0;
    out->thread_cpu_ns = (double)cpu_sum / g->n;
    /* .process_cpu: each thread read the process's clock around its own
     * timed segments, as Google Benchmark's timers do; their mean is the
     * process's CPU time over the batch (GB's sum over the threads divided
     * by them), and per thread, the batch's CPU time: per op, the process's
     * CPU time over every thread's repetitions (GB's cpu_time). acc.cpu_ns
     * stays the threads' on-CPU time: the invalidation reads it. */
    if (g->eng->process_cpu)
        out->acc.proc_ns = (uint64_t)llround((double)proc_sum / ((double)g->n * g->n));
    if (g->eng->manual && !overhead) { /* the threads' mean, as Google Benchmark */
        uint64_t sum = 0;
        for (int i = 0; i < g->n; i++)
            sum += g->st[i]->batch_ns;
        out->ns = sum / (uint64_t)g->n;
        out->pauses = 0;
    }
}

/* MODE_INSTR: callgrind's collection for the calling thread, on or off
 * (its request toggles, so the state is kept here). */
static void cg_collect(bl_state *st, bool on)
{
    if (st->cg_on != on) {
        bl__cg_toggle();
        st->cg_on = on;
    }
}

/* This thread's part of the overhead batch: the empty loop, same size. */
static void run_overhead(bl_state *st, uint64_t reps)
{
    struct bl__snapshot a, b;
    snap_before(st, &a);
    bool count = st->eng->mode == MODE_INSTR && st->eng->counting_overhead;
    if (count)
        cg_collect(st, true);
    st->ovh_ns =
        bl__run_sub_batch(st->eng->overhead_fn, reps, st->per_op, &st->ovh_pauses, &st->ovh_first);
    if (count)
        cg_collect(st, false);
    snap_after(st, &b);
    memset(&st->ovh_acc, 0, sizeof st->ovh_acc);
    acc_add(&st->ovh_acc, &a, &b);
}

/* Serial part of the rendezvous after the overhead batch. */
static void overhead_ended(void *ctx)
{
    struct bl__group *g = ctx;
    if (g->eng->mode == MODE_INSTR) { /* counts only: no times to send */
        if (g->eng->counting_overhead) {
            bl__cg_dump(g->eng->alloc_phase == ALLOC_WARM   ? "benchlab warm"
                        : g->eng->alloc_phase == ALLOC_BASE ? "benchlab overhead base"
                                                            : "benchlab overhead more");
            g->eng->cg_dumps++;
        }
        return;
    }
    struct bl__batch b;
    combine(g, true, &b);
    /* judged as the runner does; a group of one that reads its schedstat
     * has this batch's waits in its next boundary's account */
    if (g->eng->stage != STAGE_DRIVEN && !(g->eng->group_of_one && g->eng->sched_fd >= 0)) {
        bl_sample s = bl__batch_sample(&b);
        bl__add_stolen(g->eng, &b, bl__sample_judge(&s, 0));
    }
    b.ref_ns = g->eng->ref_before;
    bool cold = g->eng->fixed_reps && !g->eng->ovh_warmed; /* ovh_warmed, state.h */
    bl__batch_send(g->eng, g->eng->stage == STAGE_WARMUP || cold ? 'o' : 'O', &b);
    g->eng->ovh_warmed = true;
}

static void call_op_hook(bl_state *st, void (*hook)(bl_state *))
{
    if (hook)
        hook(st);
}

/* Open a batch of `reps`: the per-batch state, and the first per-op setup
 * hook. The caller starts the clock last. */
static void open_batch(bl_state *st, uint64_t reps)
{
    st->batch_reps = reps;
    st->batch_ns = 0;
    st->ops_done = 0;
    st->pauses = 0;
    st->paused = false;
    st->in_batch = true;
    st->manual_ns = 0;
    st->manual_calls = 0;
    memset(&st->acc, 0, sizeof st->acc);
    if (st->per_op) {
        call_op_hook(st, st->inst->def->setup_op);
        st->hot.left = 0;
        st->hot.end = st->total_iters + 1;
    } else {
        st->hot.left = reps - 1;
        st->hot.end = st->total_iters + reps;
    }
}

/* Counting in the allocation or counters pass, for the calling thread:
 * suspended around pauses and per-op hooks. The counting allocator keeps
 * the suspension per thread; hardware counters are per thread anyway. */
static void counting_suspend(bl_state *st, int suspended)
{
    if (st->eng->mode == MODE_ALLOC) {
        st->eng->alloc.suspend(suspended);
    } else if (st->eng->mode == MODE_INSTR) {
        cg_collect(st, !suspended);
    } else {
        for (int i = 0; i < st->hw.n; i++)
            ioctl(st->hw.fd[i], suspended ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE, 0);
    }
}

/* The counted batch ended for every thread: keep its counts. */
static void counting_end(struct bl__group *g)
{
    struct bl__engine *e = g->eng;
    bool base = e->alloc_phase == ALLOC_BASE;
    if (e->mode == MODE_ALLOC) {
        e->alloc.end(base ? &e->alloc_base : &e->alloc_more);
        return;
    }
    if (e->mode == MODE_INSTR) { /* every thread's collection is off here */
        bl__cg_dump(e->alloc_phase == ALLOC_WARM ? "benchlab warm"
                    : base                       ? "benchlab body base"
                                                 : "benchlab body more");
        e->cg_dumps++;
        return;
    }
    double *dst = base ? e->hw_base : e->hw_more;
    for (int c = 0; c < e->n_hw; c++) {
        dst[c] = 0;
        for (int i = 0; i < g->n; i++)
            dst[c] += g->st[i]->hw_vals[c];
    }
    for (int i = 0; i < g->n; i++)
        e->hw_scaled |= g->st[i]->hw_scaled;
}

/* MODE_INSTR: the repetitions to count, from the instructions of the
 * last warm batch (2 repetitions a thread, its dump the last written): the
 * largest power of ten up to 1000 whose repetitions are at most 5e7
 * instructions (a second or two under callgrind), so that the choice is
 * the same on every run and machine. 0, or the worker failed. */
static int instr_reps(struct bl__group *g, uint64_t *d)
{
    struct bl__engine *e = g->eng;
    char path[4200], why[4400];
    struct bl__cg_dump dump;
    snprintf(path, sizeof path, "%s.%d", e->cg_out ? e->cg_out : "", e->cg_dumps);
    if (!e->cg_out || bl__cg_read_dump(path, &dump, why, sizeof why) != 0) {
        bl__send(e->fd, "fail the instruction count cannot read its warm batch: %s",
                 e->cg_out ? why : "BENCHLAB_CG_OUT is not set");
        e->stage = STAGE_DONE;
        g->done = true;
        return -1;
    }
    double per_op = bl__cg_total(&dump, "Ir") / (2.0 * g->n);
    for (*d = 1000; *d > 1 && (double)*d * per_op > 5e7; *d /= 10) {
    }
    return 0;
}

/* The allocation batch that just ended: keep its counts, pick the next. */
static void record_alloc(struct bl__group *g, const struct bl__batch *b)
{
    struct bl__engine *e = g->eng;
    switch (e->alloc_phase) {
    case ALLOC_WARM:
        if (e->mode == MODE_INSTR) {
            /* counts are exact: no random k and d, so that every launch
             * counts the same repetitions (a body whose work changes from
             * one repetition to the next reads the same mean each time).
             * d: the runner's (the first launch's, .iterations or
             * --iterations), else the largest power of ten up to 1000 whose
             * repetitions take a fifth of the budget under valgrind */
            if (e->n_warm++ == 0)
                break; /* again: its dump is of the code warm */
            e->alloc_k = 1;
            /* its dump is read in every launch, so that every launch runs
             * the same code before it counts */
            uint64_t d;
            if (instr_reps(g, &d) != 0)
                break;
            e->alloc_d = e->fixed_reps ? e->fixed_reps : e->cg_reps ? e->cg_reps : d;
            e->alloc_phase = ALLOC_BASE;
            break;
        }
        {
            /* k in 1..5 and d in 1..100 (Caliper), d bounded so that k+d
             * repetitions take about a fifth of the budget */
            e->alloc_k = 1 + bl__rng_next(&e->rng) % 5;
            double per_op = (double)b->ns > 0 ? (double)b->ns : 1;
            double fit = 0.2 * e->budget_ns / per_op;
            uint64_t d = 1 + bl__rng_next(&e->rng) % 100;
            if ((double)d > fit)
                d = fit >= 1 ? (uint64_t)fit : 1;
            e->alloc_d = d;
            e->alloc_phase = ALLOC_BASE;
            break;
        }
    case ALLOC_BASE:
        e->alloc_phase = ALLOC_MORE;
        break;
    default:
        /* k and d are per thread: the runner divides by d x threads */
        if (e->mode == MODE_INSTR) {
            bl__send(e->fd, "instr %llu %llu %llu%s", (unsigned long long)e->alloc_k,
                     (unsigned long long)e->alloc_d * (unsigned long long)g->n,
                     (unsigned long long)e->alloc_d, e->overhead_fn ? " loop" : "");
            e->stage = STAGE_DONE;
            break;
        }
        if (e->mode == MODE_COUNTERS) {
            char line[900];
            int len =
                snprintf(line, sizeof line, "counters %llu %llu %d", (unsigned long long)e->alloc_k,
                         (unsigned long long)e->alloc_d * (unsigned long long)g->n, e->hw_scaled);
            for (int i = 0; i < e->n_hw && len < (int)sizeof line - 80; i++)
                len += snprintf(line + len, sizeof line - (size_t)len, " %s %.17g %.17g",
                                bl__hw_counter_name(e->hw_idx[i]), e->hw_base[i], e->hw_more[i]);
            bl__send(e->fd, "%s", line);
            e->stage = STAGE_DONE;
            break;
        }
        bl__send(e->fd, "alloc %llu %llu %llu %llu %llu %llu %llu %llu",
                 (unsigned long long)e->alloc_k,
                 (unsigned long long)e->alloc_d * (unsigned long long)g->n,
                 (unsigned long long)e->alloc_base.allocs, (unsigned long long)e->alloc_base.bytes,
                 (unsigned long long)e->alloc_more.allocs, (unsigned long long)e->alloc_more.bytes,
                 (unsigned long long)(e->alloc_base.foreign_frees + e->alloc_more.foreign_frees),
                 (unsigned long long)(e->alloc_base.untracked + e->alloc_more.untracked));
        e->stage = STAGE_DONE;
        break;
    }
}

/*
 * Driven mode: block until the runner's next command. "b REPS" sets the
 * size of the next batch (the runner chooses it, jitter included, so that
 * both builds run the same work); "q", end of file or anything else ends
 * the measurement. Commands are one short line, written whole by the
 * runner, which sends the next one only after our answer. Called in the
 * group's serial part: the other threads wait at the barrier.
 */
static void await_command(struct bl__engine *e)
{
    char cmd[64];
    size_t n = 0;
    while (n < sizeof cmd - 1) {
        ssize_t got = read(e->cmd_fd, cmd + n, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || cmd[n] == '\n')
            break;
        n++;
    }
    cmd[n] = '\0';
    unsigned long long reps;
    if (sscanf(cmd, "b %llu", &reps) == 1 && reps > 0)
        e->reps = reps;
    else
        e->stage = STAGE_DONE;
}

/* Plan the next batch (the group's serial part; every thread waits). */
static void plan_batch(struct bl__group *g)
{
    struct bl__engine *e = g->eng;
    g->ovh_reps = 0;
    if (e->mode != MODE_TIME) {
        /* the instruction count's warm batch takes both ways out of
         * bl_loop (another repetition, the batch's end), so that no code
         * runs for the first time, cold in the simulated caches, in a
         * counted batch */
        g->reps = e->alloc_phase == ALLOC_WARM   ? (e->mode == MODE_INSTR ? 2 : 1)
                  : e->alloc_phase == ALLOC_BASE ? e->alloc_k
                                                 : e->alloc_k + e->alloc_d;
        e->counting = e->alloc_phase != ALLOC_WARM;
        if (e->counting && e->mode == MODE_ALLOC)
            e->alloc.begin(); /* each thread keeps its setup hook out (start_batch) */
        if (e->mode == MODE_INSTR) {
            /* the empty loop first, as many repetitions. The warm batches
             * count too, so that the count's own paths are warm in the
             * simulated caches; their dumps say "warm" and are not read
             * (a dump zeroes every thread's counts, CALLGRIND_ZERO_STATS
             * only the caller's) */
            g->ovh_reps = e->overhead_fn ? g->reps : 0;
            e->counting = true;
            e->counting_overhead = g->ovh_reps > 0;
        }
    } else {
        uint64_t reps = e->stage == STAGE_PILOT    ? (e->reps ? e->reps : 1)
                        : e->stage == STAGE_DRIVEN ? e->reps
                        : e->fixed_reps            ? e->fixed_reps
                                                   : bl__jittered(e, e->reps);
        if (e->batch_multiple > 1 && reps % e->batch_multiple) /* bl_loop_n takes whole steps */
            reps += e->batch_multiple - reps % e->batch_multiple;
        /* manual time: the body's own times, no loop of ours in them */
        if (e->stage != STAGE_PILOT && e->overhead_fn && !e->manual)
            g->ovh_reps = reps;
        g->reps = reps;
        /* the reference right before the batch (and its overhead batch) */
        bool measured = e->stage == STAGE_MEASURE || e->stage == STAGE_DRIVEN;
        /* not beside manual time: the body's time is not the core's cycles */
        e->ref_before = measured && !e->manual ? bl__ref_measure(e) : 0;
        if (!e->t_begin) {
            e->t_begin = bl__now_ns();
            if (e->stage == STAGE_WARMUP && e->warmup_min_ns > 0)
                e->warm_begin = e->t_begin; /* .warmup_s counts from its first batch */
        }
    }
    g->batch_open = true;
}

/* Serial part of the rendezvous at a batch boundary: judge the batch that
 * every thread finished, then plan the next or stop the group. */
static void batch_ended(void *ctx)
{
    struct bl__group *g = ctx;
    struct bl__engine *e = g->eng;
    int status = 0;
    for (int i = 0; i < g->n; i++)
        if (g->st[i]->status > status)
            status = g->st[i]->status;
    if (g->batch_open) {
        g->batch_open = false;
        if (e->counting) {
            counting_end(g); /* first: nothing of ours is counted */
            e->counting = false;
        }
        if (!status) {
            struct bl__batch b;
            combine(g, false, &b);
            if (e->mode == MODE_TIME && e->ref_before > 0) /* ... and right after it */
                b.ref_ns = 0.5 * (e->ref_before + bl__ref_measure(e));
            e->last_batch_ns = (double)b.ns;
            if (e->mode == MODE_TIME)
                bl__stage_record(e, &b);
            else
                record_alloc(g, &b);
        }
    }
    if (!status && e->stage == STAGE_DRIVEN)
        await_command(e);
    if (status || e->stage == STAGE_DONE) {
        g->done = true;
        return;
    }
    plan_batch(g);
}

/* This thread's start of the planned batch; the clock starts last. */
static void start_batch(bl_state *st)
{
    struct bl__engine *e = st->eng;
    bool count = e->counting;
    if (count && st->per_op)
        counting_suspend(st, 1); /* the first setup hook is not counted */
    open_batch(st, st->group->reps);
    if (count) {
        if (e->mode == MODE_COUNTERS)
            bl__hw_start(&st->hw);
        else
            counting_suspend(st, 0);
    }
    seg_begin(st);
    start_clock(st);
    st->t_first = st->t_start;
}

/* Meet the other threads at the batch boundary, then start the next batch
 * (after the overhead batch, which the threads also run together). */
static bool group_next(bl_state *st)
{
    struct bl__group *g = st->group;
    st->started = true;
    bl__barrier_wait(&g->bar, batch_ended, g);
    if (g->done) {
        st->finished = true;
        return false;
    }
    if (g->ovh_reps) {
        bool warm = g->eng->mode == MODE_TIME && g->eng->fixed_reps && !g->eng->ovh_warmed;
        for (int k = warm ? 0 : 1; k < 2; k++) {
            run_overhead(st, g->ovh_reps);
            bl__barrier_wait(&g->bar, overhead_ended, g);
        }
    }
    start_batch(st);
    return true;
}

/* .manual_time: the batch's time is the sum the body reported, its
 * pauses nothing to subtract; a batch without any report fails. */
static void manual_batch_end(bl_state *st)
{
    uint64_t reps = st->per_op ? st->ops_done : st->batch_reps;
    if (reps && !st->manual_calls && !st->status) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "manual time: a batch of %llu repetitions reported no time "
                 "(bl_set_iteration_time, SetIterationTime)",
                 (unsigned long long)reps);
        bl_fail(st, msg);
    }
    if (!(st->manual_ns < 9e18)) {
        /* past what a batch's time in ns holds: llround would saturate */
        bl_fail(st, "manual time: the times a batch reported add up past 9e9 s "
                    "(bl_set_iteration_time, SetIterationTime)");
        st->manual_ns = 0;
    }
    st->batch_ns = (uint64_t)llround(st->manual_ns);
    st->pauses = 0;
}

/* A repetition ended: stop the clock. In a per-op batch with repetitions
 * left, run the hooks and restart the clock (returns true); otherwise this
 * thread's part of the batch is over. */
static bool end_rep(bl_state *st)
{
    profile_off(st);
    uint64_t now = bl__now_ns();
    if (!st->paused) {
        st->batch_ns += now - st->t_start;
        seg_end(st, now - st->t_start);
    } else if (!st->per_op && !st->eng->manual && st->pauses == 1 && st->batch_reps >= 2 &&
               !st->status) {
        /* paused once and never resumed: every repetition after the first
         * ran untimed, and batches would grow until the time limit (Google
         * Benchmark aborts on it) */
        bl_fail(st, "the clock was paused (bl_pause, PauseTiming) and not resumed "
                    "(bl_resume, ResumeTiming): the repetitions after it ran untimed");
    }
    st->paused = false;
    bool count = st->eng->counting;
    if (st->per_op) {
        if (count)
            counting_suspend(st, 1);
        call_op_hook(st, st->inst->def->teardown_op);
        if (++st->ops_done < st->batch_reps && !st->status) {
            st->hot.end = st->total_iters + st->ops_done + 1;
            call_op_hook(st, st->inst->def->setup_op);
            if (count)
                counting_suspend(st, 0);
            seg_begin(st);
            start_clock(st);
            return true;
        }
    }
    if (count && st->eng->mode == MODE_COUNTERS)
        bl__hw_stop(&st->hw, st->hw_vals, &st->hw_scaled);
    if (count && st->eng->mode == MODE_INSTR)
        cg_collect(st, false);
    if (st->eng->manual && st->eng->mode == MODE_TIME)
        manual_batch_end(st);
    st->in_batch = false;
    st->total_iters += st->per_op ? st->ops_done : st->batch_reps;
    st->hot.end = st->total_iters;
    st->hot.left = 0;
    return false;
}

bool bl__loop_next(bl_state *st)
{
    if (st->kind == ST_SUB)
        return sub_next(st);
    if (st->in_batch) {
        if (end_rep(st))
            return true;
    } else if (st->finished) {
        return false;
    }
    return group_next(st);
}

void bl__run_body(bl_state *st)
{
    if (!st->status)
        st->inst->def->fn(st);
    if (!st->status && !st->finished) {
        bl_fail(st, st->started ? "the benchmark returned before its loop finished (a break or "
                                  "return inside while (bl_loop(st))?)"
                                : "the benchmark never called bl_loop()");
    }
    /* the other threads meet this one at every batch boundary: stay in
     * step until the group stops, which the failure makes it do next */
    while (!st->finished)
        bl__loop_next(st);
}

/* ---- what a benchmark body calls ---------------------------------------- */

void bl_set_batch_multiple(bl_state *st, uint64_t n)
{
    struct bl__engine *e = st->eng;
    if (st->kind != ST_RUN || !e || n <= 1)
        return;
    if (st->started || st->total_iters) {
        bl_fail(st, "bl_set_batch_multiple: call it before the loop starts");
    } else if (st->per_op) {
        bl_fail(st, "bl_set_batch_multiple: not with .setup_op or .teardown_op (each "
                    "repetition is timed on its own)");
    } else if (e->mode != MODE_TIME) {
        bl_fail(st, "bl_set_batch_multiple: not supported in the allocation and counters "
                    "passes yet");
    } else if (e->batch_multiple > 1 && e->batch_multiple != n) {
        bl_fail(st, "bl_set_batch_multiple: the threads asked for different multiples");
    } else {
        e->batch_multiple = n; /* every thread of the group plans with the same engine */
    }
}

void bl_pause(bl_state *st)
{
    if (st->eng && st->eng->mode == MODE_INSTR && st->eng->counting)
        cg_collect(st, false); /* first: as little of ours in the count as can be */
    if (st->eng)
        profile_off(st);
    uint64_t now = bl__now_ns();
    if (!st->in_batch || st->paused)
        return;
    st->batch_ns += now - st->t_start;
    seg_end(st, now - st->t_start);
    st->paused = true;
    st->pauses++;
    if (st->eng && st->eng->counting)
        counting_suspend(st, 1);
}

void bl_resume(bl_state *st)
{
    if (!st->in_batch || !st->paused)
        return;
    bool instr = st->eng && st->eng->mode == MODE_INSTR;
    if (st->eng && st->eng->counting && !instr)
        counting_suspend(st, 0);
    st->paused = false;
    seg_begin(st);
    if (st->eng)
        start_clock(st);
    else
        st->t_start = bl__now_ns();
    if (instr && st->eng->counting)
        cg_collect(st, true); /* last */
}
