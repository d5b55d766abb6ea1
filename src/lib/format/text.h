/* text.h - column layout for the human tables (table.c, ab_write.c). */
#ifndef BENCHLAB_FORMAT_TEXT_H
#define BENCHLAB_FORMAT_TEXT_H
#include <stdio.h>

/* Display width of a UTF-8 string (µ is one column). */
int bl__text_width(const char *s);
/* Write s padded with spaces to w columns, on the left when `right`. */
void bl__text_pad(FILE *f, const char *s, int w, int right);

/* The note of a benchmark measured only by disturbed batches (its launches
 * kept with bl_launch.disturbed), without the name: what was disturbed
 * and what the numbers then mean. 0 when there is none, else 1. */
struct bl_bench_result;
int bl__disturbed_note(const struct bl_bench_result *b, char *buf, size_t size);

/* A run's jobs side by side with the ratio to the baseline job
 * (jobs_table.c); nothing when the run has fewer than two jobs. */
struct bl_results;
void bl__jobs_table_write(FILE *f, const struct bl_results *r);

#endif
