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
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"
#include "run_rows.h"
#include "text.h"

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

/* The units the reader takes for the launch's own figures
 * (results_read.c) or that this writer puts on the line itself: a metric or
 * counter of the same name would read back as one of them, or overwrite it
 * (a metric "ns/op" forged the time). */
static const char *const own_units[] = {"ns/op", "sec/op", "ref-cycles/op", "MB/s", "items/s",
                                        "ops/s", "B/op",   "allocs/op",     NULL};

/* A configuration key: one word before the colon. Not starting with '{'
 * or '[' either: the first line of a file, it would make readers take the
 * file for JSON (results_read.c sniffs the first byte). */
static void key(struct bl__buf *b, const char *k)
{
    for (const unsigned char *p = (const unsigned char *)(k ? k : ""); *p; p++) {
        int first = p == (const unsigned char *)k;
        char c = *p == ':' || *p <= ' ' || *p == 0x7F || (first && (*p == '{' || *p == '['))
                     ? '_'
                     : (char)*p;
        bl__buf_append(b, &c, 1);
    }
}

int bl_gobench_write_header(FILE *f, const bl_results *r)
{
    /* keys and values may come from anywhere (--pkg, merged files): one
     * line each, cut past benchstat's line length */
    struct bl__buf b = {0};
    int rc = 0;
    for (size_t i = 0; !rc && i < r->n_meta + r->n_config; i++) {
        const bl_label *kv = i < r->n_meta ? &r->meta[i] : &r->config[i - r->n_meta];
        b.len = 0;
        if (i < r->n_meta)
            bl__buf_puts(&b, "# ");
        key(&b, kv->key);
        bl__buf_puts(&b, ": ");
        bl__gobench_text_buf(&b, kv->value);
        rc = b.data ? bl__gobench_put_line(f, &b, 1) : -ENOMEM;
    }
    bl__buf_fini(&b);
    return rc;
}

int bl_gobench_write_units(FILE *f, const bl_results *r, size_t *done)
{
    struct bl__buf b = {0};
    int rc = 0;
    for (; !rc && *done < r->n_units; (*done)++) {
        b.len = 0;
        bl__buf_puts(&b, "Unit ");
        bl__gobench_field_buf(&b, r->units[*done].unit);
        bl__buf_puts(&b, " ");
        bl__gobench_field_buf(&b, r->units[*done].key);
        bl__buf_puts(&b, "=");
        bl__gobench_field_buf(&b, r->units[*done].value);
        rc = b.data ? bl__gobench_put_line(f, &b, 0) : -ENOMEM;
    }
    bl__buf_fini(&b);
    return rc;
}

/* Whether the unit written at b->data[at..) is taken on this line: one of
 * the writer's own, or one already written at units[0..n). */
static int unit_taken(const struct bl__buf *b, size_t at, const size_t *units, size_t n)
{
    const char *u = b->data + at;
    for (int i = 0; own_units[i]; i++)
        if (strcmp(u, own_units[i]) == 0)
            return 1;
    for (size_t i = 0; i < n; i++)
        if (strncmp(b->data + units[i], u, b->len - at) == 0 &&
            b->data[units[i] + b->len - at] == '\t')
            return 1;
    return 0;
}

/* "\tVALUE UNIT" for a counter or metric. Its unit as written (whitespace
 * and controls '_') must not be taken on the line: a taken one is written
 * "user:UNIT" (again, until it is free), so that it reads back as a unit of
 * its own rather than as the time or another figure. */
static int put_metric(struct bl__buf *b, double value, const char *unit, size_t **units, size_t *n,
                      size_t *cap)
{
    char v[64];
    bl_gobench_format_value(v, sizeof v, value);
    bl__buf_printf(b, "\t%10s ", v);
    size_t at = b->len;
    if (bl__gobench_field_buf(b, unit))
        return -ENOMEM;
    while (b->data && unit_taken(b, at, *units, *n)) {
        b->len = at;
        struct bl__buf was = {0};
        bl__buf_puts(&was, b->data + at); /* the bytes past len: the unit as it stood */
        bl__buf_puts(b, "user:");
        bl__buf_append(b, was.data ? was.data : "", was.len);
        bl__buf_fini(&was);
    }
    if (!b->data || bl__grow((void **)units, cap, *n + 1, sizeof **units))
        return -ENOMEM;
    (*units)[(*n)++] = at;
    return 0;
}

int bl_gobench_write_launch(FILE *f, const bl_bench_result *bench, const bl_launch *l)
{
    const bl_bench_result *b = bench;
    if (l->status != 0 || l->skipped || isnan(l->ns_per_op))
        return 0;
    struct bl__buf line = {0};
    size_t *units = NULL, n_units = 0, cap_units = 0;
    char v[64];
    double ns = l->ns_per_op > 0 ? l->ns_per_op : ZERO_FLOOR_NS;
    bl_gobench_format_value(v, sizeof v, ns);
    /* a result line starts with "Benchmark": Google Benchmark's names (read
     * from its JSON) get the prefix, or no reader would see the line */
    if (strncmp(b->name ? b->name : "", "Benchmark", 9) != 0)
        bl__buf_puts(&line, "Benchmark");
    bl__gobench_field_buf(&line, b->name); /* one result, one line, whatever the name holds */
    bl__buf_printf(&line, "\t%8llu\t%10s ns/op", (unsigned long long)l->measured_reps, v);
    if (!isnan(l->ref_cycles_per_op)) { /* the same time in cycles of the core (docs/engine.md) */
        bl_gobench_format_value(v, sizeof v, l->ref_cycles_per_op);
        bl__buf_printf(&line, "\t%10s ref-cycles/op", v);
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
        bl__buf_printf(&line, "\t%10s cpu-ns/op", v);
    }
    /* throughput counts the operations of every thread */
    bl_rates rates;
    bl_launch_rates(l, &rates);
    if (!isnan(rates.mb_per_s))
        bl__buf_printf(&line, "\t%8.2f MB/s", rates.mb_per_s);
    if (!isnan(rates.items_per_s)) {
        bl_gobench_format_value(v, sizeof v, rates.items_per_s);
        bl__buf_printf(&line, "\t%10s items/s", v);
    }
    if (!isnan(rates.ops_per_s)) {
        bl_gobench_format_value(v, sizeof v, rates.ops_per_s);
        bl__buf_printf(&line, "\t%10s ops/s", v);
    }
    /* B/op and allocs/op exactly as Go's testing package writes them:
     * whole numbers, truncated (Go divides integers). */
    if (b->has_alloc)
        bl__buf_printf(&line, "\t%8lld B/op\t%8lld allocs/op", (long long)b->alloc_bytes_per_op,
                       (long long)b->allocs_per_op);
    int rc = 0;
    for (int i = 0; !rc && i < b->n_counters; i++)
        rc = put_metric(&line, b->counter_per_op[i], b->counter_unit[i], &units, &n_units,
                        &cap_units);
    for (size_t i = 0; !rc && i < l->n_metrics; i++)
        if (!isnan(l->metrics[i].value)) /* a unit with spaces would forge more values */
            rc = put_metric(&line, l->metrics[i].value, l->metrics[i].unit, &units, &n_units,
                            &cap_units);
    if (!rc)
        rc = line.data ? bl__gobench_put_line(f, &line, 0) : -ENOMEM;
    free(units);
    bl__buf_fini(&line);
    return rc;
}

int bl_gobench_write_complexity(FILE *f, const bl_results *r)
{
    /* comments: benchstat ignores them, benchlab's reader keeps them as metadata */
    struct bl__buf b = {0};
    int rc = 0;
    for (size_t i = 0; !rc && i < r->n_complexity; i++) {
        const bl_complexity_result *c = &r->complexity[i];
        char what[512];
        bl_format_complexity(what, sizeof what, c);
        b.len = 0;
        bl__buf_puts(&b, "# complexity: ");
        bl__gobench_field_buf(&b, c->name);
        bl__buf_puts(&b, ": ");
        bl__gobench_text_buf(&b, what);
        if (c->message && c->best.curve) {
            bl__buf_puts(&b, "; warning: ");
            bl__gobench_text_buf(&b, c->message);
        }
        rc = b.data ? bl__gobench_put_line(f, &b, 1) : -ENOMEM;
    }
    bl__buf_fini(&b);
    return rc;
}

/* "# note NAME: TEXT" as one line, through b */
static int note_line(FILE *f, struct bl__buf *b, const char *name, const char *text)
{
    b->len = 0;
    bl__buf_puts(b, "# note ");
    bl__gobench_field_buf(b, name);
    bl__buf_puts(b, ": ");
    bl__gobench_text_buf(b, text);
    return b->data ? bl__gobench_put_line(f, b, 1) : -ENOMEM;
}

int bl_gobench_write_notes(FILE *f, const bl_results *r)
{
    struct bl__buf b = {0};
    int rc = 0;
    for (size_t i = 0; !rc && i < r->n_benches; i++) {
        bl_diagnosis d;
        char lines[4][BL_DIAGNOSIS_LINE], dn[640];
        /* a budget or count of its own first: the header's are the run's */
        int own = bl__run_rows_own_plan(lines[0], sizeof lines[0], &r->benches[i]);
        int n =
            bl_bench_diagnose(&r->benches[i], &d) == 0 ? bl_format_diagnosis(&d, lines + own) : 0;
        n += own;
        char clock_note[200]; /* cpu-ns/op of the process's clock, as run's table says */
        const char *name = r->benches[i].name;
        if (bl__run_rows_cpu_clock_note(clock_note, sizeof clock_note, &r->benches[i]))
            rc = note_line(f, &b, name, clock_note);
        if (!rc && bl__disturbed_note(&r->benches[i], dn, sizeof dn))
            rc = note_line(f, &b, name, dn);
        for (int k = 0; !rc && k < n; k++)
            rc = note_line(f, &b, name, lines[k]);
    }
    bl__buf_fini(&b);
    return rc;
}

int bl_gobench_write_job(FILE *f, const char **current, const bl_bench_result *bench)
{
    const char *job = bench->job;
    if (!job || (*current && strcmp(*current, job) == 0))
        return 0;
    *current = job;
    struct bl__buf b = {0};
    bl__buf_puts(&b, "job: ");
    bl__gobench_text_buf(&b, job);
    int rc = b.data ? bl__gobench_put_line(f, &b, 1) : -ENOMEM;
    bl__buf_fini(&b);
    return rc;
}

static bool in_job(const bl_bench_result *b, const char *job)
{
    return job ? b->job && strcmp(b->job, job) == 0 : !b->job;
}

/* A job's results were written before benchmark i's (it is not the first
 * of its job). */
static bool job_before(const bl_results *r, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (in_job(&r->benches[k], r->benches[i].job))
            return true;
    return false;
}

int bl_gobench_write(FILE *f, const bl_results *r)
{
    int rc = bl_gobench_write_header(f, r);
    size_t units = 0;
    if (!rc)
        rc = bl_gobench_write_units(f, r, &units);
    /* the benchmarks of no job first, then each job's after its "job:"
     * line, the jobs in the order they first ran */
    const char *current = NULL;
    for (int pass = 0; pass < 2; pass++)
        for (size_t g = 0; !rc && g < r->n_benches; g++) {
            const char *job = r->benches[g].job;
            if ((pass == 0) != (job == NULL) || job_before(r, g))
                continue;
            for (size_t i = g; !rc && i < r->n_benches; i++) {
                const bl_bench_result *b = &r->benches[i];
                if (!in_job(b, job))
                    continue;
                rc = bl_gobench_write_job(f, &current, b);
                for (size_t j = 0; !rc && j < b->n_launches; j++)
                    rc = bl_gobench_write_launch(f, b, &b->launches[j]);
            }
        }
    if (!rc)
        rc = bl_gobench_write_complexity(f, r);
    if (!rc)
        rc = bl_gobench_write_notes(f, r);
    if (!rc && ferror(f))
        rc = -EIO;
    return rc;
}
