/*
 * instructions.c - instruction counts (--instructions): beside each timing
 * launch, a worker of its own under valgrind's callgrind, which counts
 * the instructions and simulated cache misses of the measured repetitions
 * only (docs/instruments.md, "Instruction counts").
 *
 * The worker (bench/state.c, MODE_INSTR) starts with collection off and
 * switches it on, per thread, exactly around a counted batch and around
 * the empty loop's batch of as many repetitions before it, writing a dump
 * after each: k repetitions, then k+d. Per op is
 *   ((body k+d) - (body k) - ((loop k+d) - (loop k))) / d,
 * so what a batch costs once (its start and end, the clock reads) cancels
 * in each difference and the loop's own instructions in the second, as
 * the overhead stage subtracts the loop's time.
 *
 * What would make a count differ between identical runs or machines is
 * pinned and recorded in the results' metadata: the simulated caches
 * (not the host's), glibc's choice of string routines and its cache
 * thresholds (GLIBC_TUNABLES), lazy binding (LD_BIND_NOW), address space
 * randomisation (off).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/base.h"
#include "../instruments/callgrind.h"
#include "../instruments/preload.h"
#include "../results/results_int.h"
#include "benchlab.h"
#include "benchlab/run.h"
#include "engine.h"

/* The simulated caches: fixed, so that a count does not depend on the
 * host's (callgrind would take them from CPUID): 32 KiB 8-way L1s and an
 * 8 MiB 16-way last level, 64-byte lines, a common x86-64 desktop. */
#define CG_I1 "32768,8,64"
#define CG_D1 "32768,8,64"
#define CG_LL "8388608,16,64"
/* glibc picks its string and memory routines by the CPU's features and
 * sizes their strategies by its caches: pinned to the x86-64 baseline
 * (SSE2) and to the simulated caches, the same on every host. */
#define CG_TUNABLES                                                                                \
    "glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512BW,-AVX512VL,-ERMS,-FSRM,-SSSE3,-SSE4_1,"         \
    "-SSE4_2,-BMI1,-BMI2,-LZCNT,-POPCNT,-MOVBE,-RTM,-AVX_Fast_Unaligned_Load:"                     \
    "glibc.cpu.x86_data_cache_size=32768:glibc.cpu.x86_shared_cache_size=8388608:"                 \
    "glibc.cpu.x86_non_temporal_threshold=6291456"
/* est-cycles/op: KCachegrind's cycle estimate, Ir + 10 x L1 misses + 100 x
 * last-level misses (an LL miss is an L1 miss too, so it weighs 110). */
#define CG_L1_WEIGHT 10
#define CG_LL_WEIGHT 100

const char *bl__instr_tunables(void)
{
    return "GLIBC_TUNABLES=" CG_TUNABLES;
}

static bool executable_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

/* valgrind's path on PATH, in `out`; false when there is none. */
static bool find_valgrind(char *out, size_t n)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t len = strcspn(p, ":");
        int w = snprintf(out, n, "%.*s/valgrind", (int)len, len ? p : ".");
        if (w > 0 && (size_t)w < n && executable_file(out))
            return true;
        p += len + (p[len] == ':');
    }
    return false;
}

/* `valgrind --version`'s line, "valgrind-3.19.0", in `out`. */
static int valgrind_version(const char *valgrind, char *out, size_t n)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -errno;
    pid_t pid = fork();
    if (pid < 0) {
        int e = -errno;
        close(fds[0]), close(fds[1]);
        return e;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        execl(valgrind, valgrind, "--version", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(fds[0], out + got, n - 1 - got)) != 0)
        if (r > 0)
            got += (size_t)r;
        else if (errno != EINTR)
            break;
    close(fds[0]);
    out[got] = '\0';
    out[strcspn(out, "\r\n")] = '\0';
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 && strncmp(out, "valgrind-", 9) == 0 ? 0
                                                                                      : BL_EPROTO;
}

int bl__instr_setup(struct bl__instr *in, const bl_run_options *o, const char *exe, bl_results *res,
                    char *err, size_t err_size)
{
    memset(in, 0, sizeof *in);
    if (o->counters && (!o->counters[0] || strstr(o->counters, "instructions"))) {
        /* both would be instructions/op, and they count different things */
        snprintf(err, err_size,
                 "--instructions and the hardware counter instructions of --counters both "
                 "write instructions/op: ask for one (--counters=cycles,... without it)");
        return BL_EUSAGE;
    }
    if (!BL__CG_BUILT) {
        snprintf(err, err_size,
                 "--instructions: this libbenchlab was built without valgrind/callgrind.h; "
                 "install valgrind (Debian's package valgrind) and rebuild benchlab");
        return BL_EUNSUPPORTED;
    }
    if (!find_valgrind(in->valgrind, sizeof in->valgrind)) {
        snprintf(err, err_size,
                 "--instructions: valgrind is not on PATH; install it (Debian's package "
                 "valgrind: apt-get install valgrind)");
        return BL_EUNSUPPORTED;
    }
    if (valgrind_version(in->valgrind, in->version, sizeof in->version) != 0) {
        snprintf(err, err_size, "--instructions: %s --version does not answer as valgrind does",
                 in->valgrind);
        return BL_EUNSUPPORTED;
    }
    char lib[256];
    switch (bl__preload_check(exe, lib, sizeof lib)) {
    case BL__PRELOAD_SANITIZER:
        snprintf(err, err_size,
                 "--instructions: %s is built with a sanitizer (%s), which valgrind cannot run; "
                 "count a build without -fsanitize",
                 exe, lib);
        return BL_EUNSUPPORTED;
    case BL__PRELOAD_NOT_ELF:
        snprintf(err, err_size,
                 "--instructions: %s is not a 64-bit ELF executable, which callgrind counts", exe);
        return BL_EUNSUPPORTED;
    default: /* static suites count as dynamic ones do; unreadable: the launch says */
        break;
    }
    char model[512];
    snprintf(model, sizeof model,
             "%s callgrind, I1 %s D1 %s LL %s (size,assoc,line); est-cycles = Ir + %d x L1 "
             "misses + %d x LL misses",
             in->version, CG_I1, CG_D1, CG_LL, CG_L1_WEIGHT, CG_LL_WEIGHT);
    if (bl_results_set_meta(res, "instructions-model", model) != 0 ||
        bl_results_set_meta(res, "instructions-tunables", CG_TUNABLES) != 0)
        return -ENOMEM;
    return 0;
}

/* Remove the dump directory and what callgrind wrote in it. */
static void remove_dumps(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') {
                char p[PATH_MAX + 256];
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(dir);
}

enum { DUMP_BODY_BASE, DUMP_BODY_MORE, DUMP_LOOP_BASE, DUMP_LOOP_MORE, N_DUMPS };
static const char *const dump_label[N_DUMPS] = {"benchlab body base", "benchlab body more",
                                                "benchlab overhead base", "benchlab overhead more"};

/* The four dumps of the worker's counted batches, by their triggers.
 * 0, or BL_EPROTO with the reason. */
static int read_dumps(const char *dir, struct bl__cg_dump *dumps, bool need_loop, char *why,
                      size_t n)
{
    bool seen[N_DUMPS] = {false};
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, n, "cannot read the dump directory %s: %s", dir, strerror(errno));
        return -errno;
    }
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[PATH_MAX + 256];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct bl__cg_dump dump;
        rc = bl__cg_read_dump(p, &dump, why, n);
        const char *label = dump.trigger;
        if (strncmp(label, "Client Request: ", 16) == 0)
            label += 16;
        for (int k = 0; !rc && k < N_DUMPS; k++)
            if (strcmp(label, dump_label[k]) == 0) {
                if (seen[k]) {
                    snprintf(why, n, "two dumps say \"%s\"", dump_label[k]);
                    rc = BL_EPROTO;
                }
                dumps[k] = dump;
                seen[k] = true;
            }
    }
    closedir(d);
    for (int k = 0; !rc && k < N_DUMPS; k++)
        if (!seen[k] && (need_loop || k < DUMP_LOOP_BASE)) {
            snprintf(why, n, "callgrind wrote no dump \"%s\"", dump_label[k]);
            rc = BL_EPROTO;
        }
    return rc;
}

/* Per op of `sum` events (a list of callgrind's names): the k+d batch less
 * the k batch, less the same of the empty loop, over d. */
static double per_op(const struct bl__cg_dump *dumps, bool loop, const char *const *events,
                     double d)
{
    double v = 0;
    for (const char *const *ev = events; *ev; ev++) {
        v += bl__cg_total(&dumps[DUMP_BODY_MORE], *ev) - bl__cg_total(&dumps[DUMP_BODY_BASE], *ev);
        if (loop)
            v -= bl__cg_total(&dumps[DUMP_LOOP_MORE], *ev) -
                 bl__cg_total(&dumps[DUMP_LOOP_BASE], *ev);
    }
    return v / d;
}

static int set_counts(bl_launch *l, const struct bl__cg_dump *dumps, bool loop, double d)
{
    static const char *const ir[] = {"Ir", NULL};
    static const char *const l1[] = {"I1mr", "D1mr", "D1mw", NULL};
    static const char *const ll[] = {"ILmr", "DLmr", "DLmw", NULL};
    double i = per_op(dumps, loop, ir, d), m1 = per_op(dumps, loop, l1, d),
           mll = per_op(dumps, loop, ll, d);
    /* the difference of exact counts: negative only below the loop's own
     * cost, which a body cannot have (a body that does nothing reads 0) */
    i = i > 0 ? i : 0, m1 = m1 > 0 ? m1 : 0, mll = mll > 0 ? mll : 0;
    int rc = bl_launch_set_metric_ex(l, "instructions/op", i, BL_LOWER_IS_BETTER);
    if (!rc)
        rc = bl_launch_set_metric_ex(l, "L1-misses/op", m1, BL_LOWER_IS_BETTER);
    if (!rc)
        rc = bl_launch_set_metric_ex(l, "LL-misses/op", mll, BL_LOWER_IS_BETTER);
    if (!rc)
        rc = bl_launch_set_metric_ex(l, "est-cycles/op", i + CG_L1_WEIGHT * m1 + CG_LL_WEIGHT * mll,
                                     BL_LOWER_IS_BETTER);
    return rc;
}

int bl__pass_instructions(const struct bl__launcher *la, const struct bl__instr *in,
                          unsigned long long seed, const char *name, unsigned long long *reps,
                          bl_launch *l)
{
    if (!*reps && la->o->iterations)
        *reps = la->o->iterations;
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX], out[PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s/benchlab-cg.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        bl__launch_message(l,
                           "the instruction count cannot make a directory for its dumps in %s: %s",
                           tmp && *tmp ? tmp : "/tmp", strerror(errno));
        l->status = BL_EBENCH;
        return BL__LAUNCH_BROKEN;
    }
    snprintf(out, sizeof out, "--callgrind-out-file=%s/cg.out", dir);
    char out_var[PATH_MAX + 32];
    snprintf(out_var, sizeof out_var, "BENCHLAB_CG_OUT=%s/cg.out", dir);
    /* in the environment, of one width: every launch's worker starts with
     * its stack at the same place */
    char reps_var[64];
    snprintf(reps_var, sizeof reps_var, "BENCHLAB_CG_REPS=%020llu", *reps);
    char *wrap[] = {(char *)in->valgrind,
                    (char *)"--tool=callgrind",
                    (char *)"-q",
                    (char *)"--collect-atstart=no",
                    (char *)"--cache-sim=yes",
                    (char *)"--I1=" CG_I1,
                    (char *)"--D1=" CG_D1,
                    (char *)"--LL=" CG_LL,
                    (char *)"--dump-line=no",
                    (char *)"--fair-sched=yes",
                    out,
                    NULL};
    bl_launch tmpl;
    memset(&tmpl, 0, sizeof tmpl);
    char *line = NULL;
    struct bl__pass pass = {.counters_line = &line,
                            .preload_fd = -1,
                            .instr_wrap = wrap,
                            .instr_out = out_var,
                            .instr_reps = reps_var};
    /* one seed for every count: the worker's command line, and with it
     * where its stack starts, is the same in every launch */
    (void)seed;
    bl__launch_run(la, name, 1, &tmpl, &pass, 0, 0);
    unsigned long long k = 0, d = 0, per_thread = 0;
    char why[PATH_MAX + 300] = "";
    struct bl__cg_dump dumps[N_DUMPS];
    bool loop = strstr(line ? line : "", " loop") != NULL;
    if (tmpl.status || tmpl.skipped)
        snprintf(why, sizeof why, "%s", tmpl.message ? tmpl.message : bl_strerror(tmpl.status));
    else if (!line || sscanf(line, "instr %llu %llu %llu", &k, &d, &per_thread) != 3 || d == 0 ||
             per_thread == 0)
        snprintf(why, sizeof why, "the worker under callgrind sent no counts");
    else if (read_dumps(dir, dumps, loop, why, sizeof why) == 0 &&
             set_counts(l, dumps, loop, (double)d) != 0)
        snprintf(why, sizeof why, "out of memory");
    else
        *reps = per_thread; /* the next launches count as many */
    free(line);
    bl__launch_fini(&tmpl);
    remove_dumps(dir);
    if (why[0]) {
        bl__launch_message(l, "the instruction count failed: %s", why);
        l->status = BL_EBENCH;
        return BL__LAUNCH_BROKEN;
    }
    return BL__LAUNCH_OK;
}
