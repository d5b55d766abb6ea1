/* test_escape.c - the output primitives (base/escape.c): JSON strings stay
 * valid UTF-8, CSV cells never run as formulas (numbers stay numbers),
 * Markdown never carries HTML, a terminal never receives a control byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/base.h"

typedef void (*writer)(FILE *f, const char *s);

/* What `w` writes for s, in a static buffer. */
static const char *written(writer w, const char *s)
{
    static char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    w(f, s);
    fclose(f);
    return buf;
}

static void json_string_replaces_invalid_utf8_and_escapes_controls(void **state)
{
    (void)state;
    assert_string_equal(written(bl__json_string, "a\xff"
                                                 "b"),
                        "\"a\xEF\xBF\xBD"
                        "b\"");
    /* overlong '/', a surrogate, a sequence cut short: each byte replaced */
    assert_string_equal(written(bl__json_string, "\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
    assert_string_equal(written(bl__json_string, "\xED\xA0\x80"),
                        "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
    assert_string_equal(written(bl__json_string, "\xE2\x82"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
    /* valid UTF-8 passes: µ, €, an emoji */
    assert_string_equal(written(bl__json_string, "\xC2\xB5\xE2\x82\xAC\xF0\x9F\x98\x80"),
                        "\"\xC2\xB5\xE2\x82\xAC\xF0\x9F\x98\x80\"");
    assert_string_equal(written(bl__json_string, "\x1b]52\"\\\n\x7f"),
                        "\"\\u001b]52\\\"\\\\\\n\\u007f\"");
    assert_string_equal(written(bl__json_string, NULL), "\"\"");
}

static void json_number_is_shortest_round_trip(void **state)
{
    (void)state;
    char buf[64];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    bl__json_number(f, 0.1);
    fputc(' ', f);
    bl__json_number(f, 1000000);
    fputc(' ', f);
    bl__json_number(f, 1.0 / 3);
    fputc(' ', f);
    bl__json_number(f, 0.0 / 0.0);
    fclose(f);
    assert_string_equal(buf, "0.1 1000000 0.3333333333333333 null");
}

/* The digits the JSON, CSV and compare's Go numbers share: the fewest that
 * read back, 17 at most. */
static void shortest_digits_read_back(void **state)
{
    (void)state;
    assert_int_equal(bl__shortest_digits(0.1), 1);
    assert_int_equal(bl__shortest_digits(1.0 / 3), 16);
    assert_int_equal(bl__shortest_digits(123.456), 6);
    assert_int_equal(bl__shortest_digits(0.1 + 0.2), 17);
    assert_int_equal(bl__shortest_digits(0.0 / 0.0), 17);
    char buf[40];
    bl__shortest_double(buf, sizeof buf, 0.1 + 0.2);
    assert_string_equal(buf, "0.30000000000000004");
    bl__shortest_double(buf, sizeof buf, 1e-7);
    assert_string_equal(buf, "1e-07");
}

static void json_strings_is_an_array_of_json_strings(void **state)
{
    (void)state;
    const char *v[] = {"a", "b\"\n", "\xff"};
    char buf[64];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    bl__json_strings(f, v, 3);
    fputc(' ', f);
    bl__json_strings(f, v, 0);
    fclose(f);
    assert_string_equal(buf, "[\"a\",\"b\\\"\\n\",\"\xEF\xBF\xBD\"] []");
}

static void csv_field_neutralises_formulas_but_not_numbers(void **state)
{
    (void)state;
    assert_string_equal(written(bl__csv_field, "=cmd|calc!A0"), "\"'=cmd|calc!A0\"");
    assert_string_equal(written(bl__csv_field, "@SUM(A1)"), "\"'@SUM(A1)\"");
    assert_string_equal(written(bl__csv_field, "+1+1"), "\"'+1+1\"");
    assert_string_equal(written(bl__csv_field, "-2+3+cmd|' /C calc'!A0"),
                        "\"'-2+3+cmd|' /C calc'!A0\"");
    assert_string_equal(written(bl__csv_field, "\t=1"), "\"'\t=1\"");
    assert_string_equal(written(bl__csv_field, "=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    /* numbers are data: negative values, signed percentages, exponents */
    assert_string_equal(written(bl__csv_field, "-3.5"), "-3.5");
    assert_string_equal(written(bl__csv_field, "+10.84%"), "+10.84%");
    assert_string_equal(written(bl__csv_field, "-17.20%"), "-17.20%");
    assert_string_equal(written(bl__csv_field, "-1.5e-07"), "-1.5e-07");
    assert_string_equal(written(bl__csv_field, "-.5"), "-.5");
    assert_string_equal(written(bl__csv_field, "-1e"), "\"'-1e\"");
    assert_string_equal(written(bl__csv_field, "-"), "\"'-\"");
    /* Go's quoting, unchanged (benchstat's bytes) */
    assert_string_equal(written(bl__csv_field, "a,b"), "\"a,b\"");
    assert_string_equal(written(bl__csv_field, " x"), "\" x\"");
    assert_string_equal(written(bl__csv_field, "plain"), "plain");
}

static void csv_field_shows_control_bytes_as_a_terminal_does(void **state)
{
    (void)state;
    /* OSC 52 (clipboard), BEL, DEL, a C1 CSI and a byte that is not UTF-8 */
    assert_string_equal(written(bl__csv_field, "X/p=\x1b]52;c;aGk=\x07\x7f\xC2\x9b\xff"),
                        "X/p=\\x1b]52;c;aGk=\\x07\\x7f\\u009b\\xff");
    /* a carriage return is shown; a tab or newline inside a cell is data */
    assert_string_equal(written(bl__csv_field, "a\rb"), "a\\x0db");
    assert_string_equal(written(bl__csv_field, "a\tb"), "a\tb");
    assert_string_equal(written(bl__csv_field, "a\nb"), "\"a\nb\"");
    /* the formula rule sees the shown text: a leading CR is no longer one */
    assert_string_equal(written(bl__csv_field, "\r=1"), "\\x0d=1");
    assert_string_equal(written(bl__csv_field, "=1\x1b"), "\"'=1\\x1b\"");
    /* valid UTF-8 passes: µ, NBSP */
    assert_string_equal(written(bl__csv_field, "\xC2\xB5s\xC2\xA0x"), "\xC2\xB5s\xC2\xA0x");
}

/* Google Benchmark's CSV quotes every string; its cells follow the same
 * formula and terminal rules as every other CSV (docs/formats.md). */
static void csv_field_quoted_quotes_always_with_the_same_rules(void **state)
{
    (void)state;
    assert_string_equal(written(bl__csv_field_quoted, "plain"), "\"plain\"");
    assert_string_equal(written(bl__csv_field_quoted, ""), "\"\"");
    assert_string_equal(written(bl__csv_field_quoted, "a\"b"), "\"a\"\"b\"");
    assert_string_equal(written(bl__csv_field_quoted, "=1+1"), "\"'=1+1\"");
    assert_string_equal(written(bl__csv_field_quoted, "-3.5"), "\"-3.5\"");
    assert_string_equal(written(bl__csv_field_quoted, "X/\x1b]0;t\x07"), "\"X/\\x1b]0;t\\x07\"");
    assert_string_equal(written(bl__csv_field_quoted, "a\nb"), "\"a\nb\"");
}

static void markdown_text_escapes_html_and_markup(void **state)
{
    (void)state;
    assert_string_equal(written(bl__markdown_text, "<img/src=x/onerror=alert(1)>"),
                        "\\<img/src=x/onerror=alert(1)\\>");
    assert_string_equal(written(bl__markdown_text, "a|b*c_d`e[f]\\"),
                        "a\\|b\\*c\\_d\\`e\\[f\\]\\\\");
    assert_string_equal(written(bl__markdown_text, "two\nlines\x1b"), "two lines\\x1b");
}

static void terminal_text_shows_control_bytes(void **state)
{
    (void)state;
    struct bl__buf b = {0};
    assert_string_equal(bl__terminal_safe(&b, "\x1b]52;c;eA==\x07x\x9b\xC2\x9b\x7f\xC2\xB5"),
                        "\\x1b]52;c;eA==\\x07x\\x9b\\u009b\\x7f\xC2\xB5");
    assert_string_equal(bl__terminal_safe(&b, "tab\there"), "tab\\x09here");
    b.len = 0;
    bl__terminal_text(&b, "line\n\tnext\r", 11, 1);
    assert_string_equal(b.data, "line\n\tnext\\x0d");
    /* a sequence cut by the length is not read past it */
    b.len = 0;
    bl__terminal_text(&b, "\xE2\x82\xAC", 2, 0);
    assert_string_equal(b.data, "\\xe2\\x82");
    bl__buf_fini(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_string_replaces_invalid_utf8_and_escapes_controls),
        cmocka_unit_test(json_number_is_shortest_round_trip),
        cmocka_unit_test(shortest_digits_read_back),
        cmocka_unit_test(json_strings_is_an_array_of_json_strings),
        cmocka_unit_test(csv_field_neutralises_formulas_but_not_numbers),
        cmocka_unit_test(csv_field_shows_control_bytes_as_a_terminal_does),
        cmocka_unit_test(csv_field_quoted_quotes_always_with_the_same_rules),
        cmocka_unit_test(markdown_text_escapes_html_and_markup),
        cmocka_unit_test(terminal_text_shows_control_bytes),
    };
    return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
