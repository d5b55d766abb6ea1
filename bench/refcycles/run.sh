#!/bin/sh
# bench/refcycles/run.sh [BUILD_DIR] - how much reference-normalised time
# (ref-cycles/op) steadies a number, measured: the spread of ns/op and of
# ref-cycles/op across N fresh processes (default 10) of a compute-bound
# and two memory-bound benchmarks (workload.c), once on the machine as it is
# and once with a foreign busy loop on another CPU. Spread is (max - min)
# / median, as issue 3 defines it; CV is stddev / mean.
# Not a test: its numbers depend on the machine. About a minute.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
n=${N:-10}
time_s=${TIME:-0.3s}
tmp=$(mktemp -d)
busy=""
cleanup() {
    [ -n "$busy" ] && kill "$busy" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
[ -f "$build/lib/libbenchlab.a" ] || { echo "bench/refcycles: build first ($build/lib/libbenchlab.a)" >&2; exit 2; }
cc -O2 -std=c17 -I "$here/../../include" "$here/workload.c" "$build/lib/libbenchlab.a" \
    -lm -lpthread -ldl -o "$tmp/workload"
ncpu=$(nproc)
cpu=0
other=$((ncpu > 1 ? 1 : 0))

# spread FILE BENCH UNIT -> "spread% cv%"
spread() {
    awk -v b="$2" -v u="$3" '
        $1 == b { for (i = 3; i < NF; i++) if ($(i+1) == u) v[n++] = $i }
        END {
            if (n < 2) { print "- -"; exit }
            for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            med = n % 2 ? v[int(n/2)] : (v[n/2-1] + v[n/2]) / 2
            for (i = 0; i < n; i++) { s += v[i]; ss += v[i] * v[i] }
            mean = s / n; sd = sqrt((ss - n * mean * mean) / (n - 1))
            printf "%.2f%% %.2f%%\n", (v[n-1] - v[0]) / med * 100, sd / mean * 100
        }' "$1"
}

measure() { # LABEL
    "$tmp/workload" --count "$n" --time "$time_s" --cpu "$cpu" --no-table >"$tmp/$1.txt"
}

echo "benchlab bench/refcycles: $n fresh processes per benchmark, --time $time_s, pinned to CPU $cpu"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $ncpu CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
measure quiet
if [ "$other" != "$cpu" ]; then
    taskset -c "$other" sh -c 'while :; do :; done' &
    busy=$!
    sleep 0.5
    measure loaded
    kill "$busy"
    busy=""
fi
printf '\n| benchmark | condition | ns/op spread | ns/op CV | ref-cycles/op spread | ref-cycles/op CV |\n'
printf '|---|---|---:|---:|---:|---:|\n'
for b in BenchmarkCompute BenchmarkCopy BenchmarkChase; do
    for c in quiet loaded; do
        [ -f "$tmp/$c.txt" ] || continue
        set -- $(spread "$tmp/$c.txt" "$b" ns/op) $(spread "$tmp/$c.txt" "$b" ref-cycles/op)
        label=$c
        [ "$c" = loaded ] && label="busy loop on CPU $other"
        printf '| %s | %s | %s | %s | %s | %s |\n' "$b" "$label" "$1" "$2" "$3" "$4"
    done
done
