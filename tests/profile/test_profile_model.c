/*
 * test_profile_model.c - the call-tree model and its outputs on stacks of known structure.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "benchlab/profile.h"

static void add(bl_profile *p, const char *path, double value, uint64_t calls)
{
    char buf[256];
    const char *frames[16];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, ";"); tok; tok = strtok(NULL, ";"))
        frames[n++] = tok;
    assert_int_equal(bl_profile_add_stack(p, frames, n, value, calls), 0);
}

/* The profile written in `format`, as a string; caller frees. */
static char *render(const bl_profile *p, enum bl_profile_format format, size_t *len)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    assert_non_null(f);
    assert_int_equal(bl_profile_write(p, format, f), 0);
    fclose(f);
    if (len)
        *len = n;
    return text;
}

static bl_profile *known_sampled(void)
{
    bl_profile *p = bl_profile_create(BL_PROFILE_SAMPLED);
    assert_non_null(p);
    add(p, "main;a;b", 3, 0);
    add(p, "main;a", 1, 0);
    add(p, "main;c", 2, 0);
    add(p, "main;a;b", 1, 0);
    return p;
}

static void folded_of_known_stacks_is_exact(void **state)
{
    (void)state;
    bl_profile *p = known_sampled();
    char *text = render(p, BL_PROFILE_FOLDED, NULL);
    assert_string_equal(text, "main;a 1\nmain;a;b 4\nmain;c 2\n");
    free(text);
    bl_profile_destroy(p);
}

static void flat_has_self_and_total(void **state)
{
    (void)state;
    bl_profile *p = known_sampled();
    struct bl_profile_function *fs;
    size_t n = bl_profile_flat(p, &fs);
    assert_int_equal(n, 4);
    assert_string_equal(fs[0].name, "main");
    assert_true(fs[0].total_ns == 7 && fs[0].self_ns == 0);
    assert_string_equal(fs[1].name, "a");
    assert_true(fs[1].total_ns == 5 && fs[1].self_ns == 1);
    assert_string_equal(fs[2].name, "b");
    assert_true(fs[2].total_ns == 4 && fs[2].self_ns == 4);
    assert_string_equal(fs[3].name, "c");
    assert_true(bl_profile_total_ns(p) == 7);
    free(fs);
    bl_profile_destroy(p);
}

static void flat_counts_recursion_once(void **state)
{
    (void)state;
    bl_profile *p = bl_profile_create(BL_PROFILE_SAMPLED);
    add(p, "main;f;f;f", 4, 0);
    add(p, "main;f;g;f", 1, 0);
    add(p, "main;f", 2, 0);
    struct bl_profile_function *fs;
    size_t n = bl_profile_flat(p, &fs);
    assert_int_equal(n, 3);
    assert_string_equal(fs[0].name, "f"); /* ties with main on total; more self */
    assert_true(fs[0].total_ns == 7 && fs[0].self_ns == 7);
    assert_string_equal(fs[1].name, "main");
    assert_true(fs[1].total_ns == 7);
    assert_string_equal(fs[2].name, "g");
    assert_true(fs[2].total_ns == 1 && fs[2].self_ns == 0);
    free(fs);
    bl_profile_destroy(p);
}

static bl_profile *known_traced(void)
{
    bl_profile *p = bl_profile_create(BL_PROFILE_TRACED);
    add(p, "main", 100, 1);
    add(p, "main;f", 60, 10);
    add(p, "main;f;g", 20, 5);
    add(p, "main;g", 10, 2);
    return p;
}

static void csv_of_traced_tree_is_exact(void **state)
{
    (void)state;
    bl_profile *p = known_traced();
    char *text = render(p, BL_PROFILE_CSV, NULL);
    assert_string_equal(text, "function,calls,self,total\n"
                              "main,1,30,100\n"
                              "f,10,40,60\n"
                              "g,7,30,30\n");
    free(text);
    bl_profile_destroy(p);
}

static void csv_quotes_awkward_names(void **state)
{
    (void)state;
    bl_profile *p = bl_profile_create(BL_PROFILE_SAMPLED);
    const char *frames[] = {"operator,()", "say \"hi\""};
    assert_int_equal(bl_profile_add_stack(p, frames, 2, 5, 0), 0);
    char *text = render(p, BL_PROFILE_CSV, NULL);
    assert_string_equal(text, "function,calls,self,total\n"
                              "\"say \"\"hi\"\"\",0,5,5\n"
                              "\"operator,()\",0,0,5\n");
    free(text);
    bl_profile_destroy(p);
}

static void tree_shows_inclusive_and_exclusive_percent(void **state)
{
    (void)state;
    bl_profile *p = known_traced();
    char *text = render(p, BL_PROFILE_TREE, NULL);
    assert_non_null(strstr(text, " 100.00%   30.00%            1 main\n"));
    assert_non_null(strstr(text, "  60.00%   40.00%           10   f\n"));
    assert_non_null(strstr(text, "  20.00%   20.00%            5     g\n"));
    assert_non_null(strstr(text, "  10.00%   10.00%            2   g\n"));
    free(text);
    bl_profile_destroy(p);
}

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *at = text; (at = strstr(at, needle)) != NULL; at++)
        n++;
    return n;
}

static void svg_has_one_frame_per_node_and_escapes(void **state)
{
    (void)state;
    bl_profile *p = known_sampled();
    add(p, "main;vector<int>&", 1, 0);
    char *text = render(p, BL_PROFILE_SVG, NULL);
    assert_true(strncmp(text, "<?xml", 5) == 0);
    assert_non_null(strstr(text, "</svg>\n"));
    assert_int_equal(count(text, "<g class=\"f\">"), 6); /* all, main, a, b, c, vector */
    assert_non_null(strstr(text, "vector&lt;int&gt;&amp;"));
    assert_null(strstr(text, "vector<int>"));
    assert_null(strstr(text, "src=")); /* nothing external */
    assert_non_null(strstr(text, "function search()"));
    free(text);
    bl_profile_destroy(p);
}

/* The profile's JSON and CSV quote as every other writer (base/escape.c,
 * docs/formats.md "Hostile bytes"): a newline as \n, a byte that is not
 * UTF-8 as U+FFFD, a cell a spreadsheet would run as a formula as text. */
static void hostile_names_quote_as_every_writer(void **state)
{
    (void)state;
    bl_profile *p = bl_profile_create(BL_PROFILE_SAMPLED);
    const char *frames[] = {"=cmd|' /C calc'!A0", "a\nb\xff"};
    assert_int_equal(bl_profile_add_stack(p, frames, 2, 5, 0), 0);
    char *text = render(p, BL_PROFILE_SPEEDSCOPE, NULL);
    assert_non_null(strstr(text, "{\"name\":\"a\\nb\xEF\xBF\xBD\"}"));
    free(text);
    text = render(p, BL_PROFILE_CHROME, NULL);
    assert_non_null(strstr(text, "\"name\":\"a\\nb\xEF\xBF\xBD\""));
    free(text);
    text = render(p, BL_PROFILE_CSV, NULL);
    assert_non_null(strstr(text, "\n\"'=cmd|' /C calc'!A0\",0,0,5\n"));
    free(text);
    bl_profile_destroy(p);
}

/* The flat profile and the call tree go to a terminal: a function name
 * from a binary's symbols holding an OSC 52 clipboard write is shown as
 * \x1b..., never sent as it is. */
static void text_views_show_control_characters_escaped(void **state)
{
    (void)state;
    bl_profile *p = bl_profile_create(BL_PROFILE_SAMPLED);
    const char *frames[] = {"main", "ev\x1b]52;c;eA==\x07il\x9b"};
    assert_int_equal(bl_profile_add_stack(p, frames, 2, 5, 0), 0);
    enum bl_profile_format views[] = {BL_PROFILE_FLAT, BL_PROFILE_TREE};
    for (size_t i = 0; i < 2; i++) {
        size_t len;
        char *text = render(p, views[i], &len);
        assert_null(memchr(text, 0x1b, len));
        assert_null(memchr(text, 0x07, len));
        assert_non_null(strstr(text, "ev\\x1b]52;c;eA==\\x07il\\x9b"));
        free(text);
    }
    bl_profile_destroy(p);
}

static void speedscope_and_chrome_name_every_frame(void **state)
{
    (void)state;
    bl_profile *p = known_traced();
    char *text = render(p, BL_PROFILE_SPEEDSCOPE, NULL);
    assert_non_null(strstr(text, "\"frames\":[\n{\"name\":\"main\"},\n{\"name\":\"f\"},\n"
                                 "{\"name\":\"g\"}]"));
    assert_non_null(strstr(text, "\"samples\":[\n[0],\n[0,1],\n[0,1,2],\n[0,2]]"));
    assert_non_null(strstr(text, "\"weights\":[30,40,20,10]"));
    free(text);
    text = render(p, BL_PROFILE_CHROME, NULL);
    assert_non_null(strstr(text, "{\"name\":\"main\",\"cat\":\"function\",\"ph\":\"X\","
                                 "\"ts\":0.000,\"dur\":0.100"));
    assert_non_null(strstr(text, "\"calls\":10"));
    free(text);
    bl_profile_destroy(p);
}

static void pprof_starts_with_sample_types_and_holds_names(void **state)
{
    (void)state;
    bl_profile *p = known_traced();
    size_t n;
    char *data = render(p, BL_PROFILE_PPROF, &n);
    assert_true(n > 20);
    assert_int_equal((unsigned char)data[0], 0x0a); /* field 1 (sample_type), length-delimited */
    assert_non_null(memmem(data, n, "nanoseconds", 11));
    assert_non_null(memmem(data, n, "main", 4));
    free(data);
    bl_profile_destroy(p);
}

static void format_names_and_extensions_parse(void **state)
{
    (void)state;
    enum bl_profile_format f;
    assert_int_equal(bl_profile_format_parse("folded", &f), 0);
    assert_int_equal(f, BL_PROFILE_FOLDED);
    assert_int_equal(bl_profile_format_parse("nope", &f), BL_EUSAGE);
    assert_int_equal(bl_profile_format_for_path("x.svg"), BL_PROFILE_SVG);
    assert_int_equal(bl_profile_format_for_path("x.speedscope.json"), BL_PROFILE_SPEEDSCOPE);
    assert_int_equal(bl_profile_format_for_path("x.trace.json"), BL_PROFILE_CHROME);
    assert_int_equal(bl_profile_format_for_path("x.pb"), BL_PROFILE_PPROF);
    assert_int_equal(bl_profile_format_for_path("x.csv"), BL_PROFILE_CSV);
    assert_int_equal(bl_profile_format_for_path("x.txt"), BL_PROFILE_TEXT);
    assert_int_equal(bl_profile_format_for_path("x.flat"), BL_PROFILE_FLAT);
    assert_int_equal(bl_profile_format_parse("text", &f), 0);
    assert_int_equal(f, BL_PROFILE_TEXT);
    assert_int_equal(bl_profile_format_for_path("x"), BL_PROFILE_FLAT);
}

static void load_rejects_missing_empty_and_garbage(void **state)
{
    (void)state;
    bl_profile *p = NULL;
    assert_int_equal(bl_profile_load("/nonexistent/raw", &p, NULL), -ENOENT);
    assert_null(p);
    char path[] = "/tmp/benchlab-test-raw-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(bl_profile_load(path, &p, NULL), BL_ENOTFOUND);
    assert_int_equal(write(fd, "not a raw profile at all, sorry", 31), 31);
    assert_int_equal(bl_profile_load(path, &p, NULL), BL_EFORMAT);
    assert_null(p);
    close(fd);
    unlink(path);
}

static void put_chunk(FILE *f, uint32_t type, const void *data, uint64_t n)
{
    uint32_t head[4] = {0x43504c42u, type, 1, 0};
    fwrite(head, sizeof head, 1, f);
    fwrite(&n, sizeof n, 1, f);
    fwrite(data, 1, n, f);
}

/* A raw file with every kind of chunk, then thousands of corrupted copies:
 * the reader must answer each with a profile or an error, never a crash (the
 * ASan build runs this too). */
static void load_survives_corrupted_raw_files(void **state)
{
    (void)state;
    char *raw = NULL;
    size_t n_raw = 0;
    FILE *f = open_memstream(&raw, &n_raw);
    const char meta[] = "mode=sample\nclock=cpu\nsource=perf\nperiod_ns=1000000\nsamples=3\n";
    put_chunk(f, 3, meta, sizeof meta - 1);
    uint64_t words[] = {0x400000, 0x7ff000, 2, 0x400010, 0x7ff100, 0x400020, 0x400030};
    uint32_t rec[2] = {7, 1};
    unsigned char samples[sizeof rec + sizeof words];
    memcpy(samples, rec, sizeof rec);
    memcpy(samples + sizeof rec, words, sizeof words);
    put_chunk(f, 1, samples, sizeof samples);
    uint64_t trace[2][6] = {{0, 0, 0, 0, 0, 0}, {0x400000, 0, 5, 100, 0, 0}};
    put_chunk(f, 4, trace, sizeof trace);
    const char maps[] = "00400000-00500000 r-xp 00000000 00:00 0 /proc/self/exe\n"
                        "7f0000000000-7f0000001000 r-xp 00000000 00:00 0 [vdso]\n"
                        "garbage line\n";
    put_chunk(f, 2, maps, sizeof maps - 1);
    fclose(f);
    char path[] = "/tmp/benchlab-test-fuzz-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unsigned seed = 12345;
    unsigned char *copy = malloc(n_raw);
    assert_non_null(copy);
    for (int round = 0; round < 3000; round++) {
        memcpy(copy, raw, n_raw);
        size_t n = round == 0 ? n_raw : (seed = seed * 1103515245u + 12345u) % (n_raw + 1);
        for (int flips = (int)(seed >> 16) % 8; flips > 0 && n > 0; flips--) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % n] ^= (unsigned char)(1u << (seed % 8));
        }
        assert_int_equal(ftruncate(fd, 0), 0);
        assert_int_equal(pwrite(fd, copy, n, 0), (ssize_t)n);
        bl_profile *p = NULL;
        struct bl_profile_info info;
        int err = bl_profile_load(path, &p, &info);
        assert_true(err == 0 || err == BL_ENOTFOUND || err == BL_EFORMAT);
        if (p) {
            char *text = render(p, BL_PROFILE_FOLDED, NULL);
            free(text);
        }
        bl_profile_destroy(p);
    }
    free(copy);
    free(raw);
    close(fd);
    unlink(path);
}

/* Two functions of this program, for a traced tree that symbolizes. */
__attribute__((noinline)) void traced_outer(void);
__attribute__((noinline)) void traced_inner(void);
__attribute__((noinline)) void traced_outer(void)
{
    __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void traced_inner(void)
{
    __asm__ volatile("" ::: "memory");
}

/* Load a traced raw profile: outer (1 call, 10000 ticks) -> inner (100
 * calls, 6000 ticks), 1 GHz ticks, a cost of 10 ticks in a call's own
 * window and 20 per call below it; with `wait` set, the thread waited as
 * long as it ran. Returns inner's and outer's totals in ns. */
static void load_traced(int wait, double *inner, double *outer)
{
    char *raw = NULL;
    size_t n_raw = 0;
    FILE *f = open_memstream(&raw, &n_raw);
    const char meta[] = "mode=trace\nclock=wall\nsource=trace\ntsc_hz=1000000000\n"
                        "cost_in_mticks=10000\ncost_call_mticks=20000\nthreads=1\n";
    put_chunk(f, 3, meta, sizeof meta - 1);
    /* struct bl_raw_trace_node: fn, parent (u32) and reserved (u32), calls, ticks, sub_calls */
    uint64_t trace[3][5] = {{0, 0, 0, 0, 101},
                            {(uint64_t)(uintptr_t)traced_outer, 0, 1, 10000, 100},
                            {(uint64_t)(uintptr_t)traced_inner, 1, 100, 6000, 0}};
    put_chunk(f, 4, trace, sizeof trace);
    if (wait) {
        uint64_t sched[2] = {5000000, 5000000};
        put_chunk(f, 6, sched, sizeof sched);
    }
    FILE *maps = fopen("/proc/self/maps", "r");
    assert_non_null(maps);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, maps);
    fclose(maps);
    put_chunk(f, 2, buf, n);
    fclose(f);
    char path[] = "/tmp/benchlab-test-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, raw, n_raw), (ssize_t)n_raw);
    close(fd);
    free(raw);
    bl_profile *p = NULL;
    struct bl_profile_info info;
    assert_int_equal(bl_profile_load(path, &p, &info), 0);
    unlink(path);
    assert_true(info.kind == BL_PROFILE_TRACED);
    assert_true(fabs(info.wait_share - (wait ? 0.5 : 0.0)) < 1e-9);
    struct bl_profile_function *fs;
    size_t nf = bl_profile_flat(p, &fs);
    *inner = *outer = -1;
    for (size_t i = 0; i < nf; i++) {
        if (strcmp(fs[i].name, "traced_inner") == 0) {
            *inner = fs[i].total_ns;
            assert_int_equal(fs[i].calls, 100);
        }
        if (strcmp(fs[i].name, "traced_outer") == 0) {
            *outer = fs[i].total_ns;
            assert_int_equal(fs[i].calls, 1);
        }
    }
    free(fs);
    bl_profile_destroy(p);
}

/* The tracer's cost comes out of each node; when the thread waited for a
 * CPU, the waits that fell on that cost come out too (twice the cost when
 * it waited as long as it ran). */
static void load_subtracts_tracer_cost_and_its_waits(void **state)
{
    (void)state;
    double inner, outer;
    load_traced(0, &inner, &outer);
    assert_true(fabs(inner - (6000 - 10 * 100)) < 1e-6);
    assert_true(fabs(outer - (10000 - 10 * 1 - 20 * 100)) < 1e-6);
    load_traced(1, &inner, &outer);
    assert_true(fabs(inner - (6000 - 2 * 10 * 100)) < 1e-6);
    assert_true(fabs(outer - (10000 - 2 * (10 * 1 + 20 * 100))) < 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(folded_of_known_stacks_is_exact),
        cmocka_unit_test(flat_has_self_and_total),
        cmocka_unit_test(flat_counts_recursion_once),
        cmocka_unit_test(csv_of_traced_tree_is_exact),
        cmocka_unit_test(csv_quotes_awkward_names),
        cmocka_unit_test(tree_shows_inclusive_and_exclusive_percent),
        cmocka_unit_test(svg_has_one_frame_per_node_and_escapes),
        cmocka_unit_test(speedscope_and_chrome_name_every_frame),
        cmocka_unit_test(hostile_names_quote_as_every_writer),
        cmocka_unit_test(text_views_show_control_characters_escaped),
        cmocka_unit_test(pprof_starts_with_sample_types_and_holds_names),
        cmocka_unit_test(format_names_and_extensions_parse),
        cmocka_unit_test(load_rejects_missing_empty_and_garbage),
        cmocka_unit_test(load_survives_corrupted_raw_files),
        cmocka_unit_test(load_subtracts_tracer_cost_and_its_waits),
    };
    return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
