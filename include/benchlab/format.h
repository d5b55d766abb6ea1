/*
 * benchlab/format.h - writing results: the Go benchmark format and the
 * terminal summary table.
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

/* The configuration and metadata block. */
BL_API void bl_gobench_write_header(FILE *f, const bl_results *results);
/* One result line for one launch; nothing for a failed or skipped launch. */
BL_API void bl_gobench_write_launch(FILE *f, const bl_bench_result *bench,
                                    const bl_launch *launch);
/* Header and every launch. */
BL_API void bl_gobench_write(FILE *f, const bl_results *results);
/* Format a value as Go's testing package does (4 significant digits at least). */
BL_API void bl_gobench_format_value(char *out, size_t size, double value);

enum bl_table_flags {
    BL_TABLE_COLOR = 1, /* ANSI colour */
};
/* The human summary: per benchmark median, spread, interval, overhead, batches. */
BL_API void bl_table_write(FILE *f, const bl_results *results, unsigned flags);
/* Human time: "1.234 µs". */
BL_API void bl_format_duration(char *out, size_t size, double ns);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_FORMAT_H */
