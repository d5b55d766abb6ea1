#!/usr/bin/env python3
"""realprogs.py - benchlab profile against perf record --call-graph dwarf on real programs.

Usage: realprogs.py BUILD_DIR NAME=COMMAND... [--repeat N] [--hz HZ]

Each COMMAND (a shell command line, run by sh -c; the program must be the
first word so that both profilers start it directly) is profiled by:
  - benchlab profile (default --unwind auto, 64 KB stack copies)
  - perf record -e cpu-clock:u -F HZ --call-graph dwarf,65528 (perf's largest copy;
    user time only, as benchlab samples)
  - benchlab profile --unwind fp and perf record --call-graph fp, for the
    broken-stack share of frame-pointer walking on code without frame pointers
and the report gives, per program: the top functions by self share in
either profile with their self and inclusive shares in both, the share of
stacks that reach a thread's start (_start, clone3, start_thread), and the
recording cost: CPU time (user + system, the profiler's own processes
included) of the profiled run over the plain run, median of --repeat
interleaved runs; beside it the CPU time of the whole benchlab profile
(symbolization included) and of perf record + perf script.
"""
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections import Counter

STARTS = {"_start", "clone", "clone3", "__clone", "__clone3", "start_thread"}


def cpu_of(cmd, env=None, stdin=None):
    """CPU seconds (user + sys) of cmd and everything it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, "wb") as null:
        subprocess.run(cmd, env=env, stdout=null, stderr=null, check=True, stdin=stdin)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sh(command):
    return ["sh", "-c", "exec " + command]


def read_folded(path):
    """[(frames outermost first, count)] from a folded file."""
    stacks = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, _, count = line.rpartition(" ")
            stacks.append((stack.split(";"), int(count)))
    return stacks


def read_perf(data):
    """[(frames outermost first, 1)] from perf script."""
    out = subprocess.run(["perf", "script", "--no-inline", "-F", "ip,sym", "-i", data],
                         capture_output=True, text=True, check=True).stdout
    stacks, cur = [], []
    for line in out.splitlines() + [""]:
        line = line.strip()
        if not line:
            if cur:
                stacks.append((list(reversed(cur)), 1))
            cur = []
            continue
        parts = line.split(None, 1)
        name = parts[1] if len(parts) > 1 else "[unknown]"
        cur.append(name)
    return stacks


def shares(stacks):
    """self and inclusive share (percent) per function, and the whole-stack share."""
    total = sum(c for _, c in stacks) or 1
    self_c, incl_c, whole, cut = Counter(), Counter(), 0, 0
    for frames, c in stacks:
        if frames and frames[0] == "[incomplete-stack]":
            cut += c
        real = [f for f in frames if f != "[incomplete-stack]"]
        if frames and frames[0] in STARTS:
            whole += c
        if real:
            self_c[real[-1]] += c
        for f in set(real):
            incl_c[f] += c
    pct = lambda x: 100.0 * x / total
    return ({k: pct(v) for k, v in self_c.items()}, {k: pct(v) for k, v in incl_c.items()},
            pct(whole), total, pct(cut))


def main():
    args = sys.argv[1:]
    repeat, hz = 3, 1000
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    if "--hz" in args:
        i = args.index("--hz")
        hz = int(args[i + 1])
        del args[i:i + 2]
    build, programs = args[0], [a.split("=", 1) for a in args[1:]]
    bl = os.path.join(build, "bin", "benchlab")
    sampler = os.path.join(build, "lib", "libbenchlab-sampler.so")
    work = tempfile.mkdtemp(prefix="benchlab-realprogs.")
    perf_dwarf = ["perf", "record", "-q", "-e", "cpu-clock:u", "-F", str(hz),
                  "--call-graph", "dwarf,65528"]
    perf_fp = ["perf", "record", "-q", "-e", "cpu-clock:u", "-F", str(hz), "--call-graph", "fp"]
    rows = []
    for name, command in programs:
        argv = shlex.split(command)
        stdin_path = None
        if "<" in argv:  # COMMAND < FILE
            stdin_path = argv[argv.index("<") + 1]
            argv = argv[:argv.index("<")]

        def run(cmd, env=None):
            stdin = open(stdin_path, "rb") if stdin_path else None
            try:
                return cpu_of(cmd, env=env, stdin=stdin)
            finally:
                if stdin:
                    stdin.close()

        folded = os.path.join(work, name + ".folded")
        fp_folded = os.path.join(work, name + ".fp.folded")
        data = os.path.join(work, name + ".perf.data")
        raw = os.path.join(work, name + ".raw")
        plain, rec_bl, all_bl, rec_perf, all_perf = [], [], [], [], []
        env = dict(os.environ, LD_PRELOAD=sampler, BENCHLAB_PROFILE_OUT=raw,
                   BENCHLAB_PROFILE_HZ=str(hz))
        for _ in range(repeat):  # interleaved, so that load changes hit all alike
            plain.append(run(argv))
            rec_bl.append(run(argv, env=env))
            all_bl.append(run([bl, "profile", "-F", str(hz), "-o", folded, "--"] + argv))
            rec_perf.append(run(perf_dwarf + ["-o", data, "--"] + argv))
            all_perf.append(rec_perf[-1] + cpu_of(["perf", "script", "--no-inline", "-i", data]))
        run([bl, "profile", "--unwind", "fp", "-F", str(hz), "-o", fp_folded, "--"] + argv)
        ours, theirs = shares(read_folded(folded)), shares(read_perf(data))
        ours_fp = shares(read_folded(fp_folded))
        run(perf_fp + ["-o", data + ".fp", "--"] + argv)
        theirs_fp = shares(read_perf(data + ".fp"))
        base = statistics.median(plain)
        rows.append((name, ours, theirs, ours_fp, theirs_fp, base,
                     statistics.median(rec_bl) / base, statistics.median(rec_perf) / base,
                     statistics.median(all_bl) / base, statistics.median(all_perf) / base))

    for name, ours, theirs, ours_fp, theirs_fp, base, rbl, rperf, abl, aperf in rows:
        print(f"### {name}\n")
        print(f"{ours[3]} samples (benchlab), {theirs[3]} (perf); plain run {base:.2f} s CPU\n")
        top = sorted(set(sorted(ours[0], key=ours[0].get, reverse=True)[:8]) |
                     set(sorted(theirs[0], key=theirs[0].get, reverse=True)[:8]),
                     key=lambda f: -max(ours[0].get(f, 0), theirs[0].get(f, 0)))[:10]
        print("| function | self benchlab | self perf | diff | inclusive benchlab |"
              " inclusive perf | diff |")
        print("|---|---|---|---|---|---|---|")
        for f in top:
            sb, sp = ours[0].get(f, 0), theirs[0].get(f, 0)
            ib, ip = ours[1].get(f, 0), theirs[1].get(f, 0)
            print(f"| {f} | {sb:.1f} | {sp:.1f} | {sb - sp:+.1f} | {ib:.1f} | {ip:.1f} |"
                  f" {ib - ip:+.1f} |")
        print()
        print("| | benchlab (auto) | perf dwarf,65528 | benchlab --unwind fp | perf -g (fp) |")
        print("|---|---|---|---|---|")
        print(f"| stacks reaching a thread's start | {ours[2]:.1f}% | {theirs[2]:.1f}% |"
              f" {ours_fp[2]:.1f}% | {theirs_fp[2]:.1f}% |")
        print(f"| share shown as [incomplete-stack] | {ours[4]:.1f}% | - | {ours_fp[4]:.1f}% | - |")
        print(f"| main's inclusive share | {ours[1].get('main', 0):.1f}% |"
              f" {theirs[1].get('main', 0):.1f}% | {ours_fp[1].get('main', 0):.1f}% |"
              f" {theirs_fp[1].get('main', 0):.1f}% |")
        print(f"| CPU cost, recording | {rbl:.3f}x | {rperf:.3f}x | | |")
        print(f"| CPU cost, with symbolizing (benchlab profile; perf record + script) |"
              f" {abl:.3f}x | {aperf:.3f}x | | |")
        print()


if __name__ == "__main__":
    main()
