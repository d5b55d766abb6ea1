#!/bin/sh
# cli.sh CASE BINDIR DATADIR - `benchlab report` from the command line:
# inputs of every format, bad inputs named, the output written whole.
set -u
case_name=$1
bin=$2
data=$3
cli="$bin/benchlab"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"
has() { grep -q -- "$2" "$1" || fail "$1 lacks /$2/"; }
lacks() { ! grep -q -- "$2" "$1" || fail "$1 has /$2/"; }

# a small Go-format input (benchstat's format, no batches)
cat >"$tmp/go.txt" <<'GO'
goos: linux
pkg: example
BenchmarkHash/bytes=64-8    1000000    38.5 ns/op    1662.34 MB/s    0 B/op    0 allocs/op
BenchmarkHash/bytes=64-8    1000000    39.1 ns/op    1636.83 MB/s    0 B/op    0 allocs/op
BenchmarkSort-8                5000    241000 ns/op    12.5 swaps/op
this line is not a result
GO

case $case_name in
json-and-go-inputs)
    run "$cli" report base="$data/hostile.json" "$tmp/go.txt" -o "$tmp/r.html"
    expect_status 0
    err_has "wrote $tmp/r.html (2 runs)"
    has "$tmp/r.html" '<!DOCTYPE html>'
    # the Go input: one launch per line, no batches, said in the notes
    has "$tmp/r.html" 'the input has no batches (Go format)'
    has "$tmp/r.html" 'swaps/op'
    has "$tmp/r.html" '>base<\|>base '
    # self-contained: nothing loaded from elsewhere
    lacks "$tmp/r.html" 'src="http'
    lacks "$tmp/r.html" 'href="http'
    lacks "$tmp/r.html" '<link'
    lacks "$tmp/r.html" '@import'
    ;;
stdout)
    run "$cli" report -o - "$tmp/go.txt"
    expect_status 0
    has "$tmp/out" '</html>'
    ;;
missing-file-is-named)
    run "$cli" report "$tmp/nope.json" -o "$tmp/r.html"
    expect_status 2
    err_has "report: $tmp/nope.json: No such file or directory"
    [ ! -e "$tmp/r.html" ] || fail "a report was written"
    ;;
bad-json-is-named)
    printf '{"schema":"benchlab/1","benchmarks":[{"name":"BenchmarkX","launches":[{"ns_per_op":"fast"}]}]}' >"$tmp/bad.json"
    run "$cli" report "$tmp/bad.json" -o "$tmp/r.html"
    expect_status 2
    err_has "$tmp/bad.json: benchmarks\[0\].launches\[0\]: ns_per_op: not a number"
    printf '{"schema":"benchlab/1",' >"$tmp/cut.json"
    run "$cli" report "$tmp/cut.json" -o "$tmp/r.html"
    expect_status 2
    err_has "$tmp/cut.json: invalid JSON: line 1"
    printf '{"schema":"benchlab/9","benchmarks":[]}' >"$tmp/new.json"
    run "$cli" report "$tmp/new.json" -o "$tmp/r.html"
    expect_status 2
    err_has 'schema "benchlab/9" is newer than this benchlab reads'
    printf 'nothing to see\n' >"$tmp/empty.txt"
    run "$cli" report "$tmp/empty.txt" -o "$tmp/r.html"
    expect_status 2
    err_has "$tmp/empty.txt: no benchmark results"
    [ ! -e "$tmp/r.html" ] || fail "a report was written"
    ;;
output-written-whole)
    mkdir "$tmp/ro"
    chmod 555 "$tmp/ro"
    run "$cli" report "$tmp/go.txt" -o "$tmp/ro/r.html"
    if [ "$(id -u)" -ne 0 ]; then
        expect_status 2
        err_has "$tmp/ro/r.html"
    fi
    run "$cli" report "$tmp/go.txt" -o "$tmp/missing-dir/r.html"
    expect_status 2
    err_has "report: $tmp/missing-dir/r.html: No such file or directory"
    [ -z "$(ls "$tmp" | grep tmp)" ] || fail "a temporary file was left behind"
    ;;
baseline-option)
    run "$cli" report one="$tmp/go.txt" two="$tmp/go.txt" --baseline two -o "$tmp/r.html"
    expect_status 0
    has "$tmp/r.html" 'baseline two'
    run "$cli" report one="$tmp/go.txt" two="$tmp/go.txt" --baseline 1 -o "$tmp/r.html"
    expect_status 0
    has "$tmp/r.html" 'baseline one'
    run "$cli" report one="$tmp/go.txt" --baseline three -o "$tmp/r.html"
    expect_status 2
    err_has 'baseline three: no input has that label or position'
    ;;
bad-options)
    # no input and no store: the store named
    BENCHLAB_STORE="$tmp/none.db" "$cli" report >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 2 ] || fail "no input and no store: status is not 2"
    err_has "store $tmp/none.db: no such store"
    run "$cli" report --frobnicate "$tmp/go.txt"
    expect_status 2
    err_has "unknown option '--frobnicate'"
    run "$cli" report --alpha 2 "$tmp/go.txt"
    expect_status 2
    err_has "alpha: '2' is not a number between 0 and 1"
    run "$cli" report --help
    expect_status 0
    grep -q 'usage: benchlab report' "$tmp/out" || fail "no usage on --help"
    ;;
all-disturbed-benchmark-says-why)
    # FakeB: every launch disturbed throughout (kept, flagged: no launch
    # had a clean batch); its section says so, N of N, and still shows
    # the distribution and timeline of those batches, not the scaling chart alone
    FAKE_LOG="$tmp/log" FAKE_DISTURB=99 run "$cli" run "$(dirname "$0")/../engine/fake_suite.sh" \
        --format json --out "$tmp/d.json"
    expect_status 0
    run "$cli" report "$tmp/d.json" -o "$tmp/r.html"
    expect_status 0
    python3 - "$tmp/r.html" <<'PY' || fail "FakeB's section is wrong"
import re, sys
html = open(sys.argv[1]).read()
sections = dict((re.search(r'data-name="([^"]*)"', s).group(1), s)
                for s in re.findall(r'<section class="bench".*?</section>', html, re.S))
a, b = sections["BenchmarkFakeA"], sections["BenchmarkFakeB"]
figs = lambda s: re.findall(r'<figure class="fig (\w+)"', s)
assert figs(a) == ["dist", "scaling", "timeline"], figs(a)
assert figs(b) == ["dist", "scaling", "timeline"], figs(b)
assert "All 8 of 8 launches were disturbed, so there is no distribution of clean batches" in b, b
assert "or of all the disturbed batches where every launch was disturbed" in b
assert "All 8 of 8" not in a and "disturbed batches where" not in a
# the timeline: the 16 disturbed batches as crosses, no clean dot
tl = b[b.index('fig timeline'):]
assert re.search(r'class="bad"[^>]*d="M', tl) and not re.search(r'class="pts"[^>]*d="[^"]', tl), tl[:3000]
PY
    ;;
run-plots-on-terminal)
    # on a terminal (a pseudo-terminal from script(1)) the table has a
    # sparkline of the batches; piped, with --no-plots or
    # BENCHLAB_NO_PLOTS=1 it has none
    command -v script >/dev/null || fail "script(1) is missing (Debian package bsdutils)"
    suite="$bin/example_suite --filter HashFNV1a/bytes=64\$ --time 0.1s --count 2"
    TERM=xterm-256color script -qec "$cli run $suite >/dev/null" /dev/null >"$tmp/tty" 2>&1 ||
        fail "run on a terminal failed: $(cat "$tmp/tty")"
    grep -q 'batches in order' "$tmp/tty" || fail "no plot column on a terminal: $(cat "$tmp/tty")"
    grep -q -E '▁|▂|▃|▄|▅|▆|▇|█' "$tmp/tty" || fail "no sparkline on a terminal"
    run "$cli" run $suite
    expect_status 0
    ! grep -q -E '▁|▂|▃|▄|▅|▆|▇|█' "$tmp/err" || fail "a sparkline when stderr is not a terminal"
    TERM=xterm-256color script -qec "$cli run $suite --no-plots >/dev/null" /dev/null >"$tmp/tty" 2>&1
    grep -q 'time/op' "$tmp/tty" || fail "no table with --no-plots"
    ! grep -q 'batches in order' "$tmp/tty" || fail "plots despite --no-plots"
    BENCHLAB_NO_PLOTS=1 TERM=xterm-256color script -qec "$cli run $suite >/dev/null" /dev/null >"$tmp/tty" 2>&1
    ! grep -q 'batches in order' "$tmp/tty" || fail "plots despite BENCHLAB_NO_PLOTS=1"
    ;;
terminal-dumb-and-no-color)
    # TERM=dumb: a terminal that draws neither plots nor colours; NO_COLOR
    # (set to anything but "") takes the colours away and leaves the plots;
    # --color always wins over both
    command -v script >/dev/null || fail "script(1) is missing (Debian package bsdutils)"
    suite="$bin/example_suite --filter HashFNV1a/bytes=64\$ --time 0.1s --count 2"
    esc=$(printf '\033\\[[0-9;]*m')
    TERM=xterm-256color script -qec "$cli run $suite >/dev/null" /dev/null >"$tmp/tty" 2>&1
    grep -q "$esc" "$tmp/tty" || fail "no colours on a terminal: $(cat "$tmp/tty")"
    grep -q 'batches in order' "$tmp/tty" || fail "no plots on a terminal"
    TERM=dumb script -qec "$cli run $suite >/dev/null" /dev/null >"$tmp/tty" 2>&1
    grep -q 'time/op' "$tmp/tty" || fail "no table with TERM=dumb: $(cat "$tmp/tty")"
    ! grep -q 'batches in order' "$tmp/tty" || fail "plots with TERM=dumb"
    ! grep -q -E '▁|▂|▃|▄|▅|▆|▇|█' "$tmp/tty" || fail "a sparkline with TERM=dumb"
    ! grep -q "$esc" "$tmp/tty" || fail "colours with TERM=dumb"
    NO_COLOR=1 TERM=xterm-256color script -qec "$cli run $suite >/dev/null" /dev/null >"$tmp/tty" 2>&1
    ! grep -q "$esc" "$tmp/tty" || fail "colours despite NO_COLOR=1"
    grep -q 'batches in order' "$tmp/tty" || fail "NO_COLOR took the plots away"
    NO_COLOR= TERM=xterm-256color script -qec "$cli run $suite >/dev/null" /dev/null >"$tmp/tty" 2>&1
    grep -q "$esc" "$tmp/tty" || fail "an empty NO_COLOR took the colours away"
    NO_COLOR=1 TERM=dumb script -qec "$cli run $suite --color always >/dev/null" /dev/null >"$tmp/tty" 2>&1
    grep -q "$esc" "$tmp/tty" || fail "--color always gave no colours"
    # compare: TERM=dumb gives the piped table, byte for byte
    cmp="$data/../compare"
    run "$cli" compare "$cmp/cfg-old.txt" "$cmp/cfg-new.txt"
    TERM=dumb script -qec "$cli compare $cmp/cfg-old.txt $cmp/cfg-new.txt" /dev/null |
        tr -d '\r' >"$tmp/tty-plain"
    cmp -s "$tmp/tty-plain" "$tmp/out" || fail "compare with TERM=dumb differs from the piped table"
    ;;
compare-plots-on-terminal)
    command -v script >/dev/null || fail "script(1) is missing (Debian package bsdutils)"
    cmp="$data/../compare"
    TERM=xterm-256color script -qec "$cli compare $cmp/cfg-old.txt $cmp/cfg-new.txt" /dev/null >"$tmp/tty" 2>&1 ||
        fail "compare on a terminal failed"
    grep -q 'intervals vs base' "$tmp/tty" || fail "no interval plots on a terminal"
    grep -q -E '▀|▄|█' "$tmp/tty" || fail "no interval bars on a terminal"
    grep -q '^intervals: ▀ the base column' "$tmp/tty" || fail "no legend under the plots"
    # piped: benchstat's bytes, no plots
    run "$cli" compare "$cmp/cfg-old.txt" "$cmp/cfg-new.txt"
    expect_status 0
    ! grep -q -E '▀|▄|█' "$tmp/out" || fail "interval bars when stdout is not a terminal"
    TERM=xterm-256color script -qec "$cli compare -no-plots $cmp/cfg-old.txt $cmp/cfg-new.txt" /dev/null >"$tmp/tty" 2>&1
    ! grep -q 'intervals vs base' "$tmp/tty" || fail "plots despite -no-plots"
    # a terminal and a pipe give the same table otherwise
    TERM=xterm-256color script -qec "$cli compare -no-plots $cmp/cfg-old.txt $cmp/cfg-new.txt" /dev/null |
        tr -d '\r' >"$tmp/tty-plain"
    cmp -s "$tmp/tty-plain" "$tmp/out" || fail "the table on a terminal differs from the piped one"
    ;;
history-marks-change-points)
    # the history chart marks each change point (issue 30 item 4): 20 runs
    # saved one by one, Step 20% up from run 12 on, Flat one run (6) 40% off
    export BENCHLAB_STORE="$tmp/results.db"
    r=1
    while [ $r -le 20 ]; do
        awk -v r=$r 'BEGIN {
            print "goos: linux"
            for (i = 1; i <= 3; i++) {
                u = ((r * 37 + i * 11) % 21 - 10) / 1000
                printf "BenchmarkStep-8 100 %.2f ns/op\n", 1000 * (1 + u) * (r >= 12 ? 1.2 : 1)
                printf "BenchmarkFlat-8 100 %.2f ns/op\n", 2000 * (1 + u) * (r == 6 ? 1.4 : 1)
            } }' >"$tmp/h$r.txt"
        "$cli" merge "$tmp/h$r.txt" --save --commit "$(printf 'c0ffee%02d' $r)" >/dev/null 2>&1 ||
            fail "merge --save $r"
        r=$((r + 1))
    done
    run "$cli" report --history 30 -o "$tmp/r.html"
    expect_status 0
    # one dashed line in Step's chart, a ring on Flat's run 6
    [ "$(grep -o '<g class="change">' "$tmp/r.html" | wc -l)" -eq 1 ] || fail "want one change mark"
    [ "$(grep -o '<circle class="outlier"' "$tmp/r.html" | wc -l)" -eq 1 ] || fail "want one outlier ring"
    has "$tmp/r.html" '<title>change point: run 12 c0ffee1[^<]* starts a level +20.0% from the one before'
    has "$tmp/r.html" '<title>outlier: run 6 c0ffee0[^<]* is +[34][0-9].[0-9]% off its level</title>'
    # the overview lists it
    has "$tmp/r.html" '<h2>Changes</h2><p>1 change point over the runs shown'
    has "$tmp/r.html" '<table class="changes" id="changes">.*>Step-8</a></td><td>run 12 c0ffee1'
    lacks "$tmp/r.html" '<table class="changes" id="changes">.*>Flat-8</a>'
    ;;
stored-runs)
    # runs saved in a store: the report of the latest against the one before
    # by default, the earlier ones in the history chart; stored runs and
    # files mixed; bad references and stores named
    export BENCHLAB_STORE="$tmp/results.db"
    suite="$bin/example_suite --filter HashFNV1a/bytes=64\$ --time 0.05s --count 2"
    for i in 1 2 3; do
        "$cli" run $suite --save >/dev/null 2>"$tmp/err" || fail "run $i --save failed"
    done
    run "$cli" report -o "$tmp/r.html"
    expect_status 0
    err_has "wrote $tmp/r.html (2 runs and their history)"
    has "$tmp/r.html" '@latest~1 (run 2)'
    has "$tmp/r.html" 'run 3'
    has "$tmp/r.html" 'class="fig history"'
    has "$tmp/r.html" 'run 1\( [0-9a-f]*\)\?: '
    # the oldest run as an input: no earlier run for the history
    run "$cli" report @1 @latest -o "$tmp/r2.html"
    expect_status 0
    err_has "(2 runs)"
    lacks "$tmp/r2.html" 'class="fig history"'
    # a stored run beside a file, labelled
    "$cli" run $suite --out "$tmp/now.json" >/dev/null 2>&1 || fail "run --out failed"
    run "$cli" report base=@latest now="$tmp/now.json" --history 0 -o "$tmp/r3.html"
    expect_status 0
    has "$tmp/r3.html" '>base<\|>base '
    run "$cli" report @nope -o "$tmp/bad.html"
    expect_status 2
    err_has 'report: .*nope'
    [ ! -e "$tmp/bad.html" ] || fail "a report was written for an unknown run"
    run "$cli" report --store "$tmp/missing.db" @latest -o "$tmp/bad.html"
    expect_status 2
    err_has "$tmp/missing.db"
    BENCHLAB_STORE="$tmp/none.db" "$cli" report -o "$tmp/bad.html" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 2 ] || fail "no store and no inputs: status is not 2"
    err_has "$tmp/none.db"
    run "$cli" report --history x @latest
    expect_status 2
    err_has "history: 'x' is not a count of runs"
    ;;
*)
    fail "unknown case"
    ;;
esac
echo ok
