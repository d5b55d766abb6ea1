// proccpu_suite.cc - MeasureProcessCPUTime(): a body that hands a fixed
// amount of spinning work to a second std::thread every iteration and does
// the same amount itself, timed with the benchmark thread's CPU clock and
// with the process's, at 1 and 2 threads. Built against Google Benchmark
// (when installed) and against benchlab's layer: gbench.sh checks in both
// that the process's CPU time per op is about twice the thread's (CPU
// work, not wall time, so it holds on a loaded machine) and that a kIsRate
// counter is over the same CPU seconds as cpu_time. Written for benchlab's
// tests.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <thread>

using benchmark::Counter;

// About 100 us of dependent arithmetic on this machine: far more than
// starting and joining a thread, so that cost hardly moves the ratio.
static uint64_t spin(uint64_t x)
{
    for (int i = 0; i < 100000; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

static void BM_handoff(benchmark::State &state)
{
    uint64_t seed = static_cast<uint64_t>(state.thread_index()) + 1;
    for (auto _ : state) {
        uint64_t theirs = 0;
        std::thread helper([&theirs, seed] { theirs = spin(seed); });
        uint64_t mine = spin(seed + 1);
        helper.join();
        benchmark::DoNotOptimize(mine + theirs);
    }
    // the iterations per second of the benchmark's clock: 1 / cpu_time
    state.counters["ops_rate"] = Counter(static_cast<double>(state.iterations()), Counter::kIsRate);
}
BENCHMARK(BM_handoff)->Threads(1)->Threads(2);
BENCHMARK(BM_handoff)->MeasureProcessCPUTime()->Threads(1)->Threads(2);

BENCHMARK_MAIN();
