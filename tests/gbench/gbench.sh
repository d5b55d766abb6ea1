#!/bin/sh
# gbench.sh CASE BIN "SUITES" with-gb|without-gb - Google Benchmark's own
# test suites built unchanged against benchlab's layer (BIN/bl_*) and, with
# Debian's libbenchmark-dev, against Google Benchmark itself (BIN/gb_*).
set -u
case_name=$1
bin=$2
suites=$(echo "$3" | tr ";" " ")
have_gb=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/../support/e2e_lib.sh"
ncpu=$(getconf _NPROCESSORS_ONLN)

# Google Benchmark's listing of SUITE with ARGS...: the live one when it is
# installed, else the one recorded from v1.7.1 (with this machine's CPUs).
# A fixture's destructor may print after the list (multiple_ranges_test
# checks what ran): that is not part of the listing.
gb_list() {
    s=$1
    shift
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_$s" --benchmark_list_tests "$@" 2>/dev/null | sed '/^EXPECTED$/,$d'
    else
        # the recorded listing, filtered as Google Benchmark filters (ERE)
        f=.
        for a in "$@"; do
            case $a in --benchmark_filter=*) f=${a#--benchmark_filter=} ;; esac
        done
        [ "$f" = all ] && f=.
        case $f in
        -*) sed "s/@NCPU@/$ncpu/" "$here/expected/$s.list" | grep -Ev -- "${f#-}" ;;
        *) sed "s/@NCPU@/$ncpu/" "$here/expected/$s.list" | grep -E -- "$f" ;;
        esac
    fi
}

same_list() { # SUITE ARGS...
    s=$1
    gb_list "$@" >"$tmp/want"
    shift
    run "$bin/bl_$s" --benchmark_list_tests "$@"
    expect_status 0
    diff "$tmp/want" "$tmp/out" >"$tmp/diff" ||
        { cat "$tmp/diff"; fail "$s $*: --benchmark_list_tests differs from Google Benchmark's"; }
}

case $case_name in
list-tests-match-google-benchmark)
    for s in $suites; do
        same_list "$s"
        [ -s "$tmp/out" ] || fail "$s lists nothing"
    done
    # the recorded listings are what Google Benchmark printed, too
    if [ "$have_gb" = with-gb ]; then
        for s in $suites; do
            "$bin/gb_$s" --benchmark_list_tests 2>/dev/null | sed '/^EXPECTED$/,$d' >"$tmp/live"
            sed "s/@NCPU@/$ncpu/" "$here/expected/$s.list" | diff - "$tmp/live" >/dev/null ||
                fail "$s: expected/$s.list is not Google Benchmark's listing on this machine"
        done
    fi
    ;;
filters-like-google-benchmark)
    same_list basic_test --benchmark_filter=BM_spin
    same_list basic_test --benchmark_filter=-BM_spin
    same_list basic_test --benchmark_filter='^BM_empty'
    same_list basic_test --benchmark_filter='/8192(/|$)'
    same_list benchmark_test --benchmark_filter='threads:(1|4)$'
    same_list benchmark_test --benchmark_filter=-threads
    same_list options_test --benchmark_filter=all
    same_list map_test --benchmark_filter=MapFixture
    ;;
runs-under-benchlab)
    # measured by benchlab's engine: Go lines named Benchmark + GB's name
    run "$bin/bl_map_test" --benchmark_filter='BM_MapLookup/(8|64)$' --time 0.05s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_MapLookup/8	.* ns/op	.* items/s$'
    out_has '^BenchmarkBM_MapLookup/64	.* ns/op	.* items/s$'
    out_lacks 'BenchmarkBM_MapLookup/512'
    out_lacks 'MapFixture'
    # a negative filter runs the rest
    run "$bin/bl_map_test" --benchmark_filter=-BM_MapLookup --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkMapFixture/Lookup/8	'
    out_lacks 'BenchmarkBM_MapLookup'
    # fixtures with SetUp/TearDown (their asserts are compiled in), threads
    run "$bin/bl_fixture_test" --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkMyFixture/Foo	'
    out_has '^BenchmarkMyFixture/Bar/42	.* items/s$'
    out_has "^BenchmarkMyFixture/Bar/42/threads:$ncpu	"
    # templates, range-for and KeepRunning, pauses
    run "$bin/bl_basic_test" --benchmark_filter='BM_(OneTemplateFunc|TwoTemplateFunc|KeepRunning$|pause_during$)' \
        --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_OneTemplateFunc<int>/1	'
    out_has '^BenchmarkBM_TwoTemplateFunc<int,_double>/1	' # whitespace becomes _ in the Go format
    out_has '^BenchmarkBM_KeepRunning	'
    out_has '^BenchmarkBM_pause_during	'
    # KeepRunningBatch: the suite asserts that iterations() is its steps x 1009
    run "$bin/bl_basic_test" --benchmark_filter=BM_KeepRunningBatch --time 0.02s --count 2 --no-table
    expect_status 0
    out_has '^BenchmarkBM_KeepRunningBatch/repeats:1	'
    # a suite without main, linked with benchlab-gbench-main
    run "$bin/bl_link_main_test" --benchmark_min_time=0.02 --benchmark_repetitions=1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_empty	'
    # benchlab's own command runs it as any suite
    run "$bin/../benchlab" run "$bin/bl_map_test" --filter 'MapLookup/8$' --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_MapLookup/8	'
    # benchlab's own --filter takes a negative filter too, on its full names
    run "$bin/bl_map_test" --filter -MapFixture --list
    expect_status 0
    [ "$(wc -l <"$tmp/out")" -eq 4 ] || fail "--filter -MapFixture: want the 4 BM_MapLookup"
    out_lacks MapFixture
    # a name Google Benchmark repeats: each instance keeps its own (#01)
    run "$bin/bl_options_test" --list
    expect_status 0
    out_has '^BenchmarkBM_basic_slow/1000$'
    out_has '^BenchmarkBM_basic_slow/1000#01$'
    ;;
api-counters-and-fixtures)
    run "$bin/bl_api_suite" --time 0.05s --count 1 --no-table
    expect_status 0
    out_lacks 'DISABLED'
    grep '^BenchmarkBM_counters	' "$tmp/out" >"$tmp/line" || fail "no BM_counters line"
    # plain values as set; kAvgIterations divided by the iterations run;
    # kInvert last; OneK changes only Google Benchmark's display
    grep -q '	 *3.000 plain' "$tmp/line" || fail "plain counter"
    grep -q '	 *4.000 avg_iter' "$tmp/line" || fail "kAvgIterations counter"
    grep -q '	 *0.2500 inverted' "$tmp/line" || fail "kInvert counter"
    grep -q '	 *1.000 kibi' "$tmp/line" || fail "kIs1024 counter"
    # rates come from one time per op: 10 per op (kIsRate over iterations)
    # against 2 per op (kIsIterationInvariantRate) is 5 to 1; MB/s is
    # benchlab's own, over the wall time where counters are over the CPU
    # time (counters-like-google-benchmark checks GB's bytes_per_second)
    val() { tr '\t' '\n' <"$tmp/line" | awk -v u="$1" '$2 == u { print $1 }'; }
    r10=$(val per_op_rate/s)
    r2=$(val inv_rate/s)
    mbs=$(val MB/s)
    [ -n "$r10" ] && [ -n "$r2" ] && [ -n "$mbs" ] || fail "rates missing"
    check "$(awk -v a="$r10" -v b="$r2" 'BEGIN { print a / b }')" 'x > 4.99 && x < 5.01' "rate ratio"
    # threads: GB sums counters over threads unless kAvgThreads
    out_has '^BenchmarkBM_thread_counters/threads:2	.*	 *1.000 averaged	 *2.000 summed$'
    # captures, fixtures with SetUp(State&), Setup callbacks, lambdas with arguments
    out_has '^BenchmarkBM_capture/my_case	'
    out_has '^BenchmarkBM_with_setup/3	'
    out_has '^BenchmarkTFixture<int>/Sum/256	.* items/s$'
    out_has '^BenchmarkBM_pair<char,_long>/threads:2	'
    out_has '^Benchmarklambda/extra_arg	'
    out_has '^Benchmarklambda/plain/7	'
    out_lacks 'FAIL\|SKIP'
    ;;
gbench-json-is-written)
    # Google Benchmark's JSON, with one repetition per launch and aggregates
    run "$bin/bl_api_suite" --benchmark_filter='^(BM_counters|TFixture<int>/Sum/16|BM_thread_counters/threads:2)$' \
        --benchmark_format=json --time 0.03s --count 2 --no-table
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "Google Benchmark JSON is wrong"
import json, sys
doc = json.load(open(sys.argv[1]))
ctx = doc["context"]
for k in ("date", "host_name", "executable", "num_cpus", "library_build_type"):
    assert k in ctx, k
runs = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
aggs = [b for b in doc["benchmarks"] if b["run_type"] == "aggregate"]
names = sorted({b["run_name"] for b in runs})
assert names == ["BM_counters", "BM_thread_counters/threads:2", "TFixture<int>/Sum/16"], names
for b in runs:
    for k in ("name", "run_name", "repetitions", "repetition_index", "threads", "iterations",
              "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index"):
        assert k in b, (b["name"], k)
    assert b["repetitions"] == 2 and b["time_unit"] == "ns", b
    assert b["iterations"] > 0 and b["real_time"] >= 0 and b["cpu_time"] >= 0, b
c = [b for b in runs if b["run_name"] == "BM_counters"][0]
assert c["plain"] == 3 and c["avg_iter"] == 4 and c["inverted"] == 0.25, c
assert abs(c["per_op_rate"] / c["inv_rate"] - 5) < 1e-6, c
assert abs(c["bytes_per_second"] / c["inv_rate"] - 500) < 1e-3, c
t = [b for b in runs if b["run_name"] == "BM_thread_counters/threads:2"][0]
assert t["threads"] == 2 and t["summed"] == 2 and t["averaged"] == 1, t
assert [b for b in runs if b["run_name"].startswith("TFixture")][0]["items_per_second"] > 0
kinds = sorted({(b["run_name"], b["aggregate_name"]) for b in aggs})
assert len(kinds) == 12 and all(b["name"] == b["run_name"] + "_" + b["aggregate_name"] for b in aggs), kinds
PY
    # --benchmark_out: the file gets the JSON
    run "$bin/bl_api_suite" --benchmark_filter='^BM_capture' --benchmark_out="$tmp/o.json" \
        --time 0.02s --count 1 --no-table
    expect_status 0
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); b=d["benchmarks"][0]; assert b["name"] == "BM_capture/my_case" and b["label"] == "hello world"' \
        "$tmp/o.json" || fail "--benchmark_out wrote no Google Benchmark JSON"
    ;;
iterations-manual-time-and-plans)
    # Iterations(n): options_test asserts max_iterations == 42 before its
    # loop and iterations() == 42 after it, and that it runs once a process
    run "$bin/bl_options_test" --benchmark_filter=BM_explicit_iteration_count --time 0.02s --count 2 --no-table
    expect_status 0
    [ "$(grep -c '^BenchmarkBM_explicit_iteration_count/iterations:42	 *42	' "$tmp/out")" -eq 2 ] ||
        fail "want 2 launches of exactly 42 iterations"
    # max_iterations after the loop is the count run (basic_test's BM_RangedFor asserts it)
    run "$bin/bl_basic_test" --benchmark_filter=BM_RangedFor --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_RangedFor	'
    # read before an adaptive loop, it fails the benchmark, named
    run env API_SUITE_EARLY_MAX_ITERATIONS=1 "$bin/bl_api_suite" --benchmark_filter=max_iterations_early \
        --time 0.02s --count 1 --no-table
    expect_status 1
    err_has 'benchlab: max_iterations_early: state.max_iterations read before the loop ended'
    run "$bin/bl_api_suite" --benchmark_filter='^(BM_fixed_iterations|BM_manual|BM_own_plan)' \
        --time 0.02s --count 2 --no-table
    expect_status 0
    [ "$(grep -c '^BenchmarkBM_fixed_iterations/iterations:100	 *100	.*	 *100.0 loop_reps$' "$tmp/out")" -eq 2 ] ||
        fail "Iterations(100): want 2 launches of 100"
    # UseManualTime: SetIterationTime(0.001) each repetition is 1 ms/op, whatever the clock says
    ns=$(awk '$1 == "BenchmarkBM_manual/manual_time" { print $3; exit }' "$tmp/out")
    check "$ns" 'x >= 999999 && x <= 1000001' "UseManualTime: 1 ms per repetition"
    # Repetitions(3) wins over --count 2 (and MinTime, MinWarmUpTime are taken)
    [ "$(grep -c '^BenchmarkBM_own_plan/min_time:0.300/min_warmup_time:0.010/repeats:3	' "$tmp/out")" -eq 3 ] ||
        fail "Repetitions(3): want 3 launches"
    # benchmark_test's BM_ManualTiming sleeps and reports the time it slept
    run "$bin/bl_benchmark_test" --benchmark_filter='BM_ManualTiming/1/manual_time' --time 0.05s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_ManualTiming/1/manual_time	'
    # --benchmark_min_time=Nx: exactly N iterations a launch
    run "$bin/bl_map_test" --benchmark_min_time=100x --benchmark_filter='BM_MapLookup/8$' --count 2 --no-table
    expect_status 0
    [ "$(grep -c '^BenchmarkBM_MapLookup/8	 *100	' "$tmp/out")" -eq 2 ] || fail "100x: want 2 launches of 100"
    for bad in x 0x 1.5x -3x 12ax; do
        run "$bin/bl_map_test" --benchmark_min_time=$bad
        expect_status 2
        err_has 'benchmark_min_time: the Nx form needs a whole number of iterations'
    done
    # and the time forms: plain seconds and Ns
    for t in 0.02 0.02s; do
        run "$bin/bl_map_test" --benchmark_min_time=$t --benchmark_filter='BM_MapLookup/8$' \
            --benchmark_repetitions=1 --no-table
        expect_status 0
        out_has '^# time-budget-s: 0.02$'
    done
    ;;
complexity-statistics-and-formats)
    # Complexity(oN | oAuto | lambda) with SetComplexityN, ComputeStatistics
    # and kInvert on a rate, in Google Benchmark's JSON
    f='^BM_(linear|auto|lambda|stats|inverted_rate)(/|$)'
    run "$bin/bl_api_suite" --benchmark_filter="$f" --benchmark_format=json --time 0.05s --count 2 --no-table
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "BigO, RMS, statistics or kInvert wrong in Google Benchmark JSON"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
by = {}
for i, b in enumerate(rows):
    by.setdefault(b["name"], []).append((i, b))
def one(name):
    assert name in by, (name, sorted(by))
    return by[name][0]
# the fit's rows follow the last instance of the family, as Google Benchmark writes them
for fam, curve in (("BM_linear", "N"), ("BM_lambda", "f(N)")):
    i, big = one(fam + "_BigO")
    j, rms = one(fam + "_RMS")
    last = max(k for n, v in by.items() if n.startswith(fam + "/") for k, _ in v)
    assert i == last + 1 and j == i + 1, (fam, i, j, last)
    assert big["run_name"] == fam and big["run_type"] == "aggregate", big
    assert big["aggregate_name"] == "BigO" and big["big_o"] == curve, big
    assert big["real_coefficient"] > 0 and big["cpu_coefficient"] > 0 and big["time_unit"] == "ns", big
    assert rms["aggregate_name"] == "RMS" and rms["aggregate_unit"] == "percentage", rms
    assert rms["rms"] >= 0, rms
_, auto = one("BM_auto_BigO")
assert auto["big_o"] in ("(1)", "N", "N^2", "N^3", "lgN", "NlgN"), auto
# statistics of its own: computed over the launches, after the four aggregates
its = [b for b in rows if b["name"] == "BM_stats" and b["run_type"] == "iteration"]
assert len(its) == 2, its
i, mx = one("BM_stats_max")
assert rows[i - 1]["name"] == "BM_stats_cv", rows[i - 1]["name"]
assert mx["aggregate_name"] == "max" and mx["aggregate_unit"] == "time", mx
assert mx["real_time"] == max(b["real_time"] for b in its), mx
assert mx["cpu_time"] == max(b["cpu_time"] for b in its) and mx["plain"] == 3, mx
_, ratio = one("BM_stats_ratio")
rt = [b["real_time"] for b in its]
assert ratio["aggregate_unit"] == "percentage", ratio
assert abs(ratio["real_time"] - min(rt) / max(rt)) < 1e-12, ratio
# kInvert on a rate: 1 / (2 per op / CPU time per op), in seconds (the CPU
# time: Google Benchmark's clock of rates without UseRealTime)
for b in by["BM_inverted_rate"]:
    b = b[1]
    assert abs(b["sec_per_2"] * 2e9 / b["cpu_time"] - 1) < 1e-9, b
PY
    # the console: Google Benchmark's columns
    run "$bin/bl_api_suite" --benchmark_filter="$f" --benchmark_format=console --time 0.05s --count 2 --no-table
    expect_status 0
    out_has '^----*$'
    out_has '^Benchmark  *Time  *CPU  *Iterations UserCounters\.\.\.$'
    out_has '^BM_linear/256  *[0-9.]* ns  *[0-9.]* ns  *[0-9]*$'
    out_has '^BM_linear/256_cv  *[0-9.]* %  *[0-9.]* %  *2$'
    out_has '^BM_linear_BigO  *[0-9.]* N  *[0-9.]* N  *$'
    out_has '^BM_linear_RMS  *[0-9]* %  *[0-9]* %  *$'
    out_has '^BM_lambda_BigO  *[0-9.]* f(N)  *[0-9.]* f(N) *$'
    out_has '^BM_stats_max  *[0-9.]* ns  *[0-9.]* ns  *2 plain=3$'
    out_has '^BM_stats_ratio  *[0-9.]* %  *[0-9.]* %  *2 plain=100.00%$'
    out_has '^BM_inverted_rate  *[0-9.]* ns  *[0-9.]* ns  *[0-9]* sec_per_2=[0-9.]*ns$'
    # CSV: Google Benchmark's columns, a quoted column per user counter
    run "$bin/bl_api_suite" --benchmark_filter="$f" --benchmark_format=csv --time 0.05s --count 2 --no-table
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "Google Benchmark CSV is wrong"
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == ('name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,'
                    'label,error_occurred,error_message,"plain","sec_per_2"'), lines[0]
rows = {r["name"]: r for r in csv.DictReader(lines)}
assert rows["BM_linear_BigO"]["time_unit"] == "N" and rows["BM_linear_BigO"]["iterations"] == "", rows["BM_linear_BigO"]
assert rows["BM_linear_RMS"]["time_unit"] == "", rows["BM_linear_RMS"]
assert rows["BM_stats_max"]["plain"] == "3" and rows["BM_stats_max"]["iterations"] == "2"
assert rows["BM_linear/256"]["time_unit"] == "ns" and int(rows["BM_linear/256"]["iterations"]) > 0
assert float(rows["BM_inverted_rate"]["sec_per_2"]) > 0
PY
    # --benchmark_out_format=csv writes it to the file
    run "$bin/bl_api_suite" --benchmark_filter='^BM_stats$' --benchmark_out="$tmp/o.csv" \
        --benchmark_out_format=csv --time 0.02s --count 1 --no-table
    expect_status 0
    head -1 "$tmp/o.csv" | grep -q '^name,iterations,real_time,cpu_time,time_unit,' || fail "--benchmark_out_format=csv"
    grep -q '^"BM_stats",[0-9]' "$tmp/o.csv" || fail "--benchmark_out_format=csv: no BM_stats row"
    # benchlab's own outputs: the fit in the table and the Go format, the
    # statistics after the table
    run "$bin/bl_api_suite" --benchmark_filter="$f" --time 0.05s --count 2
    expect_status 0
    err_has '^  BM_linear: O(n) in n (3 sizes, 256 to 1024): '
    err_has '^  BM_lambda: O(f(N)) in n (2 sizes, 256 to 1024): '
    out_has '^# complexity: BenchmarkBM_linear: O(n) in n '
    err_has '^  BM_stats  max  [0-9.]* ns  (2 launches)$'
    err_has '^  BM_stats  ratio  [0-9.]*%  (2 launches)$'
    ;;
perf-counters-without-hardware)
    # --benchmark_perf_counters becomes benchlab's --counters; this machine
    # (a VM) has no PMU: said once, no counter columns, the run goes on
    run "$bin/bl_map_test" --benchmark_filter='BM_MapLookup/8$' --benchmark_perf_counters=CYCLES,instructions,PERF_COUNT_HW_BRANCH_MISSES \
        --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_MapLookup/8	.* ns/op	'
    if grep -q 'no hardware performance counters' "$tmp/err"; then
        out_lacks '[0-9] cycles/op'
        out_lacks 'instructions/op'
    else
        # a machine with a PMU measures them
        out_has 'instructions/op'
    fi
    run "$bin/bl_map_test" --benchmark_perf_counters=UOPS_ISSUED
    expect_status 2
    err_has "benchmark_perf_counters: 'UOPS_ISSUED' is not one of the counters benchlab measures"
    ;;
unsupported-is-said)
    run "$bin/bl_map_test" --benchmark_format=tabular
    expect_status 2
    err_has 'benchmark_format: is console, json or csv'
    run "$bin/bl_map_test" --benchmark_out=x.txt --benchmark_out_format=xml
    expect_status 2
    err_has 'benchmark_out_format: is json, console or csv'
    # --help names Google Benchmark's flags beside benchlab's options
    run "$bin/bl_map_test" --help
    expect_status 0
    out_has "^Google Benchmark's flags work too: --benchmark_filter=RE"
    out_has '^      --filter REGEX'
    # a bad repetition count is named by the flag given, not by --count
    run "$bin/bl_map_test" --benchmark_repetitions=x
    expect_status 2
    err_has "benchmark_repetitions: 'x' is not a count from 1 to 100000"
    err_lacks '--count'
    BENCHMARK_REPETITIONS=0 run "$bin/bl_map_test"
    expect_status 2
    err_has "benchmark_repetitions: '0' is not a count from 1 to 100000"
    ;;
run-selects-what-is-listed)
    # the run launches what --benchmark_list_tests lists for the same
    # filter: GB's regex searched in GB's exact names, spaces included, and
    # Google Benchmark's JSON names them exactly
    for f in 'BM_named|^BM_pair' '^BM_counters$|7$' 'BM_pair<char, long>' '^BM_pair<int,double>$' \
        '-^(BM_named|BM_with|BM_own|BM_fixed|BM_manual|lambda|TFixture|BM_capture|BM_thread)'; do
        run "$bin/bl_api_suite" --benchmark_list_tests --benchmark_filter="$f"
        expect_status 0
        [ -s "$tmp/out" ] || fail "$f lists nothing"
        mv "$tmp/out" "$tmp/listed"
        run "$bin/bl_api_suite" --benchmark_filter="$f" --benchmark_format=json --time 0.02s \
            --count 1 --no-table
        expect_status 0
        # the runs, not the aggregates (Complexity's _BigO and _RMS among them)
        python3 -c 'import json,sys; print("\n".join(b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"))' \
            "$tmp/out" >"$tmp/ran" || fail "$f: no Google Benchmark JSON"
        diff "$tmp/listed" "$tmp/ran" >"$tmp/diff" || { cat "$tmp/diff"; fail "$f: the run is not what is listed"; }
    done
    # benchlab's own names keep the space; the Go format writes it as '_'
    run "$bin/bl_api_suite" --filter 'BM_pair<char, long>/threads:2$' --list
    expect_status 0
    out_has '^BenchmarkBM_pair<char, long>/threads:2$'
    run "$bin/bl_api_suite" --filter 'BM_pair<char, long>/threads:2$' --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_pair<char,_long>/threads:2	'
    run "$bin/bl_api_suite" --filter 'BM_pair<char, long>/threads:2$' --time 0.02s --count 1 \
        --no-table --format json
    expect_status 0
    out_has '"BenchmarkBM_pair<char, long>/threads:2"'
    run "$bin/bl_api_suite" --benchmark_filter='^nothing_is_called_this'
    expect_status 2
    err_has "no benchmark matches --benchmark_filter '^nothing_is_called_this'"
    ;;
failed-benchmark-in-gbench-json)
    # SkipWithError: Google Benchmark's entry has error_occurred and
    # error_message and, as always, iterations, real_time, cpu_time and
    # time_unit (tools/compare.py reads time_unit of every entry); benchlab
    # exits 1 for a failed benchmark
    run env API_SUITE_SKIP_WITH_ERROR=1 "$bin/bl_api_suite" --benchmark_filter='^(skip_with_error|BM_counters)$' \
        --benchmark_format=json --time 0.02s --count 2 --no-table
    expect_status 1
    err_has 'benchlab: skip_with_error: no input'
    python3 - "$tmp/out" <<'PY' || fail "the failed benchmark's entry is not Google Benchmark's"
import json, sys
doc = json.load(open(sys.argv[1]))
e = [b for b in doc["benchmarks"] if b["name"] == "skip_with_error"]
assert len(e) == 1, doc["benchmarks"]
e = e[0]
assert e["error_occurred"] is True and e["error_message"] == "no input", e
for k in ("iterations", "real_time", "cpu_time", "time_unit", "run_name", "run_type", "threads"):
    assert k in e, k
assert e["time_unit"] == "ns" and e["real_time"] >= 0 and e["cpu_time"] >= 0, e
assert any(b["name"] == "BM_counters" for b in doc["benchmarks"])
PY
    # in the CSV, the error's row has Google Benchmark's ten columns: true
    # under error_occurred, the message under error_message (it was one
    # column early, true under label)
    run env API_SUITE_SKIP_WITH_ERROR=1 "$bin/bl_api_suite" --benchmark_filter='^skip_with_error$' \
        --benchmark_format=csv --time 0.02s --count 1 --no-table
    expect_status 1
    out_has '^"skip_with_error",,,,,,,,true,"no input"$'
    python3 - "$tmp/out" <<'PY' || fail "the failed benchmark's CSV row is not in Google Benchmark's columns"
import csv, sys
rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1]))}
r = rows["skip_with_error"]
assert r["error_occurred"] == "true" and r["error_message"] == "no input" and r["label"] == "", r
PY
    ;;
counters-like-google-benchmark)
    # counters_suite: every counter flag at 1 and 4 threads, rates over the
    # manual, real and CPU time; its JSON counters must be Google
    # Benchmark's (counters_compare.py takes the measured time out of the
    # rates). Without Google Benchmark, its output recorded from v1.7.1.
    run "$bin/bl_counters_suite" --benchmark_format=json --benchmark_repetitions=2
    expect_status 0
    cp "$tmp/out" "$tmp/bl.json"
    want=$here/expected/counters_suite.json
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_counters_suite" --benchmark_format=json >"$tmp/gb.json" 2>/dev/null ||
            fail "Google Benchmark's run failed"
        want=$tmp/gb.json
    fi
    python3 "$here/counters_compare.py" "$want" "$tmp/bl.json" ||
        fail "counters differ from Google Benchmark's"
    # kInvert of 0 is Google Benchmark's 1 / 0, printed as it prints it: inf
    # in the console and CSV, Infinity in JSON, and the stddev and cv of
    # infinities NaN (-nan); without Google Benchmark, what v1.7.1 printed
    zf='^BM_manual/iterations:200/manual_time/threads:1$'
    for fmt in console csv json; do
        run "$bin/bl_counters_suite" --benchmark_filter="$zf" --benchmark_repetitions=2 \
            --benchmark_format=$fmt
        expect_status 0
        cp "$tmp/out" "$tmp/zero.bl.$fmt"
        python3 "$here/zero_counters.py" $fmt "$tmp/out" >"$tmp/zero.bl"
        if [ "$have_gb" = with-gb ]; then
            "$bin/gb_counters_suite" --benchmark_filter="$zf" --benchmark_repetitions=2 \
                --benchmark_format=$fmt >"$tmp/zero.gb.$fmt" 2>/dev/null ||
                fail "Google Benchmark's run failed"
            python3 "$here/zero_counters.py" $fmt "$tmp/zero.gb.$fmt" >"$tmp/zero.want"
        else
            case $fmt in
            console) printf '%s\n' 'cv -nan% -nan%' 'iteration inf infs' 'mean inf infs' \
                'median inf infs' 'stddev -nan -nans' ;;
            csv) printf '%s\n' 'cv -nan -nan' 'iteration inf inf' 'mean inf inf' 'median inf inf' \
                'stddev -nan -nan' ;;
            json) printf '%s\n' 'cv NaN NaN' 'iteration Infinity Infinity' \
                'mean Infinity Infinity' 'median Infinity Infinity' 'stddev NaN NaN' ;;
            esac >"$tmp/zero.want"
        fi
        diff "$tmp/zero.want" "$tmp/zero.bl" >"$tmp/diff" ||
            { cat "$tmp/diff"; fail "$fmt: kInvert of 0 is not printed as Google Benchmark prints it"; }
    done
    # and benchlab compare reads Google Benchmark's JSON with them: +Inf, no NaN
    gbj=$here/expected/counters_suite.json
    [ "$have_gb" = with-gb ] && gbj=$tmp/zero.gb.json
    run "$bin/../benchlab" compare "$gbj" "$tmp/zero.bl.json"
    expect_status 0
    out_has '^BM_manual/iterations:200/manual_time/threads:1  *+Inf ± ∞ ¹  *+Inf ± ∞ ¹ '
    out_lacks 'NaN'
    # benchlab's JSON keeps the counters: read back and written again
    # (benchlab merge), the same values, sums and flags
    run "$bin/bl_counters_suite" --benchmark_filter=BM_manual --count 1 --no-table \
        --out "$tmp/r.json"
    expect_status 0
    run "$bin/../benchlab" merge "$tmp/r.json" --format json --out "$tmp/r2.json"
    expect_status 0
    python3 - "$tmp/r.json" "$tmp/r2.json" <<'PY' || fail "counters lost in benchlab's JSON"
import json, sys
def launches(p):
    return [(b["name"], l["metrics"], l["user_counters"], l["loop_iterations"],
             l["counter_clock"]) for b in json.load(open(p))["benchmarks"] for l in b["launches"]]
a, b = launches(sys.argv[1]), launches(sys.argv[2])
assert a and a == b, (a, b)
for name, metrics, counters, iters, clock in a:
    assert iters == 200 and clock == "manual", (name, iters, clock)
    assert set(counters) <= set(metrics) and "rate/s" in counters and "plain" in counters, counters
    assert counters["ns/rate_invert"]["counter_flags"] == 1 | 16, counters
    # JSON has no infinity: kInvert of 0 is the string "inf", read back as inf
    assert metrics["invert_zero"] == "inf" and metrics["ns/rate_invert_zero"] == "inf", metrics
PY
    # compare, report and the Go lines of such a file: inf, never NaN
    run "$bin/../benchlab" compare "$tmp/r.json" "$tmp/r2.json"
    expect_status 0
    out_has '^BM_manual/iterations:200/manual_time/threads:1  *+Inf ± ∞ ¹  *+Inf ± ∞ ¹ '
    out_lacks 'NaN'
    run "$bin/../benchlab" merge "$tmp/r.json"
    expect_status 0
    out_has '^BenchmarkBM_manual/.*	  *inf invert_zero	'
    run "$bin/../benchlab" report "$tmp/r.json" "$tmp/r2.json" -o "$tmp/r.html"
    expect_status 0
    grep -q '<td data-sort="Infinity">inf</td>' "$tmp/r.html" || fail "report: no inf cell"
    ! grep -q '>[^<]*NaN' "$tmp/r.html" || fail "report shows NaN"
    ;;
time-units-like-google-benchmark)
    # unit_suite (manual times, exact): Unit() wins over the default unit,
    # which is --benchmark_time_unit unless the suite's SetDefaultTimeUnit
    # comes after Initialize; a fit's BigO is in the default unit. The
    # outputs must be Google Benchmark's, row by row (normalize.py)
    # FMT WHEN FLAG: benchlab's output in $tmp/bl.FMT, compared with GB's (so_: sh has no locals)
    same_output() {
        so_fmt=$1 so_when=$2 so_flag=$3
        run env UNIT_SUITE_DEFAULT_US="$so_when" "$bin/bl_unit_suite" "$so_flag" \
            --benchmark_min_time=0.01 --benchmark_repetitions=2 --benchmark_format="$so_fmt"
        expect_status 0
        python3 "$here/normalize.py" "$so_fmt" "$tmp/out" >"$tmp/bl.$so_fmt" ||
            fail "$so_when $so_flag: no $so_fmt output"
        if [ "$have_gb" = with-gb ]; then
            env UNIT_SUITE_DEFAULT_US="$so_when" "$bin/gb_unit_suite" "$so_flag" \
                --benchmark_min_time=0.01 --benchmark_repetitions=2 --benchmark_format="$so_fmt" \
                >"$tmp/gb.out" 2>/dev/null || fail "$so_when $so_flag: Google Benchmark's run failed"
            python3 "$here/normalize.py" "$so_fmt" "$tmp/gb.out" >"$tmp/gb.$so_fmt"
            diff "$tmp/gb.$so_fmt" "$tmp/bl.$so_fmt" >"$tmp/diff" ||
                { cat "$tmp/diff"; fail "$so_when $so_flag $so_fmt: not Google Benchmark's output"; }
        fi
    }
    for when in none before after; do
        for flag in none ms; do
            f=--benchmark_time_unit=$flag
            [ $flag = none ] && f=--benchmark_filter=.
            same_output json "$when" "$f"
            # the units themselves (checked with or without Google Benchmark)
            python3 - "$tmp/out" "$when" "$flag" <<'PY' || fail "default $when, flag $flag: wrong units"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
when, flag = sys.argv[2], sys.argv[3]
default = "us" if when == "after" else flag if flag != "none" else "us" if when == "before" else "ns"
per_s = {"ns": 1e9, "us": 1e6, "ms": 1e3, "s": 1}
want = {"BM_ms": "ms", "BM_ns": "ns", "BM_us": "us", "BM_s": "s", "BM_fit": "us",
        "BM_default": default, "BM_label_varies": default}
seen = set()
for b in rows:
    fam = b["run_name"].split("/")[0]
    if b.get("aggregate_name") == "BigO":
        assert b["time_unit"] == default, b
        assert abs(b["real_coefficient"] / (1e-6 * per_s[default]) - 1) < 1e-6, b
        continue
    if b.get("aggregate_name") == "RMS":
        continue
    assert b["time_unit"] == want[fam], (b["name"], b["time_unit"], want[fam])
    seen.add(fam)
    if b.get("aggregate_unit", "time") == "time" and b.get("aggregate_name") != "stddev":
        secs = int(b["run_name"].split("/")[1]) * 1e-6 if fam == "BM_fit" else 1e-3
        assert abs(b["real_time"] / (secs * per_s[want[fam]]) - 1) < 1e-6, b
assert seen == set(want), seen
PY
        done
    done
    # the console and the CSV too
    same_output console none --benchmark_time_unit=ms
    grep -q '^BM_ns/manual_time 1e+06 ns ns $' "$tmp/bl.console" || fail "console: Unit(kNanosecond)"
    grep -q '^BM_default/manual_time 1 ms ms $' "$tmp/bl.console" || fail "console: the flag's ms"
    grep -q '^BM_fit/manual_time_BigO 0 N N size 100$' "$tmp/bl.console" || fail "console: BigO"
    same_output csv none --benchmark_time_unit=ms
    grep -q '^BM_s/manual_time 0.001 s  $' "$tmp/bl.csv" || fail "csv: Unit(kSecond)"
    grep -q '^BM_fit/manual_time_BigO 0.001 N size 100 $' "$tmp/bl.csv" || fail "csv: BigO in ms"
    # benchlab's own run: --time-unit is the default unit
    run "$bin/../benchlab" run "$bin/bl_unit_suite" --filter '/manual_time$' --format gbench-json \
        --time-unit ms --time 0.01s --count 1 --no-table
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "benchlab run --time-unit ms: wrong units"
import json, sys
u = {b["name"]: b.get("time_unit") for b in json.load(open(sys.argv[1]))["benchmarks"]}
assert u["BM_default/manual_time"] == "ms" and u["BM_us/manual_time"] == "us", u
assert u["BM_ns/manual_time"] == "ns" and u["BM_fit/manual_time_BigO"] == "ms", u
PY
    # a unit that is none of Google Benchmark's is named
    run "$bin/bl_unit_suite" --benchmark_time_unit=hours
    expect_status 2
    err_has 'benchmark_time_unit: is ns, us, ms or s'
    ;;
statistics-under-benchlab-run)
    # benchlab run has no ComputeStatistics functions: the suite, started
    # once more with --benchlab-statistics, names and computes them
    printf '?\tBenchmarkBM_stats\n=\tBenchmarkBM_stats\t0\t1 5 3\n=\tBenchmarkBM_stats\t1\t1 5\n?\tBenchmarkBM_counters\n=\tBenchmarkBM_stats\t7\t1 2\n' |
        "$bin/bl_api_suite" --benchlab-statistics >"$tmp/answers" 2>"$tmp/err" ||
        fail "--benchlab-statistics failed: $(cat "$tmp/err")"
    printf '2\n0\tmax\n1\tratio\n5\n0.20000000000000001\n0\nnan\n' | diff - "$tmp/answers" ||
        fail "--benchlab-statistics: wrong answers"
    run "$bin/../benchlab" run "$bin/bl_api_suite" --filter '^BenchmarkBM_(stats|counters)$' \
        --count 2 --time 0.03s --format gbench-json
    expect_status 0
    err_has '^  BM_stats  max  [0-9.]* ns  (2 launches)$'
    err_has '^  BM_stats  ratio  [0-9.]*%  (2 launches)$'
    python3 - "$tmp/out" <<'PY' || fail "benchlab run: the statistics of its own are not in Google Benchmark's JSON"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
its = [b for b in rows if b["name"] == "BM_stats" and b["run_type"] == "iteration"]
by = {b["name"]: b for b in rows}
mx, ratio = by["BM_stats_max"], by["BM_stats_ratio"]
assert mx["real_time"] == max(b["real_time"] for b in its) and mx["plain"] == 3, mx
rt = [b["real_time"] for b in its]
assert ratio["aggregate_unit"] == "percentage", ratio
assert abs(ratio["real_time"] - min(rt) / max(rt)) < 1e-12, ratio
assert not any(n.startswith("BM_counters_m") and n != "BM_counters_mean" and n != "BM_counters_median" for n in by), by.keys()
PY
    ;;
threaded-complexity-like-google-benchmark)
    # Complexity() of threaded benchmarks (complexity_suite): the BigO and
    # RMS rows are Google Benchmark's fit (complexity.cc) of the iteration
    # rows written before them, in its thread convention (wall time over
    # the threads, n summed over them), whatever the times; with manual
    # times (exact) the rows are Google Benchmark's own, row by row
    fit_check() { # FILE WHO: recompute every fit from the file's rows
        python3 - "$1" <<'PY' || fail "$2: BigO/RMS are not Google Benchmark's fit of its rows"
import json, math, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
curves = {"(1)": lambda n: 1.0, "N": lambda n: n, "N^2": lambda n: n * n,
          "N^3": lambda n: n ** 3, "lgN": lambda n: math.log2(n),
          "NlgN": lambda n: n * math.log2(n)}
# the suite's Complexity(lambda)s, by family: f(N) is called at GB's n
lambdas = {"BM_manual_lambda": lambda n: n * n}
def lsq(n, t, g):
    c = sum(ti * g(ni) for ni, ti in zip(n, t)) / sum(g(ni) ** 2 for ni in n)
    rms = math.sqrt(sum((ti - c * g(ni)) ** 2 for ni, ti in zip(n, t)) / len(n))
    return c, rms / (sum(t) / len(t))
def near(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b)) + 1e-12
fams = {}
for b in rows:
    if b["run_type"] == "iteration":
        fams.setdefault(b["family_index"], []).append(b)
checked = 0
for b in rows:
    if b.get("aggregate_name") != "BigO":
        continue
    its = fams[b["family_index"]]
    rms = next(r for r in rows if r["name"] == b["name"][:-4] + "RMS")
    per_s = {"ns": 1, "us": 1e-3, "ms": 1e-6, "s": 1e-9}
    n = [int(r["name"].split("/")[1]) * r["threads"] for r in its]
    rt = [r["real_time"] / per_s[r["time_unit"]] for r in its]
    ct = [r["cpu_time"] / per_s[r["time_unit"]] for r in its]
    # oAuto's curve is the CPU times' best; a fixed one is the suite's
    if "work" in b["name"]:
        best = min(curves, key=lambda k: (lsq(n, ct, curves[k])[1], list(curves).index(k)))
        assert b["big_o"] == best, (b["name"], b["big_o"], best)
    curve = lambdas[b["name"].split("/")[0]] if b["big_o"] == "f(N)" else curves[b["big_o"]]
    cc, cr = lsq(n, ct, curve)
    rc, _ = lsq(n, rt, curve)
    assert b["threads"] == its[0]["threads"] > 1, b
    assert near(b["cpu_coefficient"], cc) and near(b["real_coefficient"], rc), (b, cc, rc)
    assert near(rms["rms"], cr), (rms, cr)
    checked += 1
assert checked == 4, checked
PY
    }
    run "$bin/bl_complexity_suite" --benchmark_min_time=0.01 --benchmark_repetitions=2 \
        --benchmark_format=json
    expect_status 0
    fit_check "$tmp/out" benchlab
    python3 - "$tmp/out" <<'PY' || fail "benchlab: wrong BigO of manual times"
import json, sys
big = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]
       if b.get("aggregate_name") == "BigO"}
# n us per op and thread, 4 threads: 1 us / 4 per (4 n); n^2 ns, 3 threads: 1 ns / 27
assert abs(big["BM_manual_linear/manual_time/threads:4_BigO"]["real_coefficient"] - 62.5) < 1e-6, big
assert abs(big["BM_manual_square/manual_time/threads:3_BigO"]["real_coefficient"] - 1 / 27) < 1e-9, big
# the lambda n^2 at 4 threads is called at 4 n: n^2 ns / 4 over 16 n^2, 1 ns / 64
lam = big["BM_manual_lambda/manual_time/threads:4_BigO"]
assert lam["big_o"] == "f(N)" and abs(lam["real_coefficient"] - 1 / 64) < 1e-9, lam
PY
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_complexity_suite" --benchmark_min_time=0.01 --benchmark_repetitions=2 \
            --benchmark_format=json >"$tmp/gb.json" 2>/dev/null || fail "Google Benchmark's run failed"
        fit_check "$tmp/gb.json" "Google Benchmark (the check itself)"
        for fmt in json console csv; do
            run "$bin/bl_complexity_suite" --benchmark_filter=BM_manual --benchmark_min_time=0.01 \
                --benchmark_repetitions=2 --benchmark_format=$fmt
            expect_status 0
            python3 "$here/normalize.py" $fmt "$tmp/out" >"$tmp/bl" || fail "no $fmt output"
            "$bin/gb_complexity_suite" --benchmark_filter=BM_manual --benchmark_min_time=0.01 \
                --benchmark_repetitions=2 --benchmark_format=$fmt >"$tmp/gb.out" 2>/dev/null ||
                fail "Google Benchmark's run failed"
            python3 "$here/normalize.py" $fmt "$tmp/gb.out" | diff - "$tmp/bl" >"$tmp/diff" ||
                { cat "$tmp/diff"; fail "$fmt: not Google Benchmark's BigO and RMS rows"; }
        done
    fi
    ;;
process-cpu-time-like-google-benchmark)
    # MeasureProcessCPUTime() (proccpu_suite): a body that gives a second
    # thread as much spinning as it does itself shows about twice the CPU
    # time per op on the process's clock as on its own thread's, at 1 and 2
    # threads, in Google Benchmark and in benchlab (CPU work, not wall
    # time; its upper end is not asserted: thread start-up, which ASan
    # makes costly, is the helper's, and the thread's clock at 2 threads on
    # a loaded machine has few clean batches; at 1 thread it is judged
    # within each benchmark against the thread's own CPU time, which the
    # body reports); per op of one thread it is
    # the same at 1 and 2 threads (so it is divided by the threads as
    # Google Benchmark divides it); a kIsRate counter is over the CPU
    # seconds of the benchmark's clock, so rate x cpu_time is 1.
    # At 2 threads each thread reads the process's clock around its own
    # timed part, and those readings hold each other's work only while both
    # threads run. Google Benchmark's span the whole run, benchlab's one
    # batch (about a millisecond): a load that keeps one thread off CPU
    # until the other has finished its batch leaves each reading with its
    # own thread's work. At a load of 17 to 19 benchlab's 2-thread ratio was 1.10
    # (Google Benchmark's 1.82 to 1.86), so benchlab's 2-thread figure is
    # judged on the batches where the threads ran together (the figures are
    # in tests/engine/e2e.sh, process-cpu-is-every-thread).
    proc_check() { # FILE WHO THREADS...
        f=$1 who=$2
        shift 2
        python3 - "$f" "$@" <<'PY' || fail "$who: MeasureProcessCPUTime() is not the process's CPU time"
import json, sys
rows = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b["run_type"] == "iteration"}
per_s = {"ns": 1e9, "us": 1e6, "ms": 1e3, "s": 1}
threads = [int(t) for t in sys.argv[2:]]
for t in threads:
    th, pr = rows["BM_handoff/threads:%d" % t], rows["BM_handoff/process_time/threads:%d" % t]
    ratio = pr["cpu_time"] / th["cpu_time"]
    print("threads %d: cpu_time process / thread %.3f; over the thread's own CPU time per op: "
          "process %+.0f ns, thread %+.0f ns" % (t, ratio, pr["cpu_time"] - pr["own_cpu_ns"],
                                               th["cpu_time"] - th["own_cpu_ns"]))
    # within each benchmark's own run, whatever the load (separate
    # benchmarks' ratio fell to 1.18 at 1 thread with two busy loops, and
    # to 1.58 at 2 in Google Benchmark's own run under ASan: the thread's
    # share of starting and joining grows): the process's clock holds the
    # helper's 100 us of CPU on top of the thread's own time (at 1 thread;
    # at 2 the threads' counters and clocks are summed and divided as
    # each library does, so only "more than its own"), the thread's clock
    # none of it
    assert pr["cpu_time"] - pr["own_cpu_ns"] > (80000 if t == 1 else 0), (t, th, pr)
    assert th["cpu_time"] - th["own_cpu_ns"] < 50000, (t, th, pr)
# rate x cpu_time is 1 at any thread count and load
for b in rows.values():
    one = b["ops_rate"] * b["cpu_time"] / per_s[b["time_unit"]]
    assert abs(one - 1) < 1e-6, (b["name"], one, b)
if 2 in threads:
    p1, p2 = (rows["BM_handoff/process_time/threads:%d" % t]["cpu_time"] for t in (1, 2))
    print("process cpu_time, 2 threads / 1: %.3f" % (p2 / p1))
    assert 0.6 < p2 / p1 < 1.6, (p1, p2)
PY
    }
    run "$bin/bl_proccpu_suite" --benchmark_format=json --time 0.3s --count 1 --no-table
    expect_status 0
    proc_check "$tmp/out" benchlab 1
    # benchlab's JSON says which CPU clock, and reads it back; its batches
    # give the 2-thread figure where the threads ran together
    run "$bin/bl_proccpu_suite" --time 0.3s --count 1 --no-table --out "$tmp/r.json"
    expect_status 0
    python3 "$here/../support/proc_clock_check.py" "$tmp/r.json" BenchmarkBM_handoff/threads:1 \
        BenchmarkBM_handoff/process_time/threads:1 BenchmarkBM_handoff/process_time/threads:2 ||
        fail "benchlab: the process's clock at 2 threads"
    run "$bin/../benchlab" merge "$tmp/r.json" --format json --out "$tmp/r2.json"
    expect_status 0
    python3 - "$tmp/r.json" "$tmp/r2.json" <<'PY' || fail "benchlab's JSON: wrong cpu_clock"
import json, sys
for p in sys.argv[1:]:
    bs = {b["name"]: b for b in json.load(open(p))["benchmarks"]}
    pr, th = bs["BenchmarkBM_handoff/process_time/threads:1"], bs["BenchmarkBM_handoff/threads:1"]
    assert all(l["cpu_clock"] == "process" for l in pr["launches"]), pr["launches"]
    assert pr["estimate"]["cpu_clock"] == "process", pr["estimate"]
    assert all("cpu_clock" not in l for l in th["launches"]) and "cpu_clock" not in th["estimate"]
    # the process's CPU time per op holds the helper's 100 us beyond the
    # thread's own (the body's own_cpu_ns), within the same benchmark: a
    # ratio to the thread benchmark, run apart, fell below 1.3 under load
    own = pr["launches"][0]["metrics"]["own_cpu_ns"]
    assert pr["estimate"]["cpu_ns_per_op"] - own > 80000, (pr["estimate"], own)
PY
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_proccpu_suite" --benchmark_format=json --benchmark_min_time=0.3 >"$tmp/gb.json" \
            2>/dev/null || fail "Google Benchmark's run failed"
        proc_check "$tmp/gb.json" "Google Benchmark (the check itself)" 1 2
    fi
    ;;
aggregate-labels-like-google-benchmark)
    # an aggregate carries the label only when every repetition had the
    # same; a fit's rows carry its first benchmark's; as Google Benchmark's
    for fmt in json console csv; do
        run "$bin/bl_unit_suite" --benchmark_filter='BM_(ms|label_varies|fit)/' \
            --benchmark_min_time=0.01 --benchmark_repetitions=2 --benchmark_format=$fmt
        expect_status 0
        python3 "$here/normalize.py" $fmt "$tmp/out" >"$tmp/bl" || fail "no $fmt output"
        if [ "$have_gb" = with-gb ]; then
            "$bin/gb_unit_suite" --benchmark_filter='BM_(ms|label_varies|fit)/' \
                --benchmark_min_time=0.01 --benchmark_repetitions=2 --benchmark_format=$fmt \
                >"$tmp/gb.out" 2>/dev/null || fail "Google Benchmark's run failed"
            python3 "$here/normalize.py" $fmt "$tmp/gb.out" | diff - "$tmp/bl" >"$tmp/diff" ||
                { cat "$tmp/diff"; fail "$fmt: not Google Benchmark's labels"; }
        fi
        for agg in mean median stddev cv; do
            grep -q "^BM_ms/manual_time_$agg .*same label" "$tmp/bl" || fail "$fmt: BM_ms $agg lacks the label"
            grep "^BM_label_varies/manual_time_$agg " "$tmp/bl" | grep -q "<varies>" &&
                fail "$fmt: BM_label_varies $agg has a label"
        done
        [ "$(grep -c '^BM_label_varies/manual_time .*<varies>' "$tmp/bl")" -eq 2 ] ||
            fail "$fmt: the repetitions lost their labels"
        grep -q '^BM_fit/manual_time_BigO .*size 100' "$tmp/bl" || fail "$fmt: BigO's label"
        grep -q '^BM_fit/manual_time_RMS .*size 100' "$tmp/bl" || fail "$fmt: RMS's label"
    done
    ;;
bad-flags-are-named)
    run "$bin/bl_map_test" --benchmark_bogus=1
    expect_status 2
    err_has 'benchmark_bogus: is not a Google Benchmark flag'
    # a flag the suite does not know: ReportUnrecognizedArguments, as with GB
    run "$bin/bl_map_test" --not-a-flag
    expect_status 1
    err_has 'unrecognized command-line flag: --not-a-flag'
    run "$bin/bl_map_test" --benchmark_filter='(' --benchmark_list_tests
    expect_status 2
    err_has "benchmark_filter '('"
    # an escape Google Benchmark's regex refuses is refused, not read as the bare
    # letter (glibc alone takes '\d' for 'd': MapLookup/ then selects nothing)
    run "$bin/bl_map_test" --benchmark_filter='MapLookup/\d+$' --benchmark_list_tests
    expect_status 2
    err_has "benchmark_filter 'MapLookup/.d+\$': '.d' is not an escape in POSIX extended"
    err_has 'a digit is \[0-9\]'
    run "$bin/bl_map_test" --benchmark_filter='-Lookup/8\]' --benchmark_list_tests
    expect_status 2
    err_has "'.]' is not an escape"
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_map_test" --benchmark_list_tests --benchmark_filter='MapLookup/\d+$' >"$tmp/gbo" 2>&1
        grep -q 'Could not compile benchmark re' "$tmp/gbo" || fail "Google Benchmark took '\\d'"
    fi
    # the escapes it takes still work, and inside brackets a backslash is a character
    same_list map_test --benchmark_filter='Lookup/\(8|64\)$'
    same_list map_test --benchmark_filter='^BM_MapLookup/[[:digit:]]{3}$'
    same_list map_test --benchmark_filter='Fixture[\d/]Lookup/[^]\w]4'
    ;;
loops-match-google-benchmark)
    # iterations() at each repetition, as Google Benchmark gives it (the
    # suite fails a benchmark whose iterations() differ); same under GB
    run "$bin/bl_loop_suite" --benchmark_filter=BM_iterations --time 0.05s --count 2 --no-table
    expect_status 0
    [ "$(grep -c '^BenchmarkBM_iterations_' "$tmp/out")" -eq 6 ] || fail "want 3 benchmarks x 2"
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_loop_suite" --benchmark_filter=BM_iterations --benchmark_min_time=0.01 \
            >"$tmp/gb" 2>&1 || fail "gb_loop_suite failed"
        if grep -q 'ERROR OCCURRED' "$tmp/gb"; then cat "$tmp/gb"; fail "loop_suite disagrees with GB"; fi
    fi
    # DoNotOptimize(256-byte object) compiles to no copy: no SSE/AVX moves
    for f in loop_suite_dno_lvalue loop_suite_dno_const; do
        objdump -d --no-show-raw-insn "$bin/bl_loop_suite" |
            awk -v f="<$f>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' >"$tmp/asm"
        [ -s "$tmp/asm" ] || fail "$f not found in bl_loop_suite"
        if grep -Eq 'mm[0-9]' "$tmp/asm"; then cat "$tmp/asm"; fail "$f copies the object"; fi
    done
    # an empty KeepRunning or KeepRunningBatch(1) loop costs what the
    # subtracted overhead does, as the ranged-for loop: told by the machine
    # code, not by "under 0.1 ns", which where the linker put the loops
    # decides (0.13 ns on every run of one build: issue 25). The ranged-for
    # loop is the overhead loop, instruction for instruction; the other two
    # call nothing (KeepRunningBatch(1) was an out-of-line call, ~1.7 ns a
    # repetition that the subtraction did not remove) and have at most 3
    # instructions beyond it (what they have: the reload of the state's
    # pointer after DoNotOptimize's memory clobber, and KeepRunningBatch's
    # test of n against the batch's n and its branch; what those cost is
    # bench/gbench/empty_loops.sh's to say)
    # (the sanitizer build instruments every loop with shadow checks, so
    # there the machine code says nothing of the loop's cost: the recomputed
    # subtraction below is what that build checks)
    case $(build_of) in *ASan*) : ;; *) python3 "$here/loop_asm.py" "$bin/bl_loop_suite" benchmark::bl__gbench_overhead \
        --same BM_empty_ranged_for benchmark::bl__gbench_overhead \
        --no-call BM_empty_keep_running --no-call BM_empty_keep_running_batch1 \
        --extra BM_empty_keep_running BM_empty_ranged_for 3 \
        --extra BM_empty_keep_running_batch1 BM_empty_ranged_for 3 >"$tmp/asm" ||
        fail_measured "empty loops: $(grep '^loop_asm' "$tmp/asm" | tr '\n' ' ')" ;;
    esac
    # each launch's time is its measured batches' median less its overhead
    # batches' median (never below 0), recomputed from the run's batches
    run "$bin/bl_loop_suite" --benchmark_filter=BM_empty --time 0.3s --count 3 --no-table \
        --out "$tmp/r.json"
    expect_status 0
    for b in ranged_for keep_running keep_running_batch1; do
        python3 "$here/empty_check.py" "$tmp/r.json" "BenchmarkBM_empty_$b" 3 >"$tmp/why" 2>&1 ||
            fail_measured "empty $b loop: $(tail -n 1 "$tmp/why")"
    done
    run "$bin/../benchlab" merge "$tmp/r.json"
    expect_status 0
    for b in ranged_for keep_running keep_running_batch1; do
        [ "$(grep -c "^BenchmarkBM_empty_$b	" "$tmp/out")" -eq 3 ] || fail "$b: want 3 lines"
        for v in $(awk -v n="BenchmarkBM_empty_$b" '$1 == n { print $3 }' "$tmp/out"); do
            check "$v" 'x >= 0' "empty $b loop ns/op (never negative)"
        done
    done
    ;;
too-many-threads-fail-alone)
    # Threads(512): the listing works, as Google Benchmark's
    run "$bin/bl_loop_suite" --benchmark_list_tests --benchmark_filter=BM_many_threads
    expect_status 0
    printf 'BM_many_threads/threads:1\nBM_many_threads/threads:512\n' | diff - "$tmp/out" ||
        fail "listing of BM_many_threads"
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_loop_suite" --benchmark_list_tests --benchmark_filter=BM_many_threads |
            diff - "$tmp/out" || fail "listing differs from Google Benchmark's"
    fi
    # running it fails that benchmark alone, saying why; threads:1 runs
    run "$bin/bl_loop_suite" --benchmark_filter=BM_many_threads --time 0.02s --count 1 --no-table
    expect_status 1
    err_has 'BM_many_threads/threads:512.*Threads(512): benchlab runs at most 256 threads per benchmark'
    out_has '^BenchmarkBM_many_threads/threads:1	'
    ;;
own-flags-stay-in-argv)
    # a custom main reads its own flags after Initialize: they stay in argv
    # (GB's --v=N is taken off), benchlab runs with the rest, as under GB
    run "$bin/bl_loop_suite" --size=3 --v=1 --benchmark_filter=BM_own_flag --time 0.02s --count 1 --no-table
    expect_status 0
    err_has '^argc after Initialize: 2$'
    out_has '^BenchmarkBM_own_flag	.*	 *3.000 size$'
    if [ "$have_gb" = with-gb ]; then
        "$bin/gb_loop_suite" --size=3 --v=1 --benchmark_filter=BM_own_flag --benchmark_min_time=0.01 \
            >"$tmp/gb" 2>&1 || { cat "$tmp/gb"; fail "gb_loop_suite --size=3 failed"; }
        grep -q '^argc after Initialize: 2$' "$tmp/gb" || fail "GB leaves another argc"
    fi
    # BENCHMARK_MAIN (ReportUnrecognizedArguments) still refuses them
    run "$bin/bl_map_test" --size=3
    expect_status 1
    err_has 'unrecognized command-line flag: --size=3'
    # with benchlab-gbench-main, the suite is named after the file of its
    # first registration, as a suite with a main of its own: not after the
    # program, so that two builds compare (./bench-old, ./bench-new)
    run "$bin/bl_link_main_test" --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^pkg: link_main_test$'
    cp "$bin/bl_link_main_test" "$tmp/bench-new"
    run "$tmp/bench-new" --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^pkg: link_main_test$'
    ;;
machine-and-environment-like-google-benchmark)
    # what real suites ask beyond registration (env_suite.cc): Threads()
    # sized by CPUInfo::Get().num_cpus, as spdlog's latency bench
    e="$bin/bl_env_suite"
    run "$e" --benchmark_list_tests
    expect_status 0
    printf 'BM_per_cpu/threads:%s\nBM_other\n' "$ncpu" | diff - "$tmp/out" >/dev/null ||
        fail "the listing is not BM_per_cpu/threads:$ncpu and BM_other"
    err_has "^cpus $ncpu, 3 load averages, same object 1, host named 1$"
    err_lacks 'bad cache'
    err_has "^verbosity 0$"
    err_has "^filter ''$"
    # GetBenchmarkVerbosity: --v=N (spec_arg_verbosity_test), else V
    run "$e" --v=42 --benchmark_list_tests
    err_has '^verbosity 42$'
    run env V=7 "$e" --benchmark_list_tests
    err_has '^verbosity 7$'
    # GetBenchmarkFilter reads --benchmark_filter; SetBenchmarkFilter
    # changes what a later RunSpecifiedBenchmarks() selects
    run "$e" --benchmark_filter=other --benchmark_list_tests
    err_has "^filter 'other'$"
    [ "$(cat "$tmp/out")" = BM_other ] || fail "--benchmark_filter=other lists more than BM_other"
    run "$e" --set-filter=per_cpu --benchmark_list_tests
    expect_status 0
    [ "$(cat "$tmp/out")" = "BM_per_cpu/threads:$ncpu" ] || fail "SetBenchmarkFilter was not applied"
    # a main that keeps argv for itself (spdlog's formatter-bench): Google
    # Benchmark's flags from the environment, BENCHMARK_<FLAG>, the
    # command line's winning
    run env BENCHMARK_LIST_TESTS=1 BENCHMARK_FILTER=other "$e"
    expect_status 0
    [ "$(cat "$tmp/out")" = BM_other ] || fail "BENCHMARK_LIST_TESTS/BENCHMARK_FILTER were not read"
    err_has "^filter 'other'$"
    run env BENCHMARK_LIST_TESTS=no BENCHMARK_FILTER=other "$e" --benchmark_filter=per_cpu \
        --benchmark_list_tests
    [ "$(cat "$tmp/out")" = "BM_per_cpu/threads:$ncpu" ] || fail "the command line did not win"
    run env BENCHMARK_FORMAT=json BENCHMARK_MIN_TIME=0.02 BENCHMARK_FILTER=other "$e" --count 1
    expect_status 0
    out_has '"name": "BM_other"'
    out_lacks 'BM_per_cpu'
    err_has "^after the run, filter 'other'$"
    run env BENCHMARK_FORMAT=yaml "$e"
    expect_status 2
    err_has 'benchmark_format.*console, json or csv'
    if [ "$have_gb" = with-gb ]; then
        for v in "" "BENCHMARK_FILTER=other" "BENCHMARK_LIST_TESTS=false"; do
            env $v BENCHMARK_LIST_TESTS=1 "$bin/gb_env_suite" 2>/dev/null >"$tmp/gb"
            env $v BENCHMARK_LIST_TESTS=1 "$e" 2>/dev/null >"$tmp/bl"
            diff "$tmp/gb" "$tmp/bl" >/dev/null || fail "env $v: the listing differs from GB's"
        done
        "$bin/gb_env_suite" --set-filter=per_cpu --benchmark_list_tests 2>/dev/null >"$tmp/gb"
        "$e" --set-filter=per_cpu --benchmark_list_tests 2>/dev/null >"$tmp/bl"
        diff "$tmp/gb" "$tmp/bl" >/dev/null || fail "SetBenchmarkFilter: the listing differs from GB's"
        "$bin/gb_env_suite" --v=42 --benchmark_filter=other --benchmark_list_tests 2>"$tmp/gb" >/dev/null
        grep -q '^verbosity 42$' "$tmp/gb" && grep -q "^filter 'other'$" "$tmp/gb" ||
            fail "GB reads verbosity or filter otherwise"
    fi
    ;;
list-shows-control-bytes-as-text)
    # Google Benchmark keeps a registered name byte for byte and lists it
    # raw: a newline splits it, an OSC 52 reaches the terminal. The layer
    # lists it on one line with its control bytes and the byte that is not
    # UTF-8 as \xNN (issue 18: terminal injection). argv_suite's main takes
    # exactly one argument: the listing is asked from the environment
    esc=$(printf '\033')
    run env BENCHMARK_LIST_TESTS=1 "$bin/bl_argv_suite" hostile
    expect_status 0
    [ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "the name is not one line: $(cat "$tmp/out")"
    out_lacks "$esc"
    out_has '^BM_a\\x0ab\\x1b]52;c;cHduZWQ=\\x07c\\xff$'
    # benchlab's own --list runs the same escaping (engine, same case)
    ;;
main-reads-argv-before-initialize)
    # argv_suite's main, as spdlog's formatter-bench, wants exactly one
    # argument before Initialize and registers by it: the workers are
    # started with the run's command line, so they register the same
    a="$bin/bl_argv_suite"
    run env BENCHMARK_MIN_TIME=0.02 BENCHMARK_REPETITIONS=1 "$a" all
    expect_status 0
    out_has '^BenchmarkBM_small	.* ns/op'
    out_has '^BenchmarkBM_large	.* ns/op'
    err_lacks 'did not answer'
    run env BENCHMARK_MIN_TIME=0.02 BENCHMARK_REPETITIONS=1 BENCHMARK_FORMAT=json "$a" BM_large
    expect_status 0
    out_has '"name": "BM_large"'
    out_lacks 'BM_small'
    # what neither Google Benchmark nor benchlab takes stays for main, in
    # the workers too (loop_suite: --size=3 read after Initialize)
    run "$bin/bl_loop_suite" --size=3 --benchmark_filter=BM_own_flag --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_own_flag	.*	 *3.000 size$'
    # the suite's own usage, as under Google Benchmark
    run "$a" all --benchmark_min_time=0.02
    expect_status 1
    err_has 'usage: .*bl_argv_suite <name>'
    if [ "$have_gb" = with-gb ]; then
        env BENCHMARK_LIST_TESTS=1 "$bin/gb_argv_suite" all >"$tmp/gb" 2>&1
        env BENCHMARK_LIST_TESTS=1 "$a" all >"$tmp/bl" 2>&1
        diff "$tmp/gb" "$tmp/bl" >/dev/null || fail "the listing differs from Google Benchmark's"
    fi
    ;;
api-1.9-like-google-benchmark)
    # v19_suite.cc: Google Benchmark 1.8/1.9 spellings (BENCHMARK of a
    # function-pointer variable and of BM<a, b>, the TEMPLATE CAPTURE forms,
    # BENCHMARK_TEMPLATE_METHOD_F, Setup/Teardown/Apply with lambdas,
    # benchmark::Benchmark, state.name(), range_size(), SkipWithMessage, 1.9.2's
    # RegisterBenchmarkInternal(std::unique_ptr), as x86-simd-sort registers).
    # Debian's 1.7.1 builds none of it: the names are checked against
    # expected/v19_suite.list, written from Google Benchmark 1.9.5's rules.
    v=$bin/bl_v19_suite
    run "$v" --benchmark_list_tests
    expect_status 0
    diff "$here/expected/v19_suite.list" "$tmp/out" >"$tmp/diff" ||
        { cat "$tmp/diff"; fail "v19_suite: names differ from Google Benchmark 1.9's"; }
    # every body checks what it was given (captures, the Setup lambda's
    # value, the fixture's data, state.name(), range_size()) and fails saying
    # what was wrong: none fails; the SkipWithMessage one is a skip
    run "$v" --benchmark_min_time=0.01s --benchmark_repetitions=1 --benchmark_format=json
    expect_status 0
    err_lacks 'FAIL'
    err_has "^SKIP BM_skip_message: no input here$"
    python3 - "$tmp/out" "$here/expected/v19_suite.list" <<'PY' || fail "v19_suite: wrong JSON"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
names = [b["name"] for b in rows if b["run_type"] == "iteration"]
want = open(sys.argv[2]).read().split("\n")[:-1]
assert names == want, names
# Google Benchmark 1.8's skip: skipped and skip_message, not an error
s = [b for b in rows if b["name"] == "BM_skip_message"][0]
assert s["skipped"] is True and s["skip_message"] == "no input here", s
assert "error_occurred" not in s, s
assert not any(b.get("error_occurred") for b in rows), [b for b in rows if b.get("error_occurred")]
big_o = [b for b in rows if b.get("aggregate_name") == "BigO"]
assert len(big_o) == 1 and big_o[0]["big_o"] == "N", big_o
PY
    # the console and CSV say a skip as Google Benchmark 1.8 does
    run "$v" --benchmark_filter=BM_skip_message --benchmark_format=console --benchmark_min_time=0.01s --no-table
    expect_status 0
    out_has "^BM_skip_message *SKIPPED: 'no input here'$"
    run "$v" --benchmark_filter=BM_skip_message --benchmark_format=csv --benchmark_min_time=0.01s --no-table
    expect_status 0
    out_has '^"BM_skip_message",,,,,,,,false,"no input here"$'
    # benchlab's own reader keeps the skip, the label and the unit of
    # Google Benchmark's JSON (benchlab merge writes them in benchlab's)
    "$v" --benchmark_filter='BM_skip_message|Sum<int>' --benchmark_min_time=0.01s \
        --benchmark_time_unit=us --no-table --benchmark_format=json >"$tmp/gb.json" 2>/dev/null
    run "$bin/../benchlab" merge "$tmp/gb.json" --format json
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "benchlab merge of Google Benchmark's JSON lost the skip, label or unit"
import json, sys
b = {x["name"]: x for x in json.load(open(sys.argv[1]))["benchmarks"]}
s = b["BM_skip_message"]["launches"][0]
assert s["skipped"] is True and s["message"] == "no input here", s
sum = b["Sum<int>/Add/16"]["launches"]
assert sum and all(l["time_unit"] == "us" and l["label"] == "sum of 16" for l in sum), sum
PY
    # --benchmark_dry_run (1.9.1): each benchmark once, one iteration, even
    # after --benchmark_min_time and --benchmark_repetitions; =false is none
    run "$v" --benchmark_filter='^(BM_state|Sum<int>)' --benchmark_min_time=0.05s \
        --benchmark_repetitions=3 --benchmark_dry_run --benchmark_format=json --no-table
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "--benchmark_dry_run: not one launch of one iteration"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
assert sorted(b["name"] for b in rows) == ["BM_state/5/6/7", "Sum<int>/Add/16"], rows
assert all(b["iterations"] == 1 and b["repetitions"] == 1 for b in rows), rows
PY
    run "$v" --benchmark_filter='^BM_state' --benchmark_min_time=2x --benchmark_dry_run=false \
        --benchmark_format=json --no-table
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "--benchmark_dry_run=false: not the run asked for"
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"]
assert rows and all(b["iterations"] == 2 for b in rows), rows
PY
    # a MemoryManager builds; registered, the run is refused, naming it;
    # the listing still works
    run env V19_MEMORY_MANAGER=1 "$v" --benchmark_min_time=0.01s
    expect_status 2
    err_has 'benchmark::RegisterMemoryManager: a MemoryManager is not supported'
    run env V19_MEMORY_MANAGER=1 "$v" --benchmark_list_tests
    expect_status 0
    ;;
hostile-ranges-end-or-are-refused)
    # a step or multiplier that cannot advance is refused naming the call,
    # a range ending at the integer's maximum ends there: each at once
    # (registration looped without end before, growing until memory ran out)
    r="$bin/bl_ranges_suite"
    for c in create-range-multiplier-1:'CreateRange(1, 8, 1): needs lo <= hi and multi >= 2' \
        create-range-reversed:'CreateRange(8, 1, 2): needs lo <= hi and multi >= 2' \
        create-dense-step-0:'CreateDenseRange(0, 10, 0): needs start <= limit and step >= 1'; do
        run env BL_RANGES_CASE=${c%%:*} timeout 20 "$r" --benchmark_list_tests
        expect_status 2
        err_has "benchlab-gbench: ${c#*:}"
    done
    run env BL_RANGES_CASE=create-dense-at-max timeout 20 "$r" --benchmark_list_tests
    expect_status 0
    printf 'BM_x/9223372036854775805\nBM_x/9223372036854775807\n' | diff - "$tmp/out" ||
        fail "CreateDenseRange(max - 2, max, 2)"
    run env BL_RANGES_CASE=dense-range-at-max timeout 20 "$r" --benchmark_list_tests
    expect_status 0
    printf 'BM_x/9223372036854775806\nBM_x/9223372036854775807\n' | diff - "$tmp/out" ||
        fail "DenseRange(max - 1, max)"
    run env BL_RANGES_CASE=dense-thread-range-at-max timeout 20 "$r" --benchmark_list_tests
    expect_status 0
    printf 'BM_x/1/threads:1\nBM_x/1/threads:2147483647\n' | diff - "$tmp/out" ||
        fail "DenseThreadRange(1, INT_MAX, INT_MAX)"
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
