/*
 * gobench_read.c - a streaming reader of the Go benchmark data format
 * (golang.org/design/14313-benchmark-format), with the exact rules of
 * golang.org/x/perf/benchfmt, the parser behind benchstat v2.
 *
 * The input is read in large blocks and split into lines in place; each
 * line is classified (result, "Unit" metadata, configuration, '# key:
 * value' comment, ignored) and handed to the caller's callbacks, so memory
 * stays bounded by the longest line (64 KiB, as Go's bufio.Scanner) and
 * the block size whatever the input's length. Malformed result lines are
 * reported through on_error as benchfmt words them and skipped.
 *
 * Numbers are parsed as Go's strconv.ParseFloat does: a fast exact path
 * for the usual short decimals, strtod for the rest after a syntax check
 * (Go's syntax is stricter than C's: no "0x10" without exponent, no
 * "nan(...)", underscores only between digits).
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <wctype.h>

#include "../base/base.h"
#include "benchlab/format.h"
#include "gobench.h"

#define MAX_LINE (16 << 20) /* longer than any line benchlab writes; benchstat stops at 64 KiB */
#define FIRST_LINE 65536
#define BLOCK (1 << 20) /* read size */
#define MAX_PAIRS_INIT 16

struct reader {
    const bl_gobench_handler *h;
    const char *path;
    size_t line;
    bl_label *config; /* config[0] is .file */
    size_t n_config, cap_config;
    struct bl__strindex config_index; /* key -> position in config */
    unsigned long gen;
    bl_gobench_value *vals;
    size_t cap_vals;
    char *err; /* the caller's, for a fatal error found in a line */
    size_t err_size;
    int json; /* stopped at a JSON document after Go text */
};

static unsigned long gen_counter = 1; /* configuration generations, unique per process */

unsigned long bl__gobench_next_gen(void)
{
    return __atomic_fetch_add(&gen_counter, 1, __ATOMIC_RELAXED);
}

static const unsigned char ascii_space[128] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1,
};

/* Split the next field off [*pp, end): returns its start, sets *len and
 * advances *pp past the whitespace that follows. */
static char *split_field(char **pp, char *end, size_t *len)
{
    unsigned char *p = (unsigned char *)*pp, *e = (unsigned char *)end;
    unsigned char *start = p;
    size_t sl = 0;
    /* The common case is ASCII: test bytes against a table, and look at
     * UTF-8 sequences only when one shows up. */
    while (p < e) {
        unsigned c = *p;
        if (c < 0x80) {
            if (ascii_space[c]) {
                sl = 1;
                break;
            }
            p++;
        } else if ((sl = bl__space_len(p, e)) != 0) {
            break;
        } else {
            p++;
        }
    }
    *len = (size_t)(p - start);
    if (p < e) {
        p += sl;
        while (p < e) {
            if (*p < 0x80) {
                if (!ascii_space[*p])
                    break;
                p++;
            } else if ((sl = bl__space_len(p, e)) != 0) {
                p += sl;
            } else {
                break;
            }
        }
    }
    *pp = (char *)p;
    return (char *)start;
}

/* Go's strconv underscoreOK. */
static int underscore_ok(const char *s, size_t n)
{
    char saw = '^';
    size_t i = 0;
    if (n >= 1 && (s[0] == '-' || s[0] == '+')) {
        s++;
        n--;
    }
    int hex = 0;
    if (n >= 2 && s[0] == '0' &&
        (s[1] == 'b' || s[1] == 'B' || s[1] == 'o' || s[1] == 'O' || s[1] == 'x' || s[1] == 'X')) {
        i = 2;
        saw = '0';
        hex = s[1] == 'x' || s[1] == 'X';
    }
    for (; i < n; i++) {
        char c = s[i], lc = (char)(c | 0x20);
        if ((c >= '0' && c <= '9') || (hex && lc >= 'a' && lc <= 'f')) {
            saw = '0';
            continue;
        }
        if (c == '_') {
            if (saw != '0')
                return 0;
            saw = '_';
            continue;
        }
        if (saw == '_')
            return 0;
        saw = '!';
    }
    return saw != '_';
}

static int ieq(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    if (n != m)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((s[i] | 0x20) != lit[i])
            return 0;
    return 1;
}

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

int bl_gobench_parse_float(const char *s, size_t n, double *out)
{
    if (n == 0)
        return -EINVAL;
    /* Fast path: [+-]digits[.digits][e[+-]digits], at most 19 significant
     * digits and a small exponent: one exact operation, correctly rounded. */
    size_t i = 0;
    int neg = 0;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i = 1;
    }
    uint64_t mant = 0;
    int ndig = 0, exp10 = 0, any = 0, overflow = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        any = 1;
        if (mant == 0 && s[i] == '0')
            continue;
        if (ndig < 19) {
            mant = mant * 10 + (uint64_t)(s[i] - '0');
            ndig++;
        } else {
            overflow = 1;
        }
    }
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            any = 1;
            if (mant == 0 && s[i] == '0') {
                exp10--;
                continue;
            }
            if (ndig < 19) {
                mant = mant * 10 + (uint64_t)(s[i] - '0');
                ndig++;
                exp10--;
            } else {
                overflow = 1;
            }
        }
    }
    int simple = any;
    if (simple && i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        int eneg = 0, e = 0, edig = 0;
        if (j < n && (s[j] == '+' || s[j] == '-')) {
            eneg = s[j] == '-';
            j++;
        }
        for (; j < n && s[j] >= '0' && s[j] <= '9'; j++) {
            if (e < 100000)
                e = e * 10 + (s[j] - '0');
            edig = 1;
        }
        if (!edig)
            simple = 0;
        exp10 += eneg ? -e : e;
        i = j;
    }
    if (simple && i == n && !overflow && mant < (1ull << 53) && exp10 >= -22 && exp10 <= 22) {
        double v = (double)mant;
        v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
        *out = neg ? -v : v;
        return 0;
    }
    /* Slow path: special values, hex floats, underscores, long numbers. */
    const char *t = s;
    size_t tn = n;
    int sign = 0;
    if (tn && (t[0] == '+' || t[0] == '-')) {
        sign = t[0] == '-' ? -1 : 1;
        t++;
        tn--;
    }
    if (ieq(t, tn, "inf") || ieq(t, tn, "infinity")) {
        *out = sign < 0 ? -INFINITY : INFINITY;
        return 0;
    }
    if (!sign && ieq(t, tn, "nan")) {
        *out = NAN;
        return 0;
    }
    /* Validate Go syntax, then let strtod convert the digits. */
    char buf[512];
    size_t k = 0;
    int hex = tn >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    size_t p = hex ? 2 : 0;
    int digits = 0, dot = 0, has_exp = 0, under = 0;
    if (n >= sizeof buf)
        return -EINVAL;
    if (sign < 0)
        buf[k++] = '-';
    if (hex) {
        buf[k++] = '0';
        buf[k++] = 'x';
    }
    for (; p < tn; p++) {
        char c = t[p], lc = (char)(c | 0x20);
        if (c == '_') {
            under = 1;
            continue;
        }
        if ((c >= '0' && c <= '9') || (hex && lc >= 'a' && lc <= 'f')) {
            digits = 1;
            buf[k++] = c;
        } else if (c == '.' && !dot) {
            dot = 1;
            buf[k++] = c;
        } else {
            break;
        }
    }
    if (!digits)
        return -EINVAL;
    if (p < tn && ((!hex && (t[p] | 0x20) == 'e') || (hex && (t[p] | 0x20) == 'p'))) {
        has_exp = 1;
        buf[k++] = t[p++];
        if (p < tn && (t[p] == '+' || t[p] == '-'))
            buf[k++] = t[p++];
        int edig = 0;
        for (; p < tn; p++) {
            if (t[p] == '_') {
                under = 1;
                continue;
            }
            if (t[p] < '0' || t[p] > '9')
                break;
            buf[k++] = t[p];
            edig = 1;
        }
        if (!edig)
            return -EINVAL;
    }
    if (p != tn || (hex && !has_exp))
        return -EINVAL;
    if (under && !underscore_ok(s, n))
        return -EINVAL;
    buf[k] = '\0';
    errno = 0;
    char *endp;
    double v = strtod(buf, &endp);
    if (*endp)
        return -EINVAL;
    if (isinf(v))
        return -ERANGE;
    *out = v;
    return 0;
}

/* Go's strconv.Atoi on a field: a syntax error at the first non-digit, a
 * range error as soon as the value overflows (before later characters). */
static int parse_int(const char *s, size_t n, long long *out)
{
    size_t i = 0;
    int neg = 0;
    if (n && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == n)
        return -EINVAL;
    const unsigned long long cutoff = ULLONG_MAX / 10 + 1;
    unsigned long long v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -EINVAL;
        if (v >= cutoff)
            return -ERANGE;
        unsigned long long v1 = v * 10 + (unsigned)(s[i] - '0');
        if (v1 < v * 10)
            return -ERANGE;
        v = v1;
    }
    if ((!neg && v > (unsigned long long)LLONG_MAX) ||
        (neg && v > (unsigned long long)LLONG_MAX + 1))
        return -ERANGE;
    *out = neg ? (long long)(0 - v) : (long long)v;
    return 0;
}

static void report(struct reader *r, const char *msg)
{
    if (r->h->on_error)
        r->h->on_error(r->h->ctx, r->path, r->line, msg);
}

static const char *config_key(const void *arr, size_t i)
{
    return ((const bl_label *)arr)[i].key;
}

static void config_changed(struct reader *r, const char *key, const char *value)
{
    if (r->h->on_config)
        r->h->on_config(r->h->ctx, key, value);
}

/* Keys are found through an index: a file of n configuration lines is
 * read in O(n), not O(n^2). */
static int set_config(struct reader *r, const char *key, size_t klen, const char *val, size_t vlen)
{
    long at = bl__strindex_find(&r->config_index, key, klen, config_key, r->config);
    size_t i = at >= 0 ? (size_t)at : r->n_config;
    if (vlen == 0) {
        if (i == r->n_config)
            return 0;
        /* benchfmt deletes by swapping with the last key: keep its order. */
        size_t last = r->n_config - 1;
        bl__strindex_remove(&r->config_index, r->config[i].key, i);
        if (i != last)
            bl__strindex_move(&r->config_index, r->config[last].key, last, i);
        config_changed(r, r->config[i].key, NULL);
        free(r->config[i].key);
        free(r->config[i].value);
        r->config[i] = r->config[last];
        r->n_config--;
        r->gen = bl__gobench_next_gen();
        return 0;
    }
    char *v = malloc(vlen + 1);
    if (!v)
        return -ENOMEM;
    memcpy(v, val, vlen);
    v[vlen] = '\0';
    if (i < r->n_config) {
        if (strcmp(r->config[i].value, v) == 0) {
            free(v);
            return 0;
        }
        free(r->config[i].value);
        r->config[i].value = v;
    } else {
        if (bl__grow((void **)&r->config, &r->cap_config, r->n_config + 1, sizeof(bl_label))) {
            free(v);
            return -ENOMEM;
        }
        char *k = malloc(klen + 1);
        if (!k || bl__strindex_add(&r->config_index, (memcpy(k, key, klen), k[klen] = '\0', k),
                                   r->n_config)) {
            free(k);
            free(v);
            return -ENOMEM;
        }
        r->config[r->n_config].key = k;
        r->config[r->n_config].value = v;
        r->n_config++;
    }
    config_changed(r, r->config[i].key, r->config[i].value);
    r->gen = bl__gobench_next_gen();
    return 0;
}

/* Decode one UTF-8 sequence at u (Go's utf8.DecodeRune: invalid -> U+FFFD, 1 byte). */
static unsigned long decode_rune(const unsigned char *u, const unsigned char *e, size_t *len)
{
    unsigned c = u[0];
    size_t need = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    *len = 1;
    if (c < 0x80)
        return c;
    if (!need || (size_t)(e - u) < need)
        return 0xFFFD;
    unsigned long r = c & (0x7F >> need);
    for (size_t k = 1; k < need; k++) {
        if ((u[k] & 0xC0) != 0x80)
            return 0xFFFD;
        r = (r << 6) | (u[k] & 0x3F);
    }
    if ((need == 3 && (r < 0x800 || (r >= 0xD800 && r < 0xE000))) ||
        (need == 4 && (r < 0x10000 || r > 0x10FFFF)))
        return 0xFFFD;
    *len = need;
    return r;
}

/* Unicode letter case for configuration keys (Go's unicode.IsLower and
 * IsUpper) through glibc's C.UTF-8 tables; ASCII only if that locale is
 * missing. */
static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_init(void)
{
    utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

static int rune_case(unsigned long r, int upper)
{
    if (r < 0x80)
        return upper ? (r >= 'A' && r <= 'Z') : (r >= 'a' && r <= 'z');
    pthread_once(&utf8_once, utf8_init);
    if (!utf8_locale)
        return 0;
    return upper ? iswupper_l((wint_t)r, utf8_locale) != 0
                 : iswlower_l((wint_t)r, utf8_locale) != 0;
}

/* parseKeyValueLine: "key: value". The key starts with a lower-case letter
 * and has no space and no upper-case letter up to the first ':'. */
static int config_line(struct reader *r, char *line, size_t n, int *handled)
{
    *handled = 0;
    size_t i = 0, rl;
    const unsigned char *u = (const unsigned char *)line, *e = u + n;
    if (n == 0 || !rune_case(decode_rune(u, e, &rl), 0))
        return 0;
    while (i < n) {
        unsigned long rn = decode_rune(u + i, e, &rl);
        if (bl__space_len(u + i, e) || rune_case(rn, 1))
            return 0;
        if (i > 0 && rn == ':')
            break;
        i += rl;
    }
    if (i >= n)
        return 0;
    char *val = line + i + 1;
    size_t vlen = n - i - 1;
    if (vlen > 0) {
        if (*val != ' ' && *val != '\t')
            return 0;
        while (vlen && (*val == ' ' || *val == '\t')) {
            val++;
            vlen--;
        }
    }
    *handled = 1;
    return set_config(r, line, i, val, vlen);
}

static int unit_line(struct reader *r, char *p, char *end)
{
    size_t len;
    char *unit = split_field(&p, end, &len);
    if (len == 0) {
        report(r, "missing unit");
        return 0;
    }
    unit[len] = '\0'; /* the byte after a field is whitespace or the line's end */
    while (p < end) {
        char *f = split_field(&p, end, &len);
        if (len == 0)
            break;
        f[len] = '\0';
        char *eq = memchr(f, '=', len);
        if (!eq || eq == f) {
            report(r, "expected key=value");
            continue;
        }
        *eq = '\0';
        if (r->h->on_unit) {
            int rc = r->h->on_unit(r->h->ctx, unit, f, eq + 1, r->path, r->line);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static void comment_line(struct reader *r, char *line, size_t n)
{
    /* "# key: value", as benchlab writes its per-run metadata. */
    size_t i = 1;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    size_t k = i;
    while (i < n && line[i] != ':' && line[i] != ' ' && line[i] != '\t')
        i++;
    if (i == k || i >= n || line[i] != ':' || i + 1 >= n || line[i + 1] != ' ')
        return;
    line[i] = '\0';
    char *v = line + i + 1;
    while (*v == ' ')
        v++;
    if (r->h->on_meta)
        r->h->on_meta(r->h->ctx, line + k, v);
}

static int result_line(struct reader *r, char *line, size_t n)
{
    char *p = line + 9, *end = line + n;
    size_t len;
    char *name = split_field(&p, end, &len);
    size_t name_len = len;
    if (name + name_len == end)
        return 0; /* a bare "BenchmarkName" line, as go test -v prints */
    char *f = split_field(&p, end, &len);
    if (len == 0) {
        report(r, "missing iteration count");
        return 0;
    }
    long long iters;
    int rc = parse_int(f, len, &iters);
    if (rc) {
        report(r, rc == -ERANGE ? "parsing iteration count: value out of range"
                                : "parsing iteration count: invalid syntax");
        return 0;
    }
    size_t nv = 0;
    for (;;) {
        f = split_field(&p, end, &len);
        if (len == 0) {
            if (nv > 0)
                break;
            report(r, "missing measurements");
            return 0;
        }
        double v;
        rc = bl_gobench_parse_float(f, len, &v);
        if (rc) {
            report(r, rc == -ERANGE ? "parsing measurement: value out of range"
                                    : "parsing measurement: invalid syntax");
            return 0;
        }
        char *unit = split_field(&p, end, &len);
        if (len == 0) {
            report(r, "missing units");
            return 0;
        }
        unit[len] = '\0';
        if (nv == r->cap_vals &&
            bl__grow((void **)&r->vals, &r->cap_vals, nv + 1, sizeof(bl_gobench_value)))
            return -ENOMEM;
        r->vals[nv].value = v;
        r->vals[nv].unit = unit;
        r->vals[nv].unit_len = len;
        nv++;
    }
    name[name_len] = '\0';
    bl_gobench_result res = {
        .name = name,
        .name_len = name_len,
        .iters = iters,
        .values = r->vals,
        .n_values = nv,
        .config = r->config,
        .n_config = r->n_config,
        .config_gen = r->gen,
        .path = r->path,
        .line = r->line,
    };
    return r->h->on_result ? r->h->on_result(r->h->ctx, &res) : 0;
}

static int handle_line(struct reader *r, char *line, size_t n)
{
    if (n && line[n - 1] == '\r')
        n--; /* bufio.ScanLines drops one trailing \r */
    line[n] = '\0';
    if (n >= 9 && memcmp(line, "Benchmark", 9) == 0)
        return result_line(r, line, n);
    if (n && line[0] == 'U') {
        char *p = line, *end = line + n;
        size_t len;
        char *f = split_field(&p, end, &len);
        if (len == 4 && memcmp(f, "Unit", 4) == 0)
            return unit_line(r, p, end);
    }
    if (n && line[0] == '#') {
        comment_line(r, line, n);
        return 0;
    }
    if (n && line[0] == '{') {
        /* A JSON document after Go text (two outputs concatenated): its
         * lines would be ignored one by one and its results lost. Go's
         * benchfmt ignores them; a file holds one format here. */
        r->json = 1;
        if (r->err)
            snprintf(r->err, r->err_size,
                     "%s:%zu: a JSON document after Go benchmark text: one file holds one "
                     "format (split it)",
                     r->path, r->line);
        return BL_EFORMAT;
    }
    int handled;
    return config_line(r, line, n, &handled);
}

int bl__gobench_read(int fd, const char *prefix, size_t prefix_len, const char *path,
                     const char *label, const bl_gobench_handler *h, char *err, size_t err_size)
{
    struct reader r = {.h = h, .path = path, .err = err, .err_size = err_size};
    int rc = 0;
    size_t cap = BLOCK + FIRST_LINE + 1; /* grown for a longer line, up to MAX_LINE */
    char *buf = malloc(cap);
    if (!buf)
        return -ENOMEM;
    /* benchfmt keeps .file as the first configuration entry; it is not a
     * file key, but its position matters to the swap-on-delete order. */
    r.config = calloc(1, sizeof(bl_label));
    r.cap_config = r.n_config = 1;
    if (!r.config || !(r.config[0].key = bl__strdup(".file")) ||
        !(r.config[0].value = bl__strdup(label)) || bl__strindex_add(&r.config_index, ".file", 0)) {
        rc = -ENOMEM;
        goto out;
    }
    r.gen = bl__gobench_next_gen();
    size_t have = 0;  /* bytes in buf not yet consumed */
    int eof = fd < 0; /* fd < 0: the prefix is the whole input */
    if (prefix_len) {
        /* the caller already read these bytes to sniff the format */
        if (prefix_len > cap - 1) {
            rc = -EINVAL;
            goto out;
        }
        memcpy(buf, prefix, prefix_len);
        have = prefix_len;
    }
    while (!rc) {
        if (!eof) {
            ssize_t got = read(fd, buf + have, cap - 1 - have);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                rc = -errno;
                if (err) {
                    /* as benchfmt wraps the scanner's error: "path:line: read
                     * path: is a directory", Go's lower-case error text */
                    char m[128];
                    snprintf(m, sizeof m, "%s", strerror(-rc));
                    if (m[0] >= 'A' && m[0] <= 'Z')
                        m[0] = (char)(m[0] - 'A' + 'a');
                    snprintf(err, err_size, "%s:%zu: read %s: %s", path, r.line, path, m);
                }
                break;
            }
            if (got == 0)
                eof = 1;
            have += (size_t)got;
        }
        char *p = buf, *end = buf + have;
        for (;;) {
            char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                break;
            r.line++;
            if (nl - p >= MAX_LINE) {
                rc = BL_EFORMAT;
                break;
            }
            rc = handle_line(&r, p, (size_t)(nl - p));
            if (rc)
                break;
            p = nl + 1;
        }
        if (rc)
            break;
        size_t rest = (size_t)(end - p);
        if (eof) {
            if (rest) {
                r.line++;
                if (rest >= MAX_LINE)
                    rc = BL_EFORMAT;
                else
                    rc = handle_line(&r, p, rest);
            }
            break;
        }
        if (rest >= MAX_LINE) {
            r.line++;
            rc = BL_EFORMAT;
            break;
        }
        memmove(buf, p, rest);
        have = rest;
        if (cap - 1 - have < BLOCK / 2 && cap < BLOCK + MAX_LINE + 1) {
            size_t ncap = cap * 2 < BLOCK + MAX_LINE + 1 ? cap * 2 : BLOCK + MAX_LINE + 1;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                rc = -ENOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
    }
    if (rc == BL_EFORMAT && err && !r.json)
        snprintf(err, err_size, "%s:%zu: bufio.Scanner: token too long", path, r.line);
out:
    for (size_t i = 0; i < r.n_config; i++) {
        free(r.config[i].key);
        free(r.config[i].value);
    }
    free(r.config);
    bl__strindex_fini(&r.config_index);
    free(r.vals);
    free(buf);
    return rc;
}

int bl_gobench_read_fd(int fd, const char *path, const char *label, const bl_gobench_handler *h,
                       char *err, size_t err_size)
{
    return bl__gobench_read(fd, NULL, 0, path, label, h, err, err_size);
}
