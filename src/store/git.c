/*
 * git.c - what the store asks git: the project's top level (where the
 * default store lives), the commit, branch and dirty flag saved with a
 * run, and revisions (@HEAD~1) resolved to commits.
 *
 * git is run as a child process (posix_spawnp, no shell), its stdout read
 * through a pipe and its stderr discarded: outside a work tree, without
 * git installed, or in a repository git refuses (safe.directory), every
 * question simply has no answer, and the store records "unknown".
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store_int.h"

extern char **environ;

/*
 * Run `git -C dir args...` (dir NULL: the current directory). Its stdout's
 * first line goes to out (truncated to size), the rest is read and
 * dropped. Returns git's exit status (0 success), or -1 when git could not
 * run at all.
 */
static int run_git(const char *dir, const char *const *args, char *out, size_t size)
{
    const char *argv[16];
    size_t n = 0;
    argv[n++] = "git";
    if (dir && *dir) {
        argv[n++] = "-C";
        argv[n++] = dir;
    }
    for (size_t i = 0; args[i] && n < 15; i++)
        argv[n++] = args[i];
    argv[n] = NULL;

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    size_t len = 0;
    char buf[4096];
    for (;;) {
        ssize_t got = read(fds[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got; i++)
            if (out && len + 1 < size)
                out[len++] = buf[i];
    }
    close(fds[0]);
    if (out && size) {
        out[len < size ? len : size - 1] = '\0';
        out[strcspn(out, "\n")] = '\0';
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int bl__git_toplevel(const char *dir, char *out, size_t size)
{
    static const char *const args[] = {"rev-parse", "--show-toplevel", NULL};
    return run_git(dir, args, out, size) == 0 && out[0] ? 0 : -1;
}

void bl__git_facts(const char *dir, struct bl__git_facts *g)
{
    memset(g, 0, sizeof *g);
    g->dirty = -1;
    static const char *const head[] = {"rev-parse", "--verify", "-q", "HEAD", NULL};
    if (run_git(dir, head, g->commit, sizeof g->commit) != 0 || strlen(g->commit) < 40) {
        g->commit[0] = '\0';
        return;
    }
    static const char *const branch[] = {"symbolic-ref", "--short", "-q", "HEAD", NULL};
    if (run_git(dir, branch, g->branch, sizeof g->branch) != 0)
        g->branch[0] = '\0'; /* detached */
    /* Tracked files only: untracked files (the store itself, build trees)
     * do not change what was built. */
    static const char *const status[] = {"status", "--porcelain", "--untracked-files=no", NULL};
    char line[256];
    if (run_git(dir, status, line, sizeof line) == 0)
        g->dirty = line[0] != '\0';
}

int bl__git_resolve(const char *dir, const char *rev, char *sha, size_t size)
{
    if (!rev[0] || rev[0] == '-') /* never an option */
        return -1;
    char spec[512];
    snprintf(spec, sizeof spec, "%s^{commit}", rev);
    const char *const args[] = {"rev-parse", "--verify", "-q", "--end-of-options", spec, NULL};
    return run_git(dir, args, sha, size) == 0 && strlen(sha) >= 40 ? 0 : -1;
}

int bl__git_is_ancestor(const char *dir, const char *a, const char *b)
{
    if (!a[0] || !b[0] || a[0] == '-' || b[0] == '-')
        return -1;
    /* exit 0: yes; 1: no; anything else (an unknown commit): no answer */
    const char *const args[] = {"merge-base", "--is-ancestor", "--end-of-options", a, b, NULL};
    int rc = run_git(dir, args, NULL, 0);
    return rc == 0 ? 1 : rc == 1 ? 0 : -1;
}
