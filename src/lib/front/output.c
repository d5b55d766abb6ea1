/*
 * output.c - what the commands that write results share on their way out:
 * the format chosen by --format or by the output file's extension, and the
 * progress line on a terminal ("[3/12] BenchmarkSort/size=64", erased when
 * something else is said or the run ends).
 *
 * Used by the suite's command line (suite_main.c) and by benchlab's ab and
 * merge (src/cli). Writes to stderr only when asked to show progress.
 */
#include <stdio.h>
#include <string.h>

#include "../base/base.h"
#include "front.h"

const char *bl__format_for(const char *given, const char *path, const char *const *known,
                           const char *fallback)
{
    if (given)
        return given;
    static const struct {
        const char *ext, *name;
    } by_ext[] = {{".json", "json"}, {".csv", "csv"}, {".md", "markdown"}};
    const char *dot = path ? strrchr(path, '.') : NULL;
    for (size_t i = 0; dot && i < sizeof by_ext / sizeof *by_ext; i++) {
        if (strcmp(dot, by_ext[i].ext) != 0)
            continue;
        for (size_t k = 0; known && known[k]; k++)
            if (strcmp(known[k], by_ext[i].name) == 0)
                return known[k];
    }
    return fallback; /* .txt, no extension, or a format this command does not write */
}

void bl__progress_show(struct bl__progress *p, size_t index, size_t total, const char *name)
{
    if (!p->tty)
        return;
    struct bl__buf safe = {0}; /* names may hold parameter values: shown, never sent raw */
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", index + 1, total, bl__terminal_safe(&safe, name));
    bl__buf_fini(&safe);
    fflush(stderr);
    p->shown = 1;
}

void bl__progress_clear(struct bl__progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        p->shown = 0;
    }
}
