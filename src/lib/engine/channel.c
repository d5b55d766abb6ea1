/*
 * channel.c - the worker's channel as the runner reads it: one message a
 * line ("hello", "s" samples, "calib", "done", ...; the worker side is
 * bench/worker.c), parsed into the worker's launch as it comes, and the
 * capture of the worker's stdout and stderr.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/base.h"
#include "../bench/bench.h"
#include "../instruments/alloc.h"
#include "../instruments/hw_counters.h"
#include "../instruments/preload.h"
#include "../instruments/profiler.h"
#include "../results/results_int.h"
#include "benchlab/env.h"
#include "benchlab/run.h"
#include "engine.h"

#define CAPTURE_MAX 8192 /* bytes of the worker's stdout and stderr we keep */

/* ---- the channel -------------------------------------------------------------- */

static char *rest_after(char *s, int fields)
{
    for (int i = 0; i < fields && s; i++) {
        s = strchr(s, ' ');
        if (s)
            s++;
    }
    return s ? s : (char *)"";
}

/* "metric VALUE UNIT [FLAGS [CFLAGS]]" */
static void handle_metric(bl_launch *l, char *line)
{
    char *unit = rest_after(line, 2);
    char *sp = strchr(unit, ' ');
    unsigned flags = 0, cflags = 0;
    bool counter = false;
    if (sp) {
        *sp = '\0';
        char *end;
        flags = (unsigned)strtoul(sp + 1, &end, 10);
        if (*end == ' ') { /* a counter: its flags, the value its threads' sum */
            counter = true;
            cflags = (unsigned)strtoul(end + 1, NULL, 10);
        }
    }
    if (counter)
        bl_launch_set_counter(l, unit, strtod(line + 7, NULL), flags, cflags);
    else
        bl_launch_set_metric_ex(l, unit, strtod(line + 7, NULL), flags);
}

static void handle_line(struct bl__worker *r, char *line)
{
    bl_launch *l = r->launch;
    if (strncmp(line, "s ", 2) == 0) {
        bl_sample s;
        memset(&s, 0, sizeof s);
        char stage;
        unsigned long long reps, ns;
        long long cpu, migr;
        long nivcsw, minflt, majflt;
        unsigned pauses;
        double ref = 0;      /* a suite built before the reference chain sends 9 fields */
        long long proc = -1; /* the process's CPU time (.process_cpu); older suites: none */
        if (sscanf(line, "s %c %llu %llu %lld %ld %lld %ld %ld %u %lf %lld", &stage, &reps, &ns,
                   &cpu, &nivcsw, &migr, &minflt, &majflt, &pauses, &ref, &proc) < 9) {
            snprintf(r->proto_error, sizeof r->proto_error, "bad sample line: %.100s", line);
            return;
        }
        s.stage = stage;
        s.reps = reps;
        s.ns = (double)ns;
        s.cpu_ns = (double)cpu;
        s.nivcsw = (uint32_t)(nivcsw > 0 ? nivcsw : 0);
        s.migrations = (uint32_t)(migr != 0 ? 1 : 0) * (uint32_t)(migr > 0 ? migr : 1);
        s.minflt = (uint32_t)(minflt > 0 ? minflt : 0);
        s.majflt = (uint32_t)(majflt > 0 ? majflt : 0);
        s.pauses = pauses;
        s.ref_ns = ref > 0 && isfinite(ref) ? ref : 0;
        s.proc_cpu_ns = proc > 0 ? (double)proc : -1;
        bl_launch_add_sample(l, &s);
        if (stage == BL_STAGE_MEASURE)
            r->n_measure_lines++;
    } else if (strncmp(line, "hello ", 6) == 0) {
        r->got_hello = true;
        if (atoi(line + 6) != 1)
            snprintf(r->proto_error, sizeof r->proto_error,
                     "the suite speaks channel version %d, this runner 1", atoi(line + 6));
    } else if (strncmp(line, "calib ", 6) == 0) {
        sscanf(line, "calib %lf %lf", &l->clock_ns, &l->pause_ns);
    } else if (strncmp(line, "complexity ", 11) == 0) {
        int mode, used = 0;
        long long n;
        double g;
        char param[128];
        if (sscanf(line, "complexity %d %lld %lf %127s%n", &mode, &n, &g, param, &used) == 4) {
            const char *curve = line + used;
            while (*curve == ' ')
                curve++;
            free(l->size.param);
            free(l->size.user_name);
            l->size.param = bl__strdup(param);
            l->size.user_name = *curve ? bl__strdup(curve) : NULL;
            l->size.n = (double)n;
            l->size.complexity = mode;
            l->size.user_g = g;
        } else if (!r->proto_error[0]) {
            snprintf(r->proto_error, sizeof r->proto_error, "bad complexity line: %.100s", line);
        }
    } else if (strncmp(line, "complexity-sum ", 15) == 0) {
        long long n_sum;
        double g;
        if (sscanf(line, "complexity-sum %lld %lf", &n_sum, &g) == 2 && n_sum > 0) {
            l->size.n_sum = (double)n_sum;
            l->size.user_g_sum = g;
        } else if (!r->proto_error[0]) {
            snprintf(r->proto_error, sizeof r->proto_error, "bad complexity-sum line: %.100s",
                     line);
        }
    } else if (strncmp(line, "cgroup ", 7) == 0) {
        free(l->size.group);
        l->size.group = bl__strdup(line + 7);
    } else if (strncmp(line, "tunit ", 6) == 0) {
        const char *u = line + 6;
        if (strcmp(u, "ns") == 0 || strcmp(u, "us") == 0 || strcmp(u, "ms") == 0 ||
            strcmp(u, "s") == 0)
            snprintf(l->time_unit, sizeof l->time_unit, "%s", u);
        else if (!r->proto_error[0])
            snprintf(r->proto_error, sizeof r->proto_error, "bad tunit line: %.100s", line);
    } else if (strncmp(line, "threads ", 8) == 0) {
        int t = atoi(line + 8);
        l->threads = t > 0 ? t : 0;
    } else if (strncmp(line, "ready ", 6) == 0) {
        if (sscanf(line, "ready %llu %lf", &r->ready_reps, &r->ready_ns) != 2 || !r->ready_reps)
            r->ready_reps = 1;
    } else if (strncmp(line, "bytes ", 6) == 0) {
        char *end;
        l->bytes_per_op = strtod(line + 6, &end);
        l->bytes_sum_per_op = *end ? strtod(end, NULL) : 0; /* older suites: not said */
    } else if (strncmp(line, "items ", 6) == 0) {
        char *end;
        l->items_per_op = strtod(line + 6, &end);
        l->items_sum_per_op = *end ? strtod(end, NULL) : 0;
    } else if (strncmp(line, "label ", 6) == 0) {
        free(l->label);
        l->label = bl__strdup(line + 6);
    } else if (strncmp(line, "metric ", 7) == 0) {
        handle_metric(l, line);
    } else if (strncmp(line, "skip ", 5) == 0 || strcmp(line, "skip") == 0) {
        r->fail_kind = 1;
        free(l->message);
        l->message = bl__strdup(rest_after(line, 1));
    } else if (strncmp(line, "fail ", 5) == 0 || strcmp(line, "fail") == 0) {
        r->fail_kind = 2;
        free(l->message);
        l->message = bl__strdup(rest_after(line, 1));
    } else if (strncmp(line, "alloc ", 6) == 0 && r->alloc) {
        struct bl__alloc_out *a = r->alloc;
        a->got = sscanf(line, "alloc %llu %llu %llu %llu %llu %llu %llu %llu", &a->k, &a->d,
                        &a->allocs_k, &a->bytes_k, &a->allocs_kd, &a->bytes_kd, &a->foreign,
                        &a->untracked) == 8;
    } else if (strncmp(line, "counters ", 9) == 0 || strncmp(line, "instr ", 6) == 0) {
        free(r->counters_line);
        r->counters_line = bl__strdup(line);
    } else if (strncmp(line, "tune ", 5) == 0) {
        l->tuned_reps = strtoull(line + 5, NULL, 10);
    } else if (strncmp(line, "tune-stale ", 11) == 0) {
        l->tune_stale = true;
    } else if (strncmp(line, "stray ", 6) == 0) {
        if (!r->stray_pid)
            r->stray_pid = atol(line + 6);
    } else if (strncmp(line, "done", 4) == 0) {
        unsigned long long iters = 0;
        char clock[16] = "", cpu[16] = "";
        /* older suites: no clock, or no CPU clock (the thread's) */
        if (sscanf(line, "done %llu %15s %15s", &iters, clock, cpu) >= 2) {
            l->loop_iterations = iters;
            l->counter_clock = strcmp(clock, "real") == 0     ? BL_CLOCK_REAL
                               : strcmp(clock, "manual") == 0 ? BL_CLOCK_MANUAL
                                                              : BL_CLOCK_CPU;
            l->cpu_clock = strcmp(cpu, "process") == 0 ? BL_CPU_PROCESS : BL_CPU_THREAD;
        }
        r->got_done = true;
        r->done_ns = bl__now_ns();
    } else if (!r->proto_error[0]) {
        snprintf(r->proto_error, sizeof r->proto_error, "unknown message: %.100s", line);
    }
}

void bl__channel_feed(struct bl__worker *r, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            bl__buf_append(&r->line, "", 0);
            if (r->line.data)
                handle_line(r, r->line.data);
            r->line.len = 0;
        } else if (r->line.len < 4096) {
            bl__buf_append(&r->line, &p[i], 1);
        }
    }
}

void bl__capture(char **dst, size_t *total, const char *p, size_t n)
{
    size_t have = *dst ? strlen(*dst) : 0;
    *total += n;
    if (have >= CAPTURE_MAX)
        return;
    size_t take = n < CAPTURE_MAX - have ? n : CAPTURE_MAX - have;
    char *np = realloc(*dst, have + take + 1);
    if (!np)
        return;
    memcpy(np + have, p, take);
    np[have + take] = '\0';
    /* NUL bytes in junk output would cut the string short: show them as '.' */
    for (size_t i = have; i < have + take; i++)
        if (np[i] == '\0')
            np[i] = '.';
    *dst = np;
}
