#!/bin/sh
# size_catches.sh SRC - the size check names what is too big and only that:
# in a made-up tree, a C function of 151 lines (brace to brace), a C++
# method of 151 inside a namespace and a class, and a file of 1,001 lines
# must fail it by name; a function of exactly 150 lines, braces in strings
# and comments, and an initializer of 200 lines must not.
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/lib" "$tmp/include"
body() { # body N: a function body of N lines, braces included
    echo "{"
    i=2
    while [ "$i" -lt "$1" ]; do echo "    x += $i; /* { */"; i=$((i + 1)); done
    echo "}"
}
{
    echo "static int x;"
    echo "static void just_fits(void)"; body 150
    echo "static void one_too_many(void)"; body 151
    echo 'static const char *s = "}}}{";'
    echo "static const int table[] = {"
    i=0; while [ "$i" -lt 200 ]; do echo "    $i,"; i=$((i + 1)); done
    echo "};"
} >"$tmp/src/lib/fn.c"
{
    echo "namespace ns {"
    echo "class K {"
    echo "  public:"
    echo "    int method(int y) const"; body 151
    echo "};"
    echo "} // namespace ns"
} >"$tmp/src/lib/fn.cc"
i=0; while [ "$i" -lt 1001 ]; do echo "int v$i;"; i=$((i + 1)); done >"$tmp/include/big.h"
i=0; while [ "$i" -lt 1000 ]; do echo "int w$i;"; i=$((i + 1)); done >"$tmp/include/fits.h"
if python3 "$src/tests/arch/size_limits.py" "$tmp" >"$tmp/out"; then
    cat "$tmp/out"; echo "FAIL: the size check passed a tree with offenders"; exit 1
fi
fail() { cat "$tmp/out"; echo "FAIL: $1"; exit 1; }
grep -q '^FAIL: src/lib/fn.c:[0-9]*: function one_too_many: 151 lines' "$tmp/out" ||
    fail "the 151-line C function is not named"
grep -q '^FAIL: src/lib/fn.cc:[0-9]*: function method: 151 lines' "$tmp/out" ||
    fail "the 151-line C++ method is not named"
grep -q '^FAIL: include/big.h: 1001 lines' "$tmp/out" || fail "the 1,001-line file is not named"
[ "$(grep -c '^FAIL: ' "$tmp/out")" -eq 3 ] || fail "something that fits was named"
exit 0
