/*
 * benchmark/benchmark.h - Google Benchmark's API on benchlab's engine.
 *
 * A suite written for Google Benchmark builds unchanged against this header
 * (`pkg-config --cflags --libs benchlab-gbench`, or CMake's
 * benchmark::benchmark from find_package(benchlab COMPONENTS gbench)) and
 * then runs under benchlab: every benchmark in worker processes of its own,
 * with benchlab's stages, invalidation and statistics. This layer only
 * registers and names benchmarks the way Google Benchmark does and turns
 * each instance into a benchlab definition (bl_bench_def with .raw_name);
 * it measures nothing itself.
 *
 * What is not supported fails the benchmark at run time with a message that
 * names the feature (docs/from-google-benchmark.md); it never yields numbers
 * that mean something else.
 */
#ifndef BENCHLAB_GBENCH_BENCHMARK_H
#define BENCHLAB_GBENCH_BENCHMARK_H

#if defined(__cplusplus) && __cplusplus < 201103L
/* Google Benchmark 1.7.1 also builds C++03 suites (KeepRunning, ArgPair and
 * no lambdas); this layer is written in C++11 and says so here, instead of
 * the errors its C++11 code would give (docs/from-google-benchmark.md). */
#error "benchlab's Google Benchmark layer needs C++11 or later (C++03 is not supported)"
#else /* the layer: C++11 and later */

#include <benchlab.h>
#include <stdint.h>

/* what Google Benchmark's header includes, which suites come to rely on */
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#define BENCHLAB_GBENCH 1
#define BENCHMARK_HAS_CXX11
#define BENCHMARK_OVERRIDE override
#define BENCHMARK_UNUSED __attribute__((unused))
#define BENCHMARK_ALWAYS_INLINE __attribute__((always_inline))
#define BENCHMARK_NOEXCEPT noexcept
#define BENCHMARK_NOEXCEPT_OP(x) noexcept(x)
#define BENCHMARK_DEPRECATED_MSG(msg) __attribute__((deprecated(msg)))
#define BENCHMARK_DISALLOW_COPY_AND_ASSIGN(TypeName)                                               \
    TypeName(const TypeName &) = delete;                                                           \
    TypeName &operator=(const TypeName &) = delete
#define BENCHMARK_BUILTIN_EXPECT(x, y) __builtin_expect(x, y)
#define BENCHMARK_EXPORT
#if defined(__clang__)
#define BENCHMARK_DONT_OPTIMIZE __attribute__((optnone))
#else
#define BENCHMARK_DONT_OPTIMIZE __attribute__((optimize(0)))
#endif

namespace benchmark
{

typedef int64_t IterationCount;
typedef int64_t ComplexityN; /* 1.8.4: SetComplexityN's n */
class State;
/* 1.9.2: Setup()/Teardown() take any callable, lambdas with captures too */
using callback_function = std::function<void(const State &)>;
/* 1.8.0: the default --benchmark_min_time, as Google Benchmark spells it */
const char kDefaultMinTimeStr[] = "0.5s";

enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };
enum BigO { oNone, o1, oN, oNSquared, oNCubed, oLogN, oNLogN, oAuto, oLambda };
typedef double(BigOFunc)(ComplexityN);
typedef double(StatisticsFunc)(const std::vector<double> &);
enum StatisticUnit { kTime, kPercentage };
enum AggregationReportMode {
    ARM_Unspecified = 0,
    ARM_Default = 1U << 0U,
    ARM_FileReportAggregatesOnly = 1U << 1U,
    ARM_DisplayReportAggregatesOnly = 1U << 2U,
    ARM_ReportAggregatesOnly = ARM_FileReportAggregatesOnly | ARM_DisplayReportAggregatesOnly
};

class Counter
{
  public:
    enum Flags {
        kDefaults = 0,
        kIsRate = 1 << 0,
        kAvgThreads = 1 << 1,
        kAvgThreadsRate = kIsRate | kAvgThreads,
        kIsIterationInvariant = 1 << 2,
        kIsIterationInvariantRate = kIsRate | kIsIterationInvariant,
        kAvgIterations = 1 << 3,
        kAvgIterationsRate = kIsRate | kAvgIterations,
        kInvert = 1 << 31
    };
    enum OneK { kIs1000 = 1000, kIs1024 = 1024 };
    Counter(double v = 0., Flags f = kDefaults, OneK k = kIs1000) : value(v), flags(f), oneK(k)
    {
    }
    operator double const &() const
    {
        return value;
    }
    operator double &()
    {
        return value;
    }
    double value;
    Flags flags;
    OneK oneK;
};
inline Counter::Flags operator|(const Counter::Flags &a, const Counter::Flags &b)
{
    return static_cast<Counter::Flags>(static_cast<int>(a) | static_cast<int>(b));
}
typedef std::map<std::string, Counter> UserCounters;

/*
 * ---- keeping the compiler honest: Google Benchmark 1.7.1's constraints ----
 * Under GCC an object larger than a pointer or not trivially copyable is
 * passed as memory only ("m"): with the "r,m" alternative GCC copies the
 * whole object on every call (GCC bug 105519), which would time a 256-byte
 * copy per repetition. Small trivially copyable values may sit in a register.
 */
#if !defined(__GNUC__) || defined(__llvm__) || defined(__INTEL_COMPILER)
template <class Tp> inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp const &value)
{
    __asm__ volatile("" : : "r,m"(value) : "memory");
}
template <class Tp> inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp &value)
{
#if defined(__clang__)
    __asm__ volatile("" : "+r,m"(value) : : "memory");
#else
    __asm__ volatile("" : "+m,r"(value) : : "memory");
#endif
}
/* 1.8.1: a temporary is read and written like a modifiable value */
template <class Tp> inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp &&value)
{
#if defined(__clang__)
    __asm__ volatile("" : "+r,m"(value) : : "memory");
#else
    __asm__ volatile("" : "+m,r"(value) : : "memory");
#endif
}
#else
namespace internal
{
/* may the value go through a register (GCC): small and trivially copyable
 * (of the value a reference names, for DoNotOptimize(Tp &&)'s lvalues) */
template <class Tp> struct InRegister {
    typedef typename std::remove_reference<Tp>::type T;
    static constexpr bool value = std::is_trivially_copyable<T>::value && sizeof(T) <= sizeof(T *);
};
} // namespace internal
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE typename std::enable_if<internal::InRegister<Tp>::value>::type
DoNotOptimize(Tp const &value)
{
    __asm__ volatile("" : : "r,m"(value) : "memory");
}
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE typename std::enable_if<!internal::InRegister<Tp>::value>::type
DoNotOptimize(Tp const &value)
{
    __asm__ volatile("" : : "m"(value) : "memory");
}
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE typename std::enable_if<internal::InRegister<Tp>::value>::type
DoNotOptimize(Tp &value)
{
    __asm__ volatile("" : "+m,r"(value) : : "memory");
}
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE typename std::enable_if<!internal::InRegister<Tp>::value>::type
DoNotOptimize(Tp &value)
{
    __asm__ volatile("" : "+m"(value) : : "memory");
}
/* 1.8.1: a temporary (DoNotOptimize(f(x))) is read and written like a
 * modifiable value, under the same register-or-memory rule */
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE typename std::enable_if<internal::InRegister<Tp>::value>::type
DoNotOptimize(Tp &&value)
{
    __asm__ volatile("" : "+m,r"(value) : : "memory");
}
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE typename std::enable_if<!internal::InRegister<Tp>::value>::type
DoNotOptimize(Tp &&value)
{
    __asm__ volatile("" : "+m"(value) : : "memory");
}
#endif
inline BENCHMARK_ALWAYS_INLINE void ClobberMemory()
{
    bl_clobber();
}

namespace internal
{
class Benchmark;
struct Instance;
/*
 * State::max_iterations: the repetitions this worker's loop runs in all,
 * read when used (bl_max_iterations): with Iterations(n), n from the start;
 * otherwise known once the loop has ended (benchlab sizes its batches as it
 * goes). Read while unknown, it fails the benchmark, naming it, and is 0.
 */
class MaxIterations
{
  public:
    explicit MaxIterations(bl_state *st) : st_(st)
    {
    }
    operator IterationCount() const;

  private:
    bl_state *st_;
};
void RunInstance(bl_state *st);
void SetupInstance(bl_state *st);
void TeardownInstance(bl_state *st);
} // namespace internal

class State
{
  public:
    struct StateIterator {
        struct BENCHMARK_UNUSED Value {
        };
        typedef std::forward_iterator_tag iterator_category;
        typedef Value value_type;
        typedef Value reference;
        typedef Value pointer;
        typedef std::ptrdiff_t difference_type;
        StateIterator() : st_(nullptr), parent_(nullptr)
        {
        }
        StateIterator(bl_state *st, State *parent) : st_(st), parent_(parent)
        {
        }
        BENCHMARK_ALWAYS_INLINE Value operator*() const
        {
            return Value();
        }
        BENCHMARK_ALWAYS_INLINE StateIterator &operator++()
        {
            return *this;
        }
        /* one call per repetition: benchlab's loop, the same as bl_loop() */
        BENCHMARK_ALWAYS_INLINE bool operator!=(StateIterator const &) const
        {
            if (BENCHMARK_BUILTIN_EXPECT(bl_loop(st_), 1))
                return true;
            parent_->in_range_for_ = false;
            return false;
        }

      private:
        bl_state *st_;
        State *parent_;
    };
    BENCHMARK_ALWAYS_INLINE StateIterator begin()
    {
        in_range_for_ = true;
        return StateIterator(st_, this);
    }
    BENCHMARK_ALWAYS_INLINE StateIterator end()
    {
        return StateIterator();
    }
    BENCHMARK_ALWAYS_INLINE bool KeepRunning()
    {
        return bl_loop(st_);
    }
    /* inline while n stays what it was: bl_loop_n's decrement and branch */
    BENCHMARK_ALWAYS_INLINE bool KeepRunningBatch(IterationCount n)
    {
        if (BENCHMARK_BUILTIN_EXPECT(n == batch_n_, 1))
            return bl_loop_n(st_, static_cast<uint64_t>(n));
        return StartKeepRunningBatch(n);
    }

    void PauseTiming()
    {
        bl_pause(st_);
    }
    void ResumeTiming()
    {
        bl_resume(st_);
    }
    void SkipWithError(const std::string &msg);
    void SkipWithMessage(const std::string &msg);
    /* SkipWithError() was called (SkipWithMessage() is a skip, not an error) */
    bool error_occurred() const
    {
        return error_occurred_;
    }
    /* 1.8.0: SkipWithMessage() or SkipWithError() was called */
    bool skipped() const
    {
        return skipped_;
    }
    void SetIterationTime(double seconds);
    void SetBytesProcessed(int64_t bytes)
    {
        counters["bytes_per_second"] =
            Counter(static_cast<double>(bytes), Counter::kIsRate, Counter::kIs1024);
    }
    int64_t bytes_processed() const
    {
        auto it = counters.find("bytes_per_second");
        return it == counters.end() ? 0 : static_cast<int64_t>(it->second.value);
    }
    void SetItemsProcessed(int64_t items)
    {
        counters["items_per_second"] = Counter(static_cast<double>(items), Counter::kIsRate);
    }
    int64_t items_processed() const
    {
        auto it = counters.find("items_per_second");
        return it == counters.end() ? 0 : static_cast<int64_t>(it->second.value);
    }
    void SetComplexityN(int64_t n)
    {
        complexity_n_ = n;
    }
    int64_t complexity_length_n() const
    {
        return complexity_n_;
    }
    void SetLabel(const std::string &label)
    {
        label_ = label;
    }
    void SetLabel(const char *label)
    {
        label_ = label;
    }
    /*
     * Inline, as Google Benchmark's: a field read that the compiler sees.
     * An opaque call here changes how the benchmark's body compiles
     * (xtensor-benchmark's Add2dLoop lost its 64-byte vectorisation and ran
     * 1.45 times slower than under Google Benchmark).
     */
    int64_t range(std::size_t pos = 0) const
    {
        if (BENCHMARK_BUILTIN_EXPECT(pos < range_n_, 1))
            return range_[pos];
        RangeOutOfBounds(pos);
    }
    int64_t range_x() const
    {
        return range(0);
    }
    int64_t range_y() const
    {
        return range(1);
    }
    /* 1.9.5: how many arguments range() has */
    std::size_t range_size() const
    {
        return range_n_;
    }
    /*
     * As Google Benchmark: in a KeepRunning()/KeepRunningBatch() loop, the
     * repetitions started so far, exact at each one (bl_iterations(), read
     * inline); inside `for (auto _ : state)` 0, as Google Benchmark's
     * ranged-for leaves it until the loop ends; after the loop, all of them.
     */
    IterationCount iterations() const
    {
        if (in_range_for_)
            return 0;
        const bl__state_hot *hot = reinterpret_cast<const bl__state_hot *>(st_);
        return static_cast<IterationCount>(hot->end - hot->left);
    }
    /* Inline, as Google Benchmark's: fields the constructor filled from
     * bl_threads() and bl_thread_index(), read where the body uses them */
    int threads() const
    {
        return threads_;
    }
    int thread_index() const
    {
        return thread_index_;
    }
    std::string name() const;

    UserCounters counters;
    /* an IterationCount where it is read (internal::MaxIterations) */
    const internal::MaxIterations max_iterations;

  private:
    State(bl_state *st, const internal::Instance *inst);
    /* range(pos) past the arguments: says so and aborts, as Google
     * Benchmark's assert does */
    [[noreturn]] void RangeOutOfBounds(std::size_t pos) const;
    bl_state *st_;
    const internal::Instance *inst_;
    const int64_t *range_; /* the instance's arguments, range(0) on */
    std::size_t range_n_;  /* how many */
    bool StartKeepRunningBatch(IterationCount n);
    const int thread_index_; /* this thread's, 0 to threads_ - 1 */
    const int threads_;      /* how many run the body at once */
    bool error_occurred_ = false;
    bool skipped_ = false;       /* SkipWithMessage or SkipWithError */
    bool in_range_for_ = false;  /* inside `for (auto _ : state)` */
    IterationCount batch_n_ = 0; /* KeepRunningBatch's n, once called */
    int64_t complexity_n_ = 0;
    std::string label_;
    friend void internal::RunInstance(bl_state *st);
    friend void internal::SetupInstance(bl_state *st);
    friend void internal::TeardownInstance(bl_state *st);
    friend inline void bl__gbench_overhead(bl_state *st);
};

/* The overhead stage's loop: the benchmarks' `for (auto _ : state)` with an
 * empty body, compiled in the suite with the suite's flags. */
inline void bl__gbench_overhead(bl_state *st)
{
    State state(st, nullptr);
    for (auto _ : state) {
    }
}

namespace internal
{

class Benchmark
{
  public:
    virtual ~Benchmark();
    Benchmark *Name(const std::string &name);
    Benchmark *Arg(int64_t x);
    Benchmark *Unit(TimeUnit unit);
    Benchmark *Range(int64_t start, int64_t limit);
    Benchmark *DenseRange(int64_t start, int64_t limit, int step = 1);
    Benchmark *Args(const std::vector<int64_t> &args);
    Benchmark *ArgPair(int64_t x, int64_t y)
    {
        return Args({x, y});
    }
    Benchmark *Ranges(const std::vector<std::pair<int64_t, int64_t>> &ranges);
    Benchmark *ArgsProduct(const std::vector<std::vector<int64_t>> &arglists);
    Benchmark *ArgName(const std::string &name);
    Benchmark *ArgNames(const std::vector<std::string> &names);
    Benchmark *RangePair(int64_t lo1, int64_t hi1, int64_t lo2, int64_t hi2)
    {
        return Ranges({{lo1, hi1}, {lo2, hi2}});
    }
    /* a function, or since 1.9.2 any callable (callback_function) */
    Benchmark *Setup(const callback_function &setup);
    Benchmark *Teardown(const callback_function &teardown);
    /* a function, or since 1.9.5 any callable */
    Benchmark *Apply(const std::function<void(Benchmark *benchmark)> &custom_arguments);
    Benchmark *RangeMultiplier(int multiplier);
    Benchmark *MinTime(double t);
    Benchmark *MinWarmUpTime(double t);
    Benchmark *Iterations(IterationCount n);
    Benchmark *Repetitions(int n);
    Benchmark *ReportAggregatesOnly(bool value = true);
    Benchmark *DisplayAggregatesOnly(bool value = true);
    Benchmark *MeasureProcessCPUTime();
    Benchmark *UseRealTime();
    Benchmark *UseManualTime();
    Benchmark *Complexity(BigO complexity = benchmark::oAuto);
    Benchmark *Complexity(BigOFunc *complexity);
    Benchmark *ComputeStatistics(const std::string &name, StatisticsFunc *statistics,
                                 StatisticUnit unit = kTime);
    Benchmark *Threads(int t);
    Benchmark *ThreadRange(int min_threads, int max_threads);
    Benchmark *DenseThreadRange(int min_threads, int max_threads, int stride = 1);
    Benchmark *ThreadPerCpu();

    virtual void Run(State &state) = 0;
    /* 1.8.0: the family's name, its argument count (-1: none given) and
     * the name of argument `arg` (NULL: none) */
    const char *GetName() const
    {
        return name_.c_str();
    }
    int ArgsCnt() const;
    const char *GetArgName(int arg) const;
    /* Unit()'s, else the default unit (SetDefaultTimeUnit, --benchmark_time_unit) */
    TimeUnit GetTimeUnit() const;

    /* what this layer records; read by the library */
    std::string name_;
    std::vector<std::vector<int64_t>> args_;
    bool args_given_ = false;
    std::vector<std::string> arg_names_;
    std::vector<int> thread_counts_;
    int range_multiplier_ = 8;
    double min_time_ = 0, min_warmup_time_ = 0;
    IterationCount iterations_ = 0;
    int repetitions_ = 0;
    TimeUnit time_unit_ = kNanosecond;
    bool use_default_time_unit_ = true; /* no Unit(): the run's --time-unit */
    bool measure_process_cpu_time_ = false, use_real_time_ = false, use_manual_time_ = false;
    BigO complexity_ = oNone;
    BigOFunc *complexity_lambda_ = nullptr;
    struct Statistic {
        std::string name;
        StatisticsFunc *fn;
        StatisticUnit unit;
    };
    std::vector<Statistic> statistics_; /* ComputeStatistics, in the order given */
    callback_function setup_;
    callback_function teardown_;
    bl_bench_fn overhead_ = &bl__gbench_overhead;
    const char *file_ = nullptr; /* the source file that registered it */

  protected:
    explicit Benchmark(const std::string &name);
    void SetName(const std::string &name)
    {
        name_ = name;
    }
};

class FunctionBenchmark : public Benchmark
{
  public:
    typedef void(Function)(State &);
    FunctionBenchmark(const std::string &name, Function *func) : Benchmark(name), func_(func)
    {
    }
    void Run(State &st) override
    {
        func_(st);
    }

  private:
    Function *func_;
};

template <class Lambda> class LambdaBenchmark : public Benchmark
{
  public:
    template <class OLambda>
    LambdaBenchmark(const std::string &name, OLambda &&lam)
        : Benchmark(name), lambda_(std::forward<OLambda>(lam))
    {
    }
    void Run(State &st) override
    {
        lambda_(st);
    }

  private:
    Lambda lambda_;
};

/* file: where the registration is written (the default argument is read
 * at the call, in the suite's source): the suite's name comes from it when
 * the suite has a main of its own (benchlab.h, BENCHLAB_SUITE) */
Benchmark *RegisterBenchmarkInternal(Benchmark *b, const char *file = __builtin_FILE());
/* Google Benchmark 1.9.2 (PR #1927) takes the benchmark as a unique_ptr
 * (x86-simd-sort's own registration macro, a std::make_unique of a
 * fixture): the registry owns it either way, as it owns the raw pointer's.
 * Inline, so the library's ABI is unchanged; the default argument is
 * again read in the suite's source. */
inline Benchmark *RegisterBenchmarkInternal(std::unique_ptr<Benchmark> b,
                                            const char *file = __builtin_FILE())
{
    return RegisterBenchmarkInternal(b.release(), file);
}

} // namespace internal

/* the name: a std::string since 1.8.0 (a string literal converts) */
inline internal::Benchmark *RegisterBenchmark(const std::string &name,
                                              internal::FunctionBenchmark::Function *fn)
{
    return internal::RegisterBenchmarkInternal(new internal::FunctionBenchmark(name, fn), nullptr);
}
template <class Lambda> internal::Benchmark *RegisterBenchmark(const std::string &name, Lambda &&fn)
{
    using BenchType = internal::LambdaBenchmark<typename std::decay<Lambda>::type>;
    return internal::RegisterBenchmarkInternal(new BenchType(name, std::forward<Lambda>(fn)),
                                               nullptr);
}
template <class Lambda, class... Args>
internal::Benchmark *RegisterBenchmark(const std::string &name, Lambda &&fn, Args &&...args)
{
    return benchmark::RegisterBenchmark(name, [=](benchmark::State &st) { fn(st, args...); });
}

/* 1.9.5 names the registration object benchmark::Benchmark (and keeps
 * internal::Benchmark): both name the one class */
using Benchmark = internal::Benchmark;

class Fixture : public internal::Benchmark
{
  public:
    Fixture() : internal::Benchmark("")
    {
    }
    void Run(State &st) override
    {
        this->SetUp(st);
        this->BenchmarkCase(st);
        this->TearDown(st);
    }
    virtual void SetUp(const State &)
    {
    }
    virtual void TearDown(const State &)
    {
    }
    virtual void SetUp(State &st)
    {
        SetUp(const_cast<const State &>(st));
    }
    virtual void TearDown(State &st)
    {
        TearDown(const_cast<const State &>(st));
    }

  protected:
    virtual void BenchmarkCase(State &) = 0;
};

std::vector<int64_t> CreateRange(int64_t lo, int64_t hi, int multi);
std::vector<int64_t> CreateDenseRange(int64_t start, int64_t limit, int step);

/*
 * Google Benchmark's reporter classes are not supported: benchlab writes
 * the console, JSON and CSV formats itself (docs/from-google-benchmark.md).
 * Declared, never defined, so that a suite deriving from one fails with
 * the compiler naming the class (an incomplete type, and this line), where
 * an undeclared name gave "expected class-name before '{' token".
 */
class BenchmarkReporter; /* not supported by benchlab's layer: no custom reporters */
class ConsoleReporter;   /* not supported by benchlab's layer: no custom reporters */
class JSONReporter;      /* not supported by benchlab's layer: no custom reporters */
class CSVReporter;       /* not supported by benchlab's layer: no custom reporters */

/* Command line: --benchmark_* flags and benchlab's own (docs/from-google-benchmark.md). */
void PrintDefaultHelp(); /* benchlab's --help */
void Initialize(int *argc, char **argv, void (*HelperPrinterf)() = PrintDefaultHelp);
/* 1.9.3: Google Benchmark runs itself again without address-space
 * randomisation; benchlab runs each benchmark in fresh worker processes and
 * its intervals cover what a layout changes: nothing to do, no effect */
inline void MaybeReenterWithoutASLR(int, char **)
{
}
/* 1.8.4: the Google Benchmark API version this layer follows, and benchlab's */
std::string GetBenchmarkVersion();
void Shutdown();
bool ReportUnrecognizedArguments(int argc, char **argv);
size_t RunSpecifiedBenchmarks();
size_t RunSpecifiedBenchmarks(std::string spec);
void SetDefaultTimeUnit(TimeUnit unit);
TimeUnit GetDefaultTimeUnit();
/* the unit's name ("ms") and how many of it make a second */
inline const char *GetTimeUnitString(TimeUnit unit)
{
    return unit == kSecond ? "s" : unit == kMillisecond ? "ms" : unit == kMicrosecond ? "us" : "ns";
}
inline double GetTimeUnitMultiplier(TimeUnit unit)
{
    return unit == kSecond ? 1 : unit == kMillisecond ? 1e3 : unit == kMicrosecond ? 1e6 : 1e9;
}
void AddCustomContext(const std::string &key, const std::string &value);

/*
 * Google Benchmark's hooks into its own runner: a MemoryManager (heap
 * figures of an extra run) and, since 1.8.5, a ProfilerManager (a profiler
 * around an extra run). Declared, so that suites which define one build;
 * benchlab runs no such extra run, so registering one (anything but
 * nullptr) makes RunSpecifiedBenchmarks() refuse to run, naming it, rather
 * than leave the figures out (docs/from-google-benchmark.md: benchlab's
 * --alloc and `benchlab profile` measure these).
 */
class MemoryManager
{
  public:
    static constexpr int64_t TombstoneValue = std::numeric_limits<int64_t>::max();
    struct Result {
        int64_t num_allocs = 0;
        int64_t max_bytes_used = 0;
        int64_t total_allocated_bytes = TombstoneValue;
        int64_t net_heap_growth = TombstoneValue;
        IterationCount memory_iterations = 0;
    };
    virtual ~MemoryManager()
    {
    }
    virtual void Start() = 0;
    /* 1.7.1 overrides the first, 1.8.0 and later the second */
    virtual void Stop(Result *result)
    {
        Stop(*result);
    }
    virtual void Stop(Result &result)
    {
        Stop(&result);
    }
};
void RegisterMemoryManager(MemoryManager *memory_manager);
class ProfilerManager
{
  public:
    virtual ~ProfilerManager()
    {
    }
    virtual void AfterSetupStart() = 0;
    virtual void BeforeTeardownStop() = 0;
};
void RegisterProfilerManager(ProfilerManager *profiler_manager);
void ClearRegisteredBenchmarks();
/* --benchmark_filter as Initialize left it (else the environment's
 * BENCHMARK_FILTER, else ""); SetBenchmarkFilter replaces it for a later
 * RunSpecifiedBenchmarks() */
std::string GetBenchmarkFilter();
void SetBenchmarkFilter(std::string value);
/* --v=N as Initialize read it (else the environment's V, else 0): no
 * effect on benchlab's run */
int32_t GetBenchmarkVerbosity();

/* The machine, as Google Benchmark 1.7.1 describes it to suites (which size
 * their Threads() by num_cpus): read once, from sysconf, /sys and
 * getloadavg; cycles_per_second from the kernel's TSC or cpufreq figure,
 * 0 where it gives none. */
struct CPUInfo {
    struct CacheInfo {
        std::string type;
        int level;
        int size;
        int num_sharing;
    };
    enum Scaling { UNKNOWN, ENABLED, DISABLED };
    int num_cpus;
    Scaling scaling;
    double cycles_per_second;
    std::vector<CacheInfo> caches;
    std::vector<double> load_avg;
    static const CPUInfo &Get();

  private:
    CPUInfo();
    BENCHMARK_DISALLOW_COPY_AND_ASSIGN(CPUInfo);
};
struct SystemInfo {
    std::string name; /* the host name */
    static const SystemInfo &Get();

  private:
    SystemInfo();
    BENCHMARK_DISALLOW_COPY_AND_ASSIGN(SystemInfo);
};

} // namespace benchmark

#define BENCHMARK_PRIVATE_UNIQUE_ID __COUNTER__
#define BENCHMARK_PRIVATE_NAME(...)                                                                \
    BENCHMARK_PRIVATE_CONCAT(benchmark_uniq_, BENCHMARK_PRIVATE_UNIQUE_ID, __VA_ARGS__)
#define BENCHMARK_PRIVATE_CONCAT(a, b, c) BENCHMARK_PRIVATE_CONCAT2(a, b, c)
#define BENCHMARK_PRIVATE_CONCAT2(a, b, c) a##b##c
#define BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method) BaseClass##_##Method##_Benchmark
#define BENCHMARK_PRIVATE_DECLARE(n)                                                               \
    static ::benchmark::internal::Benchmark *BENCHMARK_PRIVATE_NAME(n) BENCHMARK_UNUSED

/* The function as a Function* (static_cast, as Google Benchmark 1.9.5):
 * a function, a template's instance with commas in it (BM<a, b>), or a
 * variable holding a function pointer (`auto BM = Bench<T>;`) */
#define BENCHMARK_PRIVATE_FUNCTION(...)                                                            \
    static_cast<::benchmark::internal::FunctionBenchmark::Function *>(__VA_ARGS__)
#define BENCHMARK(...)                                                                             \
    BENCHMARK_PRIVATE_DECLARE(_benchmark_) = (::benchmark::internal::RegisterBenchmarkInternal(    \
        new ::benchmark::internal::FunctionBenchmark(#__VA_ARGS__,                                 \
                                                     BENCHMARK_PRIVATE_FUNCTION(__VA_ARGS__))))
#define BENCHMARK_WITH_ARG(n, a) BENCHMARK(n)->Arg((a))
#define BENCHMARK_WITH_ARG2(n, a1, a2) BENCHMARK(n)->Args({(a1), (a2)})
#define BENCHMARK_WITH_UNIT(n, t) BENCHMARK(n)->Unit((t))
#define BENCHMARK_RANGE(n, lo, hi) BENCHMARK(n)->Range((lo), (hi))
#define BENCHMARK_RANGE2(n, l1, h1, l2, h2) BENCHMARK(n)->RangePair({{(l1), (h1)}, {(l2), (h2)}})
#define BENCHMARK_CAPTURE(func, test_case_name, ...)                                               \
    BENCHMARK_PRIVATE_DECLARE(_benchmark_) = (::benchmark::internal::RegisterBenchmarkInternal(    \
        new ::benchmark::internal::FunctionBenchmark(                                              \
            #func "/" #test_case_name, [](::benchmark::State &st) { func(st, __VA_ARGS__); })))
#define BENCHMARK_TEMPLATE1(n, a)                                                                  \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal(              \
        new ::benchmark::internal::FunctionBenchmark(#n "<" #a ">",                                \
                                                     BENCHMARK_PRIVATE_FUNCTION(n<a>))))
#define BENCHMARK_TEMPLATE2(n, a, b)                                                               \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal(              \
        new ::benchmark::internal::FunctionBenchmark(#n "<" #a "," #b ">",                         \
                                                     BENCHMARK_PRIVATE_FUNCTION(n<a, b>))))
#define BENCHMARK_TEMPLATE(n, ...)                                                                 \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal(              \
        new ::benchmark::internal::FunctionBenchmark(#n "<" #__VA_ARGS__ ">",                      \
                                                     BENCHMARK_PRIVATE_FUNCTION(n<__VA_ARGS__>))))
/* 1.8.4: a templated function with arguments, named func<a>/case_name */
#define BENCHMARK_TEMPLATE1_CAPTURE(func, a, test_case_name, ...)                                  \
    BENCHMARK_CAPTURE(func<a>, test_case_name, __VA_ARGS__)
#define BENCHMARK_TEMPLATE2_CAPTURE(func, a, b, test_case_name, ...)                               \
    BENCHMARK_PRIVATE_DECLARE(func) = (::benchmark::internal::RegisterBenchmarkInternal(           \
        new ::benchmark::internal::FunctionBenchmark(                                              \
            #func "<" #a "," #b ">/" #test_case_name,                                              \
            [](::benchmark::State &st) { func<a, b>(st, __VA_ARGS__); })))

#define BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method)                                             \
    class BaseClass##_##Method##_Benchmark : public BaseClass                                      \
    {                                                                                              \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark()                                                         \
        {                                                                                          \
            this->SetName(#BaseClass "/" #Method);                                                 \
        }                                                                                          \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a)                                \
    class BaseClass##_##Method##_Benchmark : public BaseClass<a>                                   \
    {                                                                                              \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark()                                                         \
        {                                                                                          \
            this->SetName(#BaseClass "<" #a ">/" #Method);                                         \
        }                                                                                          \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)                             \
    class BaseClass##_##Method##_Benchmark : public BaseClass<a, b>                                \
    {                                                                                              \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark()                                                         \
        {                                                                                          \
            this->SetName(#BaseClass "<" #a "," #b ">/" #Method);                                  \
        }                                                                                          \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, ...)                               \
    class BaseClass##_##Method##_Benchmark : public BaseClass<__VA_ARGS__>                         \
    {                                                                                              \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark()                                                         \
        {                                                                                          \
            this->SetName(#BaseClass "<" #__VA_ARGS__ ">/" #Method);                               \
        }                                                                                          \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_DEFINE_F(BaseClass, Method)                                                      \
    BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method)                                                 \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_DEFINE_F(BaseClass, Method, a)                                         \
    BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a)                                    \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE2_DEFINE_F(BaseClass, Method, a, b)                                      \
    BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)                                 \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_DEFINE_F(BaseClass, Method, ...)                                        \
    BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__)                           \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_REGISTER_F(BaseClass, Method)                                                    \
    BENCHMARK_PRIVATE_REGISTER_F(BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method))
#define BENCHMARK_PRIVATE_REGISTER_F(TestName)                                                     \
    BENCHMARK_PRIVATE_DECLARE(TestName) =                                                          \
        (::benchmark::internal::RegisterBenchmarkInternal(new TestName()))
/* 1.9.3: one body for a templated fixture, instantiated with
 * BENCHMARK_TEMPLATE_INSTANTIATE_F(Base, Method, types...) as
 * Base<types>/Method */
#define BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method)                                \
    BaseClass##_##Method##_BenchmarkTemplate
#define BENCHMARK_TEMPLATE_METHOD_F(BaseClass, Method)                                             \
    template <class... Args>                                                                       \
    class BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method) : public BaseClass<Args...>  \
    {                                                                                              \
      protected:                                                                                   \
        using Base = BaseClass<Args...>;                                                           \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };                                                                                             \
    template <class... Args>                                                                       \
    void BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method)<Args...>::BenchmarkCase
#define BENCHMARK_TEMPLATE_PRIVATE_INSTANTIATE_F(BaseClass, Method, UniqueName, ...)               \
    class UniqueName                                                                               \
        : public BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method)<__VA_ARGS__>          \
    {                                                                                              \
      public:                                                                                      \
        UniqueName()                                                                               \
        {                                                                                          \
            this->SetName(#BaseClass "<" #__VA_ARGS__ ">/" #Method);                               \
        }                                                                                          \
    };                                                                                             \
    BENCHMARK_PRIVATE_DECLARE(BaseClass##_##Method##_Benchmark) =                                  \
        (::benchmark::internal::RegisterBenchmarkInternal(new UniqueName()))
#define BENCHMARK_TEMPLATE_INSTANTIATE_F(BaseClass, Method, ...)                                   \
    BENCHMARK_TEMPLATE_PRIVATE_INSTANTIATE_F(                                                      \
        BaseClass, Method, BENCHMARK_PRIVATE_NAME(BaseClass##Method), __VA_ARGS__)
#define BENCHMARK_F(BaseClass, Method)                                                             \
    BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method)                                                 \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_F(BaseClass, Method, a)                                                \
    BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a)                                    \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE2_F(BaseClass, Method, a, b)                                             \
    BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)                                 \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_F(BaseClass, Method, ...)                                               \
    BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__)                           \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase

#define BENCHMARK_MAIN()                                                                           \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        bl_register_suite("", __FILE__); /* the suite's name: this file's stem */                  \
        ::benchmark::Initialize(&argc, argv);                                                      \
        if (::benchmark::ReportUnrecognizedArguments(argc, argv))                                  \
            return 1;                                                                              \
        ::benchmark::RunSpecifiedBenchmarks();                                                     \
        ::benchmark::Shutdown();                                                                   \
        return 0;                                                                                  \
    }                                                                                              \
    int main(int, char **)

#endif /* C++11 and later */
#endif /* BENCHLAB_GBENCH_BENCHMARK_H */
