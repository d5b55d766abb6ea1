#!/usr/bin/env python3
"""agree.py DIR - medians per benchmark over DIR/gb_*.json and DIR/bl_*.json
(Google Benchmark's JSON, from Google Benchmark and from benchlab's layer),
and the ratios benchlab / Google Benchmark."""
import glob
import json
import statistics
import sys


def collect(pattern):
    real, cpu = {}, {}
    for path in sorted(glob.glob(pattern)):
        with open(path) as f:
            doc = json.load(f)
        for b in doc["benchmarks"]:
            if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
                continue
            real.setdefault(b["run_name"], []).append(b["real_time"])
            cpu.setdefault(b["run_name"], []).append(b["cpu_time"])
    return real, cpu


def main():
    d = sys.argv[1]
    gb_real, gb_cpu = collect(d + "/gb_*.json")
    bl_real, _ = collect(d + "/bl_*.json")
    print("| benchmark | GB real ns | GB cpu ns | benchlab ns | benchlab/GB real | benchlab/GB cpu |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in gb_real:
        if name not in bl_real:
            print(f"| {name} | missing under benchlab |")
            continue
        gr = statistics.median(gb_real[name])
        gc = statistics.median(gb_cpu[name])
        br = statistics.median(bl_real[name])
        print(f"| {name} | {gr:.1f} | {gc:.1f} | {br:.1f} | {br / gr:.3f} | {br / gc:.3f} |")


main()
