// proccpu_suite.cc - MeasureProcessCPUTime(): a body that hands a fixed
// amount of spinning work to a second std::thread every iteration and does
// the same amount itself (100 us of each thread's own CPU time), timed
// with the benchmark thread's CPU clock and with the process's, at 1 and 2
// threads. Built against Google Benchmark
// (when installed) and against benchlab's layer: gbench.sh checks in both
// that the process's CPU time per op is about twice the thread's (CPU
// work, not wall time, so it holds on a loaded machine) and that a kIsRate
// counter is over the same CPU seconds as cpu_time. Written for benchlab's
// tests.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <ctime>
#include <thread>

using benchmark::Counter;

static int64_t thread_cpu_ns()
{
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// 100 us of the calling thread's own CPU time, not a count of instructions:
// how long those take moves with the load (a soak pass saw one thread's
// share run 1.6x slower in one benchmark than in the next), and the checks
// compare the CPU time of separate benchmarks. Far more than starting and
// joining a thread, so that cost hardly moves the ratio.
static uint64_t spin(uint64_t x)
{
    int64_t start = thread_cpu_ns();
    do
        for (int i = 0; i < 1000; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
    while (thread_cpu_ns() - start < 100000);
    return x;
}

static void BM_handoff(benchmark::State &state)
{
    uint64_t seed = static_cast<uint64_t>(state.thread_index()) + 1;
    double own_ns = 0;
    for (auto _ : state) {
        int64_t t0 = thread_cpu_ns();
        uint64_t theirs = 0;
        std::thread helper([&theirs, seed] { theirs = spin(seed); });
        uint64_t mine = spin(seed + 1);
        helper.join();
        benchmark::DoNotOptimize(mine + theirs);
        own_ns += static_cast<double>(thread_cpu_ns() - t0);
    }
    // the iterations per second of the benchmark's clock: 1 / cpu_time
    state.counters["ops_rate"] = Counter(static_cast<double>(state.iterations()), Counter::kIsRate);
    // this thread's own CPU time per op, as its clock counts it (the spin,
    // and starting and joining the helper): the process's clock must hold
    // the helper's 100 us on top, the thread's clock must not
    state.counters["own_cpu_ns"] = Counter(own_ns, Counter::kAvgIterations);
}
BENCHMARK(BM_handoff)->Threads(1)->Threads(2);
BENCHMARK(BM_handoff)->MeasureProcessCPUTime()->Threads(1)->Threads(2);

BENCHMARK_MAIN();
