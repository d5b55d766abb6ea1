/* fuzz_roundtrip.c - libFuzzer target: every run-results writer as a
 * round-trip property with hostile names (issue 18 item 9).
 *
 * The input is a list of strings separated by NUL bytes: benchmark names
 * (up to 3; "Benchmark" is put before each, except before a name written
 * "~NAME", which stays NAME as Google Benchmark's names do), a metric unit,
 * a configuration key and value, a skip message.
 * Results are built from them (the numbers come from the input's bytes), and
 *   - JSON: written, valid UTF-8, parsed, read back: same benchmarks in the
 *     same order, names byte for byte (when valid UTF-8), same launches,
 *     batches and time per op, same metric units;
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

#include "benchlab/format.h"
#include "benchlab/results.h"
#include "format/json.h"
#include "fuzz_props.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NFIELDS 7

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
            }
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

/* Go's unicode.IsSpace runes in UTF-8, written apart from the library's
 * table (base/escape.c) so that the property does not check the writer
 * against itself. */
static size_t go_space_len(const unsigned char *p, const unsigned char *end)
{
    static const char *const spaces[] = {
        "\xc2\x85",     "\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
        "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86",
        "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8",
        "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80", NULL};
    if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        return 1;
    for (int i = 0; spaces[i]; i++) {
        size_t n = strlen(spaces[i]);
        if ((size_t)(end - p) >= n && memcmp(p, spaces[i], n) == 0)
            return n;
    }
    return 0;
}

/* A name or unit as docs/formats.md says the Go writer writes it: every
 * whitespace rune and control byte becomes '_'; a name gets the
 * "Benchmark" prefix when it has none. Caller frees. */
static char *go_written(const char *s, bool name)
{
    size_t n = strlen(s);
    char *out = malloc(n + 10), *o = out;
    if (!out)
        return NULL;
    if (name && strncmp(s, "Benchmark", 9) != 0)
        o = stpcpy(o, "Benchmark");
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        size_t sl = go_space_len(p, end);
        if (sl || *p < 0x20 || *p == 0x7f) {
            *o++ = '_';
            p += sl ? sl : 1;
        } else {
            *o++ = (char)*p++;
        }
    }
    *o = '\0';
    return out;
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
            char *name = go_written(r->benches[i].name, true);
            const bl_bench_result *bb = name ? bl_results_find(back, name) : NULL;
            FUZZ_PROP(bb != NULL || !name, "go-name", NULL,
                      "benchmark %zu's name does not read back as docs/formats.md says", i);
            size_t li = 0; /* launches of earlier benchmarks with the same written name */
            for (size_t j = 0; bb && j < i; j++) {
                char *other = go_written(r->benches[j].name, true);
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
                for (size_t m = 0; m < l->n_metrics; m++)
                    metrics += !isnan(l->metrics[m].value);
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
            for (int s = 0; s < 3; s++) {
                bl_sample m = {.stage = BL_STAGE_MEASURE,
                               .reps = 100 + ((h >> (s * 3)) & 255),
                               .ns = 1000.0 + (double)((h >> (b + k + s)) & 4095),
                               .cpu_ns = -1};
                bl_launch_add_sample(l, &m);
            }
            if (f[3][0])
                bl_launch_set_metric(l, f[3], (double)(h & 1023) / 7.0);
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
