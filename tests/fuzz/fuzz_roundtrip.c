/* fuzz_roundtrip.c - libFuzzer target: every run-results writer as a
 * round-trip property with hostile names (issue 18 item 9).
 *
 * The input is a list of strings separated by NUL bytes: benchmark names
 * (up to 3; "Benchmark" is put before each, except before a name written
 * "~NAME", which stays NAME as Google Benchmark's names do), a metric unit,
 * a configuration key and value, a skip message, a label, the size's
 * parameter, group and curve name (an empty label or size string takes the
 * skip message or the metric unit, so that every seed's hostile strings go
 * there too).
 * Results are built from them (the numbers come from the input's bytes:
 * among them 0, the smallest double, huge ones, negative ones, infinities
 * and NaN), with every field of benchlab JSON set (label, time_unit, size,
 * intrinsic, tuned_reps, cpu_clock, counter_clock, threads, user counters,
 * metric flags and a rate's per_op, proc_cpu_ns of the batches), and
 *   - JSON: written, valid UTF-8, parsed, read back: same benchmarks in the
 *     same order, names byte for byte (when valid UTF-8), same launches,
 *     batches and time per op, same metric units; and every field as
 *     written, strings byte for byte when valid UTF-8, numbers the same
 *     double, where JSON has no NaN or infinity (null) what
 *     docs/json-schema.md says null reads as;
 *   - Go: written, or refused (BL_ETOOLONG) only for a name or unit long
 *     enough to need it, no line over 64 KiB; read back: one result per
 *     measured launch, same time per op as written, every metric still a
 *     metric of its own, names as docs/formats.md says the writer changes
 *     them (whitespace runes and control bytes '_', "Benchmark" prefixed)
 *     and nothing else;
 *   - CSV: RFC 4180 records, one per launch plus the header, no cell a
 *     spreadsheet takes for a formula;
 *   - Markdown, CSV: no control character other than tab and newline.
 * A property that fails is reported on stderr and aborts (a crash for
 * libFuzzer), unless it is pending (see fuzz_props.h). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchlab.h"
#include "benchlab/format.h"
#include "benchlab/results.h"
#include "format/json.h"
#include "fuzz_props.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NFIELDS 9

static char *field(const uint8_t **p, size_t *n)
{
    const uint8_t *z = memchr(*p, 0, *n);
    size_t len = z ? (size_t)(z - *p) : *n;
    char *s = strndup((const char *)*p, len);
    *p += z ? len + 1 : len;
    *n -= z ? len + 1 : len;
    return s;
}

static char *write_mem(int (*fn)(FILE *, const bl_results *), const bl_results *r, size_t *len)
{
    char *buf = NULL;
    *len = 0;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fn(f, r);
    fclose(f);
    return buf;
}

static bl_results *read_back(const char *text, size_t len, size_t *n_diag)
{
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return NULL;
    bl_results *r = NULL;
    if (write(fd, text, len) == (ssize_t)len && lseek(fd, 0, SEEK_SET) == 0) {
        bl_diags diags = {0};
        char err[512];
        if (bl_results_read_fd(fd, "roundtrip", &r, &diags, err, sizeof err) != 0)
            r = NULL;
        *n_diag = diags.n_total;
        bl_diags_fini(&diags);
    }
    close(fd);
    return r;
}

static bool same_num(double a, double b, double rel)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

static size_t measured_launches_of(const bl_bench_result *b)
{
    size_t n = 0;
    for (size_t k = 0; k < b->n_launches; k++) {
        const bl_launch *l = &b->launches[k];
        n += l->status == 0 && !l->skipped && !isnan(l->ns_per_op);
    }
    return n;
}

static size_t measured_launches(const bl_results *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_benches; i++)
        n += measured_launches_of(&r->benches[i]);
    return n;
}

/* A number of benchlab JSON read back: as written, but NaN and infinities
 * are null there, which reads as `null_reads` (docs/json-schema.md). */
static bool json_num_back(double written, double back, double null_reads)
{
    return same_num(isfinite(written) ? written : null_reads, back, 0);
}

/* A metric's number: infinities are "inf" and "-inf", NaN null. */
static bool metric_num_back(double written, double back, double null_reads)
{
    if (isinf(written))
        return written == back;
    return json_num_back(written, back, null_reads);
}

/* A string member read back: the same when valid UTF-8 (else replaced), NULL as NULL. */
static bool same_str(const char *a, const char *b)
{
    if (!a || !b)
        return !a && !b;
    return !fuzz_valid_utf8(a, strlen(a)) || strcmp(a, b) == 0;
}

/* Every field a launch of benchlab JSON carries, read back as written. */
static void check_launch_fields(size_t i, size_t k, const bl_launch *a, const bl_launch *b)
{
    const char *what = NULL;
    if (!same_str(a->label, b->label))
        what = "label";
    else if (strcmp(a->time_unit, b->time_unit) != 0)
        what = "time_unit";
    else if (a->intrinsic != b->intrinsic)
        what = "intrinsic";
    else if (a->tuned_reps != b->tuned_reps || a->tune_stale != b->tune_stale)
        what = "tuned_reps";
    else if (a->cpu_clock != b->cpu_clock)
        what = "cpu_clock";
    else if (a->counter_clock != b->counter_clock)
        what = "counter_clock";
    else if (a->threads != b->threads || a->loop_iterations != b->loop_iterations)
        what = "threads";
    else if (!json_num_back(a->bytes_sum_per_op, b->bytes_sum_per_op, 0) ||
             !json_num_back(a->items_sum_per_op, b->items_sum_per_op, 0))
        what = "bytes_sum_per_op";
    else if (!same_str(a->message, b->message) || a->status != b->status ||
             a->disturbed != b->disturbed)
        what = "message";
    FUZZ_PROP(!what, "json-field", NULL, "benchmark %zu launch %zu: %s changed in JSON", i, k,
              what ? what : "");
    /* the size, for complexity fits: absent when nothing of it was said */
    const bl_size *za = &a->size, *zb = &b->size;
    bool said = za->param || za->group || za->n_sum > 0;
    double n_sum = za->n_sum > 0 && isfinite(za->n_sum) ? za->n_sum : 0;
    what = NULL;
    if (!said)
        what = zb->param || zb->group || zb->n_sum > 0 ? "size (none written)" : NULL;
    else if (!same_str(za->param, zb->param) || !same_str(za->group, zb->group) ||
             !same_str(za->user_name, zb->user_name))
        what = "size's strings";
    else if (za->complexity != zb->complexity)
        what = "size.complexity";
    else if (!json_num_back(za->n, zb->n, 0) || !json_num_back(za->user_g, zb->user_g, NAN) ||
             !same_num(n_sum, zb->n_sum, 0) || !json_num_back(za->user_g_sum, zb->user_g_sum, NAN))
        what = "size's numbers";
    FUZZ_PROP(!what, "json-field", NULL, "benchmark %zu launch %zu: %s changed in JSON", i, k,
              what ? what : "");
    /* metrics, their flags, counters and a rate's per_op */
    for (size_t m = 0; m < a->n_metrics && m < b->n_metrics; m++) {
        const bl_metric *ma = &a->metrics[m], *mb = &b->metrics[m];
        what = NULL;
        if (!metric_num_back(ma->value, mb->value, NAN))
            what = "value";
        else if (ma->is_counter != mb->is_counter || ma->flags != mb->flags)
            what = "flags";
        else if (ma->is_counter && (ma->counter_flags != mb->counter_flags ||
                                    !metric_num_back(ma->counter_sum, mb->counter_sum, NAN)))
            what = "counter";
        else if (!ma->is_counter && (ma->flags & BL_RATE) &&
                 !metric_num_back(ma->per_op, mb->per_op, NAN))
            what = "per_op";
        FUZZ_PROP(!what, "json-field", NULL,
                  "benchmark %zu launch %zu metric %zu: its %s changed in JSON", i, k, m,
                  what ? what : "");
    }
    /* the batches: the process's CPU time where measured */
    for (size_t s = 0; s < a->n_samples && s < b->n_samples; s++) {
        const bl_sample *sa = &a->samples[s], *sb = &b->samples[s];
        double proc = sa->proc_cpu_ns > 0 && isfinite(sa->proc_cpu_ns) ? sa->proc_cpu_ns : -1;
        FUZZ_PROP(sa->reps == sb->reps && same_num(sa->ns, sb->ns, 0) &&
                      same_num(sa->cpu_ns >= 0 && isfinite(sa->cpu_ns) ? sa->cpu_ns : -1,
                               sb->cpu_ns, 0) &&
                      same_num(proc, sb->proc_cpu_ns, 0),
                  "json-field", NULL, "benchmark %zu launch %zu batch %zu changed in JSON", i, k,
                  s);
    }
}

static void check_json(const bl_results *r, const uint8_t *in, size_t in_size)
{
    size_t len;
    char *out = write_mem(bl_json_write, r, &len);
    if (!out)
        return;
    FUZZ_PROP(fuzz_valid_utf8(out, len), "json-invalid-utf8", NULL,
              "bl_json_write wrote invalid UTF-8");
    struct bl__json *doc = NULL;
    char err[256];
    FUZZ_PROP(bl__json_parse(out, len, &doc, err, sizeof err) == 0, "json-unparsable", NULL,
              "bl_json_write wrote JSON its parser rejects: %s", err);
    if (doc)
        bl__json_free(doc);
    size_t n_diag = 0;
    bl_results *back = read_back(out, len, &n_diag);
    FUZZ_PROP(back != NULL, "json-unreadable", NULL, "bl_json_write output does not read back");
    bool names_valid = true;
    for (size_t i = 0; i < r->n_benches; i++)
        names_valid =
            names_valid && fuzz_valid_utf8(r->benches[i].name, strlen(r->benches[i].name));
    if (back && !names_valid) {
        /* the writer replaces invalid UTF-8 (docs/formats.md), so two names
         * may become one and read back as one benchmark: no launch is lost */
        size_t launches = 0, got = 0;
        for (size_t i = 0; i < r->n_benches; i++)
            launches += r->benches[i].n_launches;
        for (size_t i = 0; i < back->n_benches; i++)
            got += back->benches[i].n_launches;
        FUZZ_PROP(back->n_benches <= r->n_benches && got == launches, "json-drop", NULL,
                  "%zu benchmarks and %zu launches written, %zu and %zu read back", r->n_benches,
                  launches, back->n_benches, got);
        bl_results_destroy(back);
    } else if (back) {
        FUZZ_PROP(back->n_benches == r->n_benches, "json-drop", NULL,
                  "%zu benchmarks written, %zu read back (%zu diagnostics)", r->n_benches,
                  back->n_benches, n_diag);
        for (size_t i = 0; i < r->n_benches && i < back->n_benches; i++) {
            const bl_bench_result *a = &r->benches[i], *b = &back->benches[i];
            if (fuzz_valid_utf8(a->name, strlen(a->name)))
                FUZZ_PROP(strcmp(a->name, b->name) == 0, "json-name", NULL,
                          "benchmark %zu's name changed in JSON", i);
            FUZZ_PROP(a->n_launches == b->n_launches, "json-drop", NULL,
                      "benchmark %zu: %zu launches written, %zu read back", i, a->n_launches,
                      b->n_launches);
            for (size_t k = 0; k < a->n_launches && k < b->n_launches; k++) {
                const bl_launch *la = &a->launches[k], *lb = &b->launches[k];
                FUZZ_PROP(la->n_samples == lb->n_samples && la->skipped == lb->skipped &&
                              same_num(la->ns_per_op, lb->ns_per_op, 1e-12) &&
                              la->n_metrics == lb->n_metrics,
                          "json-value", NULL, "benchmark %zu launch %zu differs after JSON", i, k);
                for (size_t m = 0; m < la->n_metrics && m < lb->n_metrics; m++)
                    if (fuzz_valid_utf8(la->metrics[m].unit, strlen(la->metrics[m].unit)))
                        FUZZ_PROP(strcmp(la->metrics[m].unit, lb->metrics[m].unit) == 0,
                                  "json-name", NULL, "a metric unit changed in JSON");
                check_launch_fields(i, k, la, lb);
            }
            FUZZ_PROP(strcmp(r->time_unit, back->time_unit) == 0, "json-field", NULL,
                      "the run's time_unit changed in JSON");
        }
        bl_results_destroy(back);
    }
    /* without its "schema" member the file is not benchlab JSON: it must be
     * refused, or read whole, or what was skipped said (diagnostics), not
     * taken for something else with launches dropped in silence */
    const char *schema = "\"schema\":\"benchlab/1\",";
    char *at = memmem(out, len, schema, strlen(schema));
    if (at) {
        memmove(at, at + strlen(schema), len - (size_t)(at - out) - strlen(schema));
        len -= strlen(schema);
        back = read_back(out, len, &n_diag);
        if (back) {
            size_t launches = 0, got = 0;
            for (size_t i = 0; i < r->n_benches; i++)
                launches += r->benches[i].n_launches;
            for (size_t i = 0; i < back->n_benches; i++)
                got += back->benches[i].n_launches;
            FUZZ_PROP(got == launches || n_diag > 0, "json-noschema-silent-drop", NULL,
                      "benchlab JSON without \"schema\": %zu launches written, %zu read back, "
                      "nothing said",
                      launches, got);
            bl_results_destroy(back);
        }
    }
    (void)in;
    (void)in_size;
    free(out);
}

/* The longest line the Go writer may write (benchstat's limit). */
#define GO_MAX_LINE 65535

static void check_go(const bl_results *r)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return;
    int wrc = bl_gobench_write(f, r);
    fclose(f);
    if (!out)
        return;
    size_t longest = 0; /* the longest name or unit given */
    for (size_t i = 0; i < r->n_benches; i++) {
        size_t n = strlen(r->benches[i].name);
        longest = n > longest ? n : longest;
        for (size_t k = 0; k < r->benches[i].n_launches; k++)
            for (size_t m = 0; m < r->benches[i].launches[k].n_metrics; m++) {
                n = strlen(r->benches[i].launches[k].metrics[m].unit);
                longest = n > longest ? n : longest;
            }
    }
    FUZZ_PROP(wrc == 0 || (wrc == BL_ETOOLONG && longest > GO_MAX_LINE / 4), "go-refused", NULL,
              "the Go writer failed (%s) with no name or unit longer than %d bytes",
              bl_strerror(wrc), GO_MAX_LINE / 4);
    for (const char *p = out, *e = out + len; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);
        FUZZ_PROP(n <= GO_MAX_LINE, "go-long-line", NULL,
                  "the Go writer wrote a line of %zu bytes (benchstat stops at 64 KiB)", n);
        p += n + 1;
    }
    if (wrc) {
        free(out);
        return;
    }
    size_t n_diag = 0, want = measured_launches(r);
    bl_results *back = read_back(out, len, &n_diag);
    size_t got = 0;
    if (back)
        for (size_t i = 0; i < back->n_benches; i++)
            got += back->benches[i].n_launches;
    FUZZ_PROP(back != NULL || want == 0, "go-unreadable", NULL,
              "the Go writer's output does not read back");
    FUZZ_PROP(!back || got == want, got < want ? "go-drop" : "go-forged", NULL,
              "%zu results written in Go format, %zu read back (%zu diagnostics)", want, got,
              n_diag);
    if (back && got == want) {
        /* the same results in the same order, as written: launches of one
         * name together, as the reader groups them (the names may meet
         * after their replacement: "A B" and "A_B") */
        size_t seen = 0;
        for (size_t i = 0; i < r->n_benches; i++) {
            char *name = fuzz_go_field(r->benches[i].name, "Benchmark");
            const bl_bench_result *bb = name ? bl_results_find(back, name) : NULL;
            FUZZ_PROP(bb != NULL || !name, "go-name", NULL,
                      "benchmark %zu's name does not read back as docs/formats.md says", i);
            size_t li = 0; /* launches of earlier benchmarks with the same written name */
            for (size_t j = 0; bb && j < i; j++) {
                char *other = fuzz_go_field(r->benches[j].name, "Benchmark");
                if (other && strcmp(other, name) == 0)
                    li += measured_launches_of(&r->benches[j]);
                free(other);
            }
            for (size_t k = 0; bb && k < r->benches[i].n_launches; k++) {
                const bl_launch *l = &r->benches[i].launches[k];
                if (l->status != 0 || l->skipped || isnan(l->ns_per_op))
                    continue;
                if (li >= bb->n_launches)
                    break;
                const bl_launch *lb = &bb->launches[li++];
                seen++;
                char v[64];
                bl_gobench_format_value(v, sizeof v, l->ns_per_op > 0 ? l->ns_per_op : 0.001);
                double written = strtod(v, NULL);
                FUZZ_PROP(same_num(lb->ns_per_op, written, 1e-12), "go-value", NULL,
                          "ns/op %s written, %.17g read back", v, lb->ns_per_op);
                /* every metric reads back as a metric of its own (none
                 * taken for the time or lost on a unit already used) */
                size_t metrics = 0;
                bool own_cpu = false;
                for (size_t m = 0; m < l->n_metrics; m++) {
                    metrics += !isnan(l->metrics[m].value);
                    own_cpu |= strcmp(l->metrics[m].unit, "cpu-ns/op") == 0;
                }
                /* and the on-CPU time, where measured, as cpu-ns/op (once:
                 * not beside the benchmark's own metric of that unit) */
                metrics += !own_cpu && !isnan(bl_launch_cpu_per_op(l));
                FUZZ_PROP(lb->n_metrics == metrics, "go-metric", NULL,
                          "%zu metrics written in Go format, %zu read back", metrics,
                          lb->n_metrics);
            }
            free(name);
        }
        FUZZ_PROP(seen == want, "go-drop", NULL, "%zu of %zu results matched after Go", seen, want);
    }
    if (back)
        bl_results_destroy(back);
    free(out);
}

/* Splits RFC 4180 CSV; returns the number of records, -1 if malformed, and
 * checks every cell as it goes. */
static long check_csv_text(const char *s, size_t n)
{
    long records = 0;
    size_t i = 0;
    while (i < n) {
        for (;;) { /* one cell */
            size_t start = i;
            bool quoted = s[i] == '"';
            if (quoted) {
                i++;
                for (;;) {
                    if (i >= n)
                        return -1;
                    if (s[i] == '"') {
                        if (i + 1 < n && s[i + 1] == '"') {
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    i++;
                }
            } else {
                while (i < n && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
                    if (s[i] == '"')
                        return -1;
                    i++;
                }
            }
            const char *c = s + start + quoted;
            size_t clen = i - start - 2 * quoted;
            if (clen > 0) {
                bool formula = fuzz_formula_cell(c, clen);
                FUZZ_PROP(!formula, "csv-formula", NULL,
                          "a CSV cell starts with '%c' (formula injection)", c[0]);
            }
            if (i < n && s[i] == ',') {
                i++;
                continue;
            }
            break;
        }
        if (i < n && s[i] == '\r')
            i++;
        if (i < n && s[i] != '\n')
            return -1;
        i++;
        records++;
    }
    return records;
}

static void check_controls(const char *what, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            FUZZ_PROP(false, what, NULL, "raw control byte 0x%02x in the output", c);
            return;
        }
    }
}

static void check_csv_md(const bl_results *r)
{
    size_t len;
    char *out = write_mem(bl_csv_write, r, &len);
    if (out) {
        size_t launches = 0;
        for (size_t i = 0; i < r->n_benches; i++)
            launches += r->benches[i].n_launches;
        long rec = check_csv_text(out, len);
        FUZZ_PROP(rec >= 0, "csv-malformed", NULL, "bl_csv_write wrote malformed CSV");
        FUZZ_PROP(rec < 0 || (size_t)rec == launches + 1, "csv-records", NULL,
                  "%zu launches, %ld CSV records (header included)", launches, rec);
        check_controls("csv-control", out, len);
        free(out);
    }
    out = write_mem(bl_markdown_write, r, &len);
    if (out) {
        check_controls("markdown-control", out, len);
        free(out);
    }
}

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* A hostile number, as bits picks it: 0, the smallest double, a tiny and a
 * huge one, a negative one, the infinities, NaN; or an ordinary one. */
static double number(uint32_t bits, uint32_t h)
{
    static const double special[] = {0, 5e-324, 1e-300, 1e300, -2.5, INFINITY, -INFINITY, NAN};
    return bits & 8 ? special[bits & 7] : (double)(h % 100000) / 7.0;
}

/* Every other field of benchlab JSON's launch, from lh's bits and the
 * hostile strings: the label, the size's parameter, group and curve name. */
static void set_fields(bl_launch *l, uint32_t lh, const char *label, const char *size)
{
    static const char *const units[] = {"", "ns", "us", "ms", "s"};
    static const uint64_t reps[] = {0, 1, (uint64_t)1 << 52, 123456789};
    uint32_t g = mix(lh);
    if (label[0] && (g & 1))
        l->label = strdup(label);
    snprintf(l->time_unit, sizeof l->time_unit, "%s", units[(g >> 1) % 5]);
    l->intrinsic = (g >> 4) & ((1u << BL_INVALID_NREASONS) - 1);
    l->tuned_reps = reps[(g >> 9) & 3];
    l->tune_stale = (g >> 11) & 1;
    l->cpu_clock = (g >> 12) & 1 ? BL_CPU_PROCESS : BL_CPU_THREAD;
    l->counter_clock = (int)((g >> 13) & 3);
    l->threads = (int)((g >> 15) & 3);
    l->loop_iterations = (g >> 17) & 1 ? (uint64_t)1 << 40 : 0;
    l->bytes_sum_per_op = (g >> 18) & 1 ? number(g >> 19, lh) : 0;
    l->items_sum_per_op = (g >> 23) & 1 ? number(lh >> 19, g) : 0;
    uint32_t z = mix(g);
    if (!(z & 1))
        return;
    if (size[0] && (z & 2)) {
        l->size.param = strdup(size);
        l->size.group = strdup(size);
    }
    l->size.n = number(z >> 2, g);
    l->size.complexity = (int)((z >> 6) % 9); /* none, auto, O(1) ... the benchmark's own */
    l->size.user_g = number(z >> 10, lh);
    if (l->size.complexity == BL_OUSER && size[0])
        l->size.user_name = strdup(size);
    l->size.n_sum = number(z >> 14, z);
    l->size.user_g_sum = number(z >> 18, g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (128u << 10))
        return 0;
    fuzz_begin(data, size);
    const uint8_t *p = data;
    size_t n = size;
    char *f[NFIELDS];
    for (int i = 0; i < NFIELDS; i++)
        f[i] = field(&p, &n);
    /* numbers from the input's bytes, so that they vary with it */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    bl_results *r = bl_results_create();
    if (!r)
        goto out;
    if (f[4][0])
        bl_results_set_config(r, f[4], f[5]);
    int n_benches = 0;
    for (int b = 0; b < 3; b++) {
        if (b > 0 && !f[b][0])
            continue;
        /* "~NAME": NAME as is, without the prefix (Google Benchmark's
         * names; never empty: no reader gives a nameless benchmark) */
        bool bare = f[b][0] == '~' && f[b][1];
        char *name = NULL;
        if (asprintf(&name, "%s%s", bare ? "" : "Benchmark", f[b] + bare) < 0)
            break;
        if (bl_results_find(r, name)) {
            free(name);
            continue;
        }
        bl_bench_result *bench = bl_results_bench(r, name);
        free(name);
        if (!bench)
            break;
        n_benches++;
        for (int k = 0; k < 2; k++) {
            bl_launch *l = bl_results_add_launch(bench);
            if (!l)
                break;
            if (k == 1 && f[6][0]) {
                l->skipped = true;
                l->message = strdup(f[6]);
                continue;
            }
            uint32_t lh = mix(h ^ (0x85ebca6bu * (uint32_t)(b * 2 + k + 1)));
            for (int s = 0; s < 3; s++) {
                bl_sample m = {.stage = BL_STAGE_MEASURE,
                               .reps = 100 + ((h >> (s * 3)) & 255),
                               .ns = 1000.0 + (double)((h >> (b + k + s)) & 4095),
                               .cpu_ns = (lh >> 30) & 1 ? 900.0 + s : -1,
                               .proc_cpu_ns = (lh >> 25) & 1 ? number(lh >> (s + 26), lh) : 0};
                bl_launch_add_sample(l, &m);
            }
            if (f[3][0]) {
                double v = number(lh >> 4, h);
                unsigned kind = (lh >> 8) & 3, flags = (lh >> 10) & 31;
                if (kind == 0)
                    bl_launch_set_metric(l, f[3], v);
                else if (kind == 1)
                    bl_launch_set_metric_ex(l, f[3], v, flags);
                else
                    bl_launch_set_counter(l, f[3], v, flags, (lh >> 15) & 63);
            }
            set_fields(l, lh, f[7][0] ? f[7] : f[6], f[8][0] ? f[8] : f[3]);
            bl_launch_finish(l);
        }
    }
    if (n_benches) {
        check_json(r, data, size);
        check_go(r);
        check_csv_md(r);
    }
    bl_results_destroy(r);
out:
    for (int i = 0; i < NFIELDS; i++)
        free(f[i]);
    return 0;
}
