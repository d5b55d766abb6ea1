/*
 * cmd_env.c - `benchlab env`: what on this machine adds noise to
 * measurements, and what to do about it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/env.h"
#include "cli.h"

int cmd_env(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: benchlab env\n\nLists what on this machine adds noise to measurements:\n"
               "frequency governor and boost, SMT, ASLR, load and busy processes, a\n"
               "hypervisor, perf_event_paranoid, isolated cores. Exit status 1 when\n"
               "something warrants a warning.\n");
        return 0;
    }
    if (argc > 1)
        return cli_error("env: unexpected argument '%s'", argv[1]);
    bl_env_finding f[16];
    size_t n = bl_env_check(f, 16, 300);
    int color = isatty(1) && !getenv("NO_COLOR");
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
