/*
 * statistics.c - the statistics a definition brings of its own
 * (.statistics, Google Benchmark's ComputeStatistics).
 *
 * The functions live in the suite's code. `benchlab run SUITE` has no such
 * functions in its process: it asks the suite, started once more as
 * `SUITE --benchlab-statistics` (bl__statistics_serve), which names each
 * benchmark's statistics and computes one over the values it is sent, so
 * the same rows come out (bl__statistics_attach_remote). The suite's own
 * runner has them, but does not call them itself either: a function that
 * crashes, throws or exits would take the run's results with it, unwritten.
 * It forks a child of itself that serves them the same way
 * (bl__statistics_attach_self); a statistic whose process ended is said
 * to be missing and the run goes on. Either way Google Benchmark's writers
 * (format/gbench_*.c) then add the rows, and the lines below follow
 * benchlab's table.
 *
 * The protocol, one line each way, on the co-process's stdin and stdout:
 *   "?\tNAME"               -> "K" then K lines "PERCENTAGE\tSTATISTIC"
 *   "=\tNAME\tI\tV1 V2 ..."  -> the value of statistic I ("%.17g"; nan if none)
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/base.h"
#include "../bench/bench.h"
#include "benchlab.h"
#include "benchlab/format.h"
#include "front.h"

extern char **environ;

/* The definitions' own statistics (.statistics): attach each
 * definition's list to its results (this process's registry), and write
 * them after the table. */
static void statistics_attach(bl_results *res)
{
    for (size_t i = 0; res && i < res->n_benches; i++) {
        const struct bl__instance *in = bl__registry_find(res->benches[i].name);
        res->benches[i].statistics = in ? in->def->statistics : NULL;
    }
}

void bl__statistics_write(FILE *f, const bl_results *res)
{
    int header = 0;
    for (size_t i = 0; res && i < res->n_benches; i++) {
        const bl_bench_result *b = &res->benches[i];
        if (!b->statistics || !b->statistics[0].name)
            continue;
        double *v = malloc((b->n_launches ? b->n_launches : 1) * sizeof *v);
        size_t n = 0;
        for (size_t j = 0; v && j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            if (!l->status && !l->skipped && isfinite(l->ns_per_op))
                v[n++] = l->ns_per_op;
        }
        if (n >= 2 && !header) {
            fputs("\nstatistics of their own, over the launches' times per op:\n", f);
            header = 1;
        }
        for (const bl_statistic *s = b->statistics; n >= 2 && s->name; s++) {
            if (!s->fn)
                continue;
            double x = s->fn(v, n, s->data);
            char text[64];
            if (s->percentage)
                snprintf(text, sizeof text, "%.2f%%", 100 * x);
            else
                bl_format_duration(text, sizeof text, x);
            fprintf(f, "  %s  %s  %s  (%zu launches)\n", bl__shown_name(b->name), s->name, text, n);
        }
        if (n < 2)
            fprintf(f, "%s: statistics of its own need 2 launches or more (--count), has %zu\n",
                    bl__shown_name(b->name), n);
        free(v);
    }
}

/* ---- the suite's side: --benchlab-statistics ---------------------------- */

/* The statistics of the benchmark named `name` (NULL: none). */
static const bl_statistic *statistics_of(const char *name)
{
    const struct bl__instance *in = bl__registry_find(name);
    return in ? in->def->statistics : NULL;
}

int bl__statistics_serve(void)
{
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        line[strcspn(line, "\n")] = '\0';
        char *name = strchr(line, '\t');
        if (!name)
            break;
        *name++ = '\0';
        char *rest = strchr(name, '\t');
        if (rest)
            *rest++ = '\0';
        const bl_statistic *st = statistics_of(name);
        size_t k = 0;
        while (st && st[k].name)
            k++;
        if (strcmp(line, "?") == 0) {
            printf("%zu\n", k);
            for (size_t i = 0; i < k; i++) {
                char one[256];
                snprintf(one, sizeof one, "%s", st[i].name);
                for (char *c = one; *c; c++)
                    if (*c == '\t' || *c == '\n' || *c == '\r')
                        *c = ' ';
                printf("%d\t%s\n", st[i].percentage != 0, one);
            }
        } else if (strcmp(line, "=") == 0 && rest) {
            char *end;
            unsigned long i = strtoul(rest, &end, 10);
            double *v = NULL, x = NAN;
            size_t n = 0, vcap = 0;
            for (char *p = end; *p;) {
                double d = strtod(p, &end);
                if (end == p || bl__grow((void **)&v, &vcap, n + 1, sizeof *v))
                    break;
                v[n++] = d;
                p = end;
            }
            if (i < k && st[i].fn && n > 0)
                x = st[i].fn(v, n, st[i].data);
            free(v);
            printf("%.17g\n", x);
        } else {
            break;
        }
        if (fflush(stdout) != 0)
            break;
    }
    free(line);
    return 0;
}

/* ---- the runner's side: benchlab run SUITE ------------------------------ */

/* The suite, started with --benchlab-statistics, and what it answered. */
static struct {
    pid_t pid;
    FILE *to, *from;
    struct remote {
        bl_statistic *list; /* ends with {0}; names allocated */
        char *bench;
    } * benches;
    size_t n_benches;
    int timeout_ms; /* for each answer; past it the process is killed */
} co = {.pid = -1, .timeout_ms = 60000};

struct remote_stat {
    const char *bench;
    const char *name; /* the statistic's */
    size_t index;
};

/* Whether an answer came within the time limit; past it, the process is
 * killed (a function that never returns must not hold the run's results). */
static int answered(void)
{
    struct pollfd p = {.fd = fileno(co.from), .events = POLLIN};
    int rc;
    while ((rc = poll(&p, 1, co.timeout_ms)) < 0 && errno == EINTR) {
    }
    if (rc == 0 && co.pid > 0)
        kill(co.pid, SIGKILL);
    return rc > 0 ? 1 : rc == 0 ? 0 : -1;
}

/* The first statistic whose process ended or hung before it answered:
 * said once on stderr; it and the ones after it are NaN (shown as
 * missing), as nothing more is read from that process. */
static void lost(const struct remote_stat *r, bool timed_out)
{
    static int said;
    if (!said++) {
        char why[120];
        if (timed_out)
            snprintf(why, sizeof why, "did not return within %gs (--timeout): killed",
                     co.timeout_ms / 1000.0);
        else
            snprintf(why, sizeof why,
                     "ended the process computing it (a crash, an exception or exit())");
        fprintf(stderr,
                "benchlab: statistic '%s' of %s: the function %s: it and the statistics after "
                "it are not computed; the results are kept\n",
                r->name ? r->name : "?", r->bench ? bl__shown_name(r->bench) : "?", why);
    }
    fclose(co.from);
    co.from = NULL;
}

/* Send what is in co.to: a suite that ended gives EPIPE, not SIGPIPE
 * (blocked meanwhile, a pending one taken). 0, or -1. */
static int send_request(void)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    int rc = fflush(co.to) == 0 ? 0 : -1;
    if (rc && errno == EPIPE) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* A statistic computed by the suite: data is a struct remote_stat. */
static double remote_fn(const double *values, size_t n, const void *data)
{
    const struct remote_stat *r = data;
    if (!co.to || !co.from)
        return NAN; /* its process ended or was killed: said at the first */
    fprintf(co.to, "=\t%s\t%zu\t", r->bench, r->index);
    for (size_t i = 0; i < n; i++)
        fprintf(co.to, "%s%.17g", i ? " " : "", values[i]);
    fputc('\n', co.to);
    char line[128];
    int in_time = send_request() == 0 ? answered() : -1;
    if (in_time != 1 || !fgets(line, sizeof line, co.from)) {
        lost(r, in_time == 0);
        return NAN;
    }
    return strtod(line, NULL);
}

/* The parent's ends of the pipes to the process serving the statistics
 * (pid, or -1 when it did not start): co.to writes to its stdin (in),
 * co.from reads its stdout (out). 0, or -1 with everything closed and the
 * process reaped. */
static int talk_to(pid_t pid, const int in[2], const int out[2])
{
    close(in[0]);
    close(out[1]);
    co.pid = pid;
    co.to = pid > 0 ? fdopen(in[1], "w") : NULL;
    co.from = pid > 0 ? fdopen(out[0], "r") : NULL;
    if (co.to && co.from)
        return 0;
    if (co.to)
        fclose(co.to);
    else
        close(in[1]);
    if (co.from)
        fclose(co.from);
    else
        close(out[0]);
    co.to = co.from = NULL;
    if (pid > 0)
        waitpid(pid, NULL, 0);
    co.pid = -1;
    return -1;
}

static int start_suite(const char *exe)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    /* a suite from before this mode says it does not know the option */
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)exe, (char *)"--benchlab-statistics", NULL};
    int rc = posix_spawn(&co.pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return talk_to(rc == 0 ? co.pid : -1, in, out);
}

/* This process forked to serve its own statistics: the same registry and
 * memory, so a main that registers benchmarks from its arguments finds
 * them too. The child keeps stderr (a crash's words show), and leaves the
 * run's signals and files to the parent. 0, or -1 when it cannot start. */
static int start_self(void)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    fflush(NULL); /* what the run buffered is not written again by the child */
    pid_t pid = fork();
    if (pid == 0) {
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ, SIGPIPE, SIGQUIT};
        for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
            signal(sigs[i], SIG_DFL); /* the runner's handlers clean the parent's files */
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
            _exit(2);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        clearerr(stdin);
        bl__statistics_serve();
        _exit(0); /* no atexit handler of the run's */
    }
    return talk_to(pid, in, out);
}

/* What the suite says of `name`'s statistics: a list ending with {0}, or
 * NULL for none. */
static bl_statistic *ask_list(const char *name, struct remote_stat **rs)
{
    char line[512];
    fprintf(co.to, "?\t%s\n", name);
    if (send_request() != 0 || answered() != 1 || !fgets(line, sizeof line, co.from))
        return NULL;
    size_t k = strtoul(line, NULL, 10);
    if (k == 0 || k > 1000)
        return NULL;
    bl_statistic *list = calloc(k + 1, sizeof *list);
    *rs = calloc(k, sizeof **rs);
    for (size_t i = 0; list && *rs && i < k; i++) {
        if (!fgets(line, sizeof line, co.from))
            break;
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        list[i].name = bl__strdup(tab ? tab + 1 : "");
        list[i].percentage = line[0] == '1';
        list[i].fn = remote_fn;
        (*rs)[i].index = i;
        (*rs)[i].name = list[i].name;
        list[i].data = &(*rs)[i];
    }
    return list;
}

/* Ask the co-process for every benchmark's statistics. */
static void attach_from_co(bl_results *res)
{
    co.benches = calloc(res->n_benches, sizeof *co.benches);
    for (size_t i = 0; co.benches && i < res->n_benches; i++) {
        struct remote_stat *rs = NULL;
        struct remote *r = &co.benches[co.n_benches++];
        r->bench = bl__strdup(res->benches[i].name);
        r->list = r->bench ? ask_list(r->bench, &rs) : NULL;
        for (size_t k = 0; rs && r->list && r->list[k].fn; k++)
            rs[k].bench = r->bench;
        if (r->list && r->list[0].name)
            res->benches[i].statistics = r->list;
        else
            free(rs);
    }
}

static void set_timeout(double timeout_s)
{
    co.timeout_ms = timeout_s > 0 && timeout_s < 2e6 ? (int)(timeout_s * 1000) : 60000;
}

void bl__statistics_attach_remote(bl_results *res, const char *exe, double timeout_s)
{
    set_timeout(timeout_s);
    if (!res || !res->n_benches || start_suite(exe) != 0)
        return;
    attach_from_co(res);
}

void bl__statistics_attach_self(bl_results *res, double timeout_s)
{
    set_timeout(timeout_s);
    bool any = false;
    for (size_t i = 0; res && i < res->n_benches && !any; i++) {
        const struct bl__instance *in = bl__registry_find(res->benches[i].name);
        any = in && in->def->statistics && in->def->statistics[0].name;
    }
    if (!any)
        return;
    if (start_self() != 0) {
        statistics_attach(res); /* no process to spare: computed here */
        return;
    }
    attach_from_co(res);
}

void bl__statistics_detach(bl_results *res)
{
    for (size_t i = 0; res && i < res->n_benches; i++)
        for (size_t k = 0; k < co.n_benches; k++)
            if (res->benches[i].statistics == co.benches[k].list)
                res->benches[i].statistics = NULL;
    for (size_t k = 0; k < co.n_benches; k++) {
        bl_statistic *l = co.benches[k].list;
        if (l && l[0].data)
            free((void *)l[0].data); /* the struct remote_stat array */
        for (size_t j = 0; l && l[j].fn; j++)
            free((char *)l[j].name);
        free(l);
        free(co.benches[k].bench);
    }
    free(co.benches);
    co.benches = NULL;
    co.n_benches = 0;
    if (co.to) {
        send_request();
        fclose(co.to); /* end of input: the suite ends */
    }
    if (co.from)
        fclose(co.from);
    co.to = co.from = NULL;
    if (co.pid > 0)
        waitpid(co.pid, NULL, 0);
    co.pid = -1;
}
