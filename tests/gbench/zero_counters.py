#!/usr/bin/env python3
"""zero_counters.py FORMAT FILE - the counters invert_zero and
rate_invert_zero of counters_suite (kInvert of 0: Google Benchmark's 1 / 0)
as Google Benchmark's console, CSV or JSON output (FORMAT) prints them, one
line per kind of row (iteration, mean, median, stddev, cv), the text as
written: inf and -nan in the console and CSV, Infinity and NaN in JSON."""
import csv
import re
import sys

AGGREGATES = ("mean", "median", "stddev", "cv")


def kind(name):
    for a in AGGREGATES:
        if name.endswith("_" + a):
            return a
    return "iteration"


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    text = open(path).read()
    rows = set()
    if fmt == "console":
        for line in text.splitlines():
            m = re.match(r"^(BM_\S+)\s.* invert_zero=(\S+) .* rate_invert_zero=(\S+)", line)
            if m:
                rows.add("%s %s %s" % (kind(m.group(1)), m.group(2), m.group(3)))
    elif fmt == "csv":
        for r in csv.DictReader(line for line in text.splitlines() if line.startswith(("name,", '"BM_'))):
            rows.add("%s %s %s" % (kind(r["name"]), r["invert_zero"], r["rate_invert_zero"]))
    else:
        # the raw text of the values: Python's json would turn them into floats
        for block in re.findall(r"\{[^{}]*\}", text):
            name = re.search(r'"name": "([^"]*)"', block)
            iz = re.search(r'"invert_zero": ([^,\n]*)', block)
            rz = re.search(r'"rate_invert_zero": ([^,\n]*)', block)
            if name and iz and rz:
                rows.add("%s %s %s" % (kind(name.group(1)), iz.group(1), rz.group(1)))
    print("\n".join(sorted(rows)))


main()
