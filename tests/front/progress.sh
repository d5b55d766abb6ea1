#!/bin/sh
# progress.sh CASE BUILD - the one progress line (src/lib/front/output.c)
# as each command shows it: "[3/12] NAME" for a suite's runner and ab,
# "NAME: run K of N, ETA S s" for exec. Each update starts with "\r" and
# an erase to the end of the line, the last is erased before anything else
# is said, control bytes in a name are shown as \xNN, and nothing of it
# appears when stderr is not a terminal (exec: unless --style full).
# Terminals are pseudo-terminals from script(1); no timing is asserted.
set -u
case_name=$1
build=$2
bin=$build/bin
cli=$bin/benchlab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"
command -v script >/dev/null || fail "script(1) is missing (Debian package bsdutils)"
esc=$(printf '\033')
cr=$(printf '\r')

# on_tty CMD: CMD's stderr and stdout on a pseudo-terminal, into $tmp/err
on_tty() {
    TERM=dumb script -qec "$1" /dev/null >"$tmp/err" 2>&1
    st=$?
}
# has TEXT: $tmp/err holds TEXT, byte for byte
has() { grep -qF -- "$1" "$tmp/err" || fail "stderr lacks '$1'"; }
no_progress() { ! grep -qF -- "$esc[K" "$tmp/err" || fail "a progress line off a terminal"; }

case $case_name in
suite-runner)
    on_tty "$cli run $bin/fixture_plan --time 10ms --count 1 --filter '^BenchmarkFixed' >/dev/null"
    expect_status 0
    n=$("$cli" run "$bin/fixture_plan" --filter '^BenchmarkFixed' --list | wc -l)
    [ "$n" -ge 2 ] || fail "fixture_plan lists $n BenchmarkFixed benchmarks"
    first=$("$cli" run "$bin/fixture_plan" --filter '^BenchmarkFixed' --list | head -1)
    has "$cr$esc[K[1/$n] $first$cr$esc[K"
    has "$cr$esc[K[$n/$n] "
    run "$cli" run "$bin/fixture_plan" --time 10ms --count 1 --filter '^BenchmarkFixed'
    expect_status 0
    no_progress
    ;;
ab)
    on_tty "$cli ab $bin/fixture_ab_old $bin/fixture_ab_new --filter '^BenchmarkWork\$' --time 0.3s >/dev/null"
    has "$cr$esc[K[1/1] BenchmarkWork$cr$esc[K"
    run "$cli" ab "$bin/fixture_ab_old" "$bin/fixture_ab_new" --filter '^BenchmarkWork$' --time 0.3s
    no_progress
    ;;
exec)
    # --style full shows it off a terminal too (hyperfine's); the name is
    # made safe, then cut at 40 bytes
    name=$(printf 'a\033]0;t\007b')
    run "$cli" exec -r 2 --style full -n "$name" true
    expect_status 0
    has "$cr$esc[Ka\\x1b]0;t\\x07b: run 1 of 2, ETA "
    tail -c 4 "$tmp/err" | od -c | grep -q '\\r 033   \[   K' ||
        fail "the progress line is not erased at the end"
    long=$(printf '%050d' 0)
    run "$cli" exec -r 1 --style full -n "$long" true
    has "$cr$esc[K$(printf '%040d' 0): run 1 of 1, ETA "
    run "$cli" exec -r 2 true
    expect_status 0
    no_progress
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "ok [$case_name]"
