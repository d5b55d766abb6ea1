/* buf.c - growable byte strings and array growth, used by every module. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"

int bl__grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem)
            return -ENOMEM;
        ncap *= 2;
    }
    void *p = realloc(*arr, ncap * elem);
    if (!p)
        return -ENOMEM;
    *arr = p;
    *cap = ncap;
    return 0;
}

int bl__buf_reserve(struct bl__buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap;
    return bl__grow((void **)&b->data, &cap, b->len + extra + 1, 1) ? -ENOMEM : (b->cap = cap, 0);
}

int bl__buf_append(struct bl__buf *b, const void *p, size_t n)
{
    if (bl__buf_reserve(b, n))
        return -ENOMEM;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int bl__buf_puts(struct bl__buf *b, const char *s)
{
    return bl__buf_append(b, s, strlen(s));
}

int bl__buf_vprintf(struct bl__buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return -EINVAL;
    if (bl__buf_reserve(b, (size_t)n))
        return -ENOMEM;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int bl__buf_printf(struct bl__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int err = bl__buf_vprintf(b, fmt, ap);
    va_end(ap);
    return err;
}

int bl__buf_read_fd(struct bl__buf *b, int fd, size_t limit)
{
    for (;;) {
        if (b->len >= limit)
            return -EFBIG;
        if (bl__buf_reserve(b, 65536))
            return -ENOMEM;
        size_t room = b->cap - b->len - 1;
        if (room > limit - b->len)
            room = limit - b->len;
        ssize_t got = read(fd, b->data + b->len, room);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (got == 0)
            return 0;
        b->len += (size_t)got;
        b->data[b->len] = '\0';
    }
}

void bl__buf_fini(struct bl__buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

char *bl__strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}
