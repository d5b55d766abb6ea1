#!/bin/sh
# reporter.sh CXX INCLUDE_DIR SUITE - a suite that derives its own reporter
# from benchmark::ConsoleReporter fails to compile against the layer, and
# the first error names the class, with the layer's note that reporters are
# not supported (not "expected class-name before '{' token").
set -u
cxx=$1
inc=$2
src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$cxx" -std=c++17 -fsyntax-only -I"$inc" -I"$inc/benchlab-gbench" "$src" >"$tmp/out" 2>&1; then
    echo "FAIL: a suite with its own ConsoleReporter compiled against the layer"
    exit 1
fi
first=$(grep -m1 'error' "$tmp/out")
case $first in
*benchmark::ConsoleReporter*) ;;
*)
    cat "$tmp/out"
    echo "FAIL: the first error does not name benchmark::ConsoleReporter: $first"
    exit 1
    ;;
esac
grep -q "not supported by benchlab's layer: no custom reporters" "$tmp/out" ||
    { cat "$tmp/out"; echo "FAIL: no note that the layer has no reporters"; exit 1; }
echo ok
