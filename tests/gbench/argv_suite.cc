// argv_suite.cc - a suite whose main reads its command line before
// Initialize and registers what it names, as spdlog's formatter-bench does
// (`formatter-bench all` or `formatter-bench PATTERN`, usage and exit 1
// otherwise): benchlab's workers must see that command line too (gbench.sh,
// case main-reads-argv-before-initialize). Google Benchmark's flags reach it
// only from the environment (BENCHMARK_MIN_TIME, ...). `hostile` registers
// a name with control bytes.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

static void BM_sum(benchmark::State &state, int n)
{
    // what the engine passes to start a worker stays out of the benchmark
    if (std::getenv("BENCHLAB_SUITE_ARGV") || std::getenv("BENCHLAB_WORKER_ARGV"))
        state.SkipWithError("the worker's environment has BENCHLAB_SUITE_ARGV/WORKER_ARGV");
    for (auto _ : state) {
        int s = 0;
        for (int i = 0; i < n; i++)
            benchmark::DoNotOptimize(s += i);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <name> (or \"all\")\n", argv[0]);
        return 1;
    }
    std::string which = argv[1];
    if (which == "all" || which == "BM_small")
        benchmark::RegisterBenchmark("BM_small", BM_sum, 8);
    if (which == "all" || which == "BM_large")
        benchmark::RegisterBenchmark("BM_large", BM_sum, 64);
    // a name Google Benchmark keeps byte for byte: a newline, an OSC 52
    // clipboard write, a byte that is not UTF-8 (gbench.sh, case
    // list-shows-control-bytes-as-text)
    if (which == "hostile")
        benchmark::RegisterBenchmark("BM_a\nb\033]52;c;cHduZWQ=\007c\377", BM_sum, 8);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
