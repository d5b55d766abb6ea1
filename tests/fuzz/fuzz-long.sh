#!/bin/sh
# fuzz-long.sh - the long fuzz: every fuzz target (tests/fuzz/fuzz_*.c) under
# libFuzzer with ASan and UBSan for a time box each, with every property on
# and counted rather than fatal, then one line of counts per target:
#   inputs    inputs run (libFuzzer's executed units, restarts included)
#   crashes   distinct crash/leak inputs saved (ASan, UBSan, a signal)
#   hangs     inputs over the per-input time limit (-timeout, 10 s)
#   ooms      inputs over the memory limit (2 GB)
#   invalid   outputs that broke a property (invalid UTF-8, unparsable, a
#             changed name or value, control bytes, formula cells, ...)
#   drops     records written and not read back, or skipped in silence
# Inputs that broke a property are saved as OUT/TARGET/tally/KIND-N (3 per
# kind), crashes and hangs as OUT/TARGET/artifacts/*. Exit status: 0 when
# every count but inputs is 0, 1 otherwise, 2 on a usage error.
#
# usage: tests/fuzz/fuzz-long.sh [-b BUILD] [-o OUT] [-s SECONDS] [TARGET...]
#   -b BUILD    a build directory configured with clang's libFuzzer found
#               (default: build); the targets are built there first
#   -o OUT      where corpora, artifacts and tallies go (default:
#               BUILD/fuzz-long; each target's corpus grows run after run)
#   -s SECONDS  time box per target (default 180)
#   TARGET      roundtrip, json, ... (default: every fuzz_*.c)
# See docs/fuzzing.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=build
out=
seconds=180
while getopts b:o:s: opt; do
    case $opt in
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    s) seconds=$OPTARG ;;
    *)
        echo "usage: $0 [-b BUILD] [-o OUT] [-s SECONDS] [TARGET...]" >&2
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
case $seconds in
'' | *[!0-9]*)
    echo "$0: -s $seconds: a whole number of seconds" >&2
    exit 2
    ;;
esac
[ -n "$out" ] || out=$build/fuzz-long
if [ $# -eq 0 ]; then
    for f in "$here"/fuzz_*.c; do
        t=${f##*/fuzz_}
        set -- "$@" "${t%.c}"
    done
fi
for t; do
    [ -f "$here/fuzz_$t.c" ] || {
        echo "$0: no fuzz target $t (tests/fuzz/fuzz_$t.c)" >&2
        exit 2
    }
done
targets=
for t; do targets="$targets fuzz_$t"; done
# shellcheck disable=SC2086
cmake --build "$build" --target $targets >/dev/null || {
    echo "$0: building the targets in $build failed" >&2
    exit 2
}
for t; do
    [ -x "$build/tests/fuzz/fuzz_$t.libfuzzer" ] || {
        echo "$0: $build/tests/fuzz/fuzz_$t.libfuzzer missing: configure $build with clang's" \
            "libFuzzer (clang, libclang-rt-14-dev)" >&2
        exit 2
    }
done

status=0
printf '%-14s %9s %8s %6s %5s %8s %6s  %s\n' target inputs crashes hangs ooms invalid drops \
    'property failures'
for t; do
    exe=$(cd "$build/tests/fuzz" && pwd)/fuzz_$t.libfuzzer
    dir=$out/$t
    mkdir -p "$dir/corpus" "$dir/artifacts" "$dir/tally"
    dir=$(cd "$dir" && pwd)
    : >"$dir/tally/tally"
    inputs=0
    start=$(date +%s)
    # libFuzzer stops at a crash or hang: start again (with the corpus it
    # grew) until the time box is used up
    while :; do
        left=$((start + seconds - $(date +%s)))
        [ "$left" -gt 0 ] || break
        BENCHLAB_FUZZ_TALLY=$dir/tally "$exe" -max_total_time="$left" -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
            "$dir/corpus" "$here/corpus/$t" >"$dir/log" 2>&1 || true
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
        inputs=$((inputs + ${n:-0}))
        cat "$dir/log" >>"$dir/log.all"
        grep -q 'ERROR: \|runtime error' "$dir/log" || break
    done
    crashes=$(find "$dir/artifacts" -name 'crash-*' -o -name 'leak-*' | wc -l)
    hangs=$(find "$dir/artifacts" -name 'timeout-*' -o -name 'slow-unit-*' | wc -l)
    ooms=$(find "$dir/artifacts" -name 'oom-*' | wc -l)
    drops=$(grep -c 'drop' "$dir/tally/tally" || true)
    invalid=$(grep -vc 'drop' "$dir/tally/tally" || true)
    kinds=$(sort "$dir/tally/tally" | uniq -c | awk '{printf "%s%s=%s", s, $2, $1; s=" "}')
    printf '%-14s %9s %8s %6s %5s %8s %6s  %s\n' "$t" "$inputs" "$crashes" "$hangs" "$ooms" \
        "$invalid" "$drops" "${kinds:--}"
    [ "$crashes$hangs$ooms$invalid$drops" = 00000 ] || status=1
done
echo "inputs and logs: $out"
exit $status
