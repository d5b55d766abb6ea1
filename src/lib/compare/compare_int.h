/*
 * compare_int.h - internals of the compare engine shared by its files:
 * tables.c, proj.c, sort.c, finish.c (grouping, statistics), the
 * writers (write_*.c, gate.c), query.c (projection and filter syntax),
 * units.c (tidying, scaling, Go number formatting).
 */
#ifndef BENCHLAB_COMPARE_COMPARE_INT_H
#define BENCHLAB_COMPARE_COMPARE_INT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/base.h"
#include "benchlab/compare.h"
#include "benchlab/format.h"

/* ---- interned strings: id 0 is "" ---- */
struct bl__strtab {
    char **s;
    uint32_t *len;
    uint64_t *hash;
    size_t n, cap;
    uint32_t *slots; /* id + 1; 0 = empty */
    size_t n_slots;
};
uint64_t bl__hash_bytes(const void *p, size_t n);
int bl__strtab_init(struct bl__strtab *t);
void bl__strtab_fini(struct bl__strtab *t);
/* The id of s[0..n), added if new; -1 on ENOMEM. */
long bl__strtab_intern(struct bl__strtab *t, const char *s, size_t n);

/* ---- units.c ---- */
/* benchunit.Tidy: *factor and the tidied unit in out (size >= strlen(unit)+1+8). */
void bl__unit_tidy(const char *unit, double *factor, char *out, size_t out_size);
/* 1 when the unit's class is binary (powers of 1024). */
int bl__unit_is_binary(const char *unit);
/* Go's %v of a float64 (strconv 'g', shortest). */
void bl__go_fmt_g(char *out, size_t size, double x);
/* Go's %.*f with optional '+' flag (NaN, +Inf spelled as Go does). */
void bl__go_fmt_f(char *out, size_t size, int prec, double x, int plus);
struct bl__scaler {
    int prec;
    double factor;
    const char *prefix;
};
void bl__common_scale(const double *vals, size_t n, int binary, struct bl__scaler *s);
void bl__scaler_format(const struct bl__scaler *s, double v, char *out, size_t size);

/* ---- query.c: projection and filter syntax ---- */
enum { ORD_FIRST, ORD_ALPHA, ORD_NUM, ORD_FIXED };
struct bl__pfield { /* one parsed projection element */
    char *key;
    int order;
    char **fixed;
    size_t n_fixed;
    int key_off, order_off;
};
/* Parse a projection; on error returns BL_EUSAGE with "syntax error: ..." in err. */
int bl__parse_projection(const char *q, struct bl__pfield **out, size_t *n, char *err,
                         size_t err_size);
void bl__pfields_free(struct bl__pfield *f, size_t n);

enum { FN_AND, FN_OR, FN_NOT, FN_MATCH };
struct bl__fnode {
    int op;
    struct bl__fnode **sub;
    size_t n_sub;
    char *key;   /* FN_MATCH */
    char *lit;   /* literal, or NULL with re */
    regex_t *re; /* regexp match */
    int off;
};
int bl__parse_filter(const char *q, struct bl__fnode **out, char *err, size_t err_size);
void bl__fnode_free(struct bl__fnode *n);
/* "syntax error: MSG\n\tQUERY\n\t   ^" */
void bl__syntax_error(char *err, size_t size, const char *q, int off, const char *msg);

#endif /* BENCHLAB_COMPARE_COMPARE_INT_H */
