#!/bin/sh
# bench/scaling/run.sh - does every reader and writer scale linearly?
#
# For each dimension of an input (configuration lines, benchmark names in
# the Go format, benchlab JSON and Google Benchmark JSON, configuration
# keys, Unit metadata lines, launches of one benchmark, sizes of values;
# gen.py describes each),
# generates inputs of N, 2N, 4N, ... and runs merge, report and compare on
# them, printing the wall time and peak RSS of each and their ratio to the
# previous size. Linear (or n log n) work gives about 2 per doubling; the
# target is <= 2.2 on the largest doubling (small sizes are dominated by
# start-up). A quadratic path shows as 4.
#
#   bench/scaling/run.sh [path/to/benchlab]   (default build/bin/benchlab)
#   STEPS=4 BASE=25000 DIMS="go-names launches" bench/scaling/run.sh
#   CLOCK=cpu bench/scaling/run.sh   (user + system CPU seconds, not wall)
#
# On a loaded machine wall time is noise (a shared 2-CPU machine at load
# 16 gave 2.9 per doubling for runs whose CPU time grew 2.07 and whose
# instruction count, under valgrind --tool=callgrind, grew 2.02): there,
# use CLOCK=cpu.
#
# Prints a table; exit 0. Needs python3 and /usr/bin/time (Debian: time).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/bin/benchlab}
steps=${STEPS:-4}
clock=${CLOCK:-wall}
case $clock in wall) fmt="%e 0 %M" ;; cpu) fmt="%U %S %M" ;; *)
    echo "CLOCK is wall or cpu, not $clock" >&2
    exit 2
    ;;
esac
dims=${DIMS:-go-keys go-names json-names gb-names json-keys units launches value-size json-value}
[ -x "$bin" ] || { echo "no benchlab at $bin (build first: make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

base_of() { # the first size of a dimension: large enough that start-up does not dominate
    case $1 in
    go-keys | json-keys | units) echo "${BASE:-8000}" ;;
    go-names | json-names | gb-names) echo "${BASE:-6250}" ;;
    launches) echo "${BASE:-25000}" ;;
    value-size) echo "${BASE:-4000}" ;; # the Go reader's line limit is 64 KiB
    json-value) echo "${BASE:-500000}" ;;
    esac
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "clock: $clock"
printf '%-11s %-8s %9s %9s %9s %7s %7s\n' dimension command N bytes seconds "t-ratio" "m-ratio"
for d in $dims; do
    n=$(base_of "$d")
    i=0
    while [ $i -lt "$steps" ]; do
        python3 "$here/gen.py" "$d" "$n" "$tmp/in.$i"
        i=$((i + 1))
        n=$((n * 2))
    done
    for cmd in merge report compare; do
        n=$(base_of "$d")
        i=0
        prev_t='' prev_m=''
        while [ $i -lt "$steps" ]; do
            case $cmd in
            merge) set -- "$bin" merge "$tmp/in.$i" -o "$tmp/out.json" ;;
            report) set -- "$bin" report "$tmp/in.$i" -o "$tmp/out.html" ;;
            compare) set -- "$bin" compare "$tmp/in.$i" ;;
            esac
            if ! /usr/bin/time -f "$fmt" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err"; then
                echo "$d $cmd N=$n failed:" >&2
                tail -3 "$tmp/err" >&2
            fi
            read -r t sys m <"$tmp/t"
            t=$(awk -v a="$t" -v b="$sys" 'BEGIN { printf "%.2f", a + b }')
            bytes=$(wc -c <"$tmp/in.$i")
            awk -v d="$d" -v c="$cmd" -v n="$n" -v b="$bytes" -v t="$t" -v m="$m" \
                -v pt="$prev_t" -v pm="$prev_m" 'BEGIN {
                    tr = pt == "" ? "-" : (pt > 0.005 ? sprintf("%.2f", t / pt) : "~")
                    mr = pm == "" ? "-" : sprintf("%.2f", m / pm)
                    printf "%-11s %-8s %9d %9d %9.2f %7s %7s\n", d, c, n, b, t, tr, mr
                }'
            prev_t=$t prev_m=$m
            i=$((i + 1))
            n=$((n * 2))
        done
    done
done
