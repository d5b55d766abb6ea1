#!/bin/sh
# bench/scaling/run.sh - does every reader and writer scale linearly?
#
# For each dimension of an input (configuration lines, benchmark names in
# the Go format, benchlab JSON and Google Benchmark JSON, configuration
# keys, Unit metadata lines, launches of one benchmark, sizes of values;
# gen.py describes each), generates inputs of N, 2N, 4N, ... and runs
# merge, report and compare on them, printing the CPU time and peak RSS
# of each and their ratio to the previous size. Linear (or n log n) work
# gives about 2 per doubling (less where start-up still counts); the
# target is <= 2.2 on every doubling. A quadratic path shows as 4.
#
#   bench/scaling/run.sh [path/to/benchlab]   (default build/bin/benchlab)
#   STEPS=4 REPS=3 DIMS="go-names launches" CMDS=merge bench/scaling/run.sh
#   BASE=25000 bench/scaling/run.sh   (one first size for every dimension)
#   CLOCK=wall bench/scaling/run.sh   (wall seconds instead of CPU seconds)
#
# Times are user + system CPU seconds (CLOCK=cpu, the default) measured by
# rusage.py to the microsecond from the kernel's rusage; each point is the
# least of REPS runs (default 3), the run the rest of the machine disturbed
# least, and the runs of a dimension's sizes are interleaved (N, 2N, 4N,
# 8N, then again) so that a change of the machine's load falls on every
# size alike rather than on one (a load of 18 on 2 CPUs moved one size's
# best of 3 by 20% when the sizes ran one after the other). On a loaded machine wall time is noise (a shared 2-CPU machine at
# load 16 gave 2.9 per doubling for runs whose CPU time grew 2.07 and whose
# instruction count, under valgrind --tool=callgrind, grew 2.02). The first
# size of each dimension and command (base_of) makes the largest run take
# about half a second or more of CPU, so that neither the clock nor the
# start-up of the process decides the ratio; the whole table takes about
# 3 minutes of CPU.
#
# Prints a table; exit 0 (1 if a run failed). Needs python3.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/bin/benchlab}
steps=${STEPS:-4}
reps=${REPS:-3}
clock=${CLOCK:-cpu}
case $clock in wall | cpu) ;; *)
    echo "CLOCK is cpu or wall, not $clock" >&2
    exit 2
    ;;
esac
dims=${DIMS:-go-keys go-names json-names gb-names json-keys units launches value-size json-value}
cmds=${CMDS:-merge report compare}
[ -x "$bin" ] || { echo "no benchlab at $bin (build first: make)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# base_of DIMENSION COMMAND: the first size, so that the largest (base
# times 2^(STEPS-1)) takes about 0.5-2 s of CPU (measured on a loaded
# 2-CPU machine; compare is much cheaper than merge on most dimensions)
base_of() {
    [ -z "${BASE:-}" ] || { echo "$BASE"; return; }
    case $1.$2 in
    go-keys.merge) echo 12000 ;;
    go-keys.report) echo 32000 ;;
    go-keys.compare) echo 8000 ;;
    go-names.merge | go-names.report) echo 3125 ;;
    go-names.compare) echo 25000 ;;
    json-names.merge | json-names.report) echo 1000 ;;
    json-names.compare) echo 6250 ;;
    gb-names.merge | gb-names.report) echo 1600 ;;
    gb-names.compare) echo 6250 ;;
    json-keys.merge) echo 64000 ;;
    json-keys.report) echo 100000 ;;
    json-keys.compare) echo 64000 ;;
    units.merge) echo 64000 ;;
    units.report | units.compare) echo 128000 ;;
    launches.merge) echo 25000 ;;
    launches.report) echo 100000 ;;
    launches.compare) echo 500000 ;;
    value-size.*) echo 1500000 ;; # bytes: 12 MB at 4 steps, under the Go reader's 16 MiB line limit
    json-value.*) echo 2000000 ;;
    esac
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "clock: $clock seconds, least of $reps runs"
printf '%-11s %-8s %9s %10s %9s %9s %7s %7s\n' \
    dimension command N bytes seconds "peak KiB" "t-ratio" "m-ratio"
failed=0
for d in $dims; do
    for cmd in $cmds; do
        case $cmd in merge | report | compare) ;; *)
            echo "unknown command $cmd (merge, report or compare)" >&2
            exit 2
            ;;
        esac
        # the sizes' runs interleaved, round after round, so that each size
        # sees the same changes of the machine's load; then per size the
        # least CPU time and peak RSS of its rounds
        n0=$(base_of "$d" "$cmd")
        : >"$tmp/points"
        r=0
        while [ $r -lt "$reps" ]; do
            i=0 n=$n0
            while [ $i -lt "$steps" ]; do
                in=$tmp/in.$d.$n
                [ -f "$in" ] || python3 "$here/gen.py" "$d" "$n" "$in"
                case $cmd in
                merge) set -- "$bin" merge "$in" -o "$tmp/out.json" ;;
                report) set -- "$bin" report "$in" -o "$tmp/out.html" ;;
                compare) set -- "$bin" compare "$in" ;;
                esac
                read -r cpu wall m st <<EOT
$(python3 "$here/rusage.py" 1 "$tmp/stdout" "$@")
EOT
                if [ "$st" -ne 0 ]; then
                    echo "$d $cmd N=$n exited $st:" >&2
                    tail -3 "$tmp/stdout.err" >&2
                    failed=1
                fi
                if [ "$clock" = cpu ]; then t=$cpu; else t=$wall; fi
                echo "$i $n $(wc -c <"$in") $t $m" >>"$tmp/points"
                i=$((i + 1))
                n=$((n * 2))
            done
            r=$((r + 1))
        done
        sort -n -k1,1 "$tmp/points" | awk -v d="$d" -v c="$cmd" '
            { i = $1; n[i] = $2; b[i] = $3
              if (!(i in t) || $4 < t[i]) t[i] = $4
              if (!(i in m) || $5 < m[i]) m[i] = $5
              if (i > last) last = i }
            END {
                for (i = 0; i <= last; i++) {
                    tr = i == 0 ? "-" : sprintf("%.2f", t[i] / t[i - 1])
                    mr = i == 0 ? "-" : sprintf("%.2f", m[i] / m[i - 1])
                    printf "%-11s %-8s %9d %10d %9.3f %9d %7s %7s\n", d, c, n[i], b[i], t[i], m[i], tr, mr
                }
            }'
    done
    rm -f "$tmp"/in."$d".*
done
exit $failed
