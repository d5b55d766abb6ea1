/*
 * changepoint.c - change points in a series of run values: binary
 * segmentation with a permutation test of the largest multi-scale shift, then the
 * levels, the merging of changes below the threshold, and the outliers
 * (benchlab/changes.h says the method; docs/store.md, "Change points",
 * says why and what it was measured to do).
 *
 * Written here rather than taken from a library: no Debian-packaged C
 * library has a change-point test whose false alarms stay at its alpha
 * (the choice of the split has to be inside the null), and the shuffles
 * must be seeded from the data's position so that a history gives one
 * answer on every call.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/changes.h"
#include "benchlab/stats.h"

void bl_changes_options_init(bl_changes_options *o)
{
    o->alpha = 0.001;
    o->threshold = 0.01;
    o->min_runs = 3;
    o->permutations = 4999;
    o->outlier_k = 5;
}

static int fill_defaults(const bl_changes_options *in, bl_changes_options *o)
{
    bl_changes_options_init(o);
    if (!in)
        return 0;
    if (in->alpha < 0 || in->alpha >= 1 || isnan(in->alpha) || isnan(in->threshold) ||
        in->outlier_k < 0 || isnan(in->outlier_k) || in->min_runs == 1)
        return -EINVAL;
    if (in->alpha > 0)
        o->alpha = in->alpha;
    if (in->threshold >= 0)
        o->threshold = in->threshold;
    if (in->min_runs)
        o->min_runs = in->min_runs;
    if (in->permutations)
        o->permutations = in->permutations;
    if (in->outlier_k > 0)
        o->outlier_k = in->outlier_k;
    return 0;
}

/* ---- the test of one stretch ---------------------------------------------------------- */

/*
 * The stretch's values as the test sees them: logs (a change is a ratio)
 * when all are positive, then winsorised at the median +- 5 robust
 * standard deviations (1.4826 MAD), so that one wild run moves a window's
 * mean by at most 5 sigma / min_runs. Exact counts (MAD 0) are kept whole.
 */
static int prepare(const double *x, size_t n, double *y)
{
    int positive = 1;
    for (size_t i = 0; i < n; i++)
        positive &= x[i] > 0;
    for (size_t i = 0; i < n; i++)
        y[i] = positive ? log(x[i]) : x[i];
    double *d = malloc(n * sizeof *d);
    if (!d)
        return -ENOMEM;
    double med = bl_stats_median(y, n);
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(y[i] - med);
    double bound = 5 * 1.4826 * bl_stats_median(d, n);
    free(d);
    if (bound > 0)
        for (size_t i = 0; i < n; i++)
            y[i] = y[i] > med + bound ? med + bound : y[i] < med - bound ? med - bound : y[i];
    return 0;
}

/*
 * The largest standardised difference of means over every split k and
 * every window scale: the w values before k against the w after (fewer at
 * the ends, at least m each side), for w = m, 2m, 4m, ... and the whole
 * stretch. |mean_after - mean_before| * sqrt(nb na / (nb + na)); the
 * scale of the values is the same for every shuffle, so it is left out.
 * The whole-stretch windows are binary segmentation's split; the short
 * ones find a level that moved and came back (a regression fixed a few
 * commits later), which the whole-stretch split dilutes. `sum` is scratch
 * of n + 1.
 */
static double max_score(const double *y, size_t n, size_t m, double *sum, size_t *at)
{
    sum[0] = 0;
    for (size_t i = 0; i < n; i++)
        sum[i + 1] = sum[i] + y[i];
    double best = -1;
    for (size_t w = m;; w = w * 2 < n ? w * 2 : n) {
        for (size_t k = m; k + m <= n; k++) {
            size_t lo = k > w ? k - w : 0, hi = k + w < n ? k + w : n;
            double nb = (double)(k - lo), na = (double)(hi - k);
            double d = (sum[hi] - sum[k]) / na - (sum[k] - sum[lo]) / nb;
            double z = fabs(d) * sqrt(nb * na / (nb + na));
            if (z > best) {
                best = z;
                if (at)
                    *at = k;
            }
        }
        if (w >= n)
            break;
    }
    return best;
}

/* The shuffles' generator: splitmix64, here rather than base's so that
 * stats stays pure numerics and a history's answer is tied to this file
 * alone (a new generator elsewhere must not move anyone's change points). */
struct shuffler {
    uint64_t state;
};

static uint64_t next64(struct shuffler *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform index in [0, bound): the top 32 bits times bound (Lemire's
 * multiply-shift; the bias is below bound / 2^32, nothing at these sizes). */
static size_t below(struct shuffler *g, size_t bound)
{
    return (size_t)(((next64(g) >> 32) * (uint64_t)bound) >> 32);
}

/*
 * The best split of x[0..n) and its permutation p: (1 + the shuffles
 * scoring at least as high) / (1 + shuffles). The shuffles stop once p
 * cannot reach alpha (*p is then a lower bound above alpha). `seed` picks
 * the shuffles. 0, -ENOMEM; *p = 1 when the stretch has no split.
 */
static int test_stretch(const double *x, size_t n, const bl_changes_options *o, uint64_t seed,
                        size_t *at, double *p)
{
    *p = 1;
    *at = 0;
    size_t m = o->min_runs;
    if (n < 2 * m)
        return 0;
    double *y = malloc(n * sizeof *y), *sum = malloc((n + 1) * sizeof *sum);
    int rc = y && sum ? prepare(x, n, y) : -ENOMEM;
    if (rc) {
        free(y);
        free(sum);
        return rc;
    }
    double observed = max_score(y, n, m, sum, at);
    if (!(observed > 0)) { /* every value the same: nothing moved */
        free(y);
        free(sum);
        return 0;
    }
    /* Evidence too strong to need the shuffles (a long history, a clear
     * step): Hoeffding's bound, which holds for sampling without
     * replacement, gives each window of a shuffle P(z >= t) <= 2 exp(-t^2
     * / R^2) (R the values' range; the larger side is at least half the
     * window), so over every window p <= 2 W exp(-t^2 / R^2). */
    double lo = y[0], hi = y[0];
    for (size_t i = 1; i < n; i++) {
        lo = y[i] < lo ? y[i] : lo;
        hi = y[i] > hi ? y[i] : hi;
    }
    size_t scales = 1;
    for (size_t w = m; w < n; w *= 2)
        scales++;
    double bound = 2 * (double)(scales * (n - 2 * m + 1)) *
                   exp(-observed * observed / ((hi - lo) * (hi - lo)));
    if (bound <= o->alpha) {
        *p = bound;
        free(y);
        free(sum);
        return 0;
    }
    /* a shuffle ties the observed score when equal to rounding */
    double bar = observed * (1 - 1e-9);
    size_t b = o->permutations, hits = 0, done = 0;
    double stop = o->alpha * (double)(b + 1) - 1; /* more hits than this: p > alpha */
    struct shuffler g = {seed};
    for (; done < b; done++) {
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = below(&g, i + 1);
            double t = y[i];
            y[i] = y[j];
            y[j] = t;
        }
        if (max_score(y, n, m, sum, NULL) >= bar && (double)++hits > stop) {
            done++;
            break;
        }
    }
    *p = (double)(1 + hits) / (double)(1 + done);
    if (done < b && *p <= o->alpha) /* stopped early: p is above alpha whatever the rest */
        *p = nextafter(o->alpha, 1);
    free(y);
    free(sum);
    return 0;
}

/* ---- segmentation ------------------------------------------------------------------------ */

struct cut {
    size_t at;
    double p;
};

struct cuts {
    struct cut *c;
    size_t n, cap;
};

static int add_cut(struct cuts *cs, size_t at, double p)
{
    if (cs->n == cs->cap) {
        size_t nc = cs->cap ? cs->cap * 2 : 8;
        struct cut *c = realloc(cs->c, nc * sizeof *c);
        if (!c)
            return -ENOMEM;
        cs->c = c;
        cs->cap = nc;
    }
    cs->c[cs->n++] = (struct cut){at, p};
    return 0;
}

/* The stretch x[a..b) and, where it splits, its halves (an explicit stack
 * rather than recursion: a history of 10,000 runs may split many times). */
static int segment(const double *x, size_t n, const bl_changes_options *o, struct cuts *cs)
{
    struct span {
        size_t a, b;
    } *stack = malloc((n + 1) * sizeof *stack);
    if (!stack)
        return -ENOMEM;
    size_t top = 0;
    stack[top++] = (struct span){0, n};
    int rc = 0;
    while (!rc && top) {
        struct span s = stack[--top];
        size_t at;
        double p;
        uint64_t seed = 0x6368616e6765ULL ^ ((uint64_t)s.a << 32) ^ (uint64_t)(s.b - s.a);
        rc = test_stretch(x + s.a, s.b - s.a, o, seed, &at, &p);
        if (rc || p > o->alpha)
            continue;
        rc = add_cut(cs, s.a + at, p);
        stack[top++] = (struct span){s.a, s.a + at};
        stack[top++] = (struct span){s.a + at, s.b};
    }
    free(stack);
    return rc;
}

static int by_at(const void *a, const void *b)
{
    size_t x = ((const struct cut *)a)->at, y = ((const struct cut *)b)->at;
    return (x > y) - (x < y);
}

/* ---- levels and outliers ---------------------------------------------------------------- */

/* The median of x[a..b) without the outliers flagged in out_flag (NULL:
 * none), and its 95% interval (NAN below 6 values). n_used: the values. */
static int level(const double *x, size_t a, size_t b, const unsigned char *flag, double *med,
                 double *lo, double *hi, size_t *n_used)
{
    double *v = malloc((b - a + 1) * sizeof *v);
    if (!v)
        return -ENOMEM;
    size_t k = 0;
    for (size_t i = a; i < b; i++)
        if (!flag || !flag[i])
            v[k++] = x[i];
    *n_used = k;
    *med = *lo = *hi = NAN;
    int rc = 0;
    if (k) {
        rc = bl_stats_median_interval(v, k, 0.95, med, lo, hi);
        if (rc == -EDOM)
            rc = 0;
    }
    free(v);
    return rc;
}

/* Flag in x[a..b) the values more than k robust sigmas and more than
 * threshold away from the stretch's median. */
static int flag_outliers(const double *x, size_t a, size_t b, const bl_changes_options *o,
                         unsigned char *flag)
{
    size_t n = b - a;
    double *d = malloc((n + 1) * sizeof *d);
    if (!d)
        return -ENOMEM;
    double med = bl_stats_median(x + a, n);
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(x[a + i] - med);
    double sigma = 1.4826 * bl_stats_median(d, n);
    for (size_t i = a; i < b; i++) {
        double dev = fabs(x[i] - med);
        if (dev > o->outlier_k * sigma && med != 0 && dev / fabs(med) > o->threshold)
            flag[i] = 1;
    }
    free(d);
    return 0;
}

static double magnitude(double before, double after)
{
    if (!(before > 0) || isnan(after))
        return INFINITY; /* no ratio to weigh: keep the change */
    return fabs(after / before - 1);
}

int bl_changes_detect(const double *x, size_t n, const bl_changes_options *options, bl_change **out,
                      size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    bl_changes_options o;
    if (fill_defaults(options, &o))
        return -EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return -EINVAL;
    if (!n)
        return 0;
    struct cuts cs = {0};
    unsigned char *flag = calloc(n, 1);
    int rc = flag ? segment(x, n, &o, &cs) : -ENOMEM;
    if (!rc && cs.n > 1)
        qsort(cs.c, cs.n, sizeof *cs.c, by_at);
    /* merge the changes below the threshold, the smallest first: each
     * merge changes its neighbours' levels, so weigh again after it */
    while (!rc && cs.n) {
        size_t worst = cs.n;
        double worst_m = INFINITY;
        for (size_t i = 0; i < cs.n && !rc; i++) {
            size_t a = i ? cs.c[i - 1].at : 0, b = i + 1 < cs.n ? cs.c[i + 1].at : n, u;
            double m1, m2, lo, hi;
            rc = level(x, a, cs.c[i].at, NULL, &m1, &lo, &hi, &u);
            if (!rc)
                rc = level(x, cs.c[i].at, b, NULL, &m2, &lo, &hi, &u);
            double mag = magnitude(m1, m2);
            if (!rc && mag < o.threshold && mag < worst_m) {
                worst_m = mag;
                worst = i;
            }
        }
        if (rc || worst == cs.n)
            break;
        memmove(cs.c + worst, cs.c + worst + 1, (cs.n - worst - 1) * sizeof *cs.c);
        cs.n--;
    }
    for (size_t i = 0; i <= cs.n && !rc; i++)
        rc = flag_outliers(x, i ? cs.c[i - 1].at : 0, i < cs.n ? cs.c[i].at : n, &o, flag);
    size_t n_flag = 0;
    for (size_t i = 0; i < n; i++)
        n_flag += flag[i];
    bl_change *ch = rc ? NULL : calloc(cs.n + n_flag + 1, sizeof *ch);
    if (!rc && !ch)
        rc = -ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < cs.n && !rc; i++) {
        size_t a = i ? cs.c[i - 1].at : 0, b = i + 1 < cs.n ? cs.c[i + 1].at : n;
        bl_change *c = &ch[k++];
        c->kind = BL_CHANGE_STEP;
        c->at = cs.c[i].at;
        c->p = cs.c[i].p;
        rc = level(x, a, c->at, flag, &c->before, &c->before_lo, &c->before_hi, &c->n_before);
        if (!rc)
            rc = level(x, c->at, b, flag, &c->after, &c->after_lo, &c->after_hi, &c->n_after);
        c->ratio = c->before != 0 ? c->after / c->before : NAN;
    }
    for (size_t s = 0; s <= cs.n && !rc; s++) {
        size_t a = s ? cs.c[s - 1].at : 0, b = s < cs.n ? cs.c[s].at : n;
        double med = NAN, lo, hi;
        size_t u;
        for (size_t i = a; i < b && !rc; i++) {
            if (!flag[i])
                continue;
            if (isnan(med))
                rc = level(x, a, b, flag, &med, &lo, &hi, &u);
            bl_change *c = &ch[k++];
            *c = (bl_change){.kind = BL_CHANGE_OUTLIER,
                             .at = i,
                             .before = med,
                             .after = x[i],
                             .before_lo = NAN,
                             .before_hi = NAN,
                             .after_lo = NAN,
                             .after_hi = NAN,
                             .p = NAN,
                             .n_before = u,
                             .n_after = 1};
            c->ratio = med != 0 ? x[i] / med : NAN;
        }
    }
    free(cs.c);
    free(flag);
    if (rc) {
        free(ch);
        return rc;
    }
    /* by position; a step and an outlier at one index: the step first */
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && (ch[j - 1].at > ch[j].at ||
                                     (ch[j - 1].at == ch[j].at && ch[j - 1].kind > ch[j].kind));
             j--) {
            bl_change t = ch[j];
            ch[j] = ch[j - 1];
            ch[j - 1] = t;
        }
    if (!k) {
        free(ch);
        ch = NULL;
    }
    *out = ch;
    *n_out = k;
    return 0;
}
