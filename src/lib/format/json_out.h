/* json_out.h - JSON values as benchlab writes them (json_write.c), shared
 * with the other JSON writers of libbenchlab (ab_write.c). */
#ifndef BENCHLAB_FORMAT_JSON_OUT_H
#define BENCHLAB_FORMAT_JSON_OUT_H
#include <stdio.h>

/* A string, quoted and escaped; NULL is written as "". */
void bl__json_string(FILE *f, const char *s);
/* The shortest form that reads back to the same double; NaN and infinities as null. */
void bl__json_number(FILE *f, double x);

#endif
