#!/bin/sh
# plan.sh CASE BINDIR - a benchmark's own plan (benchlab.h: .iterations,
# .time_s, .warmup_s, .count, .manual_time; --iterations) on fixture_plan,
# through the suite itself and `benchlab run`.
set -u
case_name=$1
bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite="$bin/fixture_plan"
cli="$bin/benchlab"
fast="--time 0.05s --timeout 20s --no-table"

. "$(dirname "$0")/../support/e2e_lib.sh"
# the values of unit $2 on the result lines of benchmark $1, one a line
values() { awk -v n="$1" -v u="$2" '$1 == n { for (i = 3; i < NF; i++) if ($(i+1) == u) print $i }' "$tmp/out"; }
# the iteration counts (second field) of benchmark $1's result lines
iters() { awk -v n="$1" '$1 == n { print $2 }' "$tmp/out"; }
lines() { grep -c "^$1	" "$tmp/out"; }

case $case_name in
fixed-iterations)
    # one measurement of exactly 1000 per launch; the body checks
    # bl_max_iterations() before and after its loop
    run "$suite" $fast --count 2 --filter '^BenchmarkFixed$'
    expect_status 0
    [ "$(lines BenchmarkFixed)" -eq 2 ] || fail "want 2 launches"
    [ "$(iters BenchmarkFixed | sort -u)" = 1000 ] || fail "the result lines are not of 1000 iterations"
    [ "$(values BenchmarkFixed loop_reps | sort -u)" = 1000 ] || fail "the loop did not run 1000 times"
    # a minimum warm-up before it: batches of 10, for at least 50 ms
    run "$suite" $fast --count 1 --filter '^BenchmarkFixedWarm$'
    expect_status 0
    [ "$(iters BenchmarkFixedWarm)" = 10 ] || fail "FixedWarm: the measurement is not of 10"
    reps=$(values BenchmarkFixedWarm loop_reps)
    check "$reps" 'x > 10 && x % 10 == 0' "FixedWarm: warm-up batches of 10 before the measurement"
    check "$(values BenchmarkFixedWarm loop_ms)" 'x >= 50' "FixedWarm: the warm-up lasted 50 ms"
    # without a plan, the count is known once the loop has ended
    run "$suite" $fast --count 1 --filter '^BenchmarkAdaptive$'
    expect_status 0
    out_has '^BenchmarkAdaptive	'
    # --iterations N: every benchmark without its own .iterations
    run "$suite" $fast --count 1 --iterations 7 --filter '^Benchmark(Adaptive|Fixed)$'
    expect_status 1
    [ "$(iters BenchmarkFixed)" = 1000 ] || fail "--iterations overrode .iterations"
    # Adaptive asserts that its count is unknown before the loop: with a
    # fixed count it is known, and it says so
    err_has 'benchlab: Adaptive: bl_max_iterations() is known before an adaptive loop'
    run "$cli" run "$suite" $fast --count 1 --iterations 7 --filter '^BenchmarkDefault$'
    expect_status 0
    [ "$(iters BenchmarkDefault)" = 7 ] || fail "benchlab run --iterations 7: not 7 iterations"
    # the empty loop runs once before the timed overhead batch, as a warm-up
    # overhead batch ("o"): the first batch of a worker is cold, its counter
    # reads cost about twice as much, and the timed overhead batch ("O") is
    # where cpu/op learns their cost (it read 20 ns for a 136 ns op). The
    # body still runs 7 times, once.
    run "$suite" $fast --count 2 --iterations 7 --filter '^BenchmarkDefault$' --out "$tmp/fixed.json"
    expect_status 0
    python3 - "$tmp/fixed.json" <<'PY' || fail "--iterations 7: not a warm-up overhead batch, the overhead batch and one of 7"
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
assert len(b["launches"]) == 2, b["launches"]
for l in b["launches"]:
    got = [(s["stage"], s["reps"]) for s in l["samples"]]
    assert got == [("o", 7), ("O", 7), ("m", 7)], got
PY
    run "$suite" --iterations 0 --filter Default
    expect_status 2
    err_has 'iterations'
    # a bad plan is named
    run "$suite" $fast --count 1 --filter '^BenchmarkBadPlan$'
    expect_status 1
    err_has 'benchlab: BadPlan: .iterations = -5'
    ;;
manual-time)
    # the time is what the body reported (1 ms per repetition), not the clock
    run "$suite" $fast --count 2 --filter '^BenchmarkManual$'
    expect_status 0
    [ "$(lines BenchmarkManual)" -eq 2 ] || fail "want 2 launches"
    for v in $(values BenchmarkManual ns/op); do
        check "$v" 'x >= 999999 && x <= 1000001' "Manual: 1 ms reported per repetition"
    done
    # threads: the mean of what each thread reported (1 ms and 3 ms)
    run "$suite" $fast --count 1 --filter '^BenchmarkManualThreads/threads=2$'
    expect_status 0
    check "$(values BenchmarkManualThreads/threads=2 ns/op)" 'x >= 1999999 && x <= 2000001' \
        "ManualThreads: the threads' mean"
    run "$suite" $fast --count 1 --filter '^BenchmarkManual(Silent|Stray)$'
    expect_status 1
    err_has 'benchlab: ManualSilent: manual time: a batch of [0-9]* repetitions reported no time'
    err_has 'benchlab: ManualStray: bl_set_iteration_time: the benchmark has no .manual_time'
    # a time past what a batch can hold fails, rather than a saturated
    # 9223372036.9 s reported as measured
    run "$suite" $fast --count 1 --filter '^BenchmarkManualHuge$'
    expect_status 1
    err_has 'benchlab: ManualHuge: bl_set_iteration_time: 1e+300 is not a time in seconds (0 to 1e+06)'
    out_lacks '^BenchmarkManualHuge	'
    ;;
time-unit)
    # .time_unit: Google Benchmark's outputs show that benchmark in it, the
    # others in --time-unit (ns by default); benchlab's own stay in ns
    for how in suite cli; do
        if [ $how = suite ]; then
            run "$suite" $fast --count 1 --filter '^BenchmarkManual(Ms)?$' --format gbench-json --time-unit us
        else
            run "$cli" run "$suite" $fast --count 1 --filter '^BenchmarkManual(Ms)?$' --format gbench-json --time-unit us
        fi
        expect_status 0
        python3 - "$tmp/out" <<'PY' || fail "$how: .time_unit or --time-unit not in Google Benchmark's JSON"
import json, sys
rows = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
ms, us = rows["ManualMs"], rows["Manual"]
assert ms["time_unit"] == "ms" and abs(ms["real_time"] - 1) < 1e-6, ms
assert us["time_unit"] == "us" and abs(us["real_time"] - 1000) < 1e-3, us
PY
    done
    run "$suite" $fast --count 1 --filter '^BenchmarkManualMs$' --format gbench-console
    expect_status 0
    out_has '^ManualMs  *1\.00 ms  *[0-9.]* ms  *[0-9]*$'
    run "$suite" $fast --count 1 --filter '^BenchmarkManualMs$'
    expect_status 0
    check "$(values BenchmarkManualMs ns/op)" 'x >= 999999 && x <= 1000001' "ManualMs: ns/op in the Go format"
    run "$suite" $fast --count 1 --filter '^BenchmarkBadUnit$'
    expect_status 1
    err_has 'benchlab: BadUnit: .time_unit = "hours": ns, us, ms or s'
    run "$suite" --time-unit hours
    expect_status 2
    err_has "time-unit: 'hours'"
    ;;
per-benchmark-count-and-time)
    # .count = 3 and .time_s = 0.3 win over --count and --time: 3 launches
    # of 0.1 s; the others get the run's 0.2 s over 4 launches
    for how in suite cli; do
        if [ $how = suite ]; then
            run "$suite" --time 0.2s --count 4 --no-table --filter '^Benchmark(Budget|Default)$'
        else
            run "$cli" run "$suite" --time 0.2s --count 4 --no-table --filter '^Benchmark(Budget|Default)$'
        fi
        expect_status 0
        [ "$(lines BenchmarkBudget)" -eq 3 ] || fail "$how: Budget: want its own 3 launches"
        [ "$(lines BenchmarkDefault)" -eq 4 ] || fail "$how: Default: want --count 4"
        [ "$(values BenchmarkBudget budget_s | sort -u)" = 0.1000 ] || fail "$how: Budget: want 0.1 s per launch"
        [ "$(values BenchmarkDefault budget_s | sort -u)" = 0.05000 ] || fail "$how: Default: want 0.05 s per launch"
        # the header's budget and count are the run's; Budget says its own
        # in a note (a comment: compare reads the file as before)
        out_has '^# time-budget-s: 0.2$'
        out_has '^# launches: 4$'
        out_has "^# note BenchmarkBudget: its own plan: time budget 0.3 s over 3 launches (time-budget-s and launches above are the run's)$"
        out_lacks '^# note BenchmarkDefault: its own'
        cp "$tmp/out" "$tmp/$how.txt"
    done
    run "$cli" compare "$tmp/suite.txt" "$tmp/cli.txt"
    expect_status 0
    out_has '^Budget '
    out_has '^Default '
    out_lacks 'note'
    # the runner learns them from the listing it asks for
    run "$suite" --benchlab-list suite settings
    expect_status 0
    out_has '^BenchmarkBudget$'
    out_has '^	count=3 time=0.29999999999999999$'
    out_has '^BenchmarkFixed$'
    # a plain listing (and --list) is names only
    run "$suite" --list
    expect_status 0
    out_lacks 'count='
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
