/*
 * child.c - a helper command run to its end with its output kept: git
 * and the build command of bisect.c, CMake for the jobs' builds
 * (jobs_build.c). Not for workers: they have worker_proc.c's lifecycle.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"

/*
 * Run argv in dir with stdin from /dev/null and stdout (and stderr with
 * `both`) into *out (NUL-terminated, the last `keep` bytes; NULL: drop it).
 * Returns the exit status (128 + signal), or -errno when it cannot start.
 */
int bl__child_run(const char *dir, char *const argv[], int both, char **out, size_t keep)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -errno;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(p[0]);
        close(p[1]);
        return -e;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0)
            dup2(null, 0);
        dup2(p[1], 1);
        if (both)
            dup2(p[1], 2);
        else if (null >= 0)
            dup2(null, 2);
        if (dir && chdir(dir) != 0)
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    char chunk[4096];
    for (;;) {
        ssize_t n = read(p[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (!out)
            continue;
        if (len + (size_t)n + 1 > cap) {
            size_t nc = (len + (size_t)n + 1) * 2;
            char *nb = realloc(buf, nc);
            if (!nb)
                continue;
            buf = nb;
            cap = nc;
        }
        memcpy(buf + len, chunk, (size_t)n);
        len += (size_t)n;
        if (keep && len > 2 * keep) { /* only the tail matters */
            memmove(buf, buf + len - keep, keep);
            len = keep;
        }
    }
    close(p[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (out) {
        if (keep && len > keep) {
            memmove(buf, buf + len - keep, keep);
            len = keep;
        }
        if (!buf)
            buf = calloc(1, 1);
        if (buf)
            buf[len] = '\0';
        *out = buf;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
