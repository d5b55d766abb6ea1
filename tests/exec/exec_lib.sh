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
# which build this is, for a failure's one line: compiler, build type, sanitizers, folder
build_of() {
    d=$bin
    for _ in 1 2 3; do [ -f "$d/CMakeCache.txt" ] && break; d=$d/..; done
    [ -f "$d/CMakeCache.txt" ] || { echo "unknown build $bin"; return; }
    cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$d/CMakeCache.txt")
    printf '%s ' "$(basename "$(readlink -f "$cc" 2>/dev/null || echo "$cc")")"
    sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$d/CMakeCache.txt" | tr '\n' ' '
    grep -q '^BENCHLAB_SANITIZE:BOOL=ON' "$d/CMakeCache.txt" && printf 'ASan+UBSan ' || :
    (cd "$d" && pwd) | sed 's,.*/,,'
}
# awk numeric comparison, one line on failure: check VALUE "EXPR with x" WHAT
check() { awk -v x="$1" "BEGIN { exit !($2) }" || fail "$3: expected $2, measured x = $1 [build: $(build_of)]"; }
log_lines() { if [ -f "$log" ]; then wc -l <"$log" | tr -d ' '; else echo 0; fi; }
log_is() { # the log's lines joined by spaces
    got=$(tr '\n' ' ' <"$log" 2>/dev/null)
    [ "$got" = "$1" ] || fail "log is '$got', want '$1'"
}
