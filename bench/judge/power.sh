#!/bin/sh
# bench/judge/power.sh [BUILD_DIR] - how often `benchlab judge` fires at
# the README's CI sizes, on synthetic runs (Go format) with known noise:
# 12 benchmarks, L launches a side (default 5), each launch's ns/op
# log-normal with a spread of S percent (default 3). Per trial two runs are
# saved and judged; "A/A" has no change (its rate is the false alarms the
# gate gives), "+X%" makes one benchmark X percent slower (its rate is the
# power). T trials per row (default 100). Not a test: the figures are what
# the statistics give, and the rows differ from run to run by sampling;
# about T x 0.2 s a row.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cli=$build/bin/benchlab
[ -x "$cli" ] || { echo "bench/judge: build first ($cli)" >&2; exit 2; }
trials=${T:-100}
launches=${L:-5}
spread=${S:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { # FILE SEED SLOW_PCT
    awk -v seed="$2" -v slow="$3" -v L="$launches" -v s="$spread" 'BEGIN {
        srand(seed); print "goos: linux"; print "goarch: amd64"
        for (k = 1; k <= 12; k++) for (i = 1; i <= L; i++) {
            z = sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand())
            m = (k == 7) ? 1 + slow / 100 : 1
            printf "BenchmarkB%02d-8 100 %.3f ns/op\n", k, 1000 * k * m * exp(z * s / 100)
        } }' >"$1"
}

echo "benchlab bench/judge/power: 12 benchmarks, $launches launches a side, spread $spread%, $trials trials a row, threshold 5%, Holm at 0.05"
printf '\n| change of one benchmark | runs flagged (exit 1) | that benchmark SLOWER | another benchmark flagged |\n|---|---:|---:|---:|\n'
for slow in 0 10 20 100; do
    flagged=0 hit=0 other=0 t=0
    while [ "$t" -lt "$trials" ]; do
        rm -f "$tmp/s.db"
        gen "$tmp/a.txt" $((t * 2 + 1)) 0
        gen "$tmp/b.txt" $((t * 2 + 2)) "$slow"
        "$cli" merge "$tmp/a.txt" --save --store "$tmp/s.db" >/dev/null 2>&1
        "$cli" merge "$tmp/b.txt" --save --store "$tmp/s.db" >/dev/null 2>&1
        rc=0
        "$cli" judge --store "$tmp/s.db" >"$tmp/out" 2>&1 || rc=$?
        [ "$rc" -le 1 ] || { cat "$tmp/out" >&2; exit 2; }
        [ "$rc" -eq 0 ] || flagged=$((flagged + 1))
        grep -q '^B07-8 .* SLOWER$' "$tmp/out" && hit=$((hit + 1))
        grep -v '^B07-8 ' "$tmp/out" | grep -q ' \(SLOWER\|FASTER\|faster\)$' && other=$((other + 1))
        t=$((t + 1))
    done
    label=$([ "$slow" = 0 ] && echo "none (A/A)" || echo "+$slow%")
    printf '| %s | %d/%d | %d/%d | %d/%d |\n' "$label" "$flagged" "$trials" "$hit" "$trials" "$other" "$trials"
done
