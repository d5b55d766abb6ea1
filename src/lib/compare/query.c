/*
 * query.c - benchstat's projection and filter syntax
 * (golang.org/x/perf/benchproc/internal/parse), with its error messages.
 *
 *   filter:     expr = andExpr {OR andExpr}; andExpr = match {[AND] match}
 *               match = ( expr ) | - match | * | key:value | key:(v OR v ...)
 *   projection: key[@order | @(v1 v2 ...)] {[,] key...}
 *
 * The tokenizer mirrors Go's value semantics: skipping spaces advances the
 * tokenizer it was called on, and only the first error is kept, after
 * which every token is the end. Regular expressions are POSIX extended
 * (regcomp), not RE2: the common subset behaves the same, and RE2's \d \w
 * \s, (?: and a leading (?i) are translated (re2_to_posix).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

struct perr {
    const char *q;
    int set;
    int off;
    char msg[256];
};

struct tokz {
    const char *q;
    size_t len, pos;
    struct perr *e;
};

struct tok {
    char kind; /* 'w' word, 'q' quoted, 'r' regexp, 'A' AND, 'O' OR, op char, 0 end */
    int off;
    char *text; /* malloc'd for words and regexps; NULL otherwise */
    regex_t *re;
};

static void tok_free(struct tok *t)
{
    free(t->text);
    if (t->re) {
        regfree(t->re);
        free(t->re);
    }
    t->text = NULL;
    t->re = NULL;
}

static int is_op(char c)
{
    return c == '(' || c == ')' || c == ':' || c == '@' || c == ',';
}

static int is_start_op(char c)
{
    return is_op(c) || c == '-' || c == '*';
}

/* Length of a Unicode space at s, or 0. */
static size_t uspace(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0)
        return 0;
    if (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r'))
        return 1;
    if (n >= 2 && u[0] == 0xC2 && (u[1] == 0x85 || u[1] == 0xA0))
        return 2;
    if (n >= 3 && u[0] == 0xE2 && u[1] == 0x80 &&
        (u[2] <= 0x8A || u[2] == 0xA8 || u[2] == 0xA9 || u[2] == 0xAF))
        return 3;
    if (n >= 3 && ((u[0] == 0xE1 && u[1] == 0x9A && u[2] == 0x80) ||
                   (u[0] == 0xE2 && u[1] == 0x81 && u[2] == 0x9F) ||
                   (u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80)))
        return 3;
    return 0;
}

static void set_error(struct tokz *t, size_t pos, const char *msg)
{
    if (!t->e->set) {
        t->e->set = 1;
        t->e->off = (int)pos;
        snprintf(t->e->msg, sizeof t->e->msg, "%s", msg);
    }
}

static struct tok mk(struct tokz *t, char kind, size_t rest, struct tokz *next)
{
    struct tok k = {kind, (int)t->pos, NULL, NULL};
    *next = *t;
    next->pos = rest;
    return k;
}

static struct tok tok_error(struct tokz *t, const char *msg, struct tokz *next)
{
    set_error(t, t->pos, msg);
    struct tok k = {0, (int)t->len, NULL, NULL};
    *next = *t;
    next->pos = t->len;
    return k;
}

/* Go's strconv.Unquote for a double-quoted string (common escapes). */
static char *unquote(const char *s, size_t n)
{
    char *o = malloc(n + 1);
    size_t k = 0;
    if (!o)
        return NULL;
    for (size_t i = 1; i + 1 < n; i++) {
        char c = s[i];
        if (c == '\n') {
            free(o);
            return NULL;
        }
        if (c != '\\') {
            o[k++] = c;
            continue;
        }
        if (++i >= n - 1) {
            free(o);
            return NULL;
        }
        switch (s[i]) {
        case 'a':
            o[k++] = '\a';
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
        case 'v':
            o[k++] = '\v';
            break;
        case '\\':
            o[k++] = '\\';
            break;
        case '"':
            o[k++] = '"';
            break;
        case 'x':
            if (i + 2 < n - 1) {
                char h[3] = {s[i + 1], s[i + 2], 0};
                char *e;
                long v = strtol(h, &e, 16);
                if (*e) {
                    free(o);
                    return NULL;
                }
                o[k++] = (char)v;
                i += 2;
                break;
            }
            free(o);
            return NULL;
        default:
            free(o);
            return NULL;
        }
    }
    o[k] = '\0';
    return o;
}

/* regexpParseUntil(str, "/"): index of the delimiting '/' or -1. */
static long regexp_until(const char *s, size_t n)
{
    int cs = 0, cp = 0;
    for (size_t i = 0; i < n;) {
        if (cs == 0 && cp == 0 && s[i] == '/')
            return (long)i;
        switch (s[i]) {
        case '[':
            cs++;
            break;
        case ']':
            if (--cs < 0)
                cs = 0;
            break;
        case '(':
            if (cs == 0)
                cp++;
            break;
        case ')':
            if (cs == 0)
                cp--;
            break;
        case '\\':
            i++;
            break;
        }
        i++;
    }
    return -1;
}

static void re_put(char *out, size_t *k, const char *s)
{
    size_t n = strlen(s);
    memcpy(out + *k, s, n);
    *k += n;
}

/*
 * RE2's shorthands in POSIX terms, so that a filter selects what benchstat's
 * does: \d \w \s and \D \W \S outside brackets, \d \w \s inside them, (?:
 * as a plain group and a leading (?i) as REG_ICASE (in *cflags). glibc's
 * regcomp would take \d for a plain d and refuse (? unclearly, so the RE2
 * forms it has no equivalent for (other (? groups, \D \W \S in brackets)
 * are refused by name. Returns the POSIX text (caller frees), or NULL with
 * *why set (NULL: out of memory).
 */
static char *re2_to_posix(const char *in, int *cflags, const char **why)
{
    size_t n = strlen(in), k = 0;
    char *out = malloc(16 * n + 1); /* \W, 2 bytes, becomes 13 */
    *why = NULL;
    if (!out)
        return NULL;
    size_t i = 0;
    if (strncmp(in, "(?i)", 4) == 0) {
        *cflags |= REG_ICASE;
        i = 4;
    }
    int in_br = 0;
    while (i < n) {
        char c = in[i];
        if (!in_br && c == '(' && in[i + 1] == '?') {
            if (in[i + 2] != ':') {
                *why = "RE2's (?...) groups other than (?: and a leading (?i) have no POSIX "
                       "form";
                free(out);
                return NULL;
            }
            out[k++] = '(';
            i += 3;
        } else if (c == '\\' && i + 1 < n && strchr("dDwWsS", in[i + 1])) {
            static const char *const outside[] = {"[0-9]",         "[^0-9]",      "[[:alnum:]_]",
                                                  "[^[:alnum:]_]", "[[:space:]]", "[^[:space:]]"};
            static const char *const inside[] = {"0-9", NULL,        "[:alnum:]_",
                                                 NULL,  "[:space:]", NULL};
            size_t at = (size_t)(strchr("dDwWsS", in[i + 1]) - "dDwWsS");
            if (in_br && !inside[at]) {
                *why = "RE2's \\D, \\W and \\S inside [...] have no POSIX form";
                free(out);
                return NULL;
            }
            re_put(out, &k, in_br ? inside[at] : outside[at]);
            i += 2;
        } else if (c == '\\' && i + 1 < n && !in_br) {
            out[k++] = in[i++];
            out[k++] = in[i++];
        } else if (!in_br && c == '[') {
            in_br = 1;
            out[k++] = in[i++];
            if (in[i] == '^')
                out[k++] = in[i++];
            if (in[i] == ']') /* a ] first is one of the set */
                out[k++] = in[i++];
        } else if (in_br && c == '[' && in[i + 1] == ':') {
            const char *end = strstr(in + i + 2, ":]");
            size_t len = end ? (size_t)(end - (in + i)) + 2 : n - i;
            memcpy(out + k, in + i, len);
            k += len;
            i += len;
        } else {
            if (in_br && c == ']')
                in_br = 0;
            out[k++] = in[i++];
        }
    }
    out[k] = 0;
    return out;
}

static struct tok next_tok(struct tokz *t, int allow_re, struct tokz *next)
{
    while (t->pos < t->len) {
        const char *p = t->q + t->pos;
        size_t rem = t->len - t->pos;
        size_t sp;
        if (is_start_op(*p)) {
            return mk(t, *p, t->pos + 1, next);
        } else if ((sp = uspace(p, rem)) != 0) {
            t->pos += sp;
        } else if (allow_re && *p == '/') {
            long end = regexp_until(p + 1, rem - 1);
            if (end < 0)
                return tok_error(t, "missing close \"/\"", next);
            char *expr = strndup(p + 1, (size_t)end);
            regex_t *re = malloc(sizeof *re);
            if (!expr || !re) {
                free(expr);
                free(re);
                return tok_error(t, "out of memory", next);
            }
            int cflags = REG_EXTENDED | REG_NOSUB;
            const char *why;
            char *posix = re2_to_posix(expr, &cflags, &why);
            if (!posix) {
                free(re);
                free(expr);
                return tok_error(t, why ? why : "out of memory", next);
            }
            int rc = regcomp(re, posix, cflags);
            free(posix);
            if (rc) {
                char msg[200];
                regerror(rc, re, msg, sizeof msg);
                free(re);
                free(expr);
                return tok_error(t, msg, next);
            }
            size_t q2 = t->pos + 1 + (size_t)end + 1;
            if (!(q2 == t->len || uspace(t->q + q2, t->len - q2) || is_start_op(t->q[q2]))) {
                regfree(re);
                free(re);
                free(expr);
                t->pos = q2;
                return tok_error(
                    t, "regexp must be followed by space or an operator (unescaped \"/\"?)", next);
            }
            struct tok k = mk(t, 'r', q2, next);
            k.text = expr;
            k.re = re;
            return k;
        } else if (*p == '"') {
            size_t i = 1;
            while (i < rem && (p[i] != '"' || p[i - 1] == '\\'))
                i++;
            if (i == rem)
                return tok_error(t, "missing end quote", next);
            char *w = unquote(p, i + 1);
            if (!w)
                return tok_error(t, "bad escape sequence", next);
            struct tok k = mk(t, 'q', t->pos + i + 1, next);
            k.text = w;
            return k;
        } else {
            size_t i = 0;
            while (i < rem && !uspace(p + i, rem - i) && !is_op(p[i]))
                i++;
            char *w = strndup(p, i);
            if (!w)
                return tok_error(t, "out of memory", next);
            char kind = strcmp(w, "AND") == 0 ? 'A' : strcmp(w, "OR") == 0 ? 'O' : 'w';
            struct tok k = mk(t, kind, t->pos + i, next);
            k.text = w;
            return k;
        }
    }
    return mk(t, 0, t->pos, next);
}

static void quote_go(char *out, size_t size, const char *s)
{
    size_t o = 0;
    if (o + 1 < size)
        out[o++] = '"';
    for (; *s && o + 5 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    if (o + 1 < size)
        out[o++] = '"';
    out[o] = '\0';
}

static void tokz_end(struct tokz *t)
{
    struct tokz n;
    struct tok k = next_tok(t, 0, &n);
    if (k.kind != 0) {
        char msg[200], qq[160];
        const char *txt = k.text;
        char one[2] = {k.kind, 0};
        quote_go(qq, sizeof qq, txt ? txt : one);
        snprintf(msg, sizeof msg, "unexpected %s", qq);
        set_error(t, t->pos, msg);
    }
    tok_free(&k);
}

void bl__syntax_error(char *err, size_t size, const char *q, int off, const char *msg)
{
    int pos = 0;
    const unsigned char *u = (const unsigned char *)q;
    for (int i = 0; u[i] && i < off; i++) {
        if ((u[i] & 0xC0) == 0x80)
            continue; /* continuation byte */
        if (u[i] >= 0x80 || (u[i] >= 0x20 && u[i] < 0x7f))
            pos++;
    }
    snprintf(err, size, "syntax error: %s\n\t%s\n\t%*s^", msg, q, pos, "");
}

/* ---- projections ---- */

void bl__pfields_free(struct bl__pfield *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(f[i].key);
        for (size_t j = 0; j < f[i].n_fixed; j++)
            free(f[i].fixed[j]);
        free(f[i].fixed);
    }
    free(f);
}

static int order_of(const char *name)
{
    if (strcmp(name, "first") == 0)
        return ORD_FIRST;
    if (strcmp(name, "alpha") == 0)
        return ORD_ALPHA;
    if (strcmp(name, "num") == 0)
        return ORD_NUM;
    return -1;
}

int bl__parse_projection(const char *q, struct bl__pfield **out, size_t *n_out, char *err,
                         size_t err_size)
{
    struct perr e = {q, 0, 0, ""};
    struct tokz toks = {q, strlen(q), 0, &e};
    struct bl__pfield *fields = NULL;
    size_t n = 0, cap = 0;
    char *order_name = NULL;
    for (;;) {
        struct tokz t2;
        struct tok k = next_tok(&toks, 0, &t2);
        char kind = k.kind;
        tok_free(&k);
        if (kind == 0)
            break;
        if (kind == ',' && n > 0)
            toks = t2;
        struct bl__pfield f = {0};
        f.order = ORD_FIRST;
        /* parseField */
        struct tok key = next_tok(&toks, 0, &t2);
        if (!(key.kind == 'w' || key.kind == 'q')) {
            tok_free(&key);
            struct tokz dummy;
            tok_error(&toks, "expected key", &dummy);
            toks = dummy;
        } else {
            toks = t2;
            f.key = key.text;
            key.text = NULL;
            f.key_off = key.off;
            f.order_off = key.off + (int)strlen(f.key);
            struct tok sep = next_tok(&toks, 0, &t2);
            char sk = sep.kind;
            tok_free(&sep);
            if (sk == '@') {
                toks = t2;
                struct tok ord = next_tok(&toks, 0, &t2);
                f.order_off = ord.off;
                if (ord.kind == 'w' || ord.kind == 'q') {
                    free(order_name);
                    order_name = strdup(ord.text);
                    int o = order_of(ord.text);
                    toks = t2;
                    if (o < 0 && !e.set) {
                        char msg[200], qq[160];
                        quote_go(qq, sizeof qq, ord.text);
                        snprintf(msg, sizeof msg, "unknown order %s", qq);
                        /* reported after parsing, as makeProjection does */
                        f.order = -1;
                        f.fixed = malloc(sizeof(char *));
                        if (f.fixed) {
                            f.fixed[0] = strdup(msg);
                            f.n_fixed = 1;
                        }
                    } else {
                        f.order = o;
                    }
                    tok_free(&ord);
                } else if (ord.kind == '(') {
                    tok_free(&ord);
                    f.order = ORD_FIXED;
                    toks = t2;
                    for (;;) {
                        struct tok v = next_tok(&toks, 0, &t2);
                        if (v.kind == 'w' || v.kind == 'q') {
                            toks = t2;
                            char **nf = realloc(f.fixed, (f.n_fixed + 1) * sizeof *nf);
                            if (nf) {
                                f.fixed = nf;
                                f.fixed[f.n_fixed++] = v.text;
                                v.text = NULL;
                            }
                            tok_free(&v);
                        } else if (v.kind == ')') {
                            tok_free(&v);
                            if (f.n_fixed == 0) {
                                struct tokz d;
                                tok_error(&toks, "nothing to match", &d);
                                toks = d;
                            } else {
                                toks = t2;
                            }
                            break;
                        } else {
                            tok_free(&v);
                            struct tokz d;
                            tok_error(&toks, "missing )", &d);
                            toks = d;
                            break;
                        }
                    }
                } else {
                    tok_free(&ord);
                    struct tokz d;
                    tok_error(&toks, "expected named sort order or parenthesized list", &d);
                    toks = d;
                }
            }
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 4;
            struct bl__pfield *nf = realloc(fields, cap * sizeof *nf);
            if (!nf) {
                bl__pfields_free(fields, n);
                free(order_name);
                return -ENOMEM;
            }
            fields = nf;
        }
        fields[n++] = f;
    }
    tokz_end(&toks);
    free(order_name);
    if (e.set) {
        bl__syntax_error(err, err_size, q, e.off, e.msg);
        bl__pfields_free(fields, n);
        return BL_EUSAGE;
    }
    *out = fields;
    *n_out = n;
    return 0;
}

/* ---- filters ---- */

void bl__fnode_free(struct bl__fnode *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n_sub; i++)
        bl__fnode_free(n->sub[i]);
    free(n->sub);
    free(n->key);
    free(n->lit);
    if (n->re) {
        regfree(n->re);
        free(n->re);
    }
    free(n);
}

static struct bl__fnode *fnode(int op)
{
    struct bl__fnode *n = calloc(1, sizeof *n);
    if (n)
        n->op = op;
    return n;
}

static void fnode_add(struct bl__fnode *n, struct bl__fnode *c)
{
    if (!n) {
        bl__fnode_free(c);
        return;
    }
    struct bl__fnode **s = realloc(n->sub, (n->n_sub + 1) * sizeof *s);
    if (!s) {
        bl__fnode_free(c);
        return;
    }
    n->sub = s;
    n->sub[n->n_sub++] = c;
}

static struct bl__fnode *p_expr(struct tokz *toks);

static struct bl__fnode *perror_at(struct tokz *t, const char *msg, struct tokz *rest)
{
    tok_error(t, msg, rest);
    return NULL;
}

static struct bl__fnode *mk_match(int off, const char *key, struct tok *val)
{
    struct bl__fnode *m = fnode(FN_MATCH);
    if (!m)
        return NULL;
    m->off = off;
    m->key = strdup(key);
    if (val->kind == 'r') {
        m->re = val->re;
        val->re = NULL;
    } else {
        m->lit = val->text;
        val->text = NULL;
    }
    return m;
}

/* match(start) -> node; *start may advance over spaces, *rest receives the rest. */
static struct bl__fnode *p_match(struct tokz *start, struct tokz *rest_out)
{
    struct tokz rest;
    struct tok k = next_tok(start, 0, &rest);
    struct bl__fnode *q = NULL;
    switch (k.kind) {
    case '(': {
        tok_free(&k);
        q = p_expr(&rest);
        struct tokz t2;
        struct tok op = next_tok(&rest, 0, &t2);
        char ok = op.kind;
        tok_free(&op);
        if (ok != ')') {
            bl__fnode_free(q);
            return perror_at(&rest, "missing \")\"", rest_out);
        }
        *rest_out = t2;
        return q;
    }
    case '-':
        tok_free(&k);
        q = fnode(FN_NOT);
        fnode_add(q, p_match(&rest, rest_out));
        return q;
    case '*':
        tok_free(&k);
        *rest_out = rest;
        return fnode(FN_AND);
    case 'w':
    case 'q': {
        int off = k.off;
        char *key = k.text;
        k.text = NULL;
        struct tokz t2;
        struct tok op = next_tok(&rest, 0, &t2);
        char ok = op.kind;
        tok_free(&op);
        if (ok != ':') {
            free(key);
            return perror_at(start, "expected key:value", rest_out);
        }
        rest = t2;
        struct tok val = next_tok(&rest, 1, &t2);
        if (val.kind == 'w' || val.kind == 'q' || val.kind == 'r') {
            q = mk_match(off, key, &val);
            tok_free(&val);
            free(key);
            *rest_out = t2;
            return q;
        }
        if (val.kind != '(') {
            tok_free(&val);
            free(key);
            return perror_at(start, "expected key:value", rest_out);
        }
        tok_free(&val);
        rest = t2;
        q = fnode(FN_OR);
        for (;;) {
            val = next_tok(&rest, 1, &t2);
            if (!(val.kind == 'w' || val.kind == 'q' || val.kind == 'r')) {
                tok_free(&val);
                free(key);
                bl__fnode_free(q);
                return perror_at(&rest, "expected value", rest_out);
            }
            fnode_add(q, mk_match(off, key, &val));
            tok_free(&val);
            rest = t2;
            val = next_tok(&rest, 1, &t2);
            char vk = val.kind;
            tok_free(&val);
            if (vk == ')') {
                free(key);
                *rest_out = t2;
                return q;
            }
            if (vk != 'O') {
                free(key);
                bl__fnode_free(q);
                return perror_at(&rest, "value list must be separated by OR", rest_out);
            }
            rest = t2;
        }
    }
    default:
        tok_free(&k);
        return perror_at(start, "expected key:value or subexpression", rest_out);
    }
}

static struct bl__fnode *p_and(struct tokz *toks)
{
    struct tokz rest;
    struct bl__fnode *q = p_match(toks, &rest);
    *toks = rest;
    struct bl__fnode *and = fnode(FN_AND);
    fnode_add(and, q);
    for (;;) {
        struct tokz t2;
        struct tok op = next_tok(toks, 0, &t2);
        char ok = op.kind;
        char one[2] = {op.kind, 0};
        char qq[160];
        quote_go(qq, sizeof qq, op.text ? op.text : one);
        tok_free(&op);
        if (ok == 'A') {
            *toks = t2;
            continue;
        }
        if (ok == '(' || ok == '-' || ok == '*' || ok == 'w' || ok == 'q') {
            q = p_match(toks, &rest);
            *toks = rest;
            fnode_add(and, q);
        } else if (ok == ')' || ok == 'O' || ok == 0) {
            break;
        } else {
            char msg[200];
            snprintf(msg, sizeof msg, "unexpected %s", qq);
            perror_at(toks, msg, &rest);
            *toks = rest;
            bl__fnode_free(and);
            return NULL;
        }
    }
    if (and&&and->n_sub == 1) {
        struct bl__fnode *only = and->sub[0];
        and->n_sub = 0;
        bl__fnode_free(and);
        return only;
    }
    return and;
}

static struct bl__fnode *p_expr(struct tokz *toks)
{
    struct bl__fnode * or = fnode(FN_OR);
    for (;;) {
        fnode_add(or, p_and(toks));
        struct tokz t2;
        struct tok op = next_tok(toks, 0, &t2);
        char ok = op.kind;
        tok_free(&op);
        if (ok != 'O')
            break;
        *toks = t2;
    }
    if (or && or->n_sub == 1) {
        struct bl__fnode *only = or->sub[0];
        or->n_sub = 0;
        bl__fnode_free(or);
        return only;
    }
    return or ;
}

static int check_keys(const struct bl__fnode *n, int *off, const char **msg)
{
    if (!n)
        return 0;
    if (n->op == FN_MATCH) {
        if (strcmp(n->key, ".config") == 0) {
            *off = n->off;
            *msg = ".config is only allowed in projections";
            return 1;
        }
        if (n->key[0] == '\0') {
            *off = n->off;
            *msg = "key must not be empty";
            return 1;
        }
        return 0;
    }
    for (size_t i = 0; i < n->n_sub; i++)
        if (check_keys(n->sub[i], off, msg))
            return 1;
    return 0;
}

static int has_null(const struct bl__fnode *n)
{
    if (!n)
        return 1;
    for (size_t i = 0; i < n->n_sub; i++)
        if (has_null(n->sub[i]))
            return 1;
    return 0;
}

int bl__parse_filter(const char *q, struct bl__fnode **out, char *err, size_t err_size)
{
    struct perr e = {q, 0, 0, ""};
    struct tokz toks = {q, strlen(q), 0, &e};
    struct bl__fnode *root = p_expr(&toks);
    tokz_end(&toks);
    if (e.set) {
        bl__syntax_error(err, err_size, q, e.off, e.msg);
        bl__fnode_free(root);
        return BL_EUSAGE;
    }
    if (has_null(root)) {
        bl__fnode_free(root);
        return -ENOMEM;
    }
    int off;
    const char *msg;
    if (check_keys(root, &off, &msg)) {
        bl__syntax_error(err, err_size, q, off, msg);
        bl__fnode_free(root);
        return BL_EUSAGE;
    }
    *out = root;
    return 0;
}
