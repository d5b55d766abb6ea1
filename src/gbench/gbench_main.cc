/* gbench_main.cc - libbenchlab-gbench-main: main() for Google Benchmark
 * suites without one, as -lbenchmark_main gives. The suite's name (pkg:)
 * is that of a suite with a main of its own: the stem of the file of its
 * first registration (BENCHMARK(...) in map_test.cc: map_test), so that two
 * builds of it, whatever their executables are called (bench-old,
 * bench-new), compare column by column; with no registration in a file
 * (RegisterBenchmark only), the program's name. Not this file's stem. */
#include <benchmark/benchmark.h>

int main(int argc, char **argv)
{
    ::benchmark::Initialize(&argc, argv);
    if (::benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    ::benchmark::RunSpecifiedBenchmarks();
    ::benchmark::Shutdown();
    return 0;
}
