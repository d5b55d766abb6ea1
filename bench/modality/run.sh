#!/bin/sh
# bench/modality/run.sh [BUILD_DIR] - false alarms and power of the
# multimodality rule (bl_stats_mvalue, bl_bench_diagnose) on simulated
# samples: prints the table of docs/engine.md, "Drift and multimodality".
# Deterministic; a few seconds.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
[ -f "$build/lib/libbenchlab.a" ] || { echo "bench/modality: build first ($build/lib/libbenchlab.a)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c17 -D_GNU_SOURCE -I "$here/../../include" "$here/sim.c" "$build/lib/libbenchlab.a" \
    -lm -lpthread -ldl -o "$tmp/sim"
"$tmp/sim" "${REPS:-2000}"
