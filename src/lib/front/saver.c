/*
 * saver.c - finding the results store for bl_run_main's --save.
 *
 * The store needs SQLite and libpq, and a benchmark suite links
 * libbenchlab alone (libc, libm, pthread), so the store lives in
 * libbenchlab-store. A program that links it (the benchlab command)
 * registers the saver; a suite's own main loads libbenchlab-store.so.N
 * when --save asks for it, and only then: a suite never run with --save
 * never loads SQLite. It looks where libbenchlab itself was loaded from
 * (the README's `cc sum.c $(pkg-config --libs benchlab)` links
 * libbenchlab.so with an rpath, and the store is installed beside it),
 * beside the executable (the build tree, a static link), then on the
 * library path.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/run.h"
#include "front.h"

#define STORE_SONAME BENCHLAB_STORE_SONAME /* "libbenchlab-store.so.N": src/lib/CMakeLists.txt */
#define SAVER_SYMBOL "bl_store_run_saver"

static bl_run_saver registered;

/*
 * dlopen, found through dlsym: naming dlopen would make a fully static
 * suite link glibc's static dlopen (with a warning at every link). In a
 * static program there is no dynamic symbol table, this is NULL, and
 * --save says so.
 */
typedef void *(*dlopen_fn)(const char *, int);
static dlopen_fn find_dlopen(void)
{
    union {
        void *obj;
        dlopen_fn fn;
    } u;
    u.obj = dlsym(RTLD_DEFAULT, "dlopen");
    return u.fn;
}

/* dladdr, found through dlsym for the same reason; NULL in a static program. */
typedef int (*dladdr_fn)(const void *, Dl_info *);
static dladdr_fn find_dladdr(void)
{
    union {
        void *obj;
        dladdr_fn fn;
    } u;
    u.obj = dlsym(RTLD_DEFAULT, "dladdr");
    return u.fn;
}

void bl_run_set_saver(bl_run_saver saver)
{
    registered = saver;
}

/* dlopen dir/rel/STORE_SONAME, relative to this program's directory. */
static void *open_beside_exe(dlopen_fn open_lib, const char *rel)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s/" STORE_SONAME, exe, rel);
    return access(path, R_OK) == 0 ? open_lib(path, RTLD_NOW | RTLD_LOCAL) : NULL;
}

/* dlopen STORE_SONAME from the directory of the object this code is in:
 * libbenchlab.so.N when the suite links the shared library (the
 * executable itself when it links libbenchlab.a, tried beside it anyway). */
static void *open_beside_libbenchlab(dlopen_fn open_lib)
{
    dladdr_fn where = find_dladdr();
    Dl_info info;
    if (!where || !where(&registered, &info) || !info.dli_fname)
        return NULL;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash)
        return NULL;
    char path[PATH_MAX + 64];
    int n = snprintf(path, sizeof path, "%.*s/" STORE_SONAME, (int)(slash - info.dli_fname),
                     info.dli_fname);
    if (n < 0 || (size_t)n >= sizeof path || access(path, R_OK) != 0)
        return NULL;
    return open_lib(path, RTLD_NOW | RTLD_LOCAL);
}

bl_run_saver bl__run_saver(char *why, size_t why_size)
{
    if (registered)
        return registered;
    dlopen_fn open_lib = find_dlopen();
    if (!open_lib) {
        snprintf(why, why_size,
                 "this suite is statically linked and cannot load " STORE_SONAME
                 "; run it with `benchlab run SUITE --save`");
        return NULL;
    }
    void *lib = NULL;
    const char *env = getenv("BENCHLAB_STORE_LIB");
    if (env && *env) {
        lib = open_lib(env, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            snprintf(why, why_size, "BENCHLAB_STORE_LIB=%s: %s", env, dlerror());
            return NULL;
        }
    }
    /* where libbenchlab is, the build tree (bin/, lib/) and an install
     * (bin/, LIBDIR/) */
    if (!lib)
        lib = open_beside_libbenchlab(open_lib);
    if (!lib)
        lib = open_beside_exe(open_lib, "../" BENCHLAB_INSTALL_LIBDIR);
    if (!lib)
        lib = open_beside_exe(open_lib, "../lib");
    if (!lib)
        lib = open_lib(STORE_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, why_size,
                 "--save needs " STORE_SONAME
                 ", which was not found beside libbenchlab, beside this program nor on the "
                 "library path (set "
                 "BENCHLAB_STORE_LIB to its path, or run the suite with `benchlab run SUITE "
                 "--save`)");
        return NULL;
    }
    union {
        void *obj;
        bl_run_saver fn;
    } sym;
    sym.obj = dlsym(lib, SAVER_SYMBOL);
    if (!sym.obj) {
        snprintf(why, why_size, STORE_SONAME " has no " SAVER_SYMBOL ": %s", dlerror());
        return NULL;
    }
    registered = sym.fn;
    return registered;
}
