/*
 * callgrind_read.c - the header of a callgrind dump file: its events, its
 * summary line and its trigger (instruments/callgrind.h).
 *
 * Per valgrind's "Callgrind Format Specification", a file starts with
 * "# callgrind format" or "version:" and has header lines "key: value"
 * before the cost lines: "events:" names the columns, "summary:" gives the
 * total of each (trailing zeros may be left out), "desc: Trigger: ..." says
 * why the dump was written. "totals:" at the end is the same sum, used
 * when no summary was written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/common.h"
#include "callgrind.h"

static void copy_trimmed(char *dst, size_t n, const char *src)
{
    while (*src == ' ' || *src == '\t')
        src++;
    size_t len = strcspn(src, "\r\n");
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* Costs of "summary:" or "totals:" into d->total; false when not numbers. */
static int read_costs(const char *p, struct bl__cg_dump *d)
{
    for (int i = 0; i < BL__CG_MAX_EVENTS; i++)
        d->total[i] = 0;
    for (int i = 0; i < BL__CG_MAX_EVENTS; i++) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '\n' || *p == '\r')
            return 0;
        char *end;
        double v = strtod(p, &end);
        if (end == p || v < 0)
            return -1;
        d->total[i] = v;
        p = end;
    }
    return 0;
}

/* One line of the file: what it says, into d. BL_EPROTO on bad costs. */
static int read_line(char *line, int lineno, struct bl__cg_dump *d, bool *format, bool *summary,
                     bool *totals)
{
    if (lineno == 1)
        *format = strncmp(line, "# callgrind format", 18) == 0 || strncmp(line, "version:", 8) == 0;
    if (strncmp(line, "events:", 7) == 0) {
        d->n_events = 0;
        for (char *save = NULL, *w = strtok_r(line + 7, " \t\r\n", &save);
             w && d->n_events < BL__CG_MAX_EVENTS; w = strtok_r(NULL, " \t\r\n", &save))
            snprintf(d->event[d->n_events++], sizeof d->event[0], "%.15s", w);
    } else if (strncmp(line, "summary:", 8) == 0) {
        *summary = read_costs(line + 8, d) == 0;
        return *summary ? 0 : BL_EPROTO;
    } else if (strncmp(line, "totals:", 7) == 0 && !*summary) {
        *totals = read_costs(line + 7, d) == 0;
        return *totals ? 0 : BL_EPROTO;
    } else if (strncmp(line, "desc: Trigger:", 14) == 0) {
        copy_trimmed(d->trigger, sizeof d->trigger, line + 14);
    } else if (strncmp(line, "cmd:", 4) == 0) {
        copy_trimmed(d->cmd, sizeof d->cmd, line + 4);
    }
    return 0;
}

/*
 * Read with read(2) into a buffer on the stack, not stdio: the worker reads
 * its warm batch's dump in the middle of a benchmark, and a FILE's mallocs
 * would change the heap the benchmark's own allocations find (measured: a
 * linked list of 1024 mallocs read 1060 instructions/op more in the launch
 * that read its dump with fopen). Lines longer than the buffer are cost
 * lines of long names: skipped.
 */
int bl__cg_read_dump(const char *path, struct bl__cg_dump *d, char *why, size_t why_size)
{
    memset(d, 0, sizeof *d);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(why, why_size, "cannot read callgrind's dump %s: %s", path, strerror(e));
        return -e;
    }
    char buf[8192];
    size_t have = 0;
    int lineno = 0, rc = 0, read_err = 0;
    bool format = false, summary = false, totals = false, skipping = false, eof = false;
    while (!rc && !eof) {
        ssize_t got = read(fd, buf + have, sizeof buf - 1 - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            read_err = errno;
            break;
        }
        eof = got == 0;
        have += (size_t)got;
        if (eof && have && buf[have - 1] != '\n')
            buf[have++] = '\n'; /* the last line, unterminated */
        size_t at = 0;
        for (char *nl; !rc && (nl = memchr(buf + at, '\n', have - at));
             at = (size_t)(nl - buf) + 1) {
            *nl = '\0';
            lineno++;
            if (!skipping)
                rc = read_line(buf + at, lineno, d, &format, &summary, &totals);
            skipping = false;
        }
        memmove(buf, buf + at, have - at);
        have -= at;
        if (have == sizeof buf - 1) { /* a line longer than the buffer */
            have = 0;
            skipping = true;
        }
    }
    close(fd);
    if (read_err)
        snprintf(why, why_size, "cannot read callgrind's dump %s: %s", path, strerror(read_err));
    else if (!format)
        snprintf(why, why_size, "%s is not a callgrind dump (no \"# callgrind format\" line)",
                 path);
    else if (rc)
        snprintf(why, why_size, "callgrind's dump %s: line %d: costs that are not numbers", path,
                 lineno);
    else if (!d->n_events || !(summary || totals))
        snprintf(why, why_size, "callgrind's dump %s has no %s", path,
                 d->n_events ? "summary or totals line" : "events line");
    else
        return 0;
    return read_err ? -read_err : BL_EPROTO;
}

double bl__cg_total(const struct bl__cg_dump *d, const char *event)
{
    for (int i = 0; i < d->n_events; i++)
        if (strcmp(d->event[i], event) == 0)
            return d->total[i];
    return 0;
}
