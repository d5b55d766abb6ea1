/* hw_counters.h - hardware counters per op (--counters), from perf_event_open. */
#ifndef BENCHLAB_INSTRUMENTS_HW_COUNTERS_H
#define BENCHLAB_INSTRUMENTS_HW_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define BL__MAX_HW_COUNTERS 6

/* Parse "instructions,cycles" (NULL or "" = all six) into indices into the
 * known list. 0, or BL_EUSAGE with a message naming the bad name. */
int bl__hw_counters_parse(const char *list, int *idx, int *n, char *why, size_t why_size);
const char *bl__hw_counter_name(int idx); /* "instructions", ... */

/* Can this machine count them? 0, or BL_EUNSUPPORTED with the reason. */
int bl__hw_counters_probe(const int *idx, int n, char *why, size_t why_size);

/* Worker side: a group of the counters on the calling thread. */
struct bl__hw_group {
    int fd[BL__MAX_HW_COUNTERS];
    int n;
};
int bl__hw_open(struct bl__hw_group *g, const int *idx, int n);
void bl__hw_start(struct bl__hw_group *g);
/* Stop and read: values scaled by time enabled/running; *scaled set when multiplexed. */
void bl__hw_stop(struct bl__hw_group *g, double *values, int *scaled);
void bl__hw_close(struct bl__hw_group *g);

#endif
