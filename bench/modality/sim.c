/*
 * sim.c - how often bl_stats_mvalue (with bl_bench_diagnose's rule: mvalue
 * >= BL_MVALUE_BIMODAL and 2+ prominent peaks) calls a sample multimodal,
 * for unimodal shapes timing data has (false alarms) and for real mixtures
 * (power), by sample size. The table in docs/engine.md, "Drift and
 * multimodality". Deterministic: a fixed seed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "benchlab/stats.h"

static uint64_t rng = 88172645463325252u;

static double u01(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double nrm(void)
{
    return sqrt(-2 * log(u01())) * cos(2 * M_PI * u01());
}

static double draw(int kind)
{
    switch (kind) {
    case 0:
        return 1 + 0.03 * nrm();
    case 1:
        return exp(0.25 * nrm());
    case 2:
        return exp(0.6 * nrm());
    case 3: { /* jitter, an exponential tail, 3% stragglers up to several x */
        double x = 1 + 0.01 * nrm() + 0.03 * -log(u01());
        if (u01() < 0.03)
            x *= 1 + 0.1 * pow(u01(), -0.7);
        return x;
    }
    case 4:
        return 1 + 0.2 * u01();
    case 5:
        return (u01() < 0.5 ? 1 : 2) * (1 + 0.03 * nrm());
    case 6:
        return (u01() < 0.5 ? 1 : 1.15) * (1 + 0.02 * nrm());
    default:
        return (u01() < 0.8 ? 1 : 2) * (1 + 0.03 * nrm());
    }
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"normal, 3% sd",
                                        "lognormal, sigma 0.25",
                                        "lognormal, sigma 0.6",
                                        "timing-like tail",
                                        "uniform",
                                        "two modes 2x apart, 50/50",
                                        "two modes 15% apart",
                                        "two modes 2x apart, 80/20"};
    static const size_t ns[] = {12, 30, 60, 120, 240, 480};
    int reps = argc > 1 ? atoi(argv[1]) : 2000;
    double x[480];
    printf("| sample | n=12 | 30 | 60 | 120 | 240 | 480 |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < 8; k++) {
        printf("| %s |", names[k]);
        for (int j = 0; j < 6; j++) {
            int hits = 0;
            for (int r = 0; r < reps; r++) {
                for (size_t i = 0; i < ns[j]; i++)
                    x[i] = draw(k);
                bl_modality m;
                if (bl_stats_mvalue(x, ns[j], &m) == 0 && m.mvalue >= BL_MVALUE_BIMODAL &&
                    m.n_peaks >= 2)
                    hits++;
            }
            printf(" %.1f%% |", 100.0 * hits / reps);
        }
        printf("\n");
    }
    return 0;
}
