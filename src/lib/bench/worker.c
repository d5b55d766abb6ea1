/*
 * worker.c - the worker process: measures one benchmark instance and sends
 * every batch to the runner on the channel fd, as soon as it is taken.
 *
 * Channel protocol (one text line per message, written with one write(),
 * so a message is whole or absent; documented in docs/formats.md):
 *   hello 1 PID
 *   threads T                             (a multi-threaded benchmark's count)
 *   tunit UNIT                            (.time_unit: ns, us, ms or s)
 *   complexity MODE N G PARAM [CURVE]     (the size parameter, for complexity fits; again
 *                                          after the body when it called bl_set_complexity_n)
 *   complexity-sum NSUM G                 (threaded: the threads' n summed, the curve there)
 *   cgroup NAME                           (.complexity_group: the fit's group, by name)
 *   calib CLOCK_NS PAUSE_NS COUNTERS      (COUNTERS: perf or rusage)
 *   s STAGE REPS NS CPU_NS NIVCSW MIGRATIONS MINFLT MAJFLT PAUSES REF_NS [PROC_NS]
 *                                         (CPU_NS the threads' on-CPU time, which the
 *                                          invalidation reads; PROC_NS with .process_cpu)
 *   bytes VALUE [SUM]                      (per op of the first thread that set it; the
 *   items VALUE [SUM]                       threads' sum, for Google Benchmark's outputs)
 *   metric VALUE UNIT [FLAGS [CFLAGS]]     (FLAGS: enum bl_metric_flags; CFLAGS: a counter,
 *                                          enum bl_counter_flags, VALUE its threads' sum)
 *   skip REASON...   |   fail MESSAGE...
 *   ready REPS NS_PER_OP                  (driven mode: warm, waiting for commands)
 *   done ITERATIONS [CLOCK [CPU]]         (the loop's repetitions per thread, all stages; the
 *                                          clock of counters' rates: cpu, real or manual; the
 *                                          CPU clock of cpu/op: thread (CPU_NS), or process
 *                                          (PROC_NS) with .process_cpu)
 *   stray PID                             (instead of any message, from a process the body
 *                                          forked that went on into the loop: state.c)
 * In driven mode (benchlab ab, --benchlab-cmd-fd N) the runner writes
 * commands on fd N, one line each: "b REPS" runs one overhead batch and one
 * measured batch of REPS repetitions and sends both; "q" (or end of file)
 * ends the loop. Between commands the worker blocks on the read.
 * The runner recognises a failed worker by its exit status and the missing
 * "done", never by a half-written line.
 *
 * Disturbances are counted around each batch with a perf_event group
 * (task-clock and cpu-migrations, software events available without
 * privileges for one's own thread) and getrusage(RUSAGE_THREAD) for
 * involuntary context switches and page faults. Where perf_event_open is
 * refused, the thread CPU clock and sched_getcpu() stand in.
 *
 * A multi-threaded benchmark (.threads) runs its body in T threads: this
 * one (index 0) and T-1 started behind a gate, each with its own state,
 * counters and loop, in lockstep through the group's barrier (state.c).
 * .global_setup and .global_cleanup run once, here, around them.
 */
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../instruments/callgrind.h"
#include "../instruments/profiler.h"
#include "benchlab/stats.h"
#include "state.h"

static void disturb_close(struct bl__disturb_counters *c);

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

static void disturb_open(struct bl__disturb_counters *c)
{
    c->perf_fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
    c->perf_migr_fd = -1;
    if (c->perf_fd < 0)
        return;
    c->perf_migr_fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, c->perf_fd);
    if (c->perf_migr_fd < 0 || ioctl(c->perf_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
        disturb_close(c);
        return;
    }
}

static void disturb_close(struct bl__disturb_counters *c)
{
    if (c->perf_migr_fd >= 0)
        close(c->perf_migr_fd);
    if (c->perf_fd >= 0)
        close(c->perf_fd);
    c->perf_fd = c->perf_migr_fd = -1;
}

void bl__disturb_read(const struct bl__disturb_counters *c, struct bl__snapshot *s)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    s->nivcsw = ru.ru_nivcsw;
    s->minflt = ru.ru_minflt;
    s->majflt = ru.ru_majflt;
    uint64_t buf[3];
    if (c->perf_fd >= 0 && read(c->perf_fd, buf, sizeof buf) == (ssize_t)sizeof buf &&
        buf[0] == 2) {
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

/* Median cost of one clock read, and the timed part of one pause/resume pair. */
static void calibrate(double *clock_ns, double *pause_ns)
{
    enum { TRIALS = 7, K = 1000 };
    double d[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
        uint64_t a = bl__now_ns();
        for (int i = 0; i < K - 1; i++)
            (void)bl__now_ns();
        d[t] = (double)(bl__now_ns() - a) / K;
    }
    bl_stats_sort(d, TRIALS); /* in place: no allocation in the worker's start-up */
    *clock_ns = bl_stats_quantile_sorted(d, TRIALS, 0.5);

    double diff[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
        uint64_t with = bl__run_sub_batch(pause_loop, K, false, NULL, NULL);
        uint64_t without = bl__run_sub_batch(empty_loop, K, false, NULL, NULL);
        diff[t] = ((double)with - (double)without) / K;
    }
    bl_stats_sort(diff, TRIALS);
    double pause = bl_stats_quantile_sorted(diff, TRIALS, 0.5);
    *pause_ns = pause > 0 ? pause : 0;
}

/* Messages are single lines: squash newlines in user text. */
static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
}

/* ---- the threads of a multi-threaded benchmark ----------------------------- */

/* Threads wait here until all of them exist, so that none runs its setup
 * while another cannot be created (the group would wait for it forever). */
struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int go; /* 0 wait, 1 run, -1 do not run */
};

struct member {
    bl_state *st;
    struct gate *gate;
};

static void *member_main(void *p)
{
    struct member *m = p;
    bl_state *st = m->st;
    pthread_mutex_lock(&m->gate->mu);
    while (m->gate->go == 0)
        pthread_cond_wait(&m->gate->cv, &m->gate->mu);
    int go = m->gate->go;
    pthread_mutex_unlock(&m->gate->mu);
    if (go < 0)
        return NULL;
    /* perf_event counters count the thread that opens them */
    disturb_open(&st->ctr);
    struct bl__engine *e = st->eng;
    if (e->mode == MODE_COUNTERS && bl__hw_open(&st->hw, e->hw_idx, e->n_hw) != 0)
        bl_fail(st, "cannot open the hardware counters in this thread");
    bl__run_body(st);
    disturb_close(&st->ctr);
    bl__hw_close(&st->hw);
    return NULL;
}

static void open_gate(struct gate *g, int go)
{
    pthread_mutex_lock(&g->mu);
    g->go = go;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Run the body in threads 1..n-1 and in this thread (index 0), together. */
static void run_threads(struct bl__group *g)
{
    int n = g->n;
    pthread_t *tids = calloc((size_t)n, sizeof *tids);
    struct member *ms = calloc((size_t)n, sizeof *ms);
    struct gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    if (!tids || !ms) {
        bl_fail(g->st[0], "out of memory starting the threads");
        free(tids);
        free(ms);
        return;
    }
    int started = 1, err = 0;
    for (int i = 1; i < n; i++, started++) {
        ms[i].st = g->st[i];
        ms[i].gate = &gate;
        if ((err = pthread_create(&tids[i], NULL, member_main, &ms[i])) != 0)
            break;
    }
    if (started < n) {
        open_gate(&gate, -1);
        char msg[200];
        snprintf(msg, sizeof msg, "cannot start thread %d of %d: %s", started, n, strerror(err));
        bl_fail(g->st[0], msg);
    } else {
        open_gate(&gate, 1);
        bl__run_body(g->st[0]);
    }
    for (int i = 1; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    free(ms);
}

/*
 * What the threads told us, as one benchmark: the first failure (by
 * thread index) or else the first skip, its message naming the thread;
 * bytes and items per op from the first thread that set them (and their sums over
 * the threads, for Google Benchmark's outputs); each user metric the mean over the
 * threads that reported it, each counter (bl_report_counter) their sum.
 */
static void merge_threads(struct bl__group *g, bl_state *out)
{
    bl_state *s0 = g->st[0];
    if (g->n == 1) {
        if (out != s0)
            *out = *s0;
        out->bytes_sum_per_op = out->bytes_per_op;
        out->items_sum_per_op = out->items_per_op;
        out->complexity_n_sum = out->complexity_n;
        return;
    }
    *out = *s0;
    out->status = 0;
    out->message[0] = '\0';
    for (int want = 2; want >= 1 && !out->status; want--)
        for (int i = 0; i < g->n; i++)
            if (g->st[i]->status == want) {
                out->status = want;
                snprintf(out->message, sizeof out->message, "thread %d of %d: %.400s", i, g->n,
                         g->st[i]->message);
                break;
            }
    out->bytes_per_op = out->items_per_op = 0;
    for (int i = 0; i < g->n && !(out->bytes_per_op > 0); i++)
        out->bytes_per_op = g->st[i]->bytes_per_op;
    for (int i = 0; i < g->n && !(out->items_per_op > 0); i++)
        out->items_per_op = g->st[i]->items_per_op;
    out->bytes_sum_per_op = out->items_sum_per_op = 0;
    for (int i = 0; i < g->n; i++) {
        out->bytes_sum_per_op += g->st[i]->bytes_per_op;
        out->items_sum_per_op += g->st[i]->items_per_op;
    }
    for (int i = 0; i < g->n && !out->label[0]; i++)
        memcpy(out->label, g->st[i]->label, sizeof out->label);
    for (int i = 0; i < g->n && !out->complexity_n; i++)
        out->complexity_n = g->st[i]->complexity_n;
    out->complexity_n_sum = 0; /* Google Benchmark's runner adds up each thread's n */
    for (int i = 0; i < g->n; i++)
        out->complexity_n_sum = g->st[i]->complexity_n > LLONG_MAX - out->complexity_n_sum
                                    ? LLONG_MAX
                                    : out->complexity_n_sum + g->st[i]->complexity_n;
    out->n_metrics = 0;
    for (int i = 0; i < g->n; i++) {
        const bl_state *s = g->st[i];
        for (int k = 0; k < s->n_metrics; k++) {
            int j = 0;
            while (j < out->n_metrics && strcmp(out->metric_unit[j], s->metric_unit[k]) != 0)
                j++;
            if (j < out->n_metrics)
                continue; /* merged when first seen */
            double sum = 0;
            int cnt = 0;
            for (int t = i; t < g->n; t++)
                for (int q = 0; q < g->st[t]->n_metrics; q++)
                    if (strcmp(g->st[t]->metric_unit[q], s->metric_unit[k]) == 0) {
                        sum += g->st[t]->metric_value[q];
                        cnt++;
                    }
            memcpy(out->metric_unit[j], s->metric_unit[k], sizeof out->metric_unit[j]);
            out->metric_flags[j] = s->metric_flags[k];
            out->metric_is_counter[j] = s->metric_is_counter[k];
            out->metric_counter_flags[j] = s->metric_counter_flags[k];
            /* a counter: the sum, as Google Benchmark's Increment */
            out->metric_value[j] = s->metric_is_counter[k] ? sum : sum / cnt;
            out->n_metrics++;
        }
    }
}

/* .time_unit: one of Google Benchmark's units */
static bool time_unit_ok(const char *u)
{
    return strcmp(u, "ns") == 0 || strcmp(u, "us") == 0 || strcmp(u, "ms") == 0 ||
           strcmp(u, "s") == 0;
}

static int complexity_mode(const bl_bench_def *d)
{
    return d->complexity ? d->complexity : d->complexity_curve ? BL_OUSER : BL_COMPLEXITY_NONE;
}

/* "complexity MODE N G PARAM [CURVE]" for n; for a threaded benchmark
 * "complexity-sum NSUM G" too, its threads' n summed (Google Benchmark's n,
 * where it calls a Complexity(lambda)) and the curve there; then "cgroup
 * NAME" when the definition groups its instances itself (.complexity_group). */
static void send_complexity(int fd, const struct bl__instance *inst, const char *param, long long n,
                            long long n_sum)
{
    const bl_bench_def *d = inst->def;
    double g = d->complexity_curve ? d->complexity_curve((double)n) : NAN;
    char name[128];
    snprintf(name, sizeof name, "%s", param);
    for (char *c = name; *c; c++)
        if (*c == ' ' || *c == '\t' || *c == '/' || *c == '\n' || *c == '\r')
            *c = '_'; /* as in the instance's name */
    char curve[128] = "";
    if (d->complexity_curve)
        snprintf(curve, sizeof curve, "%s",
                 d->complexity_curve_name ? d->complexity_curve_name : "f(n)");
    one_line(curve);
    bl__send(fd, "complexity %d %lld %.17g %s %s", complexity_mode(d), n, g, name, curve);
    if (inst->threaded && n_sum > 0)
        bl__send(fd, "complexity-sum %lld %.17g", n_sum,
                 d->complexity_curve ? d->complexity_curve((double)n_sum) : NAN);
    if (d->complexity_group) {
        char group[512];
        snprintf(group, sizeof group, "Benchmark%s", d->complexity_group);
        if (!d->raw_name && group[9] >= 'a' && group[9] <= 'z')
            group[9] = (char)(group[9] - 'a' + 'A'); /* as the registry names it */
        one_line(group);
        bl__send(fd, "cgroup %s", group);
    }
}

/* The parameter that is n (NULL: none), and how many could be. */
static const bl_param *size_param(const struct bl__instance *inst, size_t *index, size_t *n_int)
{
    const bl_bench_def *d = inst->def;
    const bl_param *par = NULL;
    *n_int = 0;
    for (size_t p = 0; inst->params && inst->params[p].name; p++) {
        const bl_param *q = &inst->params[p];
        if (d->complexity_param ? strcmp(q->name, d->complexity_param) == 0
                                : q->kind == BL_PARAM_INT) {
            par = q;
            *index = p;
            (*n_int)++;
        }
    }
    return par;
}

/*
 * What the runner needs to fit the complexity of this benchmark: which
 * integer parameter is n, its value here and the registration's own curve
 * at n ("complexity MODE N G PARAM [CURVE NAME]"). Nothing when the
 * benchmark has no parameter that can be n and asked for no fit, or when
 * the body says n (.complexity_group: send_body_size). A registration that
 * asks for a fit it cannot have fails, naming why. Returns 0, or -1 after
 * sending the failure.
 */
static int send_size(int fd, const struct bl__instance *inst)
{
    const bl_bench_def *d = inst->def;
    int mode = complexity_mode(d);
    const char *why = NULL;
    char msg[300];
    if (mode < BL_COMPLEXITY_NONE || mode > BL_OUSER) {
        snprintf(msg, sizeof msg, ".complexity = %d is not an enum bl_complexity value", mode);
        why = msg;
    } else if (mode == BL_OUSER && !d->complexity_curve) {
        why = ".complexity = BL_OUSER needs .complexity_curve";
    }
    size_t index = 0, n_int = 0;
    const bl_param *par = why ? NULL : size_param(inst, &index, &n_int);
    if (why) {
    } else if (d->complexity_param && !par) {
        snprintf(msg, sizeof msg, ".complexity_param: no parameter named \"%.200s\"",
                 d->complexity_param);
        why = msg;
    } else if (d->complexity_param && par->kind != BL_PARAM_INT && !d->complexity_group) {
        snprintf(msg, sizeof msg,
                 ".complexity_param: \"%.200s\" is not an integer parameter (BL_INTS)",
                 d->complexity_param);
        why = msg;
    } else if (n_int != 1 || par->kind != BL_PARAM_INT) {
        if (mode == BL_COMPLEXITY_NONE || d->complexity_group)
            return 0; /* nothing asked, or n comes from bl_set_complexity_n */
        snprintf(msg, sizeof msg,
                 ".complexity: which parameter is n? This benchmark has %zu integer "
                 "parameters: name one with .complexity_param",
                 n_int);
        why = msg;
    }
    if (why) {
        bl__send(fd, "fail %s", why);
        return -1;
    }
    /* every thread has the parameter: the threads' n summed is T x n */
    long long n = par->ints[inst->value_index[index]];
    long long threads = inst->threaded ? inst->threads : 1;
    send_complexity(fd, inst, par->name, n, n > LLONG_MAX / threads ? LLONG_MAX : n * threads);
    return 0;
}

/*
 * The n the body set with bl_set_complexity_n, which replaces the
 * parameter's value. A definition that groups its instances itself and
 * has no parameter for n needs it. Returns 0, or -1 after the failure.
 */
static int send_body_size(int fd, const struct bl__instance *inst, long long n, long long n_sum)
{
    const bl_bench_def *d = inst->def;
    size_t index = 0, n_int = 0;
    const bl_param *par = size_param(inst, &index, &n_int);
    if (n > 0) {
        send_complexity(fd, inst, par && n_int == 1 ? par->name : "n", n, n_sum);
        return 0;
    }
    if (complexity_mode(d) != BL_COMPLEXITY_NONE && d->complexity_group &&
        (n_int != 1 || par->kind != BL_PARAM_INT)) {
        bl__send(fd, "fail .complexity with .complexity_group: the body never called "
                     "bl_set_complexity_n() (Google Benchmark: state.SetComplexityN()), so "
                     "this instance has no size to fit");
        return -1;
    }
    return 0;
}

static bl_state *new_state(void)
{
    /* a cache line of its own for each thread's hot loop counter */
    size_t size = (sizeof(bl_state) + 63) / 64 * 64;
    return aligned_alloc(64, size);
}

/* The launch's end on the channel: skip, fail, or its facts and "done".
 * The worker's exit status: 0, or 1 after a failure. */
static int send_result(int fd, const struct bl__instance *inst, bl_state *r)
{
    one_line(r->message);
    if (r->status == 1) {
        bl__send(fd, "skip %s", r->message);
        return 0;
    }
    if (r->status == 2) {
        bl__send(fd, "fail %s", r->message);
        return 1;
    }
    if (r->bytes_per_op > 0)
        bl__send(fd, "bytes %.17g %.17g", r->bytes_per_op, r->bytes_sum_per_op);
    if (r->items_per_op > 0)
        bl__send(fd, "items %.17g %.17g", r->items_per_op, r->items_sum_per_op);
    if (r->label[0])
        bl__send(fd, "label %s", r->label);
    for (int i = 0; i < r->n_metrics; i++) {
        if (r->metric_is_counter[i])
            bl__send(fd, "metric %.17g %s %u %u", r->metric_value[i], r->metric_unit[i],
                     r->metric_flags[i], r->metric_counter_flags[i]);
        else
            bl__send(fd, "metric %.17g %s %u", r->metric_value[i], r->metric_unit[i],
                     r->metric_flags[i]);
    }
    if (send_body_size(fd, inst, r->complexity_n, r->complexity_n_sum) != 0)
        return 1;
    const bl_bench_def *d = inst->def;
    bl__send(fd, "done %llu %s %s", (unsigned long long)r->total_iters,
             d->manual_time ? "manual"
             : d->real_time ? "real"
                            : "cpu",
             d->process_cpu ? "process" : "thread");
    return 0;
}

/*
 * The engine of one launch from the worker's command line and the
 * benchmark's own plan: where the stages start (a macro benchmark, a batch
 * size the tune file knew, a fixed count), the budget, the seed. A plan
 * the definition gets wrong is described in plan_err (else left empty).
 */
static void plan_engine(struct bl__engine *eng, const struct bl__instance *inst,
                        const struct bl__worker_args *a, char *plan_err, size_t size)
{
    memset(eng, 0, sizeof *eng);
    eng->sched_fd = -1;
    eng->fd = a->channel_fd;
    eng->cmd_fd = a->cmd_fd;
    eng->target_ns = a->batch_ms * 1e6;
    eng->budget_ns = a->time_s * 1e9;
    eng->stage = STAGE_PILOT;
    eng->reps = 1;
    if (inst->def->macro) {
        /* one timed invocation per batch: no pilot, no jitter (reps < 10) */
        eng->stage = STAGE_WARMUP;
        eng->warm_begin = bl__now_ns();
        eng->macro = true;
    } else if (a->reps > 0 && a->reps <= 1000000000000ull) {
        /* the tune file knows this benchmark's batch size: no pilot */
        eng->stage = STAGE_WARMUP;
        eng->warm_begin = bl__now_ns();
        eng->reps = a->reps;
        eng->given_reps = a->reps;
    }
    const bl_bench_def *def = inst->def;
    if (def->iterations < 0 || def->iterations > 1000000000000ll)
        snprintf(plan_err, size, ".iterations = %lld: a count from 1 to 10^12 (0: none)",
                 def->iterations);
    else if (!(def->time_s >= 0) || !isfinite(def->time_s))
        snprintf(plan_err, size, ".time_s = %g: seconds, more than 0 (0: --time)", def->time_s);
    else if (!(def->warmup_s >= 0) || !isfinite(def->warmup_s))
        snprintf(plan_err, size, ".warmup_s = %g: seconds, 0 or more", def->warmup_s);
    else if (def->count < 0 || def->count > BL__MAX_COUNT)
        snprintf(plan_err, size, ".count = %d: launches, 1 to %d (0: --count)", def->count,
                 BL__MAX_COUNT);
    else if (def->time_unit && !time_unit_ok(def->time_unit))
        snprintf(plan_err, size, ".time_unit = \"%.40s\": ns, us, ms or s (NULL: --time-unit)",
                 def->time_unit);
    eng->manual = def->manual_time != 0;
    eng->process_cpu = def->process_cpu != 0;
    eng->warmup_min_ns = def->warmup_s * 1e9;
    long long fixed = def->iterations;
    if (fixed == 0 && a->iterations > 0 && a->iterations <= 1000000000000ull)
        fixed = (long long)a->iterations; /* --iterations; the definition's own wins */
    if (fixed > 0 && a->cmd_fd < 0) {
        /* one measurement of exactly N: no pilot, and a warmup only when asked */
        eng->fixed_reps = (uint64_t)fixed;
        eng->reps = eng->fixed_reps;
        eng->given_reps = 0; /* the tune file's size does not apply */
        eng->stage = def->warmup_s > 0 ? STAGE_WARMUP : STAGE_MEASURE;
        eng->warm_begin = bl__now_ns();
    } else if (fixed > 0) {
        /* driven (benchlab ab), which sizes the batches: N is where it starts */
        eng->stage = STAGE_WARMUP;
        eng->warm_begin = bl__now_ns();
        eng->reps = eng->given_reps = (uint64_t)fixed;
    }
    eng->overhead_fn = inst->def->overhead_fn;
    bl__rng_seed(&eng->rng, a->seed ? a->seed : bl__now_ns() ^ (uint64_t)getpid());
}

static int worker_main(const struct bl__worker_args *a)
{
    int fd = a->channel_fd;
    signal(SIGPIPE, SIG_IGN);
    bl__send(fd, "hello 1 %ld", (long)getpid());
    const struct bl__instance *inst = bl__registry_find(a->name);
    if (!inst) {
        bl__send(fd, "fail no benchmark named %s in this suite", a->name);
        return 2;
    }
    /* first: a benchmark that fails is shown in its unit too */
    if (inst->def->time_unit && time_unit_ok(inst->def->time_unit))
        bl__send(fd, "tunit %s", inst->def->time_unit);
    int n_threads = inst->threaded ? inst->threads : 1;
    if (n_threads < 1 || n_threads > BL_MAX_THREADS) {
        bl__send(fd, "fail threads=%d: a thread count must be 1 to %d (BL_THREADS)", n_threads,
                 BL_MAX_THREADS);
        return 1;
    }

    struct bl__engine eng;
    char plan_err[200] = "";
    plan_engine(&eng, inst, a, plan_err, sizeof plan_err);

    struct bl__group g;
    memset(&g, 0, sizeof g);
    bl_state **sts = calloc((size_t)n_threads, sizeof *sts);
    for (int i = 0; sts && i < n_threads; i++)
        if (!(sts[i] = new_state())) {
            while (i-- > 0)
                free(sts[i]);
            free(sts);
            sts = NULL;
        }
    if (!sts) {
        bl__send(fd, "fail out of memory for %d thread states", n_threads);
        return 1;
    }
    bl__barrier_init(&g.bar, (unsigned)n_threads);
    g.n = n_threads;
    g.st = sts;
    g.eng = &eng;
    for (int i = 0; i < n_threads; i++) {
        bl__state_init(sts[i], ST_RUN, inst, &eng);
        sts[i]->group = &g;
        sts[i]->thread_index = i;
        sts[i]->n_threads = n_threads;
        sts[i]->ctr.process_cpu = eng.process_cpu;
    }
    bl_state *st = sts[0], res;
    int rc = 0;
    disturb_open(&st->ctr);
    if (a->counters) {
        eng.mode = MODE_COUNTERS;
        char why[300];
        if (bl__hw_counters_parse(a->counters, eng.hw_idx, &eng.n_hw, why, sizeof why) != 0 ||
            bl__hw_open(&st->hw, eng.hw_idx, eng.n_hw) != 0) {
            bl__send(fd, "fail cannot open the hardware counters %s in the worker", a->counters);
            rc = 1;
        }
    } else if (a->instr) {
        eng.mode = MODE_INSTR;
        eng.cg_out = getenv("BENCHLAB_CG_OUT");
        const char *reps = getenv("BENCHLAB_CG_REPS");
        eng.cg_reps = reps ? strtoull(reps, NULL, 10) : 0;
        if (!BL__CG_BUILT) {
            bl__send(fd, "fail this suite's libbenchlab was built without valgrind/callgrind.h: "
                         "install valgrind (Debian's valgrind) and rebuild it to count "
                         "instructions");
            rc = 1;
        } else if (!bl__cg_running()) {
            bl__send(fd, "fail the instruction count runs only under valgrind's callgrind");
            rc = 1;
        }
    } else if (a->alloc) {
        eng.mode = MODE_ALLOC;
        if (bl__alloc_api_load(&eng.alloc) != 0) {
            bl__send(fd, "fail the allocation counter (libbenchlab-alloc.so) is not loaded in "
                         "the worker: LD_PRELOAD was refused or overridden");
            rc = 1;
        }
    } else if (a->profile) {
        char why[300];
        if (bl__profiler_load(a->profile, &eng.prof, why, sizeof why) != 0) {
            bl__send(fd, "fail %s", why);
            rc = 1;
        }
        eng.profiling = !rc;
    }
    if (!rc && inst->param_error) {
        bl__send(fd, "fail %s", inst->param_error);
        rc = 1;
    }
    if (!rc && plan_err[0]) {
        bl__send(fd, "fail %s", plan_err);
        rc = 1;
    }
    if (!rc && send_size(fd, inst) != 0)
        rc = 1;
    if (!rc) {
        if (inst->threaded)
            bl__send(fd, "threads %d", n_threads);
        double clock_ns, pause_ns;
        calibrate(&clock_ns, &pause_ns);
        bl__ref_calibrate(&eng, clock_ns);
        bl__send(fd, "calib %.3f %.3f %s", clock_ns, pause_ns,
                 st->ctr.perf_fd >= 0 ? "perf" : "rusage");
        if (inst->def->global_setup)
            inst->def->global_setup(st);
        for (int i = 1; i < n_threads; i++)
            sts[i]->user = st->user; /* what global_setup made, every thread sees */
        eng.group_of_one = n_threads == 1;
        int cpus = bl__sys_cpus_usable();
        if (n_threads > cpus)
            eng.oversubscribed = (double)n_threads / cpus;
        if (!st->status) {
            if (n_threads == 1)
                bl__run_body(st);
            else
                run_threads(&g);
        }
        if (inst->def->global_cleanup)
            inst->def->global_cleanup(st);
        if (eng.profiling)
            eng.prof.flush(); /* the profile is whole before the runner sees "done" */
        merge_threads(&g, &res);
    }
    if (eng.sched_fd >= 0)
        close(eng.sched_fd);
    disturb_close(&st->ctr);
    bl__hw_close(&st->hw);
    for (int i = 0; i < n_threads; i++)
        free(sts[i]);
    free(sts);
    if (rc)
        return rc;

    return send_result(fd, inst, &res);
}

/* The worker's command line, as the runner (engine/passes.c) writes it. */
int bl__worker_main_argv(int argc, char **argv)
{
    struct bl__worker_args a = {argv[2], 3, 0.5, 1.0, 0, 0, 0, NULL, -1, 0, 0, 0};
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--benchlab-fd") == 0)
            a.channel_fd = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--benchlab-time") == 0)
            a.time_s = strtod(argv[i + 1], NULL);
        else if (strcmp(argv[i], "--benchlab-batch") == 0)
            a.batch_ms = strtod(argv[i + 1], NULL);
        else if (strcmp(argv[i], "--benchlab-seed") == 0)
            a.seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--benchlab-reps") == 0)
            a.reps = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--benchlab-iterations") == 0)
            a.iterations = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--benchlab-mode") == 0) {
            a.alloc = strcmp(argv[i + 1], "alloc") == 0;
            a.instr = strcmp(argv[i + 1], "instr") == 0;
        } else if (strcmp(argv[i], "--benchlab-counters") == 0)
            a.counters = argv[i + 1];
        else if (strcmp(argv[i], "--benchlab-cmd-fd") == 0)
            a.cmd_fd = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--benchlab-profile") == 0)
            a.profile =
                bl__profile_mode_parse(argv[i + 1]) > 0 ? bl__profile_mode_parse(argv[i + 1]) : 0;
    }
    return worker_main(&a);
}
