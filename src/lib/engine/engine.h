/* engine.h - runner internals the suite's command line (bench/main.c) shares. */
#ifndef BENCHLAB_ENGINE_ENGINE_H
#define BENCHLAB_ENGINE_ENGINE_H
#include <stddef.h>

/*
 * The instances of `exe` (NULL: this program) whose full name matches the
 * POSIX extended regex `filter` (NULL: all), in order. *names is freed
 * with bl_names_free(). Returns the count (0 when nothing matches), or a
 * negative error with a message in `err`: BL_EUSAGE for a bad regex,
 * BL_EPROTO when exe is not a benchlab suite.
 */
long bl__list_matching(const char *exe, const char *filter, char ***names, char *err,
                       size_t err_size);

#endif
