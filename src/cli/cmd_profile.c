/*
 * cmd_profile.c - `benchlab profile [options] -- PROGRAM ARGS...`: run a program
 * under the sampling profiler (libbenchlab-sampler.so, preloaded) or the
 * tracing profiler (libbenchlab-trace, linked into a program built with
 * -finstrument-functions), then symbolize and write the profile.
 *
 * The program's stdout and stderr stay its own; everything we say goes to
 * stderr with the "benchlab: profile:" prefix. Exit status: 0 profiled, 1
 * the program failed or crashed (the profile up to then is still written),
 * 2 trouble (bad usage, no such program, nothing recorded).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlab/output.h"
#include "benchlab/profile.h"
#include "cli.h"
#include "front.h"

extern char **environ;

struct profile_opts {
    int trace;
    int wall;
    const char *unwind; /* auto (default), fp, dwarf */
    unsigned long stack_bytes;
    unsigned long hz;
    long events;             /* trace timeline events per thread; -1: by output format */
    const char *outputs[16]; /* -o, repeatable */
    int n_outputs;
    const char *format;
    const char *raw;
    const char *load;
    int keep_raw;
    size_t top;
    int top_given; /* --top: a summary on stderr even with -o */
    struct cli_save save;
    struct bl__save_args save_args;
    int first; /* argv[first]: PROGRAM */
};

/* PROGRAM as execvp(3) would find it; 0 or -ENOENT. */
static int find_program(const char *name, char *buf, size_t cap)
{
    if (strchr(name, '/')) {
        if ((size_t)snprintf(buf, cap, "%s", name) >= cap)
            return -ENAMETOOLONG;
        return access(buf, F_OK) == 0 ? 0 : -ENOENT;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        int n = snprintf(buf, cap, "%.*s/%s", (int)len, len ? path : ".", name);
        if (n > 0 && (size_t)n < cap && access(buf, X_OK) == 0)
            return 0;
        path += len + (path[len] == ':');
    }
    return -ENOENT;
}

static int parse_opts(int argc, char **argv, struct profile_opts *o)
{
    struct bl__args args;
    int first = cli_parse("profile", argc, argv, &args);
    if (first < 0)
        return first == -1 ? -1 : 2;
    for (size_t k = 0; k < args.n_hits; k++) {
        const char *v = args.hits[k].value;
        char err[256];
        int taken = bl__save_take(&args.hits[k], &o->save_args, err, sizeof err);
        if (taken < 0)
            return cli_error("profile: %s", err);
        if (taken)
            continue;
        int c = args.hits[k].opt->id;
        char *end;
        switch (c) {
        case BL__ID_MODE:
            if (strcmp(v, "sample") != 0 && strcmp(v, "trace") != 0)
                return cli_error("profile: --mode is sample or trace, not '%s'", v);
            o->trace = strcmp(v, "trace") == 0;
            break;
        case BL__ID_CLOCK:
            if (strcmp(v, "cpu") != 0 && strcmp(v, "wall") != 0)
                return cli_error("profile: --clock is cpu or wall, not '%s'", v);
            o->wall = strcmp(v, "wall") == 0;
            break;
        case BL__ID_UNWIND:
            o->unwind = v; /* the table checked it: auto, fp or dwarf */
            break;
        case BL__ID_STACK_SIZE:
            o->stack_bytes = strtoul(v, &end, 10);
            if (*end == 'K' || *end == 'k')
                o->stack_bytes *= 1024, end++;
            else if (*end == 'M' || *end == 'm')
                o->stack_bytes *= 1024 * 1024, end++;
            if (*end || !*v || o->stack_bytes < 512 || o->stack_bytes > 1024 * 1024)
                return cli_error("profile: --stack-size takes 512 to 1M bytes (K and M "
                                 "suffixes), not '%s'",
                                 v);
            break;
        case BL__ID_FREQUENCY:
            o->hz = strtoul(v, &end, 10);
            if (*end || o->hz < 1 || o->hz > 100000)
                return cli_error("profile: --frequency takes 1..100000 (Hz), not '%s'", v);
            break;
        case BL__ID_OUT:
            if (o->n_outputs == (int)(sizeof o->outputs / sizeof *o->outputs))
                return cli_error("profile: at most %d -o outputs",
                                 (int)(sizeof o->outputs / sizeof *o->outputs));
            o->outputs[o->n_outputs++] = v;
            break;
        case BL__ID_FORMAT: {
            enum bl_profile_format f;
            if (bl_profile_format_parse(v, &f) != 0)
                return cli_error("profile: unknown --format '%s' (flat, tree, folded, csv, svg, "
                                 "pprof, speedscope, chrome)",
                                 v);
            o->format = v;
            break;
        }
        case BL__ID_RAW:
            o->raw = v;
            o->keep_raw = 1;
            break;
        case BL__ID_LOAD:
            o->load = v;
            break;
        case BL__ID_EVENTS:
            o->events = strtol(v, &end, 10);
            if (*end || o->events < 0)
                return cli_error("profile: --events takes a count, not '%s'", v);
            break;
        case BL__ID_TOP:
            o->top = strtoul(v, &end, 10);
            if (*end || !*v)
                return cli_error("profile: --top takes a number, not '%s'", v);
            o->top_given = 1;
            break;
        }
    }
    /* profile's rule: every option of the save group asks for saving */
    struct bl__save_args *sa = &o->save_args;
    o->save.on = sa->on || sa->given_store || sa->given_run_id || sa->given_tag ||
                 sa->given_commit || sa->given_branch;
    o->save.commit = sa->commit;
    o->save.branch = sa->branch;
    o->save.store = sa->store;
    o->save.run_uid = sa->run_uid;
    o->save.tag = sa->tag;
    o->first = first;
    return 0;
}

/* The interpreter a script's #! line names (its first word), in buf: 0, or -1 when path is
 * not such a script. */
static int script_interpreter(const char *path, char *buf, size_t cap)
{
    char head[PATH_MAX + 3];
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    if (n < 3 || head[0] != '#' || head[1] != '!')
        return -1;
    const char *p = head + 2 + strspn(head + 2, " \t");
    size_t len = strcspn(p, " \t\r\n");
    if (!len || len >= cap)
        return -1;
    memcpy(buf, p, len);
    buf[len] = 0;
    return 0;
}

/* Check PROGRAM before starting it: one clear message for each way it cannot work. */
static int check_program(const char *name, const struct profile_opts *o, char *path, size_t cap,
                         int *is_suite)
{
    int err = find_program(name, path, cap);
    if (err)
        return cli_error("profile: %s: no such program", name);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return cli_error("profile: %s: not an executable file", path);
    struct bl_profile_program prog;
    err = bl_profile_check_program(path, &prog);
    if (err)
        return cli_error("profile: %s: %s", path, bl_strerror(err));
    char interp[PATH_MAX];
    if ((!prog.is_elf || !prog.is_executable) && !o->trace &&
        script_interpreter(path, interp, sizeof interp) == 0) {
        /* a script (a pyenv shim, a wrapper): the sampler is preloaded into its
         * interpreter and follows the programs it starts (exec included) */
        struct bl_profile_program ip;
        if (bl_profile_check_program(interp, &ip) != 0 || !ip.is_elf || !ip.is_executable ||
            !ip.is_dynamic)
            return cli_error("profile: %s is a script for %s, which is not a dynamically linked "
                             "x86-64 executable: the sampler cannot be preloaded into it; "
                             "profile the program the script runs",
                             path, interp);
        fprintf(stderr,
                "benchlab: profile: %s is a script (#!%s): the profile covers its interpreter "
                "and the programs it starts\n",
                path, interp);
        *is_suite = 0;
        return 0;
    }
    if (!prog.is_elf || !prog.is_executable)
        return cli_error("profile: %s: not an x86-64 ELF executable%s", path,
                         o->trace ? "" : " nor a script with a #! line");
    if (o->trace) {
        if (!prog.is_traced)
            return cli_error("profile: %s was not built with -finstrument-functions; rebuild it "
                             "with the recipe in docs/profile.md, or use --mode sample",
                             path);
        if (!prog.has_tracer)
            return cli_error("profile: %s is static and does not contain libbenchlab-trace; "
                             "link it with -lbenchlab-trace",
                             path);
    } else if (!prog.is_dynamic) {
        return cli_error("profile: %s is statically linked: the sampler cannot be preloaded "
                         "into it; link it dynamically, or build it for --mode trace",
                         path);
    }
    *is_suite = prog.is_suite;
    if (!prog.has_symbols) {
        char real[PATH_MAX];
        const char *shown = realpath(path, real) ? real : path;
        fprintf(stderr,
                "benchlab: profile: warning: %s has no symbols (stripped): unless its "
                "separate debug file is found (.gnu_debuglink, /usr/lib/debug/.build-id), its "
                "own functions will show as %s+0xOFFSET (addr2line -f -e FILE OFFSET)\n",
                path, strrchr(shown, '/') ? strrchr(shown, '/') + 1 : shown);
    }
    return 0;
}

/* Run the program with the profiler's environment; *status and *usage as from wait4. */
static int run_program(const char *path, char **args, const struct profile_opts *o, const char *raw,
                       int *status, struct rusage *usage)
{
    char sampler[PATH_MAX];
    if (!o->trace && bl_profile_sampler_path(NULL, sampler, sizeof sampler) != 0)
        return cli_error("profile: cannot find libbenchlab-sampler.so next to this benchlab "
                         "(set BENCHLAB_SAMPLER_LIB)");
    char hz[32];
    snprintf(hz, sizeof hz, "%lu", o->hz);
    char *preload = NULL;
    if (!o->trace) {
        const char *old = getenv("LD_PRELOAD");
        size_t n = strlen(sampler) + (old ? strlen(old) : 0) + 2;
        preload = malloc(n);
        if (!preload)
            return cli_error("profile: out of memory");
        snprintf(preload, n, "%s%s%s", sampler, old && *old ? ":" : "", old ? old : "");
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        free(preload);
        return cli_error("profile: fork: %s", strerror(errno));
    }
    if (pid == 0) {
        if (preload)
            setenv("LD_PRELOAD", preload, 1);
        setenv("BENCHLAB_PROFILE_OUT", raw, 1);
        /* sampling follows the programs this one starts (a suite's workers) */
        setenv("BENCHLAB_PROFILE_FOLLOW", o->trace ? "0" : "1", 1);
        unsetenv("BENCHLAB_PROFILE_ROOT");
        setenv("BENCHLAB_PROFILE_HZ", hz, 1);
        setenv("BENCHLAB_PROFILE_CLOCK", o->wall ? "wall" : "cpu", 1);
        setenv("BENCHLAB_PROFILE_UNWIND", o->unwind, 1);
        char stack[32];
        snprintf(stack, sizeof stack, "%lu", o->stack_bytes);
        setenv("BENCHLAB_PROFILE_STACK", stack, 1);
        char events[32];
        snprintf(events, sizeof events, "%ld", 2 * o->events); /* an enter and an exit each */
        setenv("BENCHLAB_TRACE_EVENTS", events, 1);
        unsetenv("BENCHLAB_PROFILE_PAUSED");
        execv(path, args);
        fprintf(stderr, "benchlab: profile: %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    free(preload);
    /* Ctrl-C goes to the program; we stay to write what it recorded. */
    struct sigaction ign = {0}, old_int, old_quit;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    while (wait4(pid, status, 0, usage) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return 0;
}

/* How many stacks were unwound to their thread's start, and why not the others. */
static void say_stacks(const struct bl_profile_info *info)
{
    if (info->stacks == 0)
        return;
    double share = 100.0 * (double)info->stacks_incomplete / (double)info->stacks;
    if (info->stacks_incomplete == 0 || share < 0.05) {
        fprintf(stderr, "benchlab: profile: all stacks reach their thread's start (%s unwinding)\n",
                info->unwind[0] ? info->unwind : "fp");
        return;
    }
    fprintf(stderr,
            "benchlab: profile: %s%.1f%% of the stacks did not reach their thread's start; "
            "their unwound part is shown under \"" BL_PROFILE_INCOMPLETE "\"",
            share >= 10 ? "warning: " : "", share);
    if (info->stacks_cut)
        fprintf(stderr, " (%.1f%% ran past the %llu KB stack copy: raise --stack-size)",
                100.0 * (double)info->stacks_cut / (double)info->stacks,
                (unsigned long long)(info->stack_bytes / 1024));
    else if (strcmp(info->unwind, "fp") == 0)
        fprintf(stderr, " (the code has no frame pointers: use the default --unwind auto, or "
                        "build with -fno-omit-frame-pointer)");
    fputc('\n', stderr);
}

static void say_info(const struct bl_profile_info *info, const struct profile_opts *o)
{
    if (info->kind == BL_PROFILE_TRACED) {
        fprintf(stderr,
                "benchlab: profile: traced %llu thread(s); tracer cost %.1f ns per call, "
                "subtracted\n",
                (unsigned long long)info->threads, info->trace_cost_ns);
        if (info->events_kept > 0 && info->events_total > info->events_kept)
            fprintf(stderr,
                    "benchlab: profile: warning: the timeline keeps the first %ld calls of each "
                    "thread, %.1f%% of the %llu traced (--events N keeps more, at about 170 bytes "
                    "of Chrome JSON per call; --events 0 writes the aggregated call tree as a "
                    "flame chart instead)\n",
                    o->events, 100.0 * (double)info->events_kept / (double)info->events_total,
                    (unsigned long long)(info->events_total / 2));
        return;
    }
    fprintf(stderr, "benchlab: profile: %llu samples from %llu thread(s) at %llu Hz (%s clock, %s)",
            (unsigned long long)info->samples, (unsigned long long)info->threads,
            (unsigned long long)(info->period_ns ? 1000000000u / info->period_ns : 0), info->clock,
            info->source);
    if (info->delivered > 0)
        fprintf(stderr, ", %.0f%% of the asked rate delivered", 100 * info->delivered);
    fputc('\n', stderr);
    if (strncmp(info->source, "timer", 5) == 0)
        fprintf(stderr,
                "benchlab: profile: warning: perf events unavailable (%s); fell back to "
                "timer_create, whose rate the kernel tick caps (often 250 Hz)\n",
                info->perf_errno ? strerror(info->perf_errno) : "forced");
    if (info->dropped)
        fprintf(stderr, "benchlab: profile: %llu samples dropped\n",
                (unsigned long long)info->dropped);
    if (info->processes > 1)
        fprintf(stderr,
                "benchlab: profile: %llu processes profiled (the program and the programs it "
                "started), their samples merged\n",
                (unsigned long long)info->processes);
    if (info->maps_missing)
        fprintf(stderr,
                "benchlab: profile: warning: the memory map of %llu process(es) could not be "
                "read (a sandbox?): their frames are [unknown]\n",
                (unsigned long long)info->maps_missing);
    say_stacks(info);
    (void)o;
}

/*
 * Traced times are elapsed time: a call that waited for a CPU is charged
 * with the wait, and a function's chance to be preempted grows with its
 * traced time, the tracer's cost included. Say so when it happened a lot.
 * `usage` is the program's, NULL for a raw profile loaded (--load, which
 * `run --profile=trace` uses): then the raw file's own account only.
 */
static void warn_preempted(const struct bl_profile_info *info, const struct rusage *usage)
{
    if (info->kind != BL_PROFILE_TRACED || info->elapsed_ns == 0)
        return;
    if (info->wait_share > 0) { /* the scheduler's own account of the waits */
        if (info->wait_share > 0.05)
            fprintf(stderr,
                    "benchlab: profile: warning: the program was preempted: its threads waited "
                    "for a CPU %.0f%% of their time; traced times include those waits, spread "
                    "over the calls in proportion to their time (the part that fell on the "
                    "tracer's own cost is taken out); profile on a quieter machine for exact "
                    "times\n",
                    100 * info->wait_share);
        return;
    }
    if (!usage)
        return;
    double cpu_ns = ((double)usage->ru_utime.tv_sec + (double)usage->ru_stime.tv_sec) * 1e9 +
                    ((double)usage->ru_utime.tv_usec + (double)usage->ru_stime.tv_usec) * 1e3;
    double threads = info->threads ? (double)info->threads : 1.0;
    double share = cpu_ns / ((double)info->elapsed_ns * threads); /* per thread */
    long switches = usage->ru_nivcsw;
    /* at least one preemption per 100 ms per thread, and time visibly lost */
    if (switches > 20 && (double)switches * 1e8 > (double)info->elapsed_ns * threads &&
        share < 0.95)
        fprintf(stderr,
                "benchlab: profile: warning: the program was preempted %ld times (CPU time "
                "%.0f%% of elapsed per thread): traced times include the waits; profile on a "
                "quieter machine for exact shares\n",
                switches, 100 * share);
}

/* The format of one output: --format for all, else its extension. */
static enum bl_profile_format output_format(const struct profile_opts *o, const char *path)
{
    enum bl_profile_format format = BL_PROFILE_FLAT;
    if (o->format)
        bl_profile_format_parse(o->format, &format);
    else if (path)
        format = bl_profile_format_for_path(path);
    return format;
}

/* The one place profile outputs are opened and written ("-": stdout). */
static int write_file(const bl_profile *p, enum bl_profile_format format, const char *path,
                      int announce)
{
    bl_output *out = NULL;
    int err = bl_output_open(path, &out);
    if (!err)
        err = bl_output_end(out, bl_profile_write(p, format, bl_output_file(out)));
    if (err)
        return cli_error("profile: %s: %s", path, bl_strerror(err));
    if (strcmp(path, "-") != 0 && announce)
        fprintf(stderr, "benchlab: profile: wrote %s\n", path);
    return 0;
}

static int write_output(const bl_profile *p, const struct profile_opts *o, const char *prog)
{
    if (o->n_outputs == 0 || (o->top_given && o->top > 0))
        bl_profile_write_summary(p, o->top, stderr);
    int rc = 0;
    for (int i = 0; i < o->n_outputs && !rc; i++)
        rc = write_file(p, output_format(o, o->outputs[i]), o->outputs[i], 1);
    if (o->n_outputs)
        return rc;
    /* no -o: PROGRAM.profile.EXT in --format's format, else the text profile */
    static const char *const exts[] = {[BL_PROFILE_FLAT] = "flat",
                                       [BL_PROFILE_TREE] = "tree",
                                       [BL_PROFILE_FOLDED] = "folded",
                                       [BL_PROFILE_CSV] = "csv",
                                       [BL_PROFILE_SVG] = "svg",
                                       [BL_PROFILE_PPROF] = "pb",
                                       [BL_PROFILE_SPEEDSCOPE] = "speedscope.json",
                                       [BL_PROFILE_CHROME] = "trace.json",
                                       [BL_PROFILE_TEXT] = "txt"};
    enum bl_profile_format format = BL_PROFILE_TEXT;
    if (o->format)
        bl_profile_format_parse(o->format, &format);
    char path[PATH_MAX];
    const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
    snprintf(path, sizeof path, "%s.profile.%s", base, exts[format]);
    rc = write_file(p, format, path, o->format != NULL);
    if (!rc && !o->format)
        fprintf(stderr, "benchlab: profile: full profile in %s\n", path);
    return rc;
}

int cmd_profile(int argc, char **argv)
{
    struct profile_opts o = {0};
    o.hz = 1000;
    o.unwind = "auto";
    o.stack_bytes = 65536;
    o.events = -1;
    o.top = 15;
    int err = parse_opts(argc, argv, &o);
    if (err)
        return err < 0 ? 0 : err;
    if (o.load) {
        bl_profile *p = NULL;
        struct bl_profile_info info;
        err = bl_profile_load(o.load, &p, &info);
        if (err == BL_EFORMAT)
            return cli_error("profile: %s: not a raw profile, or a damaged one (a chunk does "
                             "not start where the one before it ends)",
                             o.load);
        if (err && err != BL_ENOTFOUND)
            return cli_error("profile: %s: %s", o.load, bl_strerror(err));
        say_info(&info, &o);
        if (!err)
            warn_preempted(&info, NULL);
        int rc = err != BL_ENOTFOUND ? write_output(p, &o, o.load)
                 : info.kind == BL_PROFILE_TRACED
                     ? cli_error("profile: %s: no calls were traced (is the program built with "
                                 "-finstrument-functions? docs/profile.md has the recipe)",
                                 o.load)
                     : cli_error("profile: %s: no samples were recorded (the profiled code ran "
                                 "too briefly for one sample)",
                                 o.load);
        bl_profile_destroy(p);
        return rc;
    }
    if (o.first >= argc)
        return cli_error("profile: name a program: benchlab profile [options] -- PROGRAM ARGS...");
    if (o.events < 0) { /* a timeline only when an output shows one */
        o.events = 0;
        for (int i = 0; i < o.n_outputs || (i == 0 && o.format); i++)
            if (o.trace &&
                output_format(&o, i < o.n_outputs ? o.outputs[i] : NULL) == BL_PROFILE_CHROME)
                o.events = 50000; /* about 9 MB of JSON per thread */
    }
    char path[PATH_MAX];
    int is_suite = 0;
    if ((err = check_program(argv[o.first], &o, path, sizeof path, &is_suite)) != 0)
        return err;
    if (is_suite && !o.trace)
        fprintf(stderr,
                "benchlab: profile: %s is a benchlab suite: its runner only starts worker "
                "processes, so the profile follows them and covers all of their run (pilot, "
                "warm-up and overhead batches too); for each benchmark's measured loop alone, "
                "run %s --profile (docs/profile.md)\n",
                argv[o.first], argv[o.first]);

    char raw[PATH_MAX];
    if (o.raw) {
        /* the profiled processes append to it: it starts empty, and only a
         * regular file (or a new one) is emptied */
        struct stat st;
        if (stat(o.raw, &st) == 0 && !S_ISREG(st.st_mode))
            return cli_error("profile: --raw %s: not a regular file", o.raw);
        snprintf(raw, sizeof raw, "%s", o.raw);
        FILE *f = fopen(raw, "wb");
        if (!f || fclose(f) != 0)
            return cli_error("profile: --raw %s: %s", raw, strerror(errno));
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(raw, sizeof raw, "%s/benchlab-profile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(raw);
        if (fd < 0)
            return cli_error("profile: temporary file: %s", strerror(errno));
        close(fd);
    }
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    err = run_program(path, argv + o.first, &o, raw, &status, &usage);
    if (err) {
        if (!o.keep_raw)
            unlink(raw);
        return err;
    }
    int rc = 0;
    if (WIFSIGNALED(status)) {
        fprintf(stderr,
                "benchlab: profile: %s was killed by signal %d (%s); the profile holds the "
                "samples taken until then\n",
                argv[o.first], WTERMSIG(status), strsignal(WTERMSIG(status)));
        rc = 1;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        fprintf(stderr, "benchlab: profile: %s exited with status %d\n", argv[o.first],
                WEXITSTATUS(status));
        rc = 1;
    }
    bl_profile *p = NULL;
    struct bl_profile_info info;
    err = bl_profile_load(raw, &p, &info);
    if (!o.keep_raw)
        unlink(raw);
    if (err == BL_ENOTFOUND || (err == 0 && !p)) {
        bl_profile_destroy(p);
        return cli_error("profile: nothing was recorded (the program ran too briefly, exited "
                         "with _exit(), or was killed by SIGKILL)");
    }
    if (err)
        return cli_error("profile: reading the raw profile: %s", bl_strerror(err));
    say_info(&info, &o);
    warn_preempted(&info, &usage);
    int werr = write_output(p, &o, path);
    if (!werr && o.save.on && cli_save_profile(&o.save, p, &info, argv + o.first))
        werr = 2;
    bl_profile_destroy(p);
    return werr ? werr : rc;
}
