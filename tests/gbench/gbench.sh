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
    run "$bin/bl_basic_test" --benchmark_filter='BM_(OneTemplateFunc|TwoTemplateFunc|RangedFor|KeepRunning$|pause_during$)' \
        --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_OneTemplateFunc<int>/1	'
    out_has '^BenchmarkBM_TwoTemplateFunc<int,_double>/1	' # whitespace becomes _ in the Go format
    out_has '^BenchmarkBM_RangedFor	'
    out_has '^BenchmarkBM_KeepRunning	'
    out_has '^BenchmarkBM_pause_during	'
    # a suite without main, linked with benchlab-gbench-main
    run "$bin/bl_link_main_test" --benchmark_min_time=0.02 --benchmark_repetitions=1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_empty	'
    # benchlab's own command runs it as any suite
    run "$bin/../benchlab" run "$bin/bl_map_test" --filter 'MapLookup/8$' --time 0.02s --count 1 --no-table
    expect_status 0
    out_has '^BenchmarkBM_MapLookup/8	'
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
    # against 2 per op (kIsIterationInvariantRate) is 5 to 1, bytes 1000 per op
    val() { tr '\t' '\n' <"$tmp/line" | awk -v u="$1" '$2 == u { print $1 }'; }
    r10=$(val per_op_rate/s)
    r2=$(val inv_rate/s)
    mbs=$(val MB/s)
    [ -n "$r10" ] && [ -n "$r2" ] && [ -n "$mbs" ] || fail "rates missing"
    check "$(awk -v a="$r10" -v b="$r2" 'BEGIN { print a / b }')" 'x > 4.99 && x < 5.01' "rate ratio"
    check "$(awk -v a="$mbs" -v b="$r2" 'BEGIN { print a / b }')" 'x > 0.000499 && x < 0.000501' \
        "MB/s against 2 per op"
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
unsupported-is-said)
    run "$bin/bl_options_test" --benchmark_filter=BM_explicit_iteration_count --time 0.02s --count 1 --no-table
    expect_status 1
    err_has 'Iterations(n)'
    run "$bin/bl_basic_test" --benchmark_filter=BM_KeepRunningBatch --time 0.02s --count 1 --no-table
    expect_status 1
    err_has 'KeepRunningBatch'
    run "$bin/bl_map_test" --benchmark_min_time=100x
    expect_status 2
    err_has 'benchmark_min_time: the Nx form'
    run "$bin/bl_map_test" --benchmark_format=json
    expect_status 2
    err_has 'benchmark_format: only console'
    run "$bin/bl_map_test" --benchmark_out=x.json
    expect_status 2
    err_has 'benchmark_out: is not supported'
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
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
