#!/bin/sh
# alloc.sh BINDIR [asan] - the --alloc instrument on known allocation patterns.
set -u
bin=$1
mode=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# two launches of 100 ms: benchmarks that pause or hook every operation spend
# 20x their timed time in counter reads, and need a few batches per launch
"$bin/fixture_alloc" --alloc --time 0.2s --count 2 --timeout 20s >"$tmp/out" 2>"$tmp/err"
st=$?
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; exit 1; }

if [ "$mode" = asan ]; then
    # AddressSanitizer owns the allocator: the instrument must say so once
    # and report no numbers, while timing goes on.
    [ "$st" -eq 0 ] || fail "exit status $st"
    grep -q 'is built with a sanitizer (libasan' "$tmp/err" || fail "no sanitizer message"
    [ "$(grep -c -- '--alloc:' "$tmp/err")" -eq 1 ] || fail "the message must be said once"
    ! grep -q 'B/op' "$tmp/out" || fail "B/op reported under ASan"
    grep -q -E '^BenchmarkFixedSizes	.* ns/op(	 *[0-9.]+ ref-cycles/op)?(	 *[0-9.]+ cpu-ns/op)?$' "$tmp/out" ||
        fail "timing lost"
    echo "ok alloc (asan: refused as expected)"
    exit 0
fi

[ "$st" -eq 0 ] || fail "exit status $st"
expect() { # name bytes allocs
    line=$(grep "^Benchmark$1	" "$tmp/out") || fail "no line for $1"
    echo "$line" | grep -q "	 *$2 B/op	 *$3 allocs/op" || fail "$1: want $2 B/op $3 allocs/op: $line"
}
expect FixedSizes 148 3
expect ReallocGrowth 56 3
expect Calloc 80 1
expect Aligned 288 4
expect SetupNotCounted 0 0
expect TeardownFrees 64 1
expect Paused 8 1
expect SecondThread 77 1
expect Strdup 6 1
expect Threaded/threads=1 48 1
expect Threaded/threads=3 48 1
line=$(grep '^BenchmarkAsprintf	' "$tmp/out") || fail "no Asprintf line"
echo "$line" | grep -q -E '	 *[1-9][0-9]* B/op	 *[1-9][0-9]* allocs/op' || fail "asprintf not counted: $line"
# ForeignFree: timed, but no allocation numbers, and a reason naming it
grep -q '^BenchmarkForeignFree	' "$tmp/out" || fail "ForeignFree timing lost"
! grep -q '^BenchmarkForeignFree	.*B/op' "$tmp/out" || fail "ForeignFree must not report B/op"
grep -q 'benchlab: ForeignFree: --alloc: it frees or resizes memory that was not allocated in the measured loop' "$tmp/err" ||
    fail "no reason for ForeignFree"
# per-op counts come from the pass's own k and k+d repetitions, not the
# timing launches' count: with --iterations 7 (7 repetitions a timing
# launch) they stay exact
"$bin/fixture_alloc" --alloc --iterations 7 --count 2 --filter '^BenchmarkFixedSizes$' --timeout 20s >"$tmp/out" 2>"$tmp/err" ||
    fail "--iterations 7: exit status $?"
[ "$(awk '$1 == "BenchmarkFixedSizes" { print $2 }' "$tmp/out" | sort -u)" = 7 ] || fail "--iterations 7: want 7 a launch"
expect FixedSizes 148 3
# without --alloc: no allocation columns at all
"$bin/fixture_alloc" --time 0.02s --filter FixedSizes >"$tmp/out" 2>"$tmp/err"
! grep -q 'B/op' "$tmp/out" || fail "B/op without --alloc"
# a statically linked suite cannot be preloaded: said once, no numbers
if [ -x "$bin/fixture_alloc_static" ]; then
    "$bin/fixture_alloc_static" --alloc --time 0.02s --filter 'FixedSizes|Calloc' >"$tmp/out" 2>"$tmp/err"
    grep -q 'is statically linked: no allocator can be preloaded' "$tmp/err" || fail "static: no message"
    [ "$(grep -c -- '--alloc:' "$tmp/err")" -eq 1 ] || fail "static: say it once"
    ! grep -q 'B/op' "$tmp/out" || fail "static: B/op reported"
    grep -q '^BenchmarkCalloc	' "$tmp/out" || fail "static: timing lost"
fi
echo "ok alloc"
