/*
 * ab.c - `benchlab ab OLD NEW`: the paired runner that compares two builds.
 *
 * For each benchmark both builds define, in turn:
 *   1. start `pairs` process pairs (one OLD worker, one NEW worker each) in
 *      driven mode, one worker at a time, in random order within a pair;
 *      each runs its own pilot and warmup and says "ready", then blocks on
 *      its command pipe, so nothing of ours runs beside a measured batch;
 *   2. until the budget is spent: blocks, the pairs in a shuffled order per
 *      round, each block four batches of the same jittered size in ABBA or
 *      BAAB order (a fair coin), one "b REPS" command at a time;
 *   3. close the command pipes (the workers finish: cleanup, "done"), reap
 *      them and judge their batches (invalidation, overhead, as any launch);
 *   4. a block whose four batches are clean gives log(NEW/OLD); the
 *      statistic (stats/abstat.c) turns the blocks of all pairs into a
 *      ratio, its interval and a verdict.
 * The worker side is bench/state.c (STAGE_DRIVEN); spawning, the channel
 * and the judgement of a worker's end are worker_proc.c's and channel.c's.
 *
 * Invariant: every comparison that ended is in the report, with a verdict
 * or a message naming the build that failed; a failure in one comparison
 * never stops the next one. Only Ctrl-C ends the run early.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/base.h"
#include "../results/results_int.h"
#include "benchlab/ab.h"
#include "benchlab/env.h"
#include "benchlab/run.h"
#include "benchlab/stats.h"
#include "engine.h"

#define OLD 0
#define NEW 1
#define JITTER 0.10
/* Times a disturbed batch is measured again before its block is given up. */
#define MAX_RETRIES 3
/* After the budget, how long finishing workers may take before they are killed. */
#define END_GRACE_S 10.0

void bl_ab_options_init(bl_ab_options *o)
{
    memset(o, 0, sizeof *o);
    o->time_s = 1.0;
    o->threshold = 0.005;
    o->confidence = 0.95;
    o->pairs = 4;
    o->batch_ms = 1.0;
    o->timeout_s = 60.0;
    o->metric = BL_AB_METRIC_TIME;
}

/*
 * The message of a comparison that ran out of memory. Static, so that
 * running out of memory cannot also take the message away: every
 * comparison that ended has a verdict or a message (checked in
 * bl_ab_run). free_message() leaves it alone.
 */
static char out_of_memory[] = "out of memory";

static void free_message(char *message)
{
    if (message != out_of_memory)
        free(message);
}

void bl_ab_report_destroy(bl_ab_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_benches; i++) {
        free(r->benches[i].name);
        free_message(r->benches[i].message);
    }
    free(r->benches);
    bl_names_free(r->only_old, r->n_only_old);
    bl_names_free(r->only_new, r->n_only_new);
    free(r->old_exe);
    free(r->new_exe);
    free(r->cpu_model);
    free(r->date);
    free(r->host);
    free(r->env_warnings);
    free(r);
}

/* ---- one comparison ------------------------------------------------------------ */

struct proc {
    struct bl__worker w;
    bl_launch launch;
    bool started, ended;
    size_t n_judged, reason_count[BL_INVALID_NREASONS]; /* its driven batches so far */
};

/* Which batch of which worker each slot of a block was. */
struct block {
    size_t pair;
    bool b_first;
    size_t sample[4]; /* index into that worker's launch samples */
};

struct comparison {
    const bl_ab_options *o;
    const char *name;
    const char *exe[2];
    unsigned long long pin_mask; /* --cpu; 0: not pinned */
    struct bl__rng *rng;
    struct proc (*procs)[2]; /* [pair][OLD/NEW] */
    size_t n_pairs;
    struct block *blocks;
    size_t n_blocks, cap_blocks;
    bl_ab_bench *out;
    int stop; /* BL_EINTR once interrupted */
};

static const char *side_name(int side)
{
    return side == OLD ? "OLD" : "NEW";
}

static void set_msg(bl_ab_bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_msg(bl_ab_bench *b, const char *fmt, ...)
{
    if (b->message)
        return; /* the first reason wins */
    struct bl__buf m = {0};
    va_list ap;
    va_start(ap, fmt);
    int err = bl__buf_vprintf(&m, fmt, ap);
    va_end(ap);
    if (err)
        bl__buf_fini(&m);
    b->message = err ? out_of_memory : m.data;
}

/* The comparison could not go on for want of memory. */
static void failed_oom(bl_ab_bench *b)
{
    b->verdict = BL_AB_ERROR;
    if (!b->message)
        b->message = out_of_memory;
}

/* End a worker (reap and judge it) unless it has ended already. */
static void end_proc(struct comparison *c, struct proc *p, int side, int stop)
{
    if (!p->started || p->ended)
        return;
    bl__worker_end(&p->w, c->exe[side], stop, c->o->timeout_s);
    free(p->w.counters_line);
    p->ended = true;
}

/* A worker of `side` failed: the comparison's message names the build. */
static void proc_failed(struct comparison *c, struct proc *p, int side)
{
    bl_launch *l = &p->launch;
    if (l->skipped) {
        c->out->verdict = BL_AB_SKIPPED;
        set_msg(c->out, "skipped by the %s build: %s", side_name(side),
                l->message ? l->message : "no reason given");
        return;
    }
    c->out->verdict = BL_AB_ERROR;
    if (l->status)
        set_msg(c->out, "the %s build (%s): %s", side_name(side), c->exe[side],
                l->message ? l->message : bl_strerror(l->status));
    else
        set_msg(c->out, "the %s build (%s) ended before the comparison did", side_name(side),
                c->exe[side]);
}

/* Poll `p` until `done(p)` holds or it ends. true when done() holds. */
static bool pump_until(struct comparison *c, struct proc *p, int side,
                       bool (*done)(const struct bl__worker *, size_t), size_t arg)
{
    uint64_t deadline = p->w.t0 + (uint64_t)(c->o->timeout_s * 1e9);
    for (;;) {
        if (done(&p->w, arg))
            return true;
        int rc = bl__worker_poll(&p->w, deadline);
        if (rc > 0)
            continue;
        if (rc == BL_EINTR)
            c->stop = BL_EINTR;
        end_proc(c, p, side, rc == BL_ETIMEOUT || rc == BL_EINTR ? rc : 0);
        if (rc != BL_EINTR)
            proc_failed(c, p, side);
        return false;
    }
}

static bool is_ready(const struct bl__worker *w, size_t unused)
{
    (void)unused;
    return w->ready_reps > 0;
}

static bool has_measured(const struct bl__worker *w, size_t n)
{
    return w->n_measure_lines >= n;
}

/* Start one worker in driven mode and wait for its "ready". `reps` > 0:
 * the batch size a worker of the same build chose already, so this one
 * skips its pilot (as with --tune-file) and warms up on it. */
static bool start_proc(struct comparison *c, size_t pair, int side, double worker_time_s,
                       unsigned long long reps)
{
    struct proc *p = &c->procs[pair][side];
    memset(&p->launch, 0, sizeof p->launch);
    p->launch.ns_per_op = p->launch.raw_ns_per_op = p->launch.overhead_ns = NAN;
    char time_s[32], batch[32], seed_s[32], fd_s[8], cmd_s[8], reps_s[32];
    snprintf(time_s, sizeof time_s, "%.17g", worker_time_s);
    snprintf(batch, sizeof batch, "%.17g", c->o->batch_ms);
    snprintf(seed_s, sizeof seed_s, "%llu", (unsigned long long)(bl__rng_next(c->rng) | 1));
    snprintf(fd_s, sizeof fd_s, "%d", BL__CHANNEL_FD);
    snprintf(cmd_s, sizeof cmd_s, "%d", BL__COMMAND_FD);
    snprintf(reps_s, sizeof reps_s, "%llu", reps);
    char *argv[] = {(char *)c->exe[side],
                    (char *)"--benchlab-worker",
                    (char *)c->name,
                    (char *)"--benchlab-fd",
                    fd_s,
                    (char *)"--benchlab-time",
                    time_s,
                    (char *)"--benchlab-batch",
                    batch,
                    (char *)"--benchlab-seed",
                    seed_s,
                    (char *)"--benchlab-cmd-fd",
                    cmd_s,
                    reps ? (char *)"--benchlab-reps" : NULL,
                    reps_s,
                    NULL};
    struct bl__spawn_env env = {.pin_mask = c->pin_mask, .preload_fd = -1};
    if (bl__worker_start(&p->w, c->exe[side], argv, &env, true, &p->launch)) {
        proc_failed(c, p, side);
        return false;
    }
    p->started = true;
    if (!pump_until(c, p, side, is_ready, 0))
        return false;
    return true;
}

/* One measured batch of `reps` from the worker `side` of `pair`; its sample index. */
static bool run_batch(struct comparison *c, size_t pair, int side, unsigned long long reps,
                      size_t *sample)
{
    struct proc *p = &c->procs[pair][side];
    char cmd[48];
    snprintf(cmd, sizeof cmd, "b %llu", reps);
    size_t want = p->w.n_measure_lines + 1;
    if (bl__worker_command(&p->w, cmd) != 0) {
        /* it died: collect what it said and why */
        pump_until(c, p, side, has_measured, (size_t)-1);
        return false;
    }
    if (!pump_until(c, p, side, has_measured, want))
        return false;
    *sample = p->launch.n_samples - 1;
    return true;
}

static unsigned long long jittered(struct bl__rng *rng, unsigned long long reps)
{
    if (reps < 10)
        return reps;
    double f = 1.0 + JITTER * (2.0 * bl__rng_unit(rng) - 1.0);
    unsigned long long r = (unsigned long long)llround((double)reps * f);
    return r ? r : 1;
}

/* The common batch size: the geometric mean of the two builds' median
 * choices, so that neither build's batches are far from the target. */
static unsigned long long common_reps(struct comparison *c)
{
    double median[2];
    size_t n = c->n_pairs < 64 ? c->n_pairs : 64;
    for (int s = 0; s < 2; s++) {
        double r[64];
        for (size_t i = 0; i < n; i++)
            r[i] = (double)c->procs[i][s].w.ready_reps;
        bl_stats_sort(r, n);
        median[s] = bl_stats_quantile_sorted(r, n, 0.5);
    }
    double g = sqrt(median[OLD] * median[NEW]);
    unsigned long long reps = (unsigned long long)llround(g);
    return reps ? reps : 1;
}

/*
 * Whether the batch just measured would be discarded, by the rule
 * bl_launch_finish applies at the end (which stays the authority): a
 * reason that most of this worker's batches show so far is its nature.
 */
static bool disturbed(struct proc *p, size_t sample)
{
    const bl_sample *s = &p->launch.samples[sample];
    unsigned why = bl__sample_judge(s, 0), ignore = 0;
    p->n_judged++;
    for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
        p->reason_count[k] += (why >> k) & 1;
        if (p->reason_count[k] * 2 > p->n_judged)
            ignore |= 1u << k;
    }
    return (why & ~ignore) != 0;
}

static bool push_block(struct comparison *c, const struct block *b)
{
    if (bl__grow((void **)&c->blocks, &c->cap_blocks, c->n_blocks + 1, sizeof *b))
        return false;
    c->blocks[c->n_blocks++] = *b;
    return true;
}

/* Run blocks until the budget is spent. false when a worker failed. */
static bool run_blocks(struct comparison *c, uint64_t t_begin)
{
    unsigned long long reps = common_reps(c);
    uint64_t deadline = t_begin + (uint64_t)(c->o->time_s * 1e9);
    double block_ns = 0; /* the longest block so far */
    size_t *order = malloc(c->n_pairs * sizeof *order);
    if (!order) {
        failed_oom(c->out);
        return false;
    }
    bool ok = true;
    for (;;) {
        for (size_t i = 0; i < c->n_pairs; i++)
            order[i] = i;
        for (size_t i = c->n_pairs; i > 1; i--) { /* Fisher-Yates */
            size_t j = (size_t)(bl__rng_next(c->rng) % i);
            size_t t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        for (size_t k = 0; k < c->n_pairs; k++) {
            uint64_t now = bl__now_ns();
            if (now + (uint64_t)block_ns > deadline || bl__run_interrupted())
                goto out;
            struct block b = {.pair = order[k], .b_first = bl__rng_next(c->rng) & 1};
            unsigned long long r = jittered(c->rng, reps);
            for (int slot = 0; slot < 4; slot++) {
                bool second = slot == 1 || slot == 2;
                int side = (second != b.b_first) ? NEW : OLD;
                /* a disturbed batch is replaced at once, a few times at
                 * most, so that one preemption does not cost the block */
                int tries = 0;
                do {
                    if (!run_batch(c, b.pair, side, r, &b.sample[slot])) {
                        ok = false;
                        goto out;
                    }
                } while (disturbed(&c->procs[b.pair][side], b.sample[slot]) &&
                         ++tries < MAX_RETRIES);
            }
            double took = (double)(bl__now_ns() - now);
            if (took > block_ns)
                block_ns = took;
            if (!push_block(c, &b)) {
                failed_oom(c->out);
                ok = false;
                goto out;
            }
        }
    }
out:
    free(order);
    return ok;
}

/*
 * The compared value of one measured batch: time per op, or reference
 * cycles per op (the time divided by the reference chain's step timed
 * beside the batch), the worker's overhead per op subtracted (in cycles:
 * its median over the worker's median reference step). NAN when not
 * positive or, for cycles, when the batch has no reference.
 */
static double batch_value(const bl_launch *l, const bl_sample *s, int metric)
{
    double ns = s->ns - (double)s->pauses * l->pause_ns;
    double per_op = ns / (double)s->reps;
    double ovh = isnan(l->overhead_ns) ? 0 : l->overhead_ns;
    if (metric == BL_AB_METRIC_REF_CYCLES) {
        if (!(s->ref_ns > 0) || !(l->ref_ns > 0))
            return NAN;
        per_op /= s->ref_ns;
        ovh /= l->ref_ns;
    }
    per_op -= ovh;
    return per_op > 0 ? per_op : NAN;
}

/* Medians of one side's clean batches, in time and in cycles; the number
 * of batches with a reference. */
static size_t side_summary(struct comparison *c, int side, bl_ab_side *out)
{
    size_t cap = 0, n = 0, n_cyc = 0, with_ref = 0;
    for (size_t p = 0; p < c->n_pairs; p++)
        cap += c->procs[p][side].launch.n_samples;
    double *v = malloc((cap ? cap : 1) * sizeof *v);
    double *cyc = malloc((cap ? cap : 1) * sizeof *cyc);
    out->ns_per_op = out->ref_cycles_per_op = NAN;
    out->n_batches = out->n_invalid = 0;
    for (size_t p = 0; p < c->n_pairs; p++) {
        const bl_launch *l = &c->procs[p][side].launch;
        for (size_t i = 0; i < l->n_samples; i++) {
            const bl_sample *s = &l->samples[i];
            if (s->stage != BL_STAGE_MEASURE)
                continue;
            out->n_batches++;
            with_ref += s->ref_ns > 0;
            if (s->invalid) {
                out->n_invalid++;
                continue;
            }
            double x = batch_value(l, s, BL_AB_METRIC_TIME);
            if (v && !isnan(x))
                v[n++] = x;
            x = batch_value(l, s, BL_AB_METRIC_REF_CYCLES);
            if (cyc && !isnan(x))
                cyc[n_cyc++] = x;
        }
    }
    if (v && n)
        out->ns_per_op = bl_stats_median(v, n);
    if (cyc && n_cyc)
        out->ref_cycles_per_op = bl_stats_median(cyc, n_cyc);
    free(v);
    free(cyc);
    return with_ref;
}

/* Blocks to log-ratios grouped by pair, then the estimate and verdict. */
static void analyse(struct comparison *c)
{
    bl_ab_bench *b = c->out;
    b->n_blocks = c->n_blocks;
    size_t with_ref[2] = {side_summary(c, OLD, &b->old_side), side_summary(c, NEW, &b->new_side)};
    for (int side = 0; side < 2 && c->o->metric == BL_AB_METRIC_REF_CYCLES; side++) {
        if (with_ref[side] == 0 && c->n_blocks > 0) {
            b->verdict = BL_AB_ERROR;
            set_msg(b,
                    "the %s build (%s) does not time the reference chain (built with a "
                    "libbenchlab older than ref-cycles): compare --metric time",
                    side_name(side), c->exe[side]);
            return;
        }
    }
    double *d = malloc((c->n_blocks ? c->n_blocks : 1) * sizeof *d);
    size_t *per = calloc(c->n_pairs ? c->n_pairs : 1, sizeof *per);
    if (!d || !per) {
        free(d);
        free(per);
        failed_oom(b);
        return;
    }
    size_t n = 0;
    for (size_t p = 0; p < c->n_pairs; p++) {
        for (size_t k = 0; k < c->n_blocks; k++) {
            const struct block *blk = &c->blocks[k];
            if (blk->pair != p)
                continue;
            double x[4];
            bool clean = true;
            for (int slot = 0; slot < 4 && clean; slot++) {
                bool second = slot == 1 || slot == 2;
                int side = (second != blk->b_first) ? NEW : OLD;
                const bl_launch *l = &c->procs[p][side].launch;
                const bl_sample *s = &l->samples[blk->sample[slot]];
                double v = s->invalid ? NAN : batch_value(l, s, c->o->metric);
                clean = !isnan(v);
                x[slot] = clean ? log(v) : 0;
            }
            if (!clean)
                continue;
            d[n++] = bl_ab_block_log_ratio(x, blk->b_first);
            per[p]++;
        }
    }
    b->n_clean_blocks = n;
    int err = bl_ab_estimate_groups(d, per, c->n_pairs, c->o->confidence, &b->est);
    if (err == 0) {
        b->verdict = bl_ab_judge(&b->est, c->o->threshold);
    } else {
        b->verdict = BL_AB_TOO_FEW;
        set_msg(b,
                "budget too small for a verdict: %zu clean blocks of %zu, in %zu process pairs "
                "with %d or more (need %d such pairs); raise --time",
                n, c->n_blocks, b->est.n_groups, BL_AB_MIN_BLOCKS_PER_GROUP, BL_AB_MIN_GROUPS);
    }
    free(d);
    free(per);
}

static void compare_one(const bl_ab_options *o, unsigned long long pin_mask, const char *name,
                        struct bl__rng *rng, bl_ab_bench *out, int *stop)
{
    uint64_t t_begin = bl__now_ns();
    struct comparison c = {.o = o,
                           .name = name,
                           .exe = {o->old_exe, o->new_exe},
                           .pin_mask = pin_mask,
                           .rng = rng,
                           .out = out};
    c.n_pairs = (size_t)(o->pairs > 0 ? o->pairs : 1);
    c.procs = calloc(c.n_pairs, sizeof *c.procs);
    out->verdict = BL_AB_ERROR;
    out->old_side.ns_per_op = out->old_side.ref_cycles_per_op = NAN;
    out->new_side.ns_per_op = out->new_side.ref_cycles_per_op = NAN;
    out->old_side.instructions_per_op = out->new_side.instructions_per_op = NAN;
    if (!c.procs) {
        failed_oom(out);
        return;
    }
    /* Each worker's own budget bounds its pilot and warmup (a quarter of
     * it): all of them together stay within half the comparison's budget. */
    double worker_time_s = o->time_s / (double)c.n_pairs;
    bool ok = true;
    /* The first pair's workers run their pilots; the later ones start on
     * the batch size their build's first worker chose (it stands unless
     * its first clean batch is 4x off, as a --tune-file size) and warm up
     * briefly: the start-up of a pair is the budget's price of a degree of
     * freedom, and the pilots would only choose the same size again. */
    for (size_t p = 0; p < c.n_pairs && ok; p++) {
        int first = (int)(bl__rng_next(rng) & 1);
        unsigned long long r[2] = {0, 0};
        for (int s = 0; s < 2 && p > 0; s++)
            r[s] = c.procs[0][s].w.ready_reps;
        ok = start_proc(&c, p, first, worker_time_s, r[first]) &&
             start_proc(&c, p, !first, worker_time_s, r[!first]);
        out->n_pairs = p + 1;
    }
    out->start_s = (double)(bl__now_ns() - t_begin) / 1e9;
    if (ok)
        ok = run_blocks(&c, t_begin);

    if (bl__run_interrupted())
        c.stop = BL_EINTR;
    /* End every worker: closing the command pipe ends its loop. */
    for (size_t p = 0; p < c.n_pairs; p++) {
        for (int s = 0; s < 2; s++) {
            struct proc *pr = &c.procs[p][s];
            if (!pr->started || pr->ended)
                continue;
            if (c.stop) {
                end_proc(&c, pr, s, c.stop);
                continue;
            }
            bl__worker_command(&pr->w, "q");
            uint64_t deadline = bl__now_ns() + (uint64_t)(END_GRACE_S * 1e9);
            int rc;
            while ((rc = bl__worker_poll(&pr->w, deadline)) > 0) {
            }
            end_proc(&c, pr, s, rc < 0 ? rc : 0);
            if (ok && (pr->launch.status || pr->launch.skipped)) {
                ok = false;
                proc_failed(&c, pr, s);
            }
        }
    }
    if (ok && !c.stop)
        analyse(&c);
    out->wall_s = (double)(bl__now_ns() - t_begin) / 1e9;
    for (size_t p = 0; p < c.n_pairs; p++)
        for (int s = 0; s < 2; s++)
            if (c.procs[p][s].started)
                bl__launch_fini(&c.procs[p][s].launch);
    free(c.procs);
    free(c.blocks);
    if (c.stop)
        *stop = c.stop;
}

/* ---- instruction counts ------------------------------------------------------------- */

/* A side's failed count: the verdict and the message naming the build. */
static void count_failed(bl_ab_bench *out, int side, const bl_launch *l)
{
    struct bl__buf m = {0};
    bl__buf_printf(&m, "%s: %s", side_name(side), l->message ? l->message : bl_strerror(l->status));
    out->message = m.data;
    out->verdict = l->skipped ? BL_AB_SKIPPED : BL_AB_ERROR;
}

/*
 * --metric instructions: `pairs` counts of each build under callgrind, in
 * alternating order, each the same repetitions (the first count of a build
 * chooses them). Counts are exact: the estimate is the median of the
 * pairs' log-ratios and its interval their range, which a deterministic
 * build makes one point; bl_ab_judge applies the threshold as for time.
 */
static void compare_counts(const bl_ab_options *o, unsigned long long pin_mask, const char *name,
                           const struct bl__instr *in, bl_ab_bench *out, int *stop)
{
    uint64_t t_begin = bl__now_ns();
    bl_run_options ro;
    bl_run_options_init(&ro);
    ro.timeout_s = o->timeout_s;
    ro.time_s = o->time_s;
    ro.count = 1;
    ro.instructions = 1;
    struct bl__launcher la[2] = {{o->old_exe, &ro, pin_mask}, {o->new_exe, &ro, pin_mask}};
    unsigned long long reps[2] = {0, 0};
    size_t n = (size_t)(o->pairs > 0 ? o->pairs : 1);
    double *v = calloc(2 * n, sizeof *v), *d = calloc(n, sizeof *d);
    out->old_side.ns_per_op = out->old_side.ref_cycles_per_op = NAN;
    out->new_side.ns_per_op = out->new_side.ref_cycles_per_op = NAN;
    out->old_side.instructions_per_op = out->new_side.instructions_per_op = NAN;
    out->verdict = BL_AB_ERROR;
    if (!v || !d) {
        free(v), free(d);
        failed_oom(out);
        return;
    }
    bool ok = true;
    for (size_t p = 0; p < n && ok; p++) {
        for (int k = 0; k < 2 && ok; k++) {
            int s = (int)(p + (size_t)k) % 2; /* OLD first, then NEW first, ... */
            bl_launch l;
            memset(&l, 0, sizeof l);
            bl__pass_instructions(&la[s], in, 1, name, &reps[s], &l);
            if (bl__run_interrupted()) {
                *stop = BL_EINTR;
                ok = false;
            } else if (l.status || l.skipped) {
                count_failed(out, s, &l);
                ok = false;
            }
            for (size_t m = 0; ok && m < l.n_metrics; m++)
                if (strcmp(l.metrics[m].unit, "instructions/op") == 0)
                    v[(size_t)s * n + p] = l.metrics[m].value;
            bl__launch_fini(&l);
        }
        out->n_pairs = p + 1;
    }
    if (ok) {
        for (size_t p = 0; p < n; p++) {
            double a = v[p], b = v[n + p];
            /* an empty body counts 0: a half instruction beside it keeps
             * the ratio finite (0 and 0 are the same) */
            d[p] = a > 0 && b > 0 ? log(b / a) : log((b + 0.5) / (a + 0.5));
        }
        out->old_side.instructions_per_op = bl_stats_median(v, n);
        out->new_side.instructions_per_op = bl_stats_median(v + n, n);
        bl_ab_estimate *e = &out->est;
        e->log_ratio = bl_stats_median(d, n);
        e->log_lo = e->log_hi = d[0];
        for (size_t p = 1; p < n; p++) {
            e->log_lo = d[p] < e->log_lo ? d[p] : e->log_lo;
            e->log_hi = d[p] > e->log_hi ? d[p] : e->log_hi;
        }
        e->ratio = exp(e->log_ratio), e->lo = exp(e->log_lo), e->hi = exp(e->log_hi);
        e->confidence = o->confidence;
        e->n_groups = n;
        e->n_blocks = n;
        out->n_blocks = out->n_clean_blocks = n;
        out->verdict = bl_ab_judge(e, o->threshold);
    }
    out->wall_s = (double)(bl__now_ns() - t_begin) / 1e9;
    free(v), free(d);
}

/* ---- the run ------------------------------------------------------------------------ */

static bool in_list(char **v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], name) == 0)
            return true;
    return false;
}

/* Names of `a` that `b` lacks, copied. */
static int missing(char **a, size_t na, char **b, size_t nb, char ***out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    size_t cap = 0;
    for (size_t i = 0; i < na; i++) {
        if (in_list(b, nb, a[i]))
            continue;
        if (bl__grow((void **)out, &cap, *n_out + 1, sizeof **out))
            return -ENOMEM;
        if (!((*out)[*n_out] = bl__strdup(a[i])))
            return -ENOMEM;
        (*n_out)++;
    }
    return 0;
}

static void fill_header(bl_ab_report *r, const bl_ab_options *o)
{
    r->old_exe = bl__strdup(o->old_exe);
    r->new_exe = bl__strdup(o->new_exe);
    r->cpu_model = bl__strdup(bl__sys_cpu_model());
    r->host = bl__strdup(bl__sys_hostname());
    char date[64];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    r->date = bl__strdup(date);
    r->metric = o->metric;
    r->threshold = o->threshold;
    r->confidence = o->confidence;
    r->time_s = o->time_s;
    r->pairs = o->pairs;
    r->env_warnings = bl__env_warnings();
}

static int check_options(bl_ab_options *o, unsigned long long *pin_mask, char *err, size_t errsize)
{
    if (!o->old_exe || !o->new_exe) {
        snprintf(err, errsize, "name two builds: OLD and NEW");
        return BL_EUSAGE;
    }
    if (!(o->time_s > 0))
        o->time_s = 1.0;
    if (!(o->batch_ms > 0))
        o->batch_ms = 1.0;
    if (!(o->timeout_s > 0))
        o->timeout_s = 60.0;
    if (o->pairs < 1)
        o->pairs = 4;
    if (!(o->confidence > 0 && o->confidence < 1)) {
        snprintf(err, errsize, "the confidence must be between 0 and 1 (not %g)", o->confidence);
        return BL_EUSAGE;
    }
    if (!(o->threshold >= 0)) {
        snprintf(err, errsize, "the threshold must be 0 or more (not %g)", o->threshold);
        return BL_EUSAGE;
    }
    if (o->metric != BL_AB_METRIC_TIME && o->metric != BL_AB_METRIC_REF_CYCLES &&
        o->metric != BL_AB_METRIC_INSTRUCTIONS) {
        snprintf(err, errsize, "unknown metric %d", o->metric);
        return BL_EUSAGE;
    }
    const char *exes[2] = {o->old_exe, o->new_exe};
    for (int i = 0; i < 2; i++) {
        if (access(exes[i], X_OK) != 0) {
            int e = -errno;
            snprintf(err, errsize, "%s (%s): %s", exes[i], side_name(i), strerror(errno));
            return e;
        }
    }
    return bl__cpus_mask(o->cpus, pin_mask, err, errsize);
}

int bl_ab_run(const bl_ab_options *opts, const bl_ab_observer *obs, bl_ab_report **report,
              char *err, size_t errsize)
{
    *report = NULL;
    bl_ab_options o = *opts;
    unsigned long long pin_mask = 0;
    int rc = check_options(&o, &pin_mask, err, errsize);
    if (rc)
        return rc;
    char **names[2] = {NULL, NULL};
    long n[2];
    for (int s = 0; s < 2; s++) {
        struct bl__spawn_env le = {.pin_mask = pin_mask, .preload_fd = -1};
        n[s] = bl__list_suite(s == OLD ? o.old_exe : o.new_exe, o.filter, &le, &names[s], NULL,
                              NULL, err, errsize);
        if (n[s] < 0) {
            if (s == NEW)
                bl_names_free(names[OLD], (size_t)n[OLD]);
            return (int)n[s];
        }
    }
    bl_ab_report *r = calloc(1, sizeof *r);
    size_t n_common = 0;
    for (long i = 0; i < n[OLD]; i++)
        n_common += in_list(names[NEW], (size_t)n[NEW], names[OLD][i]);
    if (!r ||
        missing(names[OLD], (size_t)n[OLD], names[NEW], (size_t)n[NEW], &r->only_old,
                &r->n_only_old) ||
        missing(names[NEW], (size_t)n[NEW], names[OLD], (size_t)n[OLD], &r->only_new,
                &r->n_only_new) ||
        !(r->benches = calloc(n_common ? n_common : 1, sizeof *r->benches))) {
        bl_ab_report_destroy(r);
        bl_names_free(names[OLD], (size_t)n[OLD]);
        bl_names_free(names[NEW], (size_t)n[NEW]);
        return -ENOMEM;
    }
    fill_header(r, &o);
    *report = r;
    if (n_common == 0) {
        snprintf(err, errsize, "%s and %s have no benchmark in common%s%s%s (OLD has %ld, NEW %ld)",
                 o.old_exe, o.new_exe, o.filter ? " matching --filter '" : "",
                 o.filter ? o.filter : "", o.filter ? "'" : "", n[OLD], n[NEW]);
        bl_names_free(names[OLD], (size_t)n[OLD]);
        bl_names_free(names[NEW], (size_t)n[NEW]);
        return BL_ENOTFOUND;
    }
    struct bl__rng rng;
    bl__rng_seed(&rng, o.seed ? o.seed : bl__now_ns() ^ (uint64_t)getpid());
    struct bl__instr instr;
    if (o.metric == BL_AB_METRIC_INSTRUCTIONS) {
        bl_run_options ro;
        bl_run_options_init(&ro);
        bl_results *meta = bl_results_create();
        for (int s = 0; s < 2 && !rc; s++) /* valgrind, and each build, before measuring */
            rc = meta ? bl__instr_setup(&instr, &ro, s == OLD ? o.old_exe : o.new_exe, meta, err,
                                        errsize)
                      : -ENOMEM;
        bl_results_destroy(meta);
        if (rc) {
            bl_names_free(names[OLD], (size_t)n[OLD]);
            bl_names_free(names[NEW], (size_t)n[NEW]);
            return rc;
        }
    }
    if (obs && obs->on_begin)
        obs->on_begin(obs->ctx, r, n_common);
    int stop = 0;
    size_t index = 0;
    for (long i = 0; i < n[OLD] && !stop; i++) {
        const char *name = names[OLD][i];
        if (!in_list(names[NEW], (size_t)n[NEW], name))
            continue;
        if (obs && obs->on_start)
            obs->on_start(obs->ctx, name, index, n_common);
        index++;
        bl_ab_bench *b = &r->benches[r->n_benches];
        memset(b, 0, sizeof *b);
        b->name = bl__strdup(name);
        if (o.metric == BL_AB_METRIC_INSTRUCTIONS)
            compare_counts(&o, pin_mask, name, &instr, b, &stop);
        else
            compare_one(&o, pin_mask, name, &rng, b, &stop);
        if (stop) {
            free(b->name);
            free_message(b->message);
            break; /* an interrupted comparison has no verdict: drop it */
        }
        /* the invariant at the top of this file: a comparison that ended
         * has a verdict, or a message saying why it has none */
        BL__CHECK(b->verdict != BL_AB_ERROR || b->message != NULL);
        BL__CHECK(b->verdict != BL_AB_TOO_FEW || b->message != NULL);
        BL__CHECK(b->verdict != BL_AB_SKIPPED || b->message != NULL);
        r->n_benches++;
        if (b->verdict == BL_AB_ERROR || b->verdict == BL_AB_TOO_FEW)
            rc = 1;
        if (obs && obs->on_bench)
            obs->on_bench(obs->ctx, r, b);
    }
    bl_names_free(names[OLD], (size_t)n[OLD]);
    bl_names_free(names[NEW], (size_t)n[NEW]);
    if (stop) {
        r->interrupted = true;
        return BL_EINTR;
    }
    return rc;
}
