/* utf8.c - making text valid UTF-8 before it reaches a backend (db.h). */
#include <stdlib.h>
#include <string.h>

#include "db.h"

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t seq_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0) {
        len = 2;
        min = 0x80;
        c &= 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        min = 0x800;
        c &= 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        min = 0x10000;
        c &= 0x07;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0; /* overlong, out of range, surrogate */
    return len;
}

char *bl__utf8_clean(const char *s, int *oom)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        size_t k = seq_len(p + i, n - i);
        if (!k)
            break;
        i += k;
    }
    if (i == n)
        return NULL;
    char *out = malloc(n + 1);
    if (!out) {
        *oom = 1;
        return NULL;
    }
    size_t o = 0;
    for (i = 0; i < n;) {
        size_t k = seq_len(p + i, n - i);
        if (k) {
            memcpy(out + o, s + i, k);
            o += k;
            i += k;
        } else {
            out[o++] = '?';
            i++;
        }
    }
    out[o] = '\0';
    return out;
}
