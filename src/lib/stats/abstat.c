/*
 * abstat.c - the statistic of `benchlab ab`: paired block log-ratios,
 * grouped by process pair, to one interval of log(NEW/OLD).
 *
 * Why this shape (docs/ab.md has the measurements):
 *  - a block (ABBA or BAAB, about 1 ms a batch) gives one log-ratio in
 *    which the machine's drift cancels to first order; what remains is
 *    noise that is heavy-tailed (a stray interrupt storm) and correlated
 *    from block to block (frequency and cache states wander slowly);
 *  - batches of one process share its code and data layout, so blocks of
 *    one process pair are not independent of each other: the pair has an
 *    offset of its own, and only pairs are independent units.
 * So each pair is reduced to a robust mean (20% trimmed) and the pairs are
 * combined as a random-effects meta-analysis (DerSimonian-Laird weights)
 * with the Hartung-Knapp interval, Student's t with (pairs - 1) degrees of
 * freedom. With equal weights that is exactly the one-sample t test on
 * pair means: its error rate is nominal whatever the variance within and
 * between pairs and whatever the autocorrelation within a pair. The
 * within-pair variances (winsorized, inflated for lag-1 autocorrelation)
 * are pooled into one per-block noise and only weight pairs by their
 * number of clean blocks.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/ab.h"
#include "benchlab/stats.h"

#define TRIM 0.2
/* Smallest within-pair variance (log units squared): keeps weights finite
 * when a pair's blocks are identical (a coarse clock, simulated data). */
#define MIN_VAR 1e-14

double bl_ab_block_log_ratio(const double x[4], bool b_first)
{
    double a = b_first ? x[1] + x[2] : x[0] + x[3];
    double b = b_first ? x[0] + x[3] : x[1] + x[2];
    return 0.5 * (b - a);
}

/* Student's t (bl_stats_t_quantile) lives in interval.c. */

/* ---- one group ----------------------------------------------------------------- */

/*
 * Trimmed mean and its variance for d[0..m) in time order (Yuen: the
 * winsorized variance over h(h-1), h the values kept), times the
 * inflation (1+r)/(1-r) of a lag-1 autocorrelation r of the winsorized
 * series (r clipped to [0, 0.8]: a negative r is not trusted to shrink it).
 */
static int group_mean(const double *d, size_t m, double *mean, double *var)
{
    double *s = malloc(m * sizeof *s);
    double *w = malloc(m * sizeof *w);
    if (!s || !w) {
        free(s);
        free(w);
        return -ENOMEM;
    }
    memcpy(s, d, m * sizeof *s);
    bl_stats_sort(s, m);
    size_t g = (size_t)floor(TRIM * (double)m);
    size_t h = m - 2 * g;
    double sum = 0;
    for (size_t i = g; i < m - g; i++)
        sum += s[i];
    *mean = sum / (double)h;
    double lo = s[g], hi = s[m - g - 1];
    double wmean = 0;
    for (size_t i = 0; i < m; i++) {
        w[i] = d[i] < lo ? lo : d[i] > hi ? hi : d[i];
        wmean += w[i];
    }
    wmean /= (double)m;
    double ss = 0, lag = 0;
    for (size_t i = 0; i < m; i++) {
        ss += (w[i] - wmean) * (w[i] - wmean);
        if (i + 1 < m)
            lag += (w[i] - wmean) * (w[i + 1] - wmean);
    }
    double r = ss > 0 ? lag / ss : 0;
    if (r < 0)
        r = 0;
    if (r > 0.8)
        r = 0.8;
    double v = h > 1 ? ss / ((double)h * (double)(h - 1)) : ss;
    v *= (1 + r) / (1 - r);
    *var = v > MIN_VAR ? v : MIN_VAR;
    free(s);
    free(w);
    return 0;
}

/* ---- across groups --------------------------------------------------------------- */

int bl_ab_estimate_groups(const double *d, const size_t *n_per_group, size_t n_groups,
                          double confidence, bl_ab_estimate *out)
{
    memset(out, 0, sizeof *out);
    out->confidence = confidence;
    out->log_ratio = out->log_lo = out->log_hi = NAN;
    out->ratio = out->lo = out->hi = NAN;
    out->df = NAN;
    if (!(confidence > 0 && confidence < 1))
        return -EINVAL;
    double *y = malloc((n_groups ? n_groups : 1) * sizeof *y);
    double *v = malloc((n_groups ? n_groups : 1) * sizeof *v);
    size_t *mk = malloc((n_groups ? n_groups : 1) * sizeof *mk);
    if (!y || !v || !mk) {
        free(y);
        free(v);
        free(mk);
        return -ENOMEM;
    }
    size_t k = 0, off = 0;
    for (size_t gi = 0; gi < n_groups; gi++) {
        size_t m = n_per_group[gi];
        if (m >= BL_AB_MIN_BLOCKS_PER_GROUP) {
            int err = group_mean(d + off, m, &y[k], &v[k]);
            if (err) {
                free(y);
                free(v);
                free(mk);
                return err;
            }
            mk[k++] = m;
            out->n_blocks += m;
        }
        off += m;
    }
    out->n_groups = k;
    if (k < BL_AB_MIN_GROUPS) {
        free(y);
        free(v);
        free(mk);
        return BL_EUNSUPPORTED;
    }
    /* One noise per block for all pairs (the same benchmark on the same
     * machine), pooled over the pairs' own estimates: a pair's variance is
     * that over its block count. Weights estimated pair by pair from ~40
     * noisy blocks would make the interval slightly liberal; pooled, equal
     * block counts give equal weights and the exact t test on pair means. */
    double pooled = 0;
    for (size_t i = 0; i < k; i++)
        pooled += v[i] * (double)mk[i] * (double)mk[i];
    pooled /= (double)out->n_blocks;
    for (size_t i = 0; i < k; i++) {
        v[i] = pooled / (double)mk[i];
        if (v[i] < MIN_VAR)
            v[i] = MIN_VAR;
    }
    free(mk);
    /* DerSimonian-Laird: the between-group variance by moments */
    double sw = 0, swy = 0, sw2 = 0;
    for (size_t i = 0; i < k; i++) {
        double w = 1 / v[i];
        sw += w;
        sw2 += w * w;
        swy += w * y[i];
    }
    double ybar = swy / sw, q = 0;
    for (size_t i = 0; i < k; i++)
        q += (y[i] - ybar) * (y[i] - ybar) / v[i];
    double c = sw - sw2 / sw;
    double tau2 = c > 0 ? (q - (double)(k - 1)) / c : 0;
    if (!(tau2 > 0))
        tau2 = 0;
    /* Hartung-Knapp: the weighted spread of the groups around the mean
     * estimates the variance of the mean, with k - 1 degrees of freedom */
    double sws = 0, swsy = 0;
    for (size_t i = 0; i < k; i++) {
        double w = 1 / (v[i] + tau2);
        sws += w;
        swsy += w * y[i];
    }
    double mu = swsy / sws, hk = 0;
    for (size_t i = 0; i < k; i++)
        hk += (y[i] - mu) * (y[i] - mu) / (v[i] + tau2);
    double var_mu = hk / ((double)(k - 1) * sws);
    double t = bl_stats_t_quantile(1 - (1 - confidence) / 2, (double)(k - 1));
    double half = t * sqrt(var_mu);
    out->log_ratio = mu;
    out->log_lo = mu - half;
    out->log_hi = mu + half;
    out->ratio = exp(mu);
    out->lo = exp(out->log_lo);
    out->hi = exp(out->log_hi);
    out->df = (double)(k - 1);
    out->tau2 = tau2;
    free(y);
    free(v);
    return 0;
}

enum bl_ab_verdict bl_ab_judge(const bl_ab_estimate *e, double threshold)
{
    if (isnan(e->log_ratio))
        return BL_AB_TOO_FEW;
    double limit = log1p(threshold > 0 ? threshold : 0);
    if (e->log_lo > 0 && e->log_ratio > limit)
        return BL_AB_SLOWER;
    if (e->log_hi < 0 && -e->log_ratio > limit)
        return BL_AB_FASTER;
    return BL_AB_SAME;
}

const char *bl_ab_verdict_name(enum bl_ab_verdict v)
{
    switch (v) {
    case BL_AB_SAME:
        return "same";
    case BL_AB_FASTER:
        return "faster";
    case BL_AB_SLOWER:
        return "slower";
    case BL_AB_TOO_FEW:
        return "too-few-blocks";
    case BL_AB_SKIPPED:
        return "skipped";
    default:
        return "error";
    }
}
