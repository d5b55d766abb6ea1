#!/usr/bin/env python3
"""same_run.py WANT.json GOT.json [--counters] - the benchlab JSON of a run
read back from the store (GOT: `benchlab merge @REF -o GOT.json`) against
WANT (the run's own --out, or what an older benchlab read back).

Every benchmark must be the same, field by field, as the JSON writer
writes it (launches with their samples, metrics, user counters, sums,
repetitions, counter clock; the estimates and diagnoses recomputed from
them; alloc, counters and own plan), and so must the configuration and
unit metadata. The metadata is not compared: a stored run adds its store
facts (run-id, commit) and merge adds merged-from.

With --counters, WANT must also hold what fixture_counters makes (so that
an empty comparison cannot pass): counters with flags and sums, 4
threads' sums of bytes and items, the real and cpu clocks, the loop's
repetitions, Counters' own launch count and CpuClock's process CPU clock,
Counters' label and time unit, and Family's sizes (its group, its own
curve, the threads' n summed) with the complexity fit made of them.

With --older, WANT was written by a benchlab from before a launch's
label, time unit, size and intrinsic bits were written: GOT may have
those members where WANT has none (their values are compared wherever
WANT has them).
"""
import json
import math
import sys


# the launch members a benchlab of schema version 1 stores did not write
LATER_LAUNCH_KEYS = {"label", "time_unit", "size", "intrinsic", "metric_flags"}
older = False


def diff(a, b, path):
    """The first difference between a and b, as a path and both values; None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if older and k not in a and k in LATER_LAUNCH_KEYS and ".launches[" in path:
                continue
            if k not in a or k not in b:
                return f"{path}.{k}: {'missing in GOT' if k in a else 'not in WANT'}"
            d = diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items, got {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    same = a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    return None if same and type(a) is type(b) else f"{path}: want {a!r}, got {b!r}"


def check_counters(want):
    benches = {b["name"]: b for b in want["benchmarks"]}
    problems = []
    c, cpu = benches.get("BenchmarkCounters/threads=4"), benches.get("BenchmarkCpuClock/threads=2")
    if not c or not cpu:
        return ["WANT lacks BenchmarkCounters or BenchmarkCpuClock"]
    if c.get("own_plan", {}).get("count") != 2:
        problems.append("Counters: own_plan.count is not 2")
    for name, b, clock, threads in (("Counters", c, "real", 4), ("CpuClock", cpu, "cpu", 2)):
        ok = [l for l in b["launches"] if l["status"] == "ok"]
        if not ok:
            problems.append(f"{name}: no launch ok")
        for l in ok:
            if l.get("counter_clock") != clock:
                problems.append(f"{name}: counter_clock {l.get('counter_clock')}, want {clock}")
            if l["threads"] != threads or not l["loop_iterations"] > 0:
                problems.append(f"{name}: threads or loop_iterations not kept")
            if not l["user_counters"]:
                problems.append(f"{name}: no user_counters")
    for l in cpu["launches"]:
        if l["status"] == "ok" and (l.get("cpu_clock") != "process" or
                                    not all("proc_cpu_ns" in s for s in l["samples"] if s["stage"] == "m")):
            problems.append("CpuClock: not on the process's CPU clock (cpu_clock, proc_cpu_ns)")
    for l in c["launches"]:
        if l["status"] != "ok":
            continue
        if l.get("label") != "four threads" or l.get("time_unit") != "us":
            problems.append(f"Counters: label or time_unit not kept: {l.get('label')!r}, {l.get('time_unit')!r}")
        if l["bytes_sum_per_op"] != 4 * 64 or l["items_sum_per_op"] != 4 * 2:
            problems.append("Counters: bytes/items sums are not 4 threads'")
        uc = l["user_counters"]
        if uc.get("hits/s", {}).get("counter_flags") != 1 or uc.get("ns/hits_inv", {}).get("counter_flags") != 17:
            problems.append(f"Counters: counter flags not kept: {uc}")
    for n in (64, 256, 1024):
        fam = benches.get(f"BenchmarkFamily/len={n}/threads=2")
        ok = [l for l in fam["launches"] if l["status"] == "ok"] if fam else []
        if not ok:
            problems.append(f"Family/len={n}: missing or no launch ok")
        for l in ok:
            z = l.get("size") or {}
            expect = {"n": n, "param": "len", "complexity": "auto", "group": "BenchmarkFamily",
                    "user_name": "n lg n", "n_sum": 2 * n}
            if any(z.get(k) != v for k, v in expect.items()):
                problems.append(f"Family/len={n}: size not kept: {z}")
    fits = [c for c in want_fits(want) if c["name"] == "BenchmarkFamily"]
    if len(fits) != 1 or len(fits[0]["points"]) != 3 or not fits[0]["best"]:
        problems.append(f"no complexity fit of Family's 3 sizes: {fits}")
    return problems


def want_fits(want):
    return want.get("complexity") or []


def main():
    global older
    older = "--older" in sys.argv
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    with open(args[0]) as f:
        want = json.load(f)
    with open(args[1]) as f:
        got = json.load(f)
    if "--counters" in sys.argv:
        problems = check_counters(want)
        if problems:
            print("WANT is not what fixture_counters makes:", *problems, sep="\n  ")
            return 1
    for key in ("schema", "config", "units", "benchmarks", "complexity", "time_unit"):
        d = diff(want.get(key), got.get(key), key)
        if d:
            print(f"differs at {d}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
