# exec_lib.sh - what the exec end-to-end scripts (e2e.sh, hyperfine.sh)
# share on top of tests/support/e2e_lib.sh: the benchmarked commands append
# to $log, so that the number and the order of runs are checked, never
# speed. Sourced after $case_name, $tmp and $log are set.
. "$here/../support/e2e_lib.sh"
# the lib's fail, with the commands' log
fail() {
    echo "FAIL [$case_name]: $*"
    echo "--- stdout"; cat "$tmp/out" 2>/dev/null
    echo "--- stderr"; cat "$tmp/err" 2>/dev/null
    echo "--- log"; cat "$log" 2>/dev/null
    exit 1
}
# awk numeric comparison, one line on failure: check VALUE "EXPR with x" WHAT
log_lines() { if [ -f "$log" ]; then wc -l <"$log" | tr -d ' '; else echo 0; fi; }
log_is() { # the log's lines joined by spaces
    got=$(tr '\n' ' ' <"$log" 2>/dev/null)
    [ "$got" = "$1" ] || fail "log is '$got', want '$1'"
}
