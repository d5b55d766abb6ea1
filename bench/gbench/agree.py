#!/usr/bin/env python3
"""agree.py [--cpu] DIR - medians per benchmark over DIR/gb_*.json and
DIR/bl_*.json (Google Benchmark's JSON, from Google Benchmark and from
benchlab's layer), and the ratios benchlab / Google Benchmark. With --cpu,
benchlab's cpu_time too, and the ratios of real_time to real_time and of
cpu_time to cpu_time side by side, with each benchmark's time unit and
iterations."""
import glob
import json
import statistics
import sys


def collect(pattern):
    real, cpu, iters, unit = {}, {}, {}, {}
    for path in sorted(glob.glob(pattern)):
        with open(path) as f:
            doc = json.load(f)
        for b in doc["benchmarks"]:
            if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
                continue
            real.setdefault(b["run_name"], []).append(b["real_time"])
            cpu.setdefault(b["run_name"], []).append(b["cpu_time"])
            iters.setdefault(b["run_name"], []).append(b["iterations"])
            unit[b["run_name"]] = b.get("time_unit", "ns")
    return real, cpu, iters, unit


def side_by_side(gb, bl):
    gb_real, gb_cpu, gb_iters, unit = gb
    bl_real, bl_cpu, bl_iters, _ = bl
    print("| benchmark | unit | GB real | GB cpu | GB iterations | benchlab real | benchlab cpu "
          "| benchlab iterations | BL/GB real | BL/GB cpu |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in gb_real:
        if name not in bl_real:
            print(f"| {name} | missing under benchlab |")
            continue
        gr, gc = statistics.median(gb_real[name]), statistics.median(gb_cpu[name])
        br, bc = statistics.median(bl_real[name]), statistics.median(bl_cpu[name])
        gi, bi = statistics.median(gb_iters[name]), statistics.median(bl_iters[name])
        print(f"| {name} | {unit[name]} | {gr:.1f} | {gc:.1f} | {gi:.0f} | {br:.1f} | {bc:.1f} "
              f"| {bi:.0f} | {br / gr:.3f} | {bc / gc:.3f} |")


def main():
    args = sys.argv[1:]
    with_cpu = "--cpu" in args
    d = [a for a in args if a != "--cpu"][0]
    gb = collect(d + "/gb_*.json")
    bl = collect(d + "/bl_*.json")
    if with_cpu:
        side_by_side(gb, bl)
        return
    gb_real, gb_cpu = gb[0], gb[1]
    bl_real = bl[0]
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
