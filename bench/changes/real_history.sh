#!/bin/sh
# bench/changes/real_history.sh [BUILD_DIR] - change points on a history
# measured here, not simulated: a small C library in a git repository of
# 32 commits with planted changes of 3-15%, its suite built and run at
# every commit (--count 5, saved with the commit, as CI saves main), then
# `benchlab history --changes` in time and in ref-cycles, scored: each
# planted change found at its commit (+-1), and changes reported where
# nothing was planted. Prints the score table of docs/store.md, "Change
# points". About 5 minutes; TIME=per-benchmark budget (default 0.3s).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
bl=$build/bin/benchlab
[ -x "$bl" ] || { echo "bench/changes: build first ($bl)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" && git init -q . && git config user.email b@b && git config user.name b
export BENCHLAB_STORE="$tmp/store.db"
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
    "$bl" run ./suite --count 5 --time "${TIME:-0.3s}" --save --commit "$(git rev-parse HEAD)" --branch main \
        --no-table >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    eval "sha_$k=\$(git rev-parse HEAD)"
    k=$((k + 1))
done
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
