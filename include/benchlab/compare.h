/*
 * benchlab/compare.h - benchstat v2's A/B comparison tables, byte for byte,
 * plus a CI gate.
 *
 * A bl_compare collects results (Go benchmark format, Google Benchmark
 * JSON, benchlab JSON) from several inputs, groups them as benchstat does
 * (-table, -row, -col, -ignore projections and a -filter query), summarises
 * every cell (median and its confidence interval, Mann-Whitney U against
 * the first column) and writes the tables as text or CSV exactly as
 * benchstat would, or as Markdown or JSON. See docs/compare.md.
 */
#ifndef BENCHLAB_COMPARE_H
#define BENCHLAB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "benchlab/common.h"
#include "benchlab/stats.h" /* enum bl_correction */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bl_compare bl_compare;
struct bl_diags; /* benchlab/format.h */

typedef struct bl_compare_options {
    const char *table;  /* projection; default ".config" */
    const char *row;    /* default ".fullname" */
    const char *col;    /* default ".file" */
    const char *ignore; /* default "" */
    const char *filter; /* query; default "*" */
    double alpha;       /* default 0.05 */
    double confidence;  /* default 0.95 */
    /* Where the records skipped while reading go (malformed lines of the Go
     * format as benchstat words them, "x.txt:7: missing units"; JSON entries
     * not read, "x.json: benchmarks[3]: no name: skipped"); NULL: not
     * collected. Borrowed. */
    struct bl_diags *diags;
} bl_compare_options;

BL_API void bl_compare_options_init(bl_compare_options *opts);

/*
 * Parse the projections and the filter. On a syntax error returns
 * BL_EUSAGE with benchstat's message in err ("parsing -filter: syntax
 * error: ..."); *out is then NULL. Free with bl_compare_destroy().
 */
BL_API int bl_compare_create(const bl_compare_options *opts, bl_compare **out, char *err,
                             size_t err_size);
BL_API void bl_compare_destroy(bl_compare *cmp);

/*
 * Read the inputs given as benchstat's arguments: "path", "label=path",
 * "-" for stdin; the same unlabelled path twice becomes "path#0",
 * "path#1". The format is detected per input: JSON (Google Benchmark's
 * --benchmark_format=json, or benchlab's own) or the Go benchmark format.
 * Returns 0, or a negative error with benchstat's message in err ("open
 * x: no such file or directory", "x:9: bufio.Scanner: token too long").
 */
BL_API int bl_compare_read_inputs(bl_compare *cmp, char *const *args, size_t n_args, char *err,
                                  size_t err_size);

/* Summarise and compare: call once, after reading. 0 or -ENOMEM. */
BL_API int bl_compare_finish(bl_compare *cmp);

/* benchstat's text tables. */
BL_API int bl_compare_write_text(bl_compare *cmp, FILE *out);
/* The same for a terminal: each compared cell also gets a plot of its
 * interval against the baseline's (Unicode half blocks, one row's scale
 * each), and a line under the table says how to read them. */
BL_API int bl_compare_write_text_plots(bl_compare *cmp, FILE *out);
/* benchstat's CSV; cell warnings go to `warn` as "B7: message". */
BL_API int bl_compare_write_csv(bl_compare *cmp, FILE *out, FILE *warn);
/* GitHub-flavoured Markdown tables, same numbers as the text. */
BL_API int bl_compare_write_markdown(bl_compare *cmp, FILE *out);
/* JSON, schema "benchlab-compare/2" (docs/json-schema.md). */
BL_API int bl_compare_write_json(bl_compare *cmp, FILE *out);
/*
 * What benchstat leaves unsaid, one "benchlab compare: note: ..." line each,
 * for stderr (stdout stays benchstat's): inputs whose results fall in
 * separate tables only because one configuration key differs (two builds
 * of a suite whose pkg: lines differ), with the -ignore flag that compares
 * them. Call after bl_compare_finish. 0, -ENOMEM or -EIO.
 */
BL_API int bl_compare_write_notes(bl_compare *cmp, FILE *out);

/*
 * The CI gate: count the comparisons that are significantly worse than the
 * baseline after `correction` over all comparisons of all tables (family
 * size m = every cell compared with a baseline), and worse by more than
 * threshold_pct percent. "Worse" follows the unit's better direction:
 * higher is better for B/s, MB/s, any unit ending in "/s" and units with
 * Unit metadata better=higher; lower for the rest. Each regression is
 * described on `report` (NULL: silent). Returns the count (>= 0).
 */
BL_API int bl_compare_gate(bl_compare *cmp, double threshold_pct, enum bl_correction correction,
                           FILE *report);
/* The same, and on `github` (NULL: none) GitHub Actions workflow commands
 * (docs/ci.md): `::error` per regression, `::warning` per significant
 * change for the worse under the threshold, worst first, at most the 10
 * of a kind GitHub shows. */
BL_API int bl_compare_gate_github(bl_compare *cmp, double threshold_pct,
                                  enum bl_correction correction, FILE *report, FILE *github);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_COMPARE_H */
