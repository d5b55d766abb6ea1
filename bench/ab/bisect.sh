#!/bin/sh
# bench/ab/bisect.sh [BUILD_DIR] - `benchlab bisect` on a planted 4%
# regression: a git repository of 14 commits of a small suite, commit 9
# does 4% more work in BenchmarkHash; bisect runs TRIALS times (default 3)
# and the table says whether it named commit 9, in how many steps and
# builds, and how long it took. Figures in docs/ab.md, "Bisecting".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
[ -x "$build/bin/benchlab" ] || { echo "bench/ab/bisect.sh: build first ($build/bin/benchlab)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" && git init -q . && git config user.email b@b && git config user.name b
k=1
while [ $k -le 14 ]; do
    n=2500
    [ $k -ge 9 ] && n=2600
    cat >suite.c <<C
#include <benchlab.h>
#include <stdint.h>
static uint64_t work(uint64_t n) { uint64_t h = 1469598103934665603ull; for (uint64_t i = 0; i < n; i++) h = (h ^ i) * 1099511628211ull; return h; }
BENCHLAB(Hash) { while (bl_loop(st)) bl_do_not_optimize(work($n)); }
BENCHLAB_MAIN()
/* commit $k */
C
    git add suite.c && git commit -qm "commit $k"
    [ $k -eq 9 ] && want=$(git rev-parse HEAD)
    k=$((k + 1))
done
cmd="cc -O2 -I$src/include -o suite suite.c $build/lib/libbenchlab.a -lm -lpthread -ldl"
printf 'trial  found  steps  builds  unclear  seconds\n'
t=1
while [ $t -le "${TRIALS:-3}" ]; do
    start=$(date +%s.%N)
    "$build/bin/benchlab" bisect HEAD~13 HEAD --build "$cmd" --run suite --time "${TIME:-1s}" \
        --format json >r.json 2>/dev/null || :
    end=$(date +%s.%N)
    python3 - r.json "$want" "$t" "$start" "$end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
unclear = sum(1 for s in d["steps"] if s["measurements"] > 1)
print("%5s  %5s  %5d  %6d  %7d  %7.1f" % (sys.argv[3], "yes" if d["commit"] == sys.argv[2] else "NO",
      len(d["steps"]), d["builds"], unclear, float(sys.argv[5]) - float(sys.argv[4])))
PY
    t=$((t + 1))
done
