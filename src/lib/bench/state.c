/*
 * state.c - the measured loop: what happens when bl_loop() leaves its fast
 * path, and the calls of a benchmark body that touch the clock
 * (bl_pause, bl_resume, bl_set_batch_multiple); the others are body.c's.
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
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../results/results_int.h"
#include "benchlab/stats.h"
#include "state.h"

#define MIN_CLEAN 10
#define JITTER 0.10
#define LONG_OP_NS 5e6
#define SWITCH_MIN_NS 10000
#define MAX_WALL 20
#define OVERSUB_WALL 4 /* an oversubscribed batch: at most 4x the ideal wall time */
#define CTXSW_BIT 0    /* BL_INVALID_CTXSW is 1u << 0 */

void bl__send(int fd, const char *fmt, ...)
{
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
    if (bl__write_all(fd, line, (size_t)n) != 0)
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
    acc->migrations += b->migrations != a->migrations; /* also right without perf */
    acc->nivcsw += b->nivcsw - a->nivcsw;
    acc->minflt += b->minflt - a->minflt;
    acc->majflt += b->majflt - a->majflt;
}

/* Disturbance counters around each timed segment, read outside it: right
 * before its clock start and right after its clock stop. */
static void seg_begin(bl_state *st)
{
    if (!st->eng || st->eng->mode != MODE_TIME)
        return;
    bl__disturb_read(&st->ctr, &st->before);
    st->seg_open = true;
}

static void seg_end(bl_state *st, uint64_t seg_ns)
{
    if (!st->seg_open)
        return;
    struct bl__snapshot now;
    bl__disturb_read(&st->ctr, &now);
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

/* ---- the engine's decisions --------------------------------------------- */

/* bl_stats_median's, on a copy on the stack: the worker allocates nothing between batches */
static double median_of(const double *xs, int n)
{
    double tmp[64];
    memcpy(tmp, xs, (size_t)n * sizeof *tmp);
    bl_stats_sort(tmp, (size_t)n);
    return bl_stats_quantile_sorted(tmp, (size_t)n, 0.5);
}

static uint64_t reps_for(double target_ns, double per_op_ns)
{
    if (!(per_op_ns > 0))
        return 1;
    double r = target_ns / per_op_ns;
    if (r < 1)
        return 1;
    if (r > 1e12)
        return (uint64_t)1e12;
    return (uint64_t)llround(r);
}

static uint64_t jittered(struct bl__engine *e, uint64_t reps)
{
    if (reps < 10)
        return reps;
    double f = 1.0 + JITTER * (2.0 * bl__rng_unit(&e->rng) - 1.0);
    uint64_t r = (uint64_t)llround((double)reps * f);
    return r ? r : 1;
}

/* One batch of the whole group, as the runner sees it. */
struct batch {
    uint64_t reps, ns;
    struct bl__acc acc;
    uint32_t pauses;
    double ref_ns;        /* ns per reference step beside the batch; 0: not measured */
    double thread_cpu_ns; /* the threads' mean CPU time in their timed parts */
};

/* The batch as the runner's invalidation sees it. */
static bl_sample as_sample(const struct batch *b)
{
    bl_sample s = {.stage = BL_STAGE_MEASURE,
                   .ns = (double)b->ns,
                   .cpu_ns = (double)b->acc.cpu_ns,
                   .nivcsw = (uint32_t)b->acc.nivcsw,
                   .migrations = (uint32_t)b->acc.migrations,
                   .minflt = (uint32_t)b->acc.minflt,
                   .majflt = (uint32_t)b->acc.majflt};
    return s;
}

/* The runner's rule (results/results.c), applied as we go to count clean
 * batches: a reason most batches show so far is the benchmark's nature. */
static bool clean(struct bl__engine *e, const struct batch *b)
{
    bl_sample s = as_sample(b);
    unsigned why = bl__sample_judge(&s, 0), ignore = 0;
    for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
        e->reason_count[k] += (why >> k) & 1;
        if (bl__is_intrinsic(k, e->reason_count[k], e->n_measured))
            ignore |= 1u << k;
    }
    return (why & ~ignore) == 0;
}

static void send_batch(struct bl__engine *e, char stage, const struct batch *b)
{
    bl__send(e->fd, "s %c %llu %llu %lld %ld %lld %ld %ld %u %.6g", stage,
             (unsigned long long)b->reps, (unsigned long long)b->ns, (long long)b->acc.cpu_ns,
             b->acc.nivcsw, (long long)b->acc.migrations, b->acc.minflt, b->acc.majflt, b->pauses,
             b->ref_ns);
}

/*
 * Off-CPU time of a batch the scheduler took the CPU from (preempted,
 * migrated, or off CPU): it buys no clean measurement, so it is not
 * charged to the budget. `why` is the batch's judgement (bl_invalid
 * bits), with the reasons that are the benchmark's nature already left
 * out; faults alone do not count (a fault is spent on CPU).
 */
static bool add_stolen(struct bl__engine *e, const struct batch *b, unsigned why)
{
    const unsigned sched = BL_INVALID_CTXSW | BL_INVALID_MIGRATION | BL_INVALID_GAP;
    if ((why & sched) && b->ns > b->acc.cpu_ns)
        e->stolen_ns += b->ns - b->acc.cpu_ns;
    return (why & sched) != 0;
}

/*
 * The calling thread's time spent runnable but waiting for a CPU (the
 * second field of /proc/thread-self/schedstat, in ns): what other
 * processes took, wherever it fell, between batches too (on a loaded
 * machine a worker is often preempted right after it sends a batch and
 * wakes the runner: two thirds of a launch's stolen time fell there).
 * Sleeping by nature is not waiting. Returns false when it cannot be read.
 */
static bool sched_delay(struct bl__engine *e, uint64_t *delay)
{
    if (!e->sched_tried) {
        e->sched_tried = true;
        e->sched_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    }
    if (e->sched_fd < 0)
        return false;
    char buf[96];
    ssize_t got = pread(e->sched_fd, buf, sizeof buf - 1, 0);
    if (got <= 0)
        return false;
    buf[got] = '\0';
    char *end;
    (void)strtoull(buf, &end, 10);
    unsigned long long waited = strtoull(end, &end, 10);
    if (*end != ' ' && *end != '\n')
        return false;
    *delay = waited;
    return true;
}

/* Budget spent since `since` (when stolen_ns was `stolen_then`): wall time
 * less the stolen time in between. */
static double charged_ns(const struct bl__engine *e, uint64_t now, uint64_t since,
                         uint64_t stolen_then)
{
    uint64_t wall = now - since, stolen = e->stolen_ns - stolen_then;
    return (double)(wall > stolen ? wall - stolen : 0);
}

/* The wall time a worker may take to spend its budget on a loaded
 * machine: MAX_WALL budgets, but no more than a second beyond the 5 budgets
 * the runner's time limit was sized for (a launch of 10 s stops at 51 s,
 * below the 60 s default --timeout). */
static double wall_cap_ns(const struct bl__engine *e)
{
    double cap = MAX_WALL * e->budget_ns, old = 5 * e->budget_ns + 1e9;
    return cap < old ? cap : old;
}

/* An operation of LONG_OP_NS or more fills a batch on its own, so few
 * batches fit in the budget: it gets twice the budget (1 s per benchmark by
 * default), decided once, when its time per op is first known. */
static void long_op_budget(struct bl__engine *e, double per_op)
{
    if (per_op >= LONG_OP_NS)
        e->budget_ns *= 2;
}

/*
 * The time per operation that sizes batches: wall time per repetition, but
 * each thread's CPU time for a group of more threads (T) than CPUs (C),
 * where one repetition of each thread lasts T/C operations: sized by wall
 * time, a batch was one operation per thread, mostly barrier and waits
 * (docs/engine.md). A group that mostly waits (little CPU time) is bounded
 * to OVERSUB_WALL times a busy group's wall time. Manual time: as always.
 */
static double sizing_per_op(const struct bl__engine *e, const struct batch *b)
{
    double wall = (double)b->ns / (double)b->reps;
    if (!(e->oversubscribed > 1) || e->manual || !(b->thread_cpu_ns > 0))
        return wall;
    double cpu = b->thread_cpu_ns / (double)b->reps;
    double least = wall / (OVERSUB_WALL * e->oversubscribed);
    return cpu > least ? cpu : least;
}

/* Record the batch that just ended and move between stages. */
static void record(struct bl__engine *e, const struct batch *b)
{
    char stage_c = e->stage == STAGE_PILOT ? 'p' : e->stage == STAGE_WARMUP ? 'w' : 'm';
    send_batch(e, stage_c, b);

    double per_op = sizing_per_op(e, b);
    double size_ns = per_op * (double)b->reps; /* the batch's length as sizing sees it */
    uint64_t now = bl__now_ns();
    /* A group of one reads its wait for a CPU since the last boundary
     * (unless preemption is the benchmark's nature: most measured batches
     * show it); a group of threads charges the off-CPU part of each batch
     * it would discard, as does a kernel without schedstat. */
    uint64_t delay;
    bool by_sched = e->group_of_one && e->stage != STAGE_DRIVEN && sched_delay(e, &delay);
    if (by_sched) {
        if (e->sched_delay && delay > e->sched_delay &&
            !bl__is_intrinsic(CTXSW_BIT, e->reason_count[CTXSW_BIT], e->n_measured))
            e->stolen_ns += delay - e->sched_delay;
        e->sched_delay = delay;
    }
    bool off_cpu = false;
    if (e->stage == STAGE_MEASURE) {
        e->n_measured++;
        bool valid = clean(e, b);
        e->n_valid += valid;
        if (!valid && !by_sched) {
            bl_sample s = as_sample(b);
            add_stolen(e, b, bl__sample_judge(&s, 0));
        }
    } else if (e->stage != STAGE_DRIVEN) {
        bl_sample s = as_sample(b);
        unsigned why = bl__sample_judge(&s, 0);
        off_cpu = by_sched ? (why & (BL_INVALID_CTXSW | BL_INVALID_MIGRATION | BL_INVALID_GAP))
                           : add_stolen(e, b, why);
    }
    double elapsed = charged_ns(e, now, e->t_begin, 0);
    /* the bound of a machine so loaded that the budget is hardly charged
     * (a .warmup_s is not counted, as in the budget) */
    double wall = (double)(now - e->t_begin);
    if (e->stage == STAGE_PILOT || e->stage == STAGE_WARMUP)
        wall -= e->warmup_min_ns;
    bool wall_out = wall >= wall_cap_ns(e);
    switch (e->stage) {
    case STAGE_PILOT:
        if (size_ns >= 0.8 * e->target_ns || b->reps >= (uint64_t)1e12 ||
            elapsed > 0.5 * e->budget_ns || wall_out) {
            long_op_budget(e, per_op);
            e->reps = reps_for(e->target_ns, per_op);
            e->stage = STAGE_WARMUP;
            e->warm_begin = now;
            e->warm_stolen_ns = e->stolen_ns;
        } else {
            uint64_t next = size_ns < 1000 ? b->reps * 10 : reps_for(1.05 * e->target_ns, per_op);
            if (next < b->reps * 2)
                next = b->reps * 2;
            if (next > b->reps * 10)
                next = b->reps * 10;
            e->reps = next;
        }
        break;
    case STAGE_WARMUP: {
        if ((e->macro || e->given_reps) && e->n_warm == 0)
            long_op_budget(e, per_op); /* no pilot ran: decide it here */
        bl_sample s = as_sample(b);
        if (e->given_reps && !e->given_checked &&
            !(bl__sample_judge(&s, 0) & ~(unsigned)BL_INVALID_MINFLT)) {
            /* The tune file's size stands unless the first undisturbed
             * batch says the benchmark changed a lot (4x off what the pilot
             * would choose; a cold batch is often 2x slow): then we size
             * anew, and the runner writes the new size back. */
            e->given_checked = true;
            uint64_t fresh = reps_for(e->target_ns, per_op);
            if (e->given_reps > 4 * fresh || 4 * e->given_reps < fresh) {
                e->reps = fresh;
                bl__send(e->fd, "tune-stale %llu %llu", (unsigned long long)e->given_reps,
                         (unsigned long long)fresh);
            }
        }
        bool min_done = (double)(now - e->warm_begin) >= e->warmup_min_ns;
        if (e->n_warm == 64 && !min_done) { /* a long .warmup_s: keep the recent half */
            memmove(e->warm, e->warm + 32, 32 * sizeof *e->warm);
            e->n_warm = 32;
        }
        if (e->n_warm < 64)
            e->warm[e->n_warm++] = per_op;
        if (!off_cpu)
            e->warm_on_cpu[e->n_warm_on_cpu++ % 8] = per_op;
        /* a driven worker that was given its size (ab's later pairs) needs
         * only its caches and predictors warm: a shorter window */
        int w = size_ns >= 10 * e->target_ns      ? 1
                : e->cmd_fd >= 0 && e->given_reps ? BL__WARM_WINDOW_GIVEN
                                                  : BL__WARM_WINDOW;
        bool steady = false;
        if (e->n_warm >= 2 * w) {
            double last = median_of(e->warm + e->n_warm - w, w);
            double prev = median_of(e->warm + e->n_warm - 2 * w, w);
            steady = last >= 0.98 * prev;
        }
        double warm_ns = charged_ns(e, now, e->warm_begin, e->warm_stolen_ns);
        if (min_done && (steady || warm_ns >= e->warmup_min_ns + 0.25 * e->budget_ns ||
                         e->n_warm >= 64 || wall_out)) {
            /* the warm-up .warmup_s asked for is not charged to the budget */
            e->t_begin += (uint64_t)e->warmup_min_ns;
            /* The batch size from the recent warm batches that stayed on
             * CPU: one preempted for 3 ms looks 3x slow per op, and a
             * window of 4 on a loaded machine often held two (a Steady of
             * 385 ns/op was then measured in batches of 86 repetitions, not
             * 2600). All of them when none did (off CPU by nature). */
            double recent;
            if (e->n_warm_on_cpu > 0) {
                int k = e->n_warm_on_cpu < w ? e->n_warm_on_cpu : w > 8 ? 8 : w;
                double last_k[8];
                for (int i = 0; i < k; i++)
                    last_k[i] = e->warm_on_cpu[(e->n_warm_on_cpu - 1 - i) % 8];
                recent = median_of(last_k, k);
            } else {
                recent = median_of(e->warm + e->n_warm - (e->n_warm < w ? e->n_warm : w),
                                   e->n_warm < w ? e->n_warm : w);
            }
            e->reps = e->macro ? 1 : reps_for(e->target_ns, recent);
            e->stage = STAGE_MEASURE;
            if (e->cmd_fd >= 0) {
                e->stage = STAGE_DRIVEN;
                bl__send(e->fd, "ready %llu %.6g", (unsigned long long)e->reps, recent);
            } else if (!e->macro && !e->fixed_reps) {
                bl__send(e->fd, "tune %llu", (unsigned long long)e->reps); /* for --tune-file */
            }
        }
        break;
    }
    case STAGE_DRIVEN:
        /* the runner judges and decides; we only keep count */
        e->n_measured++;
        break;
    case STAGE_MEASURE: {
        bool stop = (elapsed >= e->budget_ns && e->n_valid >= MIN_CLEAN) ||
                    (elapsed >= 2 * e->budget_ns && e->n_valid >= 3) ||
                    elapsed >= 5 * e->budget_ns || wall_out || e->fixed_reps;
        /* all of an oversubscribed group's batches are off CPU, its nature
         * for the runner from 3 batches on: it gets 3 (within 2 s more) */
        if (stop && !e->fixed_reps && e->oversubscribed > 1 && e->n_measured < 3)
            stop = wall >= wall_cap_ns(e) + 2e9;
        e->stage = stop ? STAGE_DONE : e->stage; /* .iterations: one batch of exactly that */
        break;
    }
    default:
        break;
    }
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
static void combine(const struct bl__group *g, bool overhead, struct batch *out)
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
    uint64_t gap = 0, cpu_sum = 0;
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
        out->acc.migrations += a->migrations;
        out->acc.nivcsw += a->nivcsw;
        out->acc.minflt += a->minflt;
        out->acc.majflt += a->majflt;
    }
    out->acc.cpu_ns = out->ns > gap ? out->ns - gap : 0;
    out->thread_cpu_ns = (double)cpu_sum / g->n;
    if (g->eng->manual && !overhead) { /* the threads' mean, as Google Benchmark */
        uint64_t sum = 0;
        for (int i = 0; i < g->n; i++)
            sum += g->st[i]->batch_ns;
        out->ns = sum / (uint64_t)g->n;
        out->pauses = 0;
    }
}

/* This thread's part of the overhead batch: the empty loop, same size. */
static void run_overhead(bl_state *st, uint64_t reps)
{
    struct bl__snapshot a, b;
    bl__disturb_read(&st->ctr, &a);
    st->ovh_ns =
        bl__run_sub_batch(st->eng->overhead_fn, reps, st->per_op, &st->ovh_pauses, &st->ovh_first);
    bl__disturb_read(&st->ctr, &b);
    memset(&st->ovh_acc, 0, sizeof st->ovh_acc);
    acc_add(&st->ovh_acc, &a, &b);
}

/* Serial part of the rendezvous after the overhead batch. */
static void overhead_ended(void *ctx)
{
    struct bl__group *g = ctx;
    struct batch b;
    combine(g, true, &b);
    /* judged as the runner does; a group of one that reads its schedstat
     * has this batch's waits in its next boundary's account */
    if (g->eng->stage != STAGE_DRIVEN && !(g->eng->group_of_one && g->eng->sched_fd >= 0)) {
        bl_sample s = as_sample(&b);
        add_stolen(g->eng, &b, bl__sample_judge(&s, 0));
    }
    b.ref_ns = g->eng->ref_before;
    bool cold = g->eng->fixed_reps && !g->eng->ovh_warmed; /* ovh_warmed, state.h */
    send_batch(g->eng, g->eng->stage == STAGE_WARMUP || cold ? 'o' : 'O', &b);
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
    double *dst = base ? e->hw_base : e->hw_more;
    for (int c = 0; c < e->n_hw; c++) {
        dst[c] = 0;
        for (int i = 0; i < g->n; i++)
            dst[c] += g->st[i]->hw_vals[c];
    }
    for (int i = 0; i < g->n; i++)
        e->hw_scaled |= g->st[i]->hw_scaled;
}

/* The allocation batch that just ended: keep its counts, pick the next. */
static void record_alloc(struct bl__group *g, const struct batch *b)
{
    struct bl__engine *e = g->eng;
    switch (e->alloc_phase) {
    case ALLOC_WARM: {
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
        g->reps = e->alloc_phase == ALLOC_WARM   ? 1
                  : e->alloc_phase == ALLOC_BASE ? e->alloc_k
                                                 : e->alloc_k + e->alloc_d;
        e->counting = e->alloc_phase != ALLOC_WARM;
        if (e->counting && e->mode == MODE_ALLOC)
            e->alloc.begin(); /* each thread keeps its setup hook out (start_batch) */
    } else {
        uint64_t reps = e->stage == STAGE_PILOT    ? (e->reps ? e->reps : 1)
                        : e->stage == STAGE_DRIVEN ? e->reps
                        : e->fixed_reps            ? e->fixed_reps
                                                   : jittered(e, e->reps);
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
            struct batch b;
            combine(g, false, &b);
            if (e->mode == MODE_TIME && e->ref_before > 0) /* ... and right after it */
                b.ref_ns = 0.5 * (e->ref_before + bl__ref_measure(e));
            e->last_batch_ns = (double)b.ns;
            if (e->mode == MODE_TIME)
                record(e, &b);
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
        for (int k = g->eng->fixed_reps && !g->eng->ovh_warmed ? 0 : 1; k < 2; k++) {
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
    if (st->eng && st->eng->counting)
        counting_suspend(st, 0);
    st->paused = false;
    seg_begin(st);
    if (st->eng)
        start_clock(st);
    else
        st->t_start = bl__now_ns();
}
