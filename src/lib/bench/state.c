/*
 * state.c - the measured loop: what happens when bl_loop() leaves its fast
 * path, and the functions a benchmark body calls.
 *
 * One call of the benchmark function runs the whole measurement: the slow
 * path of bl_loop() ends a batch (clock read first, then everything else),
 * sends it to the runner at once, decides the next batch and starts it
 * (clock read last). The stages, after BenchmarkDotNet and BenchmarkTools:
 *
 *   pilot    batches of 1, then x2..x10 repetitions, until a batch lasts
 *            about the target (1 ms by default): the repetitions per batch
 *            that make the two clock reads negligible (< 0.01% at 28 ns).
 *   warmup   batches of that size until the per-op time stops falling:
 *            the median of the last 4 batches is no better than 98% of the
 *            4 before, or a quarter of the budget is spent.
 *   measure  batches until the budget is spent with >= 10 clean batches
 *            (or 2x the budget with >= 3; at 5x we stop and the runner
 *            flags the benchmark).
 *
 * Every warmup and measured batch is preceded by an overhead batch of the
 * same size: the benchmark's empty loop (compiled in the user's file by
 * BENCHLAB()), so the overhead is sampled under the same drift as the
 * workload. Batch sizes are jittered by +-10% (Caliper) so periodic
 * effects do not alias with the batch length.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../results/results_int.h"
#include "state.h"

#define MIN_CLEAN 10
#define JITTER 0.10

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

void bl__state_init(bl_state *st, int kind, const struct bl__instance *inst,
                    struct bl__engine *eng)
{
    memset(st, 0, sizeof *st);
    st->kind = kind;
    st->inst = inst;
    st->eng = eng;
    if (inst)
        st->per_op = inst->def->setup_op || inst->def->teardown_op || inst->def->macro;
}

static inline void start_clock(bl_state *st)
{
    st->t_start = bl__now_ns();
}

/* Disturbance counters around each timed segment, read outside it: right
 * before its clock start and right after its clock stop. */
static void seg_begin(bl_state *st)
{
    if (!st->eng || st->eng->mode != MODE_TIME)
        return;
    bl__counters_read(&st->eng->counters, &st->before);
    st->seg_open = true;
}

static void seg_end(bl_state *st)
{
    if (!st->seg_open)
        return;
    struct bl__snapshot now;
    bl__counters_read(&st->eng->counters, &now);
    st->acc.cpu_ns += now.cpu_ns - st->before.cpu_ns;
    st->acc.migrations += now.migrations != st->before.migrations; /* also right without perf */
    st->acc.nivcsw += now.nivcsw - st->before.nivcsw;
    st->acc.minflt += now.minflt - st->before.minflt;
    st->acc.majflt += now.majflt - st->before.majflt;
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

uint64_t bl__run_sub_batch(bl_bench_fn fn, uint64_t reps, bool per_op, uint32_t *pauses)
{
    bl_state sub;
    bl__state_init(&sub, ST_SUB, NULL, NULL);
    sub.per_op = per_op;
    sub.batch_reps = reps;
    fn(&sub);
    if (pauses)
        *pauses = sub.pauses;
    return sub.batch_ns;
}

/* ---- the engine's decisions --------------------------------------------- */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *xs, int n)
{
    double tmp[64];
    memcpy(tmp, xs, (size_t)n * sizeof *tmp);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_d);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
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

/* The runner's rule (results/results.c), applied as we go to count clean
 * batches: a reason most batches show so far is the benchmark's nature. */
static bool clean(struct bl__engine *e, const bl_state *st)
{
    bl_sample s = {.stage = BL_STAGE_MEASURE,
                   .ns = (double)st->batch_ns,
                   .cpu_ns = (double)st->acc.cpu_ns,
                   .nivcsw = (uint32_t)st->acc.nivcsw,
                   .migrations = (uint32_t)st->acc.migrations,
                   .minflt = (uint32_t)st->acc.minflt,
                   .majflt = (uint32_t)st->acc.majflt};
    unsigned why = bl__sample_judge(&s, 0), ignore = 0;
    for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
        e->reason_count[k] += (why >> k) & 1;
        if (e->reason_count[k] * 2 > e->n_measured)
            ignore |= 1u << k;
    }
    return (why & ~ignore) == 0;
}

/* Record the batch that just ended and move between stages. */
static void record(bl_state *st)
{
    struct bl__engine *e = st->eng;
    char stage_c = e->stage == STAGE_PILOT    ? 'p'
                   : e->stage == STAGE_WARMUP ? 'w'
                                              : 'm';
    bl__send(e->fd, "s %c %llu %llu %lld %ld %lld %ld %ld %u", stage_c,
             (unsigned long long)st->batch_reps, (unsigned long long)st->batch_ns,
             (long long)st->acc.cpu_ns, st->acc.nivcsw, (long long)st->acc.migrations,
             st->acc.minflt, st->acc.majflt, st->pauses);

    double per_op = (double)st->batch_ns / (double)st->batch_reps;
    uint64_t now = bl__now_ns();
    double elapsed = (double)(now - e->t_begin);
    switch (e->stage) {
    case STAGE_PILOT:
        if ((double)st->batch_ns >= 0.8 * e->target_ns || st->batch_reps >= (uint64_t)1e12 ||
            elapsed > 0.5 * e->budget_ns) {
            e->reps = reps_for(e->target_ns, per_op);
            e->stage = STAGE_WARMUP;
            e->warm_begin = now;
        } else {
            uint64_t next = st->batch_ns < 1000 ? st->batch_reps * 10
                                                 : reps_for(1.05 * e->target_ns, per_op);
            if (next < st->batch_reps * 2)
                next = st->batch_reps * 2;
            if (next > st->batch_reps * 10)
                next = st->batch_reps * 10;
            e->reps = next;
        }
        break;
    case STAGE_WARMUP: {
        if (e->n_warm < 64)
            e->warm[e->n_warm++] = per_op;
        int w = (double)st->batch_ns >= 10 * e->target_ns ? 1 : BL__WARM_WINDOW;
        bool steady = false;
        if (e->n_warm >= 2 * w) {
            double last = median_of(e->warm + e->n_warm - w, w);
            double prev = median_of(e->warm + e->n_warm - 2 * w, w);
            steady = last >= 0.98 * prev;
        }
        if (steady || (double)(now - e->warm_begin) >= 0.25 * e->budget_ns || e->n_warm >= 64) {
            double recent = median_of(e->warm + e->n_warm - (e->n_warm < w ? e->n_warm : w),
                                      e->n_warm < w ? e->n_warm : w);
            e->reps = e->macro ? 1 : reps_for(e->target_ns, recent);
            e->stage = STAGE_MEASURE;
        }
        break;
    }
    case STAGE_MEASURE:
        e->n_measured++;
        if (clean(e, st))
            e->n_valid++;
        if ((elapsed >= e->budget_ns && e->n_valid >= MIN_CLEAN) ||
            (elapsed >= 2 * e->budget_ns && e->n_valid >= 3) || elapsed >= 5 * e->budget_ns)
            e->stage = STAGE_DONE;
        break;
    default:
        break;
    }
}

/* An overhead batch of `reps`, measured just before the workload batch. */
static void overhead_batch(struct bl__engine *e, uint64_t reps, bool per_op)
{
    struct bl__snapshot a, b;
    bl__counters_read(&e->counters, &a);
    uint32_t pauses = 0;
    uint64_t ns = bl__run_sub_batch(e->overhead_fn, reps, per_op, &pauses);
    bl__counters_read(&e->counters, &b);
    bl__send(e->fd, "s %c %llu %llu %lld %ld %lld %ld %ld %u",
             e->stage == STAGE_WARMUP ? 'o' : 'O', (unsigned long long)reps,
             (unsigned long long)ns, (long long)(b.cpu_ns - a.cpu_ns), b.nivcsw - a.nivcsw,
             (long long)(b.migrations - a.migrations), b.minflt - a.minflt, b.majflt - a.majflt,
             pauses);
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
    memset(&st->acc, 0, sizeof st->acc);
    if (st->per_op) {
        call_op_hook(st, st->inst->def->setup_op);
        st->hot.left = 0;
    } else {
        st->hot.left = reps - 1;
    }
}

/* Counting in the allocation or counters pass: on, suspended, off. */
static void counting_begin(struct bl__engine *e)
{
    if (e->mode == MODE_ALLOC)
        e->alloc.begin();
    else
        bl__hw_start(&e->hw);
}

static void counting_suspend(struct bl__engine *e, int suspended)
{
    if (e->mode == MODE_ALLOC) {
        e->alloc.suspend(suspended);
    } else {
        for (int i = 0; i < e->hw.n; i++)
            ioctl(e->hw.fd[i], suspended ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE, 0);
    }
}

static void counting_end(struct bl__engine *e)
{
    if (e->mode == MODE_ALLOC)
        e->alloc.end(e->alloc_phase == ALLOC_BASE ? &e->alloc_base : &e->alloc_more);
    else
        bl__hw_stop(&e->hw, e->alloc_phase == ALLOC_BASE ? e->hw_base : e->hw_more,
                    &e->hw_scaled);
}

/* Start the batch of reps for the current allocation phase: counting is
 * switched on last, right before the loop body runs. */
static bool begin_alloc_batch(bl_state *st)
{
    struct bl__engine *e = st->eng;
    uint64_t reps = e->alloc_phase == ALLOC_WARM   ? 1
                    : e->alloc_phase == ALLOC_BASE ? e->alloc_k
                                                   : e->alloc_k + e->alloc_d;
    open_batch(st, reps);
    e->counting = e->alloc_phase != ALLOC_WARM;
    if (e->counting)
        counting_begin(e);
    start_clock(st);
    return true;
}

/* The allocation batch that just ended: keep its counts, pick the next. */
static void record_alloc(bl_state *st)
{
    struct bl__engine *e = st->eng;
    switch (e->alloc_phase) {
    case ALLOC_WARM: {
        /* k in 1..5 and d in 1..100 (Caliper), d bounded so that k+d
         * repetitions take about a fifth of the budget */
        e->alloc_k = 1 + bl__rng_next(&e->rng) % 5;
        double per_op = (double)st->batch_ns > 0 ? (double)st->batch_ns : 1;
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
        if (e->mode == MODE_COUNTERS) {
            char line[900];
            int len = snprintf(line, sizeof line, "counters %llu %llu %d",
                               (unsigned long long)e->alloc_k, (unsigned long long)e->alloc_d,
                               e->hw_scaled);
            for (int i = 0; i < e->hw.n && len < (int)sizeof line - 80; i++)
                len += snprintf(line + len, sizeof line - (size_t)len, " %s %.17g %.17g",
                                bl__counter_name(e->hw_idx[i]), e->hw_base[i], e->hw_more[i]);
            bl__send(e->fd, "%s", line);
            e->stage = STAGE_DONE;
            break;
        }
        bl__send(e->fd, "alloc %llu %llu %llu %llu %llu %llu %llu %llu",
                 (unsigned long long)e->alloc_k, (unsigned long long)e->alloc_d,
                 (unsigned long long)e->alloc_base.allocs,
                 (unsigned long long)e->alloc_base.bytes,
                 (unsigned long long)e->alloc_more.allocs,
                 (unsigned long long)e->alloc_more.bytes,
                 (unsigned long long)(e->alloc_base.foreign_frees + e->alloc_more.foreign_frees),
                 (unsigned long long)(e->alloc_base.untracked + e->alloc_more.untracked));
        e->stage = STAGE_DONE;
        break;
    }
}

static bool begin_batch(bl_state *st)
{
    struct bl__engine *e = st->eng;
    if (e->stage == STAGE_DONE || st->status) {
        st->finished = true;
        return false;
    }
    if (e->mode != MODE_TIME)
        return begin_alloc_batch(st);
    uint64_t reps = e->stage == STAGE_PILOT ? (e->reps ? e->reps : 1) : jittered(e, e->reps);
    if (e->stage != STAGE_PILOT && e->overhead_fn)
        overhead_batch(e, reps, st->per_op);
    if (!e->t_begin)
        e->t_begin = bl__now_ns();
    open_batch(st, reps);
    seg_begin(st);
    start_clock(st);
    return true;
}

bool bl__loop_next(bl_state *st)
{
    if (st->kind == ST_SUB)
        return sub_next(st);
    if (st->in_batch) {
        uint64_t now = bl__now_ns();
        if (!st->paused) {
            st->batch_ns += now - st->t_start;
            seg_end(st);
        }
        st->paused = false;
        struct bl__engine *e = st->eng;
        if (st->per_op) {
            if (e->counting)
                counting_suspend(e, 1);
            call_op_hook(st, st->inst->def->teardown_op);
            if (++st->ops_done < st->batch_reps && !st->status) {
                call_op_hook(st, st->inst->def->setup_op);
                if (e->counting)
                    counting_suspend(e, 0);
                seg_begin(st);
                start_clock(st);
                return true;
            }
        }
        if (e->counting) {
            counting_end(e);
            e->counting = false;
        }
        if (e->mode != MODE_TIME) {
            st->in_batch = false;
            st->total_iters += st->per_op ? st->ops_done : st->batch_reps;
            if (!st->status)
                record_alloc(st);
            st->started = true;
            return begin_batch(st);
        }
        st->in_batch = false;
        st->total_iters += st->per_op ? st->ops_done : st->batch_reps;
        if (!st->status)
            record(st);
    } else if (st->finished) {
        return false;
    }
    st->started = true;
    return begin_batch(st);
}

/* ---- what a benchmark body calls ---------------------------------------- */

void bl_pause(bl_state *st)
{
    uint64_t now = bl__now_ns();
    if (!st->in_batch || st->paused)
        return;
    st->batch_ns += now - st->t_start;
    seg_end(st);
    st->paused = true;
    st->pauses++;
    if (st->eng && st->eng->counting)
        counting_suspend(st->eng, 1);
}

void bl_resume(bl_state *st)
{
    if (!st->in_batch || !st->paused)
        return;
    if (st->eng && st->eng->counting)
        counting_suspend(st->eng, 0);
    st->paused = false;
    seg_begin(st);
    st->t_start = bl__now_ns();
}

static const bl_param *find_param(bl_state *st, const char *name, size_t *index)
{
    if (!st->inst || !st->inst->def->params)
        return NULL;
    for (size_t p = 0; st->inst->def->params[p].name; p++) {
        if (strcmp(st->inst->def->params[p].name, name) == 0) {
            *index = st->inst->value_index[p];
            return &st->inst->def->params[p];
        }
    }
    return NULL;
}

static void unknown_param(bl_state *st, const char *name)
{
    char msg[300];
    snprintf(msg, sizeof msg, "no parameter named \"%s\"", name);
    bl_fail(st, msg);
}

long long bl_param_int(bl_state *st, const char *name)
{
    size_t i;
    const bl_param *p = find_param(st, name, &i);
    if (!p) {
        unknown_param(st, name);
        return 0;
    }
    if (p->kind == BL_PARAM_INT)
        return p->ints[i];
    char *end;
    long long v = strtoll(p->strs[i], &end, 0);
    if (*end) {
        char msg[300];
        snprintf(msg, sizeof msg, "parameter \"%s\" is not an integer: \"%s\"", name, p->strs[i]);
        bl_fail(st, msg);
    }
    return v;
}

const char *bl_param_str(bl_state *st, const char *name)
{
    size_t i;
    const bl_param *p = find_param(st, name, &i);
    if (!p) {
        unknown_param(st, name);
        return "";
    }
    if (p->kind == BL_PARAM_STR)
        return p->strs[i];
    /* an integer asked for as a string: keep a copy in the state */
    static _Thread_local char buf[32];
    snprintf(buf, sizeof buf, "%lld", p->ints[i]);
    return buf;
}

void bl_set_bytes_per_op(bl_state *st, double bytes)
{
    st->bytes_per_op = bytes;
}

void bl_report_metric(bl_state *st, double value, const char *unit)
{
    if (!unit || !*unit || strpbrk(unit, " \t\r\n")) {
        bl_fail(st, "bl_report_metric: the unit is empty or contains whitespace");
        return;
    }
    for (int i = 0; i < st->n_metrics; i++) {
        if (strcmp(st->metric_unit[i], unit) == 0) {
            st->metric_value[i] = value;
            return;
        }
    }
    if (st->n_metrics == BL__MAX_METRICS || strlen(unit) >= sizeof st->metric_unit[0]) {
        bl_fail(st, "bl_report_metric: too many metrics or unit too long");
        return;
    }
    snprintf(st->metric_unit[st->n_metrics], sizeof st->metric_unit[0], "%s", unit);
    st->metric_value[st->n_metrics++] = value;
}

uint64_t bl_iterations(const bl_state *st)
{
    return st->total_iters;
}

static void set_status(bl_state *st, int status, const char *msg)
{
    if (st->status)
        return; /* the first reason wins */
    st->status = status;
    snprintf(st->message, sizeof st->message, "%s", msg ? msg : "");
    /* make the loop's fast path fall into the slow path at once */
    st->hot.left = 0;
}

void bl_skip(bl_state *st, const char *reason)
{
    set_status(st, 1, reason ? reason : "skipped");
}

void bl_fail(bl_state *st, const char *message)
{
    set_status(st, 2, message ? message : "failed");
}

void bl_set_user(bl_state *st, void *user)
{
    st->user = user;
}

void *bl_user(const bl_state *st)
{
    return st->user;
}
