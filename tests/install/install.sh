#!/bin/sh
# install.sh BUILD SRC - install, then build and run the tour as a user would.
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/benchlab"
test -f "$tmp/prefix/include/benchlab.h"
# man pages and completions, generated from the option tables (src/docgen)
for f in share/man/man1/benchlab.1 share/man/man1/benchlab-run.1 share/man/man1/benchlab-compare.1 \
    share/man/man1/benchlab-exec.1 share/man/man3/benchlab.3 share/man/man3/benchlab.h.3 \
    share/bash-completion/completions/benchlab share/zsh/site-functions/_benchlab; do
    test -f "$tmp/prefix/$f" || { echo "not installed: $f"; exit 1; }
done
MANWIDTH=80 man -l "$tmp/prefix/share/man/man1/benchlab-run.1" 2>/dev/null | grep -q -- '--filter'
MANWIDTH=80 man -l "$tmp/prefix/share/man/man1/benchlab-exec.1" 2>/dev/null |
    grep -q -- '--parameter-scan VAR MIN MAX'
# benchlab(3) and its other name benchlab.h(3), the C API, render from anywhere
for page in benchlab.3 benchlab.h.3; do
    (cd / && MANWIDTH=80 man -l "$tmp/prefix/share/man/man3/$page" 2>"$tmp/man-err") >"$tmp/man-out"
    grep -q 'benchlab.h - the C API' "$tmp/man-out" &&
        grep -q 'bl_results_create' "$tmp/man-out" && ! grep -q . "$tmp/man-err" ||
        { echo "man -l $page:"; cat "$tmp/man-out" "$tmp/man-err"; exit 1; }
done
bash -c ". '$tmp/prefix/share/bash-completion/completions/benchlab'; complete -p benchlab" |
    grep -q '_benchlab benchlab'
pc=$(find "$tmp/prefix" -name benchlab.pc)
test -n "$pc"
export PKG_CONFIG_PATH=$(dirname "$pc")
cc -std=c17 -O2 -Wall -Wextra -Wpedantic -Werror "$src/examples/sum.c" \
    $(pkg-config --cflags --libs benchlab) -o "$tmp/sum"
"$tmp/sum" --time 0.05s >"$tmp/out" 2>"$tmp/err"
grep -q '^BenchmarkSum/size=64	.* ns/op	.* MB/s$' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; exit 1; }
"$tmp/prefix/bin/benchlab" run "$tmp/sum" --time 0.05s --filter size=4096 >"$tmp/out2" 2>&1
grep -q '^BenchmarkSum/size=4096	' "$tmp/out2" || { cat "$tmp/out2"; exit 1; }
# --save from the suite built the README way: libbenchlab-store is found
# beside the libbenchlab the suite loaded (the rpath), not on the library path
(cd "$tmp" && ./sum --time 0.05s --filter size=64 --save --store "$tmp/s.db") >"$tmp/out" 2>"$tmp/err" ||
    { echo "README-built suite --save:"; cat "$tmp/err"; exit 1; }
grep -q "saved as run 1 in $tmp/s.db" "$tmp/err" || { cat "$tmp/err"; exit 1; }
# and a store it cannot use is refused before anything is measured
echo "not a store, just text" >"$tmp/bad.db"
if "$tmp/sum" --time 0.05s --save --store "$tmp/bad.db" >"$tmp/out" 2>"$tmp/err"; then
    echo "a bad store was accepted"; exit 1
fi
grep -q "bad.db: not a benchlab store.*nothing was measured" "$tmp/err" || { cat "$tmp/err"; exit 1; }
test ! -s "$tmp/out" || { echo "measured before refusing the store"; exit 1; }
# the static library, for suites that must not depend on a shared object
cc -std=c17 -O2 "$src/examples/sum.c" -I"$tmp/prefix/include" \
    "$(find "$tmp/prefix" -name libbenchlab.a)" -lm -lpthread -o "$tmp/sum_static"
"$tmp/sum_static" --list | grep -q '^BenchmarkSum/size=64$'
# CMake: find_package(benchlab)
cmake -S "$src/examples/consumer" -B "$tmp/consumer" -G Ninja \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/sum" --list | grep -q '^BenchmarkSum/size=4096$'
# The Google Benchmark layer: unchanged GB suites, pkg-config and CMake
gbs="$src/tests/gbench/google-benchmark"
c++ -std=c++17 -O2 "$gbs/map_test.cc" $(pkg-config --cflags --libs benchlab-gbench) -o "$tmp/gb_map"
"$tmp/gb_map" --benchmark_list_tests | grep -q '^MapFixture/Lookup/4096$'
c++ -std=c++17 -O2 "$gbs/link_main_test.cc" $(pkg-config --cflags --libs benchlab-gbench-main) \
    -o "$tmp/gb_main"
"$tmp/gb_main" --benchmark_list_tests | grep -q '^BM_empty$'
# the static route, as libbenchlab.a's: libbenchlab-gbench.a is installed, and
# a suite linked with the archives (the main one too) needs neither shared library
gba=$(find "$tmp/prefix" -name libbenchlab-gbench.a)
test -n "$gba" || { echo "make install did not install libbenchlab-gbench.a"; exit 1; }
c++ -std=c++17 -O2 "$gbs/link_main_test.cc" -isystem "$tmp/prefix/include/benchlab-gbench" \
    -I"$tmp/prefix/include" "$(find "$tmp/prefix" -name libbenchlab-gbench-main.a)" "$gba" \
    "$(find "$tmp/prefix" -name libbenchlab.a)" -lm -lpthread -o "$tmp/gb_main_static"
if ldd "$tmp/gb_main_static" | grep -q libbenchlab; then
    echo "the archives' suite loads a shared benchlab library:"; ldd "$tmp/gb_main_static"; exit 1
fi
"$tmp/gb_main_static" --benchmark_min_time=0.02 --no-table >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
grep -q '^BenchmarkBM_empty	' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; exit 1; }
# its header is a system header, as Debian's /usr/include/benchmark/benchmark.h
# is (and as CMake's imported targets make it): a project's own warnings
# with -Werror do not fire inside it (BENCHMARK_MAIN's trailing
# redeclaration of main, Google Benchmark's too, is -Wredundant-decls)
cat >"$tmp/strict.cc" <<'END'
#include <benchmark/benchmark.h>
static void BM_x(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(state.range(0));
}
BENCHMARK(BM_x)->Arg(1);
BENCHMARK_MAIN();
END
c++ -std=c++17 -O2 -Wall -Wextra -Wpedantic -Wredundant-decls -Wshadow -Wconversion -Werror \
    "$tmp/strict.cc" $(pkg-config --cflags --libs benchlab-gbench) -o "$tmp/gb_strict" ||
    { echo "a strict-warnings suite does not build through pkg-config benchlab-gbench"; exit 1; }
"$tmp/gb_strict" --benchmark_list_tests | grep -q '^BM_x/1$'
# Google Benchmark's flags on the installed layer: --benchmark_out writes the JSON
"$tmp/gb_strict" --benchmark_min_time=0.01 --benchmark_out="$tmp/gb.json" --count 2 >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
test ! -s "$tmp/out" || { echo "--benchmark_out: stdout not empty"; cat "$tmp/out"; exit 1; }
grep -q '"run_name": "BM_x/1"' "$tmp/gb.json" || { cat "$tmp/gb.json"; exit 1; }
cmake -S "$src/tests/install/gbench_consumer" -B "$tmp/gbc" -G Ninja \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" -DSUITES="$gbs" >/dev/null
cmake --build "$tmp/gbc" >/dev/null
"$tmp/gbc/map_test" --benchmark_list_tests | grep -q '^BM_MapLookup/8$'
"$tmp/gbc/link_main_test" --benchmark_min_time=0.02 --no-table >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
grep -q '^BenchmarkBM_empty	' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; exit 1; }
# benchlab::gbench_static: the archives, through CMake
if ldd "$tmp/gbc/map_test_static" | grep -q libbenchlab; then
    echo "benchlab::gbench_static loads a shared benchlab library:"; ldd "$tmp/gbc/map_test_static"; exit 1
fi
"$tmp/gbc/map_test_static" --benchmark_list_tests | grep -q '^MapFixture/Lookup/4096$'
# find_package(benchmark), Google Benchmark's own CMake lines unchanged: benchlab's
# benchmarkConfig.cmake sits in lib/cmake/benchlab-gbench, used when asked for...
gbcfg=$(find "$tmp/prefix" -name benchmarkConfig.cmake)
gbdir=$(dirname "$gbcfg")
test "$(basename "$gbdir")" = benchlab-gbench -a -f "$gbdir/benchmarkConfigVersion.cmake" ||
    { echo "benchmarkConfig.cmake not installed in lib/cmake/benchlab-gbench: '$gbcfg'"; exit 1; }
for ask in "-Dbenchmark_DIR=$gbdir" "-DCMAKE_PREFIX_PATH=$gbdir"; do
    rm -rf "$tmp/gfb"
    cmake -S "$src/tests/install/gb_find_benchmark" -B "$tmp/gfb" -G Ninja "$ask" -DSUITES="$gbs" \
        >"$tmp/out" 2>&1 || { echo "find_package(benchmark) with $ask:"; cat "$tmp/out"; exit 1; }
    grep -q "^benchmark_DIR:[A-Z]*=$gbdir\$" "$tmp/gfb/CMakeCache.txt" ||
        { echo "$ask:"; grep '^benchmark_DIR' "$tmp/gfb/CMakeCache.txt"; exit 1; }
    cmake --build "$tmp/gfb" >/dev/null
    "$tmp/gfb/map_test" --benchmark_list_tests | grep -q '^MapFixture/Lookup/4096$'
    # benchlab's options and Go lines: benchmark::benchmark_main is benchlab's main
    "$tmp/gfb/link_main_test" --benchmark_min_time=0.02 --no-table >"$tmp/out" 2>"$tmp/err" ||
        { cat "$tmp/err"; exit 1; }
    grep -q '^BenchmarkBM_empty	' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; exit 1; }
done
# ...not otherwise: benchlab's prefix alone leaves find_package(benchmark) to Google Benchmark
rm -rf "$tmp/gfb"
if cmake -S "$src/tests/install/gb_find_benchmark" -B "$tmp/gfb" -G Ninja \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" -DSUITES="$gbs" >"$tmp/out" 2>&1; then
    if grep -q "^benchmark_DIR:[A-Z]*=$tmp/" "$tmp/gfb/CMakeCache.txt"; then
        echo "find_package(benchmark) took benchlab's layer unasked"; exit 1
    fi
fi
# its version is Google Benchmark 1.7.1's, with Google Benchmark's rule (same major)
mkdir "$tmp/gv"
for want in 1.5 1.7.1 1.8; do
    printf 'cmake_minimum_required(VERSION 3.22)\nproject(gv CXX)\nfind_package(benchmark %s REQUIRED)\n' \
        "$want" >"$tmp/gv/CMakeLists.txt"
    rm -rf "$tmp/gv/b"
    if cmake -S "$tmp/gv" -B "$tmp/gv/b" -Dbenchmark_DIR="$gbdir" >"$tmp/out" 2>&1; then
        test "$want" != 1.8 || { echo "find_package(benchmark 1.8) accepted 1.7.1"; exit 1; }
        grep -q "^benchmark_DIR:[A-Z]*=$gbdir\$" "$tmp/gv/b/CMakeCache.txt" ||
            { echo "find_package(benchmark $want) did not take benchlab's"; exit 1; }
    else
        test "$want" = 1.8 && grep -q 'version: 1\.7\.1' "$tmp/out" ||
            { echo "find_package(benchmark $want):"; cat "$tmp/out"; exit 1; }
    fi
done
# a project that asks for the policies of an old CMake (cmake_minimum_required
# 3.1, as xtensor-benchmark's CMakeLists does) finds and links it all the same
printf 'cmake_minimum_required(VERSION 3.1)\nproject(gold CXX)\nfind_package(benchmark REQUIRED)\nadd_executable(map_test %s/map_test.cc)\ntarget_link_libraries(map_test benchmark::benchmark_main)\n' \
    "$gbs" >"$tmp/gv/CMakeLists.txt"
rm -rf "$tmp/gv/b"
cmake -S "$tmp/gv" -B "$tmp/gv/b" -G Ninja -Wno-dev -Dbenchmark_DIR="$gbdir" >"$tmp/out" 2>&1 ||
    { echo "find_package(benchmark) under CMake 3.1's policies:"; cat "$tmp/out"; exit 1; }
cmake --build "$tmp/gv/b" >/dev/null
"$tmp/gv/b/map_test" --benchmark_list_tests | grep -q '^MapFixture/Lookup/4096$'
# moved away from the benchlab package it stands on, it says so
cp -r "$gbdir" "$tmp/lone"
printf 'cmake_minimum_required(VERSION 3.22)\nproject(gv CXX)\nfind_package(benchmark REQUIRED)\n' \
    >"$tmp/gv/CMakeLists.txt"
rm -rf "$tmp/gv/b"
if cmake -S "$tmp/gv" -B "$tmp/gv/b" -Dbenchmark_DIR="$tmp/lone" >"$tmp/out" 2>&1; then
    echo "a lone benchmarkConfig.cmake was accepted"; exit 1
fi
grep -q 'benchlab' "$tmp/out" || { cat "$tmp/out"; exit 1; }
# The profilers: the libraries are installed, and the installed benchlab
# finds its sampler by itself (beside its executable, even moved elsewhere).
unset BENCHLAB_SAMPLER_LIB
for f in libbenchlab-sampler.so libbenchlab-trace.so libbenchlab-trace.a libbenchlab-profile.a \
    benchlab-trace.pc benchlab-profile.pc; do
    test -n "$(find "$tmp/prefix" -name "$f")" || { echo "not installed: $f"; exit 1; }
done
cat >"$tmp/spin.c" <<'END'
#include <stdint.h>
#include <stdio.h>
static volatile uint64_t sink;
__attribute__((noinline)) void hot(void)
{
    uint64_t x = 1;
    for (int i = 0; i < 20000000; i++)
        x = x * 6364136223846793005u + 1;
    sink += x;
}
int main(void)
{
    for (int r = 0; r < 5; r++)
        hot();
    printf("spin done\n");
    return 0;
}
END
cc -O2 -g -fno-omit-frame-pointer "$tmp/spin.c" -o "$tmp/spin"
"$tmp/prefix/bin/benchlab" profile -o "$tmp/p.folded" -- "$tmp/spin" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
grep -q 'hot' "$tmp/p.folded" || { cat "$tmp/err" "$tmp/p.folded"; exit 1; }
mv "$tmp/prefix" "$tmp/moved"
"$tmp/moved/bin/benchlab" profile -o "$tmp/m.folded" -- "$tmp/spin" >"$tmp/out" 2>"$tmp/err" ||
    { echo "moved prefix:"; cat "$tmp/err"; exit 1; }
grep -q 'hot' "$tmp/m.folded" || { cat "$tmp/err"; exit 1; }
mv "$tmp/moved" "$tmp/prefix"
# tracing with pkg-config benchlab-trace: exact calls
cc -O2 "$tmp/spin.c" $(pkg-config --cflags --libs benchlab-trace) -o "$tmp/spin_traced"
"$tmp/prefix/bin/benchlab" profile --mode trace -o "$tmp/t.csv" -- "$tmp/spin_traced" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
grep -q '^hot,5,' "$tmp/t.csv" || { cat "$tmp/err" "$tmp/t.csv"; exit 1; }
# libbenchlab-profile (profile.h) through pkg-config and through find_package
cat >"$tmp/tree.c" <<'END'
#include <benchlab/profile.h>
int main(void)
{
    bl_profile *p = bl_profile_create(BL_PROFILE_SAMPLED);
    const char *a[] = {"main", "work", "hot"}, *b[] = {"main", "cold"};
    int err = !p || bl_profile_add_stack(p, a, 3, 3e6, 0) || bl_profile_add_stack(p, b, 2, 1e6, 0) ||
              bl_profile_write(p, BL_PROFILE_FOLDED, stdout);
    bl_profile_destroy(p);
    return err;
}
END
cc -std=c17 -Wall -Wextra -Werror "$tmp/tree.c" $(pkg-config --cflags --libs benchlab-profile) \
    -o "$tmp/tree"
"$tmp/tree" >"$tmp/tree.out"
grep -q '^main;work;hot ' "$tmp/tree.out" || { cat "$tmp/tree.out"; exit 1; }
mkdir "$tmp/pc"
cat >"$tmp/pc/CMakeLists.txt" <<END
cmake_minimum_required(VERSION 3.22)
project(profile_consumer C)
find_package(benchlab 0.1 REQUIRED COMPONENTS profile)
add_executable(tree $tmp/tree.c)
target_link_libraries(tree PRIVATE benchlab::profile)
add_executable(spin_traced $tmp/spin.c)
target_compile_options(spin_traced PRIVATE -finstrument-functions)
target_link_libraries(spin_traced PRIVATE benchlab::trace)
END
cmake -S "$tmp/pc" -B "$tmp/pc/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/pc/build" >/dev/null
"$tmp/pc/build/tree" | grep -q '^main;cold ' || { echo "find_package: tree"; exit 1; }
"$tmp/prefix/bin/benchlab" profile --mode trace -o "$tmp/t2.csv" -- "$tmp/pc/build/spin_traced" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
grep -q '^hot,5,' "$tmp/t2.csv" || { cat "$tmp/err" "$tmp/t2.csv"; exit 1; }
# run --profile from the installed command: one profile per benchmark (0.5 s, so that a
# loaded machine still leaves the measured batches enough CPU time for samples at 1 kHz)
"$tmp/prefix/bin/benchlab" run "$tmp/sum" --profile --time 0.5s --filter size=64 \
    --profile-dir "$tmp/pd" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
test -s "$tmp/pd/BenchmarkSum_size=64.txt" || { cat "$tmp/err"; exit 1; }
echo "ok install"
