/*
 * benchlab/bisect.h - which commit made it slower: a bisection of a git
 * range in which every step is a paired A/B comparison (benchlab/ab.h) of
 * the candidate's build against the good commit's, not one noisy run
 * (`benchlab bisect`, docs/ab.md, "Bisecting a regression").
 *
 * The commits between GOOD and BAD (first parent, GOOD excluded) are
 * checked out in temporary git worktrees under one temporary directory,
 * never in the user's checkout, and built there with the build command.
 * GOOD's build is the reference of every step. BAD is compared first: it
 * must be slower (its interval above 1 + threshold, else there is nothing
 * to find), and its most slowed benchmark is the one followed. A step is
 * decided by the three-way rule of Chromium's pinpoint: bad when the
 * interval of NEW/GOOD lies above the boundary, good when below, unclear
 * when it straddles it, and an unclear step is measured again with twice
 * the time (up to max_reruns times; then the point estimate decides, and
 * the step says so); a comparison without a verdict (too few clean
 * blocks) is measured again the same way. The boundary is the geometric middle of GOOD and BAD
 * (sqrt of BAD's ratio): a commit either carries the regression or not,
 * and the middle splits the two evenly. A commit whose build fails is
 * skipped, as `git bisect skip` does, and the search goes on around it.
 * Every worktree is removed at the end, after an error and after Ctrl-C.
 */
#ifndef BENCHLAB_BISECT_H
#define BENCHLAB_BISECT_H

#include <stddef.h>
#include <stdio.h>

#include "benchlab/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bl_bisect_options {
    const char *good, *bad; /* git revisions: GOOD is fast, BAD slower */
    const char *build;      /* a shell command run in each worktree, building the suite */
    const char *suite;      /* the suite's executable, relative to a worktree's top */
    const char *filter;     /* the benchmarks to follow (regex); NULL: all */
    const char *repo;       /* a directory of the git checkout; NULL: the current one */
    double threshold;       /* smallest slowdown of BAD that counts (relative); 0: 0.005 */
    double time_s;          /* ab's budget per benchmark and step; 0: 1 s */
    int max_reruns;         /* times an unclear step is measured again; <0: 0; default 2 */
    int metric;             /* enum bl_ab_metric */
} bl_bisect_options;

BL_API void bl_bisect_options_init(bl_bisect_options *options);

enum bl_bisect_verdict {
    BL_BISECT_GOOD,    /* below the boundary */
    BL_BISECT_BAD,     /* above it */
    BL_BISECT_SKIPPED, /* the build failed (message: its last lines) */
};

typedef struct bl_bisect_step {
    char commit[41];
    int verdict;          /* enum bl_bisect_verdict */
    double ratio, lo, hi; /* NEW/GOOD of the benchmark followed and its interval; NAN: skipped */
    int measurements;     /* ab comparisons it took (1 + reruns of an unclear step) */
    int unclear;          /* still unclear after the reruns: the point estimate decided */
    char *message;        /* why it was skipped; NULL */
} bl_bisect_step;

typedef struct bl_bisect_result {
    char good[41], bad[41]; /* the revisions resolved */
    char first_bad[41];     /* the first commit whose build is slower; "" when not found */
    char *bench;            /* the benchmark followed (BAD's most slowed) */
    double bad_ratio, bad_lo, bad_hi; /* BAD against GOOD */
    double boundary;                  /* the ratio that splits good from bad */
    double ratio, lo, hi;             /* at first_bad's step */
    size_t n_commits;                 /* in the range (GOOD excluded, BAD included) */
    size_t n_builds;                  /* builds made, GOOD's and BAD's included */
    size_t n_skipped;
    char *ambiguous;       /* when skips hide it: "the first bad commit is one of A..B" */
    bl_bisect_step *steps; /* in the order measured; BAD's comparison first */
    size_t n_steps;
    int interrupted; /* Ctrl-C: what was measured so far */
} bl_bisect_result;

/*
 * Bisect. `progress` (NULL: none) gets one line per action ("building
 * 3f7ec28", "3f7ec28: bad, 1.0412 [1.0301, 1.0523]"). *out receives the
 * result, also after an interruption (free with bl_bisect_result_destroy).
 * Returns 0; BL_EINTR when interrupted; or a negative error with one line
 * in err: BL_EUSAGE (a revision git does not know, GOOD not an ancestor of
 * BAD, an empty range), BL_ENOTFOUND (BAD is not slower than GOOD), -errno
 * or BL_EPROTO when GOOD's or BAD's build fails or is not a suite.
 */
BL_API int bl_bisect_run(const bl_bisect_options *options,
                         void (*progress)(void *ctx, const char *line), void *ctx,
                         bl_bisect_result **out, char *err, size_t err_size);
BL_API void bl_bisect_result_destroy(bl_bisect_result *result);

/* The result for a person: the first bad commit with its ratio and
 * interval, then every step. 0 or -EIO. */
BL_API int bl_bisect_write_text(FILE *f, const bl_bisect_result *result);
/* {"commit": ..., "ratio": ..., "lo": ..., "hi": ..., "benchmark": ...,
 * "builds": ..., "steps": [{"commit", "verdict", "ratio", "lo", "hi",
 * "measurements"}...]} (docs/ab.md). 0 or -EIO. */
BL_API int bl_bisect_write_json(FILE *f, const bl_bisect_result *result);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_BISECT_H */
