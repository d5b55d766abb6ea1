#!/usr/bin/env python3
"""empty_check.py JSON NAME LAUNCHES: an empty body's time is the overhead subtracted.

JSON is a benchlab JSON run, NAME a benchmark in it whose body is empty.
Its time per op is the median of its clean measured batches less the median
of its clean overhead batches (the same empty loop), never below zero
(docs/engine.md, "The result of a launch"): recomputed here, per launch,
from the batches the same run reports, instead of asking the time to be
under some fraction of a nanosecond, which depends on where the linker
placed the two loops (issue 25). Also: LAUNCHES launches, an overhead of
more than 0 subtracted where the launch has a clean overhead batch, and in
one launch at least (a launch whose overhead batches were all disturbed
subtracts none, as the engine does: src/lib/results/results.c).

Prints `idle` when the run's own reference cycles say the body did less
than half a cycle per op (the engine's resolution: its table then notes
"no measurable work" and shows no spread), else `busy`. On failure the
last line says what was expected and what was measured.
Used by tests/engine/e2e.sh (empty-body-is-near-zero) and
tests/gbench/gbench.sh (loops-match-google-benchmark).
"""
import json
import statistics
import sys

path, name, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
bs = [b for b in json.load(open(path))["benchmarks"] if b["name"] == name]
if len(bs) != 1:
    sys.exit("%s: expected one benchmark %s, found %d" % (path, name, len(bs)))
b = bs[0]
if len(b["launches"]) != launches:
    sys.exit("%s: expected %d launches, found %d" % (name, launches, len(b["launches"])))
no_overhead = []  # launches without a clean overhead batch
for i, l in enumerate(b["launches"]):
    def per_op(stage):
        # the clean batches; all of them in a launch kept although none was clean
        all_ = [s for s in l["samples"] if s["stage"] == stage and s["reps"] > 0]
        v = [s["ns"] / s["reps"] for s in all_ if not s["invalid"]]
        v = v or [s["ns"] / s["reps"] for s in all_ if l["disturbed"]]
        return statistics.median(v) if v else None

    raw, ovh, got = per_op("m"), per_op("O"), l["ns_per_op"]
    if ovh is None and raw is not None:
        # every overhead batch of the launch disturbed (a loaded machine:
        # seen under ASan in a parallel make check): the engine subtracts
        # nothing (results.c), which the checks below then hold it to
        ovh = 0.0
        no_overhead.append(i)

    def say(what, want, found):
        sys.exit("%s launch %d: %s: expected %s, measured %s (batches: raw %s, overhead %s ns/op)"
                 % (name, i, what, want, found, raw, ovh))

    if raw is None or ovh is None:
        say("measured and overhead batches", "both", (raw, ovh))
    if not (ovh > 0 or i in no_overhead):
        say("the overhead subtracted", "> 0 ns/op", ovh)
    if abs(l["raw_ns_per_op"] - raw) > 1e-9 * raw or abs(l["overhead_ns"] - ovh) > 1e-9 * ovh:
        say("raw_ns_per_op, overhead_ns", "the medians of the batches",
            (l["raw_ns_per_op"], l["overhead_ns"]))
    if not (got >= 0 and abs(got - max(0.0, raw - ovh)) <= 1e-9 * raw):
        say("ns_per_op", "max(0, raw - overhead) = %r" % max(0.0, raw - ovh), got)
if len(no_overhead) == len(b["launches"]):
    sys.exit("%s: no launch has a clean overhead batch: nothing was subtracted anywhere" % name)
e = b["estimate"]
ref = e.get("ref_cycles_per_op")
idle = e["centre"] >= 0 and (e["centre"] < 0.15 if ref is None else ref < 0.5)
print("idle" if idle else "busy")
