#!/bin/sh
# skipped.sh CASE BINDIR - nothing is dropped in silence: every record a
# reader skips is named on stderr (file:line or file: JSON path) and merge,
# report and compare exit 3 after writing their output; a file that is
# neither format, or two formats in one file, is an error (exit 2).
set -u
case_name=$1
bin=$2
cli="$bin/benchlab"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"

gb_entry() { # NAME TIME
    printf '{"name": %s, "run_name": %s, "run_type": "iteration", "iterations": 100, %s "time_unit": "ns"}' \
        "$1" "$1" "$2"
}
cat >"$tmp/go.txt" <<'GO'
goos: linux
pkg: example
BenchmarkA 100 10 ns/op
BenchmarkA 100 11 ns/op
GO

# all three readers: merge, report, compare, with the status each gives
each() { # STATUS FILE PATTERN
    run "$cli" merge "$2" -o "$tmp/m.json"
    expect_status "$1"
    err_has "$3"
    run "$cli" report "$2" -o "$tmp/r.html"
    expect_status "$1"
    err_has "$3"
    run "$cli" compare "$2"
    expect_status "$1"
    err_has "$3"
}

case $case_name in
clean-input-exits-0)
    run "$cli" merge "$tmp/go.txt" -o "$tmp/m.json"
    expect_status 0
    [ ! -s "$tmp/err" ] || fail "stderr not empty"
    run "$cli" compare "$tmp/go.txt"
    expect_status 0
    ;;
gb-null-name)
    { printf '{"context": {}, "benchmarks": [\n'
      gb_entry '"BM_a"' '"real_time": 5, "cpu_time": 5,'; printf ',\n'
      gb_entry null '"real_time": 5, "cpu_time": 5,'; printf ']}\n'; } >"$tmp/gb.json"
    each 3 "$tmp/gb.json" "gb.json: benchmarks\[1\]: no name: skipped"
    # the good entry was read
    run "$cli" merge "$tmp/gb.json" --format go -o "$tmp/m.txt"
    grep -q '^BenchmarkBM_a\|^BM_a\|BM_a ' "$tmp/m.txt" || fail "BM_a not merged"
    ;;
gb-merged-to-go-reads-back)
    # merge --format go wrote Google Benchmark's names without the
    # "Benchmark" prefix: no reader took those lines for results
    { printf '{"context": {}, "benchmarks": [\n'
      gb_entry '"BM_a/size:64"' '"real_time": 5, "cpu_time": 5,'; printf ',\n'
      gb_entry '"BM_a/size:64"' '"real_time": 6, "cpu_time": 6,'; printf ']}\n'; } >"$tmp/gb.json"
    run "$cli" merge "$tmp/gb.json" --format go -o "$tmp/m.txt"
    expect_status 0
    [ "$(grep -c '^BenchmarkBM_a/size:64[[:space:]]' "$tmp/m.txt")" = 2 ] || fail "not 2 result lines"
    run "$cli" merge "$tmp/m.txt" -o "$tmp/back.json"
    expect_status 0
    [ "$(grep -o '"ns_per_op":[0-9.e+]*' "$tmp/back.json" | sort | tr '\n' ' ')" = \
      '"ns_per_op":5 "ns_per_op":6 ' ] || fail "the times did not read back"
    run "$cli" compare "$tmp/m.txt"
    expect_status 0
    out_has 'BM_a/size:64'
    ;;
gb-no-time)
    { printf '{"context": {}, "benchmarks": [\n'
      gb_entry '"BM_a"' '"real_time": 5, "cpu_time": 5,'; printf ',\n'
      gb_entry '"BM_b"' ''; printf ']}\n'; } >"$tmp/gb.json"
    each 3 "$tmp/gb.json" "gb.json: benchmarks\[1\]: BM_b: no real_time: skipped"
    ;;
go-malformed-lines)
    printf 'BenchmarkB 100 12\nBenchmarkC x 1 ns/op\n' >>"$tmp/go.txt"
    each 3 "$tmp/go.txt" "go.txt:5: missing units"
    err_has "go.txt:6: parsing iteration count: invalid syntax"
    ;;
many-skipped-bounded)
    i=0
    while [ $i -lt 1500 ]; do echo "BenchmarkBad 1 2"; i=$((i + 1)); done >>"$tmp/go.txt"
    run "$cli" merge "$tmp/go.txt" -o "$tmp/m.json"
    expect_status 3
    [ "$(grep -c 'missing units' "$tmp/err")" -eq 1000 ] || fail "want the first 1000 listed"
    err_has "merge: 500 more records skipped (not listed)"
    ;;
benchlab-json-without-schema)
    # 30 launches used to become 5 with no time, compare exiting 0 with nothing
    cat >"$tmp/bl.json" <<'J'
{"config": {"pkg": "x"}, "benchmarks": [{"name": "BenchmarkA", "launches": [
 {"status": "ok", "ns_per_op": 10}, {"status": "ok", "ns_per_op": 11}]}]}
J
    each 2 "$tmp/bl.json" 'bl.json: no "schema": benchlab JSON'
    ;;
neither-format)
    echo '{"benchmarks": [{"what": 1}]}' >"$tmp/x.json"
    each 2 "$tmp/x.json" "x.json: benchmarks\[0\]: neither benchlab"
    ;;
gb-aggregates-only)
    { printf '{"context": {}, "benchmarks": [\n'
      for a in mean median stddev; do
          t=5; [ $a = median ] && t=4.5; [ $a = stddev ] && t=0.5
          printf '{"name": "BM_a_%s", "run_name": "BM_a", "run_type": "aggregate", "aggregate_name": "%s", "iterations": 3, "real_time": %s, "cpu_time": 5, "time_unit": "ns"}' $a $a $t
          [ $a = stddev ] || printf ',\n'
      done
      printf ']}\n'; } >"$tmp/agg.json"
    each 3 "$tmp/agg.json" "agg.json: holds only aggregates (--benchmark_report_aggregates_only)"
    run "$cli" compare "$tmp/agg.json"
    out_has "BM_a *4.500n"
    ;;
json-after-go)
    { cat "$tmp/go.txt"; echo '{"context": {}, "benchmarks": []}'; } >"$tmp/cat.txt"
    each 2 "$tmp/cat.txt" "cat.txt:5: a JSON document after Go benchmark text"
    ;;
go-after-json)
    { echo '{"context": {}, "benchmarks": []}'; cat "$tmp/go.txt"; } >"$tmp/cat.txt"
    each 2 "$tmp/cat.txt" "cat.txt: invalid JSON: line 2, column 1: trailing characters"
    ;;
config-follows-results)
    # configuration is applied per change, not per result: each key keeps
    # its value at the last result that had it; a key set and deleted
    # between results, or set after the last one, is not configuration
    printf 'a: 1\nc: 5\nBenchmarkX 1 1 ns/op\nb: 2\nb:\nc: 6\nBenchmarkX 1 1 ns/op\na: 3\n' >"$tmp/c.txt"
    run "$cli" merge "$tmp/c.txt" -o "$tmp/m.json"
    expect_status 0
    python3 -c "import json, sys; c = json.load(open(sys.argv[1]))['config']; sys.exit(c != {'a': '1', 'c': '6'})" \
        "$tmp/m.json" || fail "config $(cat "$tmp/m.json" | head -c 300)"
    ;;
*)
    fail "unknown case"
    ;;
esac
