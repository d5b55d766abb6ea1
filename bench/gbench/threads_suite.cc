// threads_suite.cc - the benchmarks behind bench/gbench/threads.sh: a busy
// operation of a fixed CPU time run by 1, 2, 8 and 64 threads, and single
// long operations (20 ms, 50 ms). Source-compatible with Google Benchmark:
// threads.sh builds it unchanged against Debian's libbenchmark and against
// benchlab's layer.
//
// Each operation burns a fixed amount of its own thread's CPU time (read
// from CLOCK_THREAD_CPUTIME_ID), so the CPU time per operation is the same
// whoever schedules it, and the real time shows only how the threads were
// run: with T threads on C CPUs the team can at best finish T operations
// every T / C operation times.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <ctime>

namespace
{

std::int64_t thread_cpu_ns()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Busy work until this thread has spent `ns` more of CPU time.
void burn_cpu(std::int64_t ns)
{
    std::uint64_t x = 1;
    std::int64_t until = thread_cpu_ns() + ns;
    do {
        for (int i = 0; i < 256; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
        benchmark::DoNotOptimize(x);
    } while (thread_cpu_ns() < until);
}

void BM_Busy100us(benchmark::State &state)
{
    for (auto _ : state)
        burn_cpu(100000);
}
BENCHMARK(BM_Busy100us)->Threads(1)->Threads(2)->Threads(8)->Threads(64);

void BM_Long(benchmark::State &state)
{
    for (auto _ : state)
        burn_cpu(state.range(0) * 1000000);
}
BENCHMARK(BM_Long)->Arg(20)->Arg(50)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
