#!/usr/bin/env python3
"""normalize.py FORMAT FILE - Google Benchmark's console, CSV or JSON output
of unit_suite with what a run may change taken out (CPU times, iteration
counts, a label of each repetition's own, the RMS of the CPU fit), one row a
line: the output of benchlab's layer and of Google Benchmark must then be the
same. unit_suite's real times are manual (SetIterationTime), hence exact, and
stay in."""
import csv
import json
import re
import sys

VARIES = re.compile(r"pid \d+ call \d+")


def label(s):
    return VARIES.sub("<varies>", s or "")


def num(v):
    """a real time as text: 6 significant digits, 0 for what rounds to it"""
    return "0" if abs(v) < 1e-12 else "%.6g" % v


def console(text):
    out = []
    for line in text.splitlines():
        m = re.match(r"^(\S+)\s+(\S+) (\S+)\s+(\S+) (\S+)(.*)$", line)
        if not m or line.startswith("Benchmark "):
            out.append(line)  # the rules and the header, as they are
            continue
        name, real, unit, _cpu, cpu_unit, rest = m.groups()
        if not name.endswith(("_BigO", "_RMS")):
            rest = re.sub(r"^\s*\d+", "", rest)  # the iterations
        if name.endswith("_RMS"):
            real = "-"  # the RMS of a fit to noise-free times: 0 or close
        elif re.match(r"^-?[0-9.]+(e[-+]?[0-9]+)?$", real):
            real = num(float(real))  # 99.9999 is "100.0", 100 is "100"
        out.append("%s %s %s %s %s" % (name, real, unit, cpu_unit, label(rest.strip())))
    return out


def csv_rows(text):
    lines = text.splitlines()
    out = [lines[0]]
    for r in csv.DictReader(lines):
        real = "-" if r["name"].endswith("_RMS") else num(float(r["real_time"]))
        out.append(" ".join((r["name"], real, r["time_unit"], label(r["label"]),
                             r["error_occurred"])))
    return out


def json_rows(text):
    out = []
    for b in json.loads(text)["benchmarks"]:
        keys = [b["name"], b["run_name"], b["run_type"], b.get("aggregate_name", ""),
                b.get("aggregate_unit", ""), str(b["repetitions"]), str(b["threads"]),
                str(b["family_index"]), str(b["per_family_instance_index"]),
                b.get("time_unit", "-"), b.get("big_o", ""), label(b.get("label"))]
        if "real_time" in b:
            keys.append(num(b["real_time"]))
        if "real_coefficient" in b:
            keys.append(num(b["real_coefficient"]))
        out.append(" ".join(keys))
    return out


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    text = open(path).read()
    rows = {"console": console, "csv": csv_rows, "json": json_rows}[fmt](text)
    print("\n".join(rows))


main()
