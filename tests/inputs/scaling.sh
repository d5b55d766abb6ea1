#!/bin/sh
# scaling.sh CASE BINDIR GEN - merge an input large enough that a quadratic
# path in a reader would take minutes (each size below took 40 s or more,
# up to hours, before the readers were made linear; they take about a
# second now), under `timeout 60`. Not a timed assertion on a fast path:
# the limit is 30x or more what the linear code needs on a loaded machine.
set -u
case_name=$1
bin=$2
gen=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"
case $case_name in
go-keys) n=20000 ;;    # N `key: value` lines each before a result: was O(N^3)
go-names) n=100000 ;;  # 100k benchmark names (13 MB): a scan per name
gb-names) n=30000 ;;   # Google Benchmark JSON, 30k names x 3
json-names) n=30000 ;; # benchlab JSON, 30k names x 3 launches
units) n=100000 ;;     # 100k Unit lines: a scan per unit in reader and writer
esac
python3 "$gen" "$case_name" "$n" "$tmp/in" || fail "gen.py failed"
run timeout 60 "$bin/benchlab" merge --format go "$tmp/in" -o "$tmp/merged.txt"
[ "$st" -ne 124 ] || fail "merge of $n took more than 60 s: a quadratic path"
expect_status 0
# every result made it through
want=$(case $case_name in go-keys) echo "$n" ;; units) echo 3 ;; *) echo $((3 * n)) ;; esac)
got=$(grep -c ' ns/op' "$tmp/merged.txt")
[ "$got" -eq "$want" ] || fail "$got results merged, want $want"
if [ "$case_name" = units ]; then
    # compare reads Unit metadata through its own index
    run timeout 60 "$bin/benchlab" compare "$tmp/in"
    [ "$st" -ne 124 ] || fail "compare of $n Unit lines took more than 60 s"
    expect_status 0
    [ "$(grep -c '^Unit ' "$tmp/merged.txt")" -eq "$n" ] || fail "Unit lines lost in the merge"
fi
