/* fuzz_compare.c - libFuzzer target: the whole compare pipeline. The
 * input's first line is a -filter query, its second a -row projection;
 * the rest is read twice (as two files) and written as text, CSV, Markdown
 * and JSON. The JSON must be valid UTF-8 that parses; no output may carry a
 * raw control byte (terminal injection) and no CSV cell may start with a
 * formula character (fuzz_props.h; issue 18 items 4 and 6). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchlab/compare.h"
#include "benchlab/format.h"
#include "format/json.h"
#include "fuzz_props.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *take_line(const uint8_t **p, size_t *n)
{
    const uint8_t *nl = memchr(*p, '\n', *n);
    size_t len = nl ? (size_t)(nl - *p) : *n;
    char *s = strndup((const char *)*p, len);
    *p += nl ? len + 1 : len;
    *n -= nl ? len + 1 : len;
    return s;
}

static void no_controls(const char *what, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f) {
            FUZZ_PROP(false, what, NULL, "raw control byte 0x%02x in the output", ch);
            return;
        }
    }
}

/* Every cell of the CSV (quoted or not) against formula injection. */
static void no_formula_cells(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        bool quoted = s[i] == '"';
        const char *c = s + i + quoted;
        size_t left = n - i - quoted;
        if (left && fuzz_formula_cell(c, left))
            FUZZ_PROP(false, "compare-csv-formula", NULL,
                      "a CSV cell starts with '%c' (formula injection)", c[0]);
        /* to the next cell */
        i += quoted;
        while (i < n) {
            if (quoted && s[i] == '"') {
                if (i + 1 < n && s[i + 1] == '"') {
                    i += 2;
                    continue;
                }
                quoted = false;
            } else if (!quoted && (s[i] == ',' || s[i] == '\n')) {
                break;
            }
            i++;
        }
        i++;
    }
}

static void check_outputs(bl_compare *c)
{
    char *buf = NULL, *csv = NULL;
    size_t len = 0, csv_len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    bl_compare_write_text(c, f);
    bl_compare_write_markdown(c, f);
    fclose(f);
    no_controls("compare-text-control", buf, len);
    free(buf);
    FILE *g = open_memstream(&csv, &csv_len);
    if (g) {
        bl_compare_write_csv(c, g, g);
        fclose(g);
        no_controls("compare-csv-control", csv, csv_len);
        no_formula_cells(csv, csv_len);
        free(csv);
    }
    buf = NULL;
    f = open_memstream(&buf, &len);
    if (!f)
        return;
    bl_compare_write_json(c, f);
    fclose(f);
    FUZZ_PROP(fuzz_valid_utf8(buf, len), "compare-json-invalid-utf8", NULL,
              "compare -format json wrote invalid UTF-8");
    struct bl__json *doc = NULL;
    char err[256];
    FUZZ_PROP(len == 0 || bl__json_parse(buf, len, &doc, err, sizeof err) == 0,
              "compare-json-unparsable", NULL, "compare -format json does not parse: %s", err);
    if (doc)
        bl__json_free(doc);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (256u << 10))
        return 0;
    fuzz_begin(data, size);
    const uint8_t *p = data;
    size_t n = size;
    char *filter = take_line(&p, &n), *row = take_line(&p, &n);
    int fd = memfd_create("fuzz", 0);
    if (fd < 0 || !filter || !row) {
        free(filter);
        free(row);
        if (fd >= 0)
            close(fd);
        return 0;
    }
    if (write(fd, p, n) != (ssize_t)n) {
        close(fd);
        free(filter);
        free(row);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    char *args[2];
    char a0[80], a1[80];
    snprintf(a0, sizeof a0, "old=%s", path);
    snprintf(a1, sizeof a1, "new=%s", path);
    args[0] = a0;
    args[1] = a1;
    bl_compare_options o;
    bl_compare_options_init(&o);
    o.filter = filter[0] ? filter : "*";
    o.row = row[0] ? row : ".fullname";
    FILE *sink = fopen("/dev/null", "w");
    bl_diags skipped = {0};
    o.diags = &skipped;
    bl_compare *c = NULL;
    char err[1024];
    if (sink && bl_compare_create(&o, &c, err, sizeof err) == 0) {
        if (bl_compare_read_inputs(c, args, 2, err, sizeof err) == 0 && bl_compare_finish(c) == 0) {
            check_outputs(c);
            bl_compare_gate(c, 0, BL_CORRECTION_BH, sink);
        }
        bl_compare_destroy(c);
    }
    if (sink)
        fclose(sink);
    bl_diags_fini(&skipped);
    close(fd);
    free(filter);
    free(row);
    return 0;
}
