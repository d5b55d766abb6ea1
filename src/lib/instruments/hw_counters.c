/*
 * hw_counters.c - hardware counters per op (--counters): instructions,
 * cycles, branches, branch-misses, cache-references, cache-misses.
 *
 * Like the allocation instrument they are counted in a pass of their own
 * (warm repetition, then k and k+d counted repetitions; the difference over
 * d is per op), so the timing pass never carries them. Where the machine
 * has no PMU (many VMs: perf_event_open answers ENOENT or EOPNOTSUPP) the
 * runner says so once and prints no counter columns: never zeros.
 * Multiplexed counts are scaled by time enabled / time running, and the
 * result says it was scaled.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "benchlab/common.h"
#include "hw_counters.h"

static const struct {
    const char *name;
    uint64_t config;
} known[BL__MAX_HW_COUNTERS] = {
    {"instructions", PERF_COUNT_HW_INSTRUCTIONS},
    {"cycles", PERF_COUNT_HW_CPU_CYCLES},
    {"branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_COUNT_HW_BRANCH_MISSES},
    {"cache-references", PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_COUNT_HW_CACHE_MISSES},
};

const char *bl__hw_counter_name(int idx)
{
    return idx >= 0 && idx < BL__MAX_HW_COUNTERS ? known[idx].name : "?";
}

int bl__hw_counters_parse(const char *list, int *idx, int *n, char *why, size_t size)
{
    *n = 0;
    if (!list || !*list) {
        for (int i = 0; i < BL__MAX_HW_COUNTERS; i++)
            idx[(*n)++] = i;
        return 0;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = -1;
        for (int i = 0; i < BL__MAX_HW_COUNTERS; i++)
            if (strcmp(t, known[i].name) == 0)
                k = i;
        if (k < 0) {
            snprintf(why, size,
                     "--counters: unknown counter '%s' (known: instructions, cycles, branches, "
                     "branch-misses, cache-references, cache-misses)",
                     t);
            return BL_EUSAGE;
        }
        for (int j = 0; j < *n; j++)
            if (idx[j] == k) {
                snprintf(why, size, "--counters: '%s' is named twice", t);
                return BL_EUSAGE;
            }
        idx[(*n)++] = k;
    }
    if (*n == 0) {
        snprintf(why, size, "--counters: no counter named in '%s'", list);
        return BL_EUSAGE;
    }
    return 0;
}

static int open_one(uint64_t config, int group)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.disabled = group < 0;
    a.exclude_kernel = 1; /* allowed at perf_event_paranoid 2 */
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

int bl__hw_counters_probe(const int *idx, int n, char *why, size_t size)
{
    for (int i = 0; i < n; i++) {
        int fd = open_one(known[idx[i]].config, -1);
        if (fd >= 0) {
            close(fd);
            continue;
        }
        int e = errno;
        if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == EINVAL)
            snprintf(why, size,
                     "this machine has no hardware performance counters (perf_event_open(%s): "
                     "%s; a virtual machine often has none); no counter columns are printed",
                     known[idx[i]].name, strerror(e));
        else if (e == EACCES || e == EPERM)
            snprintf(why, size,
                     "perf_event_open(%s) is not permitted (%s): lower "
                     "kernel.perf_event_paranoid to 2; no counter columns are printed",
                     known[idx[i]].name, strerror(e));
        else
            snprintf(why, size, "perf_event_open(%s): %s; no counter columns are printed",
                     known[idx[i]].name, strerror(e));
        return BL_EUNSUPPORTED;
    }
    return 0;
}

int bl__hw_open(struct bl__hw_group *g, const int *idx, int n)
{
    g->n = 0;
    for (int i = 0; i < n; i++) {
        /* each counter on its own (not a group): the kernel multiplexes them
         * and we scale by enabled/running */
        int fd = open_one(known[idx[i]].config, -1);
        if (fd < 0) {
            bl__hw_close(g);
            return -errno;
        }
        g->fd[g->n++] = fd;
    }
    return 0;
}

void bl__hw_start(struct bl__hw_group *g)
{
    for (int i = 0; i < g->n; i++) {
        ioctl(g->fd[i], PERF_EVENT_IOC_RESET, 0);
        ioctl(g->fd[i], PERF_EVENT_IOC_ENABLE, 0);
    }
}

void bl__hw_stop(struct bl__hw_group *g, double *values, int *scaled)
{
    for (int i = 0; i < g->n; i++)
        ioctl(g->fd[i], PERF_EVENT_IOC_DISABLE, 0);
    for (int i = 0; i < g->n; i++) {
        uint64_t v[3] = {0, 0, 0}; /* value, time enabled, time running */
        values[i] = 0;
        if (read(g->fd[i], v, sizeof v) != (ssize_t)sizeof v)
            continue;
        if (v[2] > 0 && v[2] < v[1]) {
            values[i] = (double)v[0] * (double)v[1] / (double)v[2];
            *scaled = 1;
        } else {
            values[i] = (double)v[0];
        }
    }
}

void bl__hw_close(struct bl__hw_group *g)
{
    for (int i = 0; i < g->n; i++)
        close(g->fd[i]);
    g->n = 0;
}
