// complexity_suite.cc - Complexity() of threaded benchmarks, built against
// Google Benchmark (when installed) and against benchlab's layer: gbench.sh
// compares their BigO and RMS rows, and checks that each output's rows are
// Google Benchmark's fit (complexity.cc) of its own iteration rows. The
// BM_manual_* times are manual (SetIterationTime), so each value is exact
// whatever the load; BM_work_* does real work, for the CPU times and oAuto.
// Written for benchlab's tests.
#include <benchmark/benchmark.h>

#include <cstdint>

// n microseconds (or n^2 nanoseconds) of manual time a repetition, in each
// of the benchmark's threads.
static void BM_manual_linear(benchmark::State &state)
{
    const int64_t n = state.range(0);
    for (auto _ : state) {
        benchmark::ClobberMemory();
        state.SetIterationTime(static_cast<double>(n) * 1e-6);
    }
    state.SetComplexityN(n);
}
BENCHMARK(BM_manual_linear)
    ->UseManualTime()
    ->Arg(100)
    ->Arg(200)
    ->Arg(400)
    ->Threads(4)
    ->Complexity(benchmark::oN);
static void BM_manual_square(benchmark::State &state)
{
    const int64_t n = state.range(0);
    for (auto _ : state) {
        benchmark::ClobberMemory();
        state.SetIterationTime(static_cast<double>(n * n) * 1e-9);
    }
    state.SetComplexityN(n);
}
BENCHMARK(BM_manual_square)
    ->UseManualTime()
    ->Arg(10)
    ->Arg(20)
    ->Arg(40)
    ->Threads(3)
    ->Complexity(benchmark::oNSquared);

// A curve of its own (Complexity(lambda)) at 4 threads: Google Benchmark
// calls it at the threads' n summed, 4 n, so n^2 ns a thread is 1/64 of
// the curve (the time over the threads, n^2 / 4; the curve at 4 n, 16 n^2)
static void BM_manual_lambda(benchmark::State &state)
{
    const int64_t n = state.range(0);
    for (auto _ : state) {
        benchmark::ClobberMemory();
        state.SetIterationTime(static_cast<double>(n * n) * 1e-9);
    }
    state.SetComplexityN(n);
}
BENCHMARK(BM_manual_lambda)
    ->UseManualTime()
    ->Arg(10)
    ->Arg(20)
    ->Arg(40)
    ->Threads(4)
    ->Complexity([](benchmark::IterationCount n) { return static_cast<double>(n) * n; });

// n dependent steps an op, on two threads: the curve oAuto picks is the
// CPU times'
static void BM_work(benchmark::State &state)
{
    const int64_t n = state.range(0);
    uint64_t x = 1;
    for (auto _ : state) {
        for (int64_t i = 0; i < n; i++)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        benchmark::DoNotOptimize(x);
    }
    state.SetComplexityN(n);
}
BENCHMARK(BM_work)->Arg(256)->Arg(512)->Arg(1024)->Threads(2)->Complexity();

BENCHMARK_MAIN();
