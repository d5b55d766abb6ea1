/* gobench.h - library-internal entry points of the format readers. */
#ifndef BENCHLAB_FORMAT_GOBENCH_H
#define BENCHLAB_FORMAT_GOBENCH_H

#include <stddef.h>

#include "benchlab/format.h"

/* bl_gobench_read_fd, with prefix[0..prefix_len) (< 1 MiB) already read from fd;
 * fd < 0 means the prefix is all there is. */
int bl__gobench_read(int fd, const char *prefix, size_t prefix_len, const char *path,
                     const char *label, const bl_gobench_handler *h, char *err, size_t err_size);

/* A fresh configuration generation (bl_gobench_result.config_gen). */
unsigned long bl__gobench_next_gen(void);

#endif /* BENCHLAB_FORMAT_GOBENCH_H */
