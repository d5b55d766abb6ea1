/*
 * gbench_json_write.c - Google Benchmark's JSON, written from benchlab's
 * results, for `--benchmark_format=json` and the tools that read Google
 * Benchmark's output (its tools/compare.py among them).
 *
 * Each launch (a worker process) is one Google Benchmark repetition, run
 * type "iteration": real_time is the launch's time per op (median of its
 * clean batches, loop overhead subtracted), cpu_time the same median of the
 * batches' on-CPU time per op (bl_launch_cpu_per_op: where it was measured
 * and the batches had no pauses; else the real time, flagged
 * "cpu_time_is_real_time"), iterations
 * the repetitions of its clean
 * measured batches; with threads, Google Benchmark's convention
 * (bl__gbench_times: iterations of all threads, real_time over them).
 * Times are in the launch's unit (.time_unit, Google
 * Benchmark's Unit(); else the run's --time-unit; else ns). With more than
 * one launch, the mean, median, stddev and cv aggregates follow, as Google
 * Benchmark writes them: in the first launch's unit, with the label only
 * when every launch had the same. A benchmark with
 * no finished launch is one entry with error_occurred and error_message,
 * and, as Google Benchmark always writes them, iterations, real_time,
 * cpu_time and time_unit (what its failed launch measured, else zeros).
 * Names lose benchlab's "Benchmark" prefix and Go's "#NN" suffix of
 * repeated names; spaces in them stay (results read back from the Go
 * format have them as '_').
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/base.h"
#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/stats.h"
#include "gbench.h"

static int launch_ok(const bl_launch *l)
{
    return l->status == 0 && !l->skipped && isfinite(l->ns_per_op);
}

static void write_common(FILE *f, const char *name, const char *run_name, const char *run_type,
                         int family, int instance, size_t reps, int threads)
{
    fputs("    {\n      \"name\": ", f);
    bl__json_string(f, name);
    fprintf(f, ",\n      \"family_index\": %d,\n      \"per_family_instance_index\": %d,\n", family,
            instance);
    fputs("      \"run_name\": ", f);
    bl__json_string(f, run_name);
    fprintf(f, ",\n      \"run_type\": \"%s\",\n      \"repetitions\": %zu,\n", run_type, reps);
    (void)threads;
}

static void write_context(FILE *f, const bl_results *res, const char *executable)
{
    const char *date = bl_results_get_meta(res, "date");
    const char *host = bl_results_get_meta(res, "host");
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    fputs("{\n  \"context\": {\n    \"date\": ", f);
    bl__json_string(f, date ? date : "");
    fputs(",\n    \"host_name\": ", f);
    bl__json_string(f, host ? host : "");
    fputs(",\n    \"executable\": ", f);
    bl__json_string(f, executable ? executable : "");
    fprintf(f, ",\n    \"num_cpus\": %ld,\n    \"mhz_per_cpu\": 0,\n", ncpu > 0 ? ncpu : 1);
    fputs("    \"cpu_scaling_enabled\": false,\n    \"caches\": [],\n", f);
    fputs("    \"library_build_type\": \"release\",\n", f);
    fputs("    \"library\": \"benchlab-gbench\",\n    \"benchlab_version\": ", f);
    bl__json_string(f, bl_version());
    fputs("\n  },\n  \"benchmarks\": [\n", f);
}

/* Google Benchmark's form of a benchmark that did not run. */
static void write_failed(FILE *f, const bl_results *res, const bl_bench_result *br,
                         const char *name, int fam, int inst, int first)
{
    const char *msg = "no launch finished";
    const bl_launch *said = NULL;
    for (size_t i = 0; i < br->n_launches; i++)
        if (br->launches[i].message) {
            msg = br->launches[i].message;
            said = &br->launches[i];
        }
    fputs(first ? "" : ",\n", f);
    write_common(f, name, name, "iteration", fam, inst, 1, 1);
    fputs("      \"repetition_index\": 0,\n      \"threads\": 1,\n", f);
    /* Google Benchmark 1.8's two forms: a skip (SkipWithMessage) or an error */
    if (said && said->skipped)
        fputs("      \"skipped\": true,\n      \"skip_message\": ", f);
    else
        fputs("      \"error_occurred\": true,\n      \"error_message\": ", f);
    bl__json_string(f, msg);
    /* the fields Google Benchmark always writes (its tools/compare.py
     * reads them): what the failed launch measured, else zeros */
    double rt = said && isfinite(said->ns_per_op) ? said->ns_per_op : 0;
    double ct = said ? bl_launch_cpu_per_op(said) : NAN;
    const bl_launch *any = said ? said : br->n_launches ? &br->launches[0] : NULL;
    const char *unit = bl__gbench_unit(res, any);
    double k = bl__gbench_unit_scale(unit);
    fprintf(f, ",\n      \"iterations\": %llu,\n      \"real_time\": ",
            said ? (unsigned long long)said->measured_reps : 0ull);
    bl__json_number(f, rt * k);
    fputs(",\n      \"cpu_time\": ", f);
    bl__json_number(f, isfinite(ct) ? ct * k : 0);
    fprintf(f, ",\n      \"time_unit\": \"%s\"\n    }", unit);
}

/* A counter's value as Google Benchmark 1.7.1 writes it (json_reporter.cc,
 * FormatKV): infinities and NaN as JavaScript's Infinity, -Infinity and
 * NaN, which its tools/compare.py (Python's json) reads; a kInvert counter
 * of 0 is inf, and the stddev of infinities NaN. */
static void gb_counter_number(FILE *f, double x)
{
    if (isnan(x))
        fputs("NaN", f);
    else if (isinf(x))
        fputs(x < 0 ? "-Infinity" : "Infinity", f);
    else
        bl__json_number(f, x);
}

/* One benchmark's launches: real and CPU time per op (ns), and the counters;
 * the unit of the first, and the label every launch has (NULL: none, or
 * not the same). */
struct series {
    const char *unit, *label;
    const double *rt, *ct;
    struct gb_counter (*cs)[32]; /* not const: ISO C before C2X cannot add it to an array pointer */
    const size_t *ncs;
    size_t n;
};

/* The mean, median, stddev and cv aggregates of a benchmark's launches. */
static void write_aggregates(FILE *f, const char *name, int fam, int inst, int threads,
                             const struct series *s)
{
    static const char *const agg_name[] = {"mean", "median", "stddev", "cv"};
    for (int a = 0; a < 4; a++) {
        struct bl__buf an = {0};
        bl__buf_printf(&an, "%s_%s", name, agg_name[a]);
        fputs(",\n", f);
        write_common(f, an.data ? an.data : name, name, "aggregate", fam, inst, s->n, threads);
        free(an.data);
        fprintf(f, "      \"threads\": %d,\n      \"aggregate_name\": \"%s\",\n", threads,
                agg_name[a]);
        fprintf(f, "      \"aggregate_unit\": \"%s\",\n", a == 3 ? "percentage" : "time");
        double k = a == 3 ? 1 : bl__gbench_unit_scale(s->unit); /* cv: a fraction */
        fprintf(f, "      \"iterations\": %zu,\n      \"real_time\": ", s->n);
        bl__json_number(f, bl__gbench_aggregate(a, NULL, s->rt, s->n) * k);
        fputs(",\n      \"cpu_time\": ", f);
        bl__json_number(f, bl__gbench_aggregate(a, NULL, s->ct, s->n) * k);
        fprintf(f, ",\n      \"time_unit\": \"%s\"", s->unit);
        /* the counters every launch has, aggregated the same way */
        for (size_t c = 0; c < s->ncs[0]; c++) {
            double *v = calloc(s->n, sizeof *v);
            size_t nv = 0;
            for (size_t r = 0; v && r < s->n; r++)
                for (size_t q = 0; q < s->ncs[r]; q++)
                    if (strcmp(s->cs[r][q].name, s->cs[0][c].name) == 0) {
                        v[nv++] = s->cs[r][q].value; /* one per launch: names are unique */
                        break;
                    }
            if (v && nv == s->n) {
                fputs(",\n      ", f);
                bl__json_string(f, s->cs[0][c].name);
                fputs(": ", f);
                gb_counter_number(f, bl__gbench_aggregate(a, NULL, v, nv));
            }
            free(v);
        }
        if (s->label) {
            fputs(",\n      \"label\": ", f);
            bl__json_string(f, s->label);
        }
        fputs("\n    }", f);
    }
}

/*
 * Each benchmark's family (the name up to its first '/', numbered in order
 * of appearance) and its index among the family's: fam[b], inst[b]. 0 or
 * -ENOMEM.
 */
static int number_families(const bl_results *res, int *fam, int *inst)
{
    size_t n = res->n_benches;
    char **families = calloc(n ? n : 1, sizeof *families);
    int *seen = calloc(n ? n : 1, sizeof *seen);
    int n_family = 0, err = families && seen ? 0 : -ENOMEM;
    for (size_t b = 0; !err && b < n; b++) {
        char *name = bl__gbench_name(res->benches[b].name);
        if (!name) {
            err = -ENOMEM;
            break;
        }
        size_t flen = strcspn(name, "/");
        fam[b] = -1;
        for (int i = 0; i < n_family; i++)
            if (strlen(families[i]) == flen && strncmp(families[i], name, flen) == 0)
                fam[b] = i;
        if (fam[b] < 0) {
            families[n_family] = strndup(name, flen);
            if (!families[n_family])
                err = -ENOMEM;
            fam[b] = n_family++;
        }
        inst[b] = seen[fam[b]]++;
        free(name);
    }
    for (int i = 0; families && i < n_family; i++)
        free(families[i]);
    free(families);
    free(seen);
    return err;
}

int bl_gbench_json_write(FILE *f, const bl_results *res, const char *executable)
{
    int *fams = calloc(res->n_benches ? res->n_benches : 1, sizeof *fams);
    int *insts = calloc(res->n_benches ? res->n_benches : 1, sizeof *insts);
    int err = fams && insts ? number_families(res, fams, insts) : -ENOMEM;
    if (err) {
        free(fams);
        free(insts);
        return err;
    }
    write_context(f, res, executable);
    int first = 1;
    for (size_t b = 0; b < res->n_benches && !err; b++) {
        const bl_bench_result *br = &res->benches[b];
        char *name = bl__gbench_name(br->name);
        if (!name) {
            err = -ENOMEM;
            break;
        }
        int fam = fams[b], inst = insts[b];
        size_t n_ok = 0;
        for (size_t i = 0; i < br->n_launches; i++)
            n_ok += launch_ok(&br->launches[i]);
        if (n_ok == 0) {
            write_failed(f, res, br, name, fam, inst, first);
            first = 0;
            free(name);
            err = bl__gbench_json_extras(f, res, b, fams, insts); /* a fit may end here */
            continue;
        }
        double *rt = calloc(n_ok, sizeof *rt), *ct = calloc(n_ok, sizeof *ct);
        struct gb_counter(*cs)[32] = calloc(n_ok, sizeof *cs);
        size_t *ncs = calloc(n_ok, sizeof *ncs);
        if (!rt || !ct || !cs || !ncs) {
            free(rt);
            free(ct);
            free(cs);
            free(ncs);
            free(name);
            err = -ENOMEM;
            break;
        }
        int threads = 1;
        size_t k = 0;
        const char *unit0 = NULL;
        for (size_t i = 0; i < br->n_launches; i++) {
            const bl_launch *l = &br->launches[i];
            if (!launch_ok(l))
                continue;
            const char *unit = bl__gbench_unit(res, l);
            double scale = bl__gbench_unit_scale(unit);
            if (!unit0)
                unit0 = unit;
            struct gb_times t;
            bl__gbench_times(l, &t); /* Google Benchmark's thread convention */
            threads = t.threads;
            rt[k] = t.real;
            ct[k] = t.cpu; /* the real time when not measured: "cpu_time_is_real_time" */
            ncs[k] = bl__gbench_counters(l, cs[k], 32, 0);
            fputs(first ? "" : ",\n", f);
            first = 0;
            write_common(f, name, name, "iteration", fam, inst, n_ok, threads);
            fprintf(f, "      \"repetition_index\": %zu,\n      \"threads\": %d,\n", k, threads);
            fprintf(f, "      \"iterations\": %llu,\n      \"real_time\": ", t.iterations);
            bl__json_number(f, rt[k] * scale);
            fputs(",\n      \"cpu_time\": ", f);
            bl__json_number(f, ct[k] * scale);
            fprintf(f, ",\n      \"time_unit\": \"%s\"", unit);
            if (t.cpu_is_real)
                fputs(",\n      \"cpu_time_is_real_time\": true", f);
            if (l->disturbed) /* no clean batch anywhere: docs/engine.md, "Invalidation" */
                fputs(",\n      \"disturbed\": true", f);
            for (size_t c = 0; c < ncs[k]; c++) {
                fputs(",\n      ", f);
                bl__json_string(f, cs[k][c].name);
                fputs(": ", f);
                gb_counter_number(f, cs[k][c].value);
            }
            if (l->label) { /* last, as Google Benchmark writes it */
                fputs(",\n      \"label\": ", f);
                bl__json_string(f, l->label);
            }
            fputs("\n    }", f);
            k++;
        }
        if (n_ok > 1)
            write_aggregates(
                f, name, fam, inst, threads,
                &(struct series){unit0, bl__gbench_same_label(br), rt, ct, cs, ncs, n_ok});
        free(rt);
        free(ct);
        free(cs);
        free(ncs);
        free(name);
        err = bl__gbench_json_extras(f, res, b, fams, insts); /* statistics, BigO, RMS */
    }
    fputs("\n  ]\n}\n", f);
    free(fams);
    free(insts);
    if (err)
        return err;
    return ferror(f) ? -EIO : 0;
}
