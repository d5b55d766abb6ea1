/* json_in.c - JSON inputs of compare (placeholder until the JSON reader lands). */
#include <errno.h>
#include <stdio.h>

#include "compare_priv.h"

int bl__compare_read_json(bl_compare *c, int fd, const char *prefix, size_t prefix_len,
                          const char *path, const char *label, char *err, size_t err_size);

int bl__compare_read_json(bl_compare *c, int fd, const char *prefix, size_t prefix_len,
                          const char *path, const char *label, char *err, size_t err_size)
{
    (void)c;
    (void)fd;
    (void)prefix;
    (void)prefix_len;
    (void)label;
    snprintf(err, err_size, "%s: JSON input not supported yet", path);
    return BL_EUNSUPPORTED;
}
