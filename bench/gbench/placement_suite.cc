// placement_suite.cc (ours) - a body whose speed depends on where its loop
// lies in memory: 512 data-dependent branches over a fixed random pattern,
// the same pattern every repetition. The branch predictor learns it, or
// part of it, depending on the loop's code address: the same source built
// twice can differ by 2x with nothing else changed. bench/gbench/placement.sh
// shows it with Google Benchmark and with benchlab's layer alike. The bodies
// are those of two microsoft/STL benchmarks (bitset to_string, vector<bool>
// copy) that disagreed until placement explained them (README.md, "Code
// placement"); both compile to the same inner loops with either header.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace
{
/* 512 bits from a fixed seed (splitmix64) */
std::bitset<512> fixed_pattern()
{
    std::bitset<512> bits;
    uint64_t x = 0;
    for (size_t word = 0; word < 8; word++) {
        x += 0x9e3779b97f4a7c15u;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        for (size_t i = 0; i < 64; i++)
            bits[word * 64 + i] = (z >> i) & 1;
    }
    return bits;
}
} // namespace

/* std::bitset's to_string: one branch per bit, taken as the bit says */
void BM_bits_to_chars(benchmark::State &state)
{
    std::bitset<512> bits = fixed_pattern();
    for (auto _ : state) {
        benchmark::DoNotOptimize(bits);
        benchmark::DoNotOptimize(bits.to_string<wchar_t>());
    }
}
BENCHMARK(BM_bits_to_chars);

/* vector<bool> copied bit by bit from the 6th bit on (the words line up),
 * its size from state.range(0): one loop-exit branch every 64 bits */
void BM_copy_bits(benchmark::State &state)
{
    const auto size = static_cast<size_t>(state.range(0));
    std::bitset<512> pattern = fixed_pattern();
    std::vector<bool> source(size);
    for (size_t i = 0; i < size; i++)
        source[i] = pattern[i % 512];
    std::vector<bool> dest(size, false);
    for (auto _ : state) {
        benchmark::DoNotOptimize(source);
        std::copy(source.cbegin() + 5, source.cend(), dest.begin() + 5);
        benchmark::DoNotOptimize(dest);
    }
}
BENCHMARK(BM_copy_bits)->Arg(4096);

BENCHMARK_MAIN();
