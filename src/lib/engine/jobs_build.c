/*
 * jobs_build.c - `benchlab run --cmake DIR --target T --job NAME='ARGS'`
 * (docs/jobs.md, "Building the jobs"): one variant of a CMake project per
 * job, configured with the job's arguments in a build directory of its
 * own (BUILD/NAME), Release unless the arguments say otherwise, and the
 * target built there. The user's own build directories are never
 * touched: a directory benchlab did not make is refused, not reused. A
 * job whose configure or build fails gets an error (its suite is not
 * run) and the log's last lines on `log`; the other jobs still build.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"

#define MARKER "benchlab-job.txt" /* what makes a build directory benchlab's */
#define LOG "benchlab-build.log"

/* The whole of a small file, NUL-terminated; NULL when it cannot be read. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    struct bl__buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (bl__buf_append(&b, chunk, n))
            break;
    fclose(f);
    if (!b.data)
        return calloc(1, 1);
    return b.data;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -errno;
    fputs(text, f);
    return fclose(f) == 0 ? 0 : -errno;
}

/* *e = the formatted message (NULL when out of memory). */
static void say(char **e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(char **e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(e, fmt, ap) < 0)
        *e = NULL;
    va_end(ap);
}

/* What a build directory was made from: source, target and arguments. */
static char *marker_text(const struct bl__cmake_jobs *c, char *const *args)
{
    struct bl__buf b = {0};
    bl__buf_printf(&b, "benchlab job build\nsource %s\ntarget %s\n", c->source, c->target);
    for (size_t i = 0; args && args[i]; i++)
        bl__buf_printf(&b, "arg %s\n", args[i]);
    return b.data;
}

/* A directory with nothing in it but "." and "..". */
static bool dir_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return true;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)))
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

/* The target's executable under the build directory: the shallowest
 * regular executable file named `target`, outside CMakeFiles. */
static const char *found_target;
static char found_path[PATH_MAX];
static int found_depth;
static int find_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    if (type == FTW_D && strcmp(path + ftw->base, "CMakeFiles") == 0)
        return FTW_SKIP_SUBTREE;
    if (type == FTW_F && S_ISREG(st->st_mode) && (st->st_mode & S_IXUSR) &&
        strcmp(path + ftw->base, found_target) == 0 &&
        (!found_path[0] || ftw->level < found_depth)) {
        snprintf(found_path, sizeof found_path, "%s", path);
        found_depth = ftw->level;
    }
    return FTW_CONTINUE;
}

static char *find_target(const char *dir, const char *target)
{
    /* nftw has no context argument; the run's builds are sequential */
    found_target = target;
    found_path[0] = '\0';
    found_depth = 0;
    if (nftw(dir, find_one, 16, FTW_PHYS | FTW_ACTIONRETVAL) != 0 || !found_path[0])
        return NULL;
    return realpath(found_path, NULL);
}

/* The value of KEY in a CMakeCache.txt ("KEY:TYPE=value"), or "". */
static void cache_value(const char *cache, const char *key, char *out, size_t size)
{
    out[0] = '\0';
    size_t kn = strlen(key);
    for (const char *p = cache; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, key, kn) != 0 || p[kn] != ':')
            continue;
        const char *eq = strchr(p, '='), *nl = strchr(p, '\n');
        if (!eq || (nl && eq > nl))
            continue;
        size_t n = nl ? (size_t)(nl - eq - 1) : strlen(eq + 1);
        snprintf(out, size, "%.*s", (int)n, eq + 1);
        return;
    }
}

/* Whether flags optimise: the last -O word is -O1, -O2, -O3, -Os, -Oz or
 * -Ofast (-O alone is -O1; -O0 and -Og do not; no -O word is -O0). */
static bool optimises(const char *flags)
{
    bool on = false;
    for (const char *p = flags; (p = strstr(p, "-O"));) {
        bool word = p == flags || p[-1] == ' ';
        const char *v = p + 2;
        size_t n = strcspn(v, " ");
        if (word)
            on = n == 0 || (strncmp(v, "0", n) != 0 && strncmp(v, "g", n) != 0);
        p = v + n;
    }
    return on;
}

/* Unoptimised languages of a configured build, said in `why`: for each
 * language the cache has flags for, CMAKE_<L>_FLAGS and the build
 * type's. false when every language optimises. */
static bool unoptimised(const char *dir, char *why, size_t size)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/CMakeCache.txt", dir);
    char *cache = slurp(path);
    if (!cache)
        return false;
    char type[64], upper[64], key[128], flags[2048], extra[2048];
    cache_value(cache, "CMAKE_BUILD_TYPE", type, sizeof type);
    size_t i = 0;
    for (; type[i] && i < sizeof upper - 1; i++)
        upper[i] = (char)(type[i] >= 'a' && type[i] <= 'z' ? type[i] - 32 : type[i]);
    upper[i] = '\0';
    bool bad = false;
    static const char *const langs[] = {"C", "CXX"};
    for (size_t l = 0; l < 2 && !bad; l++) {
        snprintf(key, sizeof key, "CMAKE_%s_COMPILER", langs[l]);
        cache_value(cache, key, flags, sizeof flags);
        if (!flags[0])
            continue; /* the language is not enabled */
        snprintf(key, sizeof key, "CMAKE_%s_FLAGS", langs[l]);
        cache_value(cache, key, flags, sizeof flags);
        snprintf(key, sizeof key, "CMAKE_%s_FLAGS_%s", langs[l], upper);
        extra[0] = '\0';
        if (upper[0])
            cache_value(cache, key, extra, sizeof extra);
        char all[4200];
        snprintf(all, sizeof all, "%s%s%s", flags, flags[0] && extra[0] ? " " : "", extra);
        if (!optimises(all)) {
            snprintf(why, size, "CMAKE_BUILD_TYPE=%s, %s flags '%s'", type[0] ? type : "(none)",
                     langs[l], all);
            bad = true;
        }
    }
    free(cache);
    return bad;
}

/* A failed step: the log's last lines on `log`, and in *error the step,
 * its status, the first line of the tail that says "error" (else the
 * last line) and where the whole log is. */
static char *failed(const struct bl__cmake_jobs *c, const char *name, const char *step, int st,
                    const char *out, const char *logpath)
{
    const char *end = out + strlen(out);
    while (end > out && end[-1] == '\n')
        end--;
    const char *from = end;
    for (int lines = 0; from > out && lines < 15; lines++) {
        from--;
        while (from > out && from[-1] != '\n')
            from--;
    }
    if (c->log) {
        fprintf(c->log, "benchlab: job '%s': %s failed; its last lines:\n", name, step);
        for (const char *p = from; p < end;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            fprintf(c->log, "  | %.*s\n", (int)n, p);
            p += n + 1;
        }
    }
    const char *line = NULL;
    size_t say_n = 0;
    for (const char *p = from; p < end && !line;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (memmem(p, n, "rror", 4))
            line = p, say_n = n;
        p += n + 1;
    }
    if (!line) {
        line = end;
        while (line > out && line[-1] != '\n')
            line--;
        say_n = (size_t)(end - line);
    }
    char *e = NULL;
    say(&e, "its %s failed (%s %d): %.*s (the whole output: %s)", step,
        st < 0 ? "error" : "exit status", st < 0 ? -st : st, (int)(say_n > 300 ? 300 : say_n), line,
        logpath);
    for (char *p = e; p && *p; p++)
        if (*p == '\t' || *p == '\r')
            *p = ' ';
    return e;
}

/* Run one step of a job's build, its output appended to the job's log. */
static int step(char *const argv[], const char *logpath, char **out)
{
    int st = bl__child_run(NULL, argv, 1, out, 64 * 1024);
    FILE *f = fopen(logpath, "a");
    if (f) {
        fputs("$", f);
        for (size_t i = 0; argv[i]; i++)
            fprintf(f, " %s", argv[i]);
        fprintf(f, "\n%s\n", *out ? *out : "");
        fclose(f);
    }
    return st;
}

/* One job: configure, build, find. *exe or *error set. */
static int build_one(const struct bl__cmake_jobs *c, const char *name, char *const *args,
                     char **exe, char **error)
{
    char dir[PATH_MAX], path[PATH_MAX + 32], logpath[PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s/%s", c->root, name);
    snprintf(path, sizeof path, "%s/" MARKER, dir);
    snprintf(logpath, sizeof logpath, "%s/" LOG, dir);
    char *mark = marker_text(c, args);
    if (!mark)
        return -ENOMEM;
    char *old = slurp(path);
    if (strchr(name, '/')) {
        say(error, "a job's name is 1 to 64 of A-Z a-z 0-9 _ . + -");
        goto out;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        say(error, "cannot make its build directory %s: %s", dir, strerror(errno));
        goto out;
    }
    if (!old && !dir_empty(dir)) {
        say(error,
            "%s is there and benchlab did not make it (no " MARKER "): give --build-dir "
            "another directory, or remove it",
            dir);
        goto out;
    }
    /* arguments changed since the last build here: configure afresh, so
     * that a -D the job no longer gives does not stay in the cache */
    bool fresh = old && strcmp(old, mark) != 0;
    unlink(logpath);
    bool typed = false;
    size_t na = 0;
    for (; args && args[na]; na++)
        typed |= strncmp(args[na], "-DCMAKE_BUILD_TYPE=", 19) == 0 ||
                 strcmp(args[na], "-DCMAKE_BUILD_TYPE") == 0;
    char **argv = calloc(na + 8, sizeof *argv);
    if (!argv) {
        free(mark);
        free(old);
        return -ENOMEM;
    }
    size_t k = 0;
    argv[k++] = (char *)"cmake";
    if (fresh)
        argv[k++] = (char *)"--fresh";
    argv[k++] = (char *)"-S";
    argv[k++] = (char *)c->source;
    argv[k++] = (char *)"-B";
    argv[k++] = dir;
    if (!typed)
        argv[k++] = (char *)"-DCMAKE_BUILD_TYPE=Release";
    for (size_t i = 0; i < na; i++)
        argv[k++] = args[i];
    if (c->log)
        fprintf(c->log, "benchlab: job '%s': configuring %s in %s%s\n", name, c->source, dir,
                fresh ? " (afresh: its arguments changed)" : "");
    char *o = NULL;
    int st = step(argv, logpath, &o);
    free(argv);
    if (st != 0) {
        *error = failed(c, name, "configure", st, o ? o : "", logpath);
        free(o);
        goto out;
    }
    free(o);
    o = NULL;
    write_text(path, mark);
    char jobs[16];
    snprintf(jobs, sizeof jobs, "%ld",
             sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1);
    char *bargv[] = {(char *)"cmake",   (char *)"--build",    dir,  (char *)"--target",
                     (char *)c->target, (char *)"--parallel", jobs, NULL};
    if (c->log)
        fprintf(c->log, "benchlab: job '%s': building %s\n", name, c->target);
    st = step(bargv, logpath, &o);
    if (st != 0) {
        *error = failed(c, name, "build", st, o ? o : "", logpath);
        free(o);
        goto out;
    }
    free(o);
    if (!(*exe = find_target(dir, c->target))) {
        say(error, "its build made no executable named %s under %s", c->target, dir);
        goto out;
    }
    char why[4400];
    if (c->log && unoptimised(dir, why, sizeof why))
        fprintf(c->log,
                "benchlab: warning: job '%s' is built without optimisation (%s): its times are "
                "not a release build's\n",
                name, why);
out:
    free(mark);
    free(old);
    return 0;
}

int bl__jobs_cmake(const struct bl__cmake_jobs *c, bl_run_job *jobs, char *const *const *args,
                   size_t n, char **exe, char **error, char *err, size_t err_size)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/CMakeLists.txt", c->source);
    if (access(path, R_OK) != 0) {
        snprintf(err, err_size, "--cmake %s: %s: %s", c->source, path, strerror(errno));
        return BL_EUSAGE;
    }
    if (mkdir(c->root, 0777) != 0 && errno != EEXIST) {
        snprintf(err, err_size, "--build-dir %s: %s", c->root, strerror(errno));
        return BL_EUSAGE;
    }
    for (size_t k = 0; k < n; k++) {
        exe[k] = error[k] = NULL;
        if (bl__run_interrupted())
            return BL_EINTR;
        int rc = build_one(c, jobs[k].name, args[k], &exe[k], &error[k]);
        if (rc)
            return rc;
        if (!exe[k] && !error[k])
            return -ENOMEM;
        jobs[k].exe = exe[k];
        jobs[k].error = error[k];
    }
    return 0;
}
