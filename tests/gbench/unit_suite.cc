// unit_suite.cc - Google Benchmark's time units (Unit(), SetDefaultTimeUnit,
// --benchmark_time_unit) and its aggregates' labels, built against Google
// Benchmark (when installed) and against benchlab's layer: gbench.sh runs
// both and compares their console, CSV and JSON row by row. The times are
// manual (SetIterationTime), so each value is exact whatever the load.
// Written for benchlab's tests.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

// every repetition takes `seconds` of manual time
static void manual(benchmark::State &state, double seconds)
{
    for (auto _ : state) {
        benchmark::ClobberMemory();
        state.SetIterationTime(seconds);
    }
}

// 1 ms a repetition, in each unit; the label is the same every time
static void BM_ms(benchmark::State &state)
{
    manual(state, 0.001);
    state.SetLabel("same label");
}
BENCHMARK(BM_ms)->UseManualTime()->Unit(benchmark::kMillisecond);

static void BM_default(benchmark::State &state)
{
    manual(state, 0.001);
}
BENCHMARK(BM_default)->UseManualTime();
BENCHMARK(BM_default)->Name("BM_ns")->UseManualTime()->Unit(benchmark::kNanosecond);
BENCHMARK(BM_default)->Name("BM_us")->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_default)->Name("BM_s")->UseManualTime()->Unit(benchmark::kSecond);

// a label of each repetition's own: the aggregates carry none
static void BM_label_varies(benchmark::State &state)
{
    static int calls;
    manual(state, 0.001);
    state.SetLabel("pid " + std::to_string(getpid()) + " call " + std::to_string(++calls));
}
BENCHMARK(BM_label_varies)->UseManualTime();

// n microseconds a repetition: BigO's coefficient is 1 us per n, in the
// default unit (Google Benchmark's rows of a fit ignore Unit())
static void BM_fit(benchmark::State &state)
{
    const int64_t n = state.range(0);
    manual(state, static_cast<double>(n) * 1e-6);
    state.SetComplexityN(n);
    state.SetLabel("size " + std::to_string(n));
}
BENCHMARK(BM_fit)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Arg(100)
    ->Arg(200)
    ->Arg(400)
    ->Complexity(benchmark::oN);

int main(int argc, char **argv)
{
    // SetDefaultTimeUnit before Initialize: --benchmark_time_unit wins;
    // after it: the call wins (gbench.sh sets the variable)
    const char *when = std::getenv("UNIT_SUITE_DEFAULT_US");
    if (when && std::strcmp(when, "before") == 0)
        benchmark::SetDefaultTimeUnit(benchmark::kMicrosecond);
    benchmark::Initialize(&argc, argv);
    if (when && std::strcmp(when, "after") == 0)
        benchmark::SetDefaultTimeUnit(benchmark::kMicrosecond);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
