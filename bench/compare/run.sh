#!/bin/sh
# bench/compare/run.sh - how fast and lean is `benchlab compare`?
#
# Generates two Go-format files of 500,000 result lines each (5,000
# benchmarks like BenchmarkOp123/size=4, 100 repetitions, ns/op B/op
# allocs/op; about 73 MB in all) with gen.py into a temporary directory,
# runs `benchlab compare old new >/dev/null` RUNS times (default 5), and
# reports the best and median wall time and the peak RSS, as ratios against
# benchstat v2 on the reference machine (1.45 s, 111 MiB, from the issue;
# benchstat is not packaged for Debian, so it is not measured here unless
# BENCHSTAT names a binary, in which case it runs side by side).
#
#   bench/compare/run.sh [path/to/benchlab]     (default build/bin/benchlab)
#   RUNS=9 BENCHSTAT=~/go/bin/benchstat bench/compare/run.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/bin/benchlab}
runs=${RUNS:-5}
[ -x "$bin" ] || { echo "no benchlab at $bin (build first: make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen.py" "$tmp"
size=$(cat "$tmp/old.txt" "$tmp/new.txt" | wc -c)
echo "inputs: 2 files, $(wc -l <"$tmp/old.txt") lines each, $((size / 1000000)) MB in all"

measure() { # name command...
    name=$1
    shift
    : >"$tmp/times"
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" "$tmp/old.txt" "$tmp/new.txt" >/dev/null 2>"$tmp/err" ||
            { cat "$tmp/err" >&2; exit 1; }
        cat "$tmp/t" >>"$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk -v name="$name" -v n="$runs" '
        { wall[NR] = $1; if ($2 > rss) rss = $2 }
        END {
            med = wall[int((n + 1) / 2)]
            printf "%-10s best %.3f s  median %.3f s  peak RSS %.1f MiB", name, wall[1], med, rss / 1024
            printf "  (vs benchstat 1.45 s / 111 MiB: %.1fx faster, %.0f%% of the memory)\n",
                   1.45 / med, 100 * (rss / 1024) / 111
        }'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (other load inflates wall time)"
measure benchlab "$bin" compare
if [ -n "${BENCHSTAT:-}" ]; then
    measure benchstat "$BENCHSTAT"
fi
