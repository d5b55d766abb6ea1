#!/bin/sh
# abi_catches.sh SRC CLANG CLANGXX - the ABI check (abi_layout.py) fails when a public
# layout changes without a soname bump: a field added to bl_statistic
# (benchlab.h) must name libbenchlab and BENCHLAB_SOVERSION, one added to
# the State class (benchmark/benchmark.h) libbenchlab-gbench and
# BENCHLAB_GBENCH_SOVERSION; with both bumped, the check asks for the
# record and --update writes it; a layout unchanged passes.
set -u
src=$1 cc=$2 cxx=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
check() { python3 "$src/tests/arch/abi_layout.py" "$@" --cc "$cc" --cxx "$cxx" >"$tmp/out" 2>&1; }

cp -r "$src/include" "$tmp/inc"
cp "$src/tests/arch/abi-layout.txt" "$tmp/record.txt"
check "$src" --include "$tmp/inc" --record "$tmp/record.txt" ||
    { cat "$tmp/out"; fail "the unchanged headers do not pass"; }

sed -i 's/^    int percentage;/    int percentage;\n    int abi_probe;/' "$tmp/inc/benchlab.h"
grep -q abi_probe "$tmp/inc/benchlab.h" || fail "no bl_statistic field to add after"
sed -i 's/^    int64_t complexity_n_ = 0;/    int64_t complexity_n_ = 0;\n    int abi_probe_ = 0;/' \
    "$tmp/inc/benchlab-gbench/benchmark/benchmark.h"
grep -q abi_probe_ "$tmp/inc/benchlab-gbench/benchmark/benchmark.h" || fail "no State field to add after"
check "$src" --include "$tmp/inc" --record "$tmp/record.txt" && { cat "$tmp/out"; fail "a changed layout passed"; }
grep -q '^FAIL: libbenchlab: public layout changed without a soname bump (struct bl_statistic): bump BENCHLAB_SOVERSION' "$tmp/out" ||
    { cat "$tmp/out"; fail "bl_statistic's change is not named"; }
grep -q '^FAIL: libbenchlab-gbench: public layout changed without a soname bump (.*class benchmark::State\b.*): bump BENCHLAB_GBENCH_SOVERSION' "$tmp/out" ||
    { cat "$tmp/out"; fail "State's change is not named"; }
grep -q '^FAIL: libbenchlab-store' "$tmp/out" && { cat "$tmp/out"; fail "the store did not change"; }
# --update refuses to record it
check "$src" --include "$tmp/inc" --record "$tmp/record.txt" --update && fail "--update recorded a change without a bump"
cmp -s "$tmp/record.txt" "$src/tests/arch/abi-layout.txt" || fail "--update wrote the record anyway"

# bumped: the check asks for the record, --update writes it, then it passes
mkdir "$tmp/src"
sed -e 's/^set(BENCHLAB_SOVERSION \([0-9]*\))/set(BENCHLAB_SOVERSION 99)/' \
    -e 's/^set(BENCHLAB_GBENCH_SOVERSION \([0-9]*\))/set(BENCHLAB_GBENCH_SOVERSION 99)/' \
    "$src/CMakeLists.txt" >"$tmp/src/CMakeLists.txt"
check "$tmp/src" --include "$tmp/inc" --record "$tmp/record.txt" && fail "a bump without its record passed"
grep -q '^FAIL: libbenchlab: BENCHLAB_SOVERSION is 99, the record.s [0-9]*: record the layouts' "$tmp/out" ||
    { cat "$tmp/out"; fail "the bump's missing record is not said"; }
check "$tmp/src" --include "$tmp/inc" --record "$tmp/record.txt" --update ||
    { cat "$tmp/out"; fail "--update refused a bumped change"; }
grep -q '^\[libbenchlab soversion 99\]$' "$tmp/record.txt" || fail "the record lacks the new soversion"
grep -q abi_probe "$tmp/record.txt" || fail "the record lacks the new field"
check "$tmp/src" --include "$tmp/inc" --record "$tmp/record.txt" || { cat "$tmp/out"; fail "the new record does not pass"; }
exit 0
