/*
 * exec.c - the parent side of `benchlab exec`: runs whole commands and
 * measures them from outside, as the runner (engine/worker_proc.c) watches a
 * worker. Called by the CLI (cmd_exec.c); calls posix_spawn, wait4 and
 * the statistics (stats/).
 *
 * A session is a list of groups: all commands in one group when they are
 * interleaved (the default), one command per group in sequential order.
 * A group runs in rounds: one run of each of its commands per round, plus,
 * with a shell, one run of `sh -c ''`, in a shuffled or fixed order, until
 * the budget is met. The shell's median start-up is subtracted at the end.
 *
 * Invariant: a run is in the results only when it completed as a run
 * (measured, not interrupted, not failed unless failures are ignored);
 * whatever stops the session, every run measured before stays.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/base.h"
#include "benchlab/exec.h"

extern char **environ;

/* The early stop: at least this many runs, and the median's interval no
 * wider than this fraction of the median (docs/exec.md). Strict on purpose:
 * the interval sees only this invocation's runs, not the drift between
 * invocations, and stopping at a 1%-wide interval (~46 runs of a 20 ms
 * command) left the centre twice as variable across invocations as
 * hyperfine's full budget (bench/exec/run.sh). */
#define EARLY_MIN_RUNS 100
#define EARLY_REL_WIDTH 0.002

void bl_exec_options_init(bl_exec_options *o)
{
    memset(o, 0, sizeof *o);
    o->shell = "sh";
    o->min_runs = 10;
    o->time_s = 3.0;
    o->order = BL_EXEC_SHUFFLE;
    o->confidence = 0.95;
}

/* ---- one process ----------------------------------------------------------------- */

struct session {
    const bl_exec_options *o;
    const bl_exec_observer *obs;
    int in_fd, null_fd;
    char *err;
    size_t err_size;
    struct bl__rng rng;
    double *shell_wall, *shell_user, *shell_sys;
    size_t n_shell, cap_shell;
    char **shell_argv; /* sh -c '' */
    char **envp;       /* environ with one more slot for HYPERFINE_ITERATION */
    size_t env_slot;
    char iter_var[64];
};

static void set_err(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(struct session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, s->err_size, fmt, ap);
    va_end(ap);
}

static int stop_requested(const struct session *s)
{
    return s->o->stop && *s->o->stop;
}

/* argv for `command`: the shell's words, -c, command; or the command's own words. */
static int make_argv(const struct session *s, const char *command, char ***argv)
{
    if (!s->o->shell)
        return bl_exec_split(command, argv);
    char **sh = NULL;
    int err = bl_exec_split(s->o->shell, &sh);
    if (err)
        return err;
    size_t n = 0;
    while (sh[n])
        n++;
    char **a = realloc(sh, (n + 3) * sizeof *a);
    if (!a) {
        bl_exec_argv_free(sh);
        return -ENOMEM;
    }
    a[n] = bl__strdup("-c");
    a[n + 1] = a[n] ? bl__strdup(command) : NULL;
    a[n + 2] = NULL;
    if (!a[n] || !a[n + 1]) {
        free(a[n]);
        a[n] = NULL;
        bl_exec_argv_free(a);
        return -ENOMEM;
    }
    *argv = a;
    return 0;
}

/* What a process's stdout and stderr are. */
enum out_kind { OUT_NULL, OUT_PIPE, OUT_INHERIT, OUT_FILE };

static enum out_kind output_kind(const struct session *s, const char *output)
{
    if (s->o->show_output || (output && strcmp(output, "inherit") == 0))
        return OUT_INHERIT;
    if (!output || !*output || strcmp(output, "null") == 0)
        return OUT_NULL;
    return strcmp(output, "pipe") == 0 ? OUT_PIPE : OUT_FILE;
}

/* Read and drop what is in the pipe; -1 at its end. */
static int drain(int fd)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0)
            continue;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return fd;
        close(fd);
        return -1;
    }
}

/*
 * Wait for pid while draining pipe_fd (or -1) and watching the time limit
 * and the stop flag; kill the process group (pgrp) on either. Sets
 * *timed_out. Returns wait4's result.
 */
static int wait_watched(struct session *s, pid_t pid, int pgrp, int pipe_fd, uint64_t t0,
                        int *status, struct rusage *ru, int *timed_out)
{
    double limit_ns = s->o->timeout_s > 0 ? s->o->timeout_s * 1e9 : 0;
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    int killed = 0;
    for (;;) {
        struct pollfd fds[2];
        int n = 0;
        if (pidfd >= 0)
            fds[n++] = (struct pollfd){.fd = pidfd, .events = POLLIN};
        if (pipe_fd >= 0)
            fds[n++] = (struct pollfd){.fd = pipe_fd, .events = POLLIN};
        int wait_ms = pidfd >= 0 ? -1 : 1; /* without a pidfd: poll wait4 every ms */
        if (limit_ns > 0 && !killed) {
            double left_ms = (limit_ns - (double)(bl__now_ns() - t0)) / 1e6;
            int ms = left_ms <= 0 ? 0 : left_ms > 1e9 ? 1000000000 : (int)ceil(left_ms);
            if (wait_ms < 0 || ms < wait_ms)
                wait_ms = ms;
        }
        int rc = poll(fds, (nfds_t)n, wait_ms);
        if (!killed &&
            (stop_requested(s) || (limit_ns > 0 && (double)(bl__now_ns() - t0) >= limit_ns))) {
            *timed_out = !stop_requested(s);
            kill(pgrp ? -pid : pid, SIGKILL);
            killed = 1;
        }
        if (rc > 0 && pipe_fd >= 0 && (fds[n - 1].revents & (POLLIN | POLLHUP | POLLERR)))
            pipe_fd = drain(pipe_fd);
        pid_t w = wait4(pid, status, WNOHANG, ru);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            int e = -errno;
            if (pidfd >= 0)
                close(pidfd);
            if (pipe_fd >= 0)
                close(pipe_fd);
            return e;
        }
    }
    if (pidfd >= 0)
        close(pidfd);
    if (pipe_fd >= 0) {
        pipe_fd = drain(pipe_fd); /* what is left; a grandchild may keep it open */
        if (pipe_fd >= 0)
            close(pipe_fd);
    }
    return 0;
}

/*
 * Run argv to its end and measure it: wall time from just before the spawn
 * to just after wait4() reaped it, and wait4's rusage. posix_spawn (a
 * vfork-like clone in glibc) keeps the harness's own cost per run small and
 * reports a program that cannot be executed as an error, not as a run.
 * `output` is the command's output policy; `iteration` the value of
 * HYPERFINE_ITERATION, or NULL. Returns 0 (the run is filled, whatever its
 * exit status), -errno from posix_spawn (nothing ran), BL_ETIMEOUT when it
 * ran past the time limit and was killed (the run is filled), or BL_EINTR
 * when a stop was requested while it ran (the run is not valid).
 */
static int run_process(struct session *s, char *const argv[], const char *output,
                       const char *iteration, bl_exec_run *run)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t dflt, none;
    enum out_kind kind = output_kind(s, output);
    int pipe_fds[2] = {-1, -1}, file_fd = -1;
    if (kind == OUT_PIPE) {
        if (pipe2(pipe_fds, O_CLOEXEC) != 0)
            return -errno;
        /* our end only: a read never blocks the watch (the time limit, a
         * grandchild that keeps the pipe), the command's end is as usual */
        fcntl(pipe_fds[0], F_SETFL, fcntl(pipe_fds[0], F_GETFL) | O_NONBLOCK);
    }
    if (kind == OUT_FILE) {
        file_fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (file_fd < 0)
            return -errno;
    }
    /* its own process group when there is a limit, so that all of it is killed */
    int pgrp = s->o->timeout_s > 0;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    sigemptyset(&none);
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGINT);
    sigaddset(&dflt, SIGTERM);
    sigaddset(&dflt, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &dflt);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                        (pgrp ? POSIX_SPAWN_SETPGROUP : 0));
    if (pgrp)
        posix_spawnattr_setpgroup(&attr, 0);
    posix_spawn_file_actions_adddup2(&fa, s->in_fd, 0);
    if (kind != OUT_INHERIT) {
        int out = kind == OUT_PIPE ? pipe_fds[1] : kind == OUT_FILE ? file_fd : s->null_fd;
        posix_spawn_file_actions_adddup2(&fa, out, 1);
        posix_spawn_file_actions_adddup2(&fa, s->null_fd, 2);
    }
    if (s->in_fd != s->null_fd)
        lseek(s->in_fd, 0, SEEK_SET); /* every run reads the whole input */
    char **envp = environ;
    if (iteration && s->envp) {
        snprintf(s->iter_var, sizeof s->iter_var, "HYPERFINE_ITERATION=%s", iteration);
        s->envp[s->env_slot] = s->iter_var;
        envp = s->envp;
    }
    pid_t pid;
    uint64_t t0 = bl__now_ns();
    int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (pipe_fds[1] >= 0)
        close(pipe_fds[1]);
    if (file_fd >= 0)
        close(file_fd);
    if (rc != 0) {
        if (pipe_fds[0] >= 0)
            close(pipe_fds[0]);
        return -rc;
    }
    int status = 0, timed_out = 0;
    struct rusage ru;
    if (s->o->timeout_s > 0 || pipe_fds[0] >= 0) {
        int err = wait_watched(s, pid, pgrp, pipe_fds[0], t0, &status, &ru, &timed_out);
        if (err)
            return err;
    } else {
        while (wait4(pid, &status, 0, &ru) < 0) {
            if (errno != EINTR)
                return -errno;
        }
    }
    uint64_t t1 = bl__now_ns();
    memset(run, 0, sizeof *run);
    run->raw_wall_ns = (double)(t1 - t0);
    run->wall_ns = run->raw_wall_ns;
    run->user_ns = (double)ru.ru_utime.tv_sec * 1e9 + (double)ru.ru_utime.tv_usec * 1e3;
    run->sys_ns = (double)ru.ru_stime.tv_sec * 1e9 + (double)ru.ru_stime.tv_usec * 1e3;
    run->peak_rss_bytes = ru.ru_maxrss * 1024L;
    /* The clone posix_spawn makes runs in our memory until its exec, and exec
     * folds that memory's peak into the process's ru_maxrss: a figure at or
     * below our own peak is ours, not the command's (gzip's 1.8 MiB showed as
     * our 8.4). Our peak only grows, so reading it after the reap is safe. */
    struct rusage self;
    if (getrusage(RUSAGE_SELF, &self) == 0 && ru.ru_maxrss <= self.ru_maxrss)
        run->peak_rss_is_bound = 1;
    if (WIFEXITED(status)) {
        run->exit_code = WEXITSTATUS(status);
    } else {
        run->exit_code = -1;
        run->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }
    if (stop_requested(s))
        return BL_EINTR;
    return timed_out ? BL_ETIMEOUT : 0;
}

static void describe_status(const bl_exec_run *run, char *out, size_t size)
{
    if (run->term_signal)
        snprintf(out, size, "was killed by signal %d (%s)", run->term_signal,
                 strsignal(run->term_signal));
    else if (run->exit_code == 127)
        snprintf(out, size, "exited with status 127 (command not found?)");
    else
        snprintf(out, size, "exited with status %d", run->exit_code);
}

static int spawn_error(struct session *s, const char *what, const char *command, int rc)
{
    if (s->o->shell)
        set_err(s, "%s '%s': cannot execute the shell '%s': %s", what, command, s->o->shell,
                strerror(-rc));
    else
        set_err(s, "%s '%s': cannot execute it: %s", what, command,
                rc == -ENOENT ? "command not found" : strerror(-rc));
    return rc == -ENOENT || rc == -EACCES ? BL_ENOTFOUND : rc;
}

static int timeout_error(struct session *s, const char *what, const char *command)
{
    set_err(s, "%s '%s' ran past the time limit of %g s (--timeout) and was killed", what, command,
            s->o->timeout_s);
    return BL_ETIMEOUT;
}

/* An untimed helper (setup, prepare, ...): must exit 0. Adds its wall time to *spent_ns. */
static int run_helper(struct session *s, const char *what, const char *command, const char *output,
                      double *spent_ns)
{
    if (!command)
        return 0;
    char **argv = NULL;
    int err = make_argv(s, command, &argv);
    if (err) {
        if (err == BL_EUSAGE)
            set_err(s, "%s command '%s': cannot be split into words", what, command);
        return err;
    }
    bl_exec_run run;
    uint64_t t0 = bl__now_ns();
    err = run_process(s, argv, output, NULL, &run);
    if (spent_ns)
        *spent_ns += (double)(bl__now_ns() - t0);
    bl_exec_argv_free(argv);
    if (err == BL_EINTR)
        return err;
    if (err == BL_ETIMEOUT) {
        char w[32];
        snprintf(w, sizeof w, "%s command", what);
        return timeout_error(s, w, command);
    }
    if (err)
        return spawn_error(s, what, command, err);
    if (run.exit_code != 0) {
        char st[80];
        describe_status(&run, st, sizeof st);
        set_err(s, "%s command '%s' %s", what, command, st);
        return BL_EBENCH;
    }
    return 0;
}

/* ---- the session ----------------------------------------------------------------- */

struct cmd_state {
    const bl_exec_command *c;
    bl_exec_result *r;
    char **argv;
    /* wall time this command cost the session: setup, prepare, runs,
     * conclude, cleanup and its share of the shell's runs (the budget) */
    double spent_ns;
    /* the early stop is next looked at with this many runs: every 5% more
     * runs, so that its summaries cost O(n log n) in all, not per round
     * (looking every round cost 357 us per run at 5000 runs of `true`) */
    size_t next_check;
};

static int add_run(bl_exec_result *r, const bl_exec_run *run)
{
    int err = bl__grow((void **)&r->runs, &r->cap_runs, r->n_runs + 1, sizeof *r->runs);
    if (!err)
        r->runs[r->n_runs++] = *run;
    return err;
}

static int add_shell_run(struct session *s, const bl_exec_run *run)
{
    size_t cap = s->cap_shell;
    int err = bl__grow((void **)&s->shell_wall, &cap, s->n_shell + 1, sizeof(double));
    cap = s->cap_shell;
    if (!err)
        err = bl__grow((void **)&s->shell_user, &cap, s->n_shell + 1, sizeof(double));
    cap = s->cap_shell;
    if (!err)
        err = bl__grow((void **)&s->shell_sys, &cap, s->n_shell + 1, sizeof(double));
    if (err)
        return err;
    s->cap_shell = cap;
    s->shell_wall[s->n_shell] = run->raw_wall_ns;
    s->shell_user[s->n_shell] = run->user_ns;
    s->shell_sys[s->n_shell] = run->sys_ns;
    s->n_shell++;
    return 0;
}

/* The planned number of runs of one command, for progress and ETA. */
static int planned_runs(const struct session *s, const struct cmd_state *c)
{
    const bl_exec_options *o = s->o;
    if (o->runs > 0)
        return o->runs;
    size_t n = c->r->n_runs;
    double mean = n ? c->spent_ns / (double)n : 0;
    double want = mean > 0 ? ceil(o->time_s * 1e9 / mean) : o->min_runs;
    if (want < o->min_runs)
        want = o->min_runs;
    if (o->max_runs > 0 && want > o->max_runs)
        want = o->max_runs;
    if (want < (double)n)
        want = (double)n;
    return want > 1e9 ? 1000000000 : (int)want;
}

/* Is the median's interval of this command tight enough to stop early? */
static int interval_tight(const struct session *s, const struct cmd_state *c)
{
    size_t n = c->r->n_runs;
    if (n < EARLY_MIN_RUNS || n < (size_t)s->o->min_runs)
        return 0;
    double shell = s->n_shell ? bl_stats_median(s->shell_wall, s->n_shell) : 0;
    double *xs = malloc(n * sizeof *xs);
    if (!xs)
        return 0;
    for (size_t i = 0; i < n; i++)
        xs[i] = c->r->runs[i].raw_wall_ns - shell;
    bl_summary sm;
    int tight = bl_stats_summarize(xs, n, s->o->confidence, &sm) == 0 && sm.median > 0 &&
                isfinite(sm.ci_lo) && isfinite(sm.ci_hi) &&
                (sm.ci_hi - sm.ci_lo) <= EARLY_REL_WIDTH * sm.median;
    free(xs);
    return tight;
}

/* Does command c need another run? Sets *early when only the interval stopped it. */
static int needs_run(const struct session *s, struct cmd_state *c, int *early)
{
    const bl_exec_options *o = s->o;
    int n = (int)c->r->n_runs;
    if (o->runs > 0)
        return n < o->runs;
    if (o->max_runs > 0 && n >= o->max_runs)
        return 0;
    if (n < o->min_runs)
        return 1;
    if (c->spent_ns >= o->time_s * 1e9)
        return 0;
    if (c->r->n_runs >= c->next_check) {
        c->next_check = c->r->n_runs + 1 + c->r->n_runs / 20;
        if (interval_tight(s, c)) {
            *early = 1;
            return 0;
        }
    }
    return 1;
}

static double eta_s(const struct session *s, struct cmd_state *cs, size_t n)
{
    double eta = 0;
    for (size_t i = 0; i < n; i++) {
        size_t done = cs[i].r->n_runs;
        double mean = done ? cs[i].spent_ns / (double)done : 0;
        eta += (planned_runs(s, &cs[i]) - (double)done) * mean * 1e-9;
    }
    return eta;
}

/* Is this failed run one that the options say to record? */
static int failure_ignored(const struct session *s, const bl_exec_run *run)
{
    if (!s->o->ignore_failure)
        return 0;
    if (!s->o->n_ignore_codes)
        return 1;
    for (size_t i = 0; !run->term_signal && i < s->o->n_ignore_codes; i++)
        if (s->o->ignore_codes[i] == run->exit_code)
            return 1;
    return 0;
}

/* One run of command c: prepare, the timed run, conclude. */
static int one_run(struct session *s, struct cmd_state *cs, size_t n_cs, size_t ci, size_t index,
                   int is_warmup, int k)
{
    struct cmd_state *c = &cs[ci];
    if (stop_requested(s))
        return BL_EINTR;
    if (s->obs && s->obs->on_run_start)
        s->obs->on_run_start(s->obs->ctx, index, k, is_warmup ? s->o->warmup : planned_runs(s, c),
                             is_warmup, eta_s(s, cs, n_cs));
    double spent = 0;
    int err = run_helper(s, "prepare", c->c->prepare, c->c->output, &spent);
    if (err)
        return err;
    bl_exec_run run;
    char iter[32];
    snprintf(iter, sizeof iter, is_warmup ? "warmup-%d" : "%d", k - 1);
    uint64_t t0 = bl__now_ns();
    err = run_process(s, c->argv, c->c->output, iter, &run);
    spent += (double)(bl__now_ns() - t0);
    if (err == BL_EINTR)
        return err;
    if (err == BL_ETIMEOUT)
        return timeout_error(s, "command", c->c->name);
    if (err)
        return spawn_error(s, "command", c->c->command, err);
    if ((run.exit_code != 0 || run.term_signal) && !failure_ignored(s, &run)) {
        char st[80];
        describe_status(&run, st, sizeof st);
        set_err(s, "command '%s' %s%s", c->c->name, st, is_warmup ? " (in a warm-up run)" : "");
        return BL_EEXIT;
    }
    err = run_helper(s, "conclude", c->c->conclude, c->c->output, &spent);
    if (err)
        return err;
    if (is_warmup)
        return 0;
    c->spent_ns += spent;
    /* the one way into the results: a completed, timed run, failed only if ignored */
    BL__CHECK((run.exit_code == 0 && !run.term_signal) || failure_ignored(s, &run));
    err = add_run(c->r, &run);
    if (!err && s->obs && s->obs->on_run_done)
        s->obs->on_run_done(s->obs->ctx, index, &run);
    return err;
}

/* One run of the shell alone (`sh -c ''`), for the start-up to subtract. */
static int shell_run(struct session *s)
{
    bl_exec_run run;
    int err = run_process(s, s->shell_argv, NULL, NULL, &run);
    if (err == BL_EINTR)
        return err;
    if (err == BL_ETIMEOUT)
        return timeout_error(s, "shell", s->o->shell);
    if (err)
        return spawn_error(s, "shell", "", err);
    return add_shell_run(s, &run);
}

static void shuffle(struct session *s, size_t *xs, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(bl__rng_next(&s->rng) % i);
        size_t t = xs[i - 1];
        xs[i - 1] = xs[j];
        xs[j] = t;
    }
}

/*
 * One round: a run of each command in `todo` (indices into cs) and, with a
 * shell, one of the shell alone, in the session's order. `slots` has room
 * for n_todo + 1 entries; slot value n_cs means the shell.
 */
static int round_run(struct session *s, struct cmd_state *cs, size_t n_cs, const size_t *todo,
                     size_t n_todo, size_t *slots, int is_warmup, int k)
{
    size_t n = 0;
    for (size_t i = 0; i < n_todo; i++)
        slots[n++] = todo[i];
    if (s->shell_argv && !is_warmup)
        slots[n++] = n_cs;
    if (s->o->order == BL_EXEC_SHUFFLE)
        shuffle(s, slots, n);
    for (size_t i = 0; i < n; i++) {
        int err = slots[i] == n_cs ? shell_run(s)
                                   : one_run(s, cs, n_cs, slots[i], slots[i], is_warmup,
                                             is_warmup ? k : (int)cs[slots[i]].r->n_runs + 1);
        if (err)
            return err;
    }
    return 0;
}

/* Run the commands cs[first..first+count) as one group of rounds. */
static int run_group(struct session *s, struct cmd_state *cs, size_t n_cs, size_t first,
                     size_t count, int *early)
{
    size_t *todo = calloc(count + 1, sizeof *todo), *slots = calloc(count + 2, sizeof *slots);
    int err = todo && slots ? 0 : -ENOMEM;
    size_t n_setup = 0;
    for (; !err && n_setup < count; n_setup++) {
        struct cmd_state *c = &cs[first + n_setup];
        err = run_helper(s, "setup", c->c->setup, c->c->output, &c->spent_ns);
    }
    for (size_t i = 0; i < count; i++)
        if (!err)
            todo[i] = first + i;
    /* warm-up rounds: the shell too, untimed */
    for (int w = 0; !err && w < s->o->warmup; w++)
        err = round_run(s, cs, n_cs, todo, count, slots, 1, w + 1);
    if (!err && s->shell_argv && s->o->warmup > 0) {
        size_t keep = s->n_shell;
        err = shell_run(s);
        s->n_shell = keep; /* the warm-up of the shell does not count */
    }
    /* The budget is wall time: each command is charged its own prepare, run
     * and conclude, and an equal share of the rest of its rounds (the
     * shell's run, the harness's own work between runs). */
    uint64_t t_prev = bl__now_ns();
    while (!err) {
        size_t n_todo = 0;
        int early_here = 0;
        for (size_t i = 0; i < count; i++)
            if (needs_run(s, &cs[first + i], &early_here))
                todo[n_todo++] = first + i;
        if (early_here)
            *early = 1;
        if (n_todo == 0)
            break;
        double own = 0;
        for (size_t i = 0; i < n_todo; i++)
            own -= cs[todo[i]].spent_ns;
        err = round_run(s, cs, n_cs, todo, n_todo, slots, 0, 0);
        uint64_t t_now = bl__now_ns();
        for (size_t i = 0; i < n_todo; i++)
            own += cs[todo[i]].spent_ns;
        double rest = (double)(t_now - t_prev) - own;
        for (size_t i = 0; rest > 0 && i < n_todo; i++)
            cs[todo[i]].spent_ns += rest / (double)n_todo;
        t_prev = t_now;
    }
    /* cleanup for every command whose setup ran, even after an error */
    int err2 = 0;
    for (size_t i = 0; i < n_setup && err != BL_EINTR; i++) {
        int e = run_helper(s, "cleanup", cs[first + i].c->cleanup, cs[first + i].c->output, NULL);
        if (e && !err2)
            err2 = e;
    }
    free(todo);
    free(slots);
    return err ? err : err2;
}

/* Subtract the shell and summarise every command. */
static int finish(struct session *s, bl_exec_results *res)
{
    if (s->n_shell) {
        res->n_shell_runs = s->n_shell;
        res->shell_wall_ns = bl_stats_median(s->shell_wall, s->n_shell);
        res->shell_user_ns = bl_stats_median(s->shell_user, s->n_shell);
        res->shell_sys_ns = bl_stats_median(s->shell_sys, s->n_shell);
    }
    for (size_t i = 0; i < res->n_results; i++) {
        bl_exec_result *r = &res->results[i];
        if (!r->n_runs)
            continue;
        double *xs = malloc(3 * r->n_runs * sizeof *xs);
        if (!xs)
            return -ENOMEM;
        double *us = xs + r->n_runs, *ss = us + r->n_runs;
        for (size_t k = 0; k < r->n_runs; k++) {
            bl_exec_run *run = &r->runs[k];
            run->wall_ns = fmax(0, run->raw_wall_ns - res->shell_wall_ns);
            run->user_ns = fmax(0, run->user_ns - res->shell_user_ns);
            run->sys_ns = fmax(0, run->sys_ns - res->shell_sys_ns);
            xs[k] = run->wall_ns;
            us[k] = run->user_ns;
            ss[k] = run->sys_ns;
            if (k == 0) {
                r->max_rss_bytes = 0;
                r->max_rss_is_bound = 1;
            }
            if (!run->peak_rss_is_bound && r->max_rss_is_bound) {
                r->max_rss_is_bound = 0; /* a measured peak replaces the bounds */
                r->max_rss_bytes = 0;
            }
            if (run->peak_rss_is_bound == r->max_rss_is_bound &&
                run->peak_rss_bytes > r->max_rss_bytes)
                r->max_rss_bytes = run->peak_rss_bytes;
        }
        int err = bl_stats_summarize(xs, r->n_runs, s->o->confidence, &r->wall);
        if (!err)
            err = bl_stats_summarize(us, r->n_runs, s->o->confidence, &r->user);
        if (!err)
            err = bl_stats_summarize(ss, r->n_runs, s->o->confidence, &r->sys);
        free(xs);
        if (err)
            return err;
    }
    return 0;
}

/* environ and a slot for HYPERFINE_ITERATION (any inherited one is replaced). */
static int make_env(struct session *s)
{
    size_t n = 0;
    while (environ[n])
        n++;
    s->envp = calloc(n + 2, sizeof *s->envp);
    if (!s->envp)
        return -ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "HYPERFINE_ITERATION=", 20) != 0)
            s->envp[k++] = environ[i];
    s->env_slot = k;
    return 0;
}

/*
 * A command failed before the shell's start-up was measured (it ran before
 * the shell's slot of the first round): measure it now, as many times as
 * the most runs of a command (at most 10), so that the runs kept are
 * corrected like any others. Errors here leave them uncorrected.
 */
static void late_shell_runs(struct session *s, struct cmd_state *cs, size_t n)
{
    size_t want = 0;
    for (size_t i = 0; i < n; i++)
        if (cs[i].r->n_runs > want)
            want = cs[i].r->n_runs;
    if (!s->shell_argv || s->n_shell || !want)
        return;
    if (want > 10)
        want = 10;
    char keep[512];
    snprintf(keep, sizeof keep, "%s", s->err);
    for (size_t k = 0; k < want && !stop_requested(s); k++)
        if (shell_run(s))
            break;
    snprintf(s->err, s->err_size, "%s", keep);
}

static int open_fds(struct session *s)
{
    s->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (s->null_fd < 0) {
        set_err(s, "cannot open /dev/null: %s", strerror(errno));
        return -errno;
    }
    s->in_fd = s->null_fd;
    if (s->o->input) {
        s->in_fd = open(s->o->input, O_RDONLY | O_CLOEXEC);
        if (s->in_fd < 0) {
            int e = -errno;
            set_err(s, "input file '%s': %s", s->o->input, strerror(errno));
            return e;
        }
    }
    return 0;
}

int bl_exec_run_all(const bl_exec_command *commands, size_t n_commands, const bl_exec_options *opts,
                    const bl_exec_observer *obs, bl_exec_results **out, char *err_msg,
                    size_t err_size)
{
    char dummy[8];
    struct session s;
    memset(&s, 0, sizeof s);
    s.o = opts;
    s.obs = obs;
    s.err = err_size ? err_msg : dummy;
    s.err_size = err_size ? err_size : sizeof dummy;
    s.err[0] = '\0';
    s.in_fd = s.null_fd = -1;
    uint64_t t_start = bl__now_ns();
    bl__rng_seed(&s.rng, opts->seed ? opts->seed : t_start);

    bl_exec_results *res = calloc(1, sizeof *res);
    *out = res;
    if (!res)
        return -ENOMEM;
    res->results = calloc(n_commands ? n_commands : 1, sizeof *res->results);
    struct cmd_state *cs = calloc(n_commands ? n_commands : 1, sizeof *cs);
    int err = res->results && cs ? 0 : -ENOMEM;
    if (!err && (n_commands == 0 || opts->runs < 0 || opts->min_runs < 1 || opts->warmup < 0 ||
                 (opts->max_runs > 0 && opts->max_runs < opts->min_runs && opts->runs == 0))) {
        set_err(&s, "bad options: no command, or a bad number of runs");
        err = BL_EUSAGE;
    }
    if (!err) {
        res->n_results = n_commands;
        snprintf(res->shell, sizeof res->shell, "%s", opts->shell ? opts->shell : "");
    }
    for (size_t i = 0; !err && i < n_commands; i++) {
        cs[i].c = &commands[i];
        cs[i].r = &res->results[i];
        cs[i].r->command = &commands[i];
        err = make_argv(&s, commands[i].command, &cs[i].argv);
        if (err == BL_EUSAGE)
            set_err(&s, "command '%s': cannot be split into words (an open quote?)",
                    commands[i].command);
    }
    if (!err && opts->shell) {
        err = make_argv(&s, "", &s.shell_argv);
        if (err == BL_EUSAGE)
            set_err(&s, "shell '%s': cannot be split into words (an open quote?)", opts->shell);
    }
    if (!err)
        err = open_fds(&s);
    if (!err)
        err = make_env(&s);
    int early = 0;
    if (!err && opts->order == BL_EXEC_SEQUENTIAL) {
        for (size_t i = 0; !err && i < n_commands; i++)
            err = run_group(&s, cs, n_commands, i, 1, &early);
    } else if (!err) {
        err = run_group(&s, cs, n_commands, 0, n_commands, &early);
    }
    if (err == BL_EINTR)
        set_err(&s, "interrupted");
    else if (err)
        late_shell_runs(&s, cs, n_commands);
    res->stopped_early = early && !err;
    res->early_min_runs = EARLY_MIN_RUNS;
    res->early_rel_width = EARLY_REL_WIDTH;
    int err2 = finish(&s, res);
    res->elapsed_s = (double)(bl__now_ns() - t_start) * 1e-9;
    for (size_t i = 0; cs && i < n_commands; i++)
        bl_exec_argv_free(cs[i].argv);
    free(cs);
    bl_exec_argv_free(s.shell_argv);
    free(s.shell_wall);
    free(s.shell_user);
    free(s.shell_sys);
    free(s.envp);
    if (s.in_fd >= 0 && s.in_fd != s.null_fd)
        close(s.in_fd);
    if (s.null_fd >= 0)
        close(s.null_fd);
    return err ? err : err2;
}

void bl_exec_results_destroy(bl_exec_results *res)
{
    if (!res)
        return;
    for (size_t i = 0; i < res->n_results; i++)
        free(res->results[i].runs);
    free(res->results);
    free(res);
}

/* ---- judging ---------------------------------------------------------------------- */

int bl_exec_compare(const bl_exec_result *a, const bl_exec_result *b, double *ratio,
                    double *ratio_lo, double *ratio_hi, double *p_value)
{
    if (!a->n_runs || !b->n_runs)
        return -EINVAL;
    *ratio = a->wall.median > 0 ? b->wall.median / a->wall.median : NAN;
    *ratio_lo = *ratio_hi = NAN;
    if (isfinite(a->wall.ci_lo) && isfinite(b->wall.ci_lo) && a->wall.ci_lo > 0 &&
        a->wall.ci_hi > 0) {
        *ratio_lo = b->wall.ci_lo / a->wall.ci_hi;
        *ratio_hi = b->wall.ci_hi / a->wall.ci_lo;
    }
    double *xa = malloc((a->n_runs + b->n_runs) * sizeof *xa);
    if (!xa)
        return -ENOMEM;
    double *xb = xa + a->n_runs;
    for (size_t i = 0; i < a->n_runs; i++)
        xa[i] = a->runs[i].wall_ns;
    for (size_t i = 0; i < b->n_runs; i++)
        xb[i] = b->runs[i].wall_ns;
    int err = bl_stats_utest(xa, a->n_runs, xb, b->n_runs, p_value);
    free(xa);
    if (err == -EDOM) {
        *p_value = 1.0;
        err = 0;
    }
    return err;
}

int bl_exec_first_run_slow(const bl_exec_result *r)
{
    if (r->n_runs < 5)
        return 0;
    double first = r->runs[0].wall_ns;
    double fence = r->wall.q3 + 3 * (r->wall.q3 - r->wall.q1);
    return first > fence && first >= r->wall.max;
}

size_t bl_exec_count_slow(const bl_exec_result *r)
{
    if (r->n_runs < 5)
        return 0;
    double fence = r->wall.q3 + 1.5 * (r->wall.q3 - r->wall.q1);
    size_t n = 0;
    for (size_t i = 0; i < r->n_runs; i++)
        n += r->runs[i].wall_ns > fence;
    return n;
}
