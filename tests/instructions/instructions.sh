#!/bin/sh
# instructions.sh CASE BINDIR BUILT - instruction counts (--instructions)
# under valgrind's callgrind, on fixture_instr (counts known exactly) and
# the example suite. BUILT is "yes" when libbenchlab has valgrind's
# client requests (valgrind/callgrind.h at build time), else "no": then
# every case checks that --instructions refuses, and says why; "asan" in
# the sanitizer build, whose suites valgrind cannot run: refused too.
set -u
case_name=$1
bin=$2
built=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite="$bin/fixture_instr"
cli="$bin/benchlab"
fast="--time 0.05s --timeout 120s --no-table"

. "$(dirname "$0")/../support/e2e_lib.sh"
# the values of unit $2 on the result lines of benchmark $1, one a line
values() { awk -v n="$1" -v u="$2" '$1 == n { for (i = 3; i < NF; i++) if ($(i+1) == u) print $i }' "$tmp/out"; }

not_built() {
    run "$cli" run "$suite" $fast --count 1 --instructions
    expect_status 2
    if [ "$built" = asan ]; then
        # the sanitizer build's fixture: valgrind cannot run ASan's runtime
        err_has 'is built with a sanitizer (libasan'
        err_has 'count a build without -fsanitize'
    else
        err_has 'built without valgrind/callgrind.h'
    fi
    out_lacks '^Benchmark'
    exit 0
}

case $case_name in
ground-truth)
    [ "$built" = yes ] || not_built
    # exact counts, the loop's own instructions subtracted: 1000 nops read
    # 1000, an empty body 0, a call of a function of 100 instructions 101
    # (the call itself), two threads 1000 per op each, the paused part of a
    # repetition nothing
    run "$cli" run "$suite" $fast --count 2 --instructions --filter '^Benchmark(Nops1000|Empty|CallKnown|Nops1000Threads/threads=2|Nops1000Paused)$'
    expect_status 0
    for want in Nops1000:1000 Empty:0 CallKnown:101 Nops1000Threads/threads=2:1000; do
        name=Benchmark${want%:*}
        got=$(values "$name" instructions/op | tr '\n' ' ')
        awk -v got="$got" -v want="${want#*:}" 'BEGIN { n = split(got, v, " "); if (n != 2) exit 1
            for (i = 1; i <= n; i++) if (v[i] + 0 != want + 0) exit 1 }' ||
            fail "$name: instructions/op of its 2 launches are $got, want ${want#*:} in each"
    done
    # the 2000 nops between bl_pause and bl_resume are not counted: with
    # them the count would be 3000 and more (the construction's bound, not
    # a tuned band); beside the 1000 nops, the calls of bl_pause and
    # bl_resume up to their switch of the count are. A count, not a time:
    # the same in both launches
    [ "$(values BenchmarkNops1000Paused instructions/op | sort -u | wc -l)" -eq 1 ] ||
        fail "Nops1000Paused: the two launches counted differently"
    for v in $(values BenchmarkNops1000Paused instructions/op); do
        check "$v" 'x >= 1000 && x < 3000' "Nops1000Paused: the paused nops out of the count"
    done
    # nops touch no data and stay in one warm cache line after another
    for v in $(values BenchmarkNops1000 LL-misses/op); do
        [ "$v" = 0 ] || fail "Nops1000: $v LL-misses/op, want 0"
    done
    # the time is measured natively beside them, not under valgrind
    [ "$(values BenchmarkNops1000 ns/op | wc -l)" -eq 2 ] || fail "Nops1000: no ns/op beside the counts"
    out_has '^# instructions-model: valgrind-[0-9.]* callgrind, I1 32768,8,64 D1 32768,8,64 LL 8388608,16,64'
    out_has '^# instructions-tunables: glibc.cpu.hwcaps=-AVX'
    out_has '^Unit instructions/op better=lower'
    # the JSON carries the same per launch
    run "$cli" run "$suite" $fast --count 1 --instructions --filter '^BenchmarkCallKnown$' --out "$tmp/r.json"
    expect_status 0
    python3 - "$tmp/r.json" <<'PY' || fail "the JSON lacks instructions/op = 101 on its launch"
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
m = b["launches"][0]["metrics"]
assert m["instructions/op"] == 101, m
assert set(m) >= {"L1-misses/op", "LL-misses/op", "est-cycles/op"}, m
PY
    ;;
same-every-run)
    [ "$built" = yes ] || not_built
    # counts of real code are the same in every launch and in a second run
    # with a core kept busy
    f='^Benchmark(Sort/size=1000/algo=qsort|HashFNV1a/bytes=4096|Snprintf/fmt=float|MallocList/nodes=16)$'
    run "$cli" run "$bin/example_suite" $fast --count 3 --instructions --filter "$f"
    expect_status 0
    cp "$tmp/out" "$tmp/quiet"
    sh -c 'while :; do :; done' &
    busy=$!
    run "$cli" run "$bin/example_suite" $fast --count 2 --instructions --filter "$f"
    kill "$busy"
    expect_status 0
    for b in BenchmarkSort/size=1000/algo=qsort BenchmarkHashFNV1a/bytes=4096 \
             BenchmarkSnprintf/fmt=float BenchmarkMallocList/nodes=16; do
        busy_v=$(values "$b" instructions/op | sort -u | tr '\n' ' ')
        cp "$tmp/out" "$tmp/busy"; cp "$tmp/quiet" "$tmp/out"
        quiet_v=$(values "$b" instructions/op | sort -u | tr '\n' ' ')
        cp "$tmp/busy" "$tmp/out"
        [ "$(echo "$quiet_v" | wc -w)" -eq 1 ] || fail "$b: instructions/op differ between launches: $quiet_v"
        [ "$busy_v" = "$quiet_v" ] || fail "$b: instructions/op $quiet_v quiet, $busy_v with a core busy"
    done
    ;;
ab-verdict)
    [ "$built" = yes ] || not_built
    # ab --instructions: NEW's Work runs the chain of 100 multiply-adds
    # twice (401 instructions a repetition, 801 in NEW), Same is the same;
    # every pair counts alike, so the interval is one point
    old="$bin/fixture_ab_old" new="$bin/fixture_ab_new"
    run "$cli" ab "$old" "$new" --instructions --pairs 2 --filter '^Benchmark(Work|Same)$' --format json
    expect_status 0
    python3 - "$tmp/out" <<'PY' || fail "ab --instructions: not Work slower 801/401 and Same the same"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["metric"] == "instructions", r["metric"]
b = {x["name"]: x for x in r["benchmarks"]}
w, s = b["BenchmarkWork"], b["BenchmarkSame"]
assert w["verdict"] == "slower", w
assert w["old_side"]["instructions_per_op"] == 401 and w["new_side"]["instructions_per_op"] == 801, w
assert abs(w["ratio"] - 801 / 401) < 1e-12, w["ratio"]
assert s["verdict"] == "same" and s["ratio"] == 1, s
PY
    # A/A: the same build on both sides is the same, and --fail-on-slower passes
    run "$cli" ab "$old" "$old" --metric instructions --pairs 2 --filter '^Benchmark(Work|Same)$' --fail-on-slower
    expect_status 0
    [ "$(grep -c 'no difference' "$tmp/out")" -eq 2 ] || fail "ab A/A: not 'no difference' for both"
    run "$cli" ab "$old" "$new" --instructions --pairs 2 --filter '^BenchmarkWork$' --fail-on-slower
    [ "$st" -ne 0 ] || fail "ab --fail-on-slower passed a build that runs twice the instructions"
    out_has 'slower by 99.75%'
    ;;
no-valgrind)
    [ "$built" = yes ] || not_built
    # no valgrind on PATH: refused before anything is measured, naming the package
    mkdir "$tmp/path"
    run env PATH="$tmp/path" "$cli" run "$suite" $fast --count 1 --instructions
    expect_status 2
    err_has 'valgrind is not on PATH'
    err_has "Debian's package valgrind"
    out_lacks '^Benchmark'
    # the suite's own runner says the same
    run env PATH="$tmp/path" "$suite" $fast --count 1 --instructions
    expect_status 2
    err_has 'valgrind is not on PATH'
    # beside the hardware counter of the same unit: refused, naming both
    run "$cli" run "$suite" $fast --count 1 --instructions --counters=instructions,cycles
    expect_status 2
    err_has 'both write instructions/op'
    # a worker asked to count outside valgrind says it cannot
    run "$suite" --benchlab-worker BenchmarkNops1000 --benchlab-fd 1 --benchlab-mode instr
    out_has 'fail the instruction count runs only under valgrind'
    ;;
esac
