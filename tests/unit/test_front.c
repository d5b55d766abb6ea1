/* test_front.c - the option tables, their parser and the help written from them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <malloc.h>

#include "base/base.h"
#include "benchlab.h"
#include "front/front.h"

/* A command of our own, so the tests do not depend on a real table's entries. */
static const char *const colors[] = {"auto", "always", "never", NULL};
static const char *const fmts[] = {"go", "json", "csv", NULL};
enum { T_FILTER = 1, T_RUNS, T_WARMUP, T_VERBOSE, T_OUT, T_COLOR, T_LIST, T_TIME, T_LEVEL };
static const struct bl__opt opts[] = {
    {"filter", 0, BL__ARG_TEXT, 0, "REGEX", NULL, 0, 0, NULL, "which", T_FILTER},
    {"runs", 'r', BL__ARG_COUNT, 0, "N", NULL, 1, 100, "10", "runs", T_RUNS},
    {"warmup", 'w', BL__ARG_INT, 0, "N", NULL, 0, 10, "0", "warmup runs", T_WARMUP},
    {"verbose", 'v', BL__ARG_NONE, 0, NULL, NULL, 0, 0, NULL, "say more", T_VERBOSE},
    {"out", 'o', BL__ARG_FILE, 0, "FILE", NULL, 0, 0, NULL, "write there", T_OUT},
    {"color", 0, BL__ARG_CHOICE, 0, "WHEN", colors, 0, 0, "auto", "colour", T_COLOR},
    {"formats", 0, BL__ARG_LIST, BL__OPT_OPTIONAL, "FORMAT", fmts, 0, 0, NULL, "outputs", T_LIST},
    {"time", 0, BL__ARG_DURATION, 0, "DURATION", NULL, 0, 0, "1s", "budget", T_TIME},
    {"alpha", 0, BL__ARG_LEVEL, 0, "A", NULL, 0, 0, NULL, "level", T_LEVEL},
    {"help", 'h', BL__ARG_NONE, 0, NULL, NULL, 0, 0, NULL, "help", BL__ID_HELP},
};
static const struct bl__command gnu = {
    "test", "[options] ARG...",         "a test", "About it.",   NULL,
    opts,   sizeof opts / sizeof *opts, 0,        BL__POS_FILES, NULL,
};

/* A command in clap's manner, as exec's: several values, a short-only
 * switch, an optional value, each option once unless it repeats. */
enum { C_SCAN = 1, C_LIST, C_RUNS, C_NO_SHELL, C_IGNORE, C_VERBOSE };
static const struct bl__opt clap_opts[] = {
    {"scan", 'P', BL__ARG_VALUES, 0, "VAR MIN MAX", NULL, 0, 0, NULL, "a scan", C_SCAN},
    {"list", 'L', BL__ARG_VALUES, BL__OPT_REPEAT, "VAR VALUES", NULL, 0, 0, NULL, "a list", C_LIST},
    {"runs", 'r', BL__ARG_COUNT, 0, "N", NULL, 1, 100, NULL, "runs", C_RUNS},
    {NULL, 'N', BL__ARG_NONE, 0, NULL, NULL, 0, 0, NULL, "no shell", C_NO_SHELL},
    {"ignore", 'i', BL__ARG_TEXT, BL__OPT_OPTIONAL, "MODE", NULL, 0, 0, NULL, "ignore", C_IGNORE},
    {"verbose", 'v', BL__ARG_NONE, 0, NULL, NULL, 0, 0, NULL, "say more", C_VERBOSE},
    {"version", 'V', BL__ARG_NONE, 0, NULL, NULL, 0, 0, NULL, "version", BL__ID_VERSION},
    {"help", 'h', BL__ARG_NONE, 0, NULL, NULL, 0, 0, NULL, "help", BL__ID_HELP},
};
static const struct bl__command clap = {
    "clap",
    "[options] CMD...",
    "a test",
    NULL,
    NULL,
    clap_opts,
    sizeof clap_opts / sizeof *clap_opts,
    BL__STYLE_ONCE,
    BL__POS_COMMAND,
    NULL,
};

static int parse(const struct bl__command *cmd, struct bl__args *a, char *err, size_t size, ...)
{
    static char *argv[32];
    static char store[32][64];
    va_list ap;
    va_start(ap, size);
    int argc = 0;
    argv[argc++] = (char *)"prog";
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;) {
        snprintf(store[argc], sizeof store[argc], "%s", s);
        argv[argc] = store[argc];
        argc++;
    }
    va_end(ap);
    argv[argc] = NULL;
    return bl__args_parse(cmd, argc, argv, a, err, size);
}

static void long_options_take_equals_and_next_argument(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--filter=Sum", "--runs", "3", NULL), 0);
    assert_int_equal(a.n_hits, 2);
    assert_int_equal(a.hits[0].opt->id, T_FILTER);
    assert_string_equal(a.hits[0].value, "Sum");
    assert_int_equal(a.hits[1].opt->id, T_RUNS);
    assert_true(a.hits[1].num == 3);
}

static void bundled_shorts_take_attached_values(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "-r2", "-w1", "-vo", "x.txt", NULL), 0);
    assert_int_equal(a.n_hits, 4);
    assert_true(a.hits[0].num == 2);
    assert_true(a.hits[1].num == 1);
    assert_int_equal(a.hits[2].opt->id, T_VERBOSE);
    assert_int_equal(a.hits[3].opt->id, T_OUT);
    assert_string_equal(a.hits[3].value, "x.txt");
}

static void double_dash_ends_options_and_positionals_move_last(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "one", "-v", "two", "--", "-r", NULL), 0);
    assert_int_equal(a.n_hits, 1);
    assert_int_equal(a.n_pos, 3);
    assert_string_equal(a.pos[0], "one");
    assert_string_equal(a.pos[1], "two");
    assert_string_equal(a.pos[2], "-r");
}

static void unknown_option_names_the_closest(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--filtr", "x", NULL), -1);
    assert_string_equal(err, "unknown option '--filtr' (did you mean --filter?)");
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--runz", "3", NULL), -1);
    assert_string_equal(err, "unknown option '--runz' (did you mean --runs?)");
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--zzzzzz", NULL), -1);
    assert_string_equal(err, "unknown option '--zzzzzz' (see --help)");
    /* Google Benchmark's flags given to a benchlab command: what to write instead */
    assert_int_equal(
        parse(bl__command_find("run"), &a, err, sizeof err, "--benchmark_filter=Map", NULL), -1);
    assert_string_equal(err, "unknown option '--benchmark_filter=Map': Google Benchmark's flags "
                             "are read by a suite run by itself (./SUITE --benchmark_filter=Map), "
                             "not by benchlab run; here: --filter REGEX (on benchlab's names: "
                             "Benchmark + Google Benchmark's)");
    assert_int_equal(
        parse(bl__command_find("run"), &a, err, sizeof err, "--benchmark_repetitions", "3", NULL),
        -1);
    assert_non_null(strstr(err, "not by benchlab run; here: --count N"));
    /* benchlab run hands its options to the suite, which parses them with its own table */
    assert_int_equal(parse(&bl__suite_command, &a, err, sizeof err, "--benchmark_min_time=2", NULL),
                     -1);
    assert_non_null(strstr(err, "not by benchlab run; here: --time DURATION"));
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--benchmark_color=false", NULL), -1);
    assert_non_null(strstr(err, "not by benchlab test; see --help for its options"));
}

static void values_are_checked_against_their_kind(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--runs", "0", NULL), -1);
    assert_string_equal(err, "--runs: '0' is not a count from 1 to 100");
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--time", "abc", NULL), -1);
    assert_string_equal(err, "--time: 'abc' is not a positive duration (try 500ms or 2s)");
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--time=500ms", NULL), 0);
    assert_true(a.hits[0].num == 0.5);
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--alpha", "1", NULL), -1);
    assert_string_equal(err, "--alpha: '1' is not a number between 0 and 1");
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--color", "nevr", NULL), -1);
    assert_non_null(strstr(err, "did you mean never?"));
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--formats=go,jsn", NULL), -1);
    assert_non_null(strstr(err, "unknown format 'jsn'"));
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--formats", NULL), 0);
    assert_null(a.hits[0].value); /* an optional value only comes with = */
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--verbose=1", NULL), -1);
    assert_string_equal(err, "option --verbose takes no value (got '--verbose=1')");
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--runs", NULL), -1);
    assert_string_equal(err, "option --runs needs a value");
}

static void help_stops_parsing(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--help", "--bogus", NULL), 0);
    assert_true(a.help);
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "-h", NULL), 0);
    assert_true(a.help);
    /* --version too, as GNU programs and hyperfine (exec -V) do */
    assert_int_equal(parse(&bl__suite_command, &a, err, sizeof err, "--version", "--bogus", NULL),
                     0);
    assert_true(a.version);
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-NV", "--bogus", NULL), 0);
    assert_true(a.version);
}

static void suite_accepts_single_dash_long_names(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(
        parse(&bl__suite_command, &a, err, sizeof err, "-count", "3", "--time=1s", NULL), 0);
    assert_int_equal(a.n_hits, 2);
    assert_int_equal(a.hits[0].opt->id, BL__ID_COUNT);
    assert_int_equal(a.hits[1].opt->id, BL__ID_TIME);
    /* --time and --timeout are two options, told apart by the table */
    assert_int_equal(parse(&bl__suite_command, &a, err, sizeof err, "--timeout", "2s", NULL), 0);
    assert_int_equal(a.hits[0].opt->id, BL__ID_TIMEOUT);
}

static void go_style_stops_at_first_input_and_speaks_go(void **state)
{
    (void)state;
    const struct bl__command *cmp = bl__command_find("compare");
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(cmp, &a, err, sizeof err, "-row", ".name", "a.txt", "-col", "x", NULL),
                     0);
    assert_int_equal(a.n_hits, 1);
    assert_int_equal(a.n_pos, 3); /* "-col" after the first input is an input */
    assert_int_equal(parse(cmp, &a, err, sizeof err, "-nope", NULL), -1);
    assert_string_equal(err, "flag provided but not defined: -nope");
    assert_int_equal(parse(cmp, &a, err, sizeof err, "-filtr", "x", NULL), -1);
    assert_string_equal(err, "flag provided but not defined: -filtr (did you mean -filter?)");
    assert_int_equal(parse(cmp, &a, err, sizeof err, "-row", NULL), -1);
    assert_string_equal(err, "flag needs an argument: -row");
}

static void abbreviations_only_where_the_command_allows(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    const struct bl__command *judge = bl__command_find("judge");
    assert_int_equal(parse(judge, &a, err, sizeof err, "--thresh", "3", NULL), 0);
    assert_int_equal(a.hits[0].opt->id, BL__ID_THRESHOLD);
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "--filt", "x", NULL), -1);
}

static void save_group_is_taken_once(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    struct bl__save_args s = {0};
    assert_int_equal(parse(&bl__suite_command, &a, err, sizeof err, "--store", "x.db", "--tag", "t",
                           "--run-id", "", NULL),
                     0);
    assert_int_equal(bl__save_take(&a.hits[0], &s, err, sizeof err), 1);
    assert_int_equal(bl__save_take(&a.hits[1], &s, err, sizeof err), 1);
    assert_string_equal(s.store, "x.db");
    assert_string_equal(s.tag, "t");
    assert_true(s.given_store && s.given_tag && !s.on);
    assert_int_equal(bl__save_take(&a.hits[2], &s, err, sizeof err), -1);
    assert_string_equal(err, "--run-id: give a name");
}

static void several_values_take_the_next_arguments(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(bl__opt_n_values(&clap_opts[0]), 3);
    assert_int_equal(bl__opt_n_values(&clap_opts[1]), 2);
    assert_int_equal(bl__opt_n_values(&clap_opts[2]), 1);
    assert_int_equal(bl__opt_n_values(&clap_opts[3]), 0);
    /* the values are taken whatever they look like (-1), positionals around them */
    assert_int_equal(parse(&clap, &a, err, sizeof err, "x", "-P", "n", "-1", "3", "--list", "v",
                           "a,b", "-vL", "w", "1", "y", NULL),
                     0);
    assert_int_equal(a.n_hits, 4);
    assert_int_equal(a.hits[0].opt->id, C_SCAN);
    assert_int_equal(a.hits[0].n_values, 3);
    assert_string_equal(a.hits[0].value, "n");
    assert_string_equal(a.hits[0].values[1], "-1");
    assert_string_equal(a.hits[0].values[2], "3");
    assert_int_equal(a.hits[1].n_values, 2);
    assert_string_equal(a.hits[1].values[0], "v");
    assert_string_equal(a.hits[1].values[1], "a,b");
    assert_int_equal(a.hits[2].opt->id, C_VERBOSE);
    assert_string_equal(a.hits[3].values[1], "1"); /* -L ends the bundle -vL */
    assert_int_equal(a.n_pos, 2);
    assert_string_equal(a.pos[0], "x");
    assert_string_equal(a.pos[1], "y");
    /* too few, attached, or inside a bundle: said so */
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-P", "n", "1", NULL), -1);
    assert_string_equal(err, "option --scan needs VAR MIN MAX");
    assert_int_equal(parse(&clap, &a, err, sizeof err, "--scan=n", "1", "2", NULL), -1);
    assert_string_equal(err,
                        "option --scan takes VAR MIN MAX as separate arguments (got '--scan=n')");
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-Pn", "1", "2", NULL), -1);
    assert_string_equal(err, "option -P must end its bundle '-Pn': it takes VAR MIN MAX");
}

static void once_style_refuses_a_second_unless_it_repeats(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-r", "1", "--runs=2", NULL), -1);
    assert_string_equal(err, "option --runs given more than once");
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-NN", NULL), -1);
    assert_string_equal(err, "option -N given more than once");
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-L", "a", "1", "-L", "b", "2", "x", NULL),
                     0);
    assert_int_equal(a.n_hits, 2);
    /* without the style, the last one is the command's to take */
    assert_int_equal(parse(&gnu, &a, err, sizeof err, "-r1", "-r2", NULL), 0);
    assert_int_equal(a.n_hits, 2);
}

static void short_only_and_optional_short_values(void **state)
{
    (void)state;
    struct bl__args a;
    char err[256];
    /* -Nr2: a short-only switch bundled; -i takes a value only after '=' */
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-Nr2", "-iv", "-i=1,2", NULL), -1);
    assert_string_equal(err, "option --ignore given more than once");
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-Nr2", "-iv", "x", NULL), 0);
    assert_int_equal(a.n_hits, 4);
    assert_int_equal(a.hits[0].opt->id, C_NO_SHELL);
    assert_true(a.hits[1].num == 2);
    assert_int_equal(a.hits[2].opt->id, C_IGNORE);
    assert_null(a.hits[2].value);
    assert_int_equal(a.hits[3].opt->id, C_VERBOSE);
    assert_int_equal(parse(&clap, &a, err, sizeof err, "-i=1,2", "x", NULL), 0);
    assert_string_equal(a.hits[0].value, "1,2");
    char label[16];
    assert_string_equal(bl__opt_label(&clap_opts[3], label, sizeof label), "-N");
    assert_string_equal(bl__opt_label(&clap_opts[0], label, sizeof label), "--scan");
    /* a short-only option is no long name to suggest, and --help shows it */
    assert_int_equal(parse(&clap, &a, err, sizeof err, "--N", NULL), -1);
    assert_string_equal(err, "unknown option '--N' (see --help)");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bl__help_write(f, &clap, "clap");
    fclose(f);
    assert_non_null(strstr(text, "  -N                        no shell\n"));
    assert_non_null(strstr(text, "  -P, --scan VAR MIN MAX    a scan\n"));
    assert_non_null(strstr(text, "  -i, --ignore[=MODE]       ignore\n"));
    free(text);
}

/* Every command's --help names every visible option of its table: the
 * text is written from the table, so they cannot drift apart. */
static void help_of_every_command_lists_its_options(void **state)
{
    (void)state;
    for (size_t i = 0; i < bl__n_commands; i++) {
        const struct bl__command *cmd = bl__commands[i];
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        bl__help_write(f, cmd, "benchlab x");
        fclose(f);
        assert_non_null(strstr(text, "usage: benchlab x"));
        if (strstr(text, " \n")) /* env's usage is empty: "usage: benchlab x", no space */
            fail_msg("%s --help has a line ending in a space", cmd->name);
        for (size_t k = 0; k < cmd->n_opts; k++) {
            char want[64];
            if (cmd->opts[k].name)
                snprintf(want, sizeof want, "%s%s", cmd->style & BL__STYLE_GO ? "-" : "--",
                         cmd->opts[k].name);
            else /* short only */
                snprintf(want, sizeof want, "  -%c ", cmd->opts[k].short_name);
            if (!(cmd->opts[k].flags & BL__OPT_HIDDEN) && !strstr(text, want))
                fail_msg("%s --help lacks %s", cmd->name, want);
        }
        free(text);
    }
}

static void edit_distances(void **state)
{
    (void)state;
    assert_int_equal(bl__edit_distance("filter", "filter"), 0);
    assert_int_equal(bl__edit_distance("filtr", "filter"), 1);
    assert_int_equal(bl__edit_distance("fitler", "filter"), 1); /* a swap is one edit */
    assert_int_equal(bl__substring_distance("Emty", "BenchmarkEmpty"), 1);
    assert_int_equal(bl__substring_distance("Sum", "BenchmarkSum/size=64"), 0);
    const char *const cmds[] = {"run", "exec", "compare", NULL};
    assert_string_equal(bl__closest("comapre", cmds, 3), "compare");
    assert_string_equal(bl__closest("ex", cmds, 3), "exec");
    assert_null(bl__closest("zzz", cmds, 3));
}

/* bl_main_option_args (Google Benchmark's Initialize) reads the suite's own
 * table: every option there is taken with its value, and nothing else. */
static void main_option_args_follow_the_suite_table(void **state)
{
    (void)state;
    const struct bl__command *suite = bl__command_find("suite");
    assert_non_null(suite);
    for (size_t i = 0; i < suite->n_opts; i++) {
        const struct bl__opt *o = &suite->opts[i];
        if (!o->name)
            continue;
        char opt[64], eq[80], dash[64];
        snprintf(opt, sizeof opt, "--%s", o->name);
        snprintf(eq, sizeof eq, "--%s=1", o->name);
        snprintf(dash, sizeof dash, "-%s", o->name);
        char *argv[] = {(char *)"suite", opt, (char *)"1", eq, dash, (char *)"1", NULL};
        int want = o->arg == BL__ARG_NONE || (o->flags & BL__OPT_OPTIONAL) ? 1 : 2;
        assert_int_equal(bl_main_option_args(6, argv, 1), want);
        assert_int_equal(bl_main_option_args(6, argv, 3), 1);
        assert_int_equal(bl_main_option_args(6, argv, 4), want);
        /* a value option last on the command line: itself only */
        assert_int_equal(bl_main_option_args(2, argv, 1), 1);
    }
    char *other[] = {(char *)"suite",
                     (char *)"--benchmark_filter=x",
                     (char *)"--times",
                     (char *)"-h",
                     (char *)"x",
                     (char *)"--tim",
                     NULL};
    assert_int_equal(bl_main_option_args(6, other, 1), 0);
    assert_int_equal(bl_main_option_args(6, other, 2), 0);
    assert_int_equal(bl_main_option_args(6, other, 3), 1);
    assert_int_equal(bl_main_option_args(6, other, 4), 0);
    assert_int_equal(bl_main_option_args(6, other, 5), 0);
}

/* Google Benchmark's flags become benchlab's options in an argv of their
 * own: it holds every argument it gets and its NULL. --benchmark_out=FILE
 * alone turns one argument into four (--out FILE --format gbench-json):
 * the argv was sized for two per argument and a suite run as
 * `./bench --benchmark_min_time=0.02 --benchmark_out=r.json` wrote past it
 * and aborted in free(). */
static void gbench_flags_argv_holds_what_it_gets(void **state)
{
    (void)state;
    static const struct {
        int argc;
        const char *argv[4];
        const char *want; /* the rewritten arguments after argv[0], joined by spaces */
    } cases[] = {
        {2, {"s", "--benchmark_out=r.json"}, "--out r.json --format gbench-json"},
        {3,
         {"s", "--benchmark_min_time=0.02", "--benchmark_out=r.json"},
         "--time 0.02s --out r.json --format gbench-json"},
        {3,
         {"s", "--benchmark_out=r.csv", "--benchmark_out_format=csv"},
         "--out r.csv --format gbench-csv"},
        {3,
         {"s", "--benchmark_format=json", "--benchmark_out=r.json"},
         "--out r.json --format gbench-json"},
        {2, {"s", "--benchmark_format=csv"}, "--format gbench-csv"},
        {3,
         {"s", "--benchmark_repetitions=3", "--benchmark_out=r"},
         "--count 3 --out r --format gbench-json"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char *in[5] = {0};
        for (int i = 0; i < cases[c].argc; i++)
            in[i] = (char *)cases[c].argv[i];
        int argc = cases[c].argc, status = -1;
        char **argv = in;
        assert_int_equal(bl__gbench_flags(&argc, &argv, &status), 0);
        assert_ptr_not_equal(argv, in);
        assert_null(argv[argc]);
        /* the allocation holds the arguments and the NULL */
        assert_true(malloc_usable_size(argv) >= (size_t)(argc + 1) * sizeof *argv);
        char got[200] = "";
        for (int i = 1; i < argc; i++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i > 1 ? " " : "",
                     argv[i]);
        assert_string_equal(got, cases[c].want);
    }
}

/* The one progress line: each text replaces the last on the same line,
 * control bytes are shown, never sent, and clear erases only what it
 * showed; with no stream nothing is written. */
static void progress_line_rewrites_itself_and_erases_once(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    struct bl__progress p = {f, 0};
    bl__progress_clear(&p); /* nothing shown yet: nothing to erase */
    bl__progress_show(&p, "[%zu/%zu] %s", (size_t)1, (size_t)12, "Sort/\x1b]0;pwned\x07");
    assert_int_equal(p.shown, 1);
    bl__progress_show(&p, "%.40s: %s %d of %d, ETA %.0f s", "sleep 0.1", "run", 3, 10, 2.0);
    bl__progress_clear(&p);
    bl__progress_clear(&p);
    assert_int_equal(p.shown, 0);
    fclose(f);
    assert_string_equal(text, "\r\033[K[1/12] Sort/\\x1b]0;pwned\\x07"
                              "\r\033[Ksleep 0.1: run 3 of 10, ETA 2 s"
                              "\r\033[K");
    free(text);

    struct bl__progress off = {NULL, 0};
    bl__progress_show(&off, "[%d/%d] %s", 1, 2, "x");
    bl__progress_clear(&off);
    assert_int_equal(off.shown, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_options_take_equals_and_next_argument),
        cmocka_unit_test(bundled_shorts_take_attached_values),
        cmocka_unit_test(double_dash_ends_options_and_positionals_move_last),
        cmocka_unit_test(unknown_option_names_the_closest),
        cmocka_unit_test(values_are_checked_against_their_kind),
        cmocka_unit_test(help_stops_parsing),
        cmocka_unit_test(suite_accepts_single_dash_long_names),
        cmocka_unit_test(go_style_stops_at_first_input_and_speaks_go),
        cmocka_unit_test(abbreviations_only_where_the_command_allows),
        cmocka_unit_test(save_group_is_taken_once),
        cmocka_unit_test(several_values_take_the_next_arguments),
        cmocka_unit_test(once_style_refuses_a_second_unless_it_repeats),
        cmocka_unit_test(short_only_and_optional_short_values),
        cmocka_unit_test(help_of_every_command_lists_its_options),
        cmocka_unit_test(edit_distances),
        cmocka_unit_test(main_option_args_follow_the_suite_table),
        cmocka_unit_test(progress_line_rewrites_itself_and_erases_once),
        cmocka_unit_test(gbench_flags_argv_holds_what_it_gets),
    };
    return cmocka_run_group_tests_name("front", tests, NULL, NULL);
}
