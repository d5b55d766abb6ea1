#!/bin/sh
# bench/gbench/empty_loops.sh [BUILD_DIR] - what an empty loop of each of
# Google Benchmark's forms costs beyond the overhead benchlab subtracts
# (the ranged-for loop of the suite, bl__gbench_overhead), measured: the
# suite tests/gbench/loop_suite.cc as built in BUILD_DIR (bl_loop_suite),
# N launches (default 6) of BM_empty_ranged_for, BM_empty_keep_running and
# BM_empty_keep_running_batch1, and also the C engine's empty body
# (fixture_measure's BenchmarkEmpty). Prints per benchmark the hot loop's
# instructions (tests/gbench/loop_asm.py), the median over launches of the
# overhead subtracted, of ns/op after it and their ratio, and of
# ref-cycles/op (after the overhead, in reference cycles).
# This is the figure the test gbench/loops-match-google-benchmark used to
# assert as "ns/op < 0.1" (and engine/empty-body-is-near-zero alike): it
# depends on the machine and on where the linker placed each loop (0.13 ns
# on every run of one build, issue 25), so the tests assert the machine
# code and the subtraction instead, and this reports the time.
# Not a test: numbers of this machine. About 10 s.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
n=${N:-6}
time_s=${TIME:-0.3s}
suite=$build/bin/gbench/bl_loop_suite
fixture=$build/bin/fixture_measure
for f in "$suite" "$fixture"; do
    [ -x "$f" ] || { echo "bench/gbench/empty_loops.sh: no $f: build benchlab in $build first" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "empty loops: $n launches, --time $time_s, load $(cut -d' ' -f1-3 /proc/loadavg) on $(getconf _NPROCESSORS_ONLN) CPUs"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo
echo "hot loops (instructions):"
python3 "$here/../../tests/gbench/loop_asm.py" "$suite" benchmark::bl__gbench_overhead BM_empty_ranged_for \
    BM_empty_keep_running BM_empty_keep_running_batch1 | sed 's/^/  /'
python3 "$here/../../tests/gbench/loop_asm.py" "$fixture" bl__ovh_Empty bl__fn_Empty | sed 's/^/  /'
echo
"$suite" --benchmark_filter=BM_empty --time "$time_s" --count "$n" --no-table --out "$tmp/gb.json" 2>/dev/null
"$fixture" --filter '^BenchmarkEmpty$' --time "$time_s" --count "$n" --no-table --out "$tmp/c.json" 2>/dev/null
python3 - "$tmp/gb.json" "$tmp/c.json" <<'PY'
import json, statistics, sys
print("%-38s %12s %10s %16s %14s" % ("benchmark", "overhead ns", "ns/op", "ns/op / overhead", "ref-cycles/op"))
for path in sys.argv[1:]:
    for b in json.load(open(path))["benchmarks"]:
        ls = [l for l in b["launches"] if l["status"] == "ok"]
        med = lambda k: statistics.median(l[k] for l in ls if l.get(k) is not None)
        ovh, ns, ref = med("overhead_ns"), med("ns_per_op"), med("ref_cycles_per_op")
        print("%-38s %12.3f %10.3f %16.3f %14.3f" % (b["name"], ovh, ns, ns / ovh if ovh else float("nan"), ref))
PY
