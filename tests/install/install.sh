#!/bin/sh
# install.sh BUILD SRC - install, then build and run the tour as a user would.
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/benchlab"
test -f "$tmp/prefix/include/benchlab.h"
pc=$(find "$tmp/prefix" -name benchlab.pc)
test -n "$pc"
export PKG_CONFIG_PATH=$(dirname "$pc")
cc -std=c17 -O2 -Wall -Wextra -Wpedantic -Werror "$src/examples/sum.c" \
    $(pkg-config --cflags --libs benchlab) -o "$tmp/sum"
"$tmp/sum" --time 0.05s >"$tmp/out" 2>"$tmp/err"
grep -q '^BenchmarkSum/size=64	.* ns/op	.* MB/s$' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; exit 1; }
"$tmp/prefix/bin/benchlab" run "$tmp/sum" --time 0.05s --filter size=4096 >"$tmp/out2" 2>&1
grep -q '^BenchmarkSum/size=4096	' "$tmp/out2" || { cat "$tmp/out2"; exit 1; }
# the static library, for suites that must not depend on a shared object
cc -std=c17 -O2 "$src/examples/sum.c" -I"$tmp/prefix/include" \
    "$(find "$tmp/prefix" -name libbenchlab.a)" -lm -lpthread -o "$tmp/sum_static"
"$tmp/sum_static" --list | grep -q '^BenchmarkSum/size=64$'
# CMake: find_package(benchlab)
cmake -S "$src/examples/consumer" -B "$tmp/consumer" -G Ninja \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/sum" --list | grep -q '^BenchmarkSum/size=4096$'
echo "ok install"
