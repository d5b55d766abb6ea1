/* fuzz_gobench_read.c - libFuzzer target: the Go benchmark format reader
 * must not crash, leak or read out of bounds on any input. */
#include <stddef.h>
#include <stdint.h>

#include "benchlab/format.h"
#include "format/gobench.h"

static int on_result(void *ctx, const bl_gobench_result *r)
{
    size_t *n = ctx;
    for (size_t i = 0; i < r->n_values; i++)
        *n += r->values[i].unit_len + (r->values[i].value > 0);
    for (size_t i = 0; i < r->n_config; i++)
        *n += r->config[i].key[0] != '\0';
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (512u << 10))
        return 0;
    size_t n = 0;
    bl_gobench_handler h = {&n, on_result, NULL, NULL, NULL};
    char err[256];
    bl__gobench_read(-1, (const char *)data, size, "fuzz", "fuzz", &h, err, sizeof err);
    return 0;
}
