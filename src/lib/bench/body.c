/*
 * body.c - what a benchmark body calls besides the loop and its clock
 * (state.c): its thread's place in the group, its parameters, the bytes and
 * items per operation, its own metrics, the iterations so far (and the
 * fixed count it will run), the time of a manually timed iteration, skip
 * and fail, the user pointer, the label and the benchmark's data. They only
 * read or fill the bl_state; the runner gets the values with the batches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

int bl_threads(const bl_state *st)
{
    return st->n_threads > 0 ? st->n_threads : 1;
}

int bl_thread_index(const bl_state *st)
{
    return st->thread_index;
}

static const bl_param *find_param(bl_state *st, const char *name, size_t *index)
{
    const bl_param *params = st->inst ? st->inst->params : NULL;
    for (size_t p = 0; params && params[p].name; p++) {
        if (strcmp(params[p].name, name) == 0) {
            *index = st->inst->value_index[p];
            return &params[p];
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

/* Bytes and items per op are counts: a negative or non-finite one is a bug
 * in the benchmark, which would otherwise print a nonsense rate. */
static bool is_count(bl_state *st, const char *what, double v)
{
    if (v >= 0 && isfinite(v))
        return true;
    char msg[160];
    snprintf(msg, sizeof msg, "%s: %g is not a count (0 or more)", what, v);
    bl_fail(st, msg);
    return false;
}

void bl_set_bytes_per_op(bl_state *st, double bytes)
{
    if (is_count(st, "bl_set_bytes_per_op", bytes))
        st->bytes_per_op = bytes;
}

void bl_set_items_per_op(bl_state *st, double items)
{
    if (is_count(st, "bl_set_items_per_op", items))
        st->items_per_op = items;
}

/* Keep metric `unit` of this thread (the last value of a unit reported twice). */
static void set_metric(bl_state *st, const char *unit, double value, unsigned flags,
                       bool is_counter, unsigned counter_flags)
{
    int i = 0;
    while (i < st->n_metrics && strcmp(st->metric_unit[i], unit) != 0)
        i++;
    if (i == st->n_metrics) {
        if (st->n_metrics == BL__MAX_METRICS || strlen(unit) >= sizeof st->metric_unit[0]) {
            bl_fail(st, "bl_report_metric: too many metrics or unit too long");
            return;
        }
        snprintf(st->metric_unit[i], sizeof st->metric_unit[0], "%s", unit);
        st->n_metrics++;
    }
    st->metric_value[i] = value;
    st->metric_flags[i] = flags;
    st->metric_is_counter[i] = is_counter;
    st->metric_counter_flags[i] = counter_flags;
}

void bl_report_metric(bl_state *st, double value, const char *unit)
{
    bl_report_metric_ex(st, value, unit, 0);
}

void bl_report_metric_ex(bl_state *st, double value, const char *unit, unsigned flags)
{
    char msg[200];
    if (!unit || !*unit || strpbrk(unit, " \t\r\n")) {
        bl_fail(st, "bl_report_metric: the unit is empty or contains whitespace");
        return;
    }
    size_t len = strlen(unit);
    if (!isfinite(value))
        snprintf(msg, sizeof msg, "bl_report_metric: unit %.64s: the value %g is not a number",
                 unit, value);
    else if (flags & ~(unsigned)(BL_LOWER_IS_BETTER | BL_HIGHER_IS_BETTER | BL_RATE | BL_INVERT |
                                 BL_ONEK_1024))
        snprintf(msg, sizeof msg, "bl_report_metric_ex: unit %.64s: unknown flags 0x%x", unit,
                 flags);
    else if ((flags & BL_LOWER_IS_BETTER) && (flags & BL_HIGHER_IS_BETTER))
        snprintf(msg, sizeof msg,
                 "bl_report_metric_ex: unit %.64s: both BL_LOWER_IS_BETTER and "
                 "BL_HIGHER_IS_BETTER",
                 unit);
    else if ((flags & BL_INVERT) && (!(flags & BL_RATE) || len < 4 || strncmp(unit, "ns/", 3) != 0))
        snprintf(msg, sizeof msg,
                 "bl_report_metric_ex: unit %.64s: BL_INVERT is for a rate (BL_RATE), written in "
                 "ns per unit: its unit must start with ns/",
                 unit);
    else if ((flags & BL_RATE) && !(flags & BL_INVERT) &&
             (len < 3 || strcmp(unit + len - 2, "/s") != 0))
        snprintf(msg, sizeof msg,
                 "bl_report_metric_ex: unit %.64s: a rate (BL_RATE) is per second, its unit "
                 "must end in /s",
                 unit);
    else
        msg[0] = '\0';
    if (msg[0]) {
        bl_fail(st, msg);
        return;
    }
    if ((flags & BL_RATE) && (flags & BL_INVERT) && !(flags & BL_HIGHER_IS_BETTER))
        flags |= BL_LOWER_IS_BETTER; /* ns per unit */
    else if ((flags & BL_RATE) && !(flags & BL_LOWER_IS_BETTER))
        flags |= BL_HIGHER_IS_BETTER;
    set_metric(st, unit, value, flags, false, 0);
}

/*
 * A counter keeps this thread's value as it is, with its flags: the worker
 * sums the threads' (worker.c) and bl_launch_finish applies Google
 * Benchmark's arithmetic once the time is known (bl_counter_finish).
 */
void bl_report_counter(bl_state *st, const char *name, double value, unsigned flags)
{
    char msg[200], unit[64];
    const unsigned known = BL_COUNTER_RATE | BL_COUNTER_AVG_THREADS |
                           BL_COUNTER_ITERATION_INVARIANT | BL_COUNTER_AVG_ITERATIONS |
                           BL_COUNTER_INVERT | BL_COUNTER_1024;
    const char *nm = name && *name ? name : "counter";
    msg[0] = '\0';
    if (flags & ~known)
        snprintf(msg, sizeof msg, "bl_report_counter: counter '%.64s': unknown flags 0x%x", nm,
                 flags);
    else if (!isfinite(value))
        snprintf(msg, sizeof msg, "bl_report_counter: counter '%.64s': %g is not a finite value",
                 nm, value);
    else if (st->total_iters == 0)
        snprintf(msg, sizeof msg,
                 "bl_report_counter: counter '%.64s': call it after the loop (no repetition "
                 "ran yet)",
                 nm);
    if (msg[0]) {
        bl_fail(st, msg);
        return;
    }
    bool rate = flags & BL_COUNTER_RATE, invert = flags & BL_COUNTER_INVERT;
    int w = snprintf(unit, sizeof unit, "%s%s%s", rate && invert ? "ns/" : "", nm,
                     rate && !invert ? "/s" : "");
    if (w < 0 || (size_t)w >= sizeof unit) {
        snprintf(msg, sizeof msg, "bl_report_counter: counter '%.64s': the name is too long", nm);
        bl_fail(st, msg);
        return;
    }
    for (char *c = unit; *c; c++)
        if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
            *c = '_';
    /* the metric flags say how outputs show it: rates higher-is-better,
     * inverted rates (ns per NAME) lower */
    unsigned mflags = flags & BL_COUNTER_1024 ? BL_ONEK_1024 : 0;
    if (rate)
        mflags |= BL_RATE | (invert ? BL_INVERT | BL_LOWER_IS_BETTER : BL_HIGHER_IS_BETTER);
    set_metric(st, unit, value, mflags, true, flags);
}

uint64_t bl_iterations(const bl_state *st)
{
    /* inside a batch, the repetitions started so far; after it, the total */
    if (st->kind == ST_RUN && st->in_batch)
        return st->hot.end - st->hot.left;
    return st->total_iters;
}

uint64_t bl_max_iterations(const bl_state *st)
{
    const struct bl__engine *e = st->eng;
    if (st->kind == ST_RUN && e && e->fixed_reps && e->mode == MODE_TIME &&
        !(e->warmup_min_ns > 0)) {
        uint64_t m = e->batch_multiple; /* bl_loop_n's steps round the batch up */
        return m > 1 && e->fixed_reps % m ? e->fixed_reps + m - e->fixed_reps % m : e->fixed_reps;
    }
    return st->finished ? st->total_iters : 0;
}

void bl_set_iteration_time(bl_state *st, double seconds)
{
    if (st->kind != ST_RUN)
        return;
    char msg[200];
    if (!st->inst->def->manual_time) {
        bl_fail(st, "bl_set_iteration_time: the benchmark has no .manual_time (UseManualTime)");
    } else if (!(seconds >= 0 && seconds <= 1e6)) {
        /* past 1e6 s (11.6 days) a repetition, a batch's sum in ns would
         * saturate into a time nobody measured */
        snprintf(msg, sizeof msg, "bl_set_iteration_time: %g is not a time in seconds (0 to 1e+06)",
                 seconds);
        bl_fail(st, msg);
    } else if (st->in_batch) {
        st->manual_ns += seconds * 1e9;
        st->manual_calls++;
    }
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

void bl_set_label(bl_state *st, const char *label)
{
    /* one line on the channel: control characters become spaces */
    size_t n = 0;
    for (; label && label[n] && n + 1 < sizeof st->label; n++)
        st->label[n] = (unsigned char)label[n] < 0x20 ? ' ' : label[n];
    st->label[n] = '\0';
}

void bl_set_complexity_n(bl_state *st, long long n)
{
    if (n < 1) {
        char msg[120];
        snprintf(msg, sizeof msg, "bl_set_complexity_n: n = %lld: a size is 1 or more", n);
        bl_fail(st, msg);
        return;
    }
    st->complexity_n = n;
}

const void *bl_bench_data(const bl_state *st)
{
    return st->inst ? st->inst->def->data : NULL;
}
