#!/bin/sh
# hyperfine.sh CASE BINDIR - end-to-end tests of `benchlab exec` as a
# drop-in for hyperfine (issue 19 items 8-11, issue 15's system time below
# the clock's resolution, issue 18's --timeout). As in e2e.sh, the commands
# append to a log, so that counts and order are checked, never speed: where
# time matters, a sleep gives a lower bound that no load can shorten.
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
# A shell whose empty run (`SHELL -c ''`, the start-up measurement) sleeps
# 0.2 s: every command then takes less than the shell's start-up, and its
# times after the subtraction are 0, whatever the load.
slow_empty_shell() {
    printf '#!/bin/sh\n[ -z "$2" ] && sleep 0.2\nexec /bin/sh "$@"\n' >"$tmp/slowsh"
    chmod +x "$tmp/slowsh"
}

case $case_name in
# ---- item 8: the budget is the wall time the user waits ---------------------------
budget-counts-prepare)
    # each run costs at least 0.1 s of prepare: a 0.5 s budget holds at most 5
    # (the old budget counted the 1 ms command only: hundreds of runs)
    run "$cli" exec --time 0.5 --min-runs 2 --prepare 'sleep 0.1' "echo x >> $log"
    expect_status 0
    n=$(log_lines)
    [ "$n" -ge 2 ] && [ "$n" -le 6 ] || fail "$n runs for a 0.5 s budget of 0.1 s runs"
    ;;
budget-counts-shell-and-setup)
    # the shell's own runs cost 0.2 s each (one per round): at most 3 rounds in 0.5 s
    slow_empty_shell
    run "$cli" exec --time 0.5 --min-runs 2 -S "$tmp/slowsh" "echo x >> $log"
    expect_status 0
    n=$(log_lines)
    [ "$n" -ge 2 ] && [ "$n" -le 4 ] || fail "$n runs: the shell's time is not in the budget"
    rm -f "$log"
    # a setup that uses the whole budget leaves the minimum
    run "$cli" exec --time 0.3 --min-runs 3 --setup 'sleep 0.4' "echo x >> $log"
    expect_status 0
    [ "$(log_lines)" -eq 3 ] || fail "setup's time is not in the budget"
    ;;
# ---- item 9: hyperfine's meanings -------------------------------------------------
ignore-failure-codes)
    run "$cli" exec -r 3 --ignore-failure=1 "echo x >> $log; exit 2"
    expect_status 1
    err_has "exited with status 2, not one of --ignore-failure's exit codes"
    run "$cli" exec -r 3 --ignore-failure=1,2,3 "exit 2"
    expect_status 0
    out_has '3 of 3 runs exited with a non-zero status'
    run "$cli" exec -r 3 --ignore-failure=all-non-zero "exit 5"
    expect_status 0
    run "$cli" exec -r 3 -i "exit 5"
    expect_status 0
    run "$cli" exec -r 3 -i=4 "exit 4"
    expect_status 0
    run "$cli" exec -r 2 --ignore-failure=1 "kill -9 \$\$"
    expect_status 1
    err_has "killed by signal 9"
    run "$cli" exec -r 3 --ignore-failure=x "exit 1"
    expect_status 2
    err_has "ignore-failure=x: not all-non-zero nor a list of exit codes"
    ;;
list-order)
    # hyperfine's order: the commands vary fastest, then the first list, then the second
    run "$cli" exec -r 1 --sequential -L x a,b -L y 1,2 "echo {x}{y} >> $log" "echo c{x}{y} >> $log"
    expect_status 0
    log_is "a1 ca1 b1 cb1 a2 ca2 b2 cb2 "
    out_has '^Benchmark 2: echo ca1 >> '
    # hyperfine's escapes in a list: "\," is a comma
    rm -f "$log"
    run "$cli" exec -r 1 --sequential -L v 'a\,b,c' "echo '{v}' >> $log"
    expect_status 0
    log_is "a,b c "
    run "$cli" exec -r 1 -P n 1 2 -L x a,b "echo {n}{x}"
    expect_status 2
    err_has "parameter-list cannot be used with --parameter-scan"
    ;;
exports-to-stdout)
    for ex in json csv markdown asciidoc orgmode; do
        run "$cli" exec -r 2 "--export-$ex" - "echo x >> $log"
        expect_status 0
        [ ! -e "$tmp/-" ] || fail "--export-$ex - wrote a file named '-'"
        err_has '^Benchmark 1: echo x'  # the summary moves to stderr
        out_lacks '^Benchmark 1'
    done
    run "$cli" exec -r 2 --export-json - "echo x >> $log"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"][0]["times"]) == 2' \
        "$tmp/out" || fail "stdout is not the JSON export"
    run "$cli" exec -r 2 --export-csv - "echo x >> $log"
    head -n 1 "$tmp/out" | grep -q '^command,mean,stddev,median,user,system,min,max$' || fail "csv"
    # hyperfine's CSV: parameter columns sorted by name; a --reference has empty cells
    run "$cli" exec -r 1 --reference true -L y 1 -L x a --export-csv - "echo {x}{y} >> $log"
    expect_status 0
    head -n 1 "$tmp/out" | grep -q ',parameter_x,parameter_y$' || fail "csv parameter columns"
    grep -q '^true,.*,,$' "$tmp/out" || fail "csv reference row"
    grep -q '^echo a1 >> .*,a,1$' "$tmp/out" || fail "csv parameter cells"
    run "$cli" exec -r 2 --export-json - --export-csv - true
    expect_status 2
    err_has 'only one of'
    ;;
unused-parameter-name)
    run "$cli" exec -r 1 -L x a,b -L y 1 --export-json "$tmp/r.json" --export-markdown "$tmp/r.md" \
        "echo {y} >> $log"
    expect_status 0
    out_has '^Benchmark 1: echo 1 >> .* (x = a)$'
    out_has '^Benchmark 2: echo 1 >> .* (x = b)$'
    grep -q '^| `echo 1 >> .* (x = b)` |' "$tmp/r.md" || fail "markdown name"
    # JSON keeps hyperfine's plain "command" and the parameters
    python3 - "$tmp/r.json" <<'PY' || fail "json names"
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
assert [r["command"].split(" >> ")[0] for r in rs] == ["echo 1", "echo 1"], rs
assert rs[1]["parameters"] == {"x": "b", "y": "1"}, rs[1]
PY
    ;;
fail-partway-subtracts-shell)
    # interleaved A B: B fails in the first round, before the shell's slot;
    # A's run is still corrected by a shell start-up measured afterwards
    run "$cli" exec -r 3 --order interleave --export-json "$tmp/r.json" "echo x >> $log" 'exit 1'
    expect_status 1
    out_has "Shell start-up (sh -c '', median of [1-9][0-9]* runs"
    python3 - "$tmp/r.json" <<'PY' || fail "json lacks the shell's start-up"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["shell_startup"]["runs"] >= 1, d
assert len(d["results"][0]["times"]) == 1
PY
    ;;
# ---- item 10: hyperfine's options --------------------------------------------------
bundled-and-version)
    run "$cli" exec -r2 -w1 "echo x >> $log"
    expect_status 0
    [ "$(log_lines)" -eq 3 ] || fail "-r2 -w1: want 1 warm-up and 2 runs"
    rm -f "$log"
    printf '#!/bin/sh\necho run >> "%s"\n' "$log" >"$tmp/app"
    chmod +x "$tmp/app"
    run "$cli" exec -Nr2 "$tmp/app"
    expect_status 0
    log_is "run run "
    out_lacks 'Shell start-up'
    run "$cli" exec --version
    expect_status 0
    out_has '^benchlab exec [0-9]'
    run "$cli" exec -V
    out_has '^benchlab exec [0-9]'
    run "$cli" exec -r 2 --runz 3 true
    expect_status 2
    err_has "did you mean --runs"
    run "$cli" exec -r 2 -m 3 true
    expect_status 2
    err_has -- '--runs cannot be used with --min-runs'
    ;;
shell-command-line)
    printf '#!/bin/sh\necho "shell $1" >> "%s"\nshift\nexec /bin/sh "$@"\n' "$log" >"$tmp/mysh"
    chmod +x "$tmp/mysh"
    run "$cli" exec -r 2 -S "$tmp/mysh --flag" 'true'
    expect_status 0
    # 2 runs and 2 start-up runs, each with the shell's own argument
    [ "$(grep -c '^shell --flag$' "$log")" -eq 4 ] || fail "the shell's words"
    out_has "Shell start-up ($tmp/mysh --flag -c ''"
    run "$cli" exec -r 2 --shell=default 'true'
    expect_status 0
    out_has "Shell start-up (sh -c ''"
    run "$cli" exec -r 2 -S "bash --norc" 'echo $BASH_VERSION >> '"$log"
    expect_status 0
    run "$cli" exec -r 1 -N -S sh true
    expect_status 2
    err_has -- '-N cannot be used with --shell'
    ;;
output-style-unit)
    run "$cli" exec -r 2 --output "$tmp/o.txt" 'echo "it=$HYPERFINE_ITERATION"'
    expect_status 0
    grep -qx 'it=1' "$tmp/o.txt" || fail "--output FILE holds the last run's output"
    run "$cli" exec -r 2 --output pipe 'seq 100000'
    expect_status 0
    run "$cli" exec -r 1 --output inherit 'echo shown'
    out_has '^shown$'
    run "$cli" exec -r 1 --output null --output "$tmp/b.txt" 'echo a' 'echo b'
    expect_status 0
    grep -qx b "$tmp/b.txt" || fail "--output once per command"
    run "$cli" exec -r 2 --style none --export-json "$tmp/r.json" true
    expect_status 0
    [ ! -s "$tmp/out" ] || fail "--style none printed a summary"
    [ -s "$tmp/r.json" ] || fail "--style none still exports"
    run "$cli" exec -r 2 -u second -N "sleep 0.01"
    out_has 'median [0-9]*\.[0-9][0-9][0-9] s '
    run "$cli" exec -r 2 --time-unit microsecond -N "sleep 0.01" --export-markdown "$tmp/r.md"
    out_has 'median [0-9]*\.[0-9]* µs '
    grep -q 'Mean \[µs\]' "$tmp/r.md" || fail "markdown in µs"
    run "$cli" exec -r 1 --style fancy true
    expect_status 2
    err_has "style: 'fancy' is not one of auto, basic, full, nocolor, color, none"
    ;;
sort-and-reference)
    # the comparison is against the fastest, listed by time (hyperfine's auto)
    run "$cli" exec -r 5 -N "sleep 0.3" "sleep 0.01" "sleep 0.1"
    expect_status 0
    out_has "^Relative to 'sleep 0.01'"
    grep -A2 '^Relative' "$tmp/out" | tail -2 | awk '{print $2}' | tr '\n' ' ' | grep -qx '0.1 0.3 ' ||
        fail "comparison not by time"
    run "$cli" exec -r 5 -N --sort command "sleep 0.3" "sleep 0.01" "sleep 0.1"
    grep -A2 '^Relative' "$tmp/out" | tail -2 | awk '{print $2}' | tr '\n' ' ' | grep -qx '0.3 0.1 ' ||
        fail "--sort command"
    run "$cli" exec -r 3 -N --reference "sleep 0.1" --reference-name base "sleep 0.01" \
        --export-orgmode "$tmp/r.org" --export-asciidoc "$tmp/r.adoc"
    expect_status 0
    out_has '^Benchmark 1: base$'
    out_has "^Relative to 'base'"
    grep -q '^| =base=  |  .* |  1.00 |$' "$tmp/r.org" || fail "org-mode table"
    grep -q '^|===$' "$tmp/r.adoc" && grep -q '^| `base` $' "$tmp/r.adoc" || fail "asciidoc table"
    run "$cli" exec -r 1 --reference-name base true
    expect_status 2
    err_has -- '--reference-name needs --reference'
    # --prepare per command counts the reference, as hyperfine
    run "$cli" exec -r 1 --reference "echo r >> $log" --prepare "echo pr >> $log" \
        --prepare "echo pa >> $log" --order interleave "echo a >> $log"
    expect_status 0
    log_is "pr r pa a "
    ;;
conclude-input-and-hidden)
    printf 'in\n' >"$tmp/in"
    run "$cli" exec -r 2 --order interleave -C "echo c >> $log" --input "$tmp/in" "cat >> $log"
    expect_status 0
    log_is "in c in c "
    run "$cli" exec -r 1 --input null "cat >> $log"
    expect_status 0
    run "$cli" exec --min-benchmarking-time 0.01 --min-runs 2 "echo >> $log"
    expect_status 0
    run "$cli" exec -r 1 -s 'exit 3' "echo x >> $log"
    expect_status 2
    err_has "setup command 'exit 3' exited with status 3"
    run "$cli" exec --debug-mode true
    expect_status 2
    err_has 'always measures'
    ;;
# ---- item 11 and issue 15: messages that are true ----------------------------------
zero-median-and-resolution)
    slow_empty_shell
    run "$cli" exec -r 5 -S "$tmp/slowsh" ':' 'true'
    expect_status 0
    out_lacks 'nanx'
    out_lacks '0\.000x'
    out_lacks 'system 0\.000 ns'
    out_lacks 'user 0\.000 ns'
    out_has 'system < 1 µs (rusage.s resolution)'
    out_has 'note: the median is 0: the command takes no longer than the shell'
    out_has "no ratio: the median of"
    ;;
early-stop-message)
    # the rule and the message come from one place; whether the stop happens
    # depends on the machine, so only its wording is checked when it does
    run "$cli" exec -N --time 4 -m 100 "sleep 0.02"
    expect_status 0
    out_lacks 'within 1%'
    if grep -q 'Stopped before' "$tmp/out"; then
        out_has 'after at least 100 runs the median.s 95% interval was within 0.2% of it'
    fi
    ;;
# ---- issue 18: a time limit per run ------------------------------------------------
timeout)
    run "$cli" exec -r 3 --timeout 0.5 "echo x >> $log; sleep 30"
    expect_status 1
    err_has "command 'echo x >> .*; sleep 30' ran past the time limit of 0.5 s (--timeout) and was killed"
    [ "$(log_lines)" -eq 1 ] || fail "the session goes on after a time-out"
    # the whole process group is killed: nothing it started writes later
    rm -f "$log"
    run "$cli" exec -r 1 --timeout 0.3 "(sleep 1; echo late >> $log) & wait"
    expect_status 1
    sleep 1.5
    [ "$(log_lines)" -eq 0 ] || fail "a child of the timed-out run survived"
    run "$cli" exec -r 1 --timeout 0.3 --prepare 'sleep 30' true
    expect_status 1
    err_has "prepare command 'sleep 30' ran past the time limit"
    # with a limit each run has a process group of its own, away from the
    # terminal's Ctrl-C: an interrupt still stops the run under way
    rm -f "$log"
    "$cli" exec --timeout 100 -r 50 "echo s >> $log; sleep 2; echo late >> $log" \
        >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep 1
    kill -INT $pid
    wait $pid
    st=$?
    expect_status 130
    sleep 2
    ! grep -q late "$log" || fail "the interrupted run went on"
    run "$cli" exec -r 2 --timeout 30 "echo x >> $log"
    expect_status 0
    run "$cli" exec --timeout 0 true
    expect_status 2
    err_has "timeout: '0' is not positive"
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
