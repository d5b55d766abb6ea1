#!/usr/bin/env python3
"""proc_clock_check.py JSON THREAD ONE TWO: the process's CPU clock at 2 threads.

JSON is a benchlab JSON run; THREAD a benchmark on its thread's clock, ONE
and TWO the same body on the process's clock (.process_cpu,
MeasureProcessCPUTime) at 1 and 2 threads. Each thread reads the process's
clock around its own batch, so a load that runs the threads in turn leaves
each reading with its own work: TWO is judged on the upper tenth of its
measured batches, where the threads ran together. It must show about twice
THREAD's CPU time per op, and per op of one thread the same as ONE (the
process's time divided by the threads twice, as Google Benchmark divides
it). Used by tests/engine (process-cpu-is-every-thread) and tests/gbench
(process-cpu-time-like-google-benchmark), which give the figures.
"""
import json
import statistics
import sys

path, thread, one_name, two_name = sys.argv[1:5]
per = {}
for b in json.load(open(path))["benchmarks"]:
    key = "cpu_ns" if b["name"] == thread else "proc_cpu_ns"
    per[b["name"]] = sorted(s[key] / s["reps"] for l in b["launches"] for s in l["samples"]
                            if s["stage"] == "m" and s["reps"] > 0 and s.get(key))
th = statistics.median(per[thread])
one = statistics.median(per[one_name])
two = per[two_name]
top = two[int(0.9 * len(two))] if two else 0
print("2 threads: upper tenth %.0f ns/op, thread's clock %.0f, 1 thread %.0f" % (top, th, one))
assert top / th > 1.6, "process / thread CPU time per op %.2f" % (top / th)
assert 0.6 < top / one < 1.6, "2 threads over 1: %.2f" % (top / one)
