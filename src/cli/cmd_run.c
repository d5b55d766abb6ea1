/*
 * cmd_run.c - `benchlab run SUITE [options]`: the suite's benchmarks
 * through the library's runner, with the same options as running the
 * suite executable itself.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/run.h"
#include "cli.h"
#include "front.h"

/* Whether argv gives jobs (--job): then no suite comes first. */
static bool has_jobs(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--job") == 0 || strncmp(argv[i], "--job=", 6) == 0 ||
            strcmp(argv[i], "-job") == 0 || strncmp(argv[i], "-job=", 5) == 0)
            return true;
    return false;
}

int cmd_run(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
            bl__help_write(stdout, bl__command_find("run"), "benchlab run");
            return 0;
        }
        /* jobs: every suite is a --job's */
        if (has_jobs(argc, argv))
            return bl__run_main_cli(argc, argv, NULL);
        return cli_error("run: name a suite executable: benchlab run SUITE [options], or jobs: "
                         "benchlab run --job NAME=SUITE --job NAME=SUITE [options]");
    }
    const char *suite = argv[1];
    if (access(suite, X_OK) != 0)
        return cli_error("run: %s: not an executable file", suite);
    /* argv[1] becomes the program name for the runner's own messages */
    return bl__run_main_cli(argc - 1, argv + 1, suite);
}
