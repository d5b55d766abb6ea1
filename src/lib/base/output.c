/*
 * output.c - the one way benchlab opens a file to write (benchlab/output.h):
 * run's and the suites' --out, merge, report, ab, exec's exports, profile
 * outputs, the tune file and the store's exports all come through here.
 *
 * A regular file is replaced whole or not at all: we write an unnamed file
 * (O_TMPFILE) in the target's directory, give it a name only once it is
 * complete, and rename that name onto the target, with the catchable
 * signals blocked in between; a kill -9 while writing leaves nothing. Where
 * the file system has no O_TMPFILE, the temporary file is "PATH.tmp.PID",
 * removed by our handler of SIGINT, SIGTERM and SIGHUP, and by the next open
 * of the same path when a kill -9 left it behind. Anything that is not a
 * regular file is written in place: renaming onto /dev/null as root
 * replaces the machine's /dev/null with a regular file.
 *
 * Writes go through a cookie stream that keeps the errno of the first write
 * that failed, so that a full disk is reported as "No space left on
 * device" rather than stdio's bare error flag. SIGXFSZ is caught while an
 * output is open, so that passing `ulimit -f` is an EFBIG error like any
 * other instead of a core dump.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "benchlab/output.h"

enum kind { TO_STDOUT, IN_PLACE, UNNAMED_TEMP, NAMED_TEMP };

struct bl_output {
    FILE *f;
    enum kind kind;
    int fd;
    int err;      /* the first failed write's -errno */
    char *name;   /* as the caller gave it, for messages */
    char *target; /* the regular file to rename onto */
    char *tmp;    /* NAMED_TEMP: the temporary file's name */
    int slot;     /* NAMED_TEMP: its place in `named`, or -1 */
    int dropping; /* discarding: what is still buffered goes nowhere */
};

/* ---- named temporary files, removed when a signal ends the process ---- */

#define MAX_NAMED 64
static _Atomic(char *) named[MAX_NAMED];
static _Atomic pid_t named_pid[MAX_NAMED]; /* a fork()ed child must not remove ours */

static void unlink_named(void)
{
    pid_t self = getpid();
    for (int i = 0; i < MAX_NAMED; i++) {
        char *p = atomic_load(&named[i]);
        if (p && atomic_load(&named_pid[i]) == self)
            unlink(p);
    }
}

static void on_signal(int sig)
{
    int saved = errno;
    if (sig == SIGXFSZ) { /* returning makes the write fail with EFBIG */
        errno = saved;
        return;
    }
    unlink_named();
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when we return: the process ends as it would have */
    errno = saved;
}

/* Catch the signals that would end us while a temporary file has a name,
 * where nobody else handles them (the runner's Ctrl-C handler stays). */
static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
            (old.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        (void)sigaction(sigs[i], &sa, NULL);
    }
}

static int remember(char *path)
{
    for (int i = 0; i < MAX_NAMED; i++) {
        char *expected = NULL;
        atomic_store(&named_pid[i], getpid());
        if (atomic_compare_exchange_strong(&named[i], &expected, path))
            return i;
    }
    return -1; /* too many at once: only the kill-time cleanup covers it */
}

static void forget(int slot)
{
    if (slot >= 0)
        atomic_store(&named[slot], NULL);
}

/* "PATH.tmp." followed by digits: the pid of the process that wrote it. */
static pid_t temp_owner(const char *entry, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(entry, base, n) != 0 || strncmp(entry + n, ".tmp.", 5) != 0)
        return 0;
    const char *d = entry + n + 5;
    if (!*d || strlen(d) > 9)
        return 0;
    for (const char *p = d; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return (pid_t)atol(d);
}

/* Remove the temporary files of `target` whose writer is gone (kill -9). */
static void remove_stale(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    int dfd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        pid_t pid = temp_owner(e->d_name, base);
        if (pid > 0 && pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH)
            (void)unlinkat(dfd, e->d_name, 0);
    }
    closedir(d);
}

/* ---- the stream ---- */

static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
    bl_output *o = cookie;
    if (o->dropping)
        return (ssize_t)n;
    int err = bl__write_all(o->fd, buf, n);
    if (err) {
        if (!o->err)
            o->err = err;
        errno = -err;
        return 0; /* stdio's error flag; o->err says why */
    }
    return (ssize_t)n;
}

static int cookie_close(void *cookie)
{
    (void)cookie; /* the descriptor outlives the stream: see finish() */
    return 0;
}

/* /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N name a descriptor. */
static int descriptor_alias(const char *p)
{
    if (strcmp(p, "/dev/stdout") == 0)
        return 1;
    if (strcmp(p, "/dev/stderr") == 0)
        return 2;
    const char *d = strncmp(p, "/dev/fd/", 8) == 0          ? p + 8
                    : strncmp(p, "/proc/self/fd/", 14) == 0 ? p + 14
                                                            : NULL;
    if (!d || !*d || strlen(d) > 6 || strspn(d, "0123456789") != strlen(d))
        return -1;
    return atoi(d);
}

char *bl__path_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return bl__strdup(".");
    if (slash == path)
        return bl__strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/*
 * Follow `path`'s symbolic links to what they lead to. Sets *target (caller
 * frees) and *st (st_mode 0 when nothing exists there), or *alias_fd when a
 * link leads to a descriptor (/dev/stdout). 0 or -errno.
 */
static int resolve(const char *path, char **target, struct stat *st, int *alias_fd)
{
    char *cur = bl__strdup(path);
    *alias_fd = -1;
    memset(st, 0, sizeof *st);
    for (int hops = 0; cur; hops++) {
        if ((*alias_fd = descriptor_alias(cur)) >= 0 || hops > 40) {
            free(cur);
            return hops > 40 ? -ELOOP : 0;
        }
        if (lstat(cur, st) != 0) {
            int e = errno;
            memset(st, 0, sizeof *st);
            if (e == ENOENT) {
                *target = cur;
                return 0;
            }
            free(cur);
            return -e;
        }
        if (!S_ISLNK(st->st_mode)) {
            *target = cur;
            return 0;
        }
        struct bl__buf link = {0};
        if (bl__buf_reserve(&link, (size_t)st->st_size + 2) != 0)
            break;
        ssize_t n = readlink(cur, link.data, link.cap - 1);
        if (n < 0 || (size_t)n >= link.cap - 1) {
            bl__buf_fini(&link);
            free(cur);
            return n < 0 ? -errno : -ENAMETOOLONG;
        }
        link.data[n] = '\0';
        char *next = NULL;
        if (link.data[0] == '/' || !strchr(cur, '/')) {
            next = link.data;
        } else {
            struct bl__buf b = {0};
            bl__buf_append(&b, cur, (size_t)(strrchr(cur, '/') - cur) + 1);
            bl__buf_puts(&b, link.data);
            next = b.data;
            bl__buf_fini(&link);
        }
        free(cur);
        cur = next;
    }
    free(cur);
    return -ENOMEM;
}

/* Open an unnamed (or, failing that, named) file beside o->target. */
static int open_temp(bl_output *o, const struct stat *st, int allow_unnamed)
{
    char *dir = bl__path_dir(o->target);
    const char *base = strrchr(o->target, '/') ? strrchr(o->target, '/') + 1 : o->target;
    if (!dir)
        return -ENOMEM;
    remove_stale(dir, base);
    o->fd = allow_unnamed ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666) : -1;
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
    if (o->fd >= 0 && access(proc, F_OK) == 0) { /* linkat needs /proc */
        o->kind = UNNAMED_TEMP;
    } else {
        if (o->fd >= 0)
            close(o->fd);
        struct bl__buf t = {0};
        bl__buf_printf(&t, "%s.tmp.%ld", o->target, (long)getpid());
        o->tmp = t.data;
        if (!o->tmp) {
            free(dir);
            return -ENOMEM;
        }
        (void)unlink(o->tmp); /* our own pid's, from an earlier boot */
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        o->kind = NAMED_TEMP;
        if (o->fd >= 0)
            o->slot = remember(o->tmp);
    }
    int err = o->fd < 0 ? -errno : 0;
    if (!err && st->st_mode) { /* replacing: keep the file's mode and owner */
        (void)fchmod(o->fd, st->st_mode & 07777);
        if (st->st_uid != geteuid() || st->st_gid != getegid())
            (void)fchown(o->fd, st->st_uid, st->st_gid);
    }
    free(dir);
    return err;
}

char *bl__output_target(const char *path)
{
    char *target = NULL;
    struct stat st;
    int alias = -1;
    if (!path || strcmp(path, "-") == 0 || resolve(path, &target, &st, &alias) != 0)
        return NULL;
    return target;
}

/* Also used by the unit tests with allow_unnamed = 0, for the named fallback. */
int bl__output_open(const char *path, int allow_unnamed, bl_output **out);

int bl__output_open(const char *path, int allow_unnamed, bl_output **out)
{
    *out = NULL;
    bl_output *o = calloc(1, sizeof *o);
    if (!o || !(o->name = bl__strdup(path && strcmp(path, "-") != 0 ? path : "stdout"))) {
        free(o);
        return -ENOMEM;
    }
    o->fd = -1;
    o->slot = -1;
    if (!path || strcmp(path, "-") == 0) {
        o->kind = TO_STDOUT;
        o->f = stdout;
        *out = o;
        return 0;
    }
    catch_signals();
    struct stat st;
    int alias = -1;
    int err = resolve(path, &o->target, &st, &alias);
    if (!err && alias >= 0) {
        fflush(NULL); /* what went to stdout before stays before */
        o->kind = IN_PLACE;
        o->fd = fcntl(alias, F_DUPFD_CLOEXEC, 3);
        err = o->fd < 0 ? -errno : 0;
    } else if (!err && S_ISDIR(st.st_mode)) {
        err = -EISDIR;
    } else if (!err && st.st_mode && !S_ISREG(st.st_mode)) {
        o->kind = IN_PLACE; /* a device, FIFO or socket: write through it */
        o->fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        err = o->fd < 0 ? -errno : 0;
    } else if (!err) {
        err = open_temp(o, &st, allow_unnamed);
    }
    if (!err) {
        cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
        o->f = fopencookie(o, "w", io);
        err = o->f ? 0 : -ENOMEM;
    }
    if (err) {
        bl_output_discard(o);
        return err;
    }
    *out = o;
    return 0;
}

int bl_output_open(const char *path, bl_output **out)
{
    return bl__output_open(path, 1, out);
}

FILE *bl_output_file(const bl_output *o)
{
    return o->f;
}

const char *bl_output_name(const bl_output *o)
{
    return o->name;
}

int bl__output_replaces(const bl_output *o)
{
    return o && (o->kind == UNNAMED_TEMP || o->kind == NAMED_TEMP);
}

static void free_output(bl_output *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->fd >= 0)
        close(o->fd);
    if (o->tmp) {
        forget(o->slot);
        unlink(o->tmp);
        free(o->tmp);
    }
    free(o->target);
    free(o->name);
    free(o);
}

/* Give the unnamed file the name "TARGET.tmp.PID", so that rename() can move it. */
static int link_unnamed(bl_output *o)
{
    char proc[64];
    struct bl__buf t = {0};
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
    if (bl__buf_printf(&t, "%s.tmp.%ld", o->target, (long)getpid()) != 0)
        return -ENOMEM;
    (void)unlink(t.data);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, t.data, AT_SYMLINK_FOLLOW) != 0) {
        int e = errno;
        bl__buf_fini(&t);
        return -e;
    }
    o->tmp = t.data;
    o->slot = remember(o->tmp);
    return 0;
}

int bl_output_close(bl_output *o)
{
    if (!o)
        return 0;
    if (o->kind == TO_STDOUT) {
        int err = bl_output_flush_stdout();
        free_output(o);
        return err;
    }
    int err = fflush(o->f) != 0 || ferror(o->f) ? (o->err ? o->err : -EIO) : 0;
    fclose(o->f);
    o->f = NULL;
    if (o->kind == IN_PLACE || err) {
        if (!err && close(o->fd) != 0 && errno != EINTR)
            err = -errno;
        else if (err)
            close(o->fd);
        o->fd = -1;
        free_output(o);
        return err;
    }
    /* the file is complete: publish it with no signal in between */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    if (o->kind == UNNAMED_TEMP)
        err = link_unnamed(o);
    if (close(o->fd) != 0 && errno != EINTR && !err)
        err = -errno; /* NFS reports a full disk here */
    o->fd = -1;
    if (!err && rename(o->tmp, o->target) != 0)
        err = -errno;
    if (!err) {
        forget(o->slot);
        free(o->tmp);
        o->tmp = NULL;
    }
    free_output(o);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return err;
}

int bl_output_end(bl_output *o, int err)
{
    if (!err)
        return bl_output_close(o);
    if (o && err == -EIO && o->kind == TO_STDOUT) {
        int why = bl_output_flush_stdout(); /* the write's own cause, not stdio's flag */
        err = why ? why : err;
    } else if (o && err == -EIO && o->err) {
        err = o->err;
    }
    bl_output_discard(o);
    return err;
}

void bl_output_discard(bl_output *o)
{
    if (!o)
        return;
    o->dropping = 1;
    free_output(o);
}

/* ---- stdout ---- */

static int stdout_err; /* the first failed write's -errno, once watched */
static FILE *watched;

static ssize_t stdout_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    int err = bl__write_all(1, buf, n);
    if (err) {
        if (!stdout_err)
            stdout_err = err;
        errno = -err;
        return 0;
    }
    return (ssize_t)n;
}

void bl_output_watch_stdout(void)
{
    if (watched && stdout == watched)
        return;
    fflush(stdout);
    cookie_io_functions_t io = {NULL, stdout_write, NULL, NULL};
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return; /* then a failed write is reported as EIO */
    setvbuf(f, NULL, isatty(1) ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = watched = f; /* glibc's stdout is a variable, meant to be assignable */
}

int bl_output_flush_stdout(void)
{
    errno = 0;
    int failed = fflush(stdout) != 0 || ferror(stdout);
    if (!failed)
        return 0;
    int err = stdout == watched && stdout_err ? stdout_err : errno ? -errno : -EIO;
    clearerr(stdout); /* told once: the next call speaks of later writes */
    stdout_err = 0;
    return err;
}
