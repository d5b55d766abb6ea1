#!/bin/sh
# bench/gbench/run.sh [BUILD_DIR] [GB_TOOLS_DIR] - agreement of the Google
# Benchmark layer with Google Benchmark itself: the same unchanged suites
# (tests/gbench), built against Debian's libbenchmark (gb_*) and against
# benchlab's layer (bl_*), run alternately ROUNDS times each with
# --benchmark_format=json. agree.py prints, per benchmark, the medians of
# GB's real_time and cpu_time and benchlab's real_time, and the ratios
# benchlab/GB. With GB_TOOLS_DIR (Google Benchmark's tools/, holding
# compare.py and gbench/), benchlab's JSON also goes through compare.py.
# CPU=1: benchlab's cpu_time too, and the cpu/cpu ratios (agree.py --cpu).
# Not a test: minutes of running, numbers of this machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
tools=${2:-}
rounds=${ROUNDS:-5}
filter=${FILTER:-'BM_MapLookup/(8|64|512)$|MapFixture/Lookup/(8|64|512)$'}
suite=${SUITE:-map_test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gb="$build/bin/gbench/gb_$suite"
bl="$build/bin/gbench/bl_$suite"
[ -x "$gb" ] && [ -x "$bl" ] || { echo "build $gb and $bl first (libbenchmark-dev installed)" >&2; exit 2; }
echo "suite $suite, filter $filter, $rounds rounds, load $(cut -d' ' -f1 /proc/loadavg) on $(getconf _NPROCESSORS_ONLN) CPUs"
i=1
while [ "$i" -le "$rounds" ]; do
    "$gb" --benchmark_filter="$filter" --benchmark_format=json >"$tmp/gb_$i.json" 2>/dev/null
    "$bl" --benchmark_filter="$filter" --benchmark_format=json --no-table >"$tmp/bl_$i.json" 2>/dev/null
    i=$((i + 1))
done
python3 "$here/agree.py" ${CPU:+--cpu} "$tmp"
if [ -n "$tools" ]; then
    /usr/bin/python3 "$tools/compare.py" benchmarks "$tmp/gb_1.json" "$tmp/bl_1.json" >"$tmp/cmp" 2>&1 ||
        { cat "$tmp/cmp"; echo "compare.py refused benchlab's JSON" >&2; exit 1; }
    echo "compare.py read benchlab's JSON: $(grep -c . "$tmp/cmp") lines of comparison"
fi
