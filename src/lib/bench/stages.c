/*
 * stages.c - the engine's decisions at a batch boundary: bl__stage_record() sends the
 * batch that just ended and moves between the stages (pilot, warmup,
 * measurement; state.c describes them), sizes the next batch, and charges
 * the budget (less the time others had our CPU). Called in the group's
 * serial part (state.c), so one thread runs it while the others wait.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../results/results_int.h"
#include "benchlab/stats.h"
#include "state.h"

#define MIN_CLEAN 10
#define JITTER 0.10
#define LONG_OP_NS 5e6
#define MAX_WALL 20
#define OVERSUB_WALL 4 /* an oversubscribed batch: at most 4x the ideal wall time */
#define CTXSW_BIT 0    /* BL_INVALID_CTXSW is 1u << 0 */

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

uint64_t bl__jittered(struct bl__engine *e, uint64_t reps)
{
    if (reps < 10)
        return reps;
    double f = 1.0 + JITTER * (2.0 * bl__rng_unit(&e->rng) - 1.0);
    uint64_t r = (uint64_t)llround((double)reps * f);
    return r ? r : 1;
}

/* The batch as the runner's invalidation sees it. */
bl_sample bl__batch_sample(const struct bl__batch *b)
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
static bool clean(struct bl__engine *e, const struct bl__batch *b)
{
    bl_sample s = bl__batch_sample(b);
    unsigned why = bl__sample_judge(&s, 0), ignore = 0;
    for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
        e->reason_count[k] += (why >> k) & 1;
        if (bl__is_intrinsic(k, e->reason_count[k], e->n_measured))
            ignore |= 1u << k;
    }
    return (why & ~ignore) == 0;
}

void bl__batch_send(struct bl__engine *e, char stage, const struct bl__batch *b)
{
    /* CPU_NS is the benchmark threads' on-CPU time, which the invalidation
     * reads whatever the clock of cpu/op; with .process_cpu the process's
     * CPU time per thread follows as an 11th field (older runners ignore it) */
    char proc[32] = "";
    if (e->process_cpu)
        snprintf(proc, sizeof proc, " %lld", (long long)b->acc.proc_ns);
    bl__send(e->fd, "s %c %llu %llu %lld %ld %lld %ld %ld %u %.6g%s", stage,
             (unsigned long long)b->reps, (unsigned long long)b->ns, (long long)b->acc.cpu_ns,
             b->acc.nivcsw, (long long)b->acc.migrations, b->acc.minflt, b->acc.majflt, b->pauses,
             b->ref_ns, proc);
}

/*
 * Off-CPU time of a batch the scheduler took the CPU from (preempted,
 * migrated, or off CPU): it buys no clean measurement, so it is not
 * charged to the budget. `why` is the batch's judgement (bl_invalid
 * bits), with the reasons that are the benchmark's nature already left
 * out; faults alone do not count (a fault is spent on CPU).
 */
bool bl__add_stolen(struct bl__engine *e, const struct bl__batch *b, unsigned why)
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
static double sizing_per_op(const struct bl__engine *e, const struct bl__batch *b)
{
    double wall = (double)b->ns / (double)b->reps;
    if (!(e->oversubscribed > 1) || e->manual || !(b->thread_cpu_ns > 0))
        return wall;
    double cpu = b->thread_cpu_ns / (double)b->reps;
    double least = wall / (OVERSUB_WALL * e->oversubscribed);
    return cpu > least ? cpu : least;
}

/*
 * The window of the warmup's steady-state rule: one batch for an operation
 * whose batches all last over 10x the target, judged by the fastest warm
 * batch, not the one that just ended; or a single batch slowed that much
 * (host steal, preemption) was found steady against the one before and
 * sized the measurement alone (a Drifts launch of 430 ns/op was measured
 * in batches of 3 repetitions, not 2300). A driven worker that was given
 * its size (ab's later pairs) needs only its caches and predictors warm: a
 * shorter window.
 */
static int warm_window(const struct bl__engine *e, const struct bl__batch *b)
{
    double fastest = e->warm[0];
    for (int i = 1; i < e->n_warm; i++)
        fastest = e->warm[i] < fastest ? e->warm[i] : fastest;
    if (fastest * (double)b->reps >= 10 * e->target_ns)
        return 1;
    return e->cmd_fd >= 0 && e->given_reps ? BL__WARM_WINDOW_GIVEN : BL__WARM_WINDOW;
}

/*
 * The warm time per op that sizes the measurement: the median of the recent
 * warm batches that stayed on CPU; one preempted for 3 ms looks 3x slow
 * per op, and a window of 4 on a loaded machine often held two (a Steady
 * of 385 ns/op was then measured in batches of 86 repetitions, not 2600).
 * All of them when none did (off CPU by nature). From fewer than 3
 * batches (a warmup cut short by its quarter of the budget), never slower
 * than the size the pilot or the tune file chose: a single warm batch
 * slowed by the host (steal shows no context switch) would size the
 * measurement alone (a long operation is sized 1 either way). Not for a
 * driven worker: its "ready" reports the warm time itself.
 */
static double warm_per_op(const struct bl__engine *e, int w)
{
    double recent;
    int k;
    if (e->n_warm_on_cpu > 0) {
        k = e->n_warm_on_cpu < w ? e->n_warm_on_cpu : w > 8 ? 8 : w;
        double last_k[8];
        for (int i = 0; i < k; i++)
            last_k[i] = e->warm_on_cpu[(e->n_warm_on_cpu - 1 - i) % 8];
        recent = median_of(last_k, k);
    } else {
        k = e->n_warm < w ? e->n_warm : w;
        recent = median_of(e->warm + e->n_warm - k, k);
    }
    double planned = e->reps ? e->target_ns / (double)e->reps : recent;
    bool few = k < 3 && e->cmd_fd < 0;
    return few && planned < recent ? planned : recent;
}

/* Record the batch that just ended and move between stages. */
void bl__stage_record(struct bl__engine *e, const struct bl__batch *b)
{
    char stage_c = e->stage == STAGE_PILOT ? 'p' : e->stage == STAGE_WARMUP ? 'w' : 'm';
    bl__batch_send(e, stage_c, b);

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
            bl_sample s = bl__batch_sample(b);
            bl__add_stolen(e, b, bl__sample_judge(&s, 0));
        }
    } else if (e->stage != STAGE_DRIVEN) {
        bl_sample s = bl__batch_sample(b);
        unsigned why = bl__sample_judge(&s, 0);
        off_cpu = by_sched ? (why & (BL_INVALID_CTXSW | BL_INVALID_MIGRATION | BL_INVALID_GAP))
                           : bl__add_stolen(e, b, why);
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
        bl_sample s = bl__batch_sample(b);
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
        int w = warm_window(e, b);
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
            double recent = warm_per_op(e, w);
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
