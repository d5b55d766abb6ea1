# e2e_lib.sh - helpers for the end-to-end test scripts, sourced after they
# set $case_name and $tmp: run a command capturing its output, then check
# its exit status and what it wrote.

fail() {
    echo "FAIL [$case_name]: $*"
    echo "--- stdout"; cat "$tmp/out" 2>/dev/null
    echo "--- stderr"; cat "$tmp/err" 2>/dev/null
    exit 1
}
run() { # run CMD... ; status in $st
    "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
}
expect_status() { [ "$st" -eq "$1" ] || fail "exit status $st, want $1"; }
out_has() { grep -q -- "$1" "$tmp/out" || fail "stdout lacks /$1/"; }
out_lacks() { ! grep -q -- "$1" "$tmp/out" || fail "stdout has /$1/"; }
err_has() { grep -q -- "$1" "$tmp/err" || fail "stderr lacks /$1/"; }
err_lacks() { ! grep -q -- "$1" "$tmp/err" || fail "stderr has /$1/"; }
. "$(dirname "${BASH_SOURCE:-$0}")/../support/build_of.sh"
# awk numeric comparison: check VALUE "EXPR with x" WHAT
check() { awk -v x="$1" "BEGIN { exit !($2) }" || fail_measured "$3: expected $2, measured x = $1"; }
