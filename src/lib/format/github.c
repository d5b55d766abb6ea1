/*
 * github.c - GitHub Actions' conventions for the CI gates (docs/ci.md):
 * the workflow commands that put an annotation on a run (`::error`,
 * `::warning`) and the job summary ($GITHUB_STEP_SUMMARY), each within the
 * limits GitHub documents: 10 annotations of each kind shown per step, a
 * summary of at most 1 MiB per step.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchlab/format.h"
#include "github.h"

int bl_github_actions(void)
{
    const char *v = getenv("GITHUB_ACTIONS");
    return v && strcmp(v, "true") == 0;
}

void bl__github_note_add(struct bl__github_notes *g, int level, double weight, const char *title,
                         const char *fmt, ...)
{
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 16;
        struct bl__github_note *v = realloc(g->v, nc * sizeof *v);
        if (!v) {
            g->oom = 1;
            return;
        }
        g->v = v;
        g->cap = nc;
    }
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int rc = vasprintf(&msg, fmt, ap);
    va_end(ap);
    char *t = strdup(title);
    if (rc < 0 || !t) {
        free(t);
        if (rc >= 0)
            free(msg);
        g->oom = 1;
        return;
    }
    g->v[g->n++] = (struct bl__github_note){level, weight, t, msg};
}

/* A workflow command's text: '%', CR and LF escaped as GitHub's runner
 * reads them back; in a property (title=...) also ':' and ','. */
static void escaped(FILE *f, const char *s, int property)
{
    for (; *s; s++) {
        if (*s == '%')
            fputs("%25", f);
        else if (*s == '\r')
            fputs("%0D", f);
        else if (*s == '\n')
            fputs("%0A", f);
        else if (property && *s == ':')
            fputs("%3A", f);
        else if (property && *s == ',')
            fputs("%2C", f);
        else
            fputc(*s, f);
    }
}

static int worst_first(const void *a, const void *b)
{
    const struct bl__github_note *x = a, *y = b;
    if (x->level != y->level)
        return y->level - x->level;
    if (x->weight != y->weight)
        return x->weight < y->weight ? 1 : -1;
    return 0;
}

static void command(FILE *f, const struct bl__github_note *n)
{
    fputs(n->level == BL__GITHUB_ERROR ? "::error title=" : "::warning title=", f);
    escaped(f, n->title, 1);
    fputs("::", f);
    escaped(f, n->message, 0);
    fputc('\n', f);
}

int bl__github_notes_write(FILE *f, struct bl__github_notes *g, const char *errors_what,
                           const char *warnings_what)
{
    if (g->n > 1)
        qsort(g->v, g->n, sizeof *g->v, worst_first);
    for (size_t i = 0; i < g->n;) {
        size_t j = i;
        while (j < g->n && g->v[j].level == g->v[i].level)
            j++;
        size_t shown = j - i > BL__GITHUB_SHOWN ? BL__GITHUB_SHOWN - 1 : j - i;
        for (size_t k = i; k < i + shown; k++)
            command(f, &g->v[k]);
        if (shown < j - i) {
            int err = g->v[i].level == BL__GITHUB_ERROR;
            char msg[200];
            snprintf(msg, sizeof msg,
                     "and %zu more %s (GitHub shows %d annotations of a kind per step): see the "
                     "log or the job summary",
                     j - i - shown, err ? errors_what : warnings_what, BL__GITHUB_SHOWN);
            struct bl__github_note more = {g->v[i].level, 0, (char *)"benchlab", msg};
            command(f, &more);
        }
        i = j;
    }
    for (size_t i = 0; i < g->n; i++) {
        free(g->v[i].title);
        free(g->v[i].message);
    }
    free(g->v);
    int oom = g->oom;
    memset(g, 0, sizeof *g);
    if (fflush(f) != 0 || ferror(f))
        return -EIO;
    return oom ? -ENOMEM : 0;
}

/* ---- the job summary ------------------------------------------------------------------- */

#define SUMMARY_LIMIT (1024 * 1024)

int bl_github_summary_append(const char *markdown, size_t len, char *err, size_t err_size)
{
    const char *path = getenv("GITHUB_STEP_SUMMARY");
    if (!path || !*path)
        return 1;
    /* appended, never truncated: the step's other commands wrote there too */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, err_size, "GITHUB_STEP_SUMMARY %s: %s", path, strerror(errno));
        return -errno;
    }
    struct stat st;
    size_t used = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
    static const char cut[] = "\n_(cut here: GitHub keeps at most 1 MiB of summary a step; the "
                              "whole table is in the log)_\n";
    size_t room = used + sizeof cut < SUMMARY_LIMIT ? SUMMARY_LIMIT - used - sizeof cut : 0;
    size_t n = len;
    int cutting = len > room;
    if (cutting) { /* at a line's end, so no table row is broken */
        n = room;
        while (n > 0 && markdown[n - 1] != '\n')
            n--;
    }
    int rc = 0;
    const char *p = markdown;
    for (size_t left = n; left && !rc;) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -errno;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    if (!rc && cutting && room && write(fd, cut, sizeof cut - 1) != (ssize_t)(sizeof cut - 1))
        rc = -EIO;
    if (close(fd) != 0 && !rc)
        rc = -errno;
    if (rc)
        snprintf(err, err_size, "GITHUB_STEP_SUMMARY %s: %s", path, strerror(-rc));
    return rc;
}
