#!/usr/bin/env python3
"""bench/scaling/gen.py - inputs for bench/scaling/run.sh and the scaling test.

    gen.py DIMENSION N OUT

writes one input file OUT whose size in DIMENSION is N (everything else
small and fixed), so that doubling N doubles the input:

  go-keys      Go format: N distinct `key: value` configuration lines, each
               followed by a result line (the configuration changes N times)
  go-names     Go format: N benchmarks with distinct names, 3 results each
  json-names   benchlab JSON: N benchmarks, 3 launches each
  gb-names     Google Benchmark JSON: N benchmarks, 3 repetitions each
  json-keys    benchlab JSON: N configuration keys, 2 benchmarks
  units        Go format: N `Unit` metadata lines of distinct units, 3 results
  launches     Go format: N results of one benchmark
  value-size   Go format: one configuration value and one benchmark name
               of N bytes (capped below the Go reader's 64 KiB line limit:
               run.sh keeps N under it), 3 results
  json-value   benchlab JSON: a configuration value and a benchmark name of
               N bytes each, 3 launches

Deterministic (no randomness beyond a fixed-seed generator) so that two runs
give the same bytes.
"""
import json
import random
import sys


def ix(i):
    """An index of fixed width (8 digits), so that doubling N doubles the
    bytes: with plain digits the names grow longer as N grows (about 3% more
    bytes per doubling at 256k), and the ratio would measure that too."""
    return f"{i:08d}"


def ns(rng):
    return 100 + rng.random() * 10


def go_keys(n, out, rng):
    out.write("goos: linux\ngoarch: amd64\npkg: scale\n")
    for i in range(n):
        out.write(f"key{ix(i)}: value{ix(i)}\n")
        out.write(f"BenchmarkKeys 1000 {ns(rng):.3f} ns/op\n")


def go_names(n, out, rng):
    out.write("goos: linux\ngoarch: amd64\npkg: scale\n")
    for _rep in range(3):
        for i in range(n):
            out.write(f"BenchmarkName{ix(i)}/size={i % 64:02d} 1000 {ns(rng):.3f} ns/op\n")


def launch(rng):
    v = ns(rng)
    return {"status": "ok", "ns_per_op": v, "raw_ns_per_op": v, "measured_reps": 1000,
            "samples": [{"stage": "m", "reps": 100, "ns": v * 100 + k} for k in range(3)]}


def benchlab_doc(config, benches):
    return {"schema": "benchlab/1", "config": config, "meta": {}, "benchmarks": benches}


def json_names(n, out, rng):
    benches = [{"name": f"BenchmarkName{ix(i)}/size={i % 64:02d}",
                "launches": [launch(rng) for _ in range(3)]} for i in range(n)]
    json.dump(benchlab_doc({"goos": "linux", "pkg": "scale"}, benches), out)


def gb_names(n, out, rng):
    benches = []
    for i in range(n):
        for r in range(3):
            t = ns(rng)
            benches.append({"name": f"BM_Name{ix(i)}/size:{i % 64:02d}", "run_name": f"BM_Name{ix(i)}",
                            "run_type": "iteration", "repetitions": 3, "repetition_index": r,
                            "iterations": 1000, "real_time": t, "cpu_time": t,
                            "time_unit": "ns"})
    json.dump({"context": {"host_name": "scale"}, "benchmarks": benches}, out)


def json_keys(n, out, rng):
    config = {f"key{ix(i)}": f"value{ix(i)}" for i in range(n)}
    benches = [{"name": f"BenchmarkKeys{i}", "launches": [launch(rng) for _ in range(3)]}
               for i in range(2)]
    json.dump(benchlab_doc(config, benches), out)


def launches(n, out, rng):
    out.write("goos: linux\ngoarch: amd64\npkg: scale\n")
    for _ in range(n):
        out.write(f"BenchmarkLaunches 1000 {ns(rng):.3f} ns/op\n")


def units(n, out, rng):
    out.write("goos: linux\ngoarch: amd64\npkg: scale\n")
    for i in range(n):
        out.write(f"Unit u{ix(i)}/op better=higher\n")
    for _ in range(3):
        out.write(f"BenchmarkUnits 1000 {ns(rng):.3f} ns/op\n")


def value_size(n, out, rng):
    out.write("goos: linux\ngoarch: amd64\npkg: scale\n")
    out.write("big: " + "v" * n + "\n")
    name = "Big" + "n" * n
    for _ in range(3):
        out.write(f"Benchmark{name} 1000 {ns(rng):.3f} ns/op\n")


def json_value(n, out, rng):
    benches = [{"name": "BenchmarkBig" + "n" * n, "launches": [launch(rng) for _ in range(3)]}]
    json.dump(benchlab_doc({"big": "v" * n}, benches), out)


DIMENSIONS = {
    "go-keys": go_keys,
    "go-names": go_names,
    "json-names": json_names,
    "gb-names": gb_names,
    "json-keys": json_keys,
    "units": units,
    "launches": launches,
    "value-size": value_size,
    "json-value": json_value,
}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in DIMENSIONS:
        sys.stderr.write("usage: gen.py {%s} N OUT\n" % ",".join(DIMENSIONS))
        sys.exit(2)
    n = int(sys.argv[2])
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        DIMENSIONS[sys.argv[1]](n, out, random.Random(42))


if __name__ == "__main__":
    main()
