/* csv.h - one CSV field, quoted as Go's encoding/csv quotes it. Shared by
 * run's CSV writer, compare's CSV (which must match benchstat byte for
 * byte) and exec's export, so the three files quote alike. */
#ifndef BENCHLAB_FORMAT_CSV_H
#define BENCHLAB_FORMAT_CSV_H
#include <stdio.h>

/* Write s, quoted when Go would quote it: a comma, quote, CR or LF inside,
 * a leading Unicode space, or the field \. ; quotes inside are doubled. */
void bl__csv_field(FILE *f, const char *s);

#endif
