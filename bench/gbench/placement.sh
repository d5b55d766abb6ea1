#!/bin/sh
# bench/gbench/placement.sh [BUILD_DIR] - how much a benchmark's time
# depends on where its code lies, with Google Benchmark and with benchlab's
# layer alike. Compiles SUITE (default placement_suite.cc, ours) once
# against Debian's libbenchmark 1.7.1 and once against the layer of
# BUILD_DIR, then links each object again behind 0, 16, 32 ... 240 bytes
# of padding (PADS), which moves all of the suite's code by that much and
# changes nothing else, and runs both builds at every placement with
# --benchmark_format=json. Prints, per placement, the address of SYMBOL
# (the benchmark's function) in each build and the cpu_time of the first
# benchmark FILTER selects; then each tool's median and range over the
# placements. When either tool's range is wider than the gap between the
# two at the default link (padding 0), that gap is placement, not
# measurement (README.md, "Code placement"). Not a test: minutes of
# running, numbers of this machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../..
build=${1:-$src/build}
suite=${SUITE:-$here/placement_suite.cc}
filter=${FILTER:-BM_bits_to_chars}
symbol=${SYMBOL:-BM_bits_to_chars(benchmark::State&)}
pads=${PADS:-0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 240}
min_time=${MIN_TIME:-0.1}
cxx=${CXX:-c++}
flags=${CXXFLAGS:--std=c++17 -O2}
for lib in "$build/lib/libbenchlab-gbench.a" "$build/lib/libbenchlab.a"; do
    [ -f "$lib" ] || { echo "placement.sh: no $lib: build benchlab in $build first" >&2; exit 2; }
done
[ -f /usr/include/benchmark/benchmark.h ] ||
    { echo "placement.sh: Google Benchmark not installed (apt install libbenchmark-dev)" >&2; exit 2; }
[ -f "$suite" ] || { echo "placement.sh: SUITE $suite: no such file" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # flags are words
$cxx $flags -c -o "$tmp/gb.o" "$suite"
# shellcheck disable=SC2086
$cxx $flags -I"$src/include/benchlab-gbench" -I"$src/include" -c -o "$tmp/bl.o" "$suite"
cpu_time() { # the cpu_time of the first iteration row of Google Benchmark's JSON on stdin
    python3 -c 'import json, sys
rows = [b for b in json.load(sys.stdin)["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
print("%.1f" % rows[0]["cpu_time"] if rows else "none")'
}
address() { # the address of $symbol in executable $1, or -
    nm -C "$1" | awk -v s="$symbol" 'index($0, " " s) && $2 ~ /^[TtWw]$/ { print $1; exit }' |
        sed 's/^0*//; s/^$/-/'
}
echo "$(basename "$suite"), filter $filter, min_time $min_time, load $(cut -d' ' -f1 /proc/loadavg)" \
    "on $(getconf _NPROCESSORS_ONLN) CPUs, benchlab from $build"
echo "padding  GB address  GB cpu ns  benchlab address  benchlab cpu ns"
for pad in $pads; do
    { printf '.section .note.GNU-stack,"",@progbits\n.text\n'
      [ "$pad" -eq 0 ] || printf '.skip %d, 0xcc\n' "$pad"; } >"$tmp/pad.s"
    $cxx -c -o "$tmp/pad.o" "$tmp/pad.s"
    $cxx -o "$tmp/gb" "$tmp/pad.o" "$tmp/gb.o" -lbenchmark -lpthread
    $cxx -o "$tmp/bl" "$tmp/pad.o" "$tmp/bl.o" "$build/lib/libbenchlab-gbench.a" \
        "$build/lib/libbenchlab.a" -lpthread -ldl -lm
    g=$("$tmp/gb" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
        --benchmark_format=json 2>/dev/null | cpu_time)
    b=$("$tmp/bl" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
        --benchmark_format=json --no-table 2>/dev/null | cpu_time)
    printf '%7s  %10s  %9s  %16s  %15s\n' "$pad" "$(address "$tmp/gb")" "$g" \
        "$(address "$tmp/bl")" "$b" | tee -a "$tmp/rows"
done
python3 - "$tmp/rows" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
rows = [r for r in rows if r[2] != "none" and r[4] != "none"]
if not rows:
    sys.exit("placement.sh: no placement gave both figures")
for name, col in (("Google Benchmark", 2), ("benchlab", 4)):
    v = [float(r[col]) for r in rows]
    print("%-16s median %.1f ns over %d placements, %.1f-%.1f (max/min %.2f)"
          % (name, statistics.median(v), len(v), min(v), max(v), max(v) / min(v)))
g = statistics.median(float(r[2]) for r in rows)
b = statistics.median(float(r[4]) for r in rows)
print("benchlab / Google Benchmark: %.2f at padding %s, %.2f of the medians over placements"
      % (float(rows[0][4]) / float(rows[0][2]), rows[0][0], b / g))
EOF
