#!/bin/sh
# e2e.sh CASE BINDIR - end-to-end tests of jobs (`benchlab run --job`,
# docs/jobs.md): what a user sees, the exit status, the Go, JSON and CSV
# outputs and what compare makes of them. Measured speeds are never
# asserted: the ratio a job's table shows is checked against the same
# run's launches, and a job's environment by what its workers report.
set -u
case_name=$1
bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cli="$bin/benchlab"
suite="$bin/fixture_jobs"
. "$(dirname "$0")/../support/e2e_lib.sh"

case $case_name in
gcc-and-clang) # ctest: timing no-sanitize
    # one suite built by gcc and by clang, two jobs of one run; compare
    # -col job puts them side by side, as benchstat's -col job does
    run "$cli" run --job gcc="$suite" --job clang="$bin/fixture_jobs_clang" --count 3 \
        --time 0.1s --out "$tmp/r.txt"
    expect_status 0
    [ "$(grep -c '^job: gcc$' "$tmp/r.txt")" -ge 1 ] || fail "no 'job: gcc' line"
    [ "$(grep -c '^job: clang$' "$tmp/r.txt")" -ge 1 ] || fail "no 'job: clang' line"
    # every result line under a job line, three launches of each benchmark per job
    awk '/^job: / { j = $2 } /^Benchmark/ { if (j == "") exit 1; n[j " " $1]++ }
         END { for (k in n) if (n[k] != 3) exit 1; exit !(length(n) == 4) }' "$tmp/r.txt" ||
        fail "want 3 launches of Work and Same under each job"
    grep -q '^# job.gcc.compiler: GNU C' "$tmp/r.txt" || fail "gcc's job not said to be GCC's"
    grep -q '^# job.clang.compiler: .*clang version' "$tmp/r.txt" || fail "clang's job not said to be clang's"
    grep -q '^# jobs: gcc clang$' "$tmp/r.txt" || fail "no jobs line"
    grep -q '^# baseline-job: gcc$' "$tmp/r.txt" || fail "the baseline is not the first job"
    err_has '^jobs side by side: '
    grep -q '^benchmark  *gcc  *clang  *clang/gcc$' "$tmp/err" || fail "no jobs header"
    run "$cli" compare -col job "$tmp/r.txt"
    expect_status 0
    out_has '│ *gcc *│ *clang *│'
    out_has '^Work  '
    out_has '^Same  '
    # --baseline names the other job first
    run "$cli" run --job gcc="$suite" --job clang="$bin/fixture_jobs_clang" --count 1 \
        --time 0.05s --filter '^BenchmarkSame$' --baseline clang
    expect_status 0
    grep -q '^benchmark  *clang  *gcc  *gcc/clang$' "$tmp/err" || fail "--baseline clang not first"
    ;;
env-doubles-work) # ctest: timing
    # the second job's workers see BL_JOBS_FACTOR=2 and do twice the work
    # of Work; the factor each launch reports says which environment it
    # had, and the ratio the table prints is the median of the rounds'
    # ratios of this run's own launches
    run "$cli" run --job one="$suite" --job two="$suite" --env two:BL_JOBS_FACTOR=2 \
        --count 6 --time 0.2s --format json --out "$tmp/r.json"
    expect_status 0
    python3 - "$tmp/r.json" "$tmp/err" <<'PY' || fail "the jobs' JSON or table is wrong"
import json, re, statistics, sys
d = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
assert d["meta"]["jobs"] == "one two", d["meta"]
assert d["meta"]["job.two.env"] == "BL_JOBS_FACTOR=2", d["meta"]
assert "job.one.env" not in d["meta"], d["meta"]
by = {(b["job"], b["name"]): b for b in d["benchmarks"]}
assert sorted(by) == [("one", "BenchmarkSame"), ("one", "BenchmarkWork"),
                      ("two", "BenchmarkSame"), ("two", "BenchmarkWork")], sorted(by)
for job, want in (("one", 1), ("two", 2)):
    ls = by[(job, "BenchmarkWork")]["launches"]
    assert len(ls) == 6 and all(l["metrics"]["factor"] == want for l in ls), (job, ls)
for name, short in (("BenchmarkWork", "Work"), ("BenchmarkSame", "Same")):
    a = [l["ns_per_op"] for l in by[("one", name)]["launches"]]
    b = [l["ns_per_op"] for l in by[("two", name)]["launches"]]
    med = statistics.median([y / x for x, y in zip(a, b)])
    m = re.search(r"^%s +\S+ \S+ +\S+ \S+ +([0-9.]+)x \[([0-9.]+)x, ([0-9.]+)x\]$" % short, err, re.M)
    assert m, "no row for %s in the jobs table" % short
    shown, lo, hi = (float(g) for g in m.groups())
    assert abs(shown - med) <= 0.005 * med, (short, shown, med)
    assert lo <= shown <= hi, (short, lo, shown, hi)
PY
    # an --env without a job is every job's
    run "$cli" run --job one="$suite" --job two="$suite" --env BL_JOBS_FACTOR=3 \
        --count 1 --time 0.05s --filter '^BenchmarkWork$' --format json --out "$tmp/all.json"
    expect_status 0
    python3 - "$tmp/all.json" <<'PY' || fail "an --env without a job did not reach every job"
import json, sys
d = json.load(open(sys.argv[1]))
assert [(b["job"], b["launches"][0]["metrics"]["factor"]) for b in d["benchmarks"]] == \
    [("one", 3), ("two", 3)], d["benchmarks"]
PY
    ;;
missing-suite-kept) # ctest: timing
    # a job whose suite is not there, or fails to list, is named; the
    # other jobs run and their results are kept; the run fails
    printf '#!/bin/sh\nexit 3\n' >"$tmp/broken" && chmod +x "$tmp/broken"
    run "$cli" run --job a="$suite" --job gone="$tmp/nothere" --job broken="$tmp/broken" \
        --count 1 --time 0.05s --out "$tmp/r.txt"
    expect_status 1
    grep -q "^# job-errors: gone: .*nothere.*; broken: " "$tmp/r.txt" || fail "the failed jobs are not named in the output"
    err_has "^FAIL jobs that did not run: gone: .*nothere"
    awk '/^job: / { j = $2 } /^Benchmark/ { n[j]++ } END { exit !(n["a"] == 2 && length(n) == 1) }' \
        "$tmp/r.txt" || fail "job a's results were not kept"
    # when no job can run, nothing is measured: an error naming the first
    run "$cli" run --job gone="$tmp/nothere" --job broken="$tmp/broken" --count 1 --time 0.05s
    [ "$st" -ne 0 ] || fail "no job ran, yet exit status 0"
    err_has "job 'gone': .*nothere"
    out_lacks '^Benchmark'
    ;;
missing-benchmark-named) # ctest: timing
    # old and new builds of tests/ab/fixture_ab.c: OnlyOld is not in new,
    # OnlyNew not in old; each runs where it is, and the table says which
    # job lacks it
    run "$cli" run --job old="$bin/fixture_ab_old" --job new="$bin/fixture_ab_new" \
        --filter '^Benchmark(Same|Only.*)$' --count 1 --time 0.05s --out "$tmp/r.txt"
    expect_status 0
    grep -q '^# job-missing: BenchmarkOnlyOld (not in new); BenchmarkOnlyNew (not in old)$' "$tmp/r.txt" ||
        fail "the missing benchmarks are not named"
    err_has '^note benchmarks not in every job: BenchmarkOnlyOld (not in new); BenchmarkOnlyNew (not in old)$'
    awk '/^job: / { j = $2 } /^Benchmark/ { print j, $1 }' "$tmp/r.txt" | sort >"$tmp/got"
    printf 'new BenchmarkOnlyNew\nnew BenchmarkSame\nold BenchmarkOnlyOld\nold BenchmarkSame\n' >"$tmp/want"
    cmp -s "$tmp/got" "$tmp/want" || fail "results by job: $(cat "$tmp/got")"
    grep -q '^OnlyOld  .* -  *-$' "$tmp/err" || fail "OnlyOld's row lacks new's dash"
    ;;
formats-carry-job) # ctest: timing
    # CSV has a job column; the Go text read back (merge) keeps each
    # benchmark's job, as the JSON written directly has it
    run "$cli" run --job one="$suite" --job two="$suite" --count 2 --time 0.05s \
        --filter '^BenchmarkSame$' --out "$tmp/r.txt"
    expect_status 0
    run "$cli" merge "$tmp/r.txt" --format json --out "$tmp/back.json"
    expect_status 0
    python3 - "$tmp/back.json" <<'PY' || fail "the Go text read back lost the jobs"
import json, sys
d = json.load(open(sys.argv[1]))
assert [(b["job"], b["name"], len(b["launches"])) for b in d["benchmarks"]] == \
    [("one", "BenchmarkSame", 2), ("two", "BenchmarkSame", 2)], d["benchmarks"]
assert d["meta"]["jobs"] == "one two" and "job" not in d["config"], d
PY
    run "$cli" merge "$tmp/back.json" --format csv --out "$tmp/r.csv"
    expect_status 0
    head -n 1 "$tmp/r.csv" | grep -q '^name,job,' || fail "CSV has no job column: $(head -n 1 "$tmp/r.csv")"
    [ "$(grep -c '^BenchmarkSame,one,' "$tmp/r.csv")" -eq 2 ] || fail "CSV rows of job one"
    [ "$(grep -c '^BenchmarkSame,two,' "$tmp/r.csv")" -eq 2 ] || fail "CSV rows of job two"
    run "$cli" merge "$tmp/r.txt" --format markdown
    expect_status 0
    out_has '^| BenchmarkSame \\\[one\\\] | '
    out_has '^| BenchmarkSame \\\[two\\\] | '
    # without jobs there is no job column
    run "$cli" run "$suite" --count 1 --time 0.05s --filter '^BenchmarkSame$' --format csv
    expect_status 0
    if head -n 1 "$tmp/out" | grep -q '^name,job,'; then fail "a CSV without jobs has a job column"; fi
    ;;
saved-and-reported) # ctest: timing
    # a job is part of a benchmark's identity in the store: history and
    # judge name "Work [two]" apart from "Work [one]"; the report shows a
    # run of jobs as one run per job
    for f in 1 3; do
        run "$cli" run --job one="$suite" --job two="$suite" --env two:BL_JOBS_FACTOR=$f \
            --count 2 --time 0.05s --save --store "$tmp/s.db" --out "$tmp/r$f.txt"
        expect_status 0
    done
    run "$cli" history --store "$tmp/s.db"
    expect_status 0
    for b in 'Work \[one\]' 'Work \[two\]' 'Same \[one\]' 'Same \[two\]'; do out_has "^$b  "; done
    out_lacks '^Work  '
    # three times the work in job two of the second run: the one verdict
    # asserted, as the others depend on the machine's noise
    run "$cli" judge --store "$tmp/s.db"
    out_has '^Work \[two\]  .*SLOWER$'
    [ "$(grep -c '^\(Work\|Same\) \[\(one\|two\)\]  ' "$tmp/out")" -eq 4 ] || fail "judge: not 4 rows of jobs"
    run "$cli" report "$tmp/r3.txt" -o "$tmp/r.html"
    expect_status 0
    err_has "wrote $tmp/r.html (2 runs)"
    grep -q 'baseline one' "$tmp/r.html" || fail "the report's baseline is not job one"
    run "$cli" report --store "$tmp/s.db" -o "$tmp/h.html"
    expect_status 0
    err_has "wrote $tmp/h.html (4 runs"
    grep -q 'run 2 \[two\]' "$tmp/h.html" || fail "the report does not name run 2's job two"
    # the baseline job's stored series ("Work [one]") is its history chart
    run "$cli" report @latest --store "$tmp/s.db" --history 5 -o "$tmp/hist.html"
    expect_status 0
    [ "$(grep -o 'History across runs' "$tmp/hist.html" | wc -l)" -eq 2 ] ||
        fail "no history chart for each benchmark of job one"
    ;;
cmake-variants) # ctest: timing no-sanitize
    # --cmake builds one variant of a CMake project per job, each in a
    # build directory of its own, then runs them as jobs; a failed build
    # is named with the compiler's line and the others run; an
    # unoptimised variant is warned about
    src=$(cd "$(dirname "$0")" && pwd)
    proj="$tmp/proj"
    mkdir -p "$proj"
    cat >"$proj/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.22)
project(jobsproj C)
add_executable(suite $src/fixture_jobs.c)
target_include_directories(suite PRIVATE $src/../../include)
target_link_libraries(suite PRIVATE $bin/../lib/libbenchlab.a m pthread)
if(BREAK)
  target_sources(suite PRIVATE broken.c)
endif()
EOF
    printf 'int broken(void) { return undeclared_name; }\n' >"$proj/broken.c"
    cd "$tmp" || fail "cd $tmp"
    run "$cli" run --cmake "$proj" --target suite --job o2='-DCMAKE_C_FLAGS_RELEASE=-O2' \
        --job dbg='-DCMAKE_BUILD_TYPE=Debug' --job broken='-DBREAK=ON' --count 1 --time 0.05s \
        --out "$tmp/r.txt"
    expect_status 1
    grep -q '^CMAKE_BUILD_TYPE:[A-Z]*=Release$' benchlab-jobs/o2/CMakeCache.txt || fail "o2 is not a Release build"
    grep -q '^CMAKE_BUILD_TYPE:[A-Z]*=Debug$' benchlab-jobs/dbg/CMakeCache.txt || fail "dbg is not a Debug build"
    awk '/^job: / { j = $2 } /^Benchmark/ { print j, $1 }' "$tmp/r.txt" | sort >"$tmp/got"
    printf 'dbg BenchmarkSame\ndbg BenchmarkWork\no2 BenchmarkSame\no2 BenchmarkWork\n' >"$tmp/want"
    cmp -s "$tmp/got" "$tmp/want" || fail "results by job: $(cat "$tmp/got")"
    grep -q "^# job-errors: broken: its build failed (exit status [0-9]*): .*undeclared_name" "$tmp/r.txt" ||
        fail "the failed build is not named with the compiler's error"
    grep -q "^# job.o2.exe: $tmp/benchlab-jobs/o2/suite$" "$tmp/r.txt" || fail "o2's suite is not its own build's"
    err_has "job 'broken': build failed; its last lines:"
    err_has "  | .*undeclared_name"
    err_has "warning: job 'dbg' is built without optimisation (CMAKE_BUILD_TYPE=Debug, C flags '-g')"
    err_lacks "warning: job 'o2'"
    # the next run reuses the directories; arguments that changed
    # configure afresh, so that nothing of the old ones stays
    run "$cli" run --cmake "$proj" --target suite --job o2='-DCMAKE_C_FLAGS_RELEASE=-O3' \
        --job dbg='-DCMAKE_BUILD_TYPE=Debug' --count 1 --time 0.05s --filter Same
    expect_status 0
    err_has "job 'o2': configuring .* (afresh: its arguments changed)"
    err_lacks "job 'dbg': configuring .* (afresh"
    grep -q '^CMAKE_C_FLAGS_RELEASE:[A-Z]*=-O3$' benchlab-jobs/o2/CMakeCache.txt || fail "o2 was not reconfigured"
    # a directory benchlab did not make is refused, not reused
    mkdir -p mine/o2 && touch mine/o2/keep
    run "$cli" run --cmake "$proj" --target suite --build-dir mine --job o2= --job other= \
        --count 1 --time 0.05s --filter Same
    expect_status 1
    err_has "mine/o2 is there and benchlab did not make it"
    { [ -f mine/o2/keep ] && [ ! -e mine/o2/CMakeCache.txt ]; } || fail "mine/o2 was touched"
    [ -x mine/other/suite ] || fail "job other was not built"
    # mistakes said before anything is built
    run "$cli" run --cmake "$proj" --job a= --job b= --count 1
    expect_status 2
    err_has "name the suite's target too (--target T)"
    run "$cli" run --target suite --job a="$bin/fixture_jobs" --job b="$bin/fixture_jobs" --count 1
    expect_status 2
    err_has "^benchlab run: --target goes with --cmake DIR"
    run "$cli" run --cmake "$tmp/nothere" --target suite --job a= --job b= --count 1
    expect_status 2
    err_has "nothere/CMakeLists.txt: No such file or directory; nothing was measured"
    [ ! -e "$tmp/benchlab-jobs/a" ] || fail "a job was built for a project that is not there"
    ;;
per-job-cpu) # ctest: timing
    # --cpu JOB:LIST pins one job's workers: each launch of Same reports
    # the CPU its loop ended on, which a one-CPU mask makes exact
    set -- $(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[0], c[-1])')
    run "$cli" run --job a="$suite" --job b="$suite" --cpu "a:$1" --cpu "b:$2" --filter '^BenchmarkSame$' \
        --count 2 --time 0.05s --format json --out "$tmp/r.json"
    expect_status 0
    python3 - "$tmp/r.json" "$1" "$2" <<'PY' || fail "a job's --cpu did not pin its workers"
import json, sys
d = json.load(open(sys.argv[1]))
want = {"a": float(sys.argv[2]), "b": float(sys.argv[3])}
got = {b["job"]: [l["metrics"]["cpu"] for l in b["launches"]] for b in d["benchmarks"]}
assert got == {j: [c, c] for j, c in want.items()}, got
assert d["meta"]["job.a.cpus"] == sys.argv[2] and d["meta"]["job.b.cpus"] == sys.argv[3], d["meta"]
PY
    run "$cli" run --job a="$suite" --job b="$suite" --cpu c:0 --count 1
    expect_status 2
    err_has "^benchlab run: --cpu 'c:0': no --job is named so$"
    run "$cli" run "$suite" --cpu a:0 --count 1
    expect_status 2
    err_has "there are no jobs"
    ;;
usage-errors)
    # each mistake is said before anything is measured, naming the job
    for args in "--job a=$suite" "--job a=$suite --job a=$suite" "--job 'a b'=$suite --job c=$suite" \
        "--job a=$suite --job b=$suite --env c:X=1" "--job a=$suite --job b=$suite --baseline c" \
        "--job a=$suite --job b=$suite --env =1" "$suite --job a=$suite --job b=$suite" \
        "--job a= --job b=$suite" "--baseline a"; do
        eval "run \"\$cli\" run $args --count 1 --time 0.05s"
        expect_status 2
        out_lacks '^Benchmark'
        [ -s "$tmp/err" ] || fail "no message for: $args"
    done
    run "$cli" run --job a="$suite" --count 1
    err_has "one job only"
    run "$cli" run --job a="$suite" --job a="$suite" --count 1
    err_has "job 'a' is given twice"
    run "$cli" run --job "a b=$suite" --job c="$suite" --count 1
    err_has "job 'a b': a job's name is"
    run "$cli" run --job a="$suite" --job b="$suite" --env c:X=1 --count 1
    err_has "no --job is named 'c'"
    run "$cli" run --job a="$suite" --job b="$suite" --baseline c --count 1
    err_has "the baseline job 'c' is not one of the jobs"
    ;;
esac
