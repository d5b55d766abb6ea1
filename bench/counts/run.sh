#!/bin/sh
# bench/counts/run.sh [BUILD_DIR] - how steady instruction counts are
# (--instructions, docs/instruments.md) beside time, measured: the example
# suite over N launches (default 5), once on the machine as it is and once
# with a busy loop on every core; per benchmark the spread of ns/op and of
# instructions/op in each condition, and whether the counts of the two
# runs are the same. Spread is (max - min) / median. Also the run's wall
# time against the same run without --instructions (the slowdown).
# Not a test: its times depend on the machine. About four minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
n=${N:-5}
tmp=$(mktemp -d)
busy=""
cleanup() {
    for p in $busy; do kill "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
cli="$build/bin/benchlab"
suite="$build/bin/example_suite"
[ -x "$cli" ] && [ -x "$suite" ] || { echo "bench/counts: build first ($cli, $suite)" >&2; exit 2; }

now() { date +%s.%N; }
t0=$(now)
"$cli" run "$suite" --count "$n" --no-table >"$tmp/time.txt" 2>/dev/null
t1=$(now)
"$cli" run "$suite" --count "$n" --instructions --no-table >"$tmp/quiet.txt" 2>/dev/null
t2=$(now)
for c in $(seq "$(nproc)"); do
    sh -c 'while :; do :; done' &
    busy="$busy $!"
done
"$cli" run "$suite" --count "$n" --instructions --no-table >"$tmp/busy.txt" 2>/dev/null
for p in $busy; do kill "$p"; done
busy=""

# spread FILE BENCH UNIT -> "spread%"
spread() {
    awk -v b="$2" -v u="$3" '
        $1 == b { for (i = 3; i < NF; i++) if ($(i+1) == u) v[n++] = $i }
        END {
            if (n < 2) { print "-"; exit }
            for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            med = n % 2 ? v[int(n/2)] : (v[n/2-1] + v[n/2]) / 2
            printf "%.3f%%\n", med ? (v[n-1] - v[0]) / med * 100 : 0
        }' "$1"
}
values() { awk -v b="$2" '$1 == b { for (i = 3; i < NF; i++) if ($(i+1) == "instructions/op") print $i }' "$1" | sort -u | tr '\n' ' '; }

printf '%-40s %10s %10s %12s %12s %6s\n' benchmark "ns quiet" "ns busy" "instr quiet" "instr busy" same
for b in $(awk '/^Benchmark/ { print $1 }' "$tmp/quiet.txt" | awk '!seen[$0]++'); do
    same=no
    [ "$(values "$tmp/quiet.txt" "$b")" = "$(values "$tmp/busy.txt" "$b")" ] && same=yes
    printf '%-40s %10s %10s %12s %12s %6s\n' "${b#Benchmark}" \
        "$(spread "$tmp/quiet.txt" "$b" ns/op)" "$(spread "$tmp/busy.txt" "$b" ns/op)" \
        "$(spread "$tmp/quiet.txt" "$b" instructions/op)" \
        "$(spread "$tmp/busy.txt" "$b" instructions/op)" "$same"
done
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "\nwall time, %s launches: %.0f s time only, %.0f s with --instructions (%.1fx)\n", '"$n"', b - a, c - b, (c - b) / (b - a) }'
