#!/bin/sh
# scaling.sh CASE BINDIR GEN - merge an input large enough that a quadratic
# path in a reader would take minutes (each size below took 40 s or more,
# up to hours, before the readers were made linear; they take about a
# second now), under `timeout 60`. Not a timed assertion on a fast path:
# the limit is 30x or more what the linear code needs on a loaded machine.
# go-keys also runs compare on N/4 and N keys and compares their peak
# memory (counted by the kernel, not timed): linear is about 4x (2.6x
# measured), quadratic 16x (each table key carried every key seen so far:
# 126 MB at 5k keys, about 2 GB at 20k).
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
# peak_kb OUT CMD...: run CMD with stdout in OUT; its peak RSS (KiB) in $kb, status in $st
peak_kb() {
    out=$1
    shift
    kb=$(python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    st = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, st)' "$out" "$@")
    st=${kb#* }
    kb=${kb% *}
}
if [ "$case_name" = go-keys ]; then
    # compare makes one table per configuration: n of them, each 7 lines
    python3 "$gen" go-keys $((n / 4)) "$tmp/small" || fail "gen.py failed"
    peak_kb "$tmp/small.out" timeout 60 "$bin/benchlab" compare "$tmp/small"
    [ "$st" -eq 0 ] || fail "compare of $((n / 4)) keys: exit status $st"
    small_kb=$kb
    peak_kb "$tmp/cmp.out" timeout 60 "$bin/benchlab" compare "$tmp/in"
    [ "$st" -ne 124 ] || fail "compare of $n keys took more than 60 s: a quadratic path"
    [ "$st" -eq 0 ] || fail "compare of $n keys: exit status $st"
    [ "$(grep -c '^Keys ' "$tmp/cmp.out")" -eq "$n" ] || fail "compare did not make $n tables"
    # the first table names every key, each later one only the key it adds
    [ "$(grep -c '^key[0-9]*: ' "$tmp/cmp.out")" -eq $((2 * n - 1)) ] ||
        fail "compare's table headers are not the $((2 * n - 1)) expected"
    last=$(printf %08d $((n - 1))) # gen.py's keys are 8 digits wide
    grep -qx "key$last: value$last" "$tmp/cmp.out" || fail "the last key's header is missing"
    ratio=$(awk -v a="$kb" -v b="$small_kb" 'BEGIN { printf "%.2f", a / b }')
    check "$ratio" "x + 0 < 8" \
        "peak memory of compare on $n keys ($kb KiB) over $((n / 4)) keys ($small_kb KiB)"
fi
if [ "$case_name" = go-keys ]; then
    # compare -format json and markdown print each table's configuration
    # as what changed since the previous table: linear, about 300 bytes a
    # table. Every key above every table would be n^2/2 keys (4 GB at
    # 20k): a file limit of 64 MiB stops that with SIGXFSZ.
    for fmt in json markdown; do
        (
            ulimit -f 65536
            exec timeout 60 "$bin/benchlab" compare -format "$fmt" "$tmp/in" >"$tmp/cmp.$fmt"
        )
        st=$?
        [ "$st" -eq 0 ] || fail "compare -format $fmt of $n keys: exit status $st (153 or 25: over 64 MiB)"
    done
    # the JSON reads back, and applying each table's changes in turn gives
    # table i the keys key0..key(i) with their values, and key(i+1).. ""
    python3 - "$tmp/cmp.json" "$n" <<'PY' || fail "compare -format json's config_changes do not add up"
import json, sys
doc = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert doc["schema"] == "benchlab-compare/2", doc["schema"]
tables = doc["tables"]
assert len(tables) == n, len(tables)
cfg = {}
for i, t in enumerate(tables):
    ch = t["config_changes"]
    if i > 0:
        assert ch == {f"key{i:08d}": f"value{i:08d}"}, (i, ch)
    cfg.update(ch)
    for j in (0, i // 2, i, i + 1, n - 1):
        if j < n:
            assert cfg[f"key{j:08d}"] == (f"value{j:08d}" if j <= i else ""), (i, j)
assert cfg["goos"] == "linux" and cfg["pkg"] == "scale"
PY
    # Markdown: every key above the first table, then the one each adds
    [ "$(grep -o '[*][*]key[0-9]*:[*][*]' "$tmp/cmp.markdown" | wc -l)" -eq $((2 * n - 1)) ] ||
        fail "compare -format markdown's configuration lines are not the $((2 * n - 1)) expected"
    grep -qx "[*][*]key$last:[*][*] value$last" "$tmp/cmp.markdown" ||
        fail "the last table's key is missing from the Markdown"
fi
if [ "$case_name" = units ]; then
    # compare reads Unit metadata through its own index
    run timeout 60 "$bin/benchlab" compare "$tmp/in"
    [ "$st" -ne 124 ] || fail "compare of $n Unit lines took more than 60 s"
    expect_status 0
    [ "$(grep -c '^Unit ' "$tmp/merged.txt")" -eq "$n" ] || fail "Unit lines lost in the merge"
fi
