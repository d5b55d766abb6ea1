/*
 * benchlab.h - what a benchmark author includes.
 *
 * A benchmark is a function that receives a state and runs the operation
 * inside `while (bl_loop(st))`. Code before the loop is setup and code after
 * it is teardown; neither is timed. The loop runs as many repetitions as the
 * engine asks for: the pilot, the warmup and every measured batch happen
 * inside that one loop, so setup runs once per worker process, not once per
 * measurement.
 *
 *     #include <benchlab.h>
 *
 *     BENCHLAB(Sum, .params = BL_PARAMS(BL_INTS("size", 64, 4096)))
 *     {
 *         long n = bl_param_int(st, "size");
 *         int *a = calloc(n, sizeof *a);          // setup: not timed
 *         while (bl_loop(st)) {
 *             long s = 0;
 *             for (long i = 0; i < n; i++)
 *                 s += a[i];
 *             bl_do_not_optimize(s);
 *         }
 *         free(a);                                // teardown: not timed
 *         bl_set_bytes_per_op(st, n * sizeof *a); // adds MB/s
 *     }
 *
 *     BENCHLAB_MAIN()
 *
 * Build with `cc -O2 sum.c $(pkg-config --cflags --libs benchlab)` and run
 * `./a.out`: results come out in the Go benchmark format on stdout
 * (`BenchmarkSum/size=64  ...  ns/op  MB/s`), a summary table on stderr.
 *
 * Everything here is C17, and C++17/C++20 (docs/cpp.md), and compiles
 * warning-free with -Wall -Wextra -Wpedantic under gcc and clang. Names
 * starting with bl__ or BL__ are internal.
 */
#ifndef BENCHLAB_H
#define BENCHLAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchlab/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The per-worker benchmark state. Opaque but for its first member. */
typedef struct bl_state bl_state;
typedef void (*bl_bench_fn)(bl_state *st);

/* ---- parameters -------------------------------------------------------- */

enum bl_param_kind {
    BL_PARAM_INT = 1,
    BL_PARAM_STR = 2,
    BL_PARAM_RANGE = 3,       /* BL_RANGE: ints holds lo, hi, multiplier */
    BL_PARAM_DENSE_RANGE = 4, /* BL_DENSE_RANGE: ints holds lo, hi, step */
};

/* One named list of values. Use BL_INTS / BL_STRS / BL_RANGE /
 * BL_DENSE_RANGE to write one. */
typedef struct bl_param {
    const char *name;
    enum bl_param_kind kind;
    size_t n_values;
    const long long *ints;
    const char *const *strs;
} bl_param;

#ifndef __cplusplus
#define BL__NARGS(type, ...) (sizeof((type[]){__VA_ARGS__}) / sizeof(type))
/* BL_INTS("size", 10, 100, 1000): an integer parameter. */
#define BL_INTS(name, ...)                                                                         \
    {                                                                                              \
        (name), BL_PARAM_INT, BL__NARGS(const long long, __VA_ARGS__),                             \
            (const long long[]){__VA_ARGS__}, NULL                                                 \
    }
/* BL_STRS("algo", "merge", "quick"): a string parameter. */
#define BL_STRS(name, ...)                                                                         \
    {                                                                                              \
        (name), BL_PARAM_STR, BL__NARGS(const char *const, __VA_ARGS__), NULL,                     \
            (const char *const[])                                                                  \
        {                                                                                          \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    }
/*
 * BL_PARAMS(p1, p2, ...): the parameter lists of one benchmark. Every
 * combination runs, in the order written (the last parameter varies
 * fastest), named BenchmarkSort/size=1000/algo=merge.
 */
#define BL_PARAMS(...)                                                                             \
    (const bl_param[])                                                                             \
    {                                                                                              \
        __VA_ARGS__,                                                                               \
        {                                                                                          \
            NULL, (enum bl_param_kind)0, 0, NULL, NULL                                             \
        }                                                                                          \
    }
/*
 * BL_RANGE("n", 8, 8192, 8): lo, the powers of the multiplier strictly
 * between lo and hi, and hi (8, 64, 512, 4096, 8192), as Google Benchmark's
 * Range() with RangeMultiplier(). BL_DENSE_RANGE("n", 0, 10, 5): lo, lo +
 * step, ... up to hi (0, 5, 10). Integer parameters like BL_INTS; a bad
 * range (lo > hi, multiplier < 2, step < 1, a negative lo in BL_RANGE)
 * fails the benchmark, naming it.
 */
#define BL_RANGE(name, lo, hi, mult)                                                               \
    {                                                                                              \
        (name), BL_PARAM_RANGE, 3, (const long long[]){(lo), (hi), (mult)}, NULL                   \
    }
#define BL_DENSE_RANGE(name, lo, hi, step)                                                         \
    {                                                                                              \
        (name), BL_PARAM_DENSE_RANGE, 3, (const long long[]){(lo), (hi), (step)}, NULL             \
    }
#else
/* C++ has no compound literals: the same macros build the arrays once, at
 * registration, in storage that lives as long as the program. */
#define BL_RANGE(name, lo, hi, mult) ::bl__cxx::range((name), BL_PARAM_RANGE, (lo), (hi), (mult))
#define BL_DENSE_RANGE(name, lo, hi, step)                                                         \
    ::bl__cxx::range((name), BL_PARAM_DENSE_RANGE, (lo), (hi), (step))
#define BL_INTS(name, ...) ::bl__cxx::ints((name), __VA_ARGS__)
#define BL_STRS(name, ...) ::bl__cxx::strs((name), __VA_ARGS__)
#define BL_PARAMS(...) ::bl__cxx::params(__VA_ARGS__)
#endif
/*
 * BL_THREADS(1, 2, 4): the thread counts of a multi-threaded benchmark
 * (.threads). Each count is an instance of its own, named .../threads=T
 * after the parameters. Counts run from 1 to BL_MAX_THREADS.
 */
#ifndef __cplusplus
#define BL_THREADS(...) ((const int[]){__VA_ARGS__, BL__THREADS_END})
#else
#define BL_THREADS(...) ::bl__cxx::threads(__VA_ARGS__)
#endif
/* Ends a BL_THREADS list: not 0, so that a count of 0 is refused, not taken as the end. */
#define BL__THREADS_END (-2147483647 - 1)
#define BL_MAX_THREADS 256

/* ---- registration ------------------------------------------------------- */

/*
 * A statistic of the benchmark's own over its launches (Google Benchmark's
 * ComputeStatistics), beside the mean, median, stddev and cv: fn receives
 * one value per successful launch (the time per op in ns, the CPU time per
 * op, or a metric) and returns the statistic; `data` is passed along.
 * Computed by the suite's own runner when a benchmark has two launches or
 * more (--count), and shown as NAME_<name> in Google Benchmark's outputs
 * and after benchlab's table. `percentage`: the value is a fraction, shown
 * as a percentage (like cv), not a time. A list ends with {0} (a NULL name).
 */
typedef struct bl_statistic {
    const char *name;
    double (*fn)(const double *values, size_t n, const void *data);
    const void *data;
    int percentage;
} bl_statistic;

/*
 * A benchmark definition. Written by BENCHLAB(); every field but name, fn
 * and overhead_fn is optional and set with designated initialisers:
 *
 *   .params          BL_PARAMS(...)
 *   .global_setup    run once per worker before the benchmark function
 *   .global_cleanup  run once per worker after it
 *   .setup_op        run before every single repetition, outside timing
 *   .teardown_op     run after every single repetition, outside timing
 *   .macro           1: a macrobenchmark (Caliper): every invocation is timed
 *                    on its own and the distribution is reported; for
 *                    operations of tens of microseconds and more. Operations
 *                    longer than the batch target (1 ms) get this by default.
 *   .complexity      BL_COMPLEXITY_AUTO (or one curve, BL_ON...): fit the time
 *                    per op against the size parameter to O(1), O(log n),
 *                    O(n), O(n log n), O(n^2), O(n^3) and .complexity_curve,
 *                    and report the best fit with its normalised RMS
 *   .complexity_param the integer parameter that is n (default: the only one)
 *   .complexity_curve double (*)(double n): a curve of your own, fitted too;
 *                    .complexity_curve_name shows it ("n^1.5")
 *   .complexity_group instances with the same group are fitted together, their
 *                    n set by the body with bl_set_complexity_n() (Google
 *                    Benchmark's SetComplexityN); for benchmarks whose size is
 *                    no parameter, such as those with .raw_name. Written like
 *                    the name ("BM_Sort" is shown "BenchmarkBM_Sort")
 *   .threads         BL_THREADS(1, 2, 4): run the body in T threads at once,
 *                    each with its own state and loop, batches started together
 *                    behind a barrier and timed from the common start to the
 *                    last thread's finish. ns/op is per op of one thread (wall
 *                    time / repetitions per thread); throughput (ops/s, MB/s,
 *                    items/s) counts every thread's operations.
 *
 *   .statistics      (const bl_statistic[]){{"max", my_max}, {0}}: statistics
 *                    of your own over the launches (bl_statistic, above)
 *
 *   .raw_name        1: the name is used exactly as written after "Benchmark"
 *                    (no upper-casing), with nothing appended: no parameters
 *                    (.params is ignored) and no "/threads=T" (only the first
 *                    count of .threads is used). For layers that name their
 *                    instances themselves, such as the Google Benchmark one.
 *   .data            a pointer of the definition's own, read back in the body
 *                    and the hooks with bl_bench_data(st)
 *
 * The plan of this benchmark, where it differs from the run's options
 * (each as Google Benchmark's per-benchmark setting of the same meaning):
 *
 *   .iterations      N: a fixed count. Every launch is one measurement of
 *                    exactly N repetitions (per thread), after one overhead
 *                    batch of N: no pilot, no warmup (unless .warmup_s), no
 *                    jitter, and the loop runs N times in all, so
 *                    bl_iterations() is N after it (Iterations(n))
 *   .time_s          this benchmark's budget in seconds, split over its
 *                    launches; overrides --time (MinTime(s))
 *   .warmup_s        every launch warms up for at least this many seconds
 *                    before benchlab's own steady-state rule may end the
 *                    warmup; not charged to the budget (MinWarmUpTime(s))
 *   .count           this benchmark's launches; overrides --count
 *                    (Repetitions(n))
 *   .manual_time     1: the time of a batch is the sum of what the body
 *                    reports with bl_set_iteration_time(), not the clock;
 *                    no overhead is subtracted (UseManualTime()); the rates
 *                    of bl_report_counter are over that time
 *   .real_time       1: the rates of bl_report_counter (and Google
 *                    Benchmark's bytes_per_second and items_per_second)
 *                    are over the wall time, not the CPU time
 *                    (UseRealTime()); benchlab's own times are wall time
 *                    either way
 *   .process_cpu     1: the CPU time (cpu/op, and the rates of counters
 *                    over it) is the CPU time of the whole worker process,
 *                    every thread, not only the benchmark's: for a body that
 *                    hands work to other threads (a pool, std::async).
 *                    With .threads, per op of one thread: the process's CPU
 *                    time over a batch divided by the threads and the
 *                    repetitions per thread (MeasureProcessCPUTime())
 *
 * How Google Benchmark's outputs (--format gbench-json, gbench-csv,
 * gbench-console) show it:
 *
 *   .time_unit       "ns", "us", "ms" or "s": this benchmark's times in that
 *                    unit (Unit()); NULL: the run's --time-unit (default ns).
 *                    Any other value fails the benchmark, naming it.
 *                    benchlab's own outputs stay in ns.
 *
 * With setup_op or teardown_op the engine times each repetition on its own
 * (two clock reads per repetition, subtracted by the overhead stage), so use
 * them for operations of a microsecond or more.
 */
typedef struct bl_bench_def {
    const char *name;
    bl_bench_fn fn;
    bl_bench_fn overhead_fn; /* the same loop with an empty body, same compiler and flags */
    const char *file;
    int line;
    const bl_param *params;
    void (*global_setup)(bl_state *st);
    void (*global_cleanup)(bl_state *st);
    void (*setup_op)(bl_state *st);
    void (*teardown_op)(bl_state *st);
    int macro;
    const int *threads; /* BL_THREADS(...), ends with BL__THREADS_END; NULL: single-threaded */
    int complexity;     /* enum bl_complexity (benchlab/common.h) */
    const char *complexity_param;
    double (*complexity_curve)(double n);
    const char *complexity_curve_name;
    const char *complexity_group;
    const bl_statistic *statistics; /* ends with {0}; NULL: none */
    int raw_name;
    const void *data;
    long long iterations; /* 0: benchlab sizes its batches */
    double time_s;        /* 0: --time */
    double warmup_s;      /* 0: benchlab's warmup rule alone */
    int count;            /* 0: --count */
    int manual_time;
    int real_time;         /* counters' rates over wall time, not CPU time */
    int process_cpu;       /* CPU time of the whole worker process, every thread */
    const char *time_unit; /* NULL: --time-unit */
    int bl__end;
} bl_bench_def;

/* Called by BENCHLAB() from a constructor. `def` is borrowed for the life of the program. */
BL_API void bl_register(const bl_bench_def *def);

/*
 * BENCHLAB(Name, options...) { body }: define and register a benchmark at
 * file scope. The body sees `bl_state *st`. The name becomes BenchmarkName
 * (first letter upper-cased) in results. The macro also emits the overhead
 * function, an empty `while (bl_loop(st))` compiled in the same translation
 * unit with the same flags, so the overhead stage measures exactly the loop
 * the benchmark pays for.
 */
#define BENCHLAB(...) BL__BENCH(__VA_ARGS__, .bl__end = 0)
/*
 * The loop helpers and the code BENCHLAB() generates are never instrumented
 * by -finstrument-functions (gcc instruments inlined functions too): in a
 * suite built for `run --profile=trace`, bl_loop() would otherwise call the
 * tracer twice per repetition and show up in every profile.
 */
#define BL__NOINST __attribute__((no_instrument_function))
#ifndef __cplusplus
#define BL__BENCH(id, ...)                                                                         \
    static void bl__fn_##id(bl_state *st);                                                         \
    BL__NOINST static void bl__ovh_##id(bl_state *st)                                              \
    {                                                                                              \
        while (bl_loop(st)) {                                                                      \
        }                                                                                          \
    }                                                                                              \
    static const bl_bench_def bl__def_##id = {.name = #id,                                         \
                                              .fn = bl__fn_##id,                                   \
                                              .overhead_fn = bl__ovh_##id,                         \
                                              .file = __FILE__,                                    \
                                              .line = __LINE__,                                    \
                                              __VA_ARGS__};                                        \
    BL__NOINST __attribute__((constructor)) static void bl__reg_##id(void)                         \
    {                                                                                              \
        bl_register(&bl__def_##id);                                                                \
    }                                                                                              \
    static void bl__fn_##id(bl_state *st)
#else
/*
 * C++ (C++17 has no designated initialisers, C++20 wants them in member
 * order): each option `.field = value` becomes the statement
 * `def.field = value;` in the registering function, so options keep the C
 * spelling, in any order. That function runs as the initialiser of a
 * namespace-scope constant, which C++ orders as written within a file
 * (constructor functions have no such order in C++).
 */
#define BL__BENCH(id, ...)                                                                         \
    static void bl__fn_##id(bl_state *st);                                                         \
    BL__NOINST static void bl__ovh_##id(bl_state *st)                                              \
    {                                                                                              \
        while (bl_loop(st)) {                                                                      \
        }                                                                                          \
    }                                                                                              \
    BL__NOINST static int bl__reg_##id(void)                                                       \
    {                                                                                              \
        static bl_bench_def bl__d_;                                                                \
        bl__d_.name = #id;                                                                         \
        bl__d_.fn = bl__fn_##id;                                                                   \
        bl__d_.overhead_fn = bl__ovh_##id;                                                         \
        bl__d_.file = __FILE__;                                                                    \
        bl__d_.line = __LINE__;                                                                    \
        BL__CXX_APPLY(bl__d_, __VA_ARGS__)                                                         \
        bl_register(&bl__d_);                                                                      \
        return 0;                                                                                  \
    }                                                                                              \
    [[maybe_unused]] static const int bl__regv_##id = bl__reg_##id();                              \
    static void bl__fn_##id(bl_state *st)
#define BL__CAT(a, b) BL__CAT_(a, b)
#define BL__CAT_(a, b) a##b
/* the number of options, 1 to 16 (BENCHLAB() always adds .bl__end = 0) */
#define BL__NOPT(...)                                                                              \
    BL__NOPT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define BL__NOPT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, n, ...) n
#define BL__CXX_APPLY(d, ...) BL__CAT(BL__CXX_APPLY_, BL__NOPT(__VA_ARGS__))(d, __VA_ARGS__)
#define BL__CXX_APPLY_1(d, x) d x;
#define BL__CXX_APPLY_2(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_1(d, __VA_ARGS__)
#define BL__CXX_APPLY_3(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_2(d, __VA_ARGS__)
#define BL__CXX_APPLY_4(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_3(d, __VA_ARGS__)
#define BL__CXX_APPLY_5(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_4(d, __VA_ARGS__)
#define BL__CXX_APPLY_6(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_5(d, __VA_ARGS__)
#define BL__CXX_APPLY_7(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_6(d, __VA_ARGS__)
#define BL__CXX_APPLY_8(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_7(d, __VA_ARGS__)
#define BL__CXX_APPLY_9(d, x, ...)                                                                 \
    d x;                                                                                           \
    BL__CXX_APPLY_8(d, __VA_ARGS__)
#define BL__CXX_APPLY_10(d, x, ...)                                                                \
    d x;                                                                                           \
    BL__CXX_APPLY_9(d, __VA_ARGS__)
#define BL__CXX_APPLY_11(d, x, ...)                                                                \
    d x;                                                                                           \
    BL__CXX_APPLY_10(d, __VA_ARGS__)
#define BL__CXX_APPLY_12(d, x, ...)                                                                \
    d x;                                                                                           \
    BL__CXX_APPLY_11(d, __VA_ARGS__)
#define BL__CXX_APPLY_13(d, x, ...)                                                                \
    d x;                                                                                           \
    BL__CXX_APPLY_12(d, __VA_ARGS__)
#define BL__CXX_APPLY_14(d, x, ...)                                                                \
    d x;                                                                                           \
    BL__CXX_APPLY_13(d, __VA_ARGS__)
#define BL__CXX_APPLY_15(d, x, ...)                                                                \
    d x;                                                                                           \
    BL__CXX_APPLY_14(d, __VA_ARGS__)
#define BL__CXX_APPLY_16(d, x, ...)                                                                \
    d x;                                                                                           \
    BL__CXX_APPLY_15(d, __VA_ARGS__)
#endif

/*
 * The suite's entry point: runner mode by default, worker mode when the
 * runner re-executes the binary. Returns the process exit status: 0 all
 * benchmarks ran, 1 some failed, 2 bad usage, 130 interrupted.
 */
BL_API int bl_main(int argc, char **argv);

/*
 * How many arguments from argv[i] on make one of bl_main's own options
 * (the suite's: "--time 2s" is 2, "--time=2s", "-list" or "--save" is 1),
 * or 0 when argv[i] is none of them. For a layer that takes its own flags
 * off argv before bl_main sees it (Google Benchmark's Initialize): it reads
 * bl_main's option table, so the two never disagree. 0 <= i < argc.
 */
BL_API int bl_main_option_args(int argc, char **argv, int i);

/*
 * The suite's name: the pkg: line of its results, which `benchlab compare`
 * pairs two result files by (so two builds of one suite, `sum` and
 * `sum_new`, compare column by column). Declare it with
 * BENCHLAB_MAIN("zlib") or, in a suite with a main of its own,
 * BENCHLAB_SUITE("zlib") at file scope (once per translation unit; a
 * string literal). Undeclared, it is the stem of the source file holding
 * BENCHLAB_MAIN() ("sum.c": "sum"), else of the file defining the first
 * benchmark registered; never the executable's file name. `--pkg NAME`
 * overrides it for one run. Two different declared names are refused when
 * the suite starts.
 */
BL_API void bl_register_suite(const char *name, const char *file);
#define BENCHLAB_SUITE(name)                                                                       \
    BL__NOINST __attribute__((constructor)) static void bl__suite_decl(void)                       \
    {                                                                                              \
        bl_register_suite("" name, NULL);                                                          \
    }
/* BENCHLAB_MAIN() or BENCHLAB_MAIN("name"): main(), and the suite's name. */
#define BENCHLAB_MAIN(...)                                                                         \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        bl_register_suite("" __VA_ARGS__, __FILE__);                                               \
        return bl_main(argc, argv);                                                                \
    }

/* ---- the measured loop ------------------------------------------------- */

/* The part of bl_state that the inline fast path touches. */
struct bl__state_hot {
    uint64_t left; /* repetitions left in the current batch */
    uint64_t end;  /* bl_iterations() once this batch ends: end - left so far */
};
BL_API bool bl__loop_next(bl_state *st);

/*
 * Returns true while the engine wants another repetition. The fast path is
 * a decrement and a branch; the empty volatile asm keeps the compiler from
 * collapsing or deleting the loop, without forcing any memory traffic.
 * The engine reads the clock only when a batch starts or ends.
 */
BL__NOINST static inline bool bl_loop(bl_state *st)
{
    struct bl__state_hot *hot = (struct bl__state_hot *)(void *)st;
    if (__builtin_expect(hot->left != 0, 1)) {
        hot->left--;
        __asm__ volatile("");
        return true;
    }
    return bl__loop_next(st);
}

/*
 * Steps of n repetitions, for a body that does n operations per pass
 * (Google Benchmark's KeepRunningBatch): call bl_set_batch_multiple(st, n)
 * once before the loop, then `while (bl_loop_n(st, n))`. Every batch the
 * engine plans is then a multiple of n, so a step never straddles two
 * batches. The loop's overhead subtracted is per repetition of the plain
 * loop, an upper bound for a step of n. Calling it after the loop started,
 * with .setup_op, or in the allocation or counters pass fails the benchmark.
 */
BL_API void bl_set_batch_multiple(bl_state *st, uint64_t n);
BL__NOINST static inline bool bl_loop_n(bl_state *st, uint64_t n)
{
    struct bl__state_hot *hot = (struct bl__state_hot *)(void *)st;
    if (n <= 1)
        return bl_loop(st);
    if (__builtin_expect(hot->left >= n, 1)) {
        hot->left -= n;
        __asm__ volatile("");
        return true;
    }
    if (!bl__loop_next(st)) /* a new batch, its first repetition taken */
        return false;
    hot->left = hot->left >= n - 1 ? hot->left - (n - 1) : 0;
    return true;
}

/* ---- keeping the compiler honest ---------------------------------------- */

/*
 * bl_do_not_optimize(v): the value of expression `v` is computed and
 * considered used, so the code computing it is not deleted, and cannot be
 * hoisted out of the loop. Works for any scalar, pointer or struct value.
 */
#ifndef __cplusplus
#define bl_do_not_optimize(v)                                                                      \
    do {                                                                                           \
        __typeof__(v) bl__sink_ = (v);                                                             \
        bl__sink(&bl__sink_);                                                                      \
    } while (0)
#else
#define bl_do_not_optimize(v)                                                                      \
    do {                                                                                           \
        auto bl__sink_ = (v);                                                                      \
        bl__sink(&bl__sink_);                                                                      \
    } while (0)
#endif

/* Let the compiler assume *p was read and written: its stores happen. */
BL__NOINST static inline void bl_escape(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}
/* A full compiler memory barrier: every pending store happens here. */
BL__NOINST static inline void bl_clobber(void)
{
    __asm__ volatile("" : : : "memory");
}
BL__NOINST static inline void bl__sink(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

/* ---- inside the benchmark ----------------------------------------------- */

/*
 * Stop and restart the clock inside the loop, for per-repetition work that
 * must not be timed. Each pause/resume pair costs two clock reads (~30-60
 * ns); the engine measures that cost in the worker and subtracts it, but it
 * adds noise: prefer .setup_op for anything per repetition. A body that
 * pauses and never resumes (the repetitions after the pause would run
 * untimed) fails the benchmark, naming it, as Google Benchmark aborts.
 */
BL_API void bl_pause(bl_state *st);
BL_API void bl_resume(bl_state *st);

/* Parameter values of this benchmark instance. An unknown name aborts the
 * benchmark with an error naming it. bl_param_int parses string values. */
BL_API long long bl_param_int(bl_state *st, const char *name);
BL_API const char *bl_param_str(bl_state *st, const char *name);

/* Bytes processed per repetition: adds MB/s (10^6 bytes per second, as Go). */
BL_API void bl_set_bytes_per_op(bl_state *st, double bytes);
/* Items (records, messages, keys...) processed per repetition: adds items/s
 * beside MB/s, as Google Benchmark's items_per_second. */
BL_API void bl_set_items_per_op(bl_state *st, double items);
/*
 * Report a user metric, as Go's b.ReportMetric: `value` is written as is
 * with `unit` (such as "compares/op" or "hits/s"); a unit ending in "/op" is
 * per repetition, so divide totals by bl_iterations(st). The unit must not
 * contain whitespace. Reporting a unit twice keeps the last value.
 */
BL_API void bl_report_metric(bl_state *st, double value, const char *unit);

/* Flags of bl_report_metric_ex. */
enum bl_metric_flags {
    BL_LOWER_IS_BETTER = 1,  /* recorded as "Unit UNIT better=lower" */
    BL_HIGHER_IS_BETTER = 2, /* recorded as "Unit UNIT better=higher" */
    /* `value` is per repetition (hits per op); benchlab writes it per
     * second, value x threads / seconds per op, once the time per op is
     * known. The unit must end in "/s" ("hits/s"); higher is better unless
     * BL_LOWER_IS_BETTER says otherwise. */
    BL_RATE = 4,
    /* with BL_RATE: written as 1 / the rate, in ns per unit (Google
     * Benchmark's kInvert on a rate, which its outputs get in seconds); the
     * unit must start with "ns/" ("ns/hit"), and lower is better unless
     * BL_HIGHER_IS_BETTER says so; a rate of 0 is inf */
    BL_INVERT = 8,
    /* display only: shown with prefixes of 1024 where a format has them
     * (Google Benchmark's console, Counter::kIs1024) */
    BL_ONEK_1024 = 16,
};
/*
 * bl_report_metric with flags: which direction is better, recorded in the
 * Go format's "Unit" metadata lines (and the JSON "units") so that
 * `benchlab compare --fail-on-regression` and benchstat know a drop is the
 * regression; and rates computed from the measured time. Bad flags (both
 * directions, a rate whose unit does not end in "/s", unknown bits) fail
 * the benchmark with a message naming the unit.
 */
BL_API void bl_report_metric_ex(bl_state *st, double value, const char *unit, unsigned flags);
/* Flags of bl_report_counter: Google Benchmark's benchmark::Counter flags. */
enum bl_counter_flags {
    BL_COUNTER_RATE = 1,                /* kIsRate: divided by the time: NAME/s */
    BL_COUNTER_AVG_THREADS = 2,         /* kAvgThreads: the mean over threads, not the sum */
    BL_COUNTER_ITERATION_INVARIANT = 4, /* kIsIterationInvariant: value x iterations */
    BL_COUNTER_AVG_ITERATIONS = 8,      /* kAvgIterations: value / iterations */
    BL_COUNTER_INVERT = 16,             /* kInvert: 1 / value, last (after the rate) */
    BL_COUNTER_1024 = 32,               /* Counter::kIs1024: display only (BL_ONEK_1024) */
};
/*
 * A counter as Google Benchmark's state.counters[name] = Counter(value,
 * flags), with Google Benchmark 1.7.1's arithmetic (its counter.cc
 * Finish): `value` is this thread's total over the repetitions run so far
 * (bl_iterations), so call it after the loop. A launch sums the threads'
 * values (a name reported by some threads only: those), then, with I the
 * repetitions of all threads (bl_iterations() x threads) and S the seconds
 * they took (the CPU time of all threads; the wall time with .real_time;
 * the reported time with .manual_time): BL_COUNTER_RATE divides by S,
 * BL_COUNTER_AVG_THREADS by the threads, BL_COUNTER_ITERATION_INVARIANT
 * multiplies by I, BL_COUNTER_AVG_ITERATIONS divides by I, and
 * BL_COUNTER_INVERT takes 1 / the result, last (1 / 0 is inf). S is the
 * launch's time per op (its median batch) times the repetitions. The
 * metric's unit is NAME, "NAME/s" for a rate, "ns/NAME" for an inverted
 * rate (in ns, where Google Benchmark's outputs show seconds); every
 * output shows these values (docs/writing-benchmarks.md, "Metrics").
 * Whitespace in NAME becomes '_'. Unknown flags or a call before the loop
 * ran fail the benchmark, naming the counter. Reporting a name twice keeps
 * the last value.
 */
BL_API void bl_report_counter(bl_state *st, const char *name, double value, unsigned flags);
/*
 * Repetitions run so far by the loop, all stages included. Inside the loop
 * it counts the repetition that is running (1 in the first one), exact at
 * every repetition as Google Benchmark's KeepRunning() loop gives it; a
 * bl_loop_n() step counts all its n.
 */
BL_API uint64_t bl_iterations(const bl_state *st);
/*
 * The repetitions the loop runs in all in this worker (per thread), when
 * known: with .iterations, N from the start (before the loop too); else
 * once the loop has ended, bl_iterations(). 0 while unknown: benchlab
 * sizes its batches as it goes (Google Benchmark's max_iterations).
 */
BL_API uint64_t bl_max_iterations(const bl_state *st);
/*
 * With .manual_time: the time of the repetition that is running, in
 * seconds, as the body measured it (a GPU's timer, a remote clock, a
 * part of the repetition); a batch's time is the sum over its
 * repetitions (Google Benchmark's SetIterationTime). A batch in which the
 * body reported nothing, a time that is negative, not finite or over
 * 1e6 s (a batch's sum in ns must hold it), or a call without
 * .manual_time fails the benchmark, naming it.
 */
BL_API void bl_set_iteration_time(bl_state *st, double seconds);

/* Skip this benchmark with a reason (for example, missing hardware). The
 * loop then returns false at once. The result is reported as skipped. */
BL_API void bl_skip(bl_state *st, const char *reason);
/* Fail this benchmark with a message; the runner reports it by name. */
BL_API void bl_fail(bl_state *st, const char *message);

/*
 * In a multi-threaded benchmark (.threads), the number of threads running
 * the body and this thread's index, 0 to bl_threads(st) - 1; 1 and 0
 * otherwise. Code before and after the loop runs in every thread (per-thread
 * setup); .global_setup runs once, before the threads start.
 */
BL_API int bl_threads(const bl_state *st);
BL_API int bl_thread_index(const bl_state *st);

/* A pointer for the user's own data, shared by the hooks and the body.
 * Set in .global_setup, every thread of a multi-threaded benchmark sees it. */
BL_API void bl_set_user(bl_state *st, void *user);
BL_API void *bl_user(const bl_state *st);
/*
 * A label for this run of the benchmark (Google Benchmark's SetLabel): a
 * short text such as the input's name, copied (up to 255 bytes, control
 * characters as spaces). The last call wins; in a multi-threaded benchmark,
 * the first thread's that set one. Shown in Google Benchmark's JSON
 * (--format gbench-json) as "label".
 */
BL_API void bl_set_label(bl_state *st, const char *label);
/*
 * The size n of this instance for the complexity fit (.complexity), when it
 * is not the value of a parameter (Google Benchmark's SetComplexityN): call
 * it anywhere in the body; the last call wins (in a multi-threaded
 * benchmark, thread 0's, else the first thread's that called it). It
 * replaces the parameter's value as n. n must be 1 or more; a benchmark
 * with .complexity_group and no parameter that is n fails without it.
 */
BL_API void bl_set_complexity_n(bl_state *st, long long n);
/* The .data of this benchmark's definition (NULL when it has none). */
BL_API const void *bl_bench_data(const bl_state *st);

#ifdef __cplusplus
}

/* The C++ side of BL_INTS, BL_STRS, BL_PARAMS and BL_THREADS: arrays built
 * once at registration and never freed (definitions live as long as the
 * program). Internal. */
namespace bl__cxx
{
template <class... T> inline bl_param ints(const char *name, T... v)
{
    bl_param p{};
    p.name = name;
    p.kind = BL_PARAM_INT;
    p.n_values = sizeof...(v);
    p.ints = new long long[sizeof...(v)]{static_cast<long long>(v)...};
    return p;
}
template <class... T> inline bl_param strs(const char *name, T... v)
{
    bl_param p{};
    p.name = name;
    p.kind = BL_PARAM_STR;
    p.n_values = sizeof...(v);
    p.strs = new const char *[sizeof...(v)] { static_cast<const char *>(v)... };
    return p;
}
inline bl_param range(const char *name, enum bl_param_kind kind, long long lo, long long hi,
                      long long by)
{
    bl_param p{};
    p.name = name;
    p.kind = kind;
    p.n_values = 3;
    p.ints = new long long[3]{lo, hi, by};
    return p;
}
template <class... P> inline const bl_param *params(P... p)
{
    return new bl_param[sizeof...(p) + 1]{p..., bl_param{}};
}
template <class... T> inline const int *threads(T... v)
{
    return new int[sizeof...(v) + 1]{static_cast<int>(v)..., BL__THREADS_END};
}
} // namespace bl__cxx
#endif
#endif /* BENCHLAB_H */
