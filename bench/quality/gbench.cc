// gbench.cc - the reference workloads (workloads.h) as a Google Benchmark
// program, written as a user would: one BENCHMARK per workload, default
// settings. Built once per level, like suite.c (-DQUALITY_LEVEL=...).
#include <benchmark/benchmark.h>

#include "workloads.h"

#ifndef QUALITY_LEVEL
#define QUALITY_LEVEL 0
#endif
volatile int quality_level = QUALITY_LEVEL;

static void BM_Ns1(benchmark::State &state)
{
    struct qw_ns1 w;
    qw_ns1_init(&w, quality_level);
    for (auto _ : state)
        qw_ns1_op(&w);
    benchmark::DoNotOptimize(w.x);
}
BENCHMARK(BM_Ns1);

static void BM_Ns20(benchmark::State &state)
{
    struct qw_ns20 w;
    qw_ns20_init(&w, quality_level);
    for (auto _ : state)
        qw_ns20_op(&w);
    benchmark::DoNotOptimize(w.h);
}
BENCHMARK(BM_Ns20);

static void BM_Sort(benchmark::State &state)
{
    struct qw_sort w;
    qw_sort_init(&w, quality_level);
    for (auto _ : state)
        qw_sort_op(&w);
}
BENCHMARK(BM_Sort);

static void BM_Copy(benchmark::State &state)
{
    struct qw_copy w;
    if (qw_copy_init(&w, quality_level)) {
        state.SkipWithError("out of memory");
        return;
    }
    for (auto _ : state)
        qw_copy_op(&w);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)w.bytes);
    qw_copy_fini(&w);
}
BENCHMARK(BM_Copy);

static void BM_Compute(benchmark::State &state)
{
    struct qw_compute w;
    qw_compute_init(&w, quality_level);
    for (auto _ : state)
        qw_compute_op(&w);
    benchmark::DoNotOptimize(w.x);
}
BENCHMARK(BM_Compute);

static void BM_Alloc(benchmark::State &state)
{
    struct qw_alloc w;
    qw_alloc_init(&w, quality_level);
    for (auto _ : state)
        qw_alloc_op(&w);
}
BENCHMARK(BM_Alloc);

BENCHMARK_MAIN();
