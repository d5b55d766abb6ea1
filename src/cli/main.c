/*
 * main.c - the benchlab command: a table of subcommands over the library.
 * Exit status everywhere: 0 fine, 1 found something (a failed benchmark, a
 * regression), 2 trouble (bad usage, unreadable input).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "benchlab/common.h"
#include "benchlab/run.h"
#include "benchlab/store.h"
#include "cli.h"

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} commands[] = {
    {"run", cmd_run, "run a benchmark suite: benchlab run SUITE [options]"},
    {"exec", cmd_exec, "benchmark whole commands: benchlab exec [options] CMD..."},
    {"env", cmd_env, "what on this machine adds noise to measurements"},
    {"ab", cmd_ab, "did my change make it slower? benchlab ab OLD NEW [options]"},
    {"compare", cmd_compare,
     "compare results as benchstat does: benchlab compare [flags] OLD NEW..."},
    {"profile", cmd_profile, "sample or trace a program: benchlab profile [options] -- PROGRAM"},
    {"report", cmd_report, "an HTML report of results: benchlab report [options] INPUT... -o FILE"},
    {"history", cmd_history, "stored runs and each benchmark's centre over time"},
    {"judge", cmd_judge, "faster, slower or unchanged against a baseline; exit 1 on a regression"},
    {"baseline", cmd_baseline, "name a stored run: benchlab baseline set NAME [RUN]"},
    {"merge", cmd_merge, "results files or stored runs into one run: benchlab merge INPUT..."},
};

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("benchlab: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: benchlab COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nbenchlab COMMAND --help shows a command's options.\n");
}

int main(int argc, char **argv)
{
    /* `benchlab run SUITE --save` saves through the store linked here */
    bl_run_set_saver(bl_store_run_saver);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("benchlab %s\n", bl_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    cli_error("unknown command '%s'", argv[1]);
    usage(stderr);
    return 2;
}
