/*
 * modality.c - is a sample multimodal? Brendan Gregg's mvalue as
 * BenchmarkDotNet computes it (bl_stats_mvalue), and the peaks behind it.
 *
 * The mvalue of a histogram is the total variation of its bin counts (a
 * zero bin added at each end) divided by the highest count: 2 for one hump,
 * about 4 for two, 2k for k separated humps. BenchmarkDotNet's rule: drop
 * outliers, start with Scott's bin width 3.5 s / n^(1/3), and double it
 * until it exceeds the range; the mvalue is the largest over those widths.
 * (Our outlier fences stand on the deciles, not on Tukey's quartiles as
 * theirs: see bl_stats_mvalue.) Their thresholds: above 2.8
 * "can have several modes", above 3.2 bimodal, above 4.2 multimodal.
 *
 * A small histogram has ragged counts, and ragged counts add total
 * variation without any second mode; a long right tail (timing data)
 * adds bins of one or two values. So besides the mvalue we find the
 * peaks at the width that gave it, by topographic prominence (a peak's
 * height above the higher of the lowest points that separate it from any
 * higher peak, or from the ends), and keep those whose prominence is at
 * least BL_MODE_PROMINENCE of the highest count. bl_bench_diagnose calls a
 * sample multimodal only when both agree (docs/engine.md has the false-alarm
 * rates this gives on unimodal data).
 *
 * Written here rather than taken from a library: no Debian C library
 * offers it, and it is forty lines over a sorted array.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/stats.h"

#define N_SHIFTS 4

/* Histogram of sorted[0..n) from `lo` in bins of width w; counts has room
 * for nb bins. */
static void histogram(const double *sorted, size_t n, double lo, double w, size_t *counts,
                      size_t nb)
{
    memset(counts, 0, nb * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)floor((sorted[i] - lo) / w);
        counts[k < nb ? k : nb - 1]++;
    }
}

static double mvalue_of(const size_t *counts, size_t nb)
{
    size_t top = 0, sum = 0, prev = 0;
    for (size_t k = 0; k < nb; k++) {
        sum += counts[k] > prev ? counts[k] - prev : prev - counts[k];
        prev = counts[k];
        if (counts[k] > top)
            top = counts[k];
    }
    sum += prev; /* down to the empty bin after the last */
    return top ? (double)sum / (double)top : 0;
}

/* The peaks of counts[0..nb) whose prominence is at least `min_prom`:
 * their bin indices in pos[0..), ascending, at most `max` of them (the most
 * prominent when there are more). Returns how many were found in all. */
static size_t find_peaks(const size_t *counts, size_t nb, double min_prom, size_t *pos, size_t max,
                         double *prom_out)
{
    size_t found = 0;
    for (size_t k = 0; k < nb; k++) {
        size_t left = k ? counts[k - 1] : 0;
        if (counts[k] == 0 || counts[k] <= left)
            continue;
        /* a plateau counts once, at its first bin */
        size_t e = k;
        while (e + 1 < nb && counts[e + 1] == counts[k])
            e++;
        if (e + 1 < nb && counts[e + 1] > counts[k])
            continue;
        /* lowest point on each side before a higher bin or the end */
        size_t lmin = counts[k], rmin = counts[k];
        bool lhigher = false, rhigher = false;
        for (size_t j = k; j-- > 0;) {
            if (counts[j] > counts[k]) {
                lhigher = true;
                break;
            }
            if (counts[j] < lmin)
                lmin = counts[j];
        }
        for (size_t j = e + 1; j < nb; j++) {
            if (counts[j] > counts[k]) {
                rhigher = true;
                break;
            }
            if (counts[j] < rmin)
                rmin = counts[j];
        }
        if (!lhigher)
            lmin = 0; /* the empty bin before the first */
        if (!rhigher)
            rmin = 0;
        size_t base = lmin > rmin ? lmin : rmin;
        double prom = (double)(counts[k] - base);
        if (prom >= min_prom) {
            if (found < max) {
                pos[found] = (k + e) / 2;
                prom_out[found] = prom;
            } else {
                /* replace the least prominent kept, keeping positions ascending */
                size_t weakest = 0;
                for (size_t q = 1; q < max; q++)
                    if (prom_out[q] < prom_out[weakest])
                        weakest = q;
                if (prom > prom_out[weakest]) {
                    memmove(pos + weakest, pos + weakest + 1, (max - weakest - 1) * sizeof *pos);
                    memmove(prom_out + weakest, prom_out + weakest + 1,
                            (max - weakest - 1) * sizeof *prom_out);
                    pos[max - 1] = (k + e) / 2;
                    prom_out[max - 1] = prom;
                }
            }
            found++;
        }
        k = e;
    }
    return found;
}

int bl_stats_mvalue(const double *xs, size_t n, bl_modality *out)
{
    memset(out, 0, sizeof *out);
    out->mvalue = out->bin_width = NAN;
    if (n == 0)
        return -EINVAL;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return -ENOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(xs[i]))
            v[m++] = xs[i];
    bl_stats_sort(v, m);
    int rc = 0;
    size_t *counts = NULL;
    if (m < 4) {
        rc = -EDOM;
        goto done;
    }
    /* Fences 1.5 inter-decile ranges beyond the deciles. Not Tukey's on
     * the quartiles, as BenchmarkDotNet: those throw a minority mode away
     * (of 80% near 1 and 20% near 2, Q3 is near 1 and the fence too). */
    double q1 = bl_stats_quantile_sorted(v, m, 0.1), q3 = bl_stats_quantile_sorted(v, m, 0.9);
    double flo = q1 - 1.5 * (q3 - q1), fhi = q3 + 1.5 * (q3 - q1);
    size_t a = 0, b = m;
    while (a < b && v[a] < flo)
        a++;
    while (b > a && v[b - 1] > fhi)
        b--;
    const double *c = v + a;
    size_t nc = b - a;
    out->n = nc;
    double mean = 0, ss = 0;
    for (size_t i = 0; i < nc; i++)
        mean += c[i];
    mean /= (double)nc;
    for (size_t i = 0; i < nc; i++)
        ss += (c[i] - mean) * (c[i] - mean);
    double sd = nc > 1 ? sqrt(ss / (double)(nc - 1)) : 0;
    double range = c[nc - 1] - c[0];
    if (nc < 4 || !(range > 0) || !(sd > 0)) {
        /* all (clean) values equal: one mode */
        out->mvalue = 2;
        out->bin_width = 0;
        out->n_modes = 1;
        out->modes[0] = c[0];
        goto done;
    }
    double w = 3.5 * sd / cbrt((double)nc); /* Scott's rule */
    size_t nb_max = (size_t)floor(range / w) + 2;
    counts = malloc(nb_max * sizeof *counts);
    if (!counts) {
        rc = -ENOMEM;
        goto done;
    }
    /* Each width on N_SHIFTS grids shifted by a fraction of a bin: on one
     * grid a mode may straddle two bins and look like a shoulder (two modes
     * 2x apart then read 3.0 instead of 4). */
    double best = -1, best_w = w, best_lo = c[0];
    for (;;) {
        for (int k = 0; k < N_SHIFTS; k++) {
            double lo = c[0] - w * k / N_SHIFTS;
            size_t nb = (size_t)floor((c[nc - 1] - lo) / w) + 1;
            histogram(c, nc, lo, w, counts, nb);
            double mv = mvalue_of(counts, nb);
            if (mv > best) {
                best = mv;
                best_w = w;
                best_lo = lo;
            }
        }
        if (w > range)
            break;
        w *= 2;
    }
    out->mvalue = best;
    out->bin_width = best_w;
    size_t nb = (size_t)floor((c[nc - 1] - best_lo) / best_w) + 1, pos[BL_MAX_MODES], top = 0;
    double prom[BL_MAX_MODES];
    histogram(c, nc, best_lo, best_w, counts, nb);
    for (size_t k = 0; k < nb; k++)
        if (counts[k] > top)
            top = counts[k];
    out->n_peaks =
        find_peaks(counts, nb, BL_MODE_PROMINENCE * (double)top, pos, BL_MAX_MODES, prom);
    out->n_modes = out->n_peaks < BL_MAX_MODES ? out->n_peaks : BL_MAX_MODES;
    for (size_t q = 0; q < out->n_modes; q++) {
        /* the median of the values in the peak's bin: nearer the mode than
         * the bin's centre when the bin is wide */
        double blo = best_lo + (double)pos[q] * best_w, bhi = blo + best_w;
        size_t i = 0, j;
        while (i < nc && c[i] < blo)
            i++;
        j = i;
        while (j < nc && (c[j] < bhi || (pos[q] == nb - 1 && j < nc)))
            j++;
        out->modes[q] = j > i ? bl_stats_quantile_sorted(c + i, j - i, 0.5) : blo + best_w / 2;
    }
done:
    free(counts);
    free(v);
    return rc;
}
