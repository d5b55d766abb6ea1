/* fuzz_gbench_write.c - libFuzzer target: Google Benchmark's writers
 * (gbench_json_write.c, gbench_text_write.c: --benchmark_format=json, csv,
 * console) as round-trip properties with hostile names (issue 18 item 9).
 *
 * The input is a list of strings separated by NUL bytes: benchmark names
 * (up to 3; "Benchmark" is put before each, except before "~NAME", which
 * stays NAME as Google Benchmark's names do), two counter names, a label
 * and a failure message (the label and the message are the context's host
 * name and date too; the executable is an OSC 52 sequence). The numbers
 * (threads, launches, time units, counter flags and values: 0, tiny, huge,
 * negative, inf, NaN) come from the input's bytes. Results are built from
 * them and
 *   - JSON: valid UTF-8, parses, no object with a key twice (Python's json,
 *     which Google Benchmark's tools/compare.py uses, keeps the last: a
 *     counter named "real_time" would replace the time); read back by
 *     bl_results_read_fd: one launch per finished launch, under the name
 *     Google Benchmark gives (byte for byte when valid UTF-8), the same
 *     time per op and repetitions, a failed benchmark one failed launch
 *     with its message; read by compare's reader: one result per finished
 *     launch, named as compare spells it (docs/formats.md), ns/op once and
 *     as measured, every number of the entry one value (none dropped,
 *     none twice); its entries in order, each finished launch's with its
 *     name, threads, iterations and label, the aggregates with the label
 *     every launch has;
 *   - CSV: RFC 4180, one record per row of the JSON (header apart), every
 *     row the header's cells (an error row: error_occurred "true" in its
 *     column), no cell a spreadsheet takes for a formula, no control byte
 *     but tab and newline;
 *   - console: one line per row, no control byte but newline (the writer
 *     prints no colour).
 * A property that fails is reported on stderr and aborts (a crash for
 * libFuzzer), unless it is pending (fuzz_props.h). */
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
/* compare's JSON reader (src/lib/compare/json_in.c; fd < 0: the prefix is
 * the whole input) */
int bl__compare_read_json(int fd, const char *prefix, size_t prefix_len, const char *path,
                          const char *label, const bl_gobench_handler *h, char *err,
                          size_t err_size);

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

/* Google Benchmark's name of a benchlab name, as docs/formats.md says the
 * writer gives it: without the "Benchmark" prefix (when something follows
 * it) and without Go's "#NN" suffix of a repeated name. Caller frees. */
static char *gb_name_of(const char *full)
{
    if (strncmp(full, "Benchmark", 9) == 0 && full[9])
        full += 9;
    char *s = strdup(full);
    size_t n = s ? strlen(s) : 0, k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (s && k > 1 && k < n && s[k - 1] == '#')
        s[k - 1] = '\0';
    return s;
}

static bool launch_ok(const bl_launch *l)
{
    return l->status == 0 && !l->skipped && isfinite(l->ns_per_op);
}

static size_t ok_launches(const bl_bench_result *b)
{
    size_t n = 0;
    for (size_t k = 0; k < b->n_launches; k++)
        n += launch_ok(&b->launches[k]);
    return n;
}

static bool same_num(double a, double b, double rel)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

static bool all_valid_utf8(const bl_results *r)
{
    for (size_t i = 0; i < r->n_benches; i++)
        if (!fuzz_valid_utf8(r->benches[i].name, strlen(r->benches[i].name)))
            return false;
    return true;
}

/* ---- JSON, strictly: no key twice in an object ---------------------------- */

static bool no_duplicate_keys(const struct bl__json *v, const char **dup)
{
    if (v->type == BL_JOBJ)
        for (size_t i = 0; i < v->n; i++)
            for (size_t k = i + 1; k < v->n; k++)
                if (strcmp(v->keys[i], v->keys[k]) == 0) {
                    *dup = v->keys[i];
                    return false;
                }
    if (v->type == BL_JOBJ || v->type == BL_JARR)
        for (size_t i = 0; i < v->n; i++)
            if (!no_duplicate_keys(&v->items[i], dup))
                return false;
    return true;
}

/* ---- read back by bl_results_read_fd ---------------------------------------- */

static bl_results *read_back(const char *text, size_t len, size_t *n_diag)
{
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return NULL;
    bl_results *r = NULL;
    if (write(fd, text, len) == (ssize_t)len && lseek(fd, 0, SEEK_SET) == 0) {
        bl_diags diags = {0};
        char err[512];
        if (bl_results_read_fd(fd, "gbench", &r, &diags, err, sizeof err) != 0)
            r = NULL;
        *n_diag = diags.n_total;
        bl_diags_fini(&diags);
    }
    close(fd);
    return r;
}

static void check_results_read(const bl_results *r, const char *out, size_t len)
{
    size_t n_diag = 0;
    bl_results *back = read_back(out, len, &n_diag);
    FUZZ_PROP(back != NULL, "gbjson-unreadable", NULL,
              "Google Benchmark JSON written does not read back");
    if (!back)
        return;
    FUZZ_PROP(n_diag == 0, "gbjson-skipped-drop", NULL,
              "reading Google Benchmark JSON written skipped %zu entries", n_diag);
    size_t want = 0, got = 0;
    for (size_t i = 0; i < r->n_benches; i++) {
        size_t ok = ok_launches(&r->benches[i]);
        want += ok ? ok : 1; /* a benchmark that did not run: one error entry */
    }
    for (size_t i = 0; i < back->n_benches; i++)
        got += back->benches[i].n_launches;
    FUZZ_PROP(got == want, got < want ? "gbjson-drop" : "gbjson-forged", NULL,
              "%zu entries written in Google Benchmark JSON, %zu launches read back", want, got);
    if (got != want || !all_valid_utf8(r)) {
        bl_results_destroy(back);
        return; /* names replaced (U+FFFD) may meet: the totals are all there is to compare */
    }
    /* each benchmark's entries under its Google Benchmark name, in order
     * (names that meet, "X" and "BenchmarkX", in one benchmark) */
    for (size_t i = 0; i < r->n_benches; i++) {
        const bl_bench_result *a = &r->benches[i];
        char *name = gb_name_of(a->name);
        bl_bench_result *b = name ? bl_results_find(back, name) : NULL;
        FUZZ_PROP(b != NULL || !name, "gbjson-name", NULL,
                  "benchmark %zu is not read back under its Google Benchmark name", i);
        size_t li = 0; /* launches of earlier benchmarks with the same name */
        for (size_t j = 0; b && j < i; j++) {
            char *other = gb_name_of(r->benches[j].name);
            if (other && strcmp(other, name) == 0) {
                size_t ok = ok_launches(&r->benches[j]);
                li += ok ? ok : 1;
            }
            free(other);
        }
        size_t ok = ok_launches(a);
        if (b && ok == 0 && li < b->n_launches) {
            const bl_launch *lb = &b->launches[li];
            const char *msg = "no launch finished";
            bool skip = false; /* written as Google Benchmark 1.8's skip */
            for (size_t k = 0; k < a->n_launches; k++)
                if (a->launches[k].message) {
                    msg = a->launches[k].message;
                    skip = a->launches[k].skipped;
                }
            FUZZ_PROP((skip ? lb->status == 0 && lb->skipped : lb->status != 0) && lb->message,
                      "gbjson-error", NULL,
                      "a benchmark that did not run reads back as one that did, or as %s",
                      skip ? "failed where it was skipped" : "skipped where it failed");
            if (lb->message && fuzz_valid_utf8(msg, strlen(msg)))
                FUZZ_PROP(strcmp(lb->message, msg) == 0, "gbjson-error", NULL,
                          "an error message changed in Google Benchmark JSON");
        }
        for (size_t k = 0; b && ok && k < a->n_launches; k++) {
            const bl_launch *la = &a->launches[k];
            if (!launch_ok(la))
                continue;
            if (li >= b->n_launches)
                break;
            const bl_launch *lb = &b->launches[li++];
            int t = la->threads > 1 ? la->threads : 1;
            FUZZ_PROP(lb->status == 0 && same_num(lb->ns_per_op, la->ns_per_op, 1e-9),
                      "gbjson-value", NULL,
                      "benchmark %zu: %.17g ns/op written (%d threads), %.17g read back", i,
                      la->ns_per_op, t, lb->ns_per_op);
            FUZZ_PROP(lb->measured_reps == la->measured_reps, "gbjson-value", NULL,
                      "benchmark %zu: %llu repetitions written, %llu read back", i,
                      (unsigned long long)la->measured_reps, (unsigned long long)lb->measured_reps);
        }
        free(name);
    }
    bl_results_destroy(back);
}

/* ---- read by compare's reader -------------------------------------------------- */

struct cmp_result {
    char *name;
    size_t n;
    char units[80][80];
    double values[80];
};

struct cmp_read {
    struct cmp_result *v;
    size_t n, cap;
    size_t errors;
};

static int on_result(void *ctx, const bl_gobench_result *g)
{
    struct cmp_read *c = ctx;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        struct cmp_result *v = realloc(c->v, cap * sizeof *v);
        if (!v)
            return -1;
        c->v = v;
        c->cap = cap;
    }
    struct cmp_result *x = &c->v[c->n++];
    x->name = strndup(g->name, g->name_len);
    x->n = 0;
    for (size_t i = 0; i < g->n_values && x->n < 80; i++, x->n++) {
        snprintf(x->units[x->n], sizeof x->units[0], "%.*s", (int)g->values[i].unit_len,
                 g->values[i].unit);
        x->values[x->n] = g->values[i].value;
    }
    return 0;
}

static void on_error(void *ctx, const char *path, size_t line, const char *msg)
{
    (void)path;
    (void)line;
    (void)msg;
    ((struct cmp_read *)ctx)->errors++;
}

/* The numbers of an entry that are results (its counters, times and rates),
 * not the entry's bookkeeping; NaN is no value. */
static size_t entry_values(const struct bl__json *e)
{
    static const char *const books[] = {
        "family_index", "per_family_instance_index", "repetitions", "repetition_index", "threads",
        "iterations",   "cpu_time_is_real_time"};
    size_t n = 0;
    for (size_t k = 0; k < e->n; k++) {
        if (e->items[k].type != BL_JNUM || isnan(e->items[k].num))
            continue;
        bool book = false;
        for (size_t b = 0; b < sizeof books / sizeof *books; b++)
            book |= strcmp(e->keys[k], books[b]) == 0;
        n += !book;
    }
    return n;
}

static void check_compare_read(const bl_results *r, const char *out, size_t len,
                               const struct bl__json *doc)
{
    struct cmp_read c = {0};
    bl_gobench_handler h = {.ctx = &c, .on_result = on_result, .on_error = on_error};
    char err[512];
    int rc = bl__compare_read_json(-1, out, len, "gbench", "gbench", &h, err, sizeof err);
    FUZZ_PROP(rc == 0, "gbjson-compare-unreadable", NULL,
              "compare does not read Google Benchmark JSON written: %s", err);
    const struct bl__json *bs = bl__json_get(doc, "benchmarks");
    size_t want = 0, failed = 0;
    for (size_t i = 0; i < r->n_benches; i++) {
        size_t ok = ok_launches(&r->benches[i]);
        want += ok;
        failed += ok == 0;
    }
    FUZZ_PROP(rc != 0 || c.n == want, c.n < want ? "gbjson-compare-drop" : "gbjson-compare-forged",
              NULL, "%zu finished launches written, %zu results read by compare", want, c.n);
    FUZZ_PROP(rc != 0 || c.errors == failed, "gbjson-compare-skipped-drop", NULL,
              "compare skipped %zu entries of %zu benchmarks that did not run", c.errors, failed);
    if (rc == 0 && c.n == want && bs && bs->type == BL_JARR) {
        size_t x = 0; /* the result of entry e */
        for (size_t e = 0; e < bs->n && x < c.n; e++) {
            const struct bl__json *entry = &bs->items[e];
            const char *rt = bl__json_str(bl__json_get(entry, "run_type"));
            const struct bl__json *eo = bl__json_get(entry, "error_occurred");
            const struct bl__json *sk = bl__json_get(entry, "skipped"); /* 1.8's skip */
            if (!rt || strcmp(rt, "iteration") != 0 ||
                (eo && eo->type == BL_JBOOL && eo->boolean) ||
                (sk && sk->type == BL_JBOOL && sk->boolean))
                continue;
            const struct cmp_result *res = &c.v[x++];
            const char *name = bl__json_str(bl__json_get(entry, "name"));
            char *spelled = name ? fuzz_go_field(name, NULL) : NULL;
            FUZZ_PROP(!spelled || !res->name || strcmp(spelled, res->name) == 0,
                      "gbjson-compare-name", NULL,
                      "compare reads entry %zu's name otherwise than docs/formats.md says", e);
            free(spelled);
            size_t n_time = 0;
            bool twice = false;
            for (size_t i = 0; i < res->n; i++) {
                n_time += strcmp(res->units[i], "ns/op") == 0;
                for (size_t k = i + 1; k < res->n; k++)
                    twice |= strcmp(res->units[i], res->units[k]) == 0;
            }
            FUZZ_PROP(n_time == 1, "gbjson-compare-forged", NULL,
                      "compare reads entry %zu with %zu ns/op values", e, n_time);
            FUZZ_PROP(!twice, "gbjson-compare-forged", NULL,
                      "compare reads entry %zu with a unit twice", e);
            FUZZ_PROP(res->n == entry_values(entry), "gbjson-compare-drop", NULL,
                      "entry %zu has %zu values, compare reads %zu", e, entry_values(entry),
                      res->n);
        }
    }
    for (size_t i = 0; i < c.n; i++)
        free(c.v[i].name);
    free(c.v);
}

/* The rows Google Benchmark's outputs have for these results (no
 * statistics of the definition's own, no complexity fit): each finished
 * launch, the 4 aggregates with two or more, an error row without one. */
static size_t gb_rows(const bl_results *r)
{
    size_t rows = 0;
    for (size_t i = 0; i < r->n_benches; i++) {
        size_t ok = ok_launches(&r->benches[i]);
        rows += ok == 0 ? 1 : ok + (ok > 1 ? 4 : 0);
    }
    return rows;
}

/* The entries in the order Google Benchmark writes them: per benchmark
 * its finished launches (its name, threads, iterations of all threads,
 * the launch's label), then with two or more the 4 aggregates (the label
 * every launch has, else none), or one error entry. */
static void check_entries(const bl_results *r, const struct bl__json *bs)
{
    size_t e = 0;
    for (size_t i = 0; i < r->n_benches && e < bs->n; i++) {
        const bl_bench_result *b = &r->benches[i];
        size_t ok = ok_launches(b);
        char *name = gb_name_of(b->name);
        bool valid = name && fuzz_valid_utf8(name, strlen(name));
        const char *same = NULL; /* the label every finished launch has */
        bool first = true, differ = false;
        for (size_t k = 0; k < b->n_launches && e < bs->n; k++) {
            const bl_launch *l = &b->launches[k];
            if (!launch_ok(l))
                continue;
            const struct bl__json *x = &bs->items[e++];
            const char *nm = bl__json_str(bl__json_get(x, "name"));
            const char *label = bl__json_str(bl__json_get(x, "label"));
            int t = l->threads > 1 ? l->threads : 1;
            FUZZ_PROP(!valid || (nm && strcmp(nm, name) == 0), "gbjson-name", NULL,
                      "entry %zu is not named as benchmark %zu", e - 1, i);
            FUZZ_PROP(bl__json_num(bl__json_get(x, "threads"), -1) == t &&
                          bl__json_num(bl__json_get(x, "iterations"), -1) ==
                              (double)(l->measured_reps * (unsigned long long)t),
                      "gbjson-value", NULL, "entry %zu: threads or iterations not as measured",
                      e - 1);
            FUZZ_PROP(
                !l->label == !label && (!label || !fuzz_valid_utf8(l->label, strlen(l->label)) ||
                                        strcmp(label, l->label) == 0),
                "gbjson-label", NULL, "entry %zu: the launch's label is not its label", e - 1);
            const char *x_label = l->label ? l->label : "";
            differ |= !first && strcmp(same, x_label) != 0;
            same = x_label;
            first = false;
        }
        if (ok > 1)
            for (int a = 0; a < 4 && e < bs->n; a++) {
                const struct bl__json *x = &bs->items[e++];
                const char *label = bl__json_str(bl__json_get(x, "label"));
                bool want = !differ && same && same[0];
                FUZZ_PROP(!want == !label && (!label || !fuzz_valid_utf8(same, strlen(same)) ||
                                              strcmp(label, same) == 0),
                          "gbjson-label", NULL, "aggregate entry %zu: a label %s, the launches' %s",
                          e - 1, label ? "written" : "missing", want ? "the same" : "differ");
            }
        else if (ok == 0)
            e++;
        free(name);
    }
}

static void check_json(const bl_results *r)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return;
    int wrc = bl_gbench_json_write(f, r, "fuzz\x1b]52;c;aGk=\x07");
    fclose(f);
    FUZZ_PROP(wrc == 0, "gbjson-refused", NULL, "bl_gbench_json_write failed: %s",
              bl_strerror(wrc));
    if (!out)
        return;
    FUZZ_PROP(fuzz_valid_utf8(out, len), "gbjson-invalid-utf8", NULL,
              "bl_gbench_json_write wrote invalid UTF-8");
    struct bl__json *doc = NULL;
    char err[256];
    int prc = bl__json_parse(out, len, &doc, err, sizeof err);
    FUZZ_PROP(prc == 0, "gbjson-unparsable", NULL, "Google Benchmark JSON does not parse: %s", err);
    if (doc) {
        const char *dup = NULL;
        FUZZ_PROP(no_duplicate_keys(doc, &dup), "gbjson-duplicate-key", NULL,
                  "an object of the Google Benchmark JSON has the key \"%s\" twice",
                  dup ? dup : "");
        const struct bl__json *bs = bl__json_get(doc, "benchmarks");
        FUZZ_PROP(bs && bs->type == BL_JARR && bs->n == gb_rows(r), "gbjson-rows", NULL,
                  "%zu entries in Google Benchmark JSON, %zu rows expected",
                  bs && bs->type == BL_JARR ? bs->n : 0, gb_rows(r));
        if (bs && bs->type == BL_JARR && bs->n == gb_rows(r))
            check_entries(r, bs);
        check_results_read(r, out, len);
        check_compare_read(r, out, len, doc);
        bl__json_free(doc);
    }
    free(out);
}

/* ---- CSV and console ------------------------------------------------------------- */

struct csv_check {
    size_t header_cells;
    long record; /* the record whose cells are being counted */
    size_t cells;
    bool error_row, error_flag, short_row;
    long short_record;
    size_t short_cells;
};

static void end_record(struct csv_check *k)
{
    if (k->record == 0)
        k->header_cells = k->cells;
    else if (!k->short_row && (k->error_row ? !k->error_flag : k->cells != k->header_cells)) {
        k->short_row = true;
        k->short_record = k->record;
        k->short_cells = k->cells;
    }
}

static void on_cell(void *ctx, long record, size_t col, const char *c, size_t n)
{
    struct csv_check *k = ctx;
    if (record != k->record) {
        end_record(k);
        k->record = record;
        k->cells = 0;
        k->error_row = k->error_flag = false;
    }
    k->cells++;
    if (n > 0)
        FUZZ_PROP(!fuzz_formula_cell(c, n), "gbcsv-formula", NULL,
                  "a Google Benchmark CSV cell starts with '%c' (formula injection)", c[0]);
    /* an error row: "true" under error_occurred (column 8), a skipped one
     * (Google Benchmark 1.8) "false" and its message; the iterations
     * (column 1) of such rows are empty, of every other row a number */
    if (col == 1 && record > 0)
        k->error_row = n == 0;
    if (col == 8 && record > 0)
        k->error_flag =
            (n == 4 && memcmp(c, "true", 4) == 0) || (n == 5 && memcmp(c, "false", 5) == 0);
}

static void check_text(const bl_results *r)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return;
    int wrc = bl_gbench_csv_write(f, r);
    fclose(f);
    FUZZ_PROP(wrc == 0, "gbcsv-refused", NULL, "bl_gbench_csv_write failed: %s", bl_strerror(wrc));
    size_t rows = gb_rows(r);
    if (out) {
        struct csv_check k = {0};
        long rec = fuzz_csv_split(out, len, on_cell, &k);
        if (rec > 0)
            end_record(&k);
        FUZZ_PROP(rec >= 0, "gbcsv-malformed", NULL, "bl_gbench_csv_write wrote malformed CSV");
        FUZZ_PROP(rec < 0 || (size_t)rec == rows + 1, "gbcsv-records", NULL,
                  "%zu rows, %ld CSV records (header included)", rows, rec);
        FUZZ_PROP(!k.short_row, "gbcsv-columns", NULL,
                  "CSV record %ld has %zu cells, the header %zu (or an error or skip row "
                  "without error_occurred true or false in its column)",
                  k.short_record, k.short_cells, k.header_cells);
        int ctl = fuzz_control_byte(out, len);
        FUZZ_PROP(ctl < 0, "gbcsv-control", NULL, "raw control byte 0x%02x in the CSV", ctl);
        free(out);
    }
    out = NULL;
    len = 0;
    f = open_memstream(&out, &len);
    if (!f)
        return;
    wrc = bl_gbench_console_write(f, r);
    fclose(f);
    FUZZ_PROP(wrc == 0, "gbconsole-refused", NULL, "bl_gbench_console_write failed: %s",
              bl_strerror(wrc));
    if (out) {
        size_t lines = 0;
        int ctl = -1;
        for (size_t i = 0; i < len; i++) {
            unsigned char c = (unsigned char)out[i];
            lines += c == '\n';
            if (ctl < 0 && ((c < 0x20 && c != '\n') || c == 0x7f))
                ctl = c;
        }
        FUZZ_PROP(ctl < 0, "gbconsole-control", NULL,
                  "raw control byte 0x%02x in the console table", ctl);
        FUZZ_PROP(lines == rows + 3, "gbconsole-lines", NULL,
                  "%zu rows, %zu console lines (3 of header)", rows, lines);
        free(out);
    }
}

/* ---- the results ------------------------------------------------------------------ */

static const char *const time_units[] = {"", "ns", "us", "ms", "s"};

/* A hostile number: as the input's bits pick. */
static double number(uint32_t bits, uint32_t h)
{
    static const double special[] = {0, 1e-300, 1e300, -2.5, INFINITY, -INFINITY, NAN, 5e-324};
    return bits & 8 ? special[bits & 7] : (double)(h % 100000) / 7.0;
}

static void add_counter(bl_launch *l, const char *unit, uint32_t bits, uint32_t h)
{
    double v = number(bits, h);
    if (bits & 16) /* a Google Benchmark counter: flags of its own */
        bl_launch_set_counter(l, unit, v, (bits >> 5) & (BL_RATE | BL_INVERT | BL_ONEK_1024),
                              (bits >> 8) & 63);
    else
        bl_launch_set_metric_ex(l, unit, v, (bits >> 5) & 31);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (64u << 10))
        return 0;
    fuzz_begin(data, size);
    const uint8_t *p = data;
    size_t n = size;
    char *f[NFIELDS];
    for (int i = 0; i < NFIELDS; i++)
        f[i] = field(&p, &n);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    uint32_t g = h * 2654435761u + 1; /* more bits */
    bl_results *r = bl_results_create();
    if (!r)
        goto out;
    snprintf(r->time_unit, sizeof r->time_unit, "%s", time_units[(g >> 28) % 5]);
    /* the context's date and host name: hostile too */
    bl_results_set_meta(r, "host", f[5]);
    bl_results_set_meta(r, "date", f[6]);
    int n_benches = 0;
    for (int b = 0; b < 3; b++) {
        if (b > 0 && !f[b][0])
            continue;
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
        uint32_t bh = h ^ (0x9e3779b9u * (uint32_t)(b + 1));
        int launches = 1 + (int)((bh >> 3) % 3);
        int threads = (int)((g >> (b * 2)) & 3);
        /* with a message: all fail, the last fails, or the last is skipped */
        int fail = f[6][0] ? (int)((g >> (8 + b * 2)) & 3) : 0;
        for (int k = 0; k < launches; k++) {
            bl_launch *l = bl_results_add_launch(bench);
            if (!l)
                break;
            bool last = k == launches - 1;
            if (fail == 1 || (fail == 2 && last)) {
                l->status = BL_EBENCH;
                l->message = strdup(f[6]);
            } else if (fail == 3 && last) {
                l->skipped = true;
                l->message = strdup(f[6]);
                continue;
            }
            l->threads = threads;
            l->counter_clock = (int)((bh >> (k + 5)) & 3);
            snprintf(l->time_unit, sizeof l->time_unit, "%s",
                     time_units[((bh >> (k * 3 + 9)) & 7) % 5]);
            if (f[5][0] && ((bh >> (k + 20)) & 1 || k == 0))
                l->label = strdup(f[5]);
            if ((bh >> 24) & 1)
                l->bytes_per_op = l->bytes_sum_per_op = 64;
            if ((bh >> 25) & 1)
                l->items_per_op = l->items_sum_per_op = 3;
            l->loop_iterations = 1000;
            for (int s = 0; s < 3; s++) {
                bl_sample m = {.stage = BL_STAGE_MEASURE,
                               .reps = 100 + ((bh >> (s * 3)) & 255),
                               .ns = 1000.0 + (double)((bh >> (b + k + s)) & 4095),
                               .cpu_ns = (bh >> 26) & 1 ? 900.0 + s : -1};
                bl_launch_add_sample(l, &m);
            }
            if (f[3][0])
                add_counter(l, f[3], g >> (k * 4), h);
            if (f[4][0])
                add_counter(l, f[4], bh >> (k * 5), g);
            bl_launch_finish(l);
        }
    }
    if (n_benches) {
        check_json(r);
        check_text(r);
    }
    bl_results_destroy(r);
out:
    for (int i = 0; i < NFIELDS; i++)
        free(f[i]);
    return 0;
}
