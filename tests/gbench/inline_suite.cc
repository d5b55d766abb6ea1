// inline_suite.cc - ours: a body shaped like xtensor-benchmark's Add2dLoop
// (sizes from state.range(), a 2D loop written element by element), built
// against the layer; inline.sh checks that state.range() compiles inline, as
// Google Benchmark's does, so that the body compiles as it does under Google
// Benchmark (an opaque range() call cost Add2dLoop its 64-byte
// vectorisation: 1.45 times Google Benchmark's time), and that range() past
// the arguments is said, naming the benchmark; state.threads() and
// state.thread_index() are inline too (BM_share).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

void BM_add2d(benchmark::State &state)
{
    std::vector<double> a(static_cast<std::size_t>(state.range(0) * state.range(1)), 1.0);
    std::vector<double> b(a.size(), 2.0);
    const std::size_t rows = static_cast<std::size_t>(state.range(0));
    const std::size_t cols = static_cast<std::size_t>(state.range(1));
    for (auto _ : state) {
        std::vector<double> r(rows * cols);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                r[i * cols + j] = a[i * cols + j] + b[i * cols + j];
        benchmark::DoNotOptimize(r.data());
    }
}
BENCHMARK(BM_add2d)->Args({16, 16});

// each thread's share of the work from state.threads() and
// state.thread_index(), read in the loop: inline too, as Google Benchmark's
void BM_share(benchmark::State &state)
{
    std::vector<int> v(64, 1);
    for (auto _ : state) {
        int s = 0;
        for (std::size_t i = static_cast<std::size_t>(state.thread_index()); i < v.size();
             i += static_cast<std::size_t>(state.threads()))
            s += v[i];
        benchmark::DoNotOptimize(s);
    }
    if (state.thread_index() >= state.threads() || state.threads() != 2)
        state.SkipWithError("threads()/thread_index() are not this run's");
}
BENCHMARK(BM_share)->Threads(2);

// range(1) of a benchmark with one argument: Google Benchmark's assert
void BM_past_args(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(state.range(1));
}
BENCHMARK(BM_past_args)->Arg(3);

BENCHMARK_MAIN();
