// env_suite.cc - what real suites ask of Google Benchmark 1.7.1 beyond
// registration (gbench.sh, case machine-and-environment-like-google-benchmark),
// built against benchlab's layer and, when installed, Google Benchmark
// itself. As spdlog's bench/latency.cpp, it sizes Threads() by
// CPUInfo::Get().num_cpus; as its formatter-bench, its main takes argv for
// itself, so Google Benchmark's flags come from the environment
// (BENCHMARK_FILTER, BENCHMARK_LIST_TESTS, ...); as GB's
// spec_arg_verbosity_test it reads --v with GetBenchmarkVerbosity; it sets
// and reads the filter (SetBenchmarkFilter, GetBenchmarkFilter).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>

static void BM_spin(benchmark::State &state)
{
    unsigned x = 1;
    for (auto _ : state) {
        x = x * 1664525u + 1013904223u;
        benchmark::DoNotOptimize(x);
    }
}

int main(int argc, char **argv)
{
    const benchmark::CPUInfo &cpu = benchmark::CPUInfo::Get();
    benchmark::RegisterBenchmark("BM_per_cpu", BM_spin)->Threads(cpu.num_cpus);
    benchmark::RegisterBenchmark("BM_other", BM_spin);
    benchmark::Initialize(&argc, argv);
    std::fprintf(stderr, "verbosity %d\n", static_cast<int>(benchmark::GetBenchmarkVerbosity()));
    std::fprintf(stderr, "filter '%s'\n", benchmark::GetBenchmarkFilter().c_str());
    std::fprintf(stderr, "cpus %d, %zu load averages, same object %d, host named %d\n",
                 cpu.num_cpus, cpu.load_avg.size(), &benchmark::CPUInfo::Get() == &cpu,
                 !benchmark::SystemInfo::Get().name.empty());
    for (const auto &c : cpu.caches)
        if (c.level < 1 || c.size <= 0 || c.num_sharing < 1 || c.type.empty())
            std::fprintf(stderr, "bad cache: level %d size %d sharing %d type '%s'\n", c.level,
                         c.size, c.num_sharing, c.type.c_str());
    // the suite's own flag (left in argv by Initialize)
    for (int i = 1; i < argc; i++)
        if (std::strncmp(argv[i], "--set-filter=", 13) == 0)
            benchmark::SetBenchmarkFilter(argv[i] + 13);
    benchmark::RunSpecifiedBenchmarks();
    std::fprintf(stderr, "after the run, filter '%s'\n", benchmark::GetBenchmarkFilter().c_str());
    benchmark::Shutdown();
    return 0;
}
