/*
 * gbench.cc - libbenchlab-gbench: Google Benchmark's registration, naming
 * and State on benchlab's C API (include/benchlab-gbench/benchmark/benchmark.h).
 *
 * Families registered by BENCHMARK() and friends are expanded into
 * instances exactly as Google Benchmark does (arguments, then thread
 * counts; names function/args/min_time/.../threads:N), and each instance
 * becomes one bl_bench_def with .raw_name and .data pointing at it. The
 * engine then runs them like any benchlab benchmark; this file measures
 * nothing. What a family asks for that benchlab cannot honour fails that
 * benchmark with a message naming the feature.
 */
#include <benchmark/benchmark.h>

#include "system.h"

#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <numeric>
#include <unistd.h>

namespace benchmark
{
namespace internal
{

struct Instance {
    Benchmark *family;
    std::vector<int64_t> args;
    int threads;
    std::string name;
    std::string complexity_group; /* the name without its arguments (Google Benchmark's BigO) */
    std::vector<bl_statistic> statistics; /* the family's ComputeStatistics, then {NULL} */
    int thread_list[2];
    bool too_many_threads; /* listed, and fails when run */
    bl_bench_def def;
};

namespace
{

std::vector<std::unique_ptr<Benchmark>> &families()
{
    static std::vector<std::unique_ptr<Benchmark>> f;
    return f;
}
std::vector<std::unique_ptr<Instance>> &instances()
{
    static std::vector<std::unique_ptr<Instance>> i;
    return i;
}
std::vector<std::string> &saved_args()
{
    static std::vector<std::string> a;
    return a;
}
TimeUnit default_time_unit = kNanosecond;

/* Google Benchmark's AddRange: lo, the powers of mult strictly inside, hi. */
template <typename T> void add_powers(std::vector<T> *dst, T lo, T hi, int mult)
{
    const T kmax = std::numeric_limits<T>::max();
    for (T i = static_cast<T>(1); i <= hi; i *= static_cast<T>(mult)) {
        if (i >= lo)
            dst->push_back(i);
        if (i > kmax / mult)
            break;
    }
}
template <typename T> void add_range(std::vector<T> *dst, T lo, T hi, int mult)
{
    dst->push_back(lo);
    if (lo == hi)
        return;
    if (lo + 1 == hi) {
        dst->push_back(hi);
        return;
    }
    const T lo_inner = static_cast<T>(lo + 1), hi_inner = static_cast<T>(hi - 1);
    if (lo_inner < 0) {
        std::vector<T> neg;
        add_powers(&neg, static_cast<T>(-std::min(hi_inner, T{-1})), static_cast<T>(-lo_inner),
                   mult);
        for (auto it = neg.rbegin(); it != neg.rend(); ++it)
            dst->push_back(static_cast<T>(-*it));
    }
    if (lo < 0 && hi >= 0)
        dst->push_back(0);
    if (hi_inner > 0)
        add_powers(dst, std::max(lo_inner, T{1}), hi_inner, mult);
    if (hi != dst->back())
        dst->push_back(hi);
}

void die(const char *what)
{
    std::fprintf(stderr, "benchlab-gbench: %s\n", what);
    std::exit(2);
}

std::string format_double(const char *fmt, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

/* The instance's name as Google Benchmark's BenchmarkName::str(). */
std::string instance_name(const Benchmark &b, const std::vector<int64_t> &args, int threads)
{
    std::vector<std::string> parts;
    parts.push_back(b.name_);
    std::string a;
    for (size_t i = 0; i < args.size(); i++) {
        if (!a.empty())
            a += '/';
        if (i < b.arg_names_.size() && !b.arg_names_[i].empty())
            a += b.arg_names_[i] + ":";
        a += std::to_string(args[i]);
    }
    parts.push_back(a);
    if (b.min_time_ != 0)
        parts.push_back(format_double("min_time:%0.3f", b.min_time_));
    if (b.min_warmup_time_ != 0)
        parts.push_back(format_double("min_warmup_time:%0.3f", b.min_warmup_time_));
    if (b.iterations_ != 0)
        parts.push_back("iterations:" + std::to_string(static_cast<unsigned long>(b.iterations_)));
    if (b.repetitions_ != 0)
        parts.push_back("repeats:" + std::to_string(b.repetitions_));
    std::string tt;
    if (b.measure_process_cpu_time_)
        tt = "process_time";
    if (b.use_manual_time_)
        tt += std::string(tt.empty() ? "" : "/") + "manual_time";
    else if (b.use_real_time_)
        tt += std::string(tt.empty() ? "" : "/") + "real_time";
    parts.push_back(tt);
    if (!b.thread_counts_.empty())
        parts.push_back("threads:" + std::to_string(threads));
    std::string s;
    for (const auto &p : parts) {
        if (!s.empty() && !p.empty())
            s += '/';
        s += p;
    }
    return s;
}

/* Google Benchmark's curves as benchlab's (enum bl_complexity). */
int complexity_of(BigO o)
{
    switch (o) {
    case o1:
        return BL_O1;
    case oN:
        return BL_ON;
    case oNSquared:
        return BL_ON2;
    case oNCubed:
        return BL_ON3;
    case oLogN:
        return BL_OLOGN;
    case oNLogN:
        return BL_ONLOGN;
    case oAuto:
        return BL_COMPLEXITY_AUTO;
    case oLambda:
        return BL_OUSER;
    default:
        return BL_COMPLEXITY_NONE;
    }
}

/* The lambda of Complexity(BigOFunc *) of the instance this worker runs
 * (one per worker process), behind benchlab's double (*)(double) curve. */
std::atomic<BigOFunc *> worker_lambda{nullptr};
double lambda_curve(double n)
{
    BigOFunc *f = worker_lambda.load();
    return f ? f(static_cast<IterationCount>(n)) : NAN;
}

/* A ComputeStatistics function behind benchlab's bl_statistic: data is the
 * family's Benchmark::Statistic. */
double run_statistic(const double *values, size_t n, const void *data)
{
    auto *s = static_cast<const Benchmark::Statistic *>(data);
    return s->fn(std::vector<double>(values, values + n));
}

/* Google Benchmark's counter flags as benchlab's (enum bl_counter_flags). */
unsigned counter_flags(const Counter &c)
{
    int f = c.flags;
    unsigned out = 0;
    if (f & Counter::kIsRate)
        out |= BL_COUNTER_RATE;
    if (f & Counter::kAvgThreads)
        out |= BL_COUNTER_AVG_THREADS;
    if (f & Counter::kIsIterationInvariant)
        out |= BL_COUNTER_ITERATION_INVARIANT;
    if (f & Counter::kAvgIterations)
        out |= BL_COUNTER_AVG_ITERATIONS;
    if (f & Counter::kInvert)
        out |= BL_COUNTER_INVERT;
    if (c.oneK == Counter::kIs1024)
        out |= BL_COUNTER_1024;
    return out;
}

/*
 * Hand the State's figures to benchlab: bytes and items processed as
 * benchlab's MB/s and items/s, every other counter through
 * bl_report_counter, which applies Google Benchmark's flags.
 */
void report(bl_state *st, const State &state)
{
    double iters = static_cast<double>(bl_iterations(st));
    if (iters <= 0)
        return;
    for (const auto &kv : state.counters) {
        const std::string &name = kv.first;
        const Counter &c = kv.second;
        if (name == "bytes_per_second" && c.flags == Counter::kIsRate) {
            bl_set_bytes_per_op(st, c.value / iters);
            continue;
        }
        if (name == "items_per_second" && c.flags == Counter::kIsRate) {
            bl_set_items_per_op(st, c.value / iters);
            continue;
        }
        bl_report_counter(st, name.c_str(), c.value, counter_flags(c));
    }
}

void build_instances()
{
    static bool built = false;
    if (built)
        return;
    built = true;
    for (auto &fp : families()) {
        Benchmark *b = fp.get();
        if (!b)
            continue;
        std::vector<std::vector<int64_t>> args = b->args_;
        if (args.empty())
            args.push_back({});
        std::vector<int> threads = b->thread_counts_;
        bool explicit_threads = !threads.empty();
        if (threads.empty())
            threads.push_back(1);
        for (const auto &a : args) {
            for (int t : threads) {
                auto in = std::unique_ptr<Instance>(new Instance());
                in->family = b;
                in->args = a;
                in->threads = t;
                in->name = instance_name(*b, a, t);
                /* Google Benchmark never runs nor lists these */
                if (in->name.rfind("DISABLED_", 0) == 0)
                    continue;
                if (t < 1)
                    die(("benchmark '" + in->name + "': thread count " + std::to_string(t) +
                         " is below 1")
                            .c_str());
                /* more than benchlab runs: listed as Google Benchmark lists
                 * it, and only this benchmark fails when run (RunInstance) */
                in->too_many_threads = t > BL_MAX_THREADS;
                in->thread_list[0] = t;
                in->thread_list[1] = BL__THREADS_END;
                bl_bench_def &d = in->def;
                d.name = in->name.c_str();
                d.fn = &RunInstance;
                d.overhead_fn = b->overhead_;
                d.file = b->file_; /* NULL: RegisterBenchmark, written in no file of ours */
                d.line = 0;
                d.raw_name = 1;
                d.data = in.get();
                if (explicit_threads && !in->too_many_threads)
                    d.threads = in->thread_list;
                /* the family's own plan, on benchlab's per-benchmark fields */
                d.iterations = static_cast<long long>(b->iterations_);
                d.time_s = b->min_time_;
                d.warmup_s = b->min_warmup_time_;
                d.count = b->repetitions_;
                d.manual_time = b->use_manual_time_;
                d.real_time = b->use_real_time_;              /* counters' rates over wall time */
                d.process_cpu = b->measure_process_cpu_time_; /* the process's CPU clock */
                /* Unit(); without it, the run's --time-unit, which
                 * RunSpecifiedBenchmarks sets to the default unit */
                d.time_unit =
                    b->use_default_time_unit_ ? nullptr : GetTimeUnitString(b->time_unit_);
                if (b->setup_)
                    d.global_setup = &SetupInstance;
                if (b->teardown_)
                    d.global_cleanup = &TeardownInstance;
                if (!b->statistics_.empty()) {
                    /* computed over the launches by the suite's own runner */
                    for (const auto &stat : b->statistics_)
                        in->statistics.push_back(
                            {stat.name.c_str(), &run_statistic, &stat, stat.unit == kPercentage});
                    in->statistics.push_back(bl_statistic{});
                    d.statistics = in->statistics.data();
                }
                if (b->complexity_ != oNone) {
                    /* fitted over the family's instances by the n each sets
                     * (SetComplexityN), as Google Benchmark's BigO and RMS */
                    in->complexity_group = instance_name(*b, {}, t);
                    d.complexity = complexity_of(b->complexity_);
                    d.complexity_group = in->complexity_group.c_str();
                    if (b->complexity_ == oLambda) {
                        d.complexity_curve = &lambda_curve;
                        d.complexity_curve_name = "f(N)";
                    }
                }
                bl_register(&in->def);
                instances().push_back(std::move(in));
            }
        }
    }
}

bool initialized = false; /* Initialize read the command line */

int32_t verbosity()
{
    const char *v = env_of("v");
    return v && *v ? static_cast<int32_t>(std::atoi(v)) : 0;
}
int32_t verbosity_flag = verbosity(); /* --v=N, else V, else 0 */
std::string filter_flag;              /* --benchmark_filter, else BENCHMARK_FILTER */
bool filter_set = false;              /* SetBenchmarkFilter was called */

/* a --benchmark_time_unit flag (or -benchmark_time_unit); *unit is its value
 * when it is one of Google Benchmark's, *valid says so */
bool time_unit_flag(const char *a, TimeUnit *unit, bool *valid)
{
    const char *p = std::strncmp(a, "--", 2) == 0 ? a + 2 : a[0] == '-' ? a + 1 : nullptr;
    if (!p || std::strncmp(p, "benchmark_time_unit", 19) != 0 || (p[19] && p[19] != '='))
        return false;
    const char *v = p[19] ? p + 20 : "";
    static const TimeUnit units[] = {kNanosecond, kMicrosecond, kMillisecond, kSecond};
    *valid = false;
    for (TimeUnit u : units)
        if (std::strcmp(v, GetTimeUnitString(u)) == 0) {
            *unit = u;
            *valid = true;
        }
    return true;
}

/* argv as the kernel saw it, for a main that never called Initialize */
std::vector<std::string> proc_cmdline()
{
    std::vector<std::string> a;
    std::ifstream f("/proc/self/cmdline", std::ios::binary);
    std::string s;
    while (std::getline(f, s, '\0'))
        a.push_back(s);
    return a;
}

} // namespace

void RunInstance(bl_state *st)
{
    auto *in = static_cast<const Instance *>(bl_bench_data(st));
    if (!in) {
        bl_fail(st, "benchlab-gbench: an instance without its data");
        return;
    }
    worker_lambda = in->family->complexity_lambda_;
    if (in->too_many_threads) {
        std::string why = "Threads(" + std::to_string(in->threads) + "): benchlab runs at most " +
                          std::to_string(BL_MAX_THREADS) + " threads per benchmark";
        bl_fail(st, why.c_str());
        return;
    }
    State state(st, in);
    in->family->Run(state);
    if (!state.label_.empty())
        bl_set_label(st, state.label_.c_str());
    if (state.complexity_n_ > 0 && in->family->complexity_ != oNone)
        bl_set_complexity_n(st, state.complexity_n_); /* the n of the family's fit */
    if (!state.skipped_)
        report(st, state);
}

void SetupInstance(bl_state *st)
{
    auto *in = static_cast<const Instance *>(bl_bench_data(st));
    if (in && in->family->setup_) {
        State state(st, in);
        in->family->setup_(state);
    }
}

void TeardownInstance(bl_state *st)
{
    auto *in = static_cast<const Instance *>(bl_bench_data(st));
    if (in && in->family->teardown_) {
        State state(st, in);
        in->family->teardown_(state);
    }
}

Benchmark *RegisterBenchmarkInternal(Benchmark *b, const char *file)
{
    b->file_ = file;
    families().emplace_back(b);
    return b;
}

/* ---- the builder ---- */

Benchmark::Benchmark(const std::string &name) : name_(name)
{
}
int Benchmark::ArgsCnt() const
{
    /* Google Benchmark's: the first argument list's length, -1 without one
     * (an ArgNames() list stands for it then) */
    if (!args_.empty())
        return static_cast<int>(args_.front().size());
    return arg_names_.empty() ? -1 : static_cast<int>(arg_names_.size());
}
const char *Benchmark::GetArgName(int arg) const
{
    if (arg < 0 || static_cast<size_t>(arg) >= arg_names_.size())
        return nullptr;
    return arg_names_[static_cast<size_t>(arg)].c_str();
}
Benchmark::~Benchmark() = default;
Benchmark *Benchmark::Name(const std::string &name)
{
    name_ = name;
    return this;
}
Benchmark *Benchmark::Arg(int64_t x)
{
    args_.push_back({x});
    return this;
}
Benchmark *Benchmark::Unit(TimeUnit unit)
{
    /* Google Benchmark's outputs show this benchmark's times in it
     * (.time_unit); benchlab's own stay in ns */
    time_unit_ = unit;
    use_default_time_unit_ = false;
    return this;
}
TimeUnit Benchmark::GetTimeUnit() const
{
    return use_default_time_unit_ ? GetDefaultTimeUnit() : time_unit_;
}
Benchmark *Benchmark::Range(int64_t start, int64_t limit)
{
    if (start > limit || range_multiplier_ < 2)
        die(("Range(" + std::to_string(start) + ", " + std::to_string(limit) + ") of " + name_ +
             ": needs start <= limit and RangeMultiplier >= 2")
                .c_str());
    std::vector<int64_t> v;
    add_range(&v, start, limit, range_multiplier_);
    for (int64_t i : v)
        args_.push_back({i});
    return this;
}
Benchmark *Benchmark::DenseRange(int64_t start, int64_t limit, int step)
{
    if (start > limit || step < 1)
        die(("DenseRange of " + name_ + ": needs start <= limit and step >= 1").c_str());
    for (int64_t a : CreateDenseRange(start, limit, step))
        args_.push_back({a});
    return this;
}
Benchmark *Benchmark::Args(const std::vector<int64_t> &args)
{
    args_.push_back(args);
    return this;
}
Benchmark *Benchmark::Ranges(const std::vector<std::pair<int64_t, int64_t>> &ranges)
{
    std::vector<std::vector<int64_t>> lists(ranges.size());
    for (size_t i = 0; i < ranges.size(); i++) {
        if (ranges[i].first > ranges[i].second || range_multiplier_ < 2)
            die(("Ranges of " + name_ + ": needs start <= limit and RangeMultiplier >= 2").c_str());
        add_range(&lists[i], ranges[i].first, ranges[i].second, range_multiplier_);
    }
    return ArgsProduct(lists);
}
Benchmark *Benchmark::ArgsProduct(const std::vector<std::vector<int64_t>> &arglists)
{
    /* the first list varies fastest, as Google Benchmark does */
    std::vector<size_t> idx(arglists.size());
    size_t total = 1;
    for (const auto &l : arglists)
        total *= l.size();
    for (size_t i = 0; i < total; i++) {
        std::vector<int64_t> a;
        for (size_t k = 0; k < arglists.size(); k++)
            a.push_back(arglists[k][idx[k]]);
        args_.push_back(a);
        size_t k = 0;
        do {
            idx[k] = (idx[k] + 1) % arglists[k].size();
        } while (idx[k++] == 0 && k < arglists.size());
    }
    return this;
}
Benchmark *Benchmark::ArgName(const std::string &name)
{
    arg_names_ = {name};
    return this;
}
Benchmark *Benchmark::ArgNames(const std::vector<std::string> &names)
{
    arg_names_ = names;
    return this;
}
Benchmark *Benchmark::Setup(const callback_function &setup)
{
    setup_ = setup;
    return this;
}
Benchmark *Benchmark::Teardown(const callback_function &teardown)
{
    teardown_ = teardown;
    return this;
}
Benchmark *Benchmark::Apply(const std::function<void(Benchmark *benchmark)> &custom_arguments)
{
    custom_arguments(this);
    return this;
}
Benchmark *Benchmark::RangeMultiplier(int multiplier)
{
    range_multiplier_ = multiplier;
    return this;
}
Benchmark *Benchmark::MinTime(double t)
{
    min_time_ = t;
    return this;
}
Benchmark *Benchmark::MinWarmUpTime(double t)
{
    min_warmup_time_ = t;
    return this;
}
Benchmark *Benchmark::Iterations(IterationCount n)
{
    iterations_ = n;
    return this;
}
Benchmark *Benchmark::Repetitions(int n)
{
    repetitions_ = n;
    return this;
}
Benchmark *Benchmark::ReportAggregatesOnly(bool)
{
    return this; /* display only */
}
Benchmark *Benchmark::DisplayAggregatesOnly(bool)
{
    return this; /* display only */
}
Benchmark *Benchmark::MeasureProcessCPUTime()
{
    measure_process_cpu_time_ = true;
    return this;
}
Benchmark *Benchmark::UseRealTime()
{
    use_real_time_ = true;
    return this;
}
Benchmark *Benchmark::UseManualTime()
{
    use_manual_time_ = true;
    return this;
}
Benchmark *Benchmark::Complexity(BigO complexity)
{
    complexity_ = complexity;
    return this;
}
Benchmark *Benchmark::Complexity(BigOFunc *complexity)
{
    complexity_lambda_ = complexity;
    complexity_ = oLambda;
    return this;
}
Benchmark *Benchmark::ComputeStatistics(const std::string &name, StatisticsFunc *statistics,
                                        StatisticUnit unit)
{
    statistics_.push_back({name, statistics, unit});
    return this;
}
Benchmark *Benchmark::Threads(int t)
{
    thread_counts_.push_back(t);
    return this;
}
Benchmark *Benchmark::ThreadRange(int min_threads, int max_threads)
{
    if (min_threads < 1 || min_threads > max_threads)
        die(("ThreadRange of " + name_ + ": needs 1 <= min <= max").c_str());
    add_range(&thread_counts_, min_threads, max_threads, 2);
    return this;
}
Benchmark *Benchmark::DenseThreadRange(int min_threads, int max_threads, int stride)
{
    if (min_threads < 1 || min_threads > max_threads || stride < 1)
        die(("DenseThreadRange of " + name_ + ": needs 1 <= min <= max, stride >= 1").c_str());
    for (long long i = min_threads; i < max_threads; i += stride) /* wider: no overflow */
        thread_counts_.push_back(static_cast<int>(i));
    thread_counts_.push_back(max_threads);
    return this;
}
Benchmark *Benchmark::ThreadPerCpu()
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    thread_counts_.push_back(n > 0 ? static_cast<int>(n) : 1);
    return this;
}

} // namespace internal

/* ---- State ---- */

State::State(bl_state *st, const internal::Instance *inst)
    : max_iterations(st), st_(st), inst_(inst), range_(inst ? inst->args.data() : nullptr),
      range_n_(inst ? inst->args.size() : 0), thread_index_(bl_thread_index(st)),
      threads_(bl_threads(st))
{
}

internal::MaxIterations::operator IterationCount() const
{
    uint64_t n = bl_max_iterations(st_);
    if (n == 0)
        bl_fail(st_, "state.max_iterations read before the loop ended: benchlab sizes its batches "
                     "as it goes, so the count is known only after the loop, or from the start "
                     "with Iterations(n)");
    return static_cast<IterationCount>(n);
}

void State::RangeOutOfBounds(std::size_t pos) const
{
    std::fprintf(stderr, "benchlab-gbench: %s: range(%zu): the benchmark has %zu argument%s\n",
                 inst_ ? inst_->name.c_str() : "?", pos, range_n_, range_n_ == 1 ? "" : "s");
    std::abort();
}

/* Google Benchmark's: the family's name (BM_x, Fixture/Method, BM_x/capture),
 * without the instance's arguments, threads or options */
std::string State::name() const
{
    return inst_ ? inst_->family->name_ : std::string();
}

/* KeepRunningBatch's first call, or a call with another n */
bool State::StartKeepRunningBatch(IterationCount n)
{
    if (n < 1) {
        SkipWithError("KeepRunningBatch(n): n must be at least 1");
        return false;
    }
    if (batch_n_ == 0) {
        /* the first call, before any repetition: benchlab's batches become
         * multiples of n, so that a step of n never straddles two batches */
        batch_n_ = n;
        bl_set_batch_multiple(st_, static_cast<uint64_t>(n));
    } else if (batch_n_ != n) {
        SkipWithError("KeepRunningBatch(n) with a different n in the same run is not supported");
        return false;
    }
    return bl_loop_n(st_, static_cast<uint64_t>(n));
}

void State::SkipWithError(const std::string &msg)
{
    error_occurred_ = true;
    skipped_ = true;
    bl_fail(st_, msg.c_str());
}

void State::SkipWithMessage(const std::string &msg)
{
    skipped_ = true; /* skipped, not an error: error_occurred() stays false */
    bl_skip(st_, msg.c_str());
}

void State::SetIterationTime(double seconds)
{
    /* Google Benchmark keeps it only for UseManualTime(): so do we */
    if (inst_ && inst_->family->use_manual_time_)
        bl_set_iteration_time(st_, seconds);
}

/* ---- ranges, time unit, context ---- */

/* Checked as Google Benchmark does (BM_CHECK, an abort), naming the call: a multiplier
 * below 2 or a step below 1 would never reach the limit, nor a += past INT64_MAX. */
std::vector<int64_t> CreateRange(int64_t lo, int64_t hi, int multi)
{
    if (lo > hi || multi < 2)
        internal::die(("CreateRange(" + std::to_string(lo) + ", " + std::to_string(hi) + ", " +
                       std::to_string(multi) + "): needs lo <= hi and multi >= 2")
                          .c_str());
    std::vector<int64_t> v;
    internal::add_range(&v, lo, hi, multi);
    return v;
}

std::vector<int64_t> CreateDenseRange(int64_t start, int64_t limit, int step)
{
    if (start > limit || step < 1)
        internal::die(("CreateDenseRange(" + std::to_string(start) + ", " + std::to_string(limit) +
                       ", " + std::to_string(step) + "): needs start <= limit and step >= 1")
                          .c_str());
    std::vector<int64_t> v;
    const uint64_t n = (static_cast<uint64_t>(limit) - static_cast<uint64_t>(start)) / step;
    for (uint64_t k = 0; k <= n; k++)
        v.push_back(static_cast<int64_t>(static_cast<uint64_t>(start) + k * step));
    return v;
}

void SetDefaultTimeUnit(TimeUnit unit)
{
    internal::default_time_unit = unit;
}

TimeUnit GetDefaultTimeUnit()
{
    return internal::default_time_unit;
}

void AddCustomContext(const std::string &, const std::string &)
{
    /* Google Benchmark's JSON context is not written yet: nothing to add to */
}

std::string GetBenchmarkVersion()
{
    return "v1.9.5 (benchlab " BENCHLAB_VERSION_STRING ")";
}

namespace internal
{
namespace
{
/* what the suite registered (nullptr takes it back, as in Google Benchmark) */
MemoryManager *memory_manager = nullptr;
ProfilerManager *profiler_manager = nullptr;
} // namespace
} // namespace internal

void RegisterMemoryManager(MemoryManager *memory_manager)
{
    internal::memory_manager = memory_manager;
}

void RegisterProfilerManager(ProfilerManager *profiler_manager)
{
    internal::profiler_manager = profiler_manager;
}

void PrintDefaultHelp()
{
    /* benchlab's --help names the --benchmark_* flags too */
    char prog[] = "benchmark", help[] = "--help";
    char *argv[] = {prog, help, nullptr};
    bl_main(2, argv);
}

void ClearRegisteredBenchmarks()
{
    internal::families().clear();
}

/* ---- the command line ---- */

void Initialize(int *argc, char **argv, void (*)())
{
    auto &saved = internal::saved_args();
    saved.clear();
    if (*argc < 1)
        return;
    /* a worker started with the run's command line: its own arguments come
     * from the environment, and argv is taken as the run's main took it */
    bool worker = internal::take_worker_args(argv[0], &saved);
    /* a worker or a listing for a runner: every argument is benchlab's */
    if (!worker && *argc >= 2 &&
        (std::strcmp(argv[1], "--benchlab-worker") == 0 ||
         std::strcmp(argv[1], "--benchlab-list") == 0 ||
         std::strcmp(argv[1], "--benchlab-statistics") == 0)) {
        for (int i = 0; i < *argc; i++)
            saved.push_back(argv[i]);
        /* a worker's main sees the suite's own arguments, as the run did
         * (BENCHLAB_GBENCH_ARGS, set below), in the slots argv has */
        static std::vector<std::string> own;
        own.clear();
        const char *env = std::getenv("BENCHLAB_GBENCH_ARGS");
        for (const char *p = env; p && *p;) {
            const char *e = std::strchr(p, '\x1f');
            own.push_back(e ? std::string(p, static_cast<size_t>(e - p)) : std::string(p));
            p = e ? e + 1 : p + std::strlen(p);
        }
        int n = 1;
        for (size_t k = 0; k < own.size() && n < *argc; k++)
            argv[n++] = &own[k][0];
        *argc = n;
        argv[n] = nullptr;
        return;
    }
    /* benchlab's run gets argv[0] and the flags taken off argv; what is
     * left stays in argv for the suite's own main, as Google Benchmark
     * leaves it (ReportUnrecognizedArguments complains, if called) */
    if (!worker) {
        internal::set_suite_argv(*argc, argv);
        saved.push_back(argv[0]);
        internal::initialized = true;
    }
    const char *env_filter = internal::env_of("benchmark_filter");
    internal::filter_flag = env_filter ? env_filter : "";
    for (const std::string &f : internal::env_flags()) {
        TimeUnit unit;
        bool valid;
        if (!worker && internal::time_unit_flag(f.c_str(), &unit, &valid) && valid)
            SetDefaultTimeUnit(unit);
        if (!worker)
            saved.push_back(f);
    }
    int kept = 1;
    for (int i = 1; i < *argc;) {
        const char *a = argv[i];
        int ours = 0;
        TimeUnit unit;
        bool valid;
        if (!worker && internal::time_unit_flag(a, &unit, &valid) && valid)
            SetDefaultTimeUnit(unit); /* as Google Benchmark: a later call still wins */
        if (std::strncmp(a, "--benchmark_", 12) == 0 || std::strncmp(a, "-benchmark_", 11) == 0) {
            ours = 1;
            const char *f = a + (a[1] == '-' ? 2 : 1);
            if (std::strncmp(f, "benchmark_filter=", 17) == 0)
                internal::filter_flag = f + 17;
        } else if (std::strncmp(a, "--v=", 4) == 0 || std::strncmp(a, "-v=", 3) == 0) {
            /* Google Benchmark's verbosity: taken off, read by
             * GetBenchmarkVerbosity, no effect on the run */
            internal::verbosity_flag = static_cast<int32_t>(std::atoi(std::strchr(a, '=') + 1));
            i++;
            continue;
        } else
            ours = bl_main_option_args(*argc, argv, i); /* bl_main's own table */
        if (ours) {
            for (int k = 0; k < ours && !worker; k++)
                saved.push_back(argv[i + k]);
            i += ours;
            continue;
        }
        argv[kept++] = argv[i++];
    }
    *argc = kept;
    argv[kept] = nullptr;
    if (worker)
        return;
    /* workers the engine starts with benchlab's arguments (benchlab run
     * SUITE) get them too (separated by \x1f) */
    std::string own;
    for (int i = 1; i < kept; i++)
        own += (i > 1 ? "\x1f" : "") + std::string(argv[i]);
    if (kept > 1)
        setenv("BENCHLAB_GBENCH_ARGS", own.c_str(), 1);
    else
        unsetenv("BENCHLAB_GBENCH_ARGS");
}

bool ReportUnrecognizedArguments(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        std::fprintf(stderr, "%s: error: unrecognized command-line flag: %s\n", argv[0], argv[i]);
    return argc > 1;
}

size_t RunSpecifiedBenchmarks(std::string spec)
{
    internal::build_instances();
    std::vector<std::string> args = internal::saved_args();
    bool from_kernel = args.empty();
    if (from_kernel) {
        /* no Initialize: argv as the kernel has it (a worker's own
         * arguments in the environment, when it was started so) */
        args = internal::proc_cmdline();
        std::vector<std::string> w;
        if (internal::take_worker_args(args.empty() ? "benchmark" : args[0].c_str(), &w))
            args = w;
    }
    if (args.empty())
        args.push_back("benchmark");
    bool sub = args.size() > 1 && (args[1] == "--benchlab-worker" || args[1] == "--benchlab-list" ||
                                   args[1] == "--benchlab-statistics");
    if (from_kernel && !sub) {
        /* no Initialize: the environment's flags, as Initialize takes them,
         * and the command line for the workers */
        std::vector<char *> raw;
        for (auto &a : args)
            raw.push_back(&a[0]);
        internal::set_suite_argv(static_cast<int>(raw.size()), raw.data());
        std::vector<std::string> env = internal::env_flags();
        args.insert(args.begin() + 1, env.begin(), env.end());
    }
    if (!sub && internal::initialized) {
        /* the default unit, as Initialize set it from --benchmark_time_unit
         * or the suite set it since, is the run's --time-unit; benchlab's own
         * --time-unit, later on the line, still wins */
        for (size_t i = args.size(); i-- > 1;) {
            TimeUnit unit;
            bool valid;
            if (internal::time_unit_flag(args[i].c_str(), &unit, &valid) && valid)
                args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
        }
        if (GetDefaultTimeUnit() != kNanosecond)
            args.insert(args.begin() + 1,
                        std::string("--time-unit=") + GetTimeUnitString(GetDefaultTimeUnit()));
    }
    if (!spec.empty() && !sub)
        args.push_back("--benchmark_filter=" + spec);
    bool listing_only = false;
    for (const auto &a : args)
        listing_only |= a.rfind("--benchmark_list_tests", 0) == 0 || a == "--list" || a == "-list";
    if (!listing_only && (internal::memory_manager || internal::profiler_manager))
        internal::die(internal::memory_manager
                          ? "benchmark::RegisterMemoryManager: a MemoryManager is not supported "
                            "by benchlab's layer (its figures come from an extra run benchlab "
                            "does not make); benchlab run --alloc counts allocations"
                          : "benchmark::RegisterProfilerManager: a ProfilerManager is not "
                            "supported by benchlab's layer (it hooks an extra run benchlab does "
                            "not make); benchlab profile profiles a benchmark");
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(&a[0]);
    argv.push_back(nullptr);
    int status = bl_main(static_cast<int>(args.size()), argv.data());
    std::fflush(stdout);
    std::fflush(stderr);
    /* a worker, a listing, a failed benchmark, bad usage or Ctrl-C: the
     * process ends here with benchlab's status, not the suite's main's */
    bool listing = false;
    for (const auto &a : args)
        listing |= a.rfind("--benchmark_list_tests", 0) == 0 || a == "--list" || a == "-list" ||
                   a == "--help" || a == "-h" || a == "--version";
    if (sub || listing || status != 0)
        std::_Exit(status);
    return internal::instances().size();
}

size_t RunSpecifiedBenchmarks()
{
    /* SetBenchmarkFilter's filter, as Google Benchmark passes its flag
     * (empty: every benchmark) */
    if (internal::filter_set)
        return RunSpecifiedBenchmarks(internal::filter_flag.empty() ? std::string("all")
                                                                    : internal::filter_flag);
    return RunSpecifiedBenchmarks(std::string());
}

std::string GetBenchmarkFilter()
{
    if (!internal::initialized && !internal::filter_set) {
        const char *v = internal::env_of("benchmark_filter");
        return v ? v : "";
    }
    return internal::filter_flag;
}

void SetBenchmarkFilter(std::string value)
{
    internal::filter_flag = std::move(value);
    internal::filter_set = true;
}

int32_t GetBenchmarkVerbosity()
{
    return internal::verbosity_flag;
}

void Shutdown()
{
}

} // namespace benchmark
