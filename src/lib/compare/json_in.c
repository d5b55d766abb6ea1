/* json_in.c - JSON inputs of compare (placeholder until the JSON reader lands). */
#include <errno.h>
#include <stdio.h>

#include "compare_priv.h"

int bl__compare_read_json(int fd, const char *prefix, size_t prefix_len, const char *path,
                          const char *label, const bl_gobench_handler *h, char *err,
                          size_t err_size);

int bl__compare_read_json(int fd, const char *prefix, size_t prefix_len, const char *path,
                          const char *label, const bl_gobench_handler *h, char *err,
                          size_t err_size)
{
    (void)fd;
    (void)prefix;
    (void)prefix_len;
    (void)label;
    (void)h;
    snprintf(err, err_size, "%s: JSON input not supported yet", path);
    return BL_EUNSUPPORTED;
}
