/*
 * json.h - a small, strict JSON parser (RFC 8259) for the readers of
 * Google Benchmark and benchlab JSON; beyond RFC 8259 it reads only the
 * number words Infinity, -Infinity and NaN, which Google Benchmark writes. Written here so that
 * libbenchlab keeps depending on libc alone: a suite links it, and a JSON library in every
 * benchmark binary is a dependency nobody asked for.
 */
#ifndef BENCHLAB_FORMAT_JSON_H
#define BENCHLAB_FORMAT_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum { BL_JNULL, BL_JBOOL, BL_JNUM, BL_JSTR, BL_JARR, BL_JOBJ };

struct bl__json {
    int type;
    int boolean;
    double num;
    char *str; /* BL_JSTR: decoded UTF-8, NUL-terminated (may contain NULs: see len) */
    size_t len;
    struct bl__json *items; /* BL_JARR, BL_JOBJ: n values */
    char **keys;            /* BL_JOBJ: n keys, in document order */
    size_t n;
};

/*
 * Parse s[0..n). Returns 0 and *out, or BL_EFORMAT with "line L, column
 * C: message" in err, or -ENOMEM. Nesting deeper than 200 levels is
 * refused. The whole tree (values, arrays, keys, strings) is allocated
 * from one arena (base/arena.c) that bl__json_free(*out) frees at once:
 * pass it the root and nothing else, and keep no pointer into the tree
 * past it.
 */
int bl__json_parse(const char *s, size_t n, struct bl__json **out, char *err, size_t err_size);
void bl__json_free(struct bl__json *v);
/* The value of key in an object, or NULL (also when v is not an object). */
const struct bl__json *bl__json_get(const struct bl__json *v, const char *key);
/* A string value's text, or NULL. */
const char *bl__json_str(const struct bl__json *v);
/* A number's value, or `dflt` when v is not a number. */
double bl__json_num(const struct bl__json *v, double dflt);
/*
 * A metric's value in benchlab JSON: a number, or the string "inf" or
 * "-inf" (JSON has no infinity; docs/formats.md, "benchlab JSON"). Sets
 * *out and returns true, or returns false (*out untouched).
 */
bool bl__json_metric(const struct bl__json *v, double *out);

#endif /* BENCHLAB_FORMAT_JSON_H */
