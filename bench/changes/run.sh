#!/bin/sh
# bench/changes/run.sh [BUILD_DIR] - false alarms, power, time of the
# change-point detection of `benchlab history --changes` on synthetic
# histories (bench/changes/sim.c): prints the tables of docs/store.md,
# "Change points". Deterministic. TRIALS=N (default 1000) per row.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
[ -f "$build/lib/libbenchlab.a" ] || { echo "bench/changes: build first ($build/lib/libbenchlab.a)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c17 -D_GNU_SOURCE -I "$here/../../include" "$here/sim.c" "$build/lib/libbenchlab.a" \
    -lm -lpthread -ldl -o "$tmp/sim"
"$tmp/sim" "${TRIALS:-1000}"
