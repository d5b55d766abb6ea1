/*
 * floor.c - the cost any timer-driven sampler pays, for bench/profile.
 *
 * Preloaded with FLOOR_HZ=N: one per-thread perf_event cpu-clock event that
 * overflows N times a second of CPU time, each overflow an hrtimer
 * interrupt, with no signal and no sample taken. What a sampler costs above
 * this is its own. (Threads created later are not covered: the workload's
 * single-threaded runs are what it is compared with.)
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((constructor)) static void floor_init(void)
{
    const char *hz = getenv("FLOOR_HZ");
    if (!hz || !*hz)
        return;
    struct perf_event_attr pe;
    memset(&pe, 0, sizeof pe);
    pe.type = PERF_TYPE_SOFTWARE;
    pe.size = sizeof pe;
    pe.config = PERF_COUNT_SW_CPU_CLOCK;
    pe.sample_period = 1000000000ull / strtoull(hz, NULL, 10);
    pe.exclude_kernel = 1;
    pe.exclude_hv = 1;
    syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
}
