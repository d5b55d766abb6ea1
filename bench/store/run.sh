#!/bin/sh
# bench/store/run.sh [BUILD] - what saving to and loading from the results
# store costs, SQLite and PostgreSQL side by side, on a run of the example
# suite saved as benchlab JSON (every batch). Prints, per backend, the
# median of N saves and of N loads (each minus the same command without the
# store: reading and writing the file; loads are whole commands: open,
# load, write the Go format), per batch, and the ratios
# PostgreSQL / SQLite; and the store's size against the JSON file's.
#   goal: a save costs far less than the run it saves (a run of the
#   example suite measures for ~20 s; a save should be well under 1 s).
# Not a test: its numbers depend on the machine. N=5 by default.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
bin=$build/bin
n=${N:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bin/benchlab" ] || { echo "no benchlab in $bin (build it first)" >&2; exit 2; }

"$bin/benchlab" run "$bin/example_suite" --time 0.2s --no-table --out "$tmp/run.json" 2>/dev/null
batches=$(grep -o '"stage":"m"' "$tmp/run.json" | wc -l | tr -d ' ')
echo "run: $(grep -o '"name":"Benchmark[^"]*"' "$tmp/run.json" | sort -u | wc -l | tr -d ' ') benchmarks, $batches measured batches, $(wc -c <"$tmp/run.json" | tr -d ' ') bytes of JSON"

now() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

# the same command without the store: read the JSON, write the Go format
base=$(for i in $(seq "$n"); do
    t0=$(now); "$bin/benchlab" merge "$tmp/run.json" -o "$tmp/x.txt"; t1=$(now)
    echo $(((t1 - t0) / 1000))
done | median)

measure() { # measure STORE -> "save_us load_us"
    store=$1
    save=$(for i in $(seq "$n"); do
        t0=$(now); "$bin/benchlab" merge "$tmp/run.json" -o "$tmp/x.txt" --save --store "$store" 2>/dev/null; t1=$(now)
        echo $(((t1 - t0) / 1000 - base))
    done | median)
    load=$(for i in $(seq "$n"); do
        t0=$(now); "$bin/benchlab" merge @latest --store "$store" -o "$tmp/y.txt"; t1=$(now)
        echo $(((t1 - t0) / 1000))
    done | median)
    echo "$save $load"
}

sq=$(measure "$tmp/results.db")
echo "sqlite:     save $(echo "$sq" | cut -d' ' -f1) us, load $(echo "$sq" | cut -d' ' -f2) us (median of $n); store $(($(wc -c <"$tmp/results.db") / n)) bytes per run"
if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then
    pgv=$(BIN="$bin" TMPD="$tmp" N="$n" BASE="$base" sh "$here/../../tests/store/pg.sh" sh -c '
        psql -q "$BENCHLAB_TEST_PG/postgres" -c "CREATE DATABASE bench" >/dev/null
        store="$BENCHLAB_TEST_PG/bench"
        now() { date +%s%N; }
        med() { sort -n | awk "{v[NR]=\$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}"; }
        s=$(for i in $(seq "$N"); do t0=$(now); "$BIN/benchlab" merge "$TMPD/run.json" -o "$TMPD/x.txt" --save --store "$store" 2>/dev/null; t1=$(now); echo $(((t1 - t0) / 1000 - BASE)); done | med)
        l=$(for i in $(seq "$N"); do t0=$(now); "$BIN/benchlab" merge @latest --store "$store" -o "$TMPD/y.txt"; t1=$(now); echo $(((t1 - t0) / 1000)); done | med)
        echo "$s $l"')
    echo "postgresql: save $(echo "$pgv" | cut -d' ' -f1) us, load $(echo "$pgv" | cut -d' ' -f2) us"
    awk -v a="$sq" -v b="$pgv" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "ratios postgresql / sqlite: save %.2f, load %.2f\n", y[1] / x[1], y[2] / x[2] }'
fi
awk -v a="$sq" -v n="$batches" 'BEGIN { split(a, x, " ");
    printf "per batch (sqlite): save %.2f us, load %.2f us\n", x[1] / n, x[2] / n }'
