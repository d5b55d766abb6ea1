/*
 * escape.c - the output primitives every writer shares: a JSON string and
 * number, the shortest double that reads back, a CSV field, Markdown text
 * and text for a terminal. One copy each, so that the Go, JSON, CSV and
 * Markdown files of run, merge, compare, ab and exec quote alike
 * (docs/formats.md, "Hostile bytes").
 *
 * Strings come from benchmarks and from input files: they may hold any
 * byte. Each primitive makes them safe for its destination and says how:
 * JSON replaces invalid UTF-8 with U+FFFD, CSV neutralises cells a
 * spreadsheet would run as formulas, Markdown escapes what would become
 * markup or HTML, the terminal form shows control characters as \xNN.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "benchlab/output.h"

/*
 * The length of the valid UTF-8 sequence at p (1 to 4), or 0 when p does
 * not start one: a stray continuation byte, an overlong form, a surrogate,
 * a code point past U+10FFFF or a sequence cut short.
 */
size_t bl__utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    if (c < 0xC2 || c > 0xF4)
        return 0;
    size_t n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    unsigned lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F; /* no surrogates */
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

void bl__json_string(FILE *f, const char *s)
{
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t n = bl__utf8_len(p);
        if (n == 0) {
            fputs("\xEF\xBF\xBD", f); /* U+FFFD for each byte that is not UTF-8 */
            p++;
            continue;
        }
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (*p < 0x20 || *p == 0x7F)
                fprintf(f, "\\u%04x", *p);
            else
                fwrite(p, 1, n, f);
        }
        p += n;
    }
    fputc('"', f);
}

void bl__json_strings(FILE *f, const char *const *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        bl__json_string(f, v[i]);
    }
    fputc(']', f);
}

int bl__shortest_digits(double x)
{
    char buf[40];
    for (int prec = 1; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return prec;
    }
    return 17; /* always enough for a double; NaN never reads back equal */
}

void bl__shortest_double(char *out, size_t size, double x)
{
    snprintf(out, size, "%.*g", bl__shortest_digits(x), x);
}

void bl__json_number(FILE *f, double x)
{
    if (isnan(x) || isinf(x)) {
        fputs("null", f);
        return;
    }
    /* whole numbers as such (1000, not the shorter 1e+03): counts and
     * sizes read as what they are */
    if (x == floor(x) && fabs(x) < 1e15) {
        fprintf(f, "%.0f", x);
        return;
    }
    char buf[40];
    bl__shortest_double(buf, sizeof buf, x);
    fputs(buf, f);
}

void bl__json_metric_number(FILE *f, double x)
{
    if (isinf(x))
        fputs(x < 0 ? "\"-inf\"" : "\"inf\"", f);
    else
        bl__json_number(f, x);
}

size_t bl__space_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    if (c < 0x80)
        return (c == ' ' || (c >= '\t' && c <= '\r')) ? 1 : 0;
    if (c == 0xC2 && p + 1 < end && (p[1] == 0x85 || p[1] == 0xA0))
        return 2;
    if (c == 0xE1 && p + 2 < end && p[1] == 0x9A && p[2] == 0x80)
        return 3; /* U+1680 */
    if (c == 0xE2 && p + 2 < end) {
        /* p[2] a continuation byte: "\xE2\x80x" is no rune, as Go decodes it */
        if (p[1] == 0x80 &&
            ((p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF))
            return 3; /* U+2000-200A, 2028, 2029, 202F */
        if (p[1] == 0x81 && p[2] == 0x9F)
            return 3; /* U+205F */
    }
    if (c == 0xE3 && p + 2 < end && p[1] == 0x80 && p[2] == 0x80)
        return 3; /* U+3000 */
    return 0;
}

/* Go's encoding/csv quotes a field with a comma, quote, CR or LF inside, a
 * leading Unicode space, or the field \. (fieldNeedsQuotes). */
static int go_needs_quotes(const char *s)
{
    if (!*s)
        return 0;
    if (strcmp(s, "\\.") == 0)
        return 1;
    if (strpbrk(s, "\n\r\",") != NULL)
        return 1;
    const unsigned char *u = (const unsigned char *)s;
    return bl__space_len(u, u + strlen(s)) != 0;
}

/* A number a spreadsheet reads as one: [+-]digits[.digits][e[+-]digits][%]. */
static int is_number(const char *s)
{
    const char *p = s + (*s == '+' || *s == '-');
    size_t digits = strspn(p, "0123456789");
    p += digits;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        digits += frac;
        p += 1 + frac;
    }
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += *p == '+' || *p == '-';
        size_t exp = strspn(p, "0123456789");
        if (!exp)
            return 0;
        p += exp;
    }
    p += *p == '%';
    return *p == '\0';
}

static int csv_is_formula(const char *s)
{
    return strchr("=+-@\t\r", s[0]) && s[0] && !is_number(s);
}

/* Whether s holds a byte the terminal form changes: a control character
 * other than tab and newline, DEL, a C1 control or a byte that is not UTF-8. */
static int csv_needs_terminal_form(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7F)
            return 1;
        if (*p >= 0x80) {
            size_t n = bl__utf8_len(p);
            if (n == 0 || (n == 2 && p[0] == 0xC2 && p[1] < 0xA0))
                return 1;
            p += n - 1;
        }
    }
    return 0;
}

/* A CSV field, quoted when always_quote or when the cell needs it. */
static void csv_write(FILE *f, const char *s, int always_quote)
{
    s = s ? s : "";
    /* CSV goes to terminals too (compare -format csv on stdout): control
     * bytes are shown as a terminal shows them, \x1b, never sent raw; a
     * newline or tab inside a quoted cell is data and stays */
    struct bl__buf safe = {0};
    if (csv_needs_terminal_form(s)) {
        bl__buf_append(&safe, "", 0);
        bl__terminal_text(&safe, s, strlen(s), 1);
        s = safe.data ? safe.data : "";
    }
    int formula = csv_is_formula(s);
    if (!always_quote && !formula && !go_needs_quotes(s)) {
        fputs(s, f);
        bl__buf_fini(&safe);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f); /* OWASP: shown as text, never run */
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
    bl__buf_fini(&safe);
}

void bl__csv_field(FILE *f, const char *s)
{
    csv_write(f, s, 0);
}

void bl__csv_field_quoted(FILE *f, const char *s)
{
    csv_write(f, s, 1);
}

void bl__markdown_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '\n' || *p == '\r')
            fputc(' ', f); /* a line break would end the table row */
        else if (*p < 0x20 || *p == 0x7F)
            fprintf(f, "\\x%02x", *p);
        else if (strchr("\\|`*_[]<>", *p))
            fprintf(f, "\\%c", *p);
        else
            fputc(*p, f);
    }
}

int bl__markdown_code(struct bl__buf *b, const char *s)
{
    s = s ? s : "";
    size_t run = 0, longest = 0; /* the fence: longer than any run of backticks inside */
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    int pad = s[0] == '`' || (*s && s[strlen(s) - 1] == '`');
    int err = 0;
    for (size_t i = 0; i <= longest && !err; i++)
        err = bl__buf_append(b, "`", 1);
    if (pad && !err)
        err = bl__buf_append(b, " ", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p && !err; p++) {
        if (*p == '|')
            err = bl__buf_puts(b, "\\|"); /* GFM: a table cell's pipe, even in code */
        else if (*p == '\n' || *p == '\r')
            err = bl__buf_append(b, " ", 1);
        else if (*p < 0x20 || *p == 0x7F)
            err = bl__buf_printf(b, "\\x%02x", *p);
        else
            err = bl__buf_append(b, p, 1);
    }
    if (pad && !err)
        err = bl__buf_append(b, " ", 1);
    for (size_t i = 0; i <= longest && !err; i++)
        err = bl__buf_append(b, "`", 1);
    return err;
}

void bl__terminal_text(struct bl__buf *b, const char *s, size_t n, int keep_lines)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        unsigned char tail[5] = {0}; /* the last bytes, NUL-padded: no read past the end */
        if (end - p < 4)
            memcpy(tail, p, (size_t)(end - p));
        size_t len = bl__utf8_len(end - p < 4 ? tail : p);
        if (len > (size_t)(end - p))
            len = 0;
        int c1 = len == 2 && p[0] == 0xC2 && p[1] < 0xA0; /* U+0080..U+009F: 8-bit controls */
        if (len == 1 && (*p >= 0x20 || (keep_lines && (*p == '\n' || *p == '\t'))) && *p != 0x7F) {
            bl__buf_append(b, p, 1);
        } else if (len == 0 || len == 1) {
            bl__buf_printf(b, "\\x%02x", *p);
            len = 1;
        } else if (c1) {
            bl__buf_printf(b, "\\u%04x", p[1]);
        } else {
            bl__buf_append(b, p, len);
        }
        p += len;
    }
}

const char *bl__terminal_safe(struct bl__buf *b, const char *s)
{
    b->len = 0;
    bl__buf_append(b, "", 0);
    if (s)
        bl__terminal_text(b, s, strlen(s), 0);
    return b->data ? b->data : "";
}

const char *bl_terminal_text(char *out, size_t size, const char *s)
{
    struct bl__buf b = {0};
    if (size)
        snprintf(out, size, "%s", bl__terminal_safe(&b, s));
    bl__buf_fini(&b);
    return out;
}

int bl__gobench_field_buf(struct bl__buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : ""),
                        *end = p + strlen((const char *)p);
    int rc = bl__buf_reserve(b, (size_t)(end - p));
    while (!rc && p < end) {
        size_t n = bl__space_len(p, end);
        if (n || *p < 0x20 || *p == 0x7F) {
            rc =
                bl__buf_append(b, "_", 1); /* one field: a space would end it, a newline the line */
            p += n ? n : 1;
        } else {
            size_t run = 1; /* the bytes up to the next space or control byte, at once */
            while (p + run < end && p[run] >= 0x20 && p[run] != 0x7F && p[run] < 0x80 &&
                   p[run] != ' ')
                run++;
            rc = bl__buf_append(b, p, run);
            p += run;
        }
    }
    return rc;
}

int bl__gobench_text_buf(struct bl__buf *b, const char *s)
{
    const char *p = s ? s : "";
    int rc = bl__buf_reserve(b, strlen(p));
    for (; !rc && *p; p++) {
        char c = (unsigned char)*p < 0x20 || *p == 0x7F ? ' ' : *p; /* never a second line */
        rc = bl__buf_append(b, &c, 1);
    }
    return rc;
}

/* The longest line written: benchstat's scanner (Go's bufio.Scanner, 64 KiB
 * buffer) stops the whole file at a longer one, with "token too long". */
#define GO_MAX_LINE (65536 - 1)
#define GO_CUT_MARK " [cut]"

int bl__gobench_put_line(FILE *f, struct bl__buf *b, int cut)
{
    if (b->len > GO_MAX_LINE) {
        if (!cut)
            return BL_ETOOLONG;
        size_t n = GO_MAX_LINE - strlen(GO_CUT_MARK);
        while (n > 0 && ((unsigned char)b->data[n] & 0xC0) == 0x80)
            n--; /* not inside a UTF-8 sequence */
        b->len = n;
        bl__buf_puts(b, GO_CUT_MARK);
    }
    if (bl__buf_append(b, "\n", 1))
        return -ENOMEM;
    fwrite(b->data, 1, b->len, f);
    return 0;
}

const char *bl__shown_name(const char *name)
{
    return strncmp(name, "Benchmark", 9) == 0 ? name + 9 : name;
}

const char *bl__shown_bench(struct bl__buf *b, const char *name, const char *job)
{
    const char *shown = bl__terminal_safe(b, bl__shown_name(name));
    if (job) {
        bl__buf_printf(b, " [");
        bl__terminal_text(b, job, strlen(job), 0);
        bl__buf_printf(b, "]");
    }
    return b->data ? b->data : shown;
}
