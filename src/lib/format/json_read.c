/*
 * json_read.c - a strict recursive-descent JSON parser into a small tree.
 * Only what the readers need: no streaming, no comments, no trailing
 * commas. Invalid UTF-8 in strings is passed through; \u escapes,
 * surrogate pairs included, are decoded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/common.h"
#include "json.h"

#define MAX_DEPTH 200

struct parser {
    const char *s, *p, *end;
    char *err;
    size_t err_size;
    int oom;
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

static int parse_string(struct parser *ps, char **out, size_t *out_len)
{
    ps->p++; /* opening quote */
    const char *q = ps->p;
    while (q < ps->end && *q != '"') {
        if (*q == '\\')
            q++;
        q++;
    }
    if (q >= ps->end)
        return fail(ps, "unterminated string");
    char *o = malloc((size_t)(q - ps->p) + 1); /* escapes only shrink */
    if (!o) {
        ps->oom = 1;
        return -ENOMEM;
    }
    size_t k = 0;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            free(o);
            return fail(ps, "control character in string");
        }
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
            if (hex4(ps->p, q, &cp)) {
                free(o);
                return fail(ps, "bad \\u escape");
            }
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
            free(o);
            ps->p--;
            return fail(ps, "bad escape");
        }
    }
    ps->p++; /* closing quote */
    o[k] = '\0';
    *out = o;
    *out_len = k;
    return 0;
}

static int parse_number(struct parser *ps, struct bl__json *v)
{
    const char *p = ps->p, *start = p;
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

static int push(struct bl__json *v, size_t *cap, int with_key)
{
    if (v->n < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 4;
    struct bl__json *ni = realloc(v->items, nc * sizeof *ni);
    if (!ni)
        return -ENOMEM;
    v->items = ni;
    if (with_key) {
        char **nk = realloc(v->keys, nc * sizeof *nk);
        if (!nk)
            return -ENOMEM;
        v->keys = nk;
    }
    *cap = nc;
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
    size_t cap = 0;
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
            if (push(v, &cap, 1)) {
                ps->oom = 1;
                return -ENOMEM;
            }
            size_t klen;
            char *key;
            if ((rc = parse_string(ps, &key, &klen)) != 0)
                return rc;
            v->keys[v->n] = key;
            memset(&v->items[v->n], 0, sizeof v->items[v->n]);
            v->n++;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return fail(ps, "expected ':'");
            ps->p++;
            if ((rc = parse_value(ps, &v->items[v->n - 1], depth + 1)) != 0)
                return rc;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == '}') {
                ps->p++;
                return 0;
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
            if (push(v, &cap, 0)) {
                ps->oom = 1;
                return -ENOMEM;
            }
            memset(&v->items[v->n], 0, sizeof v->items[v->n]);
            v->n++;
            if ((rc = parse_value(ps, &v->items[v->n - 1], depth + 1)) != 0)
                return rc;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == ']') {
                ps->p++;
                return 0;
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

static void free_inner(struct bl__json *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free_inner(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

void bl__json_free(struct bl__json *v)
{
    if (!v)
        return;
    free_inner(v);
    free(v);
}

int bl__json_parse(const char *s, size_t n, struct bl__json **out, char *err, size_t err_size)
{
    struct parser ps = {s, s, s + n, err, err_size, 0};
    struct bl__json *v = calloc(1, sizeof *v);
    *out = NULL;
    if (!v)
        return -ENOMEM;
    int rc = parse_value(&ps, v, 0);
    if (!rc) {
        skip_ws(&ps);
        if (ps.p != ps.end)
            rc = fail(&ps, "trailing characters after the value");
    }
    if (rc) {
        bl__json_free(v);
        return rc;
    }
    *out = v;
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
