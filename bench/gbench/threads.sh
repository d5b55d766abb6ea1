#!/bin/sh
# bench/gbench/threads.sh [BUILD_DIR] - benchlab's figures beside Google
# Benchmark's where they part most: many threads on few CPUs, and long
# operations. Builds threads_suite.cc (ours) twice, unchanged: against
# Debian's libbenchmark 1.7.1 (gb_threads) and against benchlab's layer
# from BUILD_DIR (bl_threads); runs them alternately ROUNDS times with
# --benchmark_format=json at --benchmark_min_time=MIN_TIME; agree.py --cpu
# prints the medians and the ratios benchlab / Google Benchmark of
# real_time and of cpu_time side by side (both in Google Benchmark's
# convention: real_time is the team's wall time over all threads'
# iterations). Not a test: minutes of running, numbers of this machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../..
build=${1:-$src/build}
rounds=${ROUNDS:-3}
min_time=${MIN_TIME:-0.2}
filter=${FILTER:-.}
cxx=${CXX:-c++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lib in "$build/lib/libbenchlab-gbench.a" "$build/lib/libbenchlab.a"; do
    [ -f "$lib" ] || { echo "threads.sh: no $lib: build benchlab in $build first" >&2; exit 2; }
done
[ -f /usr/include/benchmark/benchmark.h ] ||
    { echo "threads.sh: Google Benchmark not installed (apt install libbenchmark-dev)" >&2; exit 2; }
flags="-std=c++17 -O2 -Wall -Wextra"
$cxx $flags -o "$tmp/gb_threads" "$here/threads_suite.cc" -lbenchmark -lpthread
$cxx $flags -I"$src/include/benchlab-gbench" -I"$src/include" -o "$tmp/bl_threads" \
    "$here/threads_suite.cc" "$build/lib/libbenchlab-gbench.a" "$build/lib/libbenchlab.a" \
    -lpthread -ldl -lm
echo "threads_suite: min_time $min_time s, $rounds rounds, load $(cut -d' ' -f1 /proc/loadavg)" \
    "on $(getconf _NPROCESSORS_ONLN) CPUs, benchlab from $build"
i=1
while [ "$i" -le "$rounds" ]; do
    "$tmp/gb_threads" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
        --benchmark_format=json >"$tmp/gb_$i.json" 2>/dev/null
    "$tmp/bl_threads" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
        --benchmark_format=json --no-table >"$tmp/bl_$i.json" 2>"$tmp/bl_$i.err" ||
        { cat "$tmp/bl_$i.err" >&2; echo "threads.sh: the benchlab build failed" >&2; exit 1; }
    i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1 /proc/loadavg)"
python3 "$here/agree.py" --cpu "$tmp"
