/*
 * runner.c - the parent side of a benchmark run.
 *
 * Turns a plan (which benchmark instances, how many launches, in what
 * order) into a bl_results. The runner never times anything: workers
 * (bench/worker.c) measure and send each batch on their channel as soon as
 * it is taken. We parse the messages, watch the worker (time limit, crash,
 * early exit), capture its stdout and stderr apart, and judge its batches
 * (bl_launch_finish). Progress goes to the caller's observer.
 *
 * Invariant: a launch is in the results whatever happened to its worker,
 * with its status and everything it had sent; the run always goes on with
 * the next launch, unless the user interrupted it.
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
#include "../instruments/counters.h"
#include "../instruments/preload.h"
#include "../instruments/profiler.h"
#include "../results/results_int.h"
#include "benchlab/env.h"
#include "benchlab/run.h"
#include "engine.h"

#define CAPTURE_MAX 8192 /* bytes of the worker's stdout and stderr we keep */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

void bl_run_install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: poll() must wake up */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void bl_run_options_init(bl_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->time_s = 0.5;
    o->batch_ms = 1.0;
    o->timeout_s = 60.0;
    o->count = BL_DEFAULT_LAUNCHES;
}

/* ---- spawning --------------------------------------------------------------- */

static int move_high(int fd)
{
    int hi = fcntl(fd, F_DUPFD, 10);
    return hi;
}

/* A worker's descriptors are moved to 10 and up (move_high) before they
 * land on 0-5: under a lower open-file limit it could not start. */
#define MIN_OPEN_FILES 16

/* 0, or -EMFILE when the open-file limit is below MIN_OPEN_FILES. */
static int check_open_files(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < MIN_OPEN_FILES)
        return -EMFILE;
    return 0;
}

/* The message of a spawn that failed with -EMFILE (the caller names the program). */
static void open_files_message(char *err, size_t err_size)
{
    struct rlimit rl = {0, 0};
    getrlimit(RLIMIT_NOFILE, &rl);
    snprintf(err, err_size,
             "cannot start a worker: too many open files (the open-file limit, ulimit -n, is "
             "%llu; a worker needs %d)",
             (unsigned long long)rl.rlim_cur, MIN_OPEN_FILES);
}

bool bl__run_interrupted(void)
{
    return interrupted != 0;
}

/*
 * Start a worker: the suite re-executed with --benchlab-worker NAME, the
 * channel on fd 3, stdout and stderr on pipes, stdin from /dev/null, in a
 * process group of its own (so that we can kill what it forks, and Ctrl-C
 * reaches the runner, which decides). In driven mode (benchlab ab) a
 * command pipe goes to fd 5.
 *
 * We re-execute instead of only forking: a fresh process has a fresh heap
 * and ASLR layout, so one benchmark cannot warm up or fragment memory for
 * the next, and the same executor serves the suite binary and `benchlab
 * run`. The ~1 ms spawn is paid outside any timed region.
 */
#define PRELOAD_FD 4

static unsigned long long pin_mask; /* CPUs workers are pinned to; 0: none */

static void close_pair(int p[2])
{
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
}

static void apply_env(const struct bl__spawn_env *x)
{
    /* the runner is single-threaded: setenv after fork is safe here */
    for (int i = 0; i < 8 && x->set[i]; i++) {
        const char *eq = strchr(x->set[i], '=');
        char name[64];
        if (!eq || (size_t)(eq - x->set[i]) >= sizeof name)
            continue;
        memcpy(name, x->set[i], (size_t)(eq - x->set[i]));
        name[eq - x->set[i]] = '\0';
        setenv(name, eq + 1, 1);
    }
    const char *lib = x->preload_path;
    char fdpath[32];
    if (x->preload_fd >= 0) {
        snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", PRELOAD_FD);
        lib = fdpath;
    }
    if (lib) {
        char val[4096];
        const char *old = getenv("LD_PRELOAD");
        snprintf(val, sizeof val, "%s%s%s", lib, old && *old ? " " : "", old ? old : "");
        setenv("LD_PRELOAD", val, 1);
    }
}

static int spawn(const char *exe, char *const argv[], const struct bl__spawn_env *x, bool driven,
                 struct bl__worker *w)
{
    int preload_fd = x ? x->preload_fd : -1;
    int chan[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, cmd[2] = {-1, -1};
    int limit = check_open_files();
    if (limit)
        return limit;
    if (pipe2(chan, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
        (driven && pipe2(cmd, O_CLOEXEC))) {
        int e = -errno;
        close_pair(chan), close_pair(out), close_pair(err), close_pair(cmd);
        return e;
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = -errno;
        close_pair(chan), close_pair(out), close_pair(err), close_pair(cmd);
        return e;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (pin_mask) {
            cpu_set_t set;
            CPU_ZERO(&set);
            for (int c = 0; c < 64; c++)
                if (pin_mask & (1ull << c))
                    CPU_SET(c, &set);
            if (sched_setaffinity(0, sizeof set, &set) != 0) {
                dprintf(2, "cannot pin to the CPUs of --cpu: %s\n", strerror(errno));
                _exit(126);
            }
        }
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        int c = move_high(chan[1]), o = move_high(out[1]), e = move_high(err[1]);
        int pre = preload_fd >= 0 ? move_high(preload_fd) : -1;
        int k = driven ? move_high(cmd[0]) : -1;
        int devnull = open("/dev/null", O_RDONLY);
        if (c < 0 || o < 0 || e < 0 || devnull < 0 || (preload_fd >= 0 && pre < 0) ||
            (driven && k < 0))
            _exit(127);
        dup2(devnull, 0);
        dup2(o, 1);
        dup2(e, 2);
        dup2(c, BL__CHANNEL_FD); /* dup2 clears FD_CLOEXEC on the new descriptor */
        if (k >= 0)
            dup2(k, BL__COMMAND_FD);
        if (pre >= 0)
            dup2(pre, PRELOAD_FD);
        if (x)
            apply_env(x);
        execv(exe, argv);
        dprintf(2, "cannot execute %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, to win the race with exec */
    close(chan[1]);
    close(out[1]);
    close(err[1]);
    if (driven)
        close(cmd[0]);
    w->pid = pid;
    w->chan = chan[0];
    w->out = out[0];
    w->err = err[0];
    w->cmd = driven ? cmd[1] : -1;
    return 0;
}

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
        double ref = 0; /* a suite built before the reference chain sends 9 fields */
        if (sscanf(line, "s %c %llu %llu %lld %ld %lld %ld %ld %u %lf", &stage, &reps, &ns, &cpu,
                   &nivcsw, &migr, &minflt, &majflt, &pauses, &ref) < 9) {
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
    } else if (strncmp(line, "threads ", 8) == 0) {
        int t = atoi(line + 8);
        l->threads = t > 0 ? t : 0;
    } else if (strncmp(line, "ready ", 6) == 0) {
        if (sscanf(line, "ready %llu %lf", &r->ready_reps, &r->ready_ns) != 2 || !r->ready_reps)
            r->ready_reps = 1;
    } else if (strncmp(line, "bytes ", 6) == 0) {
        l->bytes_per_op = strtod(line + 6, NULL);
    } else if (strncmp(line, "items ", 6) == 0) {
        l->items_per_op = strtod(line + 6, NULL);
    } else if (strncmp(line, "label ", 6) == 0) {
        free(l->label);
        l->label = bl__strdup(line + 6);
    } else if (strncmp(line, "metric ", 7) == 0) {
        char *unit = rest_after(line, 2);
        char *sp = strchr(unit, ' ');
        unsigned flags = 0;
        if (sp) {
            *sp = '\0';
            flags = (unsigned)strtoul(sp + 1, NULL, 10);
        }
        bl_launch_set_metric_ex(l, unit, strtod(line + 7, NULL), flags);
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
    } else if (strncmp(line, "counters ", 9) == 0) {
        free(r->counters_line);
        r->counters_line = bl__strdup(line);
    } else if (strncmp(line, "tune ", 5) == 0) {
        l->tuned_reps = strtoull(line + 5, NULL, 10);
    } else if (strncmp(line, "tune-stale ", 11) == 0) {
        l->tune_stale = true;
    } else if (strncmp(line, "done", 4) == 0) {
        r->got_done = true;
        r->done_ns = bl__now_ns();
    } else if (!r->proto_error[0]) {
        snprintf(r->proto_error, sizeof r->proto_error, "unknown message: %.100s", line);
    }
}

static void feed(struct bl__worker *r, const char *p, size_t n)
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

static void capture(char **dst, size_t *total, const char *p, size_t n)
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

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGTRAP:
        return "SIGTRAP";
    default:
        return "signal";
    }
}

static void set_message(bl_launch *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_message(bl_launch *l, const char *fmt, ...)
{
    struct bl__buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    bl__buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(l->message);
    l->message = b.data;
}

/* ---- one worker's life ------------------------------------------------------- */

/*
 * What a worker leaves behind. A benchmark may fork: children stay in the
 * worker's process group unless they leave it (setsid, a daemon's double
 * fork). While workers run, the runner is a child subreaper, so that
 * orphans of a worker's tree are reparented to it rather than to init;
 * when a worker ends, its group is killed, then every child of the runner
 * that started after the worker and is not a live worker, until none is
 * left (killing a child reparents its own children to us).
 */
#define MAX_LIVE 64
static pid_t live[MAX_LIVE];
static int n_live;
static int n_held, subreaper_was; /* subreaper_was: -1 not changed by us */

/* The runner is a subreaper while it holds a worker (from before its fork
 * to after its strays are killed); the previous setting comes back after. */
static void subreaper_hold(void)
{
    if (n_held++ == 0) {
        int was = 0;
        subreaper_was = prctl(PR_GET_CHILD_SUBREAPER, &was) == 0 ? was : -1;
        if (subreaper_was == 0 && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
            subreaper_was = -1;
    }
}

static void subreaper_release(void)
{
    if (n_held > 0 && --n_held == 0 && subreaper_was == 0)
        prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* Fields of /proc/PID/stat: parent, process group and start time (ticks). */
static int proc_stat(pid_t pid, pid_t *ppid, pid_t *pgrp, unsigned long long *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
    if (!p)
        return -1;
    int pp = 0, pg = 0;
    unsigned long long st = 0;
    /* ") S ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
     *  cutime cstime priority nice threads itrealvalue starttime" */
    if (sscanf(p + 1,
               " %*c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
               &pp, &pg, &st) != 3)
        return -1;
    *ppid = pp;
    *pgrp = pg;
    *start = st;
    return 0;
}

static void live_add(pid_t pid)
{
    if (n_live < MAX_LIVE)
        live[n_live++] = pid;
}

static void live_remove(pid_t pid)
{
    for (int i = 0; i < n_live; i++)
        if (live[i] == pid) {
            live[i] = live[--n_live];
            break;
        }
}

static bool is_live(pid_t pid)
{
    for (int i = 0; i < n_live; i++)
        if (live[i] == pid)
            return true;
    return false;
}

/* Kill and reap the runner's children that started at or after `since`
 * and are not live workers; the number found. */
static int kill_strays_once(unsigned long long since)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t self = getpid();
    pid_t found[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        char *end;
        long v = strtol(e->d_name, &end, 10);
        pid_t ppid, pgrp;
        unsigned long long start;
        if (*end || v <= 0 || (pid_t)v == self || proc_stat((pid_t)v, &ppid, &pgrp, &start) ||
            ppid != self || start < since || is_live((pid_t)v))
            continue;
        found[n++] = (pid_t)v;
    }
    closedir(d);
    for (int i = 0; i < n; i++)
        kill(found[i], SIGKILL);
    for (int i = 0; i < n; i++)
        while (waitpid(found[i], NULL, 0) < 0 && errno == EINTR) {
        }
    return n;
}

static void kill_strays(const struct bl__worker *w)
{
    if (!w->start_ticks)
        return;
    /* each round reparents the next generation to us; a fork bomb is cut off */
    for (int round = 0; round < 100 && kill_strays_once(w->start_ticks) > 0; round++) {
    }
}

/* How long a worker that sent "done" may take to exit before it is killed
 * (its results kept: they are complete). */
#define DONE_GRACE_NS (10ull * 1000000000ull)

/* Whether the worker itself has exited (reaped now, its status kept). */
static bool worker_exited(struct bl__worker *w)
{
    if (w->exited)
        return true;
    int status;
    pid_t r = waitpid(w->pid, &status, WNOHANG);
    if (r == w->pid) {
        w->exited = true;
        w->status = status;
    }
    return w->exited;
}

int bl__worker_start(struct bl__worker *w, const char *exe, char *const argv[],
                     const struct bl__spawn_env *env, bool driven, bl_launch *launch)
{
    memset(w, 0, sizeof *w);
    w->chan = w->out = w->err = w->cmd = w->pidfd = -1;
    w->launch = launch;
    w->t0 = bl__now_ns();
    subreaper_hold(); /* before the fork: no orphan of it escapes */
    int err = spawn(exe, argv, env, driven, w);
    if (err) {
        subreaper_release();
        launch->status = BL_EEXIT;
        set_message(launch, "cannot start a worker: %s", bl_strerror(err));
        return err;
    }
    live_add(w->pid);
#ifdef SYS_pidfd_open
    w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0); /* Linux 5.3; -1: waitpid polling */
#endif
    pid_t ppid, pgrp;
    if (proc_stat(w->pid, &ppid, &pgrp, &w->start_ticks) != 0)
        w->start_ticks = 0; /* strays are then left to the process group kill */
    return 0;
}

/* The worker has exited: read what it wrote before (still in the pipes),
 * without waiting for children of it that keep them open. */
static void drain(struct bl__worker *w)
{
    char buf[65536];
    int *fds[3] = {&w->chan, &w->out, &w->err};
    for (int round = 0; round < 64; round++) { /* a child writing forever is cut off */
        struct pollfd pfd[3] = {{w->chan, POLLIN, 0}, {w->out, POLLIN, 0}, {w->err, POLLIN, 0}};
        if (poll(pfd, 3, 0) <= 0)
            return;
        for (int i = 0; i < 3; i++) {
            if (*fds[i] < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(*fds[i], buf, sizeof buf);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                close(*fds[i]);
                *fds[i] = -1;
            } else if (i == 0) {
                feed(w, buf, (size_t)got);
            } else if (i == 1) {
                capture(&w->launch->out, &w->launch->out_total, buf, (size_t)got);
            } else {
                capture(&w->launch->err, &w->launch->err_total, buf, (size_t)got);
            }
        }
    }
}

int bl__worker_poll(struct bl__worker *w, uint64_t deadline)
{
    if (w->exited || (w->chan < 0 && w->out < 0 && w->err < 0))
        return 0;
    if (interrupted)
        return BL_EINTR;
    /* measurements complete: what follows is exit, which takes no time */
    if (w->got_done && deadline > w->done_ns + DONE_GRACE_NS)
        deadline = w->done_ns + DONE_GRACE_NS;
    uint64_t now = bl__now_ns();
    if (now >= deadline)
        return BL_ETIMEOUT;
    struct pollfd pfd[4] = {
        {w->chan, POLLIN, 0}, {w->out, POLLIN, 0}, {w->err, POLLIN, 0}, {w->pidfd, POLLIN, 0}};
    uint64_t left_ms = (deadline - now) / 1000000 + 1;
    /* without a pidfd, the worker's exit is checked at least every 100 ms */
    uint64_t cap = w->pidfd >= 0 ? 1000 : 100;
    int n = poll(pfd, 4, left_ms > cap ? (int)cap : (int)left_ms);
    if (n < 0)
        return errno == EINTR ? 1 : -errno;
    char buf[65536];
    int *fds[3] = {&w->chan, &w->out, &w->err};
    bl_launch *l = w->launch;
    for (int i = 0; i < 3; i++) {
        if (*fds[i] < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        ssize_t got = read(*fds[i], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            close(*fds[i]);
            *fds[i] = -1;
            continue;
        }
        if (i == 0)
            feed(w, buf, (size_t)got);
        else if (i == 1)
            capture(&l->out, &l->out_total, buf, (size_t)got);
        else
            capture(&l->err, &l->err_total, buf, (size_t)got);
    }
    if (w->chan < 0 && w->out < 0 && w->err < 0)
        return 0;
    if ((w->pidfd < 0 || (pfd[3].revents & (POLLIN | POLLHUP))) && worker_exited(w)) {
        drain(w);
        return 0;
    }
    return 1;
}

int bl__worker_command(struct bl__worker *w, const char *command)
{
    if (w->cmd < 0)
        return -EPIPE;
    char line[128];
    int n = snprintf(line, sizeof line, "%s\n", command);
    if (n < 0 || (size_t)n >= sizeof line)
        return -EINVAL;
    /* A worker that died leaves a pipe without reader: take EPIPE, not
     * SIGPIPE, without touching the process's signal dispositions. */
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    int err = bl__write_all(w->cmd, line, (size_t)n);
    if (err == -EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err) {
        close(w->cmd);
        w->cmd = -1;
    }
    return err;
}

void bl__worker_end(struct bl__worker *w, const char *exe, int stop, double timeout_s)
{
    bl_launch *l = w->launch;
    if (w->cmd >= 0) {
        close(w->cmd); /* end of file: a driven worker ends its loop */
        w->cmd = -1;
    }
    if (stop) {
        kill(-w->pid, SIGKILL);
        if (!w->exited)
            kill(w->pid, SIGKILL);
    }
    int status = w->status;
    if (!w->exited)
        while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {
        }
    w->exited = true;
    /* The worker may have left children holding the pipes, or daemons that
     * left its group: kill the group, then what was reparented to us. */
    kill(-w->pid, SIGKILL);
    live_remove(w->pid);
    kill_strays(w);
    subreaper_release();
    if (w->pidfd >= 0)
        close(w->pidfd);
    w->pidfd = -1;
    if (w->chan >= 0)
        close(w->chan);
    if (w->out >= 0)
        close(w->out);
    if (w->err >= 0)
        close(w->err);
    w->chan = w->out = w->err = -1;
    bl__buf_fini(&w->line);
    l->wall_s = (double)(bl__now_ns() - w->t0) / 1e9;
    if (WIFEXITED(status))
        l->exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        l->term_signal = WTERMSIG(status);

    if (stop == BL_EINTR) {
        l->status = BL_EINTR;
        set_message(l, "interrupted");
    } else if (stop == BL_ETIMEOUT && w->got_done) {
        /* it measured everything and sent it, then did not exit: killed,
         * its results kept */
    } else if (stop == BL_ETIMEOUT) {
        l->status = BL_ETIMEOUT;
        set_message(l, "ran past its time limit of %gs and was killed (use --timeout to raise it)",
                    timeout_s);
    } else if (WIFSIGNALED(status)) {
        l->status = BL_ECRASH;
        set_message(l, "crashed: killed by %s (signal %d)%s", signal_name(l->term_signal),
                    l->term_signal, WCOREDUMP(status) ? ", core dumped" : "");
    } else if (w->fail_kind == 2) {
        l->status = BL_EBENCH;
    } else if (w->fail_kind == 1) {
        l->skipped = true;
    } else if (l->exit_code == 127 && !w->got_hello) {
        l->status = BL_EEXIT;
        set_message(l, "could not execute %s (is it a benchlab suite?)", exe);
    } else if (!w->got_hello) {
        l->status = BL_EPROTO;
        set_message(l,
                    "%s did not answer as a benchlab worker (exit status %d): is it a "
                    "benchlab suite?",
                    exe, l->exit_code);
    } else if (!w->got_done) {
        l->status = BL_EEXIT;
        set_message(l,
                    "exited with status %d before it finished (exit() called inside the "
                    "benchmark?)",
                    l->exit_code);
    } else if (w->proto_error[0]) {
        l->status = BL_EPROTO;
        set_message(l, "protocol error: %s", w->proto_error);
    } else if (l->exit_code != 0) {
        l->status = BL_EEXIT;
        set_message(l, "exited with status %d after its measurements", l->exit_code);
    }
    bl_launch_finish(l);
}

/* What a launch does besides timing: one pass at most; all zero for timing. */
struct pass {
    struct bl__alloc_out *alloc; /* the allocation pass */
    const char *counters;        /* the counters pass, with this list */
    char **counters_line;        /* receives its "counters" message */
    int profile;                 /* the profile pass: enum bl__profile_mode */
    const char *profile_raw;     /* its raw file */
    int preload_fd;              /* the sampler: a memfd, */
    const char *preload_path;    /* or a file */
};

/* How a launch ended, for the plan. */
enum {
    LAUNCH_OK,        /* a value, or an instrument pass that ran */
    LAUNCH_BROKEN,    /* the benchmark ended it (crash, time limit, early exit, bl_fail,
                         bl_skip, not a suite): launching it again would do the same */
    LAUNCH_DISTURBED, /* every measured batch was disturbed: the machine's noise */
};

/* Run one launch to its end; fills `l`. `reps`: the batch size the tune
 * file knows (the worker skips its pilot), or 0. Returns a LAUNCH_ value. */
static int run_launch(const char *exe, const char *name, const bl_run_options *o,
                      unsigned long long seed, bl_launch *l, const struct pass *pass,
                      unsigned long long reps)
{
    static const struct pass timing = {NULL, NULL, NULL, 0, NULL, -1, NULL};
    if (!pass)
        pass = &timing;
    struct bl__alloc_out *alloc = pass->alloc;
    const char *counters = pass->counters;
    char **counters_line = pass->counters_line;
    char time_s[32], batch[32], seed_s[32], fd_s[8], reps_s[32];
    /* the benchmark's budget is split evenly across its launches */
    snprintf(time_s, sizeof time_s, "%.9g", o->time_s / (o->count > 0 ? o->count : 1));
    snprintf(batch, sizeof batch, "%.17g", o->batch_ms);
    snprintf(seed_s, sizeof seed_s, "%llu", seed);
    snprintf(fd_s, sizeof fd_s, "%d", BL__CHANNEL_FD);
    char *argv[] = {(char *)exe,  (char *)"--benchlab-worker",
                    (char *)name, (char *)"--benchlab-fd",
                    fd_s,         (char *)"--benchlab-time",
                    time_s,       (char *)"--benchlab-batch",
                    batch,        (char *)"--benchlab-seed",
                    seed_s,       NULL,
                    NULL,         NULL,
                    NULL,         NULL};
    struct bl__spawn_env env = {-1, NULL, {NULL}};
    char out_var[4200], hz_var[64];
    if (alloc) {
        argv[11] = (char *)"--benchlab-mode";
        argv[12] = (char *)"alloc";
        env.preload_fd = bl__alloc_preload_fd();
        if (env.preload_fd < 0) {
            l->status = BL_EUNSUPPORTED;
            set_message(l, "cannot prepare the allocation counter: %s",
                        bl_strerror(env.preload_fd));
            return LAUNCH_BROKEN;
        }
    } else if (counters) {
        argv[11] = (char *)"--benchlab-counters";
        argv[12] = (char *)counters;
    } else if (pass->profile) {
        argv[11] = (char *)"--benchlab-profile";
        argv[12] = (char *)bl__profile_mode_name(pass->profile);
        snprintf(out_var, sizeof out_var, "BENCHLAB_PROFILE_OUT=%s", pass->profile_raw);
        snprintf(hz_var, sizeof hz_var, "BENCHLAB_PROFILE_HZ=%u",
                 o->profile_hz ? o->profile_hz : 1000);
        const char *vars[] = {out_var,
                              "BENCHLAB_PROFILE_PAUSED=1",
                              hz_var,
                              "BENCHLAB_PROFILE_CLOCK=cpu",
                              "BENCHLAB_PROFILE_UNWIND=auto",
                              "BENCHLAB_TRACE_EVENTS=0",
                              NULL};
        memcpy(env.set, vars, sizeof vars);
        env.preload_fd = pass->preload_fd;
        env.preload_path = pass->preload_path;
    }
    if (reps) {
        int k = argv[11] ? 13 : 11;
        snprintf(reps_s, sizeof reps_s, "%llu", reps);
        argv[k] = (char *)"--benchlab-reps";
        argv[k + 1] = reps_s;
    }
    struct bl__worker w;
    if (bl__worker_start(&w, exe, argv, &env, false, l))
        return LAUNCH_BROKEN;
    w.alloc = alloc;
    uint64_t deadline = w.t0 + (uint64_t)(o->timeout_s * 1e9);
    int rc;
    while ((rc = bl__worker_poll(&w, deadline)) > 0) {
    }
    bl__worker_end(&w, exe, rc == BL_ETIMEOUT || rc == BL_EINTR ? rc : 0, o->timeout_s);
    int how = l->skipped || (l->status != 0 && l->status != BL_EINTR) ? LAUNCH_BROKEN : LAUNCH_OK;
    if (counters_line)
        *counters_line = w.counters_line;
    else
        free(w.counters_line);
    if (l->status == 0 && !l->skipped && !alloc && !counters && !pass->profile &&
        isnan(l->ns_per_op)) {
        l->status = BL_EBENCH;
        struct bl__buf why = {0};
        for (unsigned b = 0; b < BL_INVALID_NREASONS; b++)
            if (l->invalid_by[b])
                bl__buf_printf(&why, "%s%s %zu", why.len ? ", " : "", bl_invalid_name(b),
                               l->invalid_by[b]);
        set_message(l, "no clean measurement: all %zu measured batches were disturbed (%s)",
                    l->n_measured, why.data ? why.data : "no batches");
        bl__buf_fini(&why);
        l->disturbed = true;
        how = LAUNCH_DISTURBED;
    }
    return how;
}

/*
 * The allocation pass of one benchmark: a worker with the counting library
 * preloaded. Per-op counts are the difference between k+d and k counted
 * repetitions, divided by d: exact for deterministic code, and free of
 * whatever the benchmark allocates once per batch. Sets bench->has_alloc
 * or bench->alloc_message; never a number it cannot stand behind.
 */
static void run_alloc_pass(const char *exe, const bl_run_options *o, unsigned long long seed,
                           bl_bench_result *b)
{
    bl_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    struct bl__alloc_out a;
    memset(&a, 0, sizeof a);
    struct pass pass = {&a, NULL, NULL, 0, NULL, -1, NULL};
    run_launch(exe, b->name, o, seed, &tmp, &pass, 0);
    free(b->alloc_message);
    b->alloc_message = NULL;
    struct bl__buf msg = {0};
    if (tmp.status || tmp.skipped)
        bl__buf_printf(&msg, "the allocation pass failed: %s",
                       tmp.message ? tmp.message : bl_strerror(tmp.status));
    else if (!a.got)
        bl__buf_printf(&msg, "the allocation pass sent no counts");
    else if (a.foreign)
        bl__buf_printf(&msg,
                       "it frees or resizes memory that was not allocated in the measured loop "
                       "(%llu blocks, allocated in setup?): B/op and allocs/op would not "
                       "describe one repetition, so none are reported",
                       a.foreign);
    else if (a.untracked)
        bl__buf_printf(&msg, "too many live blocks to track (%llu untracked)", a.untracked);
    else if (a.allocs_kd < a.allocs_k || a.bytes_kd < a.bytes_k)
        bl__buf_printf(&msg,
                       "fewer allocations for more repetitions (%llu then %llu): the "
                       "benchmark is not deterministic enough to count",
                       a.allocs_k, a.allocs_kd);
    if (msg.data) {
        b->has_alloc = false;
        b->alloc_message = msg.data;
    } else {
        b->has_alloc = true;
        b->allocs_per_op = (double)(a.allocs_kd - a.allocs_k) / (double)a.d;
        b->alloc_bytes_per_op = (double)(a.bytes_kd - a.bytes_k) / (double)a.d;
    }
    bl__launch_fini(&tmp);
}

/* The counters pass of one benchmark: per-op counts by the same k, k+d
 * difference as the allocation pass, scaled when the kernel multiplexed. */
static void run_counters_pass(const char *exe, const bl_run_options *o, unsigned long long seed,
                              bl_bench_result *b)
{
    bl_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    char *line = NULL;
    struct pass pass = {NULL, o->counters[0] ? o->counters : "", &line, 0, NULL, -1, NULL};
    run_launch(exe, b->name, o, seed, &tmp, &pass, 0);
    unsigned long long k = 0, d = 0;
    int scaled = 0, used = 0;
    if (tmp.status || tmp.skipped || !line ||
        sscanf(line, "counters %llu %llu %d%n", &k, &d, &scaled, &used) != 3 || d == 0) {
        free(b->counters_message);
        struct bl__buf m = {0};
        bl__buf_printf(&m, "the counters pass failed: %s",
                       tmp.message ? tmp.message
                       : line      ? "bad counts"
                                   : "no counts sent");
        b->counters_message = m.data;
    } else {
        const char *p = line + used;
        char name[32];
        double base, more;
        int adv = 0;
        b->n_counters = 0;
        while (b->n_counters < 6 && sscanf(p, " %31s %lf %lf%n", name, &base, &more, &adv) == 3) {
            snprintf(b->counter_unit[b->n_counters], sizeof b->counter_unit[0], "%.27s/op", name);
            b->counter_per_op[b->n_counters] = (more - base) / (double)d;
            b->n_counters++;
            p += adv;
        }
        b->counters_scaled = scaled != 0;
    }
    free(line);
    bl__launch_fini(&tmp);
}

/*
 * The profile pass of one benchmark: a timing worker with the profiler
 * attached (the sampler preloaded, or the tracer the suite links), which
 * records only in the timed segments of measured batches. Its timings are
 * thrown away, so the profiler never disturbs the reported numbers. Sets
 * bench->profile_raw when the raw file holds anything (a crash keeps the
 * samples taken until then) and bench->profile_message when something
 * went wrong.
 */
static void run_profile_pass(const char *exe, const bl_run_options *o, unsigned long long seed,
                             bl_bench_result *b, const struct pass *proto, const char *raw)
{
    bl_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    struct pass pass = *proto;
    pass.profile_raw = raw;
    unlink(raw); /* never a stale file from an earlier run */
    run_launch(exe, b->name, o, seed, &tmp, &pass, 0);
    free(b->profile_message);
    b->profile_message = NULL;
    struct bl__buf msg = {0};
    if (tmp.status == BL_ECRASH)
        bl__buf_printf(&msg, "the profile pass %s; the profile holds the samples taken until then",
                       tmp.message);
    else if (tmp.status && tmp.status != BL_EINTR)
        bl__buf_printf(&msg, "the profile pass failed: %s",
                       tmp.message ? tmp.message : bl_strerror(tmp.status));
    else if (tmp.skipped)
        bl__buf_printf(&msg, "skipped: %s", tmp.message ? tmp.message : "");
    struct stat st;
    free(b->profile_raw);
    b->profile_raw = NULL;
    if (stat(raw, &st) == 0 && st.st_size > 0)
        b->profile_raw = bl__strdup(raw);
    else if (!msg.data && tmp.status != BL_EINTR)
        bl__buf_printf(&msg, "the profile pass recorded nothing");
    b->profile_message = msg.data;
    bl__launch_fini(&tmp);
}

/* A raw file name for `name` in `dir`, unique among those given out in this run. */
static char *profile_raw_path(const char *dir, const char *name, char ***used, size_t *n_used)
{
    char *base = bl__profile_file_base(name);
    if (!base)
        return NULL;
    struct bl__buf path = {0};
    for (int k = 1; k < 1000; k++) {
        path.len = 0;
        bl__buf_printf(&path, k == 1 ? "%s/%s" : "%s/%s-%d", dir, base, k);
        bool taken = false;
        for (size_t i = 0; i < *n_used && !taken; i++)
            taken = path.data && strcmp((*used)[i], path.data) == 0;
        if (!taken)
            break;
    }
    free(base);
    char **grown = path.data ? realloc(*used, (*n_used + 1) * sizeof **used) : NULL;
    if (!grown) {
        bl__buf_fini(&path);
        return NULL;
    }
    *used = grown;
    (*used)[(*n_used)++] = bl__strdup(path.data);
    bl__buf_printf(&path, ".raw");
    return path.data;
}

/*
 * Prepare the profile pass: the mode, the directory (made here), and for
 * sampling the library to preload. A suite the sampler cannot reach
 * (static, sanitizer) is not an error: `refused` says why, per benchmark.
 */
static int profile_setup(const bl_run_options *o, const char *exe, bl_results *res,
                         struct pass *proto, char *dir, size_t dir_size, char *refused,
                         size_t refused_size, char *errbuf, size_t errsize)
{
    int mode = bl__profile_mode_parse(o->profile);
    if (mode < 0) {
        snprintf(errbuf, errsize, "--profile '%s': the mode is sample or trace", o->profile);
        return BL_EUSAGE;
    }
    const char *base = strrchr(exe, '/');
    int len = o->profile_dir && *o->profile_dir
                  ? snprintf(dir, dir_size, "%s", o->profile_dir)
                  : snprintf(dir, dir_size, "%s.profile", base ? base + 1 : exe);
    if (len < 0 || (size_t)len >= dir_size) {
        snprintf(errbuf, errsize, "--profile-dir: the path is too long");
        return BL_EUSAGE;
    }
    struct stat st;
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
        snprintf(errbuf, errsize, "--profile-dir %s: %s", dir,
                 errno == EEXIST ? "exists and is not a directory" : strerror(errno));
        return BL_EUSAGE;
    }
    *proto = (struct pass){NULL, NULL, NULL, mode, NULL, -1, NULL};
    bl_results_set_meta(res, "profile", bl__profile_mode_name(mode));
    bl_results_set_meta(res, "profile-dir", dir);
    if (mode != BL__PROFILE_SAMPLE)
        return 0;
    char lib[256];
    switch (bl__preload_check(exe, lib, sizeof lib)) {
    case BL__PRELOAD_OK:
        break;
    case BL__PRELOAD_STATIC:
        snprintf(refused, refused_size,
                 "%s is statically linked: the sampler cannot be preloaded into it; link it "
                 "dynamically, or build it for --profile=trace (docs/profile.md)",
                 exe);
        return 0;
    case BL__PRELOAD_SANITIZER:
        snprintf(refused, refused_size,
                 "%s is built with a sanitizer (%s), whose runtime must be loaded first and "
                 "refuses a preloaded sampler; profile a build without sanitizers",
                 exe, lib);
        return 0;
    default:
        snprintf(refused, refused_size, "%s: cannot read it as an ELF executable", exe);
        return 0;
    }
    const char *path = NULL;
    int fd = bl__sampler_preload(&path);
    if (fd < -1) {
        if (path)
            snprintf(refused, refused_size, "BENCHLAB_SAMPLER_LIB=%s: %s", path, strerror(-fd));
        else
            snprintf(refused, refused_size, "cannot prepare the sampler: %s", bl_strerror(fd));
        return 0;
    }
    proto->preload_fd = fd;
    proto->preload_path = path;
    return 0;
}

/* ---- listing -------------------------------------------------------------------- */

void bl_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static long list_self(char ***names)
{
    size_t n;
    const struct bl__instance *in = bl__registry_instances(&n);
    char **v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        v[i] = bl__strdup(in[i].name);
        if (!v[i]) {
            bl_names_free(v, i);
            return -ENOMEM;
        }
    }
    *names = v;
    return (long)n;
}

/*
 * Ask a suite for its benchmarks: `exe --benchlab-list suite`, one name a
 * line after the header. The header carries the suite's name (`benchlab-list
 * 1 suite=NAME`) or why it has none that can be used (`... error=MESSAGE`);
 * a suite built before names were declared prints the bare header and
 * ignores the extra argument. With suite NULL the name is not asked for.
 */
static long list_exe(const char *exe, char ***names, char **suite, char *why, size_t why_size)
{
    char *argv[] = {(char *)exe, (char *)"--benchlab-list", suite ? (char *)"suite" : NULL, NULL};
    struct bl__worker w;
    int err = spawn(exe, argv, NULL, false, &w);
    if (err)
        return err;
    close(w.chan);
    struct bl__buf out = {0};
    char buf[4096];
    uint64_t deadline = bl__now_ns() + 10ull * 1000000000ull;
    while (w.out >= 0 && bl__now_ns() < deadline) {
        struct pollfd p = {w.out, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t got = read(w.out, buf, sizeof buf);
        if (got <= 0)
            break;
        bl__buf_append(&out, buf, (size_t)got);
    }
    kill(-w.pid, SIGKILL);
    int status;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(w.out);
    close(w.err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !out.data ||
        strncmp(out.data, "benchlab-list 1", 15) != 0 ||
        (out.data[15] != '\n' && out.data[15] != ' ') || !strchr(out.data, '\n')) {
        bl__buf_fini(&out);
        return BL_EPROTO;
    }
    char *body = strchr(out.data, '\n') + 1;
    body[-1] = '\0';
    const char *header = out.data + 15;
    if (suite && strncmp(header, " error=", 7) == 0) {
        snprintf(why, why_size, "%s: %s", exe, header + 7);
        bl__buf_fini(&out);
        return BL_EUSAGE;
    }
    if (suite && strncmp(header, " suite=", 7) == 0 && header[7] &&
        !(*suite = bl__strdup(header + 7))) {
        bl__buf_fini(&out);
        return -ENOMEM;
    }
    size_t n = 0, cap = 0;
    char **v = NULL;
    char *save = NULL;
    for (char *line = strtok_r(body, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (bl__grow((void **)&v, &cap, n + 1, sizeof *v) || !(v[n] = bl__strdup(line))) {
            bl_names_free(v, n);
            bl__buf_fini(&out);
            return -ENOMEM;
        }
        n++;
    }
    bl__buf_fini(&out);
    *names = v ? v : calloc(1, sizeof *v);
    return (long)n;
}

long bl_list(const char *exe, char ***names)
{
    return exe ? list_exe(exe, names, NULL, NULL, 0) : list_self(names);
}

int bl_shard_of(const char *name, int n_shards)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a, 64 bits */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return n_shards > 1 ? (int)(h % (uint64_t)n_shards) : 0;
}

size_t bl__shard_keep(char **names, size_t n, int index, int count)
{
    if (count <= 1)
        return n;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (bl_shard_of(names[i], count) == index - 1)
            names[kept++] = names[i];
        else
            free(names[i]);
    }
    return kept;
}

long bl__list_matching(const char *exe, const char *filter, char ***out, char *err, size_t err_size)
{
    return bl__list_suite(exe, filter, out, NULL, err, err_size);
}

long bl__list_suite(const char *exe, const char *filter, char ***out, char **suite, char *err,
                    size_t err_size)
{
    if (suite)
        *suite = NULL;
    regex_t re;
    /* "-REGEX" keeps the names that do not match, as Google Benchmark's
     * --benchmark_filter does */
    const char *shown = filter;
    bool negative = filter && filter[0] == '-';
    if (negative)
        filter++;
    if (filter) {
        int rc = regcomp(&re, filter, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char msg[200];
            regerror(rc, &re, msg, sizeof msg);
            snprintf(err, err_size, "--filter '%s': %s", shown, msg);
            return BL_EUSAGE;
        }
    }
    char **names = NULL;
    long n;
    if (!exe) {
        n = list_self(&names);
        if (n >= 0 && suite) {
            int serr = bl__suite_name(suite, err, err_size);
            if (serr) {
                bl_names_free(names, (size_t)n);
                n = serr;
            }
        }
    } else {
        n = list_exe(exe, &names, suite, err, err_size);
    }
    if (n < 0 && suite) {
        free(*suite);
        *suite = NULL;
    }
    if (n == BL_EUSAGE) {
        if (filter)
            regfree(&re);
        return n;
    }
    if (n < 0) {
        if (n == -EMFILE)
            open_files_message(err, err_size);
        else if (n == BL_EPROTO)
            snprintf(err, err_size,
                     "%s is not a benchlab suite (it did not answer --benchlab-list)",
                     exe ? exe : "this program");
        else
            snprintf(err, err_size, "%s: cannot list benchmarks: %s", exe ? exe : "this program",
                     bl_strerror((int)n));
        if (filter)
            regfree(&re);
        return n;
    }
    size_t kept = 0;
    for (long i = 0; i < n; i++) {
        if (!filter || (regexec(&re, names[i], 0, NULL, 0) == 0) != negative)
            names[kept++] = names[i];
        else
            free(names[i]);
    }
    if (filter)
        regfree(&re);
    *out = names;
    return (long)kept;
}

/* ---- the run ----------------------------------------------------------------------- */

static void fill_header(bl_results *res, const bl_run_options *o, const char *exe,
                        const char *suite)
{
    bl_results_set_config(res, "goos", "linux");
    bl_results_set_config(res, "goarch", bl__sys_goarch());
    bl_results_set_config(res, "cpu", bl__sys_cpu_model());
    /* --pkg, else the suite's name (declared, or its source file's stem),
     * else, for a suite that does not say, the executable's file name */
    const char *pkg = o->pkg ? o->pkg : suite;
    if (!pkg) {
        pkg = strrchr(exe, '/');
        pkg = pkg ? pkg + 1 : exe;
    }
    bl_results_set_config(res, "pkg", pkg);
    char date[64];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    bl_results_set_meta(res, "date", date);
    bl_results_set_meta(res, "host", bl__sys_hostname());
    bl_results_set_meta(res, "kernel", bl__sys_kernel());
    bl_results_set_meta(res, "benchlab-version", BENCHLAB_VERSION_STRING);
    char buf[64];
    snprintf(buf, sizeof buf, "%g", o->time_s);
    bl_results_set_meta(res, "time-budget-s", buf);
    snprintf(buf, sizeof buf, "%d", o->count);
    bl_results_set_meta(res, "launches", buf);
    /* what on this machine adds noise: recorded with the results */
    bl_env_finding env[16];
    size_t n = bl_env_check(env, 16, 0);
    struct bl__buf w = {0};
    for (size_t i = 0; i < n; i++)
        if (env[i].level == BL_ENV_WARN)
            bl__buf_printf(&w, "%s%s: %s", w.len ? "; " : "", env[i].check, env[i].value);
    if (w.data)
        bl_results_set_meta(res, "env-warnings", w.data);
    bl__buf_fini(&w);
    if (o->cpus)
        bl_results_set_meta(res, "cpus", o->cpus);
    bl_results_set_meta(res, "fingerprint", bl_env_fingerprint());
    char compiler[256], flags[1024];
    bl__build_info(exe, compiler, sizeof compiler, flags, sizeof flags);
    if (compiler[0])
        bl_results_set_meta(res, "compiler", compiler);
    if (flags[0])
        bl_results_set_meta(res, "cflags", flags);
    if (o->shard_count > 1) {
        snprintf(buf, sizeof buf, "%d/%d", o->shard_index, o->shard_count);
        bl_results_set_meta(res, "shard", buf);
    }
}

int bl__run_set_pinning(const char *cpus, char *errbuf, size_t errsize)
{
    pin_mask = 0;
    if (!cpus)
        return 0;
    if (bl_env_parse_cpus(cpus, &pin_mask) != 0) {
        snprintf(errbuf, errsize, "--cpu '%s': not a CPU list such as 2 or 0-3,6 (CPUs 0-63)",
                 cpus);
        return BL_EUSAGE;
    }
    cpu_set_t have;
    if (sched_getaffinity(0, sizeof have, &have) == 0) {
        for (int c = 0; c < 64; c++)
            if ((pin_mask & (1ull << c)) && !CPU_ISSET(c, &have)) {
                snprintf(errbuf, errsize, "--cpu '%s': CPU %d is not available here", cpus, c);
                pin_mask = 0;
                return BL_EUSAGE;
            }
    }
    return 0;
}

/* A benchmark declared a unit's better= differently from one before it:
 * the first declaration stays (as in benchstat), and the run says so. */
static void note_unit_conflict(bl_results *res, const char *unit, const char *bench)
{
    const char *old = bl_results_get_meta(res, "unit-conflicts");
    struct bl__buf b = {0};
    bl__buf_printf(&b, "%s%s%s (%s)", old ? old : "", old ? "; " : "", unit, bench);
    if (b.data)
        bl_results_set_meta(res, "unit-conflicts", b.data);
    bl__buf_fini(&b);
}

/*
 * After "no benchmark matches --filter F": the benchmark names closest to
 * F (up to three), by the edit distance from F to the part of the name it
 * comes closest to, appended to msg: "; closest: BenchmarkSum/size=64".
 * When even the closest is too far to be what was meant, say so instead.
 */
static void closest_names(const char *exe, const char *filter, char *msg, size_t size)
{
    char **all = NULL;
    char why[256];
    long n = bl__list_matching(exe, NULL, &all, why, sizeof why);
    if (n <= 0) {
        bl_names_free(all, n > 0 ? (size_t)n : 0);
        return;
    }
    /* the names at the smallest distance, if it is small: one edit in
     * four letters of the filter (one at least) */
    size_t min_d = SIZE_MAX;
    for (long i = 0; i < n; i++) {
        size_t d = bl__substring_distance(filter, all[i]);
        if (d < min_d)
            min_d = d;
    }
    size_t limit = strlen(filter) / 4 + 1;
    long pick[3] = {-1, -1, -1};
    for (long i = 0, k = 0; i < n && k < 3 && min_d <= limit; i++)
        if (bl__substring_distance(filter, all[i]) == min_d)
            pick[k++] = i;
    size_t used = strlen(msg);
    for (int k = 0; k < 3 && pick[k] >= 0 && used < size; k++) {
        int w = snprintf(msg + used, size - used, "%s%s", k ? ", " : "; closest: ", all[pick[k]]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (pick[0] < 0 && used < size)
        snprintf(msg + used, size - used,
                 " (none of the %ld benchmarks is close; --list names them)", n);
    bl_names_free(all, (size_t)n);
}

int bl_run(const bl_run_options *opts, const bl_run_observer *obs, bl_results **out, char *errbuf,
           size_t errsize)
{
    bl_run_options o = *opts;
    if (o.count < 1)
        o.count = BL_DEFAULT_LAUNCHES;
    if (!(o.time_s > 0))
        o.time_s = 0.5;
    if (!(o.batch_ms > 0))
        o.batch_ms = 1.0;
    if (!(o.timeout_s > 0))
        o.timeout_s = 60.0;
    char self[PATH_MAX];
    const char *exe = o.exe;
    if (!exe) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) {
            snprintf(errbuf, errsize, "cannot find this program's path: %s", strerror(errno));
            return -errno;
        }
        self[n] = '\0';
        exe = self;
    } else if (access(exe, X_OK) != 0) {
        int e = -errno;
        snprintf(errbuf, errsize, "%s: %s", exe, strerror(errno));
        return e;
    }
    int perr = bl__run_set_pinning(o.cpus, errbuf, errsize);
    if (perr)
        return perr;
    if ((perr = check_open_files())) {
        open_files_message(errbuf, errsize);
        return perr;
    }
    /* the plan: matching instances, each `count` times, interleaved by round */
    char **plan = NULL;
    char *suite = NULL;
    long n = bl__list_suite(o.exe, o.filter, &plan, &suite, errbuf, errsize);
    if (n < 0)
        return (int)n;
    size_t n_plan = (size_t)n;
    if (n_plan == 0) {
        snprintf(errbuf, errsize,
                 o.filter ? "no benchmark matches --filter '%s'"
                          : "the suite defines no benchmarks%s",
                 o.filter ? o.filter : "");
        if (o.filter)
            closest_names(o.exe, o.filter, errbuf, errsize);
        bl_names_free(plan, 0);
        free(suite);
        return BL_ENOTFOUND;
    }
    /* a shard may hold none of them: an empty run, not an error, so that a
     * CI matrix wider than the suite still passes */
    n_plan = bl__shard_keep(plan, n_plan, o.shard_index, o.shard_count);
    /* a tune file that is not one, or is malformed, stops the run before
     * anything is measured (and is never overwritten) */
    struct bl__tune tune;
    memset(&tune, 0, sizeof tune);
    if (o.tune_file) {
        int err = bl__tune_load(&tune, o.tune_file, o.batch_ms, errbuf, errsize);
        if (err) {
            bl_names_free(plan, n_plan);
            free(suite);
            return err;
        }
    }

    bl_results *res = bl_results_create();
    if (!res) {
        bl_names_free(plan, n_plan);
        free(suite);
        bl__tune_fini(&tune);
        return -ENOMEM;
    }
    fill_header(res, &o, exe, suite);
    free(suite);
    *out = res;
    if (tune.note)
        bl_results_set_meta(res, "tune-note", tune.note);

    struct bl__rng rng;
    bl__rng_seed(&rng, o.seed ? o.seed : bl__now_ns() ^ (uint64_t)getpid());
    size_t total = n_plan * (size_t)o.count, index = 0;
    int rc = 0;
    char alloc_refused[512] = "";
    if (o.alloc)
        bl__alloc_check_exe(exe, alloc_refused, sizeof alloc_refused);
    char counters_refused[512] = "";
    if (o.counters) {
        int idx[BL__MAX_COUNTERS], nc;
        if (bl__counters_parse(o.counters, idx, &nc, counters_refused, sizeof counters_refused) ==
            0)
            bl__counters_probe(idx, nc, counters_refused, sizeof counters_refused);
        if (counters_refused[0])
            bl_results_set_meta(res, "counters-unsupported", counters_refused);
    }
    struct pass profile = {NULL, NULL, NULL, 0, NULL, -1, NULL};
    char profile_dir[PATH_MAX] = "", profile_refused[PATH_MAX + 512] = "";
    char **raw_used = NULL;
    size_t n_raw_used = 0;
    if (o.profile) {
        int err = profile_setup(&o, exe, res, &profile, profile_dir, sizeof profile_dir,
                                profile_refused, sizeof profile_refused, errbuf, errsize);
        if (err) {
            bl_names_free(plan, n_plan);
            bl__tune_fini(&tune);
            return err;
        }
    }
    if (obs && obs->on_begin)
        obs->on_begin(obs->ctx, res, total);
    /* A benchmark that crashed, failed, timed out or skipped is not launched
     * again: its next launch would do the same (and a hang would cost the
     * time limit each time). A launch that only found no clean batch (the
     * machine's noise, not the benchmark) is discarded and replaced, up to
     * MAX_REPLACEMENTS times per benchmark, after the regular rounds. */
    enum { MAX_REPLACEMENTS = 2 };
    struct plan_state {
        bool stop;
        int owed, replaced;
    } *ps = calloc(n_plan, sizeof *ps);
    if (!ps) {
        bl_names_free(plan, n_plan);
        bl_names_free(raw_used, n_raw_used);
        bl__tune_fini(&tune);
        return -ENOMEM;
    }
    size_t tune_known = 0, tune_new = 0, tune_stale = 0;
    for (size_t i = 0; o.tune_file && i < n_plan; i++)
        tune_known += bl__tune_get(&tune, plan[i]) != 0;
    for (int round = 0; !interrupted && rc >= 0; round++) {
        bool any = false;
        for (size_t i = 0; i < n_plan && !interrupted; i++) {
            bool replacement = round >= o.count;
            if (ps[i].stop || (replacement && ps[i].owed == 0))
                continue;
            any = true;
            if (obs && obs->on_start)
                obs->on_start(obs->ctx, plan[i], index < total ? index : total - 1, total);
            index++;
            bl_bench_result *b = bl_results_bench(res, plan[i]);
            if (!b) {
                rc = -ENOMEM;
                break;
            }
            if (o.alloc && round == 0) {
                if (alloc_refused[0]) {
                    b->alloc_message = bl__strdup(alloc_refused);
                } else {
                    run_alloc_pass(exe, &o, bl__rng_next(&rng) | 1, b);
                    if (interrupted)
                        break;
                }
            }
            if (o.counters && round == 0 && !counters_refused[0]) {
                run_counters_pass(exe, &o, bl__rng_next(&rng) | 1, b);
                if (interrupted)
                    break;
            }
            if (profile.profile && round == 0) {
                char *raw = profile_raw_path(profile_dir, plan[i], &raw_used, &n_raw_used);
                if (profile_refused[0])
                    b->profile_message = bl__strdup(profile_refused);
                else if (!raw)
                    b->profile_message = bl__strdup("out of memory");
                else
                    run_profile_pass(exe, &o, bl__rng_next(&rng) | 1, b, &profile, raw);
                free(raw);
                if (interrupted)
                    break;
                if (obs && obs->on_profile)
                    obs->on_profile(obs->ctx, res, b);
            }
            bl_launch *l = bl_results_add_launch(b);
            if (!l) {
                rc = -ENOMEM;
                break;
            }
            int how = run_launch(exe, plan[i], &o, bl__rng_next(&rng) | 1, l, NULL,
                                 o.tune_file ? bl__tune_get(&tune, plan[i]) : 0);
            /* the first launch of a benchmark the file did not know tunes it
             * for the others and for the next run */
            if (o.tune_file && l->tuned_reps && (!bl__tune_get(&tune, plan[i]) || l->tune_stale)) {
                tune_new += !bl__tune_get(&tune, plan[i]);
                tune_stale += l->tune_stale;
                bl__tune_set(&tune, plan[i], l->tuned_reps);
            }
            if (l->status == BL_EINTR) {
                b->n_launches--; /* nothing finished: drop it */
                bl__launch_fini(l);
                break;
            }
            if (l->status == 0 && !l->skipped) {
                const char *clash = bl_results_declare_units(res, b, l);
                if (clash)
                    note_unit_conflict(res, clash, b->name);
            }
            if (replacement)
                ps[i].owed--;
            if (how == LAUNCH_BROKEN) {
                ps[i].stop = true;
            } else if (how == LAUNCH_DISTURBED && ps[i].replaced < MAX_REPLACEMENTS) {
                ps[i].replaced++;
                ps[i].owed++;
            }
            if (obs && obs->on_launch)
                obs->on_launch(obs->ctx, res, b, l);
        }
        if (!any && round >= o.count)
            break;
    }
    free(ps);
    if (o.tune_file) {
        char msg[600];
        snprintf(msg, sizeof msg,
                 "%zu benchmarks sized from %s, %zu tuned and added, %zu stale and tuned again",
                 tune_known, o.tune_file, tune_new, tune_stale);
        bl_results_set_meta(res, "tune", msg);
        char why[512] = "";
        if (bl__tune_save(&tune, why, sizeof why) != 0)
            bl_results_set_meta(res, "tune-error", why);
        bl__tune_fini(&tune);
    }
    /* The run failed when a benchmark broke, or found no clean measurement
     * in any launch; disturbed launches beside good ones are only noted. */
    for (size_t i = 0; i < res->n_benches && rc == 0; i++) {
        const bl_bench_result *b = &res->benches[i];
        bool good = false, broken = false;
        for (size_t j = 0; j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            good |= l->status == 0;
            broken |= l->status != 0 && !l->disturbed;
        }
        if (broken || !good)
            rc = 1;
    }
    bl_names_free(plan, n_plan);
    bl_names_free(raw_used, n_raw_used);
    /* complexity fits over what finished, interrupted or not; without
     * memory for them the measurements still stand, unfitted */
    (void)bl_results_fit_complexity(res, o.complexity != 0);
    if (interrupted)
        return BL_EINTR;
    return rc;
}
