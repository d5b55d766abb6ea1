/*
 * sim.c - change-point detection (bl_changes_detect) on synthetic
 * histories: false alarms on noise, power on planted steps, regressions
 * fixed a few runs later, outliers, and the time per benchmark at 100,
 * 1,000 and 10,000 runs. Beside it, the "split test" as Otava-style tools
 * do it (the best split found, then a t-test of that split as if it had
 * been chosen in advance), to show what leaving the choice out of the
 * null costs. Prints the tables of docs/store.md, "Change points".
 * Deterministic (fixed seeds). Usage: sim [TRIALS]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "benchlab/changes.h"
#include "benchlab/stats.h"

static uint64_t lcg = 12345;
static double unit(void)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(lcg >> 11) + 0.5) * 0x1.0p-53;
}
static double gauss(void)
{
    return sqrt(-2 * log(unit())) * cos(2 * M_PI * unit());
}

/* Noise as runs show it: Gaussian, or with one run in 20 slowed by an
 * exponential spike of mean 3 sigma (a disturbed CI runner). */
static double noise(double spread, int heavy)
{
    double e = spread * gauss();
    if (heavy && unit() < 0.05)
        e += spread * 3 * -log(unit());
    return e;
}

static void fill(double *x, size_t n, double level, double spread, int heavy)
{
    for (size_t i = 0; i < n; i++)
        x[i] = level * (1 + noise(spread, heavy));
}

/* The split test: the best split by the t statistic, then that t's p as
 * if the split had been fixed in advance (Welch on the two halves). */
static int split_test_fires(const double *x, size_t n, double alpha)
{
    double best = 0;
    size_t at = 0;
    for (size_t k = 3; k + 3 <= n; k++) {
        double p, t;
        if (bl_stats_welch(x, k, x + k, n - k, &p, &t, NULL) == 0 && fabs(t) > best) {
            best = fabs(t);
            at = k;
        }
    }
    double p;
    return at && bl_stats_welch(x, at, x + at, n - at, &p, NULL, NULL) == 0 && p < alpha;
}

struct result {
    size_t fired, found; /* any step reported; a step within 1 of each planted one */
};

/* Steps found within +-1 of `at` (n_at of them), and whether any fired. */
static void score(const double *x, size_t n, const size_t *at, size_t n_at, struct result *r)
{
    bl_change *c;
    size_t k;
    if (bl_changes_detect(x, n, NULL, &c, &k) != 0) {
        fprintf(stderr, "sim: bl_changes_detect failed\n");
        exit(1);
    }
    size_t steps = 0, hit = 0;
    for (size_t i = 0; i < k; i++) {
        if (c[i].kind != BL_CHANGE_STEP)
            continue;
        steps++;
        for (size_t j = 0; j < n_at; j++)
            hit += c[i].at + 1 >= at[j] && c[i].at <= at[j] + 1;
    }
    r->fired += steps > 0;
    r->found += n_at && hit >= n_at;
    free(c);
}

int main(int argc, char **argv)
{
    size_t trials = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
    static double x[10000];
    printf("%zu trials a row; alpha 0.001 per benchmark (the default)\n\n", trials);

    printf("false alarms on noise (50 runs, no change)     this test           split test\n");
    for (int heavy = 0; heavy < 2; heavy++) {
        for (int s = 0; s < 2; s++) {
            double spread = s ? 0.05 : 0.02;
            struct result r = {0};
            size_t split = 0;
            lcg = 1000 + (uint64_t)(heavy * 2 + s);
            for (size_t t = 0; t < trials; t++) {
                fill(x, 50, 100, spread, heavy);
                score(x, 50, NULL, 0, &r);
                split += split_test_fires(x, 50, 0.001);
            }
            printf("  %2.0f%% noise, %-28s  %6zu (%.2f%%)    %4zu (%.1f%%)\n", spread * 100,
                   heavy ? "spikes in 1 run of 20" : "Gaussian", r.fired,
                   100.0 * (double)r.fired / (double)trials, split,
                   100.0 * (double)split / (double)trials);
        }
    }

    printf("\npower: a step reported (detected), and within one run of where it was planted\n");
    const struct {
        const char *what;
        double step, spread;
        size_t before, after;
    } steps[] = {
        {"5% step, 2% noise, 25 + 25 runs", 0.05, 0.02, 25, 25},
        {"3% step, 5% noise, 25 + 25 runs", 0.03, 0.05, 25, 25},
        {"3% step, 5% noise, 50 + 50 runs", 0.03, 0.05, 50, 50},
        {"2% step, 1% noise, 40 + 5 runs (the newest)", 0.02, 0.01, 40, 5},
        {"10% step, 2% noise, 40 + 3 runs (the newest)", 0.10, 0.02, 40, 3},
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        for (int heavy = 0; heavy < 2; heavy++) {
            struct result r = {0};
            lcg = 2000 + i * 2 + (uint64_t)heavy;
            size_t n = steps[i].before + steps[i].after, at = steps[i].before;
            for (size_t t = 0; t < trials; t++) {
                fill(x, at, 100, steps[i].spread, heavy);
                fill(x + at, n - at, 100 * (1 + steps[i].step), steps[i].spread, heavy);
                score(x, n, &at, 1, &r);
            }
            printf("  %-46s %-9s detected %5.1f%%, at +-1 %5.1f%%\n", steps[i].what,
                   heavy ? "spikes" : "Gaussian", 100.0 * (double)r.fired / (double)trials,
                   100.0 * (double)r.found / (double)trials);
        }
    }

    printf("\na regression fixed later: 30 runs, 8%% up for K runs, 30 runs back (2%% noise)\n");
    for (size_t len = 3; len <= 12; len = len < 6 ? len + 1 : len * 2) {
        struct result r = {0};
        lcg = 3000 + len;
        size_t n = 60 + len, at[2] = {30, 30 + len};
        for (size_t t = 0; t < trials; t++) {
            fill(x, 30, 100, 0.02, 0);
            fill(x + 30, len, 108, 0.02, 0);
            fill(x + 30 + len, 30, 100, 0.02, 0);
            score(x, n, at, 2, &r);
        }
        printf("  K = %2zu: both ends found %5.1f%%\n", len,
               100.0 * (double)r.found / (double)trials);
    }

    printf("\none aberrant run (+30%% at run 25 of 50, 2%% noise): reported as a change\n");
    {
        struct result r = {0};
        size_t outliers = 0;
        lcg = 4000;
        for (size_t t = 0; t < trials; t++) {
            fill(x, 50, 100, 0.02, 0);
            x[25] = 130;
            bl_change *c;
            size_t k;
            bl_changes_detect(x, 50, NULL, &c, &k);
            for (size_t i = 0; i < k; i++)
                outliers += c[i].kind == BL_CHANGE_OUTLIER && c[i].at == 25;
            free(c);
            score(x, 50, NULL, 0, &r);
        }
        printf("  as a change %zu of %zu; as the outlier it is %zu of %zu\n", r.fired, trials,
               outliers, trials);
    }

    printf("\ntime per benchmark (two steps planted, 2%% noise)\n");
    for (size_t n = 100; n <= 10000; n *= 10) {
        lcg = 5000 + n;
        fill(x, n / 3, 100, 0.02, 0);
        fill(x + n / 3, n / 3, 104, 0.02, 0);
        fill(x + 2 * (n / 3), n - 2 * (n / 3), 101, 0.02, 0);
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        bl_change *c;
        size_t k;
        bl_changes_detect(x, n, NULL, &c, &k);
        clock_gettime(CLOCK_MONOTONIC, &b);
        size_t st = 0;
        for (size_t i = 0; i < k; i++)
            st += c[i].kind == BL_CHANGE_STEP;
        free(c);
        printf("  %6zu runs: %8.3f s, %zu steps found\n", n,
               (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9, st);
        /* a flat history: the shuffles stop early */
        fill(x, n, 100, 0.02, 0);
        clock_gettime(CLOCK_MONOTONIC, &a);
        bl_changes_detect(x, n, NULL, &c, &k);
        clock_gettime(CLOCK_MONOTONIC, &b);
        free(c);
        printf("  %6zu runs, flat: %8.3f s\n", n,
               (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9);
    }
    return 0;
}
