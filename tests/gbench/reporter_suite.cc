// reporter_suite.cc - ours: a suite with a reporter of its own, as Google
// Benchmark 1.7.1's filter_test, skip_with_error_test, spec_arg_test and
// register_benchmark_test have. The layer has no reporter classes:
// reporter.sh checks that the first error names the class and the note
// shows the layer's line saying it is not supported.
#include <benchmark/benchmark.h>

#include <vector>

class CountingReporter : public benchmark::ConsoleReporter
{
  public:
    void ReportRuns(const std::vector<Run> &runs) override
    {
        count_ += runs.size();
        ConsoleReporter::ReportRuns(runs);
    }
    std::size_t count_ = 0;
};

static void BM_empty(benchmark::State &state)
{
    for (auto _ : state) {
    }
}
BENCHMARK(BM_empty);

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    CountingReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    return reporter.count_ == 1 ? 0 : 1;
}
