/*
 * fixture_fork.c - benchmarks that fork, for the runner's process
 * clean-up (tests/engine/fork.sh): a child that keeps the worker's pipes
 * open, a daemon that leaves the worker's session, and a worker that sends
 * its results and then never exits, a daemon a worker needs until its
 * end (ServerKept), and a child that does not exit but goes on into the
 * benchmark's loop beside its parent (ForkContinues), and bodies that
 * close or reuse the worker's channel descriptor (ChannelClosed,
 * ChannelReused), and a statistic of its own that ends the process that
 * computes it (StatsEnd), and one that pauses the clock and never resumes
 * it (NeverResumes). Each process the benchmarks leave
 * behind appends its pid to the file named by $FORK_PIDS, so that the test
 * can check that none outlives the run.
 */
#include <benchlab.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Append our pid to $FORK_PIDS, then say so on `ready` (a pipe's write end). */
static void note_pid(int ready)
{
    const char *path = getenv("FORK_PIDS");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
    if (write(ready, "x", 1) != 1)
        _exit(1);
    close(ready);
}

/* Wait until the process at the other end of `p` has noted its pid. */
static void wait_noted(int p[2])
{
    char c;
    close(p[1]);
    if (read(p[0], &c, 1) != 1)
        abort();
    close(p[0]);
}

static void spin(bl_state *st)
{
    unsigned x = 1;
    while (bl_loop(st)) {
        x = x * 1664525u + 1013904223u;
        bl_do_not_optimize(x);
    }
}

/* A child that sleeps holding the inherited stdout, stderr and channel. */
BENCHLAB(ForkKeepsPipes)
{
    static int forked;
    int p[2];
    if (!forked++ && pipe(p) == 0) {
        if (fork() == 0) {
            close(p[0]);
            note_pid(p[1]);
            sleep(120);
            _exit(0);
        }
        wait_noted(p);
    }
    spin(st);
}

/* The classic daemon: fork, setsid, fork again, the middle one exits; the
 * daemon closes its descriptors, so nothing holds the pipes. */
BENCHLAB(Daemon)
{
    static int forked;
    int p[2];
    if (!forked++ && pipe(p) == 0) {
        pid_t mid = fork();
        if (mid == 0) {
            setsid();
            if (fork() == 0) {
                int null = open("/dev/null", O_RDWR);
                for (int fd = 0; fd < 4; fd++)
                    dup2(null, fd);
                close(p[0]);
                note_pid(p[1]);
                sleep(120);
                _exit(0);
            }
            _exit(0);
        }
        waitpid(mid, NULL, 0);
        wait_noted(p);
    }
    spin(st);
}

/* A daemon a worker needs until its end: started by global_setup, checked
 * by global_cleanup, which appends "lost PID" to $FORK_LOST when it is gone.
 * Under `benchlab ab` many workers live at once; the end of one must not
 * kill what another still uses. */
static pid_t server;

static void start_server(bl_state *st)
{
    (void)st;
    int p[2];
    if (pipe(p) != 0)
        abort();
    pid_t mid = fork();
    if (mid == 0) {
        setsid();
        if (fork() == 0) {
            int null = open("/dev/null", O_RDWR);
            for (int fd = 0; fd < 3; fd++)
                dup2(null, fd);
            pid_t me = getpid();
            close(p[0]);
            note_pid(dup(p[1])); /* closes the copy it is given */
            if (write(p[1], &me, sizeof me) != (ssize_t)sizeof me)
                _exit(1);
            sleep(120);
            _exit(0);
        }
        _exit(0);
    }
    waitpid(mid, NULL, 0);
    close(p[1]);
    char x;
    pid_t pid = 0;
    if (read(p[0], &x, 1) != 1 || read(p[0], &pid, sizeof pid) != (ssize_t)sizeof pid)
        abort();
    close(p[0]);
    server = pid;
}

static void check_server(bl_state *st)
{
    (void)st;
    usleep(300000); /* let the other workers of an ab run end first */
    const char *path = getenv("FORK_LOST");
    if (server > 0 && kill(server, 0) != 0 && path) {
        FILE *f = fopen(path, "a");
        if (f) {
            fprintf(f, "lost %d\n", (int)server);
            fclose(f);
        }
    }
}

BENCHLAB(ServerKept, .global_setup = start_server, .global_cleanup = check_server)
{
    spin(st);
}

static void never_return(void)
{
    for (;;)
        pause();
}

/* Measures, sends its results, then hangs in exit(). */
BENCHLAB(ExitHangs)
{
    static int registered;
    if (!registered++)
        atexit(never_return);
    spin(st);
}

/* A child forked in the body that never exits: it returns into the loop
 * as its parent does, and would send its own batches on the channel it
 * inherited (a benchmark's bug, as a child that forgets _exit()). */
BENCHLAB(ForkContinues)
{
    static int forked;
    if (!forked++ && fork() == 0) {
        const char *path = getenv("FORK_PIDS");
        FILE *f = path ? fopen(path, "a") : NULL;
        if (f) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
    spin(st);
}

/* Descriptors the worker did not open, closed or reused by the body, as
 * code that closes "every inherited descriptor" does: the channel (fd 3)
 * among them. ChannelClosed closes it; ChannelReused closes it and opens
 * $CHANNEL_FILE, which gets fd 3, the lowest free. */
BENCHLAB(ChannelClosed)
{
    static int closed;
    if (!closed++)
        for (int fd = 3; fd < 64; fd++)
            close(fd);
    spin(st);
}

BENCHLAB(ChannelReused)
{
    static int reused;
    const char *path = getenv("CHANNEL_FILE");
    if (!reused++ && path) {
        close(3);
        if (open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) != 3)
            abort();
    }
    spin(st);
}

/* A statistic of its own whose function ends the process computing it,
 * as $STATS_END says: "segv" (a crash), "exit" (exit(3)) or "hang" (it
 * never returns); else the mean. */
static double ending_stat(const double *v, size_t n, const void *data)
{
    (void)data;
    const char *how = getenv("STATS_END");
    if (how && strcmp(how, "segv") == 0)
        raise(SIGSEGV);
    if (how && strcmp(how, "exit") == 0)
        exit(3);
    while (how && strcmp(how, "hang") == 0)
        pause();
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    return n ? sum / (double)n : 0;
}

BENCHLAB(StatsEnd, .statistics = (const bl_statistic[]){{"ending", ending_stat}, {0}})
{
    spin(st);
}

/* Pauses the clock in every repetition and never resumes it: all but
 * the first repetition of a batch would run untimed (Google Benchmark
 * aborts on it; the pilot would grow its batches until the time limit). */
BENCHLAB(NeverResumes)
{
    while (bl_loop(st))
        bl_pause(st);
}

BENCHLAB_MAIN()
