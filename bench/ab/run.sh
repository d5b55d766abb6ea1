#!/bin/sh
# bench/ab/run.sh [BUILD_DIR] - benchlab ab on builds with known effects:
# the base against a copy of itself (A/A) and against builds doing 1%, 2%
# and 5% more work (workload.c), R times each (default 10), both metrics
# (time and ref-cycles). Prints per case and benchmark how often the
# verdict was slower / faster / no difference / no verdict, and the
# median time one comparison took. Not a test: its numbers depend on the
# machine; about R x 4 x 2 x 2 x 1.2 s (3 minutes for R=10).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
r=${R:-10}
time_s=${TIME:-1s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$build/lib/libbenchlab.a" ] || { echo "bench/ab: build first ($build/lib/libbenchlab.a)" >&2; exit 2; }
for e in 0 1 2 5; do
    cc -O2 -std=c17 -DEXTRA=$e -I "$here/../../include" "$here/workload.c" \
        "$build/lib/libbenchlab.a" -lm -lpthread -ldl -o "$tmp/w$e"
done
cp "$tmp/w0" "$tmp/copy"
echo "benchlab bench/ab: $r comparisons per case, --time $time_s, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n| metric | case | benchmark | slower | faster | no difference | no verdict | median s |\n'
printf '|---|---|---|---:|---:|---:|---:|---:|\n'
for metric in time ref-cycles; do
    for case in A/A +1% +2% +5%; do
        new=$tmp/copy
        [ "$case" = A/A ] || new=$tmp/w$(echo "$case" | tr -d '+%')
        : >"$tmp/all.csv"
        i=0
        while [ "$i" -lt "$r" ]; do
            "$build/bin/benchlab" ab "$tmp/w0" "$new" --metric "$metric" --time "$time_s" \
                --format csv 2>/dev/null | tail -n +2 >>"$tmp/all.csv" || true
            i=$((i + 1))
        done
        for b in BenchmarkSmall BenchmarkLarge; do
            awk -F, -v b="$b" -v m="$metric" -v c="$case" '
                $1 == b { n++; v[$2]++; w[n] = $13 }
                END {
                    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
                    printf "| %s | %s | %s | %d | %d | %d | %d | %.2f |\n", m, c, b, v["slower"], v["faster"], v["same"],
                        n - v["slower"] - v["faster"] - v["same"], n ? w[int((n + 1) / 2)] : 0
                }' "$tmp/all.csv"
        done
    done
done
