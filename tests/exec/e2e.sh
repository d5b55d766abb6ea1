#!/bin/sh
# e2e.sh CASE BINDIR - end-to-end tests of `benchlab exec`. The benchmarked
# commands append to a log, so that the number and the order of runs are
# checked structurally; nothing here depends on how fast the machine is.
set -u
case_name=$1
bin=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cli="$bin/benchlab"
log="$tmp/log"
cd "$tmp" || exit 1

. "$here/exec_lib.sh"

case $case_name in
shell-runs-and-subtracts)
    run "$cli" exec -r 5 "echo x >> $log"
    expect_status 0
    [ "$(log_lines)" -eq 5 ] || fail "want 5 runs in the log"
    out_has '^Benchmark 1: echo x >> '
    out_has 'median .*95% CI'
    out_has ' 5 runs$'
    # the shell's start-up was measured in the same rounds and its subtraction reported
    out_has "Shell start-up (sh -c '', median of 5 runs in the same rounds): .*subtracted"
    ;;
names-are-shown-not-obeyed)
    # names from a parameter list or -n: a screen clear and an OSC 52
    # clipboard write are printed as \x1b in the summary and the
    # comparison, never sent to the terminal
    esc=$(printf '\033')
    run "$cli" exec -N -r 3 "echo x" "$(printf 'echo \033]0;t\007y')" \
        -n "$(printf 'n\033[2J')" -n "$(printf 'm\033]52;c;eA==\007')"
    expect_status 0
    out_lacks "$esc"
    out_has '^Benchmark 1: n\\x1b\[2J$'
    out_has '^Benchmark 2: m\\x1b]52;c;eA==\\x07$'
    # the faster is the reference, the other compared with it
    out_has "^Relative to '\\(n\\\\x1b\\[2J\\|m\\\\x1b]52;c;eA==\\\\x07\\)' "
    out_has '^  \(n\\x1b\[2J\|m\\x1b]52;c;eA==\\x07\) .*x '
    ;;
no-shell-splits-words)
    printf '#!/bin/sh\necho "$#:$1" >> "%s"\n' "$log" >"$tmp/append"
    chmod +x "$tmp/append"
    run "$cli" exec -N -r 3 "$tmp/append 'a b' \"c\"\\ d"
    expect_status 0
    log_is "2:a b 2:a b 2:a b "
    out_lacks 'Shell start-up'
    run "$cli" exec --shell=none -r 2 "$tmp/append x"
    expect_status 0
    run "$cli" exec -N -r 1 "$tmp/append 'open"
    expect_status 2
    err_has "cannot be split"
    ;;
warmup-is-untimed)
    run "$cli" exec -w 2 -r 3 "echo x >> $log"
    expect_status 0
    [ "$(log_lines)" -eq 5 ] || fail "want 2 warm-up and 3 timed runs"
    out_has ' 3 runs$'
    ;;
parameter-scan)
    run "$cli" exec -r 2 -P n 1 3 "echo {n} >> $log"
    expect_status 0
    [ "$(sort "$log" | tr '\n' ' ')" = "1 1 2 2 3 3 " ] || fail "scan values: $(tr '\n' ' ' <"$log")"
    out_has "^Benchmark 3: echo 3 >> "
    rm -f "$log"
    run "$cli" exec -r 1 -P t 0 1 -D 0.25 "echo {t} >> $log"
    expect_status 0
    [ "$(sort "$log" | tr '\n' ' ')" = "0 0.25 0.50 0.75 1.00 " ] || fail "step values (hyperfine's decimals)"
    ;;
parameter-list)
    run "$cli" exec -r 1 -L x a,b -L y 1,2 --format go "echo {x}{y} >> $log"
    expect_status 0
    [ "$(sort "$log" | tr '\n' ' ')" = "a1 a2 b1 b2 " ] || fail "list values"
    out_has '^BenchmarkExec/cmd=echo_a1_>>_.*/x=a/y=1	'
    ;;
bad-scan-range)
    run "$cli" exec -P n 5 1 "echo {n} >> $log"
    expect_status 2
    err_has "parameter-scan n: bad range 5..1"
    run "$cli" exec -P n 1 5 -D 0 "echo {n} >> $log"
    expect_status 2
    err_has "step size must be positive"
    run "$cli" exec -P n 1 x "echo {n} >> $log"
    expect_status 2
    err_has "'x' is not a number"
    [ "$(log_lines)" -eq 0 ] || fail "nothing may run"
    ;;
command-fails)
    run "$cli" exec -r 5 "echo x >> $log" "echo y >> $log; exit 3"
    expect_status 1
    err_has "command 'echo y >> .*; exit 3' exited with status 3"
    # what was measured before is kept and shown
    out_has '^Benchmark 1: echo x'
    run "$cli" exec -N -r 2 "sh -c 'kill -9 \$\$'"
    expect_status 1
    err_has "was killed by signal 9"
    ;;
ignore-failure)
    run "$cli" exec -i -r 4 "echo y >> $log; exit 3" --export-json "$tmp/r.json"
    expect_status 0
    [ "$(log_lines)" -eq 4 ] || fail "want 4 runs"
    out_has '4 of 4 runs exited with a non-zero status'
    grep -q '"exit_codes": \[3, 3, 3, 3\]' "$tmp/r.json" || fail "exit codes in json"
    ;;
not-found)
    run "$cli" exec -N -r 3 nosuch_command_benchlab
    expect_status 2
    err_has "command 'nosuch_command_benchlab': cannot execute it: command not found"
    run "$cli" exec -r 3 nosuch_command_benchlab
    expect_status 1
    err_has "nosuch_command_benchlab' exited with status 127 (command not found?)"
    run "$cli" exec -S /nonexistent/shell -r 3 true
    expect_status 2
    err_has "cannot execute the shell '/nonexistent/shell'"
    ;;
prepare-fails)
    run "$cli" exec -r 3 --prepare "echo p >> $log; false" "echo x >> $log"
    expect_status 2
    err_has "prepare command 'echo p >> .*; false' exited with status 1"
    log_is "p "
    rm -f "$log"
    run "$cli" exec -r 2 --prepare "echo p >> $log" --conclude "echo c >> $log" --order interleave \
        "echo x >> $log"
    expect_status 0
    log_is "p x c p x c "
    ;;
unwritable-export)
    run "$cli" exec -r 2 --export-json /nonexistent/dir/r.json "echo x >> $log"
    expect_status 2
    err_has "cannot write export file '/nonexistent/dir/r.json'"
    [ "$(log_lines)" -eq 0 ] || fail "nothing may run before the export is known writable"
    ;;
interleave-order)
    run "$cli" exec --order interleave -r 3 "echo A >> $log" "echo B >> $log"
    expect_status 0
    log_is "A B A B A B "
    ;;
sequential-order)
    run "$cli" exec --sequential -r 3 "echo A >> $log" "echo B >> $log"
    expect_status 0
    log_is "A A A B B B "
    ;;
shuffle-order)
    run "$cli" exec -r 20 --seed 7 "echo A >> $log" "echo B >> $log"
    expect_status 0
    # every round holds one run of each; over 20 rounds the order varies
    pairs=$(paste -d '' - - <"$log" | sort | uniq -c | awk '{print $2}' | tr '\n' ' ')
    [ "$pairs" = "AB BA " ] || fail "rounds: $pairs"
    ;;
json-export)
    run "$cli" exec -r 3 -L v 1,2 --export-json "$tmp/r.json" "echo {v} >> $log"
    expect_status 0
    python3 - "$tmp/r.json" <<'PY' || fail "json fields"
import json, sys
d = json.load(open(sys.argv[1]))
rs = d["results"]
assert len(rs) == 2, rs
for r in rs:
    for k in ("command", "mean", "stddev", "median", "user", "system", "min", "max",
              "times", "exit_codes", "parameters"):
        assert k in r, k
    assert len(r["times"]) == 3 and r["exit_codes"] == [0, 0, 0]
    assert 0 <= r["min"] <= r["median"] <= r["max"] < 60, r
assert rs[1]["parameters"] == {"v": "2"}
assert rs[0]["command"].startswith("echo 1 >> ")
assert d["shell_startup"]["runs"] == 3
PY
    ;;
csv-markdown-export)
    run "$cli" exec -r 2 --export-csv "$tmp/r.csv" --export-markdown "$tmp/r.md" \
        -n first "echo x >> $log" "echo y >> $log"
    expect_status 0
    head -n 1 "$tmp/r.csv" | grep -q '^command,mean,stddev,median,user,system,min,max$' ||
        fail "csv header"
    grep -q '^first,' "$tmp/r.csv" || fail "csv command name"
    [ "$(wc -l <"$tmp/r.csv")" -eq 3 ] || fail "csv rows"
    grep -q '^| Command | Mean \[' "$tmp/r.md" || fail "markdown header"
    grep -q '^| `first` |' "$tmp/r.md" || fail "markdown row"
    ;;
go-format)
    run "$cli" exec -r 4 --format go -n 'my cmd' "echo x >> $log"
    expect_status 0
    grep -q '^goos: linux$' "$tmp/out" || fail "no goos line"
    [ "$(grep -c '^BenchmarkExec/cmd=my_cmd	' "$tmp/out")" -eq 4 ] || fail "want 4 result lines"
    # sh's peak RSS lies below benchlab's own, which is all ru_maxrss tells then:
    # no peak-RSS-bytes (peak-rss-is-the-commands)
    awk '/^Benchmark/ && !($2 == 1 && $4 == "ns/op" && $6 == "user-ns/op" && $8 == "sys-ns/op" &&
         NF == 8) { bad = 1 } END { exit bad }' "$tmp/out" ||
        fail "result line fields"
    err_has '^Benchmark 1: my cmd'
    # benchlab compare reads it, when that command exists (not under the
    # sanitizers for now: proj.c's bl__proj_populate passes memset a NULL row)
    if [ -z "${ASAN_OPTIONS:-}" ] && "$cli" compare --help >/dev/null 2>&1; then
        "$cli" compare "$tmp/out" >"$tmp/cmp" 2>&1 || fail "compare failed: $(cat "$tmp/cmp")"
        grep -q 'Exec/cmd=my_cmd' "$tmp/cmp" || fail "compare lacks the benchmark"
    fi
    ;;
peak-rss-is-the-commands)
    # ru_maxrss of a posix_spawn'ed command also counts benchlab's own peak
    # (the clone shares our memory until exec): true's ~1 MiB showed as
    # benchlab's 8.3 MiB. Such a figure is a bound, said as one, never a peak.
    run "$cli" exec -N -r 2 --format go --export-json "$tmp/j.json" true
    expect_status 0
    err_has 'peak RSS ≤ [0-9.]* MiB (benchlab.s own'
    out_lacks 'peak-RSS-bytes'
    grep -q '"peak_rss_bytes": \[null, null\]' "$tmp/j.json" || fail "json: $(cat "$tmp/j.json")"
    # a command that touches 160 MiB, more than benchlab holds: its own peak,
    # in every run and both outputs. Asserted: at least the 160 MiB block dd
    # fills (read() from /dev/zero writes every page of it, and a live
    # process's pages stay counted in its high-water mark), a whole number
    # of KiB (the kernel's ru_maxrss unit, times 1024), the same figures in
    # the Go lines and the JSON. How much dd and libc add on top is the
    # machine's (the old ceiling of 200 MiB was a guess at it).
    run "$cli" exec -N -r 2 --format go --export-json "$tmp/j.json" \
        'dd if=/dev/zero of=/dev/null bs=160M count=1'
    expect_status 0
    err_lacks 'peak RSS ≤'
    go=$(sed -n 's/.*\t *\([0-9]*\) peak-RSS-bytes$/\1/p' "$tmp/out" | tr '\n' ' ')
    js=$(sed -n 's/.*"peak_rss_bytes": \[\([0-9]*\), \([0-9]*\)\].*/\1 \2 /p' "$tmp/j.json")
    [ -n "$js" ] || fail "json: no two measured peaks: $(grep peak_rss "$tmp/j.json")"
    [ "$go" = "$js" ] || fail "dd's peak RSS: expected the JSON's '$js' in the Go lines, measured '$go' [build: $(build_of)]"
    for rss in $go; do
        check "$rss" "x >= 160 * 1048576 && x % 1024 == 0" "dd's peak RSS (bytes) of a 160 MiB block"
    done
    ;;
go-comment-line-is-cut)
    # a 70 KB command: its '# command:' comment is cut at benchstat's line
    # limit (64 KiB), so the file stays readable; the results are whole
    long=$(awk 'BEGIN { while (n++ < 70000) printf "x" }')
    run "$cli" exec -N -r 2 --format go -n long "true $long"
    expect_status 0
    awk 'length($0) > 65535 { bad = 1 } END { exit bad }' "$tmp/out" || fail "a line over 64 KiB"
    grep -q '^# command: Exec/cmd=long = true xxx.* \[cut\]$' "$tmp/out" || fail "the comment is not cut"
    [ "$(grep -c '^BenchmarkExec/cmd=long	' "$tmp/out")" -eq 2 ] || fail "want 2 result lines"
    ;;
budget-min-max)
    run "$cli" exec --time 0.001 --min-runs 4 "echo x >> $log"
    expect_status 0
    [ "$(log_lines)" -ge 4 ] || fail "at least --min-runs"
    rm -f "$log"
    run "$cli" exec --time 100 --max-runs 6 "echo x >> $log"
    expect_status 0
    [ "$(log_lines)" -eq 6 ] || fail "at most --max-runs"
    run "$cli" exec --min-runs 5 --max-runs 3 true
    expect_status 2
    err_has "min-runs 5 is more than --max-runs 3"
    ;;
ratio-and-verdict)
    run "$cli" exec -N -r 12 "sleep 0.001" "sleep 0.05"
    expect_status 0
    out_has "^Relative to 'sleep 0.001'"
    grep -q 'sleep 0.05 .*[0-9.]*x .*slower (p=' "$tmp/out" || fail "no ratio and verdict"
    ;;
too-few-runs-to-tell)
    # 3 runs each: the U test's p is never below 0.1, so "no significant
    # difference" would be said of any two commands, however far apart
    run "$cli" exec -N -r 3 "sleep 0.001" "sleep 0.2"
    expect_status 0
    out_has "sleep 0.2 .*x  too few runs to tell (3 and 3: the U test's p cannot go below 0.1; "
    out_lacks 'no significant difference'
    run "$cli" exec -N -r 2 --reference "sleep 0.001" "sleep 0.2"
    expect_status 0
    out_has "too few runs to tell (2 and 2: .* below 0.33; "
    ;;
interrupt-keeps-runs)
    "$cli" exec -N --time 60 --min-runs 1000 "sleep 0.02" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep 1.5
    kill -INT $pid
    wait $pid
    st=$?
    expect_status 130
    err_has 'interrupted'
    out_has '^Benchmark 1: sleep 0.02'
    grep -q ' [1-9][0-9]* runs$' "$tmp/out" || fail "runs measured so far not shown"
    ;;
setup-cleanup)
    run "$cli" exec -r 2 --order interleave --setup "echo S{v} >> $log" --cleanup "echo C{v} >> $log" \
        -L v 1,2 "echo {v} >> $log"
    expect_status 0
    log_is "S1 S2 1 2 1 2 C1 C2 "
    ;;
input-file)
    printf 'hello\n' >"$tmp/in"
    run "$cli" exec -r 2 --input "$tmp/in" "cat >> $log"
    expect_status 0
    log_is "hello hello "
    run "$cli" exec -r 2 --input "$tmp/none" "cat >> $log"
    expect_status 2
    err_has "input file '$tmp/none'"
    ;;
bad-options)
    run "$cli" exec
    expect_status 2
    err_has 'name a command'
    run "$cli" exec --runs x true
    expect_status 2
    err_has "'x' is not a count"
    run "$cli" exec --bogus true
    expect_status 2
    err_has "unknown option '--bogus'"
    run "$cli" exec --help
    expect_status 0
    out_has 'usage: benchlab exec'
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
