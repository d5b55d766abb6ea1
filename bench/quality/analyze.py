#!/usr/bin/env python3
"""analyze.py RAW_DIR --procs N --trials N: the bench/quality table (Markdown).

Reads what run.sh left in RAW_DIR and prints, per workload and tool:
reproducibility across fresh processes (spread = (max - min) / median, and
CV), time per benchmark, and the A/B verdicts over the trials: identical
builds flagged (false alarms), +1/+2/+5% changes detected with the right
sign, and with the wrong one. Then the issue's targets, met or not.

Google Benchmark's verdict is compare.py's: a two-sided Mann-Whitney U test
on the 10 repetitions' real_time of each build, significant at p < 0.05,
the sign from the means. The U test is computed as scipy's mannwhitneyu
does for 10 against 10 (the normal approximation with tie and continuity
corrections), with the standard library only.
"""
import argparse
import glob
import json
import math
import os
import re
import statistics as st

WORKLOADS = ["Ns1", "Ns20", "Sort", "Copy", "Compute", "Alloc"]
LEVELS = [1, 2, 5]
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def spread(xs):
    return (max(xs) - min(xs)) / st.median(xs) if len(xs) > 1 else float("nan")


def cv(xs):
    return st.stdev(xs) / st.mean(xs) if len(xs) > 1 else float("nan")


def trimmed_mean(xs, trim=0.2):
    s = sorted(xs)
    g = int(math.floor(trim * len(s)))
    s = s[g: len(s) - g] if g else s
    return sum(s) / len(s)


def utest_p(a, b):
    """Two-sided Mann-Whitney U p-value, as scipy.stats.mannwhitneyu with
    method='asymptotic', use_continuity=True (its choice for 10 vs 10)."""
    n1, n2 = len(a), len(b)
    allv = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(allv)
    ties = []
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1][0] == allv[i][0]:
            j += 1
        r = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[k] = r
        ties.append(j - i + 1)
        i = j + 1
    r1 = sum(r for r, (_, g) in zip(ranks, allv) if g == 0)
    u1 = r1 - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    n = n1 + n2
    tie = sum(t ** 3 - t for t in ties)
    var = n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(z / math.sqrt(2)))


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def pct(x, digits=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f}%"


def rate(hits, n):
    return "-" if n == 0 else f"{hits}/{n}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("--procs", type=int, default=10)
    ap.add_argument("--trials", type=int, default=10)
    a = ap.parse_args()
    raw = a.raw

    # ---- realised differences -------------------------------------------------
    truth = {}
    for line in open(os.path.join(raw, "truth.txt")):
        f = line.split()
        if len(f) >= 4 and f[0] == "truth":
            truth[(f[1], int(f[2]))] = float(f[3])

    # ---- fresh processes --------------------------------------------------------
    bl_c = {w: [] for w in WORKLOADS}
    bl_wall = {w: [] for w in WORKLOADS}  # seconds of worker life per benchmark and run
    # candidate estimators of the benchmark's time, one value per fresh process
    est_names = ["mean", "trimmed", "median", "min", "batch-min"]
    est = {w: {k: [] for k in est_names} for w in WORKLOADS}
    bl_ref = {w: [] for w in WORKLOADS}
    # the core clock as the reference chain saw it beside the batches: ns per
    # reference step (time/op over ref-cycles/op), one value per process
    bl_clock = {w: [] for w in WORKLOADS}
    gb_c = {w: [] for w in WORKLOADS}
    for p in sorted(glob.glob(os.path.join(raw, "spread-bl-*.json"))):
        d = load(p)
        for b in (d or {}).get("benchmarks", []):
            w = b["name"].replace("Benchmark", "", 1)
            e = b.get("estimate")
            if w in bl_c and e and e.get("centre") is not None:
                bl_c[w].append(e["centre"])
                bl_wall[w].append(sum(l.get("wall_s") or 0 for l in b.get("launches", [])))
                cs = [l["ns_per_op"] for l in b.get("launches", [])
                      if l.get("status") == "ok" and l.get("ns_per_op") is not None]
                if cs:
                    est[w]["mean"].append(st.mean(cs))
                    est[w]["trimmed"].append(trimmed_mean(cs))
                    est[w]["median"].append(st.median(cs))
                    est[w]["min"].append(min(cs))
                    if e.get("batch_min") is not None:
                        est[w]["batch-min"].append(e["batch_min"])
            # the ref-cycles/op the summary shows (centred as the time is)
            if w in bl_ref and e and e.get("ref_cycles_per_op") is not None:
                bl_ref[w].append(e["ref_cycles_per_op"])
                if e.get("centre") and e["ref_cycles_per_op"] > 0:
                    bl_clock[w].append(e["centre"] / e["ref_cycles_per_op"])
    for p in sorted(glob.glob(os.path.join(raw, "spread-gb-*.json"))):
        d = load(p)
        for b in (d or {}).get("benchmarks", []):
            w = b["name"].replace("BM_", "", 1)
            if w in gb_c and b.get("run_type", "iteration") == "iteration":
                gb_c[w].append(b["real_time"] * UNIT_NS[b.get("time_unit", "ns")])
    walls = {}
    if os.path.exists(os.path.join(raw, "walls")):
        for line in open(os.path.join(raw, "walls")):
            tag, s = line.split()
            walls.setdefault(tag, []).append(float(s))

    def per_bench(tag):
        v = walls.get(tag, [])
        return st.mean(v) / len(WORKLOADS) if v else float("nan")

    # ---- A/B trials ---------------------------------------------------------------
    # verdicts[(tool, workload, level)] = list of "up", "down", "none", "error"
    verdicts = {}
    ab_wall = {w: [] for w in WORKLOADS}

    def add(tool, w, level, v):
        verdicts.setdefault((tool, w, level), []).append(v)

    for t in range(1, a.trials + 1):
        for v in ["0b", "1", "2", "5"]:
            level = 0 if v == "0b" else int(v)
            d = load(os.path.join(raw, f"ab-{t}-{v}.json"))
            seen = set()
            for b in (d or {}).get("benchmarks", []):
                w = b["name"].replace("Benchmark", "", 1)
                if w not in WORKLOADS:
                    continue
                seen.add(w)
                vd = b.get("verdict")
                add("ab", w, level, {"slower": "up", "faster": "down", "same": "none"}.get(vd, "error"))
                if b.get("wall_s") is not None:
                    ab_wall[w].append(b["wall_s"])
            for w in WORKLOADS:
                if w not in seen:
                    add("ab", w, level, "error")
            d = load(os.path.join(raw, f"compare-{t}-{v}.json"))
            seen = set()
            for tab in (d or {}).get("tables", []):
                if tab.get("unit") != "sec/op":
                    continue
                for row in tab.get("rows", []):
                    w = re.sub(r"^Benchmark", "", row["name"])
                    cells = row.get("cells", [])
                    vs = cells[1].get("vs_base") if len(cells) > 1 and cells[1] else None
                    if w not in WORKLOADS or not vs:
                        continue
                    seen.add(w)
                    if not vs.get("significant"):
                        add("compare", w, level, "none")
                    else:
                        add("compare", w, level, "up" if (vs.get("ratio") or 1) > 1 else "down")
            for w in WORKLOADS:
                if w not in seen:
                    add("compare", w, level, "error")
            if not os.path.exists(os.path.join(raw, f"gb-{t}-0a.json")):
                continue  # Google Benchmark not run in this trial (GB_TRIALS)
            old = load(os.path.join(raw, f"gb-{t}-0a.json"))
            new = load(os.path.join(raw, f"gb-{t}-{v}.json"))

            def reps(d):
                out = {}
                for b in (d or {}).get("benchmarks", []):
                    if b.get("run_type") == "iteration":
                        w = b["name"].replace("BM_", "", 1)
                        out.setdefault(w, []).append(b["real_time"] * UNIT_NS[b.get("time_unit", "ns")])
                return out

            ro, rn = reps(old), reps(new)
            for w in WORKLOADS:
                if len(ro.get(w, [])) < 2 or len(rn.get(w, [])) < 2:
                    add("gb", w, level, "error")
                    continue
                p = utest_p(ro[w], rn[w])
                if p >= 0.05:
                    add("gb", w, level, "none")
                else:
                    add("gb", w, level, "up" if st.mean(rn[w]) > st.mean(ro[w]) else "down")

    def count(tool, w, level, what):
        vs = verdicts.get((tool, w, level), [])
        return sum(1 for x in vs if x in what), sum(1 for x in vs if x != "error")

    # ---- print ------------------------------------------------------------------------
    about = open(os.path.join(raw, "about")).read().strip() if os.path.exists(os.path.join(raw, "about")) else ""
    print("# bench/quality results\n")
    for line in about.splitlines():
        print(f"- {line}")
    print()
    print(f"## Reproducibility: the same build in {a.procs} fresh processes\n")
    print("spread = (max - min) / median of the reported time; CV = sd / mean; s/bench: benchlab, "
          "the life of the benchmark's workers (spawn to exit, setup included; mean over the "
          "processes); GB, a process's wall time over its benchmarks (mean). realised: the "
          "variants' extra work measured in one process (truth.c), in percent. clock spread: "
          "the spread of the core clock itself across the processes, as the reference chain "
          "timed it beside the benchmark's batches (time/op over ref-cycles/op): no time can "
          "be steadier than the clock it runs on, for compute-bound code.\n")
    print("| workload | time/op | realised +1/+2/+5% | spread benchlab | spread GB | CV benchlab | CV GB "
          "| clock spread | ref-cycles spread | s/bench benchlab | s/bench GB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for w in WORKLOADS:
        c = bl_c[w]
        t = st.median(c) if c else float("nan")
        tt = "-" if math.isnan(t) else (f"{t:.3g} ns" if t < 1e3 else f"{t / 1e3:.3g} µs" if t < 1e6 else f"{t / 1e6:.3g} ms")
        real = "/".join("-" if (w, l) not in truth else f"{truth[(w, l)]:+.2f}" for l in LEVELS)
        print(f"| {w} | {tt} | {real} | {pct(spread(c)) if c else '-'} | {pct(spread(gb_c[w])) if gb_c[w] else '-'} "
              f"| {pct(cv(c), 2) if c else '-'} | {pct(cv(gb_c[w]), 2) if gb_c[w] else '-'} "
              f"| {pct(spread(bl_clock[w])) if len(bl_clock[w]) > 1 else '-'} "
              f"| {pct(spread(bl_ref[w])) if bl_ref[w] else '-'} "
              f"| {st.mean(bl_wall[w]) if bl_wall[w] else float('nan'):.2f} | {per_bench('spread-gb'):.2f} |")
    print()
    print(f"## Estimators: spread of each across the {a.procs} fresh processes\n")
    print("Per process, from the same launches: mean, 20% trimmed mean, median and minimum of the "
          "launch centres (each the median of its clean batches), and the fastest clean batch. "
          "The one with the smallest spread is the most reproducible on this machine.\n")
    print("| workload | " + " | ".join(est_names) + " |")
    print("|---|" + "---|" * len(est_names))
    for w in WORKLOADS:
        print(f"| {w} | " + " | ".join(pct(spread(est[w][k])) if len(est[w][k]) > 1 else "-"
                                         for k in est_names) + " |")
    print()
    print(f"## A/B verdicts over {a.trials} trials\n")
    print("ab = `benchlab ab OLD NEW` (default: 1 s, 4 process pairs); compare = two default "
          "`benchlab run`s and `benchlab compare` (benchstat's U test over the launches); GB = two "
          "runs with `--benchmark_repetitions=10`, compare.py's U test on real_time (p < 0.05). "
          "A/A: identical builds flagged as changed. +N%: detected with the right sign "
          "(wrong sign in brackets). Trials without a verdict (errors, budget too small) "
          "are left out of the counts.\n")
    print("| workload | A/A ab | A/A compare | A/A GB | +1% ab | +1% compare | +1% GB | +2% ab | +2% compare "
          "| +2% GB | +5% ab | +5% compare | +5% GB | s/comparison ab | s/comparison GB |")
    print("|---|" + "---|" * 14)
    for w in WORKLOADS:
        cells = []
        for tool in ["ab", "compare", "gb"]:
            h, n = count(tool, w, 0, {"up", "down"})
            cells.append(rate(h, n))
        for l in LEVELS:
            for tool in ["ab", "compare", "gb"]:
                h, n = count(tool, w, l, {"up"})
                wr, _ = count(tool, w, l, {"down"})
                cells.append(rate(h, n) + (f" ({wr})" if wr else ""))
        abw = st.mean(ab_wall[w]) if ab_wall[w] else float("nan")
        gbw = 2 * per_bench("gb-rep")
        cells += [f"{abw:.2f}", f"{gbw:.2f}"]
        print(f"| {w} | " + " | ".join(cells) + " |")
    print()

    # ---- targets ------------------------------------------------------------------------
    print("## Targets (issue 3)\n")

    def frac(tool, level, what):
        h = n = 0
        for w in WORKLOADS:
            hh, nn = count(tool, w, level, what)
            h, n = h + hh, n + nn
        return h / n if n else float("nan"), h, n

    rows = []
    sp = [spread(bl_c[w]) for w in WORKLOADS if len(bl_c[w]) > 1]
    ck = [spread(bl_clock[w]) for w in WORKLOADS if len(bl_clock[w]) > 1]
    rows.append(("spread across fresh processes <= 5% (time), every workload",
                 f"worst {pct(max(sp)) if sp else '-'}"
                 + (f" (the core clock itself: {pct(min(ck))}-{pct(max(ck))})" if ck else ""),
                 bool(sp) and max(sp) <= 0.05))
    refsp = [spread(bl_ref[w]) for w in WORKLOADS if len(bl_ref[w]) > 1]
    rows.append(("spread <= 2% reference-normalised (<= 5% for Copy)",
                 f"worst {pct(max(refsp)) if refsp else 'not measured (no ref-cycles/op in run results)'}",
                 bool(refsp) and all(spread(bl_ref[w]) <= (0.05 if w == "Copy" else 0.02)
                                     for w in WORKLOADS if len(bl_ref[w]) > 1)))
    over = [w for w in WORKLOADS if bl_wall[w] and st.mean(bl_wall[w]) > (1.0 if w == "Compute" else 0.5)]
    worst = max((st.mean(bl_wall[w]) for w in WORKLOADS if bl_wall[w]), default=float("nan"))
    rows.append(("<= 0.5 s of measuring per benchmark (1 s for >= 5 ms ops)",
                 f"worst {worst:.2f} s (workers' life, setup included)"
                 + (f"; over: {', '.join(over)}" if over else ""), not over))
    f2 = frac("ab", 2, {"up"})
    w2 = frac("ab", 2, {"down"})
    rows.append(("ab: +2% detected >= 95%, no wrong sign", f"{f2[1]}/{f2[2]}, wrong sign {w2[1]}",
                 f2[0] >= 0.95 and w2[1] == 0))
    f1 = frac("ab", 1, {"up"})
    rows.append(("ab: +1% detected >= 80%", f"{f1[1]}/{f1[2]}", f1[0] >= 0.8))
    fa = frac("ab", 0, {"up", "down"})
    rows.append(("ab: identical builds flagged <= 5%", f"{fa[1]}/{fa[2]}", fa[0] <= 0.05))
    aw = [x for w in WORKLOADS for x in ab_wall[w]]
    rows.append(("ab: <= 1 s per benchmark comparison", f"mean {st.mean(aw):.2f} s" if aw else "-",
                 bool(aw) and st.mean(aw) <= 1.05))
    better = []
    for w in WORKLOADS:
        if len(bl_c[w]) > 1 and len(gb_c[w]) > 1:
            better.append(spread(bl_c[w]) < spread(gb_c[w]))
    for l in [0] + LEVELS:
        what = {"up", "down"} if l == 0 else {"up"}
        b, g = frac("ab", l, what)[0], frac("gb", l, what)[0]
        better.append(b < g if l == 0 else b > g)
        if l:
            better.append(frac("ab", l, {"down"})[1] <= frac("gb", l, {"down"})[1])
    rows.append(("every figure better than Google Benchmark's", f"{sum(better)} of {len(better)} better",
                 all(better)))
    print("| target | measured | met |")
    print("|---|---|---|")
    for name, got, ok in rows:
        print(f"| {name} | {got} | {'yes' if ok else 'no'} |")


if __name__ == "__main__":
    main()
