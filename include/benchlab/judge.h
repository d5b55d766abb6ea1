/*
 * benchlab/judge.h - verdicts: per benchmark, is a run faster, slower or
 * unchanged against a baseline run, with the multiple-comparison control
 * a whole suite needs (`benchlab judge`, docs/store.md).
 *
 * Per benchmark in both runs: a two-sided Mann-Whitney U test of the time
 * per op (bl_stats_utest) and the change as the Hodges-Lehmann estimate
 * of the ratio new / base with the interval that goes with the test
 * (bl_stats_shift_ci on log times: the median of all pairwise log ratios,
 * and their order statistics). `benchlab report` shows the same change and
 * interval (bl_judge_bench), so the two never disagree on the same runs. The p-values of all
 * benchmarks judged form one family, corrected by Holm-Bonferroni (default) or Benjamini-Hochberg
 * (bl_multiple_reject). A benchmark is slower when its test rejects after the correction and the
 * ratio exceeds 1 + threshold; faster when it rejects and the ratio is below 1 / (1 + threshold);
 * unchanged otherwise.
 *
 * Where the U test cannot reach the level the correction needs at these sample sizes (5 launches
 * a side give p >= 0.0079, and Holm over m benchmarks needs alpha / m), the benchmark's p is
 * Welch's t test on the log values instead (bl_stats_welch; BL_JUDGE_TEST_WELCH), chosen from the
 * sample sizes and the family size alone. The metric is the time per op by default, or the
 * ref-cycles per op, or instructions per op (bl_judge_options.metric): a benchmark whose
 * instructions are one count a side (the counters pass) is judged on its ratio and the threshold
 * alone (BL_JUDGE_TEST_COUNT), outside the family.
 *
 * The values compared are one per launch (ns/op of each worker process)
 * when both runs have at least min_launches successful launches of the
 * benchmark: between-process variance is then part of the test. With
 * fewer, the pooled per-op values of the clean batches are compared, and
 * the judgement says so: batches of one process share its memory layout,
 * so a difference between two single launches may be the layout's.
 */
#ifndef BENCHLAB_JUDGE_H
#define BENCHLAB_JUDGE_H

#include <stddef.h>
#include <stdio.h>

#include "benchlab/common.h"
#include "benchlab/results.h"
#include "benchlab/stats.h" /* enum bl_correction */

#ifdef __cplusplus
extern "C" {
#endif

enum bl_verdict {
    BL_VERDICT_UNCHANGED, /* no significant change past the threshold */
    BL_VERDICT_FASTER,
    BL_VERDICT_SLOWER,
    BL_VERDICT_FAILED,  /* ran in the baseline, failed (no successful launch) now */
    BL_VERDICT_NEW,     /* not in the baseline */
    BL_VERDICT_MISSING, /* in the baseline, not in this run */
};

/* "unchanged", "faster", "slower", "failed", "new", "missing". */
BL_API const char *bl_verdict_name(enum bl_verdict verdict);

/* What is compared: the time per op (the default), the time in reference
 * cycles per op (bl_launch.ref_cycles_per_op, or a "ref-cycles/op" metric
 * of results read from the Go format), or instructions per op (an
 * "instructions/op" metric per launch, else the counters pass). */
enum bl_judge_metric {
    BL_JUDGE_TIME,
    BL_JUDGE_REF_CYCLES,
    BL_JUDGE_INSTRUCTIONS,
    /* ref-cycles where every benchmark judged has them on every successful
     * launch of both runs, else time: bl_judge resolves it once for the set
     * (set->opts.metric says which), bl_judge_bench per benchmark. The
     * command's default (docs/store.md, "The metric"). */
    BL_JUDGE_AUTO,
};

/* "time", "ref-cycles", "instructions", "auto". */
BL_API const char *bl_judge_metric_name(enum bl_judge_metric metric);
/* "ns/op", "ref-cycles/op", "instructions/op". */
BL_API const char *bl_judge_metric_unit(enum bl_judge_metric metric);
/* A name or unit of either list (or "auto") into *out: 0, or BL_EUSAGE. */
BL_API int bl_judge_metric_parse(const char *name, enum bl_judge_metric *out);

/* The test that decided a benchmark. */
enum bl_judge_test {
    BL_JUDGE_TEST_NONE,  /* not tested (too few values, or the metric is absent) */
    BL_JUDGE_TEST_RANK,  /* Mann-Whitney U */
    BL_JUDGE_TEST_WELCH, /* Welch's t on log values: the U test could not reach the level */
    BL_JUDGE_TEST_COUNT, /* one count a side: the ratio against the threshold, no test */
};

typedef struct bl_judge_options {
    double threshold_pct;          /* smallest change that counts, in percent; default 5 */
    double alpha;                  /* family-wise (Holm) or false discovery (BH) rate; 0.05 */
    double confidence;             /* of the ratio's interval; default 0.95 */
    enum bl_correction correction; /* default BL_CORRECTION_HOLM */
    const char *filter;            /* POSIX extended regex on full names; NULL: all */
    size_t min_launches;           /* launch-level from this many launches a side; default 5 */
    enum bl_judge_metric metric;   /* default BL_JUDGE_TIME */
} bl_judge_options;

BL_API void bl_judge_options_init(bl_judge_options *opts);

typedef struct bl_judgement {
    const char *name; /* borrowed from the results judged */
    enum bl_verdict verdict;
    double base_ns, new_ns;    /* medians of the values compared, in the metric's unit (ns/op
                                  for time); NAN when absent */
    double ratio;              /* Hodges-Lehmann estimate of new / base (exp of the median
                                  pairwise difference of log times) */
    double ratio_lo, ratio_hi; /* Hodges-Lehmann interval of the ratio; NAN when too few values */
    double p;                  /* two-sided p-value of `test`, before correction; NAN: no test */
    int significant;           /* the test rejects after the correction */
    size_t n_base, n_new;      /* values compared */
    int launch_level;          /* 1: one value per launch; 0: pooled batches */
    int test;                  /* enum bl_judge_test */
    const char *acknowledged;  /* a regression (slower, failed) accepted by an acknowledgement
                                  (bl_judge_acknowledge): its commit, borrowed; else NULL */
    const char *job;           /* the benchmark's job in a run of jobs (docs/jobs.md),
                                  borrowed; NULL without jobs */
} bl_judgement;

typedef struct bl_judgement_set {
    bl_judgement *items; /* the baseline's order, then benchmarks new in this run */
    size_t n;
    size_t n_tested; /* the family size the correction used */
    size_t n_faster, n_slower, n_failed, n_unchanged, n_new, n_missing;
    bl_judge_options opts; /* as used (defaults filled in) */
    double level;          /* what the smallest p must reach: alpha / n_tested (alpha: none) */
    size_t n_welch;        /* benchmarks decided by Welch's t (the U test could not reach level) */
    double welch_rank_min_p;          /* the U test's smallest possible p for those (the largest) */
    size_t welch_n_base, welch_n_new; /* the values a side of that one */
    size_t n_counts;       /* benchmarks judged on one count a side (BL_JUDGE_TEST_COUNT) */
    size_t n_lacking;      /* benchmarks in both runs without the metric on a side (unchanged) */
    size_t n_acknowledged; /* of n_slower and n_failed, those an acknowledgement accepts */
} bl_judgement_set;

/*
 * Judge `current` against `base` (both borrowed until the set is
 * destroyed: names point into `current` and `base`). *out is freed with
 * bl_judgement_set_destroy(). Returns 0; BL_EUSAGE with a message for a
 * bad filter or option; -ENOMEM.
 */
BL_API int bl_judge(const bl_results *base, const bl_results *current, const bl_judge_options *opts,
                    bl_judgement_set **out, char *err, size_t err_size);
BL_API void bl_judgement_set_destroy(bl_judgement_set *set);

/*
 * One benchmark's change, as bl_judge computes it (values, U test, ratio
 * and interval at opts->confidence), without the correction and verdict:
 * *out has verdict UNCHANGED and significant 0; its name is borrowed from
 * `current`. opts may be NULL (defaults). The test is the U test
 * (BL_JUDGE_TEST_RANK) whatever the sample sizes: the family, and so the
 * switch to Welch's t, is bl_judge's. Returns 0; BL_ENOTFOUND when a
 * side has no successful launch or no value of the metric (the figures
 * are then NAN); BL_EUSAGE
 * for a confidence outside (0, 1); -ENOMEM.
 */
BL_API int bl_judge_bench(const bl_bench_result *base, const bl_bench_result *current,
                          const bl_judge_options *opts, bl_judgement *out);

/*
 * Accept the regressions of `set` (slower or failed) of the benchmarks
 * whose name (full, or without a leading "Benchmark") matches `pattern`
 * (a shell pattern, fnmatch), as acknowledged at `commit` (borrowed until
 * the set is destroyed): they stay slower or failed, are said to be
 * acknowledged, and no longer fail bl_judge_gate. Which acknowledgements
 * apply to two runs is the store's to say (bl_store_ack_covers). Returns
 * how many it accepted.
 */
BL_API size_t bl_judge_acknowledge(bl_judgement_set *set, const char *pattern, const char *commit);

/* Flags of bl_judge_gate() and bl_judge_write(). */
#define BL_JUDGE_ALLOW_MISSING 1u /* a benchmark missing from the run does not fail the gate */
#define BL_JUDGE_MARKDOWN 2u      /* bl_judge_write: Markdown, not text */

/*
 * The exit status of a CI gate on `set`: 1 when a benchmark is slower or
 * failed (and not acknowledged), or, without BL_JUDGE_ALLOW_MISSING, when a benchmark of the
 * baseline is missing from the run judged (a lost shard, a crashed job);
 * 0 otherwise.
 */
BL_API int bl_judge_gate(const bl_judgement_set *set, unsigned flags);

/* The judgement as a table for a terminal or CI log, `base_label` and
 * `new_label` naming the runs in the heading. 0 or -EIO. */
BL_API int bl_judge_write_text(FILE *f, const bl_judgement_set *set, const char *base_label,
                               const char *new_label);
/* ... and as GitHub-flavoured Markdown for a pull request comment. */
BL_API int bl_judge_write_markdown(FILE *f, const bl_judgement_set *set, const char *base_label,
                                   const char *new_label);
/* Either of the two (BL_JUDGE_MARKDOWN in flags), for the gate that
 * bl_judge_gate(set, flags) gives: without BL_JUDGE_ALLOW_MISSING, the
 * benchmarks missing from the run are named on a line of their own as
 * failing it, and the summary says so. The two above allow them. */
BL_API int bl_judge_write(FILE *f, const bl_judgement_set *set, const char *base_label,
                          const char *new_label, unsigned flags);

/*
 * GitHub Actions workflow commands (docs/ci.md): `::error` per benchmark
 * that fails the gate of `flags` (slower, failed, missing), `::warning`
 * per benchmark significantly slower but under the threshold (and per
 * missing one that BL_JUDGE_ALLOW_MISSING passes); worst first, at most
 * the 10 of each kind GitHub shows (9 and a line of how many more). 0,
 * -ENOMEM or -EIO.
 */
BL_API int bl_judge_write_github(FILE *f, const bl_judgement_set *set, const char *base_label,
                                 unsigned flags);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_JUDGE_H */
