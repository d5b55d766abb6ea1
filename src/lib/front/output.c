/*
 * output.c - what the commands that write results share on their way out:
 * the format chosen by --format or by the output file's extension, and the
 * one progress line on a terminal ("[3/12] BenchmarkSort/size=64" for the
 * suite's runner and ab, "sleep 0.1: run 3 of 10, ETA 2 s" for exec),
 * rewritten in place and erased when something else is said or the run ends.
 *
 * Used by the suite's command line (suite_main.c) and by benchlab's ab,
 * exec and merge (src/cli). Writes only to the stream the caller names for
 * progress, and only when it names one.
 */
#include <stdarg.h>
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

void bl__progress_show(struct bl__progress *p, const char *fmt, ...)
{
    if (!p->to)
        return;
    struct bl__buf text = {0}, safe = {0};
    va_list ap;
    va_start(ap, fmt);
    int err = bl__buf_vprintf(&text, fmt, ap);
    va_end(ap);
    if (!err) {
        /* names and commands may hold any byte: shown, never sent raw */
        fprintf(p->to, "\r\033[K%s", bl__terminal_safe(&safe, text.data ? text.data : ""));
        fflush(p->to);
        p->shown = 1;
    }
    bl__buf_fini(&text);
    bl__buf_fini(&safe);
}

void bl__progress_clear(struct bl__progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", p->to);
        p->shown = 0;
    }
}
