/*
 * main.c - the benchlab command: a table of subcommands over the library.
 * Exit status everywhere: 0 fine, 1 found something (a failed benchmark, a
 * regression), 2 trouble (bad usage, unreadable input).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/common.h"
#include "benchlab/format.h"
#include "benchlab/output.h"
#include "benchlab/run.h"
#include "benchlab/store.h"
#include "cli.h"
#include "front.h"

/* The commands; their names, summaries and options are in the option
 * tables (src/lib/front/options.c), which list them in this order. */
static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} commands[] = {
    {"run", cmd_run},         {"exec", cmd_exec},
    {"env", cmd_env},         {"ab", cmd_ab},
    {"compare", cmd_compare}, {"profile", cmd_profile},
    {"report", cmd_report},   {"history", cmd_history},
    {"judge", cmd_judge},     {"baseline", cmd_baseline},
    {"merge", cmd_merge},     {"bisect", cmd_bisect},
};

/* Messages quote inputs (a file's line, a stored name): each line of one
 * is printed with its control characters shown as \x1b (bl_terminal_text),
 * never obeyed by the terminal. */
void cli_github_summary(const char *cmd, int (*write)(FILE *f, const void *ctx), const void *ctx)
{
    const char *path = getenv("GITHUB_STEP_SUMMARY");
    if (!path || !*path)
        return;
    char *buf = NULL, err[600];
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int rc = m ? write(m, ctx) : -ENOMEM;
    if (m && fclose(m) != 0 && !rc)
        rc = -ENOMEM;
    if (rc)
        cli_error("%s: the job summary: %s", cmd, bl_strerror(rc));
    else if (bl_github_summary_append(buf, len, err, sizeof err) < 0)
        cli_error("%s: %s", cmd, err);
    free(buf);
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    fputs("benchlab: ", stderr);
    if (n < 0) {
        fputs(fmt, stderr); /* out of memory: the message's bare form */
        fputc('\n', stderr);
        return 2;
    }
    char *safe = malloc(4 * (size_t)n + 1); /* \xNN: 4 bytes a byte at most */
    for (char *line = msg, *end; safe; line = end + 1) {
        end = strchr(line, '\n');
        if (end)
            *end = '\0';
        fputs(bl_terminal_text(safe, 4 * (size_t)n + 1, line), stderr);
        fputc('\n', stderr);
        if (!end || !end[1])
            break;
    }
    if (!safe)
        fprintf(stderr, "%s\n", msg);
    free(safe);
    free(msg);
    return 2;
}

int cli_parse(const char *name, int argc, char **argv, struct bl__args *args)
{
    const struct bl__command *cmd = bl__command_find(name);
    char err[512];
    if (bl__args_parse(cmd, argc, argv, args, err, sizeof err)) {
        cli_error("%s: %s", name, err);
        return -2;
    }
    if (args->help) {
        char prog[64];
        snprintf(prog, sizeof prog, "benchlab %s", name);
        bl__help_write(stdout, cmd, prog);
        return -1;
    }
    return argc - (int)args->n_pos;
}

/* A command's status, or 2 when what it wrote to stdout did not all arrive. */
static int finish(int status)
{
    int err = bl_output_flush_stdout();
    if (err) {
        cli_error("stdout: %s", bl_strerror(err));
        return 2;
    }
    return status;
}

int main(int argc, char **argv)
{
    bl_output_watch_stdout();
    /* `benchlab run SUITE --save` saves through the store linked here */
    bl_run_set_saver(bl_store_run_saver);
    if (argc < 2) {
        bl__help_write_commands(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        bl__help_write_commands(stdout);
        return finish(0);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("benchlab %s\n", bl_version());
        return finish(0);
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish(commands[i].fn(argc - 1, argv + 1));
    const char *near = bl__command_closest(argv[1]);
    if (near) {
        cli_error("unknown command '%s' (did you mean '%s'?)", argv[1], near);
        return 2;
    }
    cli_error("unknown command '%s'", argv[1]);
    bl__help_write_commands(stderr);
    return 2;
}
