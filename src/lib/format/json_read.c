/*
 * json_read.c - a strict recursive-descent JSON parser into a small tree.
 * Only what the readers need: no streaming, no comments, no trailing
 * commas. Invalid UTF-8 in strings is passed through; \u escapes,
 * surrogate pairs included, are decoded.
 *
 * The tree (nodes, key and item arrays, strings) is allocated from one
 * arena (base/arena.c) and freed at once: a document of 50k benchmarks is
 * 2.85M values, which as one malloc each cost 30% of compare's
 * instructions and a glibc malloc_consolidate pass over millions of
 * freed chunks (bench/scaling/README.md). The values of an array or object
 * are parsed onto a stack shared by the whole parse and copied into the
 * arena when it closes, so that each array is allocated once at its size
 * rather than regrown; a string with escapes is decoded in a scratch
 * buffer and copied at its size. Sanitizer builds allocate each of these
 * by malloc (BENCHLAB_ARENA_PER_ALLOC), so ASan sees every array's end.
 */
#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/common.h"
#include "json.h"

#define MAX_DEPTH 200

/* A document: its root value first, so that bl__json_free finds the arena
 * from the root's address. */
struct doc {
    struct bl__json root;
    struct bl__arena arena;
};

struct parser {
    const char *s, *p, *end;
    char *err;
    size_t err_size;
    int oom;
    struct bl__arena *arena;
    /* the values (and keys, for objects) of the arrays and objects still
     * open, innermost last */
    struct bl__json *stack;
    char **stack_keys;
    size_t n_stack, cap_stack;
    struct bl__buf scratch; /* a string with escapes, decoded */
};

static int fail(struct parser *ps, const char *msg)
{
    if (ps->oom)
        return -ENOMEM;
    size_t line = 1, col = 1;
    for (const char *q = ps->s; q < ps->p && q < ps->end; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (ps->err)
        snprintf(ps->err, ps->err_size, "line %zu, column %zu: %s", line, col, msg);
    return BL_EFORMAT;
}

static void skip_ws(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int parse_value(struct parser *ps, struct bl__json *v, int depth);

static void put_utf8(char *o, size_t *k, unsigned long c)
{
    if (c < 0x80) {
        o[(*k)++] = (char)c;
    } else if (c < 0x800) {
        o[(*k)++] = (char)(0xC0 | (c >> 6));
        o[(*k)++] = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        o[(*k)++] = (char)(0xE0 | (c >> 12));
        o[(*k)++] = (char)(0x80 | ((c >> 6) & 0x3F));
        o[(*k)++] = (char)(0x80 | (c & 0x3F));
    } else {
        o[(*k)++] = (char)(0xF0 | (c >> 18));
        o[(*k)++] = (char)(0x80 | ((c >> 12) & 0x3F));
        o[(*k)++] = (char)(0x80 | ((c >> 6) & 0x3F));
        o[(*k)++] = (char)(0x80 | (c & 0x3F));
    }
}

static int hex4(const char *p, const char *end, unsigned long *out)
{
    if (end - p < 4)
        return -1;
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + (unsigned long)d;
    }
    *out = v;
    return 0;
}

static int oom(struct parser *ps)
{
    ps->oom = 1;
    return -ENOMEM;
}

/* A copy of s[0..n) and a NUL in the arena, or NULL. */
static char *arena_str(struct parser *ps, const char *s, size_t n)
{
    char *o = bl__arena_alloc(ps->arena, n + 1, 1);
    if (o) {
        memcpy(o, s, n);
        o[n] = '\0';
    }
    return o;
}

static int parse_string(struct parser *ps, char **out, size_t *out_len)
{
    ps->p++; /* opening quote */
    const char *q = ps->p;
    int escaped = 0;
    while (q < ps->end && *q != '"') {
        if (*q == '\\') {
            q++;
            escaped = 1;
        }
        q++;
    }
    if (q >= ps->end)
        return fail(ps, "unterminated string");
    if (!escaped) {
        for (const char *c = ps->p; c < q; c++)
            if ((unsigned char)*c < 0x20) {
                ps->p = c;
                return fail(ps, "control character in string");
            }
        size_t n = (size_t)(q - ps->p);
        if (!(*out = arena_str(ps, ps->p, n)))
            return oom(ps);
        *out_len = n;
        ps->p = q + 1;
        return 0;
    }
    ps->scratch.len = 0;
    if (bl__buf_reserve(&ps->scratch, (size_t)(q - ps->p) + 1)) /* escapes only shrink */
        return oom(ps);
    char *o = ps->scratch.data;
    size_t k = 0;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20)
            return fail(ps, "control character in string");
        if (c != '\\') {
            o[k++] = (char)c;
            ps->p++;
            continue;
        }
        ps->p++;
        char e = *ps->p++;
        switch (e) {
        case '"':
            o[k++] = '"';
            break;
        case '\\':
            o[k++] = '\\';
            break;
        case '/':
            o[k++] = '/';
            break;
        case 'b':
            o[k++] = '\b';
            break;
        case 'f':
            o[k++] = '\f';
            break;
        case 'n':
            o[k++] = '\n';
            break;
        case 'r':
            o[k++] = '\r';
            break;
        case 't':
            o[k++] = '\t';
            break;
        case 'u': {
            unsigned long cp, lo;
            if (hex4(ps->p, q, &cp))
                return fail(ps, "bad \\u escape");
            ps->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && q - ps->p >= 6 && ps->p[0] == '\\' &&
                ps->p[1] == 'u' && hex4(ps->p + 2, q, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                ps->p += 6;
            }
            put_utf8(o, &k, cp);
            break;
        }
        default:
            ps->p--;
            return fail(ps, "bad escape");
        }
    }
    ps->p++; /* closing quote */
    if (!(*out = arena_str(ps, o, k)))
        return oom(ps);
    *out_len = k;
    return 0;
}

static int parse_number(struct parser *ps, struct bl__json *v)
{
    const char *p = ps->p, *start = p;
    /* Google Benchmark writes a counter's inf and NaN as JavaScript's
     * words (its json_reporter.cc), which Python's json reads: so do we */
    static const struct {
        const char *word;
        double value;
    } words[] = {{"Infinity", INFINITY}, {"-Infinity", -INFINITY}, {"NaN", NAN}};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
        size_t len = strlen(words[k].word);
        if ((size_t)(ps->end - p) >= len && memcmp(p, words[k].word, len) == 0) {
            ps->p += len;
            v->type = BL_JNUM;
            v->num = words[k].value;
            return 0;
        }
    }
    if (p < ps->end && *p == '-')
        p++;
    if (p >= ps->end || *p < '0' || *p > '9')
        return fail(ps, "bad number");
    if (*p == '0')
        p++;
    else
        while (p < ps->end && *p >= '0' && *p <= '9')
            p++;
    if (p < ps->end && *p == '.') {
        p++;
        if (p >= ps->end || *p < '0' || *p > '9')
            return fail(ps, "bad number");
        while (p < ps->end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < ps->end && (*p == '+' || *p == '-'))
            p++;
        if (p >= ps->end || *p < '0' || *p > '9')
            return fail(ps, "bad number");
        while (p < ps->end && *p >= '0' && *p <= '9')
            p++;
    }
    char buf[512];
    size_t n = (size_t)(p - start);
    if (n >= sizeof buf)
        return fail(ps, "number too long");
    memcpy(buf, start, n);
    buf[n] = '\0';
    v->type = BL_JNUM;
    v->num = strtod(buf, NULL);
    ps->p = p;
    return 0;
}

static int lit(struct parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return fail(ps, "unexpected character");
    ps->p += n;
    return 0;
}

/* Put v (and its key, for an object) on the stack. */
static int push(struct parser *ps, const struct bl__json *v, char *key)
{
    if (ps->n_stack == ps->cap_stack) {
        size_t nc = ps->cap_stack ? ps->cap_stack * 2 : 64;
        struct bl__json *ns = realloc(ps->stack, nc * sizeof *ns);
        if (!ns)
            return oom(ps);
        ps->stack = ns;
        char **nk = realloc(ps->stack_keys, nc * sizeof *nk);
        if (!nk)
            return oom(ps);
        ps->stack_keys = nk;
        ps->cap_stack = nc;
    }
    ps->stack[ps->n_stack] = *v;
    ps->stack_keys[ps->n_stack] = key;
    ps->n_stack++;
    return 0;
}

/* Move the stack's values from `base` up (and their keys, for an object)
 * into v's arrays in the arena. */
static int pop_into(struct parser *ps, struct bl__json *v, size_t base, int with_keys)
{
    size_t n = ps->n_stack - base;
    v->n = n;
    if (!n)
        return 0;
    v->items = bl__arena_alloc(ps->arena, n * sizeof *v->items, alignof(struct bl__json));
    if (!v->items)
        return oom(ps);
    memcpy(v->items, ps->stack + base, n * sizeof *v->items);
    if (with_keys) {
        v->keys = bl__arena_alloc(ps->arena, n * sizeof *v->keys, alignof(char *));
        if (!v->keys)
            return oom(ps);
        memcpy(v->keys, ps->stack_keys + base, n * sizeof *v->keys);
    }
    ps->n_stack = base;
    return 0;
}

static int parse_value(struct parser *ps, struct bl__json *v, int depth)
{
    memset(v, 0, sizeof *v);
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end of input");
    if (depth > MAX_DEPTH)
        return fail(ps, "nesting too deep");
    int rc;
    size_t base = ps->n_stack;
    struct bl__json item;
    switch (*ps->p) {
    case '{':
        v->type = BL_JOBJ;
        ps->p++;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return 0;
        }
        for (;;) {
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != '"')
                return fail(ps, "expected a key");
            size_t klen;
            char *key;
            if ((rc = parse_string(ps, &key, &klen)) != 0)
                return rc;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return fail(ps, "expected ':'");
            ps->p++;
            if ((rc = parse_value(ps, &item, depth + 1)) != 0 || (rc = push(ps, &item, key)) != 0)
                return rc;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == '}') {
                ps->p++;
                return pop_into(ps, v, base, 1);
            }
            return fail(ps, "expected ',' or '}'");
        }
    case '[':
        v->type = BL_JARR;
        ps->p++;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return 0;
        }
        for (;;) {
            if ((rc = parse_value(ps, &item, depth + 1)) != 0 || (rc = push(ps, &item, NULL)) != 0)
                return rc;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == ']') {
                ps->p++;
                return pop_into(ps, v, base, 0);
            }
            return fail(ps, "expected ',' or ']'");
        }
    case '"':
        v->type = BL_JSTR;
        return parse_string(ps, &v->str, &v->len);
    case 't':
        v->type = BL_JBOOL;
        v->boolean = 1;
        return lit(ps, "true");
    case 'f':
        v->type = BL_JBOOL;
        return lit(ps, "false");
    case 'n':
        v->type = BL_JNULL;
        return lit(ps, "null");
    default:
        return parse_number(ps, v);
    }
}

void bl__json_free(struct bl__json *v)
{
    if (!v)
        return;
    struct doc *d = (struct doc *)v; /* v is a document's root (json.h) */
    bl__arena_fini(&d->arena);
    free(d);
}

int bl__json_parse(const char *s, size_t n, struct bl__json **out, char *err, size_t err_size)
{
    *out = NULL;
    struct doc *d = malloc(sizeof *d);
    if (!d)
        return -ENOMEM;
    bl__arena_init(&d->arena);
    struct parser ps = {
        .s = s, .p = s, .end = s + n, .err = err, .err_size = err_size, .arena = &d->arena};
    int rc = parse_value(&ps, &d->root, 0);
    if (!rc) {
        skip_ws(&ps);
        if (ps.p != ps.end)
            rc = fail(&ps, "trailing characters after the value");
    }
    free(ps.stack);
    free(ps.stack_keys);
    bl__buf_fini(&ps.scratch);
    if (rc) {
        bl__json_free(&d->root);
        return rc;
    }
    *out = &d->root;
    return 0;
}

const struct bl__json *bl__json_get(const struct bl__json *v, const char *key)
{
    if (!v || v->type != BL_JOBJ)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}

const char *bl__json_str(const struct bl__json *v)
{
    return v && v->type == BL_JSTR ? v->str : NULL;
}

double bl__json_num(const struct bl__json *v, double dflt)
{
    return v && v->type == BL_JNUM ? v->num : dflt;
}

bool bl__json_metric(const struct bl__json *v, double *out)
{
    if (v && v->type == BL_JNUM) {
        *out = v->num;
        return true;
    }
    if (v && v->type == BL_JSTR && (strcmp(v->str, "inf") == 0 || strcmp(v->str, "-inf") == 0)) {
        *out = v->str[0] == '-' ? -INFINITY : INFINITY;
        return true;
    }
    return false;
}
