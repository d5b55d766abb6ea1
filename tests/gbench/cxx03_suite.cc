// cxx03_suite.cc - a suite in C++03, as Google Benchmark 1.7.1 builds it
// (KeepRunning, ArgPair, BENCHMARK_TEMPLATE1; no lambdas, no ranged for):
// the layer refuses it by name (cxx03.sh).
#include <benchmark/benchmark.h>

static void BM_pair(benchmark::State &state)
{
    while (state.KeepRunning())
        benchmark::DoNotOptimize(state.range(0) + state.range(1));
}
BENCHMARK(BM_pair)->ArgPair(1, 2);

template <class T> static void BM_size(benchmark::State &state)
{
    while (state.KeepRunning())
        benchmark::DoNotOptimize(sizeof(T));
}
BENCHMARK_TEMPLATE1(BM_size, long);

BENCHMARK_MAIN();
