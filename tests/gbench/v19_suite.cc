// v19_suite.cc - ours: a suite written with Google Benchmark 1.8/1.9
// spellings that Debian's 1.7.1 does not build (gbench.sh, case
// api-1.9-like-google-benchmark, checks its names against
// expected/v19_suite.list, written by hand from Google Benchmark 1.9.5's
// naming rules, and what each feature does when run). Each body checks what
// it was given and fails, saying what, when it is wrong.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

// BENCHMARK() of a template instance with a comma, and of a variable that
// holds a function pointer (CRoaring's `auto X = BasicBench<op>; BENCHMARK(X);`)
template <class T, int N> void BM_two(benchmark::State &state)
{
    T x = T(N);
    for (auto _ : state)
        benchmark::DoNotOptimize(x += T(1));
}
BENCHMARK(BM_two<int, 8>);

template <class Op> void BasicBench(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(Op::run());
}
struct count_up {
    static int run()
    {
        static int n;
        return ++n;
    }
};
auto BM_ptr = BasicBench<count_up>;
BENCHMARK(BM_ptr);

// 1.8.4: BENCHMARK_TEMPLATE1_CAPTURE and BENCHMARK_TEMPLATE2_CAPTURE
template <class T> void BM_cap(benchmark::State &state, int n)
{
    if (n != 4)
        state.SkipWithError("BM_cap: the captured argument is not 4");
    if (state.name() != "BM_cap<int>/small")
        state.SkipWithError("state.name() is '" + state.name() + "'");
    for (auto _ : state)
        benchmark::DoNotOptimize(T(n));
}
BENCHMARK_TEMPLATE1_CAPTURE(BM_cap, int, small, 4);
template <class T, int M> void BM_cap2(benchmark::State &state, const char *word)
{
    if (std::strcmp(word, "abc") != 0 || M != 3)
        state.SkipWithError("BM_cap2: the captured arguments are wrong");
    for (auto _ : state)
        benchmark::DoNotOptimize(T(M));
}
BENCHMARK_TEMPLATE2_CAPTURE(BM_cap2, int, 3, word, "abc");

// 1.9.3: one templated fixture body, instantiated for two types
template <class T> class Sum : public benchmark::Fixture
{
  public:
    using type = T;
    void SetUp(benchmark::State &state) override
    {
        data.assign(static_cast<size_t>(state.range(0)), T(1));
    }
    std::vector<T> data;
};
BENCHMARK_TEMPLATE_METHOD_F(Sum, Add)(benchmark::State &state)
{
    if (this->data.size() != static_cast<size_t>(state.range(0)))
        state.SkipWithError("Sum::Add: SetUp did not fill the data");
    for (auto _ : state) {
        typename Base::type s = 0;
        for (auto v : this->data)
            s += v;
        benchmark::DoNotOptimize(s);
    }
    state.SetLabel("sum of " + std::to_string(this->data.size()));
}
BENCHMARK_TEMPLATE_INSTANTIATE_F(Sum, Add, int)->Arg(16);
BENCHMARK_TEMPLATE_INSTANTIATE_F(Sum, Add, double)->Arg(16);

// 1.9.2: Setup/Teardown take lambdas that capture; 1.9.5: Apply takes one,
// and the registration object is benchmark::Benchmark
static int setup_seen;
static void BM_setup_lambda(benchmark::State &state)
{
    if (setup_seen != 7)
        state.SkipWithError("the Setup() lambda did not run before the body");
    for (auto _ : state)
        benchmark::ClobberMemory();
}
static void args_of(benchmark::Benchmark *b)
{
    b->Arg(1)->Arg(2);
}
static const int seven = 7;
BENCHMARK(BM_setup_lambda)
    ->Setup([n = seven](const benchmark::State &) { setup_seen = n; })
    ->Teardown([](const benchmark::State &) { setup_seen = 0; })
    ->Apply(args_of)
    ->Apply([n = 3](benchmark::Benchmark *b) { b->Arg(n); });

// 1.8.0: state.name(), skipped(), SkipWithMessage (a skip, not an error);
// 1.9.5: range_size()
static void BM_state(benchmark::State &state)
{
    // the family's name, as Google Benchmark 1.9.5 gives it: no arguments
    if (state.name() != "BM_state")
        state.SkipWithError("state.name() is '" + state.name() + "'");
    if (state.range_size() != 3)
        state.SkipWithError("state.range_size() is not 3");
    for (auto _ : state)
        benchmark::DoNotOptimize(state.range(2));
}
BENCHMARK(BM_state)->Args({5, 6, 7});

static void BM_skip_message(benchmark::State &state)
{
    state.SkipWithMessage(std::string("no input here"));
    if (!state.skipped() || state.error_occurred())
        std::abort(); // a skip: skipped(), not error_occurred()
    for (auto _ : state) {
    }
}
BENCHMARK(BM_skip_message);

// rvalues to DoNotOptimize (1.8.1), BENCHMARK_DONT_OPTIMIZE (1.8.0),
// benchmark::ComplexityN (1.8.4)
BENCHMARK_DONT_OPTIMIZE static int twice(int x)
{
    return 2 * x;
}
static void BM_complexity(benchmark::State &state)
{
    std::vector<int> v(static_cast<size_t>(state.range(0)), 1);
    for (auto _ : state) {
        int s = 0;
        for (int x : v)
            s += x;
        benchmark::DoNotOptimize(twice(s));
    }
    state.SetComplexityN(static_cast<benchmark::ComplexityN>(state.range(0)));
}
BENCHMARK(BM_complexity)->Arg(64)->Arg(128)->Complexity(benchmark::oN);

// the registration object's getters (1.8.0), checked as Google Benchmark
// answers them
static benchmark::Benchmark *named =
    benchmark::RegisterBenchmark(std::string("BM_named"),
                                 [](benchmark::State &state) {
                                     for (auto _ : state)
                                         benchmark::DoNotOptimize(state.range(1));
                                 })
        ->ArgNames({"rows", "cols"})
        ->Args({2, 3});

// 1.9.2 (PR #1927): RegisterBenchmarkInternal takes a std::unique_ptr.
// x86-simd-sort registers its sorts with a macro of its own written that
// way: a FunctionBenchmark named func/case/type, whose lambda passes the
// case's arguments on
template <class T> static void BM_sorted(benchmark::State &state, size_t n, std::string kind)
{
    if (n != 64 || kind != "random") {
        state.SkipWithError("BM_sorted: the lambda passed the wrong arguments");
        return;
    }
    std::vector<T> v(n);
    for (auto _ : state) {
        for (size_t i = 0; i < n; i++)
            v[i] = T((i * 37) % n);
        std::sort(v.begin(), v.end());
        benchmark::DoNotOptimize(v.data());
    }
}
#define V19_BENCH_SORT(func, T, case_name, ...)                                                    \
    BENCHMARK_PRIVATE_DECLARE(func) = (::benchmark::internal::RegisterBenchmarkInternal(           \
        std::unique_ptr<benchmark::internal::Benchmark>(                                           \
            new ::benchmark::internal::FunctionBenchmark(                                          \
                #func "/" #case_name "/" #T,                                                       \
                [](::benchmark::State &st) { func<T>(st, __VA_ARGS__); }))))
V19_BENCH_SORT(BM_sorted, int, random_64, 64, std::string("random"));
V19_BENCH_SORT(BM_sorted, double, random_64, 64, std::string("random"));

// and a fixture made with std::make_unique, named by its constructor as
// BENCHMARK_F's are; what the registration returns takes arguments
class UniqueFixture : public benchmark::Fixture
{
  public:
    UniqueFixture()
    {
        SetName("UniqueFixture/Sum");
    }
    void SetUp(benchmark::State &state) override
    {
        data.assign(static_cast<size_t>(state.range(0)), 2);
    }
    void TearDown(benchmark::State &) override
    {
        data.clear();
    }

  protected:
    void BenchmarkCase(benchmark::State &state) override
    {
        if (data.size() != static_cast<size_t>(state.range(0))) {
            state.SkipWithError("UniqueFixture: SetUp did not fill the data");
            return;
        }
        for (auto _ : state) {
            int sum = 0;
            for (int x : data)
                sum += x;
            benchmark::DoNotOptimize(sum);
        }
    }

  private:
    std::vector<int> data;
};
static benchmark::internal::Benchmark *unique_fixture =
    benchmark::internal::RegisterBenchmarkInternal(std::make_unique<UniqueFixture>())
        ->Arg(8)
        ->Arg(32);

int main(int argc, char **argv)
{
    benchmark::MaybeReenterWithoutASLR(argc, argv);
    if (std::strcmp(named->GetName(), "BM_named") != 0 || named->ArgsCnt() != 2 ||
        std::strcmp(named->GetArgName(1), "cols") != 0 || named->GetArgName(2) != nullptr) {
        std::fprintf(stderr, "v19_suite: GetName/ArgsCnt/GetArgName are wrong\n");
        return 1;
    }
    if (std::strcmp(unique_fixture->GetName(), "UniqueFixture/Sum") != 0) {
        std::fprintf(stderr, "v19_suite: the make_unique fixture is not the one registered\n");
        return 1;
    }
    if (std::string(benchmark::kDefaultMinTimeStr) != "0.5s" ||
        benchmark::GetBenchmarkVersion().empty())
        return 1;
    // a MemoryManager builds; registered, the run is refused, naming it
    struct Counting : benchmark::MemoryManager {
        void Start() override
        {
        }
        void Stop(Result &result) override
        {
            result.num_allocs = 0;
        }
    };
    static Counting mm;
    if (std::getenv("V19_MEMORY_MANAGER"))
        benchmark::RegisterMemoryManager(&mm);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
