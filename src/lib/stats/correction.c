/*
 * correction.c - multiple-comparison correction: which of m hypotheses to
 * reject when they are tested together. Holm-Bonferroni's step-down keeps
 * the family-wise error rate (any false rejection) at alpha;
 * Benjamini-Hochberg's step-up keeps the expected share of false
 * rejections among the rejected at alpha. Used by compare's CI gate,
 * judge's verdicts and the report's comparisons with the baseline.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "benchlab/stats.h"

struct pidx {
    double p;
    size_t i;
};

/* Ascending p, ties in input order: the ranks are deterministic. */
static int by_pidx(const void *a, const void *b)
{
    const struct pidx *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

int bl_multiple_reject(const double *p, size_t n, double alpha, enum bl_correction correction,
                       unsigned char *reject)
{
    struct pidx *o = malloc((n ? n : 1) * sizeof *o);
    if (!o)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        o[i].p = isnan(p[i]) ? 1 : p[i];
        o[i].i = i;
        reject[i] = 0;
    }
    qsort(o, n, sizeof *o, by_pidx);
    if (correction == BL_CORRECTION_HOLM) {
        /* step down: the i-th smallest (0-based) against alpha / (n - i) */
        for (size_t i = 0; i < n && o[i].p <= alpha / (double)(n - i); i++)
            reject[o[i].i] = 1;
    } else if (correction == BL_CORRECTION_BH) {
        /* step up: the largest k with p_(k) <= k * alpha / n, and all below */
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (o[i].p <= alpha * (double)(i + 1) / (double)n)
                k = i + 1;
        for (size_t i = 0; i < k; i++)
            reject[o[i].i] = 1;
    } else {
        for (size_t i = 0; i < n; i++)
            reject[o[i].i] = o[i].p <= alpha;
    }
    free(o);
    return 0;
}
