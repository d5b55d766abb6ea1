#!/bin/sh
# ab_variants.sh [BUILD_DIR] -- 'OPTIONS' 'OPTIONS'... : `benchlab ab` under
# several option sets, side by side on the bench/quality workloads, so that
# a default (4 pairs, no pinning) is chosen on measurements taken in one run
# on one machine state. Each trial runs every (option set, case) once in a
# shuffled order; the cases are identical builds (A/A) and builds doing 1%
# and 2% more work (workloads.h). The table (ab_variants.py): per option
# set, identical builds flagged, changes detected with the right sign and
# the wrong one, the interval's median half-width, start-up and clean
# blocks. docs/ab.md and README.md here quote its results.
#
#   bench/quality/ab_variants.sh build -- '--pairs 4' '--pairs 8'
#   bench/quality/ab_variants.sh build -- '' '--cpu 1'
#   TRIALS=N (default 12) OUT=DIR (default BUILD_DIR/ab-variants, replaced)
#   AB_TIME (default: ab's own 1 s)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
[ "${2:-}" = "--" ] && [ $# -ge 3 ] ||
    { echo "usage: ab_variants.sh BUILD_DIR -- 'OPTIONS' 'OPTIONS'..." >&2; exit 2; }
shift 2
benchlab=$build/bin/benchlab
lib=$build/lib/libbenchlab.a
[ -x "$benchlab" ] && [ -f "$lib" ] || { echo "ab_variants: build first (make): no $benchlab" >&2; exit 2; }
"$benchlab" ab --help >/dev/null 2>&1 ||
    { echo "ab_variants: $benchlab has no 'ab' command: a stale build? rebuild it (make)" >&2; exit 2; }
out=${OUT:-$build/ab-variants}
TRIALS=${TRIALS:-12}
rm -rf "$out"
mkdir -p "$out/bin" "$out/raw"
cp "$benchlab" "$out/bin/benchlab"
for v in 0a 0b 1 2; do
    cc -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -DQUALITY_LEVEL="${v%[ab]}" -I"$here/../../include" \
        -I"$here" "$here/suite.c" "$lib" -lm -lpthread -ldl -o "$out/bin/suite_$v"
done
n=0
for opts in "$@"; do
    printf '%s\n' "$opts" >"$out/raw/set-$n"
    n=$((n + 1))
done
jobs=""
k=0
while [ "$k" -lt "$n" ]; do
    jobs="$jobs $k:0b $k:1 $k:2"
    k=$((k + 1))
done
t=1
while [ "$t" -le "$TRIALS" ]; do
    echo "ab_variants: trial $t of $TRIALS" >&2
    # shellcheck disable=SC2086
    for job in $(python3 -c 'import random,sys; a=sys.argv[1:]; random.shuffle(a); print(" ".join(a))' $jobs); do
        k=${job%%:*} v=${job#*:}
        # shellcheck disable=SC2046
        "$out/bin/benchlab" ab "$out/bin/suite_0a" "$out/bin/suite_$v" $(cat "$out/raw/set-$k") \
            ${AB_TIME:+--time "$AB_TIME"} --format json >"$out/raw/ab-$t-$k-$v.json" \
            2>>"$out/raw/stderr" || true
    done
    t=$((t + 1))
done
python3 "$here/ab_variants.py" "$out/raw" | tee "$out/table.md"
