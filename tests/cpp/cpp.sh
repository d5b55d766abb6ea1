#!/bin/sh
# cpp.sh SUITE - a suite written in C++ (cpp_suite.cpp) lists its instances
# with the parameters and threads in order, and runs them with its setup,
# cleanup and metrics.
set -u
suite=$1
case_name=$(basename "$suite")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"

run "$suite" --list
expect_status 0
cat >"$tmp/want" <<'END'
BenchmarkSum/size=16/kind=vector/threads=1
BenchmarkSum/size=16/kind=vector/threads=2
BenchmarkSum/size=16/kind=pair/threads=1
BenchmarkSum/size=16/kind=pair/threads=2
BenchmarkSum/size=256/kind=vector/threads=1
BenchmarkSum/size=256/kind=vector/threads=2
BenchmarkSum/size=256/kind=pair/threads=1
BenchmarkSum/size=256/kind=pair/threads=2
BenchmarkPlain
BenchmarkComplexity_sort/n=64
BenchmarkComplexity_sort/n=128
BenchmarkComplexity_sort/n=256
BenchmarkRanged/n=1/k=2
BenchmarkRanged/n=1/k=6
BenchmarkRanged/n=8/k=2
BenchmarkRanged/n=8/k=6
BenchmarkRanged/n=64/k=2
BenchmarkRanged/n=64/k=6
BenchmarkBadRange/n=1
BenchmarkSteps
BenchmarkStepsLate
END
diff "$tmp/want" "$tmp/out" >"$tmp/diff" || { cat "$tmp/diff"; fail "--list differs"; }

run "$suite" --time 0.05s --count 1 --filter 'Sum/size=256/kind=vector|Plain|Complexity' \
    --complexity --no-table
expect_status 0
out_has '^BenchmarkSum/size=256/kind=vector/threads=1	.* ns/op	.* 256.0 elems/op'
out_has '^BenchmarkSum/size=256/kind=vector/threads=2	.* ns/op	.* 256.0 elems/op'
out_has '^BenchmarkPlain	.* ns/op'
out_has '^BenchmarkComplexity_sort/n=256	.* ns/op'
out_has '^# complexity: BenchmarkComplexity_sort'
out_lacks 'FAIL\|SKIP'

# ranges reach the body as their values; a bad range fails, named
run "$suite" --time 0.02s --count 1 --filter 'Range' --no-table
expect_status 1
out_has '^BenchmarkRanged/n=64/k=6	.*	 *6406 nk$'
out_has '^BenchmarkRanged/n=8/k=2	.*	 *802.0 nk$'
err_has 'benchlab: BadRange/n=1: BL_DENSE_RANGE("n", 1, 8, 0): the step must be at least 1'

# bl_loop_n: whole steps, however the engine sizes its batches
run "$suite" --time 0.05s --count 2 --filter 'Steps' --no-table
expect_status 1
[ "$(grep -c '^BenchmarkSteps	.*	 *1.000 exact	 *0 rest$' "$tmp/out")" -eq 2 ] ||
    fail "bl_loop_n: steps do not add up to the repetitions"
err_has 'benchlab: StepsLate: bl_set_batch_multiple: call it before the loop starts'
exit 0
