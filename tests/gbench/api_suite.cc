// api_suite.cc - Google Benchmark's API as suites use it, built against
// Google Benchmark (when installed) and against benchlab's layer: the
// listings must agree, and under benchlab the counters, fixtures and
// callbacks must come out as gbench.sh checks. Written for benchlab's tests.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static void BM_counters(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::ClobberMemory();
    const double n = static_cast<double>(state.iterations());
    state.counters["plain"] = 3;
    state.counters["per_op_rate"] = benchmark::Counter(10 * n, benchmark::Counter::kIsRate);
    state.counters["avg_iter"] = benchmark::Counter(4 * n, benchmark::Counter::kAvgIterations);
    state.counters["inv_rate"] =
        benchmark::Counter(2, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["inverted"] = benchmark::Counter(4, benchmark::Counter::kInvert);
    state.counters["kibi"] =
        benchmark::Counter(1, benchmark::Counter::kDefaults, benchmark::Counter::kIs1024);
    state.SetBytesProcessed(static_cast<int64_t>(n) * 1000);
}
BENCHMARK(BM_counters);

// n dependent steps per op; n is the size of the complexity fits (SetComplexityN)
static void steps(benchmark::State &state, int64_t n)
{
    uint64_t x = 1;
    for (auto _ : state) {
        for (int64_t i = 0; i < n; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
        benchmark::DoNotOptimize(x);
    }
    state.SetComplexityN(n);
}
// kInvert on a rate: seconds per unit, after the rate (2 per op here)
static void BM_inverted_rate(benchmark::State &state)
{
    steps(state, 64);
    state.counters["sec_per_2"] =
        benchmark::Counter(2 * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_inverted_rate);

static void BM_linear(benchmark::State &state)
{
    steps(state, state.range(0));
}
BENCHMARK(BM_linear)->RangeMultiplier(2)->Range(256, 1024)->Complexity(benchmark::oN);
BENCHMARK(BM_linear)->Name("BM_auto")->Arg(256)->Arg(512)->Arg(1024)->Complexity();
BENCHMARK(BM_linear)
    ->Name("BM_lambda")
    ->Arg(256)
    ->Arg(1024)
    ->Complexity([](benchmark::IterationCount n) { return static_cast<double>(n) * 2; });

// statistics of its own, over the repetitions (benchlab's launches)
static double max_of(const std::vector<double> &v)
{
    double m = v[0];
    for (double x : v)
        m = x > m ? x : m;
    return m;
}
static double min_over_max(const std::vector<double> &v)
{
    double lo = v[0], hi = v[0];
    for (double x : v) {
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    return hi > 0 ? lo / hi : 0;
}
static void BM_stats(benchmark::State &state)
{
    steps(state, 64);
    state.counters["plain"] = 3;
}
BENCHMARK(BM_stats)
    ->ComputeStatistics("max", max_of)
    ->ComputeStatistics("ratio", min_over_max, benchmark::kPercentage);

static void BM_thread_counters(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::ClobberMemory();
    state.counters["summed"] = 1;
    state.counters["averaged"] = benchmark::Counter(1, benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_thread_counters)->Threads(2);

static void BM_capture(benchmark::State &state, int k, const char *word)
{
    if (k != 42 || std::strcmp(word, "hello") != 0)
        state.SkipWithError("captured arguments are wrong");
    for (auto _ : state)
        benchmark::DoNotOptimize(k);
    state.SetLabel(std::string(word) + " world");
}
BENCHMARK_CAPTURE(BM_capture, my_case, 42, "hello");

static void BM_named(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(state.range(0) + state.range(1));
}
BENCHMARK(BM_named)->ArgNames({"size", "k"})->ArgsProduct({{8, 64}, {1, 2}});
BENCHMARK(BM_named)->ArgNames({"size", "k"})->Ranges({{1, 8}, {3, 3}})->RangeMultiplier(2);

static int setup_runs;
static void DoSetup(const benchmark::State &state)
{
    if (state.thread_index() == 0)
        setup_runs++;
}
static void DoTeardown(const benchmark::State &)
{
}
static void BM_with_setup(benchmark::State &state)
{
    if (setup_runs < 1)
        state.SkipWithError("Setup() did not run before the body");
    for (auto _ : state)
        benchmark::ClobberMemory();
}
BENCHMARK(BM_with_setup)->Setup(DoSetup)->Teardown(DoTeardown)->DenseRange(1, 3, 2);

template <class T> class TFixture : public benchmark::Fixture
{
  public:
    void SetUp(benchmark::State &state) override
    {
        data.assign(static_cast<size_t>(state.range(0)), T(1));
    }
    void TearDown(benchmark::State &) override
    {
        data.clear();
    }
    std::vector<T> data;
};
BENCHMARK_TEMPLATE_DEFINE_F(TFixture, Sum, int)(benchmark::State &state)
{
    if (data.size() != static_cast<size_t>(state.range(0)))
        state.SkipWithError("SetUp(State&) did not run");
    for (auto _ : state) {
        int s = 0;
        for (int x : data)
            s += x;
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK_REGISTER_F(TFixture, Sum)->Arg(16)->Arg(256);

template <class A, class B> static void BM_pair(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(sizeof(A) + sizeof(B));
}
BENCHMARK_TEMPLATE2(BM_pair, int, double);
BENCHMARK_TEMPLATE(BM_pair, char, long)->ThreadRange(1, 2);

// Iterations(n): max_iterations is n before the loop, the loop runs n times
static void BM_fixed_iterations(benchmark::State &state)
{
    if (state.max_iterations != 100)
        state.SkipWithError("max_iterations is not 100 before the loop");
    int64_t n = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(++n);
    if (n != 100 || state.iterations() != 100 || state.max_iterations != 100)
        state.SkipWithError("the loop did not run 100 times");
    state.counters["loop_reps"] = static_cast<double>(n);
}
BENCHMARK(BM_fixed_iterations)->Iterations(100);

// UseManualTime(): the time is what the body says (1 ms a repetition)
static void BM_manual(benchmark::State &state)
{
    for (auto _ : state) {
        benchmark::ClobberMemory();
        state.SetIterationTime(0.001);
    }
}
BENCHMARK(BM_manual)->UseManualTime();

// a plan of its own: its budget, warm-up and launches
static void BM_own_plan(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::ClobberMemory();
}
BENCHMARK(BM_own_plan)->MinTime(0.3)->MinWarmUpTime(0.01)->Repetitions(3);

static void DISABLED_BM_never(benchmark::State &state)
{
    state.SkipWithError("a DISABLED_ benchmark ran");
    for (auto _ : state) {
    }
}
BENCHMARK(DISABLED_BM_never);

int main(int argc, char **argv)
{
    benchmark::RegisterBenchmark(
        "lambda/extra_arg",
        [](benchmark::State &state, int k) {
            for (auto _ : state)
                benchmark::DoNotOptimize(k);
        },
        5);
    benchmark::RegisterBenchmark("lambda/plain", [](benchmark::State &state) {
        for (auto _ : state)
            benchmark::ClobberMemory();
    })->Arg(7);
    // reads max_iterations before its loop: known under Google Benchmark,
    // not under benchlab's adaptive plan (gbench.sh sets the variable)
    if (std::getenv("API_SUITE_EARLY_MAX_ITERATIONS"))
        benchmark::RegisterBenchmark("max_iterations_early", [](benchmark::State &state) {
            std::vector<char> buffer(static_cast<size_t>(state.max_iterations));
            size_t i = 0;
            for (auto _ : state)
                benchmark::DoNotOptimize(buffer[i++]);
        });
    // fails, as a benchmark without its input does (gbench.sh sets the variable)
    if (std::getenv("API_SUITE_SKIP_WITH_ERROR"))
        benchmark::RegisterBenchmark("skip_with_error", [](benchmark::State &state) {
            state.SkipWithError("no input");
            for (auto _ : state) {
            }
        });
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
