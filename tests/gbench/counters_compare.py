#!/usr/bin/env python3
"""counters_compare.py GB_JSON BL_JSON - the counters of counters_suite as
Google Benchmark computed them (GB_JSON) and as benchlab's layer did
(BL_JSON, one or more launches of each benchmark): every counter of every
iteration row of BL_JSON must equal GB's for the same benchmark, up to
rounding. A rate depends on the time measured, so both sides' rates are
first multiplied by the time per iteration of the benchmark's clock (the
manual or real time with UseManualTime or UseRealTime, else the CPU time),
an inverted rate divided by it: what is left is the counter over the
iterations, which the fixed iteration counts make exact. Prints each
disagreement and exits 1 on any."""
import json
import math
import sys

SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
NOT_COUNTERS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type",
    "repetitions", "repetition_index", "threads", "iterations", "real_time",
    "cpu_time", "time_unit", "label", "error_occurred", "error_message",
    "aggregate_name", "aggregate_unit", "disturbed",
}


def counters(row):
    """the row's counters, time-free"""
    clock = "real_time" if ("manual" in row["run_name"] or "real" in row["run_name"]) \
        else "cpu_time"
    seconds = row[clock] * SCALE[row["time_unit"]]
    out = {}
    for key, value in row.items():
        if key in NOT_COUNTERS:
            continue
        if key.startswith("rate") or key.endswith("_per_second"):
            value = value / seconds if "invert" in key else value * seconds
        out[key] = value
    return out


def rows(path):
    with open(path) as f:
        doc = json.load(f)
    return [r for r in doc["benchmarks"] if r.get("run_type") == "iteration"]


def main():
    gb = {r["name"]: r for r in rows(sys.argv[1])}
    bl = rows(sys.argv[2])
    bad = 0
    seen = set()
    for r in bl:
        name = r["name"]
        seen.add(name)
        if name not in gb:
            print("%s: not in Google Benchmark's output" % name)
            bad += 1
            continue
        want, got = counters(gb[name]), counters(r)
        if sorted(want) != sorted(got):
            print("%s: counters %s, Google Benchmark's %s" % (name, sorted(got), sorted(want)))
            bad += 1
        for key in sorted(set(want) & set(got)):
            w, g = want[key], got[key]
            # inf (kInvert of 0) must be inf on both sides: inf - inf is NaN,
            # and every comparison with NaN is false
            if not (math.isfinite(w) and math.isfinite(g)):
                if not (w == g or (math.isnan(w) and math.isnan(g))):
                    print("%s %s: %.9g, Google Benchmark %.9g" % (name, key, g, w))
                    bad += 1
                continue
            if abs(g - w) > 1e-6 * max(abs(w), abs(g), 1e-300):
                print("%s %s: %.9g, Google Benchmark %.9g" % (name, key, g, w))
                bad += 1
    for name in sorted(set(gb) - seen):
        print("%s: missing" % name)
        bad += 1
    if not bl:
        print("no benchmark in %s" % sys.argv[2])
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
