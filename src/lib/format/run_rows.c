/*
 * run_rows.c - the rows of a run's summary, as data: per benchmark its
 * estimate over the launches (bl_bench_estimate), the throughput at that
 * centre, the batch counts, and its user metrics with their median and
 * spread over the launches. `run`'s table (table.c) and the Markdown table
 * (markdown_write.c) format these rows; neither recomputes them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/results_int.h"
#include "benchlab.h"        /* enum bl_metric_flags */
#include "benchlab/format.h" /* bl_format_duration */
#include "benchlab/stats.h"
#include "run_rows.h"

/*
 * Did the body do no measurable work? Less than half a core cycle per op
 * beyond the empty loop (half a reference cycle when those were measured,
 * else 0.15 ns, half a cycle at 3.3 GHz) is below what the overhead
 * subtraction resolves: the compiler removed the body, or it is cheaper
 * than the loop around it. Its spread over launches is then noise over
 * zero (thousands of percent) and says nothing.
 */

static bool launch_ok(const bl_launch *l)
{
    return !l->status && !l->skipped;
}

/* Has an earlier successful launch than j reported `unit`? */
static bool reported_before(const bl_bench_result *b, size_t j, const char *unit)
{
    for (size_t k = 0; k < j; k++) {
        const bl_launch *o = &b->launches[k];
        for (size_t q = 0; launch_ok(o) && q < o->n_metrics; q++)
            if (strcmp(o->metrics[q].unit, unit) == 0)
                return true;
    }
    return false;
}

/* The median and spread of `unit` over the successful launches from j on,
 * each value of that unit counted (v has room for them). */
static void summarize_metric(const bl_bench_result *b, size_t j, struct bl__metric_summary *m,
                             double *v)
{
    size_t n = 0;
    for (size_t k = j; k < b->n_launches; k++) {
        const bl_launch *o = &b->launches[k];
        for (size_t q = 0; launch_ok(o) && q < o->n_metrics; q++)
            if (strcmp(o->metrics[q].unit, m->unit) == 0 && !isnan(o->metrics[q].value))
                v[n++] = o->metrics[q].value;
    }
    m->n = n;
    m->median = n ? bl_stats_median(v, n) : NAN;
    m->spread = NAN;
    if (n > 1 && m->median != 0) {
        double lo = v[0], hi = v[0];
        for (size_t k = 1; k < n; k++) {
            lo = fmin(lo, v[k]);
            hi = fmax(hi, v[k]);
        }
        /* an infinite value (a kInvert counter of 0) has no spread */
        if (isfinite(hi - lo) && isfinite(m->median))
            m->spread = (hi - lo) / fabs(m->median);
    }
}

/* The user metrics of a benchmark, in the order first reported. */
static int metrics_of(const bl_bench_result *b, struct bl__run_row *row)
{
    size_t cap = 0;
    for (size_t j = 0; j < b->n_launches; j++)
        cap += launch_ok(&b->launches[j]) ? b->launches[j].n_metrics : 0;
    if (!cap)
        return 0;
    row->metrics = calloc(cap, sizeof *row->metrics);
    double *v = malloc(cap * sizeof *v);
    if (!row->metrics || !v) {
        free(v);
        return -ENOMEM;
    }
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        for (size_t m = 0; launch_ok(l) && m < l->n_metrics; m++) {
            if (reported_before(b, j, l->metrics[m].unit))
                continue;
            struct bl__metric_summary *s = &row->metrics[row->n_metrics++];
            s->unit = l->metrics[m].unit;
            s->flags = l->metrics[m].flags;
            summarize_metric(b, j, s, v);
        }
    }
    free(v);
    return 0;
}

static int build_row(const bl_bench_result *b, struct bl__run_row *row)
{
    row->bench = b;
    row->rates = (bl_rates){NAN, NAN, NAN};
    row->spread_ns = row->cpu_spread_ns = NAN;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        row->measured += l->n_measured;
        row->invalid += l->n_invalid;
        row->failed |= !launch_ok(l) || isnan(l->ns_per_op);
    }
    row->have = bl_bench_estimate(b, 0.95, &row->e) == 0;
    if (row->have) {
        row->idle = bl__no_measurable_work(&row->e);
        if (bl__spread_ranges(b, &row->e, &row->spread_ns, &row->cpu_spread_ns))
            return -ENOMEM;
        /* the throughput at the centre shown: the rate of a launch with that time */
        for (size_t j = 0; j < b->n_launches; j++) {
            if (!launch_ok(&b->launches[j]) || isnan(b->launches[j].ns_per_op))
                continue;
            bl_launch at = b->launches[j];
            at.ns_per_op = row->e.centre;
            bl_launch_rates(&at, &row->rates);
            break;
        }
    }
    return metrics_of(b, row);
}

int bl__run_rows_build(struct bl__run_rows *rows, const bl_results *r)
{
    memset(rows, 0, sizeof *rows);
    rows->rows = calloc(r->n_benches ? r->n_benches : 1, sizeof *rows->rows);
    if (!rows->rows)
        return -ENOMEM;
    rows->n_rows = r->n_benches;
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        struct bl__run_row *row = &rows->rows[i];
        if (build_row(b, row) != 0) {
            bl__run_rows_fini(rows);
            return -ENOMEM;
        }
        rows->any_alloc |= b->has_alloc;
        rows->any_cpu |= row->have && !isnan(row->e.cpu_ns);
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            rows->any_ref |= !l->status && !isnan(l->ref_cycles_per_op);
            rows->any_rate |=
                !l->status && (l->bytes_per_op > 0 || l->items_per_op > 0 || l->threads > 0);
            rows->any_metrics |= launch_ok(l) && l->n_metrics > 0;
        }
    }
    return 0;
}

void bl__run_rows_fini(struct bl__run_rows *rows)
{
    for (size_t i = 0; rows->rows && i < rows->n_rows; i++)
        free(rows->rows[i].metrics);
    free(rows->rows);
    memset(rows, 0, sizeof *rows);
}

void bl__run_rows_percent(char *out, size_t size, double share)
{
    double p = 100 * share;
    if (isnan(p))
        snprintf(out, size, "-");
    else
        snprintf(out, size, "%.*f%%", p < 1 ? 2 : p < 10 ? 1 : 0, p);
}

bool bl__run_rows_spreads(const struct bl__run_row *row, char *spread, char *cpu_spread,
                          size_t size)
{
    const bl_estimate *e = &row->e;
    snprintf(spread, size, "-");
    snprintf(cpu_spread, size, "-");
    if (!row->have || row->idle)
        return false;
    if (!isnan(row->spread_ns))
        bl_format_duration(spread, size, row->spread_ns);
    else if (e->n_launches > 1)
        bl__run_rows_percent(spread, size, e->spread);
    if (!isnan(row->cpu_spread_ns))
        bl_format_duration(cpu_spread, size, row->cpu_spread_ns);
    else
        bl__run_rows_percent(cpu_spread, size, e->cpu_spread);
    return !isnan(row->spread_ns) || !isnan(row->cpu_spread_ns);
}

int bl__run_rows_own_plan(char *out, size_t size, const bl_bench_result *b)
{
    int n = 0;
    if (b->own_time_s > 0 && b->own_count > 0)
        n = snprintf(out, size,
                     "its own plan: time budget %g s over %d launches (time-budget-s and "
                     "launches above are the run's)",
                     b->own_time_s, b->own_count);
    else if (b->own_time_s > 0)
        n = snprintf(out, size, "its own time budget: %g s (time-budget-s above is the run's)",
                     b->own_time_s);
    else if (b->own_count > 0)
        n = snprintf(out, size, "its own count: %d launches (launches above is the run's)",
                     b->own_count);
    else if (size)
        out[0] = '\0';
    return n > 0;
}

int bl__run_rows_cpu_clock_note(char *out, size_t size, const bl_bench_result *b)
{
    /* the launches that gave a value, as the estimate's cpu/op is over them */
    bool process = false, thread = false;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped || isnan(l->ns_per_op))
            continue;
        process |= l->cpu_clock == BL_CPU_PROCESS;
        thread |= l->cpu_clock != BL_CPU_PROCESS;
    }
    int n = 0;
    if (process && !thread)
        n = snprintf(out, size,
                     "cpu/op is the CPU time of the whole worker process (every thread, "
                     ".process_cpu), per op of one thread");
    else if (process)
        n = snprintf(out, size,
                     "no cpu/op: its launches measured the CPU time on two clocks (the "
                     "process's, .process_cpu, and the thread's)");
    else if (size)
        out[0] = '\0';
    return n > 0;
}
