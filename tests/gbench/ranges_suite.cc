// ranges_suite.cc - the argument and thread builders at their edges, for
// gbench.sh's case hostile-ranges-end-or-are-refused: a step or multiplier
// that cannot advance, and ranges that end at the integer's maximum. The
// call is picked by $BL_RANGES_CASE when the suite registers (no case: one
// plain instance). Written for benchlab's tests.
#include <benchmark/benchmark.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

static void BM_x(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::ClobberMemory();
}

static void pick(benchmark::internal::Benchmark *b)
{
    const char *c = std::getenv("BL_RANGES_CASE");
    const int64_t max = INT64_MAX;
    if (!c) {
        b->Arg(1);
    } else if (std::strcmp(c, "create-range-multiplier-1") == 0) {
        b->ArgsProduct({benchmark::CreateRange(1, 8, 1)});
    } else if (std::strcmp(c, "create-range-reversed") == 0) {
        b->ArgsProduct({benchmark::CreateRange(8, 1, 2)});
    } else if (std::strcmp(c, "create-dense-step-0") == 0) {
        b->ArgsProduct({benchmark::CreateDenseRange(0, 10, 0)});
    } else if (std::strcmp(c, "create-dense-at-max") == 0) {
        b->ArgsProduct({benchmark::CreateDenseRange(max - 2, max, 2)});
    } else if (std::strcmp(c, "dense-range-at-max") == 0) {
        b->DenseRange(max - 1, max);
    } else if (std::strcmp(c, "dense-thread-range-at-max") == 0) {
        b->Arg(1)->DenseThreadRange(1, INT_MAX, INT_MAX);
    }
}
BENCHMARK(BM_x)->Apply(pick);

BENCHMARK_MAIN();
