/*
 * github.h - GitHub Actions' workflow commands as the gates write them
 * (format/github.c): the annotations of judge, ab and compare's gate,
 * worst first and within what GitHub shows of a step (docs/ci.md).
 */
#ifndef BENCHLAB_FORMAT_GITHUB_H
#define BENCHLAB_FORMAT_GITHUB_H

#include <stddef.h>
#include <stdio.h>

/* GitHub shows 10 annotations of each kind per step. */
#define BL__GITHUB_SHOWN 10

enum bl__github_level { BL__GITHUB_WARNING, BL__GITHUB_ERROR };

struct bl__github_note {
    int level;     /* enum bl__github_level */
    double weight; /* worst first: a failure INFINITY, a slowdown its ratio */
    char *title, *message;
};

/* The annotations of one command, collected, then written at once. */
struct bl__github_notes {
    struct bl__github_note *v;
    size_t n, cap;
    int oom;
};

/* Add one (printf message). Out of memory is remembered and reported by
 * bl__github_notes_write, which then writes what it has. */
void bl__github_note_add(struct bl__github_notes *g, int level, double weight, const char *title,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Write them as `::error title=...::message` / `::warning ...` lines,
 * errors first, each kind worst first; of a kind with more than GitHub
 * shows, the worst nine and one line saying how many more (`what` names
 * them: "regressions"). Frees the notes. 0, -ENOMEM (written anyway) or
 * -EIO.
 */
int bl__github_notes_write(FILE *f, struct bl__github_notes *g, const char *errors_what,
                           const char *warnings_what);

#endif /* BENCHLAB_FORMAT_GITHUB_H */
