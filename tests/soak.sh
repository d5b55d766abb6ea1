#!/bin/sh
# soak.sh [-b BUILD] [-n PASSES] [-k BUSY] [-j JOBS] [-- CTEST_ARGS...]
#
# Runs the whole CTest suite of BUILD (default build) PASSES times (default
# 3), with BUSY shell loops (default 0) spinning on the cores all along, and
# prints per test how often it failed: the check that a suite passes on a
# loaded machine, not only on a quiet one (docs/testing.md). CTEST_ARGS go
# to every ctest (e.g. -L e2e). In a sanitizer build (BENCHLAB_SANITIZE in
# its cache) it sets the options of `make test-asan` and leaves out the
# static and fuzz tests as that does. Each pass's output is kept in
# BUILD/soak/pass-N.log. Exit status: 0 when every pass passed, 1 otherwise,
# 2 on bad usage.
set -u
build=build passes=3 busy=0 jobs=$(nproc 2>/dev/null || echo 2)
usage() { echo "usage: $0 [-b BUILD] [-n PASSES] [-k BUSY] [-j JOBS] [-- CTEST_ARGS...]" >&2; exit 2; }
while getopts b:n:k:j:h opt; do
    case $opt in
    b) build=$OPTARG ;;
    n) passes=$OPTARG ;;
    k) busy=$OPTARG ;;
    j) jobs=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
for v in "$passes" "$busy" "$jobs"; do
    case $v in '' | *[!0-9]*) echo "$0: '$v' is not a count" >&2; usage ;; esac
done
[ -f "$build/CTestTestfile.cmake" ] || {
    echo "$0: $build has no tests: build it first (make test, or make test-asan for build-asan)" >&2
    exit 2
}
build=$(cd "$build" && pwd)
out=$build/soak
mkdir -p "$out"
rm -f "$out"/pass-*.log "$out"/failed-*

if grep -q '^BENCHLAB_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
    kind="sanitizer build"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    set -- -LE '^(static|fuzz)$' "$@"
else
    kind="normal build"
fi

pids=""
stop_busy() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    pids=""
}
trap 'stop_busy' EXIT
trap 'stop_busy; exit 130' INT TERM
i=0
while [ "$i" -lt "$busy" ]; do
    sh -c 'while :; do :; done' &
    pids="$pids $!"
    i=$((i + 1))
done

echo "soak: $passes pass(es) of $build ($kind), $busy busy loop(s), ctest -j $jobs $*"
pass=1
while [ "$pass" -le "$passes" ]; do
    start=$(date +%s)
    (cd "$build" && ctest --output-on-failure --no-tests=error -j "$jobs" "$@") \
        >"$out/pass-$pass.log" 2>&1
    rc=$?
    failed=$build/Testing/Temporary/LastTestsFailed.log
    if [ "$rc" -ne 0 ] && [ -f "$failed" ]; then
        sed 's/^[0-9]*://' "$failed" >"$out/failed-$pass"
    elif [ "$rc" -ne 0 ]; then
        echo "(ctest exit $rc, no test named: see $out/pass-$pass.log)" >"$out/failed-$pass"
    else
        : >"$out/failed-$pass"
    fi
    total=$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9]*\).*/\1/p' "$out/pass-$pass.log")
    echo "pass $pass: $(wc -l <"$out/failed-$pass") failed of ${total:-?}, $(($(date +%s) - start)) s"
    pass=$((pass + 1))
done
stop_busy

cat "$out"/failed-* | sort | uniq -c | sort -rn >"$out/table"
if [ -s "$out/table" ]; then
    echo "failures per test (of $passes passes):"
    awk -v n="$passes" '{ c = $1; $1 = ""; sub(/^ /, ""); printf "  %-60s %d/%d\n", $0, c, n }' "$out/table"
    echo "logs: $out/pass-N.log"
    exit 1
fi
echo "every test passed in all $passes passes"
