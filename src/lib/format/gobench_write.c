/*
 * gobench_write.c - results in the Go benchmark data format.
 *
 * Config lines (goos, goarch, cpu, pkg) describe the suite and machine and
 * stay the same from run to run, so benchstat pairs rows of two runs in
 * one table. Per-run values (date, host, kernel, benchlab version) are
 * written as '# key: value' comments: the format ignores '#' lines, so
 * benchstat does not split tables on them, and benchlab's reader keeps
 * them as metadata. Numbers are printed as Go's testing package does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"

/* The value written for a time that overhead subtraction took to zero:
 * benchstat reads a literal "0 ns/op" as a unit of its own (its tidying
 * skips zero), which would split the table. */
#define ZERO_FLOOR_NS 0.001

void bl_gobench_format_value(char *out, size_t size, double x)
{
    double y = fabs(x);
    int prec;
    if (y == 0 || y >= 999.95)
        prec = 0;
    else if (y >= 99.995)
        prec = 1;
    else if (y >= 9.9995)
        prec = 2;
    else if (y >= 0.99995)
        prec = 3;
    else if (y >= 0.099995)
        prec = 4;
    else if (y >= 0.0099995)
        prec = 5;
    else if (y >= 0.00099995)
        prec = 6;
    else
        prec = 7;
    snprintf(out, size, "%.*f", prec, x);
}

/* A configuration key: one word before the colon. */
static void key(FILE *f, const char *k)
{
    for (const unsigned char *p = (const unsigned char *)(k ? k : ""); *p; p++)
        fputc(*p == ':' || *p <= ' ' || *p == 0x7F ? '_' : *p, f);
}

void bl_gobench_write_header(FILE *f, const bl_results *r)
{
    /* keys and values may come from anywhere (--pkg, merged files): one line each */
    for (size_t i = 0; i < r->n_meta; i++) {
        fputs("# ", f);
        key(f, r->meta[i].key);
        fputs(": ", f);
        bl__gobench_text(f, r->meta[i].value);
        fputc('\n', f);
    }
    for (size_t i = 0; i < r->n_config; i++) {
        key(f, r->config[i].key);
        fputs(": ", f);
        bl__gobench_text(f, r->config[i].value);
        fputc('\n', f);
    }
}

void bl_gobench_write_units(FILE *f, const bl_results *r, size_t *done)
{
    for (; *done < r->n_units; (*done)++) {
        fputs("Unit ", f);
        bl__gobench_field(f, r->units[*done].unit);
        fputc(' ', f);
        bl__gobench_field(f, r->units[*done].key);
        fputc('=', f);
        bl__gobench_field(f, r->units[*done].value);
        fputc('\n', f);
    }
}

void bl_gobench_write_launch(FILE *f, const bl_bench_result *b, const bl_launch *l)
{
    if (l->status != 0 || l->skipped || isnan(l->ns_per_op))
        return;
    char v[64];
    double ns = l->ns_per_op > 0 ? l->ns_per_op : ZERO_FLOOR_NS;
    bl_gobench_format_value(v, sizeof v, ns);
    bl__gobench_field(f, b->name); /* one result, one line, whatever the name holds */
    fprintf(f, "\t%8llu\t%10s ns/op", (unsigned long long)l->measured_reps, v);
    if (!isnan(l->ref_cycles_per_op)) { /* the same time in cycles of the core (docs/engine.md) */
        bl_gobench_format_value(v, sizeof v, l->ref_cycles_per_op);
        fprintf(f, "\t%10s ref-cycles/op", v);
    }
    /* the on-CPU time per op, under the unit benchlab reads Google
     * Benchmark's cpu_time as; floored as ns/op is, so that no zero splits
     * a benchstat table */
    double cpu = bl_launch_cpu_per_op(l);
    for (size_t i = 0; i < l->n_metrics && !isnan(cpu); i++)
        if (strcmp(l->metrics[i].unit, "cpu-ns/op") == 0)
            cpu = NAN; /* the benchmark's own, or read back from a Go line: once */
    if (!isnan(cpu)) {
        bl_gobench_format_value(v, sizeof v, cpu > 0 ? cpu : ZERO_FLOOR_NS);
        fprintf(f, "\t%10s cpu-ns/op", v);
    }
    /* throughput counts the operations of every thread */
    bl_rates rates;
    bl_launch_rates(l, &rates);
    if (!isnan(rates.mb_per_s))
        fprintf(f, "\t%8.2f MB/s", rates.mb_per_s);
    if (!isnan(rates.items_per_s)) {
        bl_gobench_format_value(v, sizeof v, rates.items_per_s);
        fprintf(f, "\t%10s items/s", v);
    }
    if (!isnan(rates.ops_per_s)) {
        bl_gobench_format_value(v, sizeof v, rates.ops_per_s);
        fprintf(f, "\t%10s ops/s", v);
    }
    /* B/op and allocs/op exactly as Go's testing package writes them:
     * whole numbers, truncated (Go divides integers). */
    if (b->has_alloc)
        fprintf(f, "\t%8lld B/op\t%8lld allocs/op", (long long)b->alloc_bytes_per_op,
                (long long)b->allocs_per_op);
    for (int i = 0; i < b->n_counters; i++) {
        bl_gobench_format_value(v, sizeof v, b->counter_per_op[i]);
        fprintf(f, "\t%10s ", v);
        bl__gobench_field(f, b->counter_unit[i]);
    }
    for (size_t i = 0; i < l->n_metrics; i++) {
        if (isnan(l->metrics[i].value))
            continue;
        bl_gobench_format_value(v, sizeof v, l->metrics[i].value);
        fprintf(f, "\t%10s ", v); /* a unit with spaces would forge more values */
        bl__gobench_field(f, l->metrics[i].unit);
    }
    fputc('\n', f);
}

void bl_gobench_write_complexity(FILE *f, const bl_results *r)
{
    /* comments: benchstat ignores them, benchlab's reader keeps them as metadata */
    for (size_t i = 0; i < r->n_complexity; i++) {
        const bl_complexity_result *c = &r->complexity[i];
        char what[512];
        bl_format_complexity(what, sizeof what, c);
        fputs("# complexity: ", f);
        bl__gobench_field(f, c->name);
        fputs(": ", f);
        bl__gobench_text(f, what);
        if (c->message && c->best.curve) {
            fputs("; warning: ", f);
            bl__gobench_text(f, c->message);
        }
        fputc('\n', f);
    }
}

void bl_gobench_write_notes(FILE *f, const bl_results *r)
{
    for (size_t i = 0; i < r->n_benches; i++) {
        bl_diagnosis d;
        char lines[3][BL_DIAGNOSIS_LINE];
        int n = bl_bench_diagnose(&r->benches[i], &d) == 0 ? bl_format_diagnosis(&d, lines) : 0;
        for (int k = 0; k < n; k++) {
            fputs("# note ", f);
            bl__gobench_field(f, r->benches[i].name);
            fputs(": ", f);
            bl__gobench_text(f, lines[k]);
            fputc('\n', f);
        }
    }
}

void bl_gobench_write(FILE *f, const bl_results *r)
{
    bl_gobench_write_header(f, r);
    size_t units = 0;
    bl_gobench_write_units(f, r, &units);
    for (size_t i = 0; i < r->n_benches; i++)
        for (size_t j = 0; j < r->benches[i].n_launches; j++)
            bl_gobench_write_launch(f, &r->benches[i], &r->benches[i].launches[j]);
    bl_gobench_write_complexity(f, r);
    bl_gobench_write_notes(f, r);
}
