// counters_suite.cc - user counters with every flag of benchmark::Counter,
// at 1 and 4 threads, built against Google Benchmark (when installed) and
// against benchlab's layer: gbench.sh runs both with --benchmark_format=json
// and counters_compare.py checks that their counters agree. The iterations
// are fixed (Iterations), so every counter is exact but the rates, which
// depend on the time measured: the comparison multiplies a rate by the
// time per iteration of its clock (manual, real or CPU) first.
// Written for benchlab's tests.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <thread>

using benchmark::Counter;

// Each flag and useful combination once; the name says which, and a name
// with "rate" is over the time (counters_compare.py reads the names).
static void set_counters(benchmark::State &state)
{
    // a thread's own value, so that summing and averaging over threads differ
    const double v = state.thread_index() + 1;
    const double n = static_cast<double>(state.iterations());
    state.counters["plain"] = Counter(v);
    state.counters["avg_threads"] = Counter(v, Counter::kAvgThreads);
    state.counters["iter_invariant"] = Counter(v, Counter::kIsIterationInvariant);
    state.counters["iter_invariant_avg_threads"] =
        Counter(v, Counter::kIsIterationInvariant | Counter::kAvgThreads);
    state.counters["avg_iterations"] = Counter(v * n, Counter::kAvgIterations);
    state.counters["avg_iterations_avg_threads"] =
        Counter(v * n, Counter::kAvgIterations | Counter::kAvgThreads);
    state.counters["invert"] = Counter(v, Counter::kInvert);
    state.counters["invert_avg_threads"] = Counter(v, Counter::kAvgThreads | Counter::kInvert);
    state.counters["iter_invariant_and_avg_iterations"] =
        Counter(v, Counter::kIsIterationInvariant | Counter::kAvgIterations);
    state.counters["kibi"] = Counter(v * 1024, Counter::kDefaults, Counter::kIs1024);
    state.counters["rate"] = Counter(v * n, Counter::kIsRate);
    state.counters["rate_avg_threads"] = Counter(v * n, Counter::kAvgThreadsRate);
    state.counters["rate_iter_invariant"] = Counter(v, Counter::kIsIterationInvariantRate);
    state.counters["rate_avg_iterations"] = Counter(v * n, Counter::kAvgIterationsRate);
    state.counters["rate_invert"] = Counter(v * n, Counter::kIsRate | Counter::kInvert);
    // kInvert of 0: Google Benchmark's 1 / 0, inf (and so its rate)
    state.counters["invert_zero"] = Counter(0, Counter::kInvert);
    state.counters["rate_invert_zero"] = Counter(0, Counter::kIsRate | Counter::kInvert);
    // a thread's bytes and items: Google Benchmark sums them over the threads
    state.SetBytesProcessed(static_cast<int64_t>(v * 1000 * n));
    state.SetItemsProcessed(static_cast<int64_t>(v * 10 * n));
}

// 1 us of manual time a repetition: every value is exact
static void BM_manual(benchmark::State &state)
{
    for (auto _ : state) {
        benchmark::ClobberMemory();
        state.SetIterationTime(1e-6);
    }
    set_counters(state);
}
BENCHMARK(BM_manual)->UseManualTime()->Iterations(200)->Threads(1)->Threads(4);

// a body that sleeps: its CPU time is far below its wall time, and rates
// are over the CPU time unless UseRealTime()
static void BM_sleep(benchmark::State &state)
{
    for (auto _ : state)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    set_counters(state);
}
BENCHMARK(BM_sleep)->Iterations(50)->Threads(1)->Threads(4);
BENCHMARK(BM_sleep)->Name("BM_sleep_real")->UseRealTime()->Iterations(50)->Threads(1)->Threads(4);

BENCHMARK_MAIN();
