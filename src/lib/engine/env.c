/*
 * env.c - the sources of measurement noise on this machine (benchlab env).
 *
 * Everything is read from /proc and /sys without privileges. A missing file
 * means the feature is absent or hidden (a VM often has no cpufreq), which
 * is a note, not an error.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../base/base.h"
#include "benchlab/env.h"
#include "engine.h"

static int read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (!fgets(buf, (int)n, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static bl_env_finding *add(bl_env_finding *out, size_t max, size_t *n, const char *check,
                           enum bl_env_level level)
{
    if (*n >= max)
        return NULL;
    bl_env_finding *f = &out[(*n)++];
    memset(f, 0, sizeof *f);
    f->check = check;
    f->level = level;
    return f;
}

struct proc_cpu {
    int pid;
    char comm[64];
    unsigned long long ticks;
};

/* utime+stime of every process, from /proc/PID/stat. */
static size_t snapshot(struct proc_cpu *p, size_t max)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], line[1024];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        if (read_line(path, line, sizeof line))
            continue;
        char *open = strchr(line, '('), *close = strrchr(line, ')');
        if (!open || !close)
            continue;
        unsigned long long ut = 0, stt = 0;
        /* after ") " come: state ppid pgrp session tty tpgid flags minflt cminflt majflt
         * cmajflt utime stime */
        if (sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stt) !=
            2)
            continue;
        p[n].pid = atoi(e->d_name);
        size_t len = (size_t)(close - open - 1);
        if (len >= sizeof p[n].comm)
            len = sizeof p[n].comm - 1;
        memcpy(p[n].comm, open + 1, len);
        p[n].comm[len] = '\0';
        p[n].ticks = ut + stt;
        n++;
    }
    closedir(d);
    return n;
}

static void busy_processes(char *out, size_t size, int sample_ms)
{
    enum { MAXP = 4096 };
    struct proc_cpu *a = calloc(MAXP, sizeof *a), *b = calloc(MAXP, sizeof *b);
    out[0] = '\0';
    if (!a || !b)
        goto done;
    size_t na = snapshot(a, MAXP);
    struct timespec ts = {sample_ms / 1000, (long)(sample_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    size_t nb = snapshot(b, MAXP);
    double hz = (double)sysconf(_SC_CLK_TCK);
    int self = getpid();
    /* up to 3 busiest, above 5% of a CPU */
    for (int round = 0; round < 3; round++) {
        double best = 0.05;
        size_t bi = SIZE_MAX;
        for (size_t i = 0; i < nb; i++) {
            if (b[i].pid == self || b[i].ticks == (unsigned long long)-1)
                continue;
            for (size_t j = 0; j < na; j++) {
                if (a[j].pid != b[i].pid)
                    continue;
                double share = (double)(b[i].ticks - a[j].ticks) / hz / (sample_ms / 1000.0);
                if (share > best) {
                    best = share;
                    bi = i;
                }
                break;
            }
        }
        if (bi == SIZE_MAX)
            break;
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s %.0f%%", len ? ", " : "", b[bi].comm, best * 100);
        b[bi].ticks = (unsigned long long)-1; /* taken */
    }
done:
    free(a);
    free(b);
}

size_t bl_env_check(bl_env_finding *out, size_t max, int sample_ms)
{
    size_t n = 0;
    char buf[256];
    bl_env_finding *f;

    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof buf) == 0) {
        int perf = strcmp(buf, "performance") == 0;
        if ((f = add(out, max, &n, "governor", perf ? BL_ENV_OK : BL_ENV_WARN))) {
            snprintf(f->value, sizeof f->value, "%s", buf);
            if (!perf)
                snprintf(f->advice, sizeof f->advice,
                         "the clock follows the load: use the performance governor "
                         "(cpupower frequency-set -g performance)");
        }
    } else if ((f = add(out, max, &n, "governor", BL_ENV_NOTE))) {
        snprintf(f->value, sizeof f->value, "not visible (no cpufreq: a VM or a locked BIOS)");
    }

    int boost = -1;
    if (read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", buf, sizeof buf) == 0)
        boost = atoi(buf) == 0;
    else if (read_line("/sys/devices/system/cpu/cpufreq/boost", buf, sizeof buf) == 0)
        boost = atoi(buf) != 0;
    if (boost >= 0 && (f = add(out, max, &n, "boost", boost ? BL_ENV_WARN : BL_ENV_OK))) {
        snprintf(f->value, sizeof f->value, boost ? "on" : "off");
        if (boost)
            snprintf(f->advice, sizeof f->advice,
                     "turbo boost makes the clock depend on temperature and load: turn it off "
                     "for stable numbers");
    }

    if (read_line("/sys/devices/system/cpu/smt/active", buf, sizeof buf) == 0) {
        int on = atoi(buf) != 0;
        if ((f = add(out, max, &n, "smt", on ? BL_ENV_NOTE : BL_ENV_OK))) {
            snprintf(f->value, sizeof f->value, on ? "on" : "off");
            if (on)
                snprintf(f->advice, sizeof f->advice,
                         "a sibling hyperthread shares the core: pin with --cpu to a core "
                         "whose sibling is idle");
        }
    }

    if (read_line("/proc/sys/kernel/randomize_va_space", buf, sizeof buf) == 0 &&
        (f = add(out, max, &n, "aslr", atoi(buf) ? BL_ENV_NOTE : BL_ENV_OK))) {
        snprintf(f->value, sizeof f->value, atoi(buf) ? "on (%s)" : "off", buf);
        if (atoi(buf))
            snprintf(f->advice, sizeof f->advice,
                     "layout differs per process: benchlab re-executes workers, so use "
                     "--count to average over layouts");
    }

    double load1 = 0;
    int ncpu = bl__sys_ncpu();
    if (read_line("/proc/loadavg", buf, sizeof buf) == 0)
        load1 = strtod(buf, NULL);
    char busy[200] = "";
    if (sample_ms > 0)
        busy_processes(busy, sizeof busy, sample_ms);
    int loaded = load1 > 0.5 * ncpu || busy[0];
    if ((f = add(out, max, &n, "load", loaded ? BL_ENV_WARN : BL_ENV_OK))) {
        snprintf(f->value, sizeof f->value, "%.2f on %d CPU%s%s%s%s", load1, ncpu,
                 ncpu == 1 ? "" : "s", busy[0] ? "; busy: " : "", busy, "");
        if (loaded)
            snprintf(f->advice, sizeof f->advice,
                     "other processes compete for the CPUs: expect more discarded batches "
                     "and wider intervals");
    }

    int hv = 0;
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char line[4096];
        while (fgets(line, sizeof line, ci))
            if (strncmp(line, "flags", 5) == 0) {
                hv = strstr(line, " hypervisor") != NULL;
                break;
            }
        fclose(ci);
    }
    if ((f = add(out, max, &n, "hypervisor", hv ? BL_ENV_WARN : BL_ENV_OK))) {
        snprintf(f->value, sizeof f->value, hv ? "yes (a virtual machine)" : "no");
        if (hv)
            snprintf(f->advice, sizeof f->advice,
                     "the host steals time the guest cannot see: compare runs side by side, "
                     "not across days");
    }

    if (read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof buf) == 0) {
        int p = atoi(buf);
        if ((f = add(out, max, &n, "perf_event_paranoid", p > 2 ? BL_ENV_WARN : BL_ENV_OK))) {
            snprintf(f->value, sizeof f->value, "%d", p);
            if (p > 2)
                snprintf(f->advice, sizeof f->advice,
                         "perf events are refused: invalidation falls back to getrusage "
                         "(no migration counts); sysctl kernel.perf_event_paranoid=2");
        }
    }

    if (read_line("/sys/devices/system/cpu/isolated", buf, sizeof buf) == 0) {
        if ((f = add(out, max, &n, "isolated-cpus", buf[0] ? BL_ENV_OK : BL_ENV_NOTE))) {
            snprintf(f->value, sizeof f->value, "%s", buf[0] ? buf : "none");
            if (!buf[0])
                snprintf(f->advice, sizeof f->advice,
                         "no core is kept free of other work (isolcpus=): --cpu still pins "
                         "workers");
        }
    }
    return n;
}

int bl_env_parse_cpus(const char *list, unsigned long long *mask)
{
    *mask = 0;
    const char *p = list;
    if (!p || !*p)
        return BL_EUSAGE;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10);
        if (end == p || a < 0 || a > 63)
            return BL_EUSAGE;
        long b = a;
        p = end;
        if (*p == '-') {
            b = strtol(p + 1, &end, 10);
            if (end == p + 1 || b < a || b > 63)
                return BL_EUSAGE;
            p = end;
        }
        for (long c = a; c <= b; c++)
            *mask |= 1ull << c;
        if (*p == ',')
            p++;
        else if (*p)
            return BL_EUSAGE;
    }
    return 0;
}

const char *bl_env_fingerprint(void)
{
    static char fp[24];
    if (fp[0])
        return fp;
    /* what makes two machines time alike: architecture, processor model,
     * CPUs online, memory, kernel release; not the host name, so that
     * identical CI runners share a fingerprint */
    char mem[128] = "";
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[100];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "MemTotal:", 9) == 0) {
                snprintf(mem, sizeof mem, "%s", line + 9);
                break;
            }
        fclose(f);
    }
    char kernel[300] = "";
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(kernel, sizeof kernel, "%s", u.release);
    char all[1024];
    snprintf(all, sizeof all, "%s|%s|%d|%s|%s", bl__sys_goarch(), bl__sys_cpu_model(),
             bl__sys_ncpu(), mem, kernel);
    uint64_t h = BL__FNV1A_BASIS;
    for (const char *p = all; *p; p++)
        if (*p != ' ' && *p != '\n')
            h = bl__fnv1a(h, p, 1);
    snprintf(fp, sizeof fp, "%016llx", (unsigned long long)h);
    return fp;
}

char *bl__env_warnings(void)
{
    bl_env_finding env[16];
    size_t n = bl_env_check(env, 16, 0);
    struct bl__buf w = {0};
    for (size_t i = 0; i < n; i++)
        if (env[i].level == BL_ENV_WARN)
            bl__buf_printf(&w, "%s%s: %s", w.len ? "; " : "", env[i].check, env[i].value);
    return w.data;
}
