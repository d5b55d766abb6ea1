/*
 * compare_in.c - reading one input of `benchlab compare`: sniff the format
 * from its first bytes (JSON starts with '{' after optional whitespace;
 * everything else is the Go benchmark format), then stream it into the
 * engine. JSON inputs (Google Benchmark, benchlab's own) are converted to
 * the same results the Go format would give (json_in.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare_priv.h"
#include "../format/gobench_int.h"

int bl__compare_read_json(bl_compare *c, int fd, const char *prefix, size_t prefix_len,
                          const char *path, const char *label, char *err, size_t err_size);

int bl__compare_read_fd(bl_compare *c, int fd, const char *path, const char *label, char *err,
                        size_t err_size)
{
    char head[4096];
    size_t n = 0;
    err[0] = '\0';
    /* Read until something other than whitespace shows up (or EOF). */
    for (;;) {
        ssize_t got = read(fd, head + n, sizeof head - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            snprintf(err, err_size, "read %s: %s", path, strerror(e));
            if (err[5 + strlen(path) + 2] >= 'A' && err[5 + strlen(path) + 2] <= 'Z')
                err[5 + strlen(path) + 2] += 'a' - 'A';
            return -e;
        }
        n += (size_t)got;
        size_t i = 0;
        while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
            i++;
        if (got == 0 || i < n || n == sizeof head)
            break;
    }
    size_t i = 0;
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
        i++;
    if (i < n && head[i] == '{')
        return bl__compare_read_json(c, fd, head, n, path, label, err, err_size);
    return bl__gobench_read(fd, head, n, path, label, bl__compare_handler(c), err, err_size);
}
