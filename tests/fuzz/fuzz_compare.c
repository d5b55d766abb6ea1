/* fuzz_compare.c - libFuzzer target: the whole compare pipeline. The
 * input's first line is a -filter query, its second a -row projection;
 * the rest is read twice (as two files) and written as text and CSV. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchlab/compare.h"
#include "benchlab/format.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (256u << 10))
        return 0;
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
            bl_compare_write_text(c, sink);
            bl_compare_write_csv(c, sink, sink);
            bl_compare_write_markdown(c, sink);
            bl_compare_write_json(c, sink);
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
