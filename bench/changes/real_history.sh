#!/bin/sh
# bench/changes/real_history.sh [BUILD_DIR] - change points and judge
# verdicts on a history measured here, not simulated: a small C library in
# a git repository of 32 commits with planted changes, its suite built and
# run at every commit (--count 5, saved with the commit, as CI saves main).
# Then, for time and for ref-cycles:
#   - `benchlab history --changes`, scored: each planted change found at
#     its commit (+-1), and changes reported where nothing was planted;
#   - `benchlab judge` of every run against the one before (31 pairs x 4
#     benchmarks), scored: planted steps called slower, and false alarms
#     (any verdict but unchanged where nothing was planted).
# Each plant's size in time is measured at the end with a paired `ab` of
# the builds on either side of it (the work planted is not the time:
# docs/store.md, "Change points").
# DRIFT=1 runs commits 5-8, 13-16, 21-24 and 29-32 beside two busy loops,
# a machine whose speed moves between runs as a shared runner's does;
# BUSY=N runs every commit beside N busy loops (the C team's trial ran at
# a load of 7-9).
# About 1-2 minutes; TIME=per-benchmark budget (default 0.3s); KEEP=1 keeps
# the repository and its store (the path is said on stderr).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
bl=$build/bin/benchlab
[ -x "$bl" ] || { echo "bench/changes: build first ($bl)" >&2; exit 2; }
tmp=$(mktemp -d)
cd "$tmp" && git init -q . && git config user.email b@b && git config user.name b
export BENCHLAB_STORE="$tmp/store.db"
busy_pids=
busy() { # on [N] | off
    if [ "$1" = on ] && [ -z "$busy_pids" ]; then
        for i in $(seq 1 "${2:-2}"); do
            sh -c 'while :; do :; done' &
            busy_pids="$busy_pids $!"
        done
    elif [ "$1" = off ] && [ -n "$busy_pids" ]; then
        kill $busy_pids 2>/dev/null || true
        wait $busy_pids 2>/dev/null || true
        busy_pids=
    fi
}
trap 'busy off; [ -n "${KEEP:-}" ] && echo "kept $tmp" >&2 || rm -rf "$tmp"' EXIT
# planted (in work: loop steps or elements, linear in the time): Hash +8%
# at 8, Sort +15% at 14, Sum +4% at 20, Hash +3% more at 26; Copy never
# changes
k=1
while [ $k -le 32 ]; do
    hash=2000 sort=4000 sum=4000
    [ $k -ge 8 ] && hash=2160
    [ $k -ge 26 ] && hash=2225
    [ $k -ge 14 ] && sort=4600
    [ $k -ge 20 ] && sum=4160
    cat >lib.c <<C
#include <stdint.h>
#include <string.h>
uint64_t lib_hash(uint64_t n) { uint64_t h = 1469598103934665603ull; for (uint64_t i = 0; i < n; i++) h = (h ^ i) * 1099511628211ull; return h; }
void lib_sort(uint32_t *a, int n) { int c[256] = {0}; for (int i = 0; i < n; i++) c[a[i] & 255]++; int k = 0; for (int v = 0; v < 256; v++) for (int j = 0; j < c[v]; j++) a[k++] = (uint32_t)v; }
uint64_t lib_sum(const uint32_t *a, int n) { uint64_t s = 0; for (int i = 0; i < n; i++) s += a[i] * 3u + 1; return s; }
void lib_copy(void *d, const void *s, size_t n) { memcpy(d, s, n); }
/* commit $k */
C
    cat >suite.c <<C
#include <benchlab.h>
#include <stdint.h>
#include <stdlib.h>
uint64_t lib_hash(uint64_t n);
void lib_sort(uint32_t *a, int n);
uint64_t lib_sum(const uint32_t *a, int n);
void lib_copy(void *d, const void *s, size_t n);
BENCHLAB(Hash) { while (bl_loop(st)) bl_do_not_optimize(lib_hash($hash)); }
BENCHLAB(Sort) {
    static uint32_t a[$sort];
    while (bl_loop(st)) {
        for (int i = 0; i < $sort; i++) a[i] = (uint32_t)(i * 2654435761u);
        lib_sort(a, $sort);
        bl_do_not_optimize(a[0]);
    }
}
BENCHLAB(Sum) {
    static uint32_t a[$sum];
    while (bl_loop(st)) bl_do_not_optimize(lib_sum(a, $sum));
}
BENCHLAB(Copy) {
    static char s[4096], d[4096];
    while (bl_loop(st)) { lib_copy(d, s, sizeof d); bl_do_not_optimize(d[7]); }
}
BENCHLAB_MAIN()
C
    git add lib.c suite.c && git commit -qm "commit $k"
    cc -O2 -I"$src/include" -o suite suite.c lib.c "$build/lib/libbenchlab.a" -lm -lpthread -ldl
    case $k in 7 | 8 | 13 | 14 | 19 | 20 | 25 | 26) cp suite "suite-$k" ;; esac
    if [ "${DRIFT:-0}" = 1 ] && [ $(((k - 1) / 4 % 2)) = 1 ]; then
        busy on
    elif [ "${BUSY:-0}" -gt 0 ]; then
        busy on "$BUSY"
    else
        busy off
    fi
    "$bl" run ./suite --count 5 --time "${TIME:-0.3s}" --save --commit "$(git rev-parse HEAD)" --branch main \
        --no-table >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    eval "sha_$k=\$(git rev-parse HEAD)"
    k=$((k + 1))
done
busy off
# what each plant is in time: a paired ab of the builds on either side
for p in Hash:8 Sort:14 Sum:20 Hash:26; do
    name=${p%:*} k=${p#*:}
    "$bl" ab "suite-$((k - 1))" "suite-$k" --filter "^Benchmark$name\$" --time 3s --seed 1 \
        --format json >"ab-$k.json" 2>/dev/null || true
done
python3 - <<'PY' >plants.txt
import json
for name, k in (("Hash", 8), ("Sort", 14), ("Sum", 20), ("Hash", 26)):
    try:
        b = json.load(open("ab-%d.json" % k))["benchmarks"][0]
        print("%s %d %+.1f%% [%+.1f%%, %+.1f%%]" % (name, k, (b["ratio"] - 1) * 100,
              (b["ci_lo"] - 1) * 100, (b["ci_hi"] - 1) * 100))
    except Exception as e:
        print("%s %d (ab failed: %s)" % (name, k, e))
PY
echo "plants in time (ab of the builds either side, 3 s):"
sed 's/^/  /' plants.txt
for metric in time ref-cycles; do
    "$bl" history --changes --branch main --metric $metric --format json >"$metric.json"
    python3 - "$metric.json" "$metric" "$sha_8" "$sha_14" "$sha_20" "$sha_26" "$(git rev-list --reverse HEAD | tr '\n' ' ')" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
order = sys.argv[7].split()
pos = {c: i + 1 for i, c in enumerate(order)}
planted = [("BenchmarkHash", 8, "+8%"), ("BenchmarkSort", 14, "+15%"), ("BenchmarkSum", 20, "+4%"),
           ("BenchmarkHash", 26, "+3%")]
steps = [(c["benchmark"], pos.get(c["commit"], 0), c["ratio"]) for c in d["changes"] if c["kind"] == "change"]
outliers = sum(1 for c in d["changes"] if c["kind"] == "outlier")
found, used = 0, set()
for b, k, what in planted:
    hit = [s for s in steps if s[0] == b and abs(s[1] - k) <= 1]
    print("  %-10s %-14s commit %2d %-5s %s" % (sys.argv[2], b, k, what,
          "found at %d (%+.1f%%)" % (hit[0][1], (hit[0][2] - 1) * 100) if hit else "MISSED"))
    found += bool(hit)
    used.update(hit)
false = [s for s in steps if s not in used]
for s in false:
    print("  %-10s %-14s false change at commit %d (%+.1f%%)" % (sys.argv[2], s[0], s[1], (s[2] - 1) * 100))
print("  %-10s recall %d/4, precision %d/%d, %d outlier runs" % (sys.argv[2], found, found,
      found + len(false), outliers))
PY
done
echo "judge of each run against the one before (default threshold 5%):"
for metric in time ref-cycles; do
    k=2
    : >"judge-$metric.txt"
    while [ $k -le 32 ]; do
        "$bl" judge "@$k" --against "@$((k - 1))" --metric $metric >"j.txt" 2>&1 || true
        awk -v k=$k '$1 ~ /^(Hash|Sort|Sum|Copy)/ { sub(/-[0-9]+$/, "", $1); print k, $1, $NF }' j.txt \
            >>"judge-$metric.txt"
        k=$((k + 1))
    done
    python3 - "judge-$metric.txt" "$metric" <<'PY'
import sys
planted = {("Hash", 8), ("Sort", 14), ("Sum", 20), ("Hash", 26)}
hits, false, pairs, seen = [], [], 0, set()
for line in open(sys.argv[1]):
    k, name, verdict = line.split()
    k = int(k)
    seen.add((name, k))
    if (name, k) in planted:
        if verdict.lower() == "slower":
            hits.append((name, k))
    else:
        pairs += 1
        if verdict != "unchanged":
            false.append("%s@%d %s" % (name, k, verdict.lower()))
print("  %-10s planted steps called slower %d/%d, false alarms %d/%d%s" % (sys.argv[2],
      len(hits), len(planted), len(false), pairs, (": " + ", ".join(false)) if false else ""))
PY
done
