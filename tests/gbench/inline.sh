#!/bin/sh
# inline.sh CXX INCLUDE_DIR SUITE_SRC SUITE_BIN - state.range(), threads()
# and thread_index() compile inline in a benchmark's body, as Google
# Benchmark's do (inline_suite.cc says why), and range() past the arguments
# fails the benchmark, naming it.
set -u
cxx=$1
inc=$2
src=$3
bin=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cxx" -std=c++17 -O2 -S -I"$inc" -I"$inc/benchlab-gbench" "$src" -o "$tmp/s.s" ||
    { echo "FAIL: $src does not compile"; exit 1; }
# the body: from its label to the end of its frame information
awk '/^_Z8BM_add2dRN9benchmark5StateE:/,/\.cfi_endproc/' "$tmp/s.s" >"$tmp/body.s"
test -s "$tmp/body.s" || { echo "FAIL: BM_add2d not found in the assembly"; exit 1; }
if grep -q 'State5range' "$tmp/body.s"; then
    grep 'State5range' "$tmp/body.s"
    echo "FAIL: BM_add2d calls State::range() instead of reading its arguments inline"
    exit 1
fi
grep -q 'State5range' "$tmp/s.s" &&
    { echo "FAIL: the suite refers to an out-of-line State::range()"; exit 1; }
# state.threads() and state.thread_index() in BM_share's loop: field reads
# too, no call (nor bl_threads/bl_thread_index behind one)
awk '/^_Z8BM_shareRN9benchmark5StateE:/,/\.cfi_endproc/' "$tmp/s.s" >"$tmp/share.s"
test -s "$tmp/share.s" || { echo "FAIL: BM_share not found in the assembly"; exit 1; }
if grep -E -q 'State7threads|State12thread_index|bl_threads|bl_thread_index' "$tmp/share.s"; then
    grep -E 'State7threads|State12thread_index|bl_threads|bl_thread_index' "$tmp/share.s"
    echo "FAIL: BM_share calls State::threads()/thread_index() instead of reading them inline"
    exit 1
fi
"$bin" --benchmark_filter='^BM_share/' --benchmark_min_time=0.01 --no-table >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; echo "FAIL: BM_share did not run"; exit 1; }
grep -q '^BenchmarkBM_share/threads:2	' "$tmp/out" || { cat "$tmp/out"; echo "FAIL: no BM_share line"; exit 1; }
# BM_add2d runs; BM_past_args fails, and says why
"$bin" --benchmark_filter='^BM_add2d/' --benchmark_min_time=0.01 --no-table >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; echo "FAIL: BM_add2d did not run"; exit 1; }
grep -q '^BenchmarkBM_add2d/16/16	' "$tmp/out" || { cat "$tmp/out"; echo "FAIL: no BM_add2d line"; exit 1; }
if "$bin" --benchmark_filter='^BM_past_args/' --benchmark_min_time=0.01 --no-table \
    >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL: range(1) of a benchmark with one argument did not fail"
    exit 1
fi
grep -q 'BM_past_args/3: range(1): the benchmark has 1 argument$' "$tmp/err" ||
    { cat "$tmp/err"; echo "FAIL: range(1) past the arguments not said"; exit 1; }
echo ok
