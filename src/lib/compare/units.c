/*
 * units.c - benchstat's unit handling and Go's number formatting: unit
 * tidying (ns -> sec, MB -> B), unit classes, common scaling with SI or
 * binary prefixes, and fmt's %v and %.Nf, so that compare prints the same
 * bytes as benchstat. Also the string interning table the engine uses.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

uint64_t bl__hash_bytes(const void *p, size_t n)
{
    /* Eight bytes at a time, multiply-xorshift mixing: names are short and
     * this runs once per input line. */
    const unsigned char *s = p;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    for (size_t k = 0; i + k < n; k++)
        w |= (uint64_t)s[i + k] << (8 * k);
    h = (h ^ w) * 0x94d049bb133111ebull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

int bl__strtab_init(struct bl__strtab *t)
{
    memset(t, 0, sizeof *t);
    bl__arena_init(&t->bytes);
    return bl__strtab_intern(t, "", 0) < 0 ? -ENOMEM : 0;
}

void bl__strtab_fini(struct bl__strtab *t)
{
    bl__arena_fini(&t->bytes);
    free(t->s);
    free(t->len);
    free(t->hash);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint32_t strtab_tag(uint64_t h)
{
    return (uint32_t)(h >> 32);
}

static void strtab_place(struct bl__strtab_slot *slots, size_t n_slots, uint64_t h, size_t id)
{
    size_t j = (size_t)h & (n_slots - 1);
    while (slots[j].id1)
        j = (j + 1) & (n_slots - 1);
    slots[j].tag = strtab_tag(h);
    slots[j].id1 = (uint32_t)id + 1;
}

static int strtab_rehash(struct bl__strtab *t, size_t n_slots)
{
    struct bl__strtab_slot *slots = calloc(n_slots, sizeof *slots);
    if (!slots)
        return -ENOMEM;
    for (size_t i = 0; i < t->n; i++)
        strtab_place(slots, n_slots, t->hash[i], i);
    free(t->slots);
    t->slots = slots;
    t->n_slots = n_slots;
    return 0;
}

/* The id of s[0..n) of hash h, or -1. */
static long strtab_lookup(const struct bl__strtab *t, const char *s, size_t n, uint64_t h)
{
    if (!t->n_slots)
        return -1;
    uint32_t tag = strtab_tag(h);
    size_t j = (size_t)h & (t->n_slots - 1);
    while (t->slots[j].id1) {
        if (t->slots[j].tag == tag) {
            size_t id = t->slots[j].id1 - 1;
            if (t->hash[id] == h && t->len[id] == n && memcmp(t->s[id], s, n) == 0)
                return (long)id;
        }
        j = (j + 1) & (t->n_slots - 1);
    }
    return -1;
}

long bl__strtab_find(const struct bl__strtab *t, const char *s, size_t n)
{
    return strtab_lookup(t, s, n, bl__hash_bytes(s, n));
}

long bl__strtab_intern(struct bl__strtab *t, const char *s, size_t n)
{
    uint64_t h = bl__hash_bytes(s, n);
    long found = strtab_lookup(t, s, n, h);
    if (found >= 0)
        return found;
    /* ids and lengths are uint32_t: refuse the one past them */
    if (t->n >= UINT32_MAX - 1 || n >= UINT32_MAX)
        return -1;
    if ((t->n + 1) * 2 > t->n_slots && strtab_rehash(t, t->n_slots ? t->n_slots * 2 : 64))
        return -1;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        char **ns = realloc(t->s, cap * sizeof *ns);
        if (!ns)
            return -1;
        t->s = ns;
        uint32_t *nl = realloc(t->len, cap * sizeof *nl);
        if (!nl)
            return -1;
        t->len = nl;
        uint64_t *nh = realloc(t->hash, cap * sizeof *nh);
        if (!nh)
            return -1;
        t->hash = nh;
        t->cap = cap;
    }
    char *c = bl__arena_alloc(&t->bytes, n + 1, 1);
    if (!c)
        return -1;
    memcpy(c, s, n);
    c[n] = '\0';
    size_t id = t->n++;
    t->s[id] = c;
    t->len[id] = (uint32_t)n;
    t->hash[id] = h;
    strtab_place(t->slots, t->n_slots, h, id);
    return (long)id;
}

/* ---- tidying ---- */

static int is_sep(char c)
{
    return c == '*' || c == '/' || c == '-' || c == ' ' || (c >= '\t' && c <= '\r');
}

void bl__unit_tidy(const char *unit, double *factor, char *out, size_t out_size)
{
    *factor = 1;
    if (strcmp(unit, "ns/op") == 0) {
        *factor = 1e-9;
        snprintf(out, out_size, "sec/op");
        return;
    }
    if (strcmp(unit, "MB/s") == 0) {
        *factor = 1e6;
        snprintf(out, out_size, "B/s");
        return;
    }
    if (!strstr(unit, "ns") && !strstr(unit, "MB")) {
        snprintf(out, out_size, "%s", unit);
        return;
    }
    size_t o = 0;
    int denom = 0;
    double f = 1;
    for (const char *p = unit; *p;) {
        if (is_sep(*p)) {
            if (*p == '/')
                denom = 1;
            else if (*p == '*')
                denom = 0;
            if (o + 1 < out_size)
                out[o++] = *p;
            p++;
            continue;
        }
        const char *q = p;
        while (*q && !is_sep(*q))
            q++;
        size_t n = (size_t)(q - p);
        const char *rep = NULL;
        if (!denom && n == 2 && memcmp(p, "ns", 2) == 0) {
            rep = "sec";
            f *= 1e-9;
        } else if (!denom && n == 2 && memcmp(p, "MB", 2) == 0) {
            rep = "B";
            f *= 1e6;
        }
        const char *src = rep ? rep : p;
        size_t len = rep ? strlen(rep) : n;
        for (size_t i = 0; i < len && o + 1 < out_size; i++)
            out[o++] = src[i];
        p = q;
    }
    out[o] = '\0';
    *factor = f;
}

int bl__unit_is_binary(const char *unit)
{
    int denom = 0;
    for (const char *p = unit; *p;) {
        if (is_sep(*p)) {
            if (*p == '/')
                denom = 1;
            else if (*p == '*')
                denom = 0;
            p++;
            continue;
        }
        const char *q = p;
        while (*q && !is_sep(*q))
            q++;
        size_t n = (size_t)(q - p);
        if (!denom && ((n == 1 && *p == 'B') || (n == 2 && memcmp(p, "MB", 2) == 0) ||
                       (n == 5 && memcmp(p, "bytes", 5) == 0)))
            return 1;
        p = q;
    }
    return 0;
}

/* ---- Go number formatting ---- */

void bl__go_fmt_g(char *out, size_t size, double x)
{
    if (isnan(x)) {
        snprintf(out, size, "NaN");
        return;
    }
    if (isinf(x)) {
        snprintf(out, size, x > 0 ? "+Inf" : "-Inf");
        return;
    }
    if (x == 0) {
        snprintf(out, size, signbit(x) ? "-0" : "0");
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.*e", bl__shortest_digits(x) - 1, x);
    /* buf: [-]d[.ddd]e[+-]XX */
    char digits[32];
    size_t nd = 0;
    const char *s = buf;
    int neg = 0;
    if (*s == '-') {
        neg = 1;
        s++;
    }
    for (; *s && *s != 'e'; s++)
        if (*s != '.')
            digits[nd++] = *s;
    int exp = atoi(s + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = '\0';
    size_t o = 0;
    char res[64];
    if (neg)
        res[o++] = '-';
    if (exp < -4 || exp >= 6) { /* shortest %v: exponent form */
        res[o++] = digits[0];
        if (nd > 1) {
            res[o++] = '.';
            for (size_t i = 1; i < nd; i++)
                res[o++] = digits[i];
        }
        o += (size_t)snprintf(res + o, sizeof res - o, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
    } else if (exp < 0) {
        res[o++] = '0';
        res[o++] = '.';
        for (int i = 0; i < -exp - 1; i++)
            res[o++] = '0';
        for (size_t i = 0; i < nd; i++)
            res[o++] = digits[i];
    } else {
        for (int i = 0; i <= exp; i++)
            res[o++] = (size_t)i < nd ? digits[i] : '0';
        if ((size_t)exp + 1 < nd) {
            res[o++] = '.';
            for (size_t i = (size_t)exp + 1; i < nd; i++)
                res[o++] = digits[i];
        }
    }
    res[o] = '\0';
    snprintf(out, size, "%s", res);
}

void bl__go_fmt_f(char *out, size_t size, int prec, double x, int plus)
{
    if (isnan(x)) {
        snprintf(out, size, plus ? "+NaN" : "NaN");
        return;
    }
    if (isinf(x)) {
        snprintf(out, size, x > 0 ? "+Inf" : "-Inf");
        return;
    }
    snprintf(out, size, plus ? "%+.*f" : "%.*f", prec, x);
}

/* ---- scaling (benchunit/scale.go) ---- */

static const struct {
    double factor, t100, t10, t1;
    const char *prefix;
} dec_scales[] = {
    {1e12, 99.995e12, 9.9995e12, 0.99995e12, "T"},
    {1e9, 99.995e9, 9.9995e9, 0.99995e9, "G"},
    {1e6, 99.995e6, 9.9995e6, 0.99995e6, "M"},
    {1e3, 99.995e3, 9.9995e3, 0.99995e3, "k"},
    {1, 99.995, 9.9995, 0.99995, ""},
    {1e-3, 99.995e-3, 9.9995e-3, 0.99995e-3, "m"},
    {1e-6, 99.995e-6, 9.9995e-6, 0.99995e-6, "\xc2\xb5"},
    {1e-9, 99.995e-9, 9.9995e-9, 0.99995e-9, "n"},
};

static const struct {
    int e;
    const char *prefix;
} bin_scales[] = {{40, "Ti"}, {30, "Gi"}, {20, "Mi"}, {10, "Ki"}, {0, ""}};

void bl__common_scale(const double *vals, size_t n, int binary, struct bl__scaler *s)
{
    double min = 0;
    for (size_t i = 0; i < n; i++) {
        double v = fabs(vals[i]);
        /* an infinity (a kInvert counter of 0) has no scale: "+Inf" */
        if (v != 0 && isfinite(v) && (min == 0 || v < min))
            min = v;
    }
    if (min == 0) {
        s->prec = 3;
        s->factor = 1;
        s->prefix = "";
        return;
    }
    double factor;
    const char *prefix;
    if (binary) {
        for (size_t i = 0; i < sizeof bin_scales / sizeof *bin_scales; i++) {
            double f = ldexp(1, bin_scales[i].e);
            int prec = min >= ldexp(99.995, bin_scales[i].e)    ? 1
                       : min >= ldexp(9.9995, bin_scales[i].e)  ? 2
                       : min >= ldexp(0.99995, bin_scales[i].e) ? 3
                                                                : 0;
            if (prec) {
                s->prec = prec;
                s->factor = f;
                s->prefix = bin_scales[i].prefix;
                return;
            }
        }
        factor = 1;
        prefix = "";
    } else {
        for (size_t i = 0; i < sizeof dec_scales / sizeof *dec_scales; i++) {
            int prec = min >= dec_scales[i].t100  ? 1
                       : min >= dec_scales[i].t10 ? 2
                       : min >= dec_scales[i].t1  ? 3
                                                  : 0;
            if (prec) {
                s->prec = prec;
                s->factor = dec_scales[i].factor;
                s->prefix = dec_scales[i].prefix;
                return;
            }
        }
        factor = 1e-9;
        prefix = "n";
    }
    double v = min / factor;
    int prec = 10;
    static const double lim[8] = {0.99995,     0.099995,     0.0099995,     0.00099995,
                                  0.000099995, 0.0000099995, 0.00000099995, 0.000000099995};
    for (int i = 0; i < 8; i++) {
        if (v >= lim[i]) {
            prec = 3 + i;
            break;
        }
    }
    s->prec = prec;
    s->factor = factor;
    s->prefix = prefix;
}

void bl__scaler_format(const struct bl__scaler *s, double v, char *out, size_t size)
{
    char num[400];
    bl__go_fmt_f(num, sizeof num, s->prec, v / s->factor, 0);
    snprintf(out, size, "%s%s", num, isfinite(v) ? s->prefix : "");
}
