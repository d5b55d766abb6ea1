#!/usr/bin/env python3
"""Generate two Go-benchmark-format files for timing `benchlab compare`.

5,000 benchmarks named like BenchmarkOp123/size=4, 100 repetitions each,
three units per line (ns/op, B/op, allocs/op): 500,000 result lines per
file, about 35 MB each. Repetitions are interleaved (all benchmarks, then
again), as `go test -count` writes them. Deterministic (seeded).

usage: gen.py OUT_DIR [benchmarks] [repetitions]
"""
import os
import random
import sys


def write(path, seed, shift, nbench, reps):
    rnd = random.Random(seed)
    base = [rnd.uniform(20, 50000) for _ in range(nbench)]
    with open(path, "w") as f:
        f.write("goos: linux\ngoarch: amd64\npkg: example.com/bench\n")
        f.write("cpu: Example CPU @ 3.00GHz\n")
        for _ in range(reps):
            lines = []
            for i in range(nbench):
                name = "BenchmarkOp%d/size=%d-8" % (i // 5, 4 << (2 * (i % 5)))
                ns = base[i] * (shift if i % 7 == 0 else 1.0) * rnd.lognormvariate(0, 0.03)
                b = (i % 13) * 16
                a = i % 5
                lines.append("%s\t%8d\t%9.1f ns/op\t%4d B/op\t%2d allocs/op\n"
                             % (name, int(1e9 / ns) + 1, ns, b, a))
            f.write("".join(lines))
        f.write("PASS\nok  \texample.com/bench\t123.456s\n")


def main():
    out = sys.argv[1]
    nbench = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "old.txt"), 1, 1.0, nbench, reps)
    write(os.path.join(out, "new.txt"), 2, 1.05, nbench, reps)


if __name__ == "__main__":
    main()
