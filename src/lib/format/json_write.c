/*
 * json_write.c - benchlab's own results as JSON, schema "benchlab/1"
 * (docs/json-schema.md): everything a run measured, so that nothing has
 * to be re-measured to be re-analysed. Per launch: every batch (sample),
 * the estimate with its confidence interval and outlier count, the
 * overhead, the invalidated batches by reason, the instruments' metrics;
 * per benchmark the estimate over launches and the diagnosis (drift, modes);
 * per run: configuration and metadata. `benchlab compare` reads it back
 * (src/lib/compare/json_in.c).
 *
 * Numbers are written in the shortest form that reads back to the same
 * double; NaN and infinities, which JSON lacks, are written as null.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/stats.h"

#define jstr bl__json_string

static const char *status_name(int status)
{
    switch (status) {
    case 0:
        return "ok";
    case BL_ECRASH:
        return "crash";
    case BL_ETIMEOUT:
        return "timeout";
    case BL_EEXIT:
        return "exit";
    case BL_EPROTO:
        return "protocol";
    case BL_EBENCH:
        return "failed";
    case BL_EINTR:
        return "interrupted";
    default:
        return "error";
    }
}

static void labels(FILE *f, const bl_label *l, size_t n)
{
    fputc('{', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        jstr(f, l[i].key);
        fputc(':', f);
        jstr(f, l[i].value);
    }
    fputc('}', f);
}

/* A string member, null when absent. */
static void str_or_null(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    if (s)
        jstr(f, s);
    else
        fputs("null", f);
}

/* The launch's size for complexity fits (bl_size): present only when the
 * worker named one, so that files of benchmarks without sizes stay as they
 * were. The curve asked is named as the complexity fits name it. */
static void write_size(FILE *f, const bl_size *z)
{
    if (!z->param && !z->group && !(z->n_sum > 0))
        return;
    fputs(",\"size\":{\"n\":", f);
    bl__json_number(f, z->n);
    str_or_null(f, "param", z->param);
    fputs(",\"complexity\":", f);
    jstr(f, z->complexity == BL_COMPLEXITY_NONE   ? "none"
            : z->complexity == BL_COMPLEXITY_AUTO ? "auto"
                                                  : bl_complexity_name(z->complexity));
    str_or_null(f, "group", z->group);
    fputs(",\"user_g\":", f);
    bl__json_number(f, z->user_g);
    str_or_null(f, "user_name", z->user_name);
    fputs(",\"n_sum\":", f);
    bl__json_number(f, z->n_sum);
    fputs(",\"user_g_sum\":", f);
    bl__json_number(f, z->user_g_sum);
    fputc('}', f);
}

static void write_launch(FILE *f, const bl_launch *l)
{
    fputs("{\"status\":", f);
    jstr(f, status_name(l->status));
    fprintf(f, ",\"skipped\":%s,\"disturbed\":%s,\"message\":", l->skipped ? "true" : "false",
            l->disturbed ? "true" : "false");
    if (l->message)
        jstr(f, l->message);
    else
        fputs("null", f);
#define NUM(key, v)                                                                                \
    do {                                                                                           \
        fputs(",\"" key "\":", f);                                                                 \
        bl__json_number(f, (v));                                                                   \
    } while (0)
    NUM("ns_per_op", l->ns_per_op);
    NUM("raw_ns_per_op", l->raw_ns_per_op);
    NUM("overhead_ns", l->overhead_ns);
    NUM("ref_ns", l->ref_ns);
    NUM("ref_cycles_per_op", l->ref_cycles_per_op);
    NUM("clock_ns", l->clock_ns);
    NUM("pause_ns", l->pause_ns);
    NUM("bytes_per_op", l->bytes_per_op);
    NUM("items_per_op", l->items_per_op);
    NUM("bytes_sum_per_op", l->bytes_sum_per_op);
    NUM("items_sum_per_op", l->items_sum_per_op);
    fprintf(f, ",\"loop_iterations\":%llu", (unsigned long long)l->loop_iterations);
    if (l->counter_clock) {
        fputs(",\"counter_clock\":", f);
        jstr(f, l->counter_clock == BL_CLOCK_REAL     ? "real"
                : l->counter_clock == BL_CLOCK_MANUAL ? "manual"
                                                      : "cpu");
    }
    if (l->cpu_clock == BL_CPU_PROCESS) /* absent: the thread's, as files from before */
        fputs(",\"cpu_clock\":\"process\"", f);
    fprintf(f, ",\"threads\":%d,\"tuned_reps\":%llu,\"tune_stale\":%s", l->threads,
            (unsigned long long)l->tuned_reps, l->tune_stale ? "true" : "false");
    /* what the benchmark said of itself, present only when said */
    if (l->intrinsic)
        fprintf(f, ",\"intrinsic\":%u", l->intrinsic);
    if (l->label)
        str_or_null(f, "label", l->label);
    if (l->time_unit[0])
        str_or_null(f, "time_unit", l->time_unit);
    write_size(f, &l->size);
    fprintf(f, ",\"measured_reps\":%llu,\"n_measured\":%zu,\"n_invalid\":%zu,\"invalid_by\":{",
            (unsigned long long)l->measured_reps, l->n_measured, l->n_invalid);
    for (unsigned i = 0; i < BL_INVALID_NREASONS; i++) {
        if (i)
            fputc(',', f);
        jstr(f, bl_invalid_name(i));
        fprintf(f, ":%zu", l->invalid_by[i]);
    }
    /* the software counters over the measured batches (derived from the
     * samples below; readers recompute them with bl_launch_software) */
    bl_software sw;
    bl_launch_software(l, &sw);
    fprintf(f, "},\"software\":{\"batches\":%zu,\"reps\":%llu", sw.batches,
            (unsigned long long)sw.reps);
    NUM("wall_ns", sw.wall_ns);
    NUM("task_clock_ns", sw.task_clock_ns);
    fprintf(f,
            ",\"context_switches\":%llu,\"migrations\":%llu,\"page_faults\":%llu,"
            "\"major_faults\":%llu",
            (unsigned long long)sw.context_switches, (unsigned long long)sw.migrations,
            (unsigned long long)sw.page_faults, (unsigned long long)sw.major_faults);
    fputs("},\"metrics\":{", f);
    for (size_t i = 0; i < l->n_metrics; i++) {
        if (i)
            fputc(',', f);
        jstr(f, l->metrics[i].unit);
        fputc(':', f);
        bl__json_metric_number(f, l->metrics[i].value);
    }
    /* which metrics are counters: how outputs name and show them, and their threads' sum */
    fputs("},\"user_counters\":{", f);
    for (size_t i = 0, k = 0; i < l->n_metrics; i++) {
        const bl_metric *m = &l->metrics[i];
        if (!m->is_counter)
            continue;
        if (k++)
            fputc(',', f);
        jstr(f, m->unit);
        fprintf(f, ":{\"flags\":%u,\"counter_flags\":%u,\"sum\":", m->flags, m->counter_flags);
        bl__json_metric_number(f, m->counter_sum);
        fputc('}', f);
    }
    /* the flags of the other metrics (bl_report_metric_ex: directions, a
     * rate and its value per repetition, inverted), so that a file read back
     * is shown, compared and written again as the run was */
    fputs("},\"metric_flags\":{", f);
    for (size_t i = 0, k = 0; i < l->n_metrics; i++) {
        const bl_metric *m = &l->metrics[i];
        if (m->is_counter || !m->flags)
            continue;
        if (k++)
            fputc(',', f);
        jstr(f, m->unit);
        fprintf(f, ":{\"flags\":%u", m->flags);
        if (m->flags & BL_RATE) {
            fputs(",\"per_op\":", f);
            bl__json_metric_number(f, m->per_op);
        }
        fputc('}', f);
    }
    fputs("},\"estimate\":", f);
    double *per_op = NULL;
    long n = bl_launch_per_op(l, &per_op);
    bl_summary s;
    if (n > 0 && bl_stats_summarize(per_op, (size_t)n, 0.95, &s) == 0) {
        fprintf(f, "{\"n\":%zu", s.n);
        NUM("median", s.median);
        NUM("ci_lo", s.ci_lo);
        NUM("ci_hi", s.ci_hi);
        NUM("confidence", s.confidence);
        NUM("mean", s.mean);
        NUM("stddev", s.stddev);
        NUM("min", s.min);
        NUM("max", s.max);
        NUM("mad", s.mad);
        fprintf(f, ",\"n_outliers\":%zu}", s.n_outliers);
    } else {
        fputs("null", f);
    }
    free(per_op);
    fputs(",\"samples\":[", f);
    for (size_t i = 0; i < l->n_samples; i++) {
        const bl_sample *b = &l->samples[i];
        if (i)
            fputc(',', f);
        fprintf(f, "\n{\"stage\":\"%c\",\"reps\":%llu,\"ns\":", b->stage ? b->stage : '?',
                (unsigned long long)b->reps);
        bl__json_number(f, b->ns);
        fputs(",\"cpu_ns\":", f);
        bl__json_number(f, b->cpu_ns >= 0 ? b->cpu_ns : NAN);
        fprintf(f,
                ",\"nivcsw\":%u,\"migrations\":%u,\"minflt\":%u,\"majflt\":%u,\"pauses\":%u,"
                "\"invalid\":%u,\"ref_ns\":",
                b->nivcsw, b->migrations, b->minflt, b->majflt, b->pauses, b->invalid);
        bl__json_number(f, b->ref_ns > 0 ? b->ref_ns : NAN);
        if (b->proc_cpu_ns > 0) { /* .process_cpu: the process's (absent: not measured) */
            fputs(",\"proc_cpu_ns\":", f);
            bl__json_number(f, b->proc_cpu_ns);
        }
        fputc('}', f);
    }
    fputs("]", f);
    NUM("wall_s", l->wall_s);
    fprintf(f, ",\"exit_code\":%d,\"term_signal\":%d}", l->exit_code, l->term_signal);
#undef NUM
}

/* The benchmark's estimate over its launches (bl_bench_estimate), null when
 * no launch gave a value. */
static void write_estimate(FILE *f, const bl_bench_result *b)
{
    bl_estimate e;
    if (bl_bench_estimate(b, 0.95, &e) != 0) {
        fputs("null", f);
        return;
    }
    static const char *const method[] = {"none", "median-of-launches", "median-of-batches",
                                         "t-over-launches"};
    fprintf(f, "{\"n_launches\":%zu,\"ci_method\":\"%s\"", e.n_launches,
            e.ci_method >= 0 && e.ci_method <= 3 ? method[e.ci_method] : "none");
#define NUM(key, v)                                                                                \
    do {                                                                                           \
        fputs(",\"" key "\":", f);                                                                 \
        bl__json_number(f, (v));                                                                   \
    } while (0)
    NUM("centre", e.centre);
    NUM("ci_lo", e.ci_lo);
    NUM("ci_hi", e.ci_hi);
    NUM("confidence", e.confidence);
    NUM("median", e.median);
    NUM("mean", e.mean);
    NUM("ref_cycles_per_op", e.ref_cycles);
    NUM("cpu_ns_per_op", e.cpu_ns);
    if (e.cpu_clock == BL_CPU_PROCESS && !isnan(e.cpu_ns))
        fputs(",\"cpu_clock\":\"process\"", f);
    NUM("min", e.min);
    NUM("max", e.max);
    NUM("spread", e.spread);
    NUM("cpu_spread", e.cpu_spread);
    NUM("cv", e.cv);
    NUM("batch_min", e.batch_min);
    NUM("batch_cv", e.batch_cv);
    NUM("overhead_ns", e.overhead_ns);
#undef NUM
    fprintf(f, ",\"n_batches\":%zu,\"n_measured\":%zu,\"disturbed\":%s}", e.n_batches, e.n_measured,
            e.disturbed ? "true" : "false");
}

/* One modality judgement: null when not tested. */
static void write_modes(FILE *f, bool tested, bool flagged, const bl_modality *m)
{
    if (!tested) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"flagged\":%s,\"mvalue\":", flagged ? "true" : "false");
    bl__json_number(f, m->mvalue);
    fprintf(f, ",\"n\":%zu,\"n_peaks\":%zu,\"modes_ns\":[", m->n, m->n_peaks);
    for (size_t q = 0; q < m->n_modes; q++) {
        if (q)
            fputc(',', f);
        bl__json_number(f, m->modes[q]);
    }
    fputs("]}", f);
}

/* Drift within launches and modes (bl_bench_diagnose); each part null when
 * there was too little to judge. */
static void write_diagnosis(FILE *f, const bl_bench_result *b)
{
    bl_diagnosis d;
    if (bl_bench_diagnose(b, &d) != 0) {
        fputs("null", f);
        return;
    }
    fputs("{\"drift\":", f);
    if (d.drift_tested) {
        fprintf(f, "{\"flagged\":%s,\"pct\":", d.drift ? "true" : "false");
        bl__json_number(f, d.drift_pct);
        fputs(",\"p\":", f);
        bl__json_number(f, d.drift_p);
        fprintf(f, ",\"n\":%zu}", d.drift_n);
    } else {
        fputs("null", f);
    }
    fputs(",\"batch_modes\":", f);
    write_modes(f, d.batches_tested, d.batches_multimodal, &d.batches);
    fputs(",\"launch_modes\":", f);
    write_modes(f, d.launches_tested, d.launches_multimodal, &d.launches);
    fputc('}', f);
}

/* The instruments' passes of a benchmark (--alloc, --counters): present only
 * when the pass ran, with its values or the reason it has none. */
static void write_passes(FILE *f, const bl_bench_result *b)
{
    if (b->has_alloc || b->alloc_message) {
        fputs(",\"alloc\":{", f);
        if (b->has_alloc) {
            fputs("\"bytes_per_op\":", f);
            bl__json_number(f, b->alloc_bytes_per_op);
            fputs(",\"allocs_per_op\":", f);
            bl__json_number(f, b->allocs_per_op);
        } else {
            fputs("\"message\":", f);
            jstr(f, b->alloc_message);
        }
        fputc('}', f);
    }
    if (b->n_counters > 0 || b->counters_message) {
        fputs(",\"counters\":{", f);
        if (b->n_counters > 0) {
            fprintf(f, "\"scaled\":%s,\"per_op\":{", b->counters_scaled ? "true" : "false");
            for (int i = 0; i < b->n_counters; i++) {
                if (i)
                    fputc(',', f);
                jstr(f, b->counter_unit[i]);
                fputc(':', f);
                bl__json_number(f, b->counter_per_op[i]);
            }
            fputc('}', f);
        } else {
            fputs("\"message\":", f);
            jstr(f, b->counters_message);
        }
        fputc('}', f);
    }
}

/* The benchmark's own budget and count, where they differ from the run's
 * (meta time-budget-s and launches): present only then. */
static void write_own_plan(FILE *f, const bl_bench_result *b)
{
    if (!(b->own_time_s > 0) && b->own_count <= 0)
        return;
    fputs(",\"own_plan\":{\"time_s\":", f);
    bl__json_number(f, b->own_time_s > 0 ? b->own_time_s : NAN);
    fputs(",\"count\":", f);
    if (b->own_count > 0)
        fprintf(f, "%d}", b->own_count);
    else
        fputs("null}", f);
}

static void write_fit(FILE *f, const bl_complexity_result *c, const bl_complexity_fit *x)
{
    fputs("{\"curve\":", f);
    jstr(f, x->curve == BL_OUSER && c->user_name ? c->user_name : bl_complexity_name(x->curve));
    fputs(",\"coefficient\":", f);
    bl__json_number(f, x->coefficient);
    fputs(",\"rms\":", f);
    bl__json_number(f, x->rms);
    fputc('}', f);
}

/* The complexity fits: one object per group of sizes. */
static void write_complexity(FILE *f, const bl_results *r)
{
    fputs(",\"complexity\":[", f);
    for (size_t i = 0; i < r->n_complexity; i++) {
        const bl_complexity_result *c = &r->complexity[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        jstr(f, c->name);
        fputs(",\"param\":", f);
        jstr(f, c->param);
        fputs(",\"asked\":", f);
        jstr(f, c->mode == BL_COMPLEXITY_AUTO ? "auto" : bl_complexity_name(c->mode));
        fputs(",\"points\":[", f);
        for (size_t k = 0; k < c->n_points; k++) {
            fputs(k ? ",{\"n\":" : "{\"n\":", f);
            bl__json_number(f, c->n[k]);
            fputs(",\"ns_per_op\":", f);
            bl__json_number(f, c->ns_per_op[k]);
            fputc('}', f);
        }
        fputs("],\"best\":", f);
        if (c->best.curve)
            write_fit(f, c, &c->best);
        else
            fputs("null", f);
        fprintf(f, ",\"good\":%s,\"fits\":[", c->good ? "true" : "false");
        for (size_t k = 0; k < c->n_fits; k++) {
            if (k)
                fputc(',', f);
            write_fit(f, c, &c->fits[k]);
        }
        fputs("],\"message\":", f);
        if (c->message)
            jstr(f, c->message);
        else
            fputs("null", f);
        fputc('}', f);
    }
    fputc(']', f);
}

static const char *unit_name(const void *arr, size_t i)
{
    return ((const bl_unit_meta *)arr)[i].unit;
}

/* The unit metadata grouped by unit, in order of first appearance: each
 * entry linked to the next of its unit through a hash index of the units
 * (O(n); a scan per entry was O(n^2) on files of many units). */
static int write_units(FILE *f, const bl_results *r)
{
    size_t n = r->n_units;
    size_t *next = malloc((n ? n : 1) * sizeof *next), *last = malloc((n ? n : 1) * sizeof *last);
    struct bl__strindex ix = {0};
    int rc = next && last ? 0 : -ENOMEM;
    for (size_t i = 0; !rc && i < n; i++) {
        next[i] = SIZE_MAX;
        long first =
            bl__strindex_find(&ix, r->units[i].unit, strlen(r->units[i].unit), unit_name, r->units);
        if (first < 0) {
            last[i] = i;
            rc = bl__strindex_add(&ix, r->units[i].unit, i);
        } else {
            next[last[first]] = i;
            last[first] = i;
            last[i] = SIZE_MAX; /* not a group's first entry */
        }
    }
    for (size_t i = 0, groups = 0; !rc && i < n; i++) {
        if (last[i] == SIZE_MAX)
            continue; /* written with its unit's first entry */
        if (groups++)
            fputc(',', f);
        jstr(f, r->units[i].unit);
        fputs(":{", f);
        for (size_t k = i, m = 0; k != SIZE_MAX; k = next[k]) {
            if (m++)
                fputc(',', f);
            jstr(f, r->units[k].key);
            fputc(':', f);
            jstr(f, r->units[k].value);
        }
        fputc('}', f);
    }
    bl__strindex_fini(&ix);
    free(next);
    free(last);
    return rc;
}

int bl_json_write(FILE *f, const bl_results *r)
{
    fputs("{\"schema\":\"benchlab/1\",\"config\":", f);
    labels(f, r->config, r->n_config);
    if (r->time_unit[0])
        str_or_null(f, "time_unit", r->time_unit);
    fputs(",\"meta\":", f);
    labels(f, r->meta, r->n_meta);
    /* unit metadata, as the Go format's Unit lines: {"hits/s":{"better":"higher"}} */
    fputs(",\"units\":{", f);
    if (write_units(f, r))
        return -ENOMEM;
    fputc('}', f);
    fputs(",\"benchmarks\":[", f);
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *b = &r->benches[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        jstr(f, b->name);
        if (b->job) {
            fputs(",\"job\":", f);
            jstr(f, b->job);
        }
        fputs(",\"launches\":[", f);
        for (size_t j = 0; j < b->n_launches; j++) {
            if (j)
                fputc(',', f);
            write_launch(f, &b->launches[j]);
        }
        fputs("],\"estimate\":", f);
        write_estimate(f, b);
        fputs(",\"diagnosis\":", f);
        write_diagnosis(f, b);
        write_passes(f, b);
        write_own_plan(f, b);
        fputc('}', f);
    }
    fputc(']', f);
    write_complexity(f, r);
    fputs("}\n", f);
    return ferror(f) ? -EIO : 0;
}
