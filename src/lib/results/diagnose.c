/*
 * diagnose.c - drift and multimodality of one benchmark's batches
 * (bl_bench_diagnose), for the run's table and JSON, the HTML report and
 * any program using the library.
 *
 * Drift within launches: each launch's clean batches divided by that
 * launch's median, the first thirds pooled against the last thirds,
 * Mann-Whitney's U (the rule the report had, moved here). Levels that
 * differ between launches are the variance between processes, which the
 * interval over launches already carries; they are neither drift nor modes.
 *
 * Modes: bl_stats_mvalue over the batches, each divided by its launch's
 * mean, and over the launch centres when there are enough of them. Modes
 * closer than BL_MODES_MIN_PCT are not said, as drift below
 * BL_DRIFT_MIN_PCT is not: a very steady benchmark whose batches step by
 * a fraction of a percent (the clock's frequency, a neighbour on the
 * other core) has spikes a histogram calls modes, and they say nothing
 * of the code.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/results.h"
#include "benchlab/stats.h"

/* Clean per-op values of launch l, in the order measured: NaN (no
 * repetitions) left out, below zero taken as zero (as the report draws
 * them). Returns the count or -ENOMEM; caller frees *out. */
static long clean_values(const bl_launch *l, double **out)
{
    double *v;
    long n = bl_launch_per_op(l, &v);
    if (n < 0)
        return n;
    long m = 0;
    for (long i = 0; i < n; i++)
        if (!isnan(v[i]))
            v[m++] = v[i] > 0 ? v[i] : 0;
    *out = v;
    return m;
}

static int modality_judge(const double *xs, size_t n, bool *tested, bool *multimodal,
                          bl_modality *m)
{
    int rc = n >= BL_MODALITY_MIN_N ? bl_stats_mvalue(xs, n, m) : -EDOM;
    if (rc)
        return rc == -ENOMEM ? rc : 0;
    *tested = true;
    /* modes[] is ascending and holds the most prominent; a lowest mode at
     * or below zero (an empty loop's time, overhead subtracted) has no
     * relative distance, and its modes are said as they are */
    double apart = 0;
    if (m->n_modes >= 2) {
        double lo = m->modes[0], hi = m->modes[m->n_modes - 1];
        apart = lo > 0 ? 100.0 * (hi / lo - 1) : hi > lo ? INFINITY : 0;
    }
    *multimodal = m->mvalue >= BL_MVALUE_BIMODAL && m->n_peaks >= 2 && apart >= BL_MODES_MIN_PCT;
    return 0;
}

int bl_bench_diagnose(const bl_bench_result *b, bl_diagnosis *out)
{
    memset(out, 0, sizeof *out);
    out->drift_pct = out->drift_p = NAN;
    out->batches.mvalue = out->launches.mvalue = NAN;
    size_t total = 0;
    for (size_t j = 0; j < b->n_launches; j++)
        total += b->launches[j].n_samples;
    size_t nl = b->n_launches ? b->n_launches : 1;
    double *first = malloc((total + 1) * sizeof *first);
    double *last = malloc((total + 1) * sizeof *last);
    double *norm = malloc((total + 1) * sizeof *norm);
    double *means = malloc(nl * sizeof *means), *centres = malloc(nl * sizeof *centres);
    int rc = first && last && norm && means && centres ? 0 : -ENOMEM;
    size_t nf = 0, nn = 0, n_means = 0, n_centres = 0;
    for (size_t j = 0; !rc && j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped)
            continue;
        if (!isnan(l->ns_per_op))
            centres[n_centres++] = l->ns_per_op;
        double *v;
        long k = clean_values(l, &v);
        if (k < 0) {
            rc = -ENOMEM;
            break;
        }
        size_t n = (size_t)k, third = n / 3;
        double med = bl_stats_median(v, n), mean = 0;
        for (size_t i = 0; i < n; i++)
            mean += v[i];
        mean = n ? mean / (double)n : NAN;
        if (third >= 3 && med > 0) {
            for (size_t i = 0; i < third; i++) {
                first[nf] = v[i] / med;
                last[nf++] = v[n - third + i] / med;
            }
        }
        if (mean > 0) {
            means[n_means++] = mean;
            for (size_t i = 0; i < n; i++)
                norm[nn++] = v[i] / mean;
        }
        free(v);
    }
    double p;
    if (!rc && nf >= 6) {
        int t = bl_stats_utest(first, nf, last, nf, &p);
        if (t == -ENOMEM)
            rc = t;
        out->drift_tested = t == 0 || t == -EDOM;
        out->drift_n = nf;
        if (t == 0) {
            double m1 = bl_stats_median(first, nf), m3 = bl_stats_median(last, nf);
            out->drift_pct = 100.0 * (m3 / m1 - 1);
            out->drift_p = p;
            out->drift = p < BL_DRIFT_MAX_P && fabs(out->drift_pct) >= BL_DRIFT_MIN_PCT;
        } else if (t == -EDOM) { /* every value equal: no drift */
            out->drift_pct = 0;
            out->drift_p = 1;
        }
    }
    if (!rc) {
        rc =
            modality_judge(norm, nn, &out->batches_tested, &out->batches_multimodal, &out->batches);
        double scale = bl_stats_median(means, n_means);
        for (size_t q = 0; q < out->batches.n_modes; q++)
            out->batches.modes[q] *= scale;
        if (!rc)
            rc = modality_judge(centres, n_centres, &out->launches_tested,
                                &out->launches_multimodal, &out->launches);
    }
    free(first);
    free(last);
    free(norm);
    free(means);
    free(centres);
    return rc;
}
