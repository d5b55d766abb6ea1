#!/bin/sh
# bench/exec/run.sh [BENCHLAB] - benchlab exec side by side with hyperfine,
# on the same commands, in one run (invocations alternate H B H B, so that
# drift of the machine hits both alike). Prints three ratios:
#   1. mean of a CPU-bound command of about 20 ms: benchlab / hyperfine
#      (goal: within 2%)
#   2. per-run overhead of the harness, the mean of `true` with no shell:
#      benchlab / hyperfine (goal: <= 1)
#   3. spread of the reported centre over N invocations (relative standard
#      deviation of benchlab's median and of hyperfine's mean):
#      benchlab / hyperfine (goal: <= 1)
# Not a test: it takes about two minutes and its numbers depend on the
# machine. N=10 by default; set N in the environment to change it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
benchlab=${1:-$here/../../build-exec/bin/benchlab}
n=${N:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v hyperfine >/dev/null || { echo "hyperfine is not installed" >&2; exit 2; }
[ -x "$benchlab" ] || { echo "no benchlab at $benchlab (build it first)" >&2; exit 2; }

cpu="awk 'BEGIN{for(i=0;i<1000000;i++)s+=i}'"
echo "hyperfine: $(hyperfine --version); benchlab: $("$benchlab" --version)"
echo "CPU-bound command: $cpu; $n invocations of each tool, alternating"

i=1
while [ "$i" -le "$n" ]; do
    hyperfine -N --warmup 3 --style none --export-json "$tmp/h_cpu_$i.json" "$cpu" >/dev/null 2>&1
    "$benchlab" exec -N --warmup 3 --export-json "$tmp/b_cpu_$i.json" "$cpu" >/dev/null 2>&1
    printf '.'
    i=$((i + 1))
done
i=1
while [ "$i" -le 3 ]; do
    hyperfine -N --warmup 3 --style none --export-json "$tmp/h_true_$i.json" true >/dev/null 2>&1
    "$benchlab" exec -N --warmup 3 --export-json "$tmp/b_true_$i.json" true >/dev/null 2>&1
    printf '.'
    i=$((i + 1))
done
echo

python3 - "$tmp" "$n" <<'PY'
import json, statistics as st, sys
d, n = sys.argv[1], int(sys.argv[2])
def load(tool, what, k):
    return [json.load(open(f"{d}/{tool}_{what}_{i}.json"))["results"][0] for i in range(1, k + 1)]
hc, bc = load("h", "cpu", n), load("b", "cpu", n)
ht, bt = load("h", "true", 3), load("b", "true", 3)
ms = lambda s: f"{s * 1e3:.3f} ms"
def rsd(xs):
    return st.stdev(xs) / st.mean(xs) if len(xs) > 1 else float("nan")

h_mean = st.mean(r["mean"] for r in hc)
b_mean = st.mean(r["mean"] for r in bc)
b_median = st.mean(r["median"] for r in bc)
print(f"1. CPU-bound mean: hyperfine {ms(h_mean)}, benchlab {ms(b_mean)} "
      f"(median {ms(b_median)}); ratio {b_mean / h_mean:.4f} "
      f"({abs(b_mean / h_mean - 1) * 100:.2f}% apart; goal <= 2%)")
print(f"   runs per invocation: hyperfine {st.mean(len(r['times']) for r in hc):.0f}, "
      f"benchlab {st.mean(len(r['times']) for r in bc):.0f}")
h_true = st.median(r["mean"] for r in ht)
b_true = st.median(r["mean"] for r in bt)
print(f"2. harness overhead (`true`, no shell, median of 3 invocations' means): "
      f"hyperfine {ms(h_true)}, benchlab {ms(b_true)}; ratio {b_true / h_true:.3f} (goal <= 1)")
h_sp = rsd([r["mean"] for r in hc])
h_sp_med = rsd([r["median"] for r in hc])
b_sp = rsd([r["median"] for r in bc])
b_sp_mean = rsd([r["mean"] for r in bc])
print(f"3. spread of the reported centre over {n} invocations (relative stddev): "
      f"hyperfine mean {h_sp * 100:.2f}%, benchlab median {b_sp * 100:.2f}%; "
      f"ratio {b_sp / h_sp:.3f} (goal <= 1)")
print(f"   (for reference: hyperfine median {h_sp_med * 100:.2f}%, "
      f"benchlab mean {b_sp_mean * 100:.2f}%)")
PY
