/*
 * benchlab/format.h - writing and reading results: the Go benchmark format,
 * JSON, CSV, Markdown, the terminal summary table, and results files read
 * back into a bl_results.
 *
 * Go format: configuration lines (goos, goarch, cpu, pkg) that stay the
 * same from run to run on one machine, so that benchstat pairs rows across
 * runs; values that change every run (date, host, benchlab version, the
 * command) go on '# key: value' comment lines, which benchstat ignores and
 * benchlab's reader keeps. Then one result line per launch.
 */
#ifndef BENCHLAB_FORMAT_H
#define BENCHLAB_FORMAT_H

#include <stdio.h>

#include "benchlab/common.h"
#include "benchlab/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The Go writers return 0, or BL_ETOOLONG for a line that would be longer
 * than 64 KiB (benchstat's limit: it stops the whole file at such a line):
 * a result or Unit line (a name or unit that long) is then not written at
 * all; configuration and comment lines are cut instead, marked " [cut]".
 * -ENOMEM when memory runs out. See docs/formats.md.
 */
/* The configuration and metadata block. */
BL_API int bl_gobench_write_header(FILE *f, const bl_results *results);
/* One result line for one launch; nothing for a failed or skipped launch.
 * A name without the "Benchmark" prefix (Google Benchmark's) gets it. */
BL_API int bl_gobench_write_launch(FILE *f, const bl_bench_result *bench, const bl_launch *launch);
/* The "Unit <unit> <key>=<value>" metadata lines of results->units from
 * index *done on, advancing *done: a streaming writer calls it before each
 * launch, so each unit is declared once, before its first use. */
BL_API int bl_gobench_write_units(FILE *f, const bl_results *results, size_t *done);
/* A "job: NAME" configuration line before a launch of `bench` when its job
 * (bl_bench_result.job) is not *current, the job written last (NULL at
 * first; borrowed from bench): benchstat's -col job puts jobs side by side. */
BL_API int bl_gobench_write_job(FILE *f, const char **current, const bl_bench_result *bench);
/* Header, unit metadata, every launch (each job's after its job line), then
 * the complexity fits as comments;
 * stops at the first error (-EIO when the stream has one). */
BL_API int bl_gobench_write(FILE *f, const bl_results *results);
/* Format a value as Go's testing package does (4 significant digits at least). */
BL_API void bl_gobench_format_value(char *out, size_t size, double value);

enum bl_table_flags {
    BL_TABLE_COLOR = 1, /* ANSI colour */
    BL_TABLE_PLOTS = 2, /* a sparkline of each benchmark's batches (Unicode blocks) */
};
/* The human summary: per benchmark median, spread, interval, overhead, batches. */
BL_API void bl_table_write(FILE *f, const bl_results *results, unsigned flags);
/*
 * A Unicode sparkline (U+2581..U+2588, eight heights) of values[0..n) in
 * order, at most `width` cells: with more values than cells, each cell is
 * the median of its run of values (so that one outlier does not draw a
 * spike). The heights span the cells' lowest to highest value, but never
 * less than `min_span` (the values' unit): variation smaller than that
 * draws nearly flat, so noise is not magnified into waves. NaN draws a
 * space. Writes a NUL-terminated UTF-8 string (3 bytes per cell; fewer
 * cells when size is short) and returns the number of cells.
 */
BL_API int bl_format_sparkline(char *out, size_t size, const double *values, size_t n, int width,
                               double min_span);
/* Whether small plots belong on `fd`: it is a terminal, TERM is not
 * "dumb", and BENCHLAB_NO_PLOTS is unset or empty. */
BL_API int bl_terminal_plots(int fd);
/* Whether colours belong on `fd` (--color auto): it is a terminal, TERM is
 * not "dumb", and NO_COLOR is unset or empty (no-color.org). */
BL_API int bl_terminal_colors(int fd);
/*
 * GitHub Actions (docs/ci.md). bl_github_actions: 1 when GITHUB_ACTIONS is
 * "true" (then judge, ab and compare's gate annotate the run, on stderr).
 * bl_github_summary_append: append `len` bytes of Markdown to the job
 * summary file that GITHUB_STEP_SUMMARY names, never truncating it, and
 * within GitHub's 1 MiB a step (what is there already counted): cut at a
 * line's end with a line saying so. 0; 1 when the variable is unset;
 * -errno with err set when the file cannot be written.
 */
BL_API int bl_github_actions(void);
BL_API int bl_github_summary_append(const char *markdown, size_t len, char *err, size_t err_size);
/* Human time: "1.234 µs". */
BL_API void bl_format_duration(char *out, size_t size, double ns);
/* A complexity fit in words, without its group's name: "O(n log n) in size
 * (3 sizes, 100 to 1000000): 4.201 ns x n log n, RMS 3.1%", or "not fitted:
 * <why>". Warnings are in c->message, apart. */
BL_API void bl_format_complexity(char *out, size_t size, const bl_complexity_result *c);
/* The "# complexity: NAME: ..." comment lines of a run's fits, warnings included. */
BL_API int bl_gobench_write_complexity(FILE *f, const bl_results *results);
/*
 * What a diagnosis (bl_bench_diagnose) found, in words: up to 3 phrases
 * such as "drift +4.1% within launches (p=0.001)" or "bimodal batch times
 * (mvalue 3.6): modes near 1.020 µs and 2.050 µs", written to lines[0..).
 * Returns how many; 0 when nothing was found.
 */
#define BL_DIAGNOSIS_LINE 256
BL_API int bl_format_diagnosis(const bl_diagnosis *d, char lines[3][BL_DIAGNOSIS_LINE]);
/* A "# note NAME: ..." comment line per finding of each benchmark's
 * diagnosis: benchstat ignores them, and so does benchlab's reader (no
 * "key: value" metadata). */
BL_API int bl_gobench_write_notes(FILE *f, const bl_results *results);
/* Human throughput, every rate that applies: "1.230 GB/s, 45.60 M items/s"; "-" for none. */
BL_API void bl_format_rate(char *out, size_t size, const bl_rates *rates);

/* ---- Reading the Go benchmark format (gobench_read.c) ----------------------
 * A streaming reader with benchstat's (golang.org/x/perf/benchfmt) rules:
 * result lines "Benchmark<name> <iters> <value> <unit>...", "Unit <unit>
 * key=value..." metadata, "key: value" configuration lines, "# key: value"
 * comments (benchlab's per-run metadata). See docs/formats.md. */

typedef struct bl_gobench_value {
    double value;     /* as written: tidying (ns/op -> sec/op) is the reader's caller's choice */
    const char *unit; /* NUL-terminated; borrowed until the callback returns */
    size_t unit_len;
} bl_gobench_value;

typedef struct bl_gobench_result {
    const char *name; /* without "Benchmark": "Sort/n=10-8"; NUL-terminated, borrowed */
    size_t name_len;
    long long iters;
    const bl_gobench_value *values; /* at least one */
    size_t n_values;
    /* The file configuration in effect, in benchfmt's order: config[0] is
     * ".file" (the input's label), then the keys as set, deletions swapping
     * with the last key. Borrowed until the callback returns. */
    const bl_label *config;
    size_t n_config;
    unsigned long config_gen; /* differs whenever config may differ (unique per process) */
    const char *path;         /* as given to the reader */
    size_t line;              /* 1-based */
} bl_gobench_result;

typedef struct bl_gobench_handler {
    void *ctx;
    /* A well-formed result. A nonzero return stops reading and is returned. */
    int (*on_result)(void *ctx, const bl_gobench_result *result);
    /* One key=value pair of a Unit line, unit as written. Nonzero stops. */
    int (*on_unit)(void *ctx, const char *unit, const char *key, const char *value,
                   const char *path, size_t line);
    /* A "# key: value" comment line. */
    void (*on_meta)(void *ctx, const char *key, const char *value);
    /* A malformed line, skipped; print it as "path:line: msg". */
    void (*on_error)(void *ctx, const char *path, size_t line, const char *msg);
    /* Optional: a configuration key set to value, or deleted (value NULL),
     * as each configuration line is read; lets a reader that keeps one
     * configuration follow the changes in O(1) each instead of walking
     * `config` at every result. Borrowed until the callback returns. */
    void (*on_config)(void *ctx, const char *key, const char *value);
} bl_gobench_handler;

/*
 * Read fd to its end. `path` names the input in messages, `label` is the
 * value of ".file". Memory is bounded by the 16 MiB line limit whatever the
 * input's size (benchstat's is 64 KiB; benchlab's own files may have longer
 * lines). Returns 0; a callback's nonzero value; BL_EFORMAT for a line
 * of 16 MiB or more ("path:line: bufio.Scanner: token too long" in err);
 * -errno when reading fails ("read path: ..." in err); -ENOMEM.
 */
BL_API int bl_gobench_read_fd(int fd, const char *path, const char *label,
                              const bl_gobench_handler *handler, char *err, size_t err_size);

/* Parse s[0..n) as Go's strconv.ParseFloat(s, 64): 0, -EINVAL (syntax) or
 * -ERANGE (overflow). */
BL_API int bl_gobench_parse_float(const char *s, size_t n, double *out);

/* ---- Writers of run results (json_write.c, csv_write.c, markdown_write.c) ----
 * Each writes the whole of `results` to f and returns 0, -EIO when the
 * stream failed, or -ENOMEM. Callers that write files write them whole or
 * not at all (temporary file, then rename), as the runner's --out does. */

/* JSON, schema "benchlab/1" (docs/json-schema.md): every sample, every
 * estimate with its interval, overhead, outliers, invalidated batches by
 * reason, metrics, configuration and metadata. benchlab compare reads it. */
BL_API int bl_json_write(FILE *f, const bl_results *results);
/* CSV: one record per launch (estimate, interval, overhead, counts, metrics). */
BL_API int bl_csv_write(FILE *f, const bl_results *results);
/*
 * Google Benchmark's JSON (context, benchmarks with run_name, run_type,
 * repetitions, repetition_index, threads, iterations, real_time, cpu_time,
 * time_unit, counters, and the mean/median/stddev/cv aggregates over
 * launches), for tools that read Google Benchmark's output. One launch is
 * one repetition. Times are in each launch's unit (bl_launch.time_unit),
 * else in results->time_unit, else ns; an aggregate has the label only
 * when every launch had the same. `executable` goes into the context (may
 * be NULL). Returns 0, -ENOMEM or -EIO.
 */
BL_API int bl_gbench_json_write(FILE *f, const bl_results *results, const char *executable);
/*
 * Google Benchmark's console table (Benchmark, Time, CPU, Iterations,
 * UserCounters...) and its CSV (name, iterations, real_time, cpu_time,
 * time_unit, bytes_per_second, items_per_second, label, error_occurred,
 * error_message, then one quoted column per user counter), with the rows
 * of bl_gbench_json_write: a launch is a repetition, then the aggregates,
 * the definition's own statistics, and a complexity fit's BigO and RMS.
 * Times in the units of bl_gbench_json_write. Returns 0, -ENOMEM or -EIO.
 */
BL_API int bl_gbench_console_write(FILE *f, const bl_results *results);
BL_API int bl_gbench_csv_write(FILE *f, const bl_results *results);
/* Markdown: configuration, then one table row per benchmark. */
BL_API int bl_markdown_write(FILE *f, const bl_results *results);

/* ---- What a reader skipped (diags.c) -----------------------------------------
 * Readers do not print. Every record of an input that a reader skips (a
 * malformed line of the Go format, a Google Benchmark entry without a name
 * or a time, a launch that is not compared) is added here with where it is
 * ("x.txt:12", "x.json: benchmarks[3]") and why; the caller prints them
 * ("where: message") and says in its exit status that input was skipped.
 * Zero-initialise; free with bl_diags_fini. */
#define BL_DIAGS_KEEP 1000 /* items kept in full; n_total counts them all */
typedef struct bl_diag {
    char *where;
    char *message;
} bl_diag;
typedef struct bl_diags {
    bl_diag *items;
    size_t n, cap;
    size_t n_total; /* including those beyond BL_DIAGS_KEEP, not kept */
} bl_diags;
/* Add one; d NULL: nothing. 0 or -ENOMEM. */
BL_API int bl_diags_add(bl_diags *d, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
BL_API void bl_diags_fini(bl_diags *d);

/* ---- Reading results back (results_read.c) ----------------------------------
 * A results file into a bl_results, so that a run can be re-analysed without
 * being measured again. The format is detected from the content:
 *   benchlab JSON ("benchlab/1"): everything as written, every batch;
 *   Google Benchmark JSON: one launch per "iteration" entry, no batches;
 *   the Go benchmark format: one launch per result line (ns/op, MB/s as
 *   bytes per op, B/op and allocs/op as the allocation pass, other units as
 *   metrics), no batches: such launches have n_samples == 0.
 * Returns 0 and *out (free with bl_results_destroy), or BL_EFORMAT with a
 * message naming the input and the place ("x.json: benchmarks[2].launches[0]:
 * ns_per_op: not a number", "x.txt: no benchmark results"), -errno when it
 * cannot be read ("x: No such file or directory"), or -ENOMEM. A file that
 * is neither format is BL_EFORMAT. Every record skipped is added to `diags`
 * (NULL: not collected): malformed lines of the Go format ("x.txt:7"),
 * Google Benchmark entries without a name or a time and aggregates read in
 * place of repetitions ("x.json: benchmarks[3]"). */
BL_API int bl_results_read_fd(int fd, const char *path, bl_results **out, bl_diags *diags,
                              char *err, size_t err_size);
/* The same on a file; "-" is stdin. */
BL_API int bl_results_read_file(const char *path, bl_results **out, bl_diags *diags, char *err,
                                size_t err_size);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_FORMAT_H */
