#!/bin/sh
# cxx03.sh CXX INCLUDE_DIR SUITE - a C++03 suite built against the layer
# fails to compile, and its first error is the layer's, naming the feature
# (not the standard library's or the layer's own C++11 code's).
set -u
cxx=$1
inc=$2
src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$cxx" -std=c++03 -fsyntax-only -I"$inc" -I"$inc/benchlab-gbench" "$src" >"$tmp/out" 2>&1; then
    echo "FAIL: a C++03 suite compiled against the layer"
    exit 1
fi
first=$(grep -m1 'error' "$tmp/out")
case $first in
*"Google Benchmark layer needs C++11 or later (C++03 is not supported)"*) ;;
*)
    cat "$tmp/out"
    echo "FAIL: the first error is not the layer's: $first"
    exit 1
    ;;
esac
# the same suite in C++11 compiles: the refusal is about the language only
"$cxx" -std=c++11 -fsyntax-only -I"$inc" -I"$inc/benchlab-gbench" "$src" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; echo "FAIL: the suite does not compile as C++11"; exit 1; }
echo ok
