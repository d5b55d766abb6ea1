/* gbench_main.cc - libbenchlab-gbench-main: main() for Google Benchmark
 * suites without one, as -lbenchmark_main gives. */
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
