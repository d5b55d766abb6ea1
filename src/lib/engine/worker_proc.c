/*
 * worker_proc.c - a worker process as the runner sees it: spawning it
 * (pipes, process group, CPU pinning, preloads), polling its pipes,
 * sending it commands (driven mode, benchlab ab), and its end: reaping,
 * judging how it ended into its launch, and killing what it left behind.
 * Shared by the run (run.c, passes.c) and the A/B runner (ab.c); the
 * channel's messages are parsed by channel.c.
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
#include <sys/personality.h>
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
int bl__open_files_check(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < MIN_OPEN_FILES)
        return -EMFILE;
    return 0;
}

/* The message of a spawn that failed with -EMFILE (the caller names the program). */
void bl__open_files_message(char *err, size_t err_size)
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
    for (size_t i = 0; x->extra && x->extra[i]; i++) {
        const char *eq = strchr(x->extra[i], '=');
        char *name = eq ? strndup(x->extra[i], (size_t)(eq - x->extra[i])) : NULL;
        if (name && *name)
            setenv(name, eq + 1, 1);
        free(name);
    }
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

/*
 * A worker of a suite whose main reads its own command line before it hands
 * over (Google Benchmark's layer, src/gbench, sets BENCHLAB_SUITE_ARGV to the
 * command line the suite was run with, \x1f between arguments): the worker
 * is started with that command line, so its main registers the same
 * benchmarks and takes the same paths as the run's main did, and the
 * worker's own arguments go in BENCHLAB_WORKER_ARGV, where the layer finds
 * them. In the child, before exec; returns only when this does not apply.
 */
/* exec `exe` with `argv`, under x->wrap when there is one: its words,
 * then exe and argv's arguments. Returns only when exec failed. */
static void exec_wrapped(const char *exe, char *const argv[], const struct bl__spawn_env *x)
{
    if (!x || !x->wrap) {
        execv(exe, argv);
        return;
    }
    size_t nw = 0, na = 0;
    while (x->wrap[nw])
        nw++;
    while (argv[na])
        na++;
    char **all = calloc(nw + na + 2, sizeof *all);
    if (!all)
        return;
    memcpy(all, x->wrap, nw * sizeof *all);
    all[nw] = (char *)exe;
    for (size_t i = 1; i < na; i++)
        all[nw + i] = argv[i];
    execv(x->wrap[0], all);
    free(all);
}

static void exec_as_suite(const char *exe, char *const argv[], const struct bl__spawn_env *x)
{
    const char *suite = getenv("BENCHLAB_SUITE_ARGV");
    if (!suite || !*suite || !argv[0] || !argv[1] || strcmp(argv[1], "--benchlab-worker") != 0)
        return;
    struct bl__buf wa = {0};
    for (int i = 1; argv[i]; i++)
        bl__buf_printf(&wa, "%s%s", i > 1 ? "\x1f" : "", argv[i]);
    size_t n = 2;
    for (const char *p = suite; *p; p++)
        n += *p == '\x1f';
    char *copy = strdup(suite);
    char **nargv = calloc(n, sizeof *nargv);
    if (!wa.data || !copy || !nargv || setenv("BENCHLAB_WORKER_ARGV", wa.data, 1) != 0)
        return; /* out of memory: the plain worker command line */
    size_t k = 0;
    for (char *p = copy; p && k + 1 < n;) {
        char *e = strchr(p, '\x1f');
        if (e)
            *e++ = '\0';
        nargv[k++] = p;
        p = e;
    }
    nargv[k] = NULL;
    exec_wrapped(exe, nargv, x);
    unsetenv("BENCHLAB_WORKER_ARGV"); /* exec failed: report it as below */
}

int bl__spawn(const char *exe, char *const argv[], const struct bl__spawn_env *x, bool driven,
              struct bl__worker *w)
{
    unsigned long long pin_mask = x ? x->pin_mask : 0;
    int preload_fd = x ? x->preload_fd : -1;
    int chan[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, cmd[2] = {-1, -1};
    int limit = bl__open_files_check();
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
        if (x && x->no_aslr)
            personality(ADDR_NO_RANDOMIZE);
        exec_as_suite(exe, argv, x);
        exec_wrapped(exe, argv, x);
        dprintf(2, "cannot execute %s: %s\n", x && x->wrap ? x->wrap[0] : exe, strerror(errno));
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

void bl__launch_message(bl_launch *l, const char *fmt, ...)
{
    struct bl__buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    bl__buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(l->message);
    l->message = b.data;
}

int bl__cpus_mask(const char *cpus, unsigned long long *mask, char *errbuf, size_t errsize)
{
    *mask = 0;
    if (!cpus)
        return 0;
    unsigned long long m = 0;
    if (bl_env_parse_cpus(cpus, &m) != 0) {
        snprintf(errbuf, errsize, "--cpu '%s': not a CPU list such as 2 or 0-3,6 (CPUs 0-63)",
                 cpus);
        return BL_EUSAGE;
    }
    cpu_set_t have;
    if (sched_getaffinity(0, sizeof have, &have) == 0) {
        for (int c = 0; c < 64; c++)
            if ((m & (1ull << c)) && !CPU_ISSET(c, &have)) {
                snprintf(errbuf, errsize, "--cpu '%s': CPU %d is not available here", cpus, c);
                return BL_EUSAGE;
            }
    }
    *mask = m;
    return 0;
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
 *
 * A reparented orphan does not say whose it was. While other workers live
 * (ab holds several at once), one may be the daemon a live worker still
 * uses, so the clean-up waits: it runs when the last live worker ends,
 * from the start of the earliest worker that ended in the meantime.
 */
#define MAX_LIVE 64
static pid_t live[MAX_LIVE];
static int n_live;
static int n_held, subreaper_was; /* subreaper_was: -1 not changed by us */
/* The start of the earliest worker whose strays wait for the last to end (0: none). */
static unsigned long long strays_since;

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
    if (w->start_ticks && (!strays_since || w->start_ticks < strays_since))
        strays_since = w->start_ticks;
    if (n_live > 0 || !strays_since)
        return; /* another worker lives: the strays may be its own */
    /* each round reparents the next generation to us; a fork bomb is cut off */
    for (int round = 0; round < 100 && kill_strays_once(strays_since) > 0; round++) {
    }
    strays_since = 0;
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
    int err = bl__spawn(exe, argv, env, driven, w);
    if (err) {
        subreaper_release();
        launch->status = BL_EEXIT;
        bl__launch_message(launch, "cannot start a worker: %s", bl_strerror(err));
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

/* Read what poll() found ready on the worker's pipes (pfd[0..2]: channel,
 * stdout, stderr): the channel parsed, the output captured; a pipe at end
 * of file is closed. */
static void read_ready(struct bl__worker *w, const struct pollfd pfd[3])
{
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
        } else if (i == 0) {
            bl__channel_feed(w, buf, (size_t)got);
        } else if (i == 1) {
            bl__capture(&l->out, &l->out_total, buf, (size_t)got);
        } else {
            bl__capture(&l->err, &l->err_total, buf, (size_t)got);
        }
    }
}

/* The worker has exited: read what it wrote before (still in the pipes),
 * without waiting for children of it that keep them open. */
static void drain(struct bl__worker *w)
{
    for (int round = 0; round < 64; round++) { /* a child writing forever is cut off */
        struct pollfd pfd[3] = {{w->chan, POLLIN, 0}, {w->out, POLLIN, 0}, {w->err, POLLIN, 0}};
        if (poll(pfd, 3, 0) <= 0)
            return;
        read_ready(w, pfd);
    }
}

int bl__worker_poll(struct bl__worker *w, uint64_t deadline)
{
    if (w->exited || (w->chan < 0 && w->out < 0 && w->err < 0))
        return 0;
    if (bl__run_interrupted())
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
    read_ready(w, pfd);
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
    BL__CHECK(w->exited && !is_live(w->pid)); /* reaped, and no longer a live worker */
    bl__buf_fini(&w->line);
    l->wall_s = (double)(bl__now_ns() - w->t0) / 1e9;
    if (WIFEXITED(status))
        l->exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        l->term_signal = WTERMSIG(status);

    if (stop == BL_EINTR) {
        l->status = BL_EINTR;
        bl__launch_message(l, "interrupted");
    } else if (stop == BL_ETIMEOUT && w->got_done) {
        /* it measured everything and sent it, then did not exit: killed,
         * its results kept */
    } else if (stop == BL_ETIMEOUT) {
        l->status = BL_ETIMEOUT;
        bl__launch_message(
            l, "ran past its time limit of %gs and was killed (use --timeout to raise it)",
            timeout_s);
    } else if (WIFSIGNALED(status)) {
        l->status = BL_ECRASH;
        bl__launch_message(l, "crashed: killed by %s (signal %d)%s", signal_name(l->term_signal),
                           l->term_signal, WCOREDUMP(status) ? ", core dumped" : "");
    } else if (w->stray_pid) {
        l->status = BL_EBENCH;
        bl__launch_message(l,
                           "a process it forked (pid %ld) went on into the benchmark loop instead "
                           "of exiting: ended, as its batches would have mixed with the worker's "
                           "(a forked child ends with _exit())",
                           w->stray_pid);
    } else if (w->fail_kind == 2) {
        l->status = BL_EBENCH;
    } else if (w->fail_kind == 1) {
        l->skipped = true;
    } else if (l->exit_code == 127 && !w->got_hello) {
        l->status = BL_EEXIT;
        bl__launch_message(l, "could not execute %s (is it a benchlab suite?)", exe);
    } else if (!w->got_hello) {
        l->status = BL_EPROTO;
        bl__launch_message(l,
                           "%s did not answer as a benchlab worker (exit status %d): is it a "
                           "benchlab suite?",
                           exe, l->exit_code);
    } else if (!w->got_done && l->exit_code == BL__EXIT_CHANNEL_LOST) {
        l->status = BL_EEXIT;
        bl__launch_message(l,
                           "closed or replaced the channel to the runner (fd %d), so its results "
                           "could not be sent: a benchmark must not close or reuse descriptors "
                           "it did not open",
                           BL__CHANNEL_FD);
    } else if (!w->got_done) {
        l->status = BL_EEXIT;
        bl__launch_message(l,
                           "exited with status %d before it finished (exit() called inside the "
                           "benchmark?)",
                           l->exit_code);
    } else if (w->proto_error[0]) {
        l->status = BL_EPROTO;
        bl__launch_message(l, "protocol error: %s", w->proto_error);
    } else if (l->exit_code != 0) {
        l->status = BL_EEXIT;
        bl__launch_message(l, "exited with status %d after its measurements", l->exit_code);
    }
    /* a launch without a status or a skip is one whose worker said "done" */
    BL__CHECK(l->status != 0 || l->skipped || w->got_done);
    /* "interrupted" is the user's Ctrl-C, never what a worker did */
    BL__CHECK(l->status != BL_EINTR || stop == BL_EINTR);
    bl_launch_finish(l);
}
