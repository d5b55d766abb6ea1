/*
 * write_pprof.c - pprof's profile.proto, encoded by hand (no protobuf library).
 *
 * One location and one function per profile function (no addresses: the
 * tree is already symbolized); one sample per tree node with exclusive
 * value, its location ids leaf first. Sampled profiles carry
 * [samples/count, cpu|wall/nanoseconds]; traced ones [calls/count,
 * time/nanoseconds]. Written uncompressed: `pprof` and `go tool pprof`
 * accept both.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile_int.h"

struct pb {
    unsigned char *data;
    size_t n, cap;
    int failed;
};

static void pb_bytes(struct pb *b, const void *src, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        unsigned char *data = realloc(b->data, cap);
        if (!data) {
            b->failed = 1;
            return;
        }
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->n, src, n);
    b->n += n;
}

static void pb_varint(struct pb *b, uint64_t v)
{
    unsigned char buf[10];
    size_t n = 0;
    do {
        buf[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            buf[n] |= 0x80;
        n++;
    } while (v);
    pb_bytes(b, buf, n);
}

static void pb_key(struct pb *b, unsigned field, unsigned wire)
{
    pb_varint(b, (uint64_t)field << 3 | wire);
}

static void pb_uint(struct pb *b, unsigned field, uint64_t v)
{
    pb_key(b, field, 0);
    pb_varint(b, v);
}

static void pb_sub(struct pb *b, unsigned field, struct pb *sub)
{
    pb_key(b, field, 2);
    pb_varint(b, sub->n);
    pb_bytes(b, sub->data, sub->n);
    if (sub->failed)
        b->failed = 1;
    sub->n = 0;
}

static void pb_string(struct pb *b, unsigned field, const char *s)
{
    pb_key(b, field, 2);
    pb_varint(b, strlen(s));
    pb_bytes(b, s, strlen(s));
}

static void value_type(struct pb *b, struct pb *tmp, unsigned field, uint64_t type, uint64_t unit)
{
    pb_uint(tmp, 1, type);
    pb_uint(tmp, 2, unit);
    pb_sub(b, field, tmp);
}

/* string table layout: 0 "", then the fixed strings, then names, then files */
enum { S_EMPTY, S_COUNT, S_NS, S_SAMPLES, S_CPU, S_WALL, S_CALLS, S_TIME, S_FIXED };
static const char *const fixed_strings[S_FIXED] = {"",    "count", "nanoseconds", "samples",
                                                   "cpu", "wall",  "calls",       "time"};

int bl__profile_write_pprof(const bl_profile *p, FILE *out)
{
    struct pb b = {0}, tmp = {0}, packed = {0};
    int traced = p->kind == BL_PROFILE_TRACED;
    value_type(&b, &tmp, 1, traced ? S_CALLS : S_SAMPLES, S_COUNT);
    value_type(&b, &tmp, 1, traced ? S_TIME : S_CPU, S_NS);
    /* samples: one per node with exclusive value or calls */
    for (size_t i = 1; i < p->n_nodes; i++) {
        const struct bl__node *nd = &p->nodes[i];
        double self = nd->self > 0 ? nd->self : 0;
        uint64_t first = traced ? nd->calls : (uint64_t)llround(self / p->unit_ns);
        if (self <= 0 && first == 0)
            continue;
        for (uint32_t n = (uint32_t)i; n != 0; n = p->nodes[n].parent)
            pb_varint(&packed, (uint64_t)p->nodes[n].func + 1);
        pb_sub(&tmp, 1, &packed);
        pb_varint(&packed, first);
        pb_varint(&packed, (uint64_t)llround(self));
        pb_sub(&tmp, 2, &packed);
        pb_sub(&b, 2, &tmp);
    }
    struct pb line = {0};
    for (size_t i = 0; i < p->n_funcs; i++) {
        pb_uint(&tmp, 1, i + 1); /* location id */
        pb_uint(&line, 1, i + 1);
        if (p->funcs[i].line > 0)
            pb_uint(&line, 2, (uint64_t)p->funcs[i].line);
        pb_sub(&tmp, 4, &line);
        pb_sub(&b, 4, &tmp);
    }
    for (size_t i = 0; i < p->n_funcs; i++) {
        pb_uint(&tmp, 1, i + 1);
        pb_uint(&tmp, 2, S_FIXED + i);
        pb_uint(&tmp, 3, S_FIXED + i);
        pb_uint(&tmp, 4, p->funcs[i].file ? S_FIXED + p->n_funcs + i : S_EMPTY);
        if (p->funcs[i].line > 0)
            pb_uint(&tmp, 5, (uint64_t)p->funcs[i].line);
        pb_sub(&b, 5, &tmp);
    }
    for (size_t i = 0; i < S_FIXED; i++)
        pb_string(&b, 6, fixed_strings[i]);
    for (size_t i = 0; i < p->n_funcs; i++)
        pb_string(&b, 6, p->funcs[i].name);
    for (size_t i = 0; i < p->n_funcs; i++)
        pb_string(&b, 6, p->funcs[i].file ? p->funcs[i].file : "");
    value_type(&b, &tmp, 11, traced ? S_TIME : S_CPU, S_NS);
    pb_uint(&b, 12, traced ? 1 : (uint64_t)llround(p->unit_ns));
    int err = b.failed || tmp.failed || packed.failed || line.failed ? -ENOMEM : 0;
    if (!err && fwrite(b.data, 1, b.n, out) != b.n)
        err = -EIO;
    free(b.data);
    free(tmp.data);
    free(packed.data);
    free(line.data);
    return err;
}
