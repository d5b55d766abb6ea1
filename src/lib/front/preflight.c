/*
 * preflight.c - what the end of bl_run_main writes, checked before the
 * first measurement: the --out destination, the profile directory and the
 * store of --save. A run that would measure for minutes and then fail to
 * write is refused at once instead, naming the path and the reason.
 *
 * These are checks, not reservations: nothing is created here (a store
 * that does not exist yet is checked where the save would make it, by
 * libbenchlab-store's saver; one that exists is opened and a write rolled
 * back), so a run that saves or writes nothing leaves nothing new behind;
 * a file that changes during the run is still reported at the end.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/base.h"
#include "front.h"

/* Whether a file can be made in `dir`, for `what` `path` in messages. */
static int dir_check(const char *what, const char *path, const char *dir, char *why,
                     size_t why_size)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        int e = errno;
        snprintf(why, why_size, "%s %s: the directory %s %s", what, path, dir,
                 e == ENOENT ? "does not exist" : strerror(e));
        return -e;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, why_size, "%s %s: %s is not a directory", what, path, dir);
        return -ENOTDIR;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        int e = errno;
        snprintf(why, why_size, "%s %s: cannot write in the directory %s: %s", what, path, dir,
                 strerror(e));
        return -e;
    }
    return 0;
}

/* Whether a file can be made in the directory of `file` (bl__path_dir),
 * for `what` `path` in messages. */
static int dir_writable(const char *what, const char *path, const char *file, char *why,
                        size_t why_size)
{
    char *dir = bl__path_dir(file);
    if (!dir) {
        snprintf(why, why_size, "%s %s: %s", what, path, strerror(ENOMEM));
        return -ENOMEM;
    }
    int rc = dir_check(what, path, dir, why, why_size);
    free(dir);
    return rc;
}

int bl__preflight_out(const char *path, char *why, size_t why_size)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(why, why_size, "%s %s: is a directory", bl__out_option(), path);
            return -EISDIR;
        }
        if (access(path, W_OK) != 0) {
            int e = errno;
            snprintf(why, why_size, "%s %s: %s", bl__out_option(), path, strerror(e));
            return -e;
        }
        /* a device, FIFO or socket (/dev/null, /dev/stdout) is written in
         * place, never replaced: its directory does not matter */
        if (!S_ISREG(st.st_mode))
            return 0;
    } else if (errno != ENOENT) {
        int e = errno;
        snprintf(why, why_size, "%s %s: %s", bl__out_option(), path, strerror(e));
        return -e;
    }
    /* a regular file is written beside it and renamed over it; beside the
     * file a symbolic link leads to, as bl_output_open() writes that */
    char *target = bl__output_target(path);
    int rc = dir_writable(bl__out_option(), path, target ? target : path, why, why_size);
    free(target);
    return rc;
}

int bl__preflight_profile_dir(const char *dir, char *why, size_t why_size)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(why, why_size, "--profile-dir %s: exists and is not a directory", dir);
            return -ENOTDIR;
        }
        if (access(dir, W_OK | X_OK) != 0) {
            int e = errno;
            snprintf(why, why_size, "--profile-dir %s: cannot write in it: %s", dir, strerror(e));
            return -e;
        }
        return 0;
    }
    if (errno != ENOENT) {
        int e = errno;
        snprintf(why, why_size, "--profile-dir %s: %s", dir, strerror(e));
        return -e;
    }
    return dir_writable("--profile-dir", dir, dir, why, why_size);
}

static int preflight_store(const bl_run_save_request *save, char *why, size_t why_size)
{
    char msg[1024] = "", where[512] = "";
    bl_run_saver saver = bl__run_saver(msg, sizeof msg);
    int64_t run_id = 0;
    int rc =
        saver ? saver(save, NULL, &run_id, where, sizeof where, msg, sizeof msg) : BL_ENOTFOUND;
    if (rc && strncmp(msg, "--save", 6) == 0)
        snprintf(why, why_size, "%s", msg);
    else if (rc)
        snprintf(why, why_size, "--save: %s", msg[0] ? msg : bl_strerror(rc));
    return rc;
}

int bl__preflight(const bl_run_options *o, const char *out_path, const bl_run_save_request *save,
                  char *why, size_t why_size)
{
    int rc = out_path ? bl__preflight_out(out_path, why, why_size) : 0;
    if (!rc && o->profile) {
        /* the runner's default: SUITE.profile in the current directory */
        char def[PATH_MAX + 16], self[PATH_MAX];
        const char *dir = o->profile_dir;
        if (!dir || !*dir) {
            const char *exe = o->exe;
            if (!exe) {
                ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
                self[n > 0 ? n : 0] = '\0';
                exe = self;
            }
            const char *base = strrchr(exe, '/');
            snprintf(def, sizeof def, "%s.profile", base ? base + 1 : exe);
            dir = def;
        }
        rc = bl__preflight_profile_dir(dir, why, why_size);
    }
    if (!rc && save)
        rc = preflight_store(save, why, why_size);
    return rc;
}
