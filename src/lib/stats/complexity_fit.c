/*
 * complexity_fit.c - fitting times per op to the asymptotic curves, as Google
 * Benchmark does (its complexity.cc): for each curve g the coefficient of
 * t = c g(n) by least squares through the origin, and the normalised RMS
 * of the residuals (RMS / mean time) as the measure of the fit. Through
 * the origin, because a complexity claims how the cost grows, not where
 * it starts; normalised, so that the RMS of fits of different benchmarks
 * compare. Pure functions; the grouping of results by size lives in
 * results/complexity_groups.c.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "benchlab/stats.h"

double bl_complexity_curve(int curve, double n)
{
    switch (curve) {
    case BL_O1:
        return 1;
    case BL_OLOGN:
        return log2(n);
    case BL_ON:
        return n;
    case BL_ONLOGN:
        return n * log2(n);
    case BL_ON2:
        return n * n;
    case BL_ON3:
        return n * n * n;
    default:
        return NAN;
    }
}

const char *bl_complexity_name(int curve)
{
    switch (curve) {
    case BL_O1:
        return "O(1)";
    case BL_OLOGN:
        return "O(log n)";
    case BL_ON:
        return "O(n)";
    case BL_ONLOGN:
        return "O(n log n)";
    case BL_ON2:
        return "O(n^2)";
    case BL_ON3:
        return "O(n^3)";
    case BL_OUSER:
        return "O(f(n))";
    default:
        return "-";
    }
}

/* One curve; -EINVAL when g is zero everywhere (log n at n = 1 only). */
static int fit_one(int curve, const double *n, const double *t, const double *user_g, size_t count,
                   bl_complexity_fit *out)
{
    double sum_tg = 0, sum_gg = 0, sum_t = 0;
    for (size_t i = 0; i < count; i++) {
        double g = curve == BL_OUSER ? user_g[i] : bl_complexity_curve(curve, n[i]);
        if (!isfinite(g))
            return -EINVAL;
        sum_tg += t[i] * g;
        sum_gg += g * g;
        sum_t += t[i];
    }
    if (!(sum_gg > 0))
        return -EINVAL;
    double c = sum_tg / sum_gg, sq = 0;
    for (size_t i = 0; i < count; i++) {
        double g = curve == BL_OUSER ? user_g[i] : bl_complexity_curve(curve, n[i]);
        double r = t[i] - c * g;
        sq += r * r;
    }
    double mean = sum_t / (double)count;
    out->curve = curve;
    out->coefficient = c;
    out->rms = mean > 0 ? sqrt(sq / (double)count) / mean : (sq > 0 ? INFINITY : 0);
    return 0;
}

int bl_stats_fit_complexity(int mode, const double *n, const double *t, const double *user_g,
                            size_t count, bl_complexity_fit *best, bl_complexity_fit *all,
                            size_t *n_all)
{
    if (n_all)
        *n_all = 0;
    if (count == 0)
        return -EINVAL;
    for (size_t i = 0; i < count; i++)
        if (!(n[i] >= 1) || !isfinite(n[i]) || !isfinite(t[i]))
            return -EINVAL;
    int first = mode, last = mode;
    if (mode == BL_COMPLEXITY_AUTO) {
        first = BL_O1;
        last = user_g ? BL_OUSER : BL_ON3;
    } else if (mode < BL_O1 || mode > BL_OUSER || (mode == BL_OUSER && !user_g)) {
        return -EINVAL;
    }
    size_t k = 0;
    int found = 0;
    for (int curve = first; curve <= last; curve++) {
        bl_complexity_fit f;
        if (fit_one(curve, n, t, user_g, count, &f) != 0)
            continue;
        if (all)
            all[k] = f;
        k++;
        if (!found || f.rms < best->rms)
            *best = f;
        found = 1;
    }
    if (n_all)
        *n_all = k;
    return found ? 0 : -EINVAL;
}
