// loop_suite.cc - what the loop forms of Google Benchmark's State give a
// body (gbench.sh, case loops-match-google-benchmark), built against
// benchlab's layer and, when installed, Google Benchmark itself:
// iterations() at each repetition, DoNotOptimize on large objects, and the
// cost of an empty KeepRunning/KeepRunningBatch loop.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

static void fail_if(benchmark::State &state, bool bad, const char *what, long long got,
                    long long want)
{
    if (!bad)
        return;
    char msg[160];
    std::snprintf(msg, sizeof msg, "%s: iterations() is %lld, want %lld", what, got, want);
    state.SkipWithError(msg);
}

// abseil's btree_benchmark indexes with state.iterations(): it must advance
// at every repetition of a KeepRunning loop (1 in the first one)
static void BM_iterations_keep_running(benchmark::State &state)
{
    long long k = 0, bad_got = -1, bad_want = -1;
    while (state.KeepRunning()) {
        k++;
        if (state.iterations() != k && bad_got < 0) {
            bad_got = state.iterations();
            bad_want = k;
        }
    }
    fail_if(state, bad_got >= 0, "KeepRunning", bad_got, bad_want);
    fail_if(state, state.iterations() != k, "after KeepRunning", state.iterations(), k);
}
BENCHMARK(BM_iterations_keep_running);

static void BM_iterations_batch(benchmark::State &state)
{
    long long k = 0, bad_got = -1, bad_want = -1;
    while (state.KeepRunningBatch(4)) {
        k += 4;
        if (state.iterations() != k && bad_got < 0) {
            bad_got = state.iterations();
            bad_want = k;
        }
    }
    fail_if(state, bad_got >= 0, "KeepRunningBatch(4)", bad_got, bad_want);
    fail_if(state, state.iterations() != k, "after KeepRunningBatch(4)", state.iterations(), k);
}
BENCHMARK(BM_iterations_batch);

// Google Benchmark's ranged-for leaves iterations() at 0 until the loop ends
static void BM_iterations_ranged_for(benchmark::State &state)
{
    long long k = 0, nonzero = 0;
    for (auto _ : state) {
        k++;
        if (state.iterations() != 0)
            nonzero = state.iterations();
    }
    fail_if(state, nonzero != 0, "inside for (auto _ : state)", nonzero, 0);
    fail_if(state, state.iterations() != k, "after for (auto _ : state)", state.iterations(), k);
}
BENCHMARK(BM_iterations_ranged_for);

// empty loops: each form must cost what the subtracted overhead does
static void BM_empty_ranged_for(benchmark::State &state)
{
    int x = 1;
    for (auto _ : state)
        benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_empty_ranged_for);
static void BM_empty_keep_running(benchmark::State &state)
{
    int x = 1;
    while (state.KeepRunning())
        benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_empty_keep_running);
static void BM_empty_keep_running_batch1(benchmark::State &state)
{
    int x = 1;
    while (state.KeepRunningBatch(1))
        benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_empty_keep_running_batch1);

// DoNotOptimize of a 256-byte object: GCC must not copy it at each call
// (GCC bug 105519); gbench.sh reads these two functions' machine code
struct Big {
    std::array<long, 32> a{};
};
extern "C" __attribute__((noinline)) void loop_suite_dno_lvalue(Big &b, long n)
{
    for (long i = 0; i < n; i++)
        benchmark::DoNotOptimize(b);
}
extern "C" __attribute__((noinline)) void loop_suite_dno_const(const Big &b, long n)
{
    for (long i = 0; i < n; i++)
        benchmark::DoNotOptimize(b);
}
static void BM_dno_big(benchmark::State &state)
{
    Big b;
    for (auto _ : state)
        loop_suite_dno_lvalue(b, 1);
    loop_suite_dno_const(b, 1);
}
BENCHMARK(BM_dno_big);

// more threads than benchlab runs (abseil's mutex_benchmark asks 512):
// listed as Google Benchmark lists it; only this benchmark fails when run
static void BM_many_threads(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::ClobberMemory();
}
BENCHMARK(BM_many_threads)->Threads(1)->Threads(512);

// a main of its own that reads its own flags after Initialize, as many
// suites do: Google Benchmark leaves them in argv for it
static int g_size = 8;
static void BM_own_flag(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(g_size);
    state.counters["size"] = g_size;
}
BENCHMARK(BM_own_flag);

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    for (int i = 1; i < argc; i++)
        if (std::string(argv[i]).rfind("--size=", 0) == 0)
            g_size = std::stoi(std::string(argv[i]).substr(7));
    std::fprintf(stderr, "argc after Initialize: %d\n", argc);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
