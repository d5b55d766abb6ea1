/* fuzz_props.h - properties checked by the fuzz targets.
 *
 * FUZZ_PROP(cond, kind, pending, fmt, ...) checks one property. When it
 * fails:
 *   - with BENCHLAB_FUZZ_TALLY=DIR in the environment, the failure is counted
 *     (a line "KIND" appended to DIR/tally) and the first 3 inputs of each
 *     kind are saved as DIR/KIND-N; the run goes on (bench long runs);
 *   - else, when `pending` is not NULL (a known bug that another change
 *     fixes, named by its group and issue item) and BENCHLAB_FUZZ_PENDING
 *     does not name its group, it is ignored: the ctests stay green until
 *     that fix lands;
 *   - else the message goes to stderr and the target aborts (libFuzzer
 *     saves the input as a crash).
 * A target calls fuzz_begin(data, size) first so that inputs can be saved. */
#ifndef BENCHLAB_FUZZ_PROPS_H
#define BENCHLAB_FUZZ_PROPS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Known bugs that another change fixes are tagged with a group, as
 *   #define FUZZ_PENDING_NAME "name: issue N item M, what fails"
 * (the word before ':' is what BENCHLAB_FUZZ_PENDING names) and passed as
 * FUZZ_PROP's `pending` (docs/fuzzing.md). None today: the last group,
 * rel (issue 18 items 4 and 6), is fixed and its properties enforced. */

/* Whether BENCHLAB_FUZZ_PENDING (a comma-separated list of groups, or
 * "all") turns the pending property on. */
static inline bool fuzz_pending_on(const char *pending)
{
    const char *env = getenv("BENCHLAB_FUZZ_PENDING");
    if (!env || !*env)
        return false;
    if (strcmp(env, "all") == 0)
        return true;
    size_t len = strcspn(pending, ":");
    for (const char *p = env; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && strncmp(p, pending, len) == 0)
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

static const uint8_t *fuzz_input;
static size_t fuzz_input_size;

static inline void fuzz_begin(const uint8_t *data, size_t size)
{
    fuzz_input = data;
    fuzz_input_size = size;
}

static void fuzz_fail(const char *kind, const char *pending, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fuzz_fail(const char *kind, const char *pending, const char *fmt, ...)
{
    const char *tally = getenv("BENCHLAB_FUZZ_TALLY");
    if (tally && *tally) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tally", tally);
        FILE *t = fopen(path, "a");
        if (t) {
            fprintf(t, "%s\n", kind);
            fclose(t);
        }
        for (int i = 1; i <= 3; i++) {
            snprintf(path, sizeof path, "%s/%s-%d", tally, kind, i);
            FILE *f = fopen(path, "wx");
            if (!f)
                continue;
            fwrite(fuzz_input, 1, fuzz_input_size, f);
            fclose(f);
            break;
        }
        return;
    }
    if (pending && !fuzz_pending_on(pending))
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "property %s failed%s%s%s: ", kind, pending ? " (known: " : "",
            pending ? pending : "", pending ? ")" : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#define FUZZ_PROP(cond, kind, pending, ...)                                                        \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fuzz_fail(kind, pending, __VA_ARGS__);                                                 \
    } while (0)

/* Well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF). */
static inline bool fuzz_valid_utf8(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        unsigned min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            len = 2;
            min = 0x80;
            c &= 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            len = 3;
            min = 0x800;
            c &= 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            len = 4;
            min = 0x10000;
            c &= 0x07;
        } else
            return false;
        if (i + len > n)
            return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
            c = (c << 6) | (s[i + k] & 0x3f);
        }
        if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
            return false;
        i += len;
    }
    return true;
}

/* A CSV cell (its text, quotes removed, c[0..n) or up to the next
 * delimiter) that a spreadsheet takes for a formula (OWASP: = + - @ tab CR
 * first). Numbers with a sign ("-1.5", "+0.00%") are data, not formulas. */
static inline bool fuzz_formula_cell(const char *c, size_t n)
{
    if (n == 0)
        return false;
    if (c[0] == '=' || c[0] == '@' || c[0] == '\t' || c[0] == '\r')
        return true;
    if (c[0] != '+' && c[0] != '-')
        return false;
    if (n == 1 || c[1] == ',' || c[1] == '\n' || c[1] == '"')
        return false; /* a lone sign: "-" for no value */
    return !((c[1] >= '0' && c[1] <= '9') || c[1] == '.' || strncmp(c + 1, "inf", 3) == 0 ||
             strncmp(c + 1, "nan", 3) == 0 || strncmp(c + 1, "\xe2\x88\x9e", 3) == 0);
}

/* Go's unicode.IsSpace runes in UTF-8, written apart from the library's
 * table (base/escape.c) so that a property does not check a writer against
 * itself: the length of the one at p, or 0. */
static inline size_t fuzz_go_space_len(const unsigned char *p, const unsigned char *end)
{
    static const char *const spaces[] = {
        "\xc2\x85",     "\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
        "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86",
        "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8",
        "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80", NULL};
    if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        return 1;
    for (int i = 0; spaces[i]; i++) {
        size_t n = strlen(spaces[i]);
        if ((size_t)(end - p) >= n && memcmp(p, spaces[i], n) == 0)
            return n;
    }
    return 0;
}

/* s as a field of a Go result line (docs/formats.md): every whitespace rune
 * and control byte '_', with `prefix` put before it when s does not start
 * with it (NULL: none). Caller frees. */
static inline char *fuzz_go_field(const char *s, const char *prefix)
{
    size_t n = strlen(s), pn = prefix ? strlen(prefix) : 0;
    char *out = malloc(n + pn + 1), *o = out;
    if (!out)
        return NULL;
    if (prefix && strncmp(s, prefix, pn) != 0) {
        memcpy(o, prefix, pn);
        o += pn;
    }
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        size_t sl = fuzz_go_space_len(p, end);
        if (sl || *p < 0x20 || *p == 0x7f) {
            *o++ = '_';
            p += sl ? sl : 1;
        } else {
            *o++ = (char)*p++;
        }
    }
    *o = '\0';
    return out;
}

/* The first raw control byte of s[0..n) other than newline and tab (and DEL), or -1:
 * what a terminal or a spreadsheet would act on. */
static inline int fuzz_control_byte(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
            return c;
    }
    return -1;
}

/* RFC 4180 CSV, split: cell(ctx, record, column, text, len) for every
 * cell, quotes removed and doubled quotes as they are (the caller compares
 * texts without quotes only). Returns the number of records, -1 when
 * malformed. */
static inline long fuzz_csv_split(const char *s, size_t n,
                                  void (*cell)(void *, long, size_t, const char *, size_t),
                                  void *ctx)
{
    long records = 0;
    size_t i = 0;
    while (i < n) {
        for (size_t col = 0;; col++) {
            size_t start = i;
            bool quoted = s[i] == '"';
            if (quoted) {
                i++;
                for (;;) {
                    if (i >= n)
                        return -1;
                    if (s[i] == '"') {
                        if (i + 1 < n && s[i + 1] == '"') {
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    i++;
                }
            } else {
                while (i < n && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
                    if (s[i] == '"')
                        return -1;
                    i++;
                }
            }
            cell(ctx, records, col, s + start + quoted, i - start - 2 * quoted);
            if (i < n && s[i] == ',') {
                i++;
                continue;
            }
            break;
        }
        if (i < n && s[i] == '\r')
            i++;
        if (i < n && s[i] != '\n')
            return -1;
        i++;
        records++;
    }
    return records;
}

#endif
