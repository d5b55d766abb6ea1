/*
 * cmd_env.c - `benchlab env`: what on this machine adds noise to
 * measurements, and what to do about it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/env.h"
#include "benchlab/format.h"
#include "cli.h"
#include "front.h"

int cmd_env(int argc, char **argv)
{
    struct bl__args args;
    char perr[512];
    if (bl__args_parse(bl__command_find("env"), argc, argv, &args, perr, sizeof perr))
        return cli_error("env: %s", perr);
    int help = args.help;
    const char *extra = args.n_pos ? args.pos[0] : NULL; /* argv's string */
    if (help) {
        bl__help_write(stdout, bl__command_find("env"), "benchlab env");
        return 0;
    }
    if (extra)
        return cli_error("env: unexpected argument '%s'", extra);
    bl_env_finding f[16];
    size_t n = bl_env_check(f, 16, 300);
    int color = bl_terminal_colors(1);
    int warned = 0;
    for (size_t i = 0; i < n; i++) {
        static const char *const tag[] = {"ok  ", "note", "WARN"};
        const char *on = !color ? "" : f[i].level == BL_ENV_WARN ? "\033[33m" : "";
        printf("%s%s%s  %-20s %s\n", on, tag[f[i].level], color && *on ? "\033[0m" : "", f[i].check,
               f[i].value);
        if (f[i].advice[0])
            printf("      %-20s %s\n", "", f[i].advice);
        warned |= f[i].level == BL_ENV_WARN;
    }
    return warned ? 1 : 0;
}
