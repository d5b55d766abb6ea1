/* fuzz_json.c - libFuzzer target: the JSON parser, and the Google
 * Benchmark and benchlab JSON converters behind it. */
#include <stddef.h>
#include <stdint.h>

#include "benchlab/format.h"
#include "format/json.h"

int bl__compare_read_json(int fd, const char *prefix, size_t prefix_len, const char *path,
                          const char *label, const bl_gobench_handler *h, char *err,
                          size_t err_size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_result(void *ctx, const bl_gobench_result *r)
{
    size_t *n = ctx;
    *n += r->n_values + r->name_len;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (256u << 10))
        return 0;
    struct bl__json *doc = NULL;
    char err[256];
    if (bl__json_parse((const char *)data, size, &doc, err, sizeof err) == 0)
        bl__json_free(doc);
    size_t n = 0;
    bl_gobench_handler h = {&n, on_result, NULL, NULL, NULL};
    bl__compare_read_json(-1, (const char *)data, size, "fuzz", "fuzz", &h, err, sizeof err);
    return 0;
}
