#!/bin/sh
# run.sh [BUILD_DIR] - bench/quality: benchlab and Google Benchmark measure the
# same reference workloads (workloads.h) as users run them, in one run, and
# one table says how reproducible each is and how trustworthy its A/B
# verdicts are. See README.md here for the method and the last results.
#
#   bench/quality/run.sh               full run: 10 fresh processes, 10 A/B trials
#                                      (about 50 minutes on a 2-core VM)
#   QUICK=1 bench/quality/run.sh       smoke run: 3 processes, 2 trials, short
#                                      budgets (a few minutes; figures meaningless)
#   PROCS=N TRIALS=N TRUTH_S=S         override the sizes
#   GB_TRIALS=N                        Google Benchmark in the first N trials only
#                                      (default: all; 10 repetitions of 6 benchmarks
#                                      take GB minutes per build on a loaded machine)
#   OUT=DIR                            keep the raw outputs there (default:
#                                      BUILD_DIR/quality, replaced)
#
# Needs the build (make), a C++ compiler and Google Benchmark (Debian
# libbenchmark-dev, g++: optional in scripts/packages.txt), python3.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
out=${OUT:-$build/quality}
if [ "${QUICK:-0}" = 1 ]; then
    PROCS=${PROCS:-3} TRIALS=${TRIALS:-2} TRUTH_S=${TRUTH_S:-0.2}
    BL_TIME="--time 0.12s" AB_TIME="--time 0.3s" GB_TIME="--benchmark_min_time=0.02"
else
    PROCS=${PROCS:-10} TRIALS=${TRIALS:-10} TRUTH_S=${TRUTH_S:-5}
    BL_TIME="" AB_TIME="" GB_TIME="" # everyone's defaults
fi
GB_TRIALS=${GB_TRIALS:-$TRIALS}
benchlab=$build/bin/benchlab
lib=$build/lib/libbenchlab.a
[ -x "$benchlab" ] && [ -f "$lib" ] || { echo "bench/quality: build first (make): no $benchlab" >&2; exit 2; }
# a stale build dir would cost the whole run: every ab cell empty
"$benchlab" ab --help >/dev/null 2>&1 ||
    { echo "bench/quality: $benchlab has no 'ab' command: a stale build? rebuild it (make)" >&2; exit 2; }
[ -f /usr/include/benchmark/benchmark.h ] ||
    { echo "bench/quality: Google Benchmark is missing: apt-get install libbenchmark-dev" >&2; exit 2; }
command -v c++ >/dev/null || { echo "bench/quality: no C++ compiler: apt-get install g++" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out/bin" "$out/raw"
start=$(date +%s)
log() { echo "[$(($(date +%s) - start))s] $*" >&2; }

# ---- build: the base twice (identical builds for A/A), then +1%, +2%, +5% ----
log "building the workloads (benchlab suite, Google Benchmark program, truth)"
cp "$benchlab" "$out/bin/benchlab" # a rebuild during the run must not swap it
benchlab=$out/bin/benchlab
CFLAGS="-O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra"
for v in 0a 0b 1 2 5; do
    level=${v%[ab]}
    cc $CFLAGS -DQUALITY_LEVEL="$level" -I"$here/../../include" -I"$here" "$here/suite.c" \
        "$lib" -lm -lpthread -ldl -o "$out/bin/suite_$v"
    c++ -O2 -g -DQUALITY_LEVEL="$level" -I"$here" "$here/gbench.cc" -lbenchmark -lpthread \
        -o "$out/bin/gbench_$v"
done
cc $CFLAGS -I"$here" "$here/truth.c" -o "$out/bin/truth"

# wall-clock seconds of a command, appended to $out/raw/walls as "TAG SECONDS"
timed() {
    tag=$1
    shift
    t0=$(date +%s.%N)
    "$@"
    t1=$(date +%s.%N)
    echo "$tag $(awk "BEGIN { print $t1 - $t0 }")" >>"$out/raw/walls"
}

# ---- 1. the realised differences, in one process ----------------------------
log "realised differences, in-process (${TRUTH_S}s per variant)"
"$out/bin/truth" "$TRUTH_S" >"$out/raw/truth.txt"

# ---- 2. fresh processes: the base, as users run it, alternating tools -------
log "$PROCS fresh processes of each tool"
i=1
while [ "$i" -le "$PROCS" ]; do
    # shellcheck disable=SC2086
    timed "spread-bl" "$out/bin/suite_0a" $BL_TIME --format json --out "$out/raw/spread-bl-$i.json" \
        --no-table 2>>"$out/raw/stderr"
    # shellcheck disable=SC2086
    timed "spread-gb" "$out/bin/gbench_0a" $GB_TIME --benchmark_format=json \
        >"$out/raw/spread-gb-$i.json" 2>>"$out/raw/stderr"
    i=$((i + 1))
done

# ---- 3. A/B trials: identical builds, +1%, +2%, +5% -------------------------
# benchlab ab (the paired comparison), benchlab compare of two default runs
# (what benchstat users do), and Google Benchmark with 10 repetitions and
# compare.py's U test. Within a trial the order of everything is shuffled.
shuffle() { python3 -c 'import random,sys; a=sys.argv[1:]; random.shuffle(a); print(" ".join(a))' "$@"; }
t=1
while [ "$t" -le "$TRIALS" ]; do
    log "trial $t of $TRIALS"
    gb_jobs=""
    [ "$t" -gt "$GB_TRIALS" ] || gb_jobs="gb:0a gb:0b gb:1 gb:2 gb:5"
    for job in $(shuffle ab:0b ab:1 ab:2 ab:5 run:0a run:0b run:1 run:2 run:5 $gb_jobs); do
        kind=${job%%:*} v=${job#*:}
        case $kind in
        ab)
            # shellcheck disable=SC2086
            "$benchlab" ab "$out/bin/suite_0a" "$out/bin/suite_$v" $AB_TIME --format json \
                >"$out/raw/ab-$t-$v.json" 2>>"$out/raw/stderr" || true
            ;;
        run)
            # shellcheck disable=SC2086
            timed "run" "$out/bin/suite_$v" $BL_TIME --pkg quality --no-table --out "$out/raw/run-$t-$v.txt" \
                2>>"$out/raw/stderr" || true
            ;;
        gb)
            # shellcheck disable=SC2086
            timed "gb-rep" "$out/bin/gbench_$v" $GB_TIME --benchmark_repetitions=10 \
                --benchmark_format=json >"$out/raw/gb-$t-$v.json" 2>>"$out/raw/stderr" || true
            ;;
        esac
    done
    for v in 0b 1 2 5; do
        "$benchlab" compare --format json "old=$out/raw/run-$t-0a.txt" "new=$out/raw/run-$t-$v.txt" \
            >"$out/raw/compare-$t-$v.json" 2>>"$out/raw/stderr" || true
    done
    t=$((t + 1))
done

# ---- 4. the table ------------------------------------------------------------
log "done; the table"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%MZ), host: $(hostname), $(nproc) CPUs"
    echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
    echo "run: PROCS=$PROCS TRIALS=$TRIALS GB_TRIALS=$GB_TRIALS QUICK=${QUICK:-0}, took $(($(date +%s) - start)) s"
} >"$out/raw/about"
python3 "$here/analyze.py" "$out/raw" --procs "$PROCS" --trials "$TRIALS" | tee "$out/table.md"
