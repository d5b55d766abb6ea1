#!/usr/bin/env python3
"""compare.py - benchlab profile against callgrind, perf, gprof and uftrace.

Builds bench/profile/workload.c for each tool, takes callgrind's inclusive
instruction counts as ground truth, and reports per tool: the largest error
of the inclusive shares of the named functions (points), the slowdown, the
sampling rate delivered (samplers), the cost per call (tracers) and whether
the call counts are exact. Run by bench/profile/run.sh; usage:

    compare.py BUILD_DIR [--rounds N] [--threads T] [--repeat R]

Costs are CPU time (user + system, the tool's own processes included) on a
shared machine: each ratio is the median of R interleaved pairs (plain run,
profiled run), so drift hits both alike; start-up is elapsed time.
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FUNCS = ["hot_a", "mid_b", "leaf_c", "cold_d", "many", "tiny"]
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "workload.c")
BASE_FLAGS = ["-O2", "-g", "-fno-optimize-sibling-calls", "-pthread"]


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def build(out, extra, libs=()):
    sh(["gcc", *BASE_FLAGS, *extra, "-o", out, SRC, *libs])
    return out


def wall(cmd, env=None, cwd=None):
    """CPU time (user + system) of cmd and its children: unlike wall time, it
    does not grow when other work on a shared machine preempts the run."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, cwd=cwd)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def elapsed(cmd, env=None):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)
    return time.perf_counter() - t0


def ratio(plain, profiled, repeat):
    """Median over interleaved pairs of profiled/plain wall time."""
    rs = []
    for _ in range(repeat):
        a = plain()
        b = profiled()
        rs.append(b / a)
    return statistics.median(rs)


def folded_shares(path):
    total, hit = 0, {f: 0 for f in FUNCS}
    for line in open(path):
        stack, _, value = line.rpartition(" ")
        v = float(value)
        total += v
        frames = set(stack.split(";"))
        for f in FUNCS:
            if f in frames:
                hit[f] += v
    return {f: 100 * hit[f] / total for f in FUNCS} if total else {}


def callgrind_truth(binary, rounds, threads, tmp):
    out = os.path.join(tmp, "cg.out")
    sh(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary,
        str(rounds), str(threads)])
    text = sh(["callgrind_annotate", "--inclusive=yes", out]).stdout
    shares, calls = {}, {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+\S*:(\w+) ", line)
        if m and m.group(3) in FUNCS and m.group(3) not in shares:
            shares[m.group(3)] = float(m.group(2))
    return shares


def perf_shares(binary, rounds, threads, tmp, mode):
    data = os.path.join(tmp, "perf.data")
    cg = ["-g"] if mode == "fp" else ["--call-graph", "dwarf"]
    sh(["perf", "record", "-q", "-F", "1000", *cg, "-o", data, binary, str(rounds),
        str(threads)])
    text = sh(["perf", "report", "-i", data, "--children", "--stdio", "-g", "none",
               "--percent-limit", "0", "--sort", "symbol"]).stdout
    shares = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\[\.\]\s+(\w+)", line)
        if m and m.group(3) in FUNCS:
            shares[m.group(3)] = float(m.group(1))
    return shares


def gprof_shares(binary, rounds, threads, tmp):
    subprocess.run([binary, str(rounds), str(threads)], cwd=tmp, check=True,
                   stdout=subprocess.DEVNULL)
    text = sh(["gprof", "-b", "-q", binary, os.path.join(tmp, "gmon.out")]).stdout
    shares, calls = {}, {}
    for line in text.splitlines():
        m = re.match(r"\[\d+\]\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+([\d+]+)?\s*(\w+)", line)
        if m and m.group(3) in FUNCS:
            shares[m.group(3)] = float(m.group(1))
            calls[m.group(3)] = int(m.group(2).split("+")[0]) if m.group(2) else 0
    return shares, calls


UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def uftrace_shares(binary, rounds, threads, tmp):
    d = os.path.join(tmp, "uftrace.data")
    sh(["uftrace", "record", "-d", d, binary, str(rounds), str(threads)])
    text = sh(["uftrace", "report", "-d", d, "--no-pager"]).stdout
    total, calls = {}, {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)\s+(\w+)\s+([\d.]+)\s+(\w+)\s+(\d+)\s+(\w+)", line)
        if m:
            total[m.group(6)] = float(m.group(1)) * UNITS[m.group(2)]
            calls[m.group(6)] = int(m.group(5))
    root = total.get("main", 0) + (total.get("work", 0) if threads > 1 else 0)
    if threads > 1:  # main's total includes waiting for the other threads
        root = total.get("work", 0)
    return {f: 100 * total[f] / root for f in FUNCS if f in total}, calls


def benchlab_sample(bl, lib, binary, rounds, threads, tmp, repeat):
    out = os.path.join(tmp, "bl.folded")
    # the workload keeps frame pointers: the rows below are --unwind fp (the
    # default stack-copy unwinding is compared with perf in realprogs.py)
    r = sh([bl, "profile", "--unwind", "fp", "-o", out, "--", binary, str(rounds), str(threads)])
    m = re.search(r"(\d+)% of the asked rate delivered", r.stderr)
    delivered = float(m.group(1)) if m else float("nan")
    m = re.search(r"(\d+) samples from", r.stderr)
    samples = int(m.group(1)) if m else 0
    env = dict(os.environ, LD_PRELOAD=os.path.join(lib, "libbenchlab-sampler.so"),
               BENCHLAB_PROFILE_OUT=os.path.join(tmp, "x.raw"), BENCHLAB_PROFILE_UNWIND="fp")
    slow = ratio(lambda: wall([binary, str(rounds), str(threads)]),
                 lambda: wall([binary, str(rounds), str(threads)], env=env), repeat)
    return folded_shares(out), delivered, slow, samples


def floor_env(tmp, hz):
    """A counting cpu-clock event at hz (floor.c): hrtimer interrupts, no signal."""
    so = os.path.join(tmp, "floor.so")
    if not os.path.exists(so):
        sh(["gcc", "-O2", "-shared", "-fPIC", "-o", so, os.path.join(HERE, "floor.c")])
    return dict(os.environ, LD_PRELOAD=so, FLOOR_HZ=str(hz))


def interrupt_floor(binary, rounds, tmp, repeat):
    """The slowdown of the interrupts alone at 1 kHz."""
    env = floor_env(tmp, 1000)
    return ratio(lambda: wall([binary, str(rounds), "1"]),
                 lambda: wall([binary, str(rounds), "1"], env=env), repeat)


def per_sample_us(binary, rounds, env, hz, repeat):
    """CPU time added per sample, from interleaved pairs at a high rate, where
    the cost stands well out of a shared machine's noise (at 1 kHz it is
    about as large as the noise)."""
    costs = []
    for _ in range(repeat):
        a = wall([binary, str(rounds), "1"])
        b = wall([binary, str(rounds), "1"], env=env)
        costs.append((b - a) / (b * hz) * 1e6)
    return statistics.median(costs)


def benchlab_trace(bl, binary, rounds, threads, tmp):
    out = os.path.join(tmp, "bl.csv")
    r = sh([bl, "profile", "--mode", "trace", "-o", out, "--", binary, str(rounds),
            str(threads)])
    rows = [l.split(",") for l in open(out).read().splitlines()[1:]]
    total = {}
    calls = {}
    for name, c, self_ns, total_ns in rows:
        total[name] = float(total_ns)
        calls[name] = int(c)
    root = total.get("work", 0) * 1.0
    if threads == 1:
        root = total.get("main", root)
    m = re.search(r"tracer cost ([\d.]+) ns per call", r.stderr)
    w = re.search(r"waited for a CPU (\d+)%", r.stderr)
    return {f: 100 * total[f] / root for f in FUNCS if f in total}, calls, \
        float(m.group(1)) if m else float("nan"), int(w.group(1)) if w else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=3000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    bl = os.path.join(a.build, "bin", "benchlab")
    lib = os.path.join(a.build, "lib")
    tmp = tempfile.mkdtemp(prefix="benchlab-bench-profile.")
    T, R = a.threads, a.rounds
    exact_calls = {"hot_a": R * T, "mid_b": R * T, "leaf_c": R * T, "cold_d": R * T,
                   "many": R * T, "tiny": R * T * 3000}
    fp = build(os.path.join(tmp, "wl_fp"), ["-fno-omit-frame-pointer"])
    truth = callgrind_truth(fp, max(R // 20, 50), T, tmp)
    rows = []

    def err(shares):
        if not shares:
            return float("nan")
        return max(abs(shares.get(f, 0.0) - truth[f]) for f in truth)

    def run_plain(binary):
        return lambda: wall([binary, str(R), str(T)])

    # benchlab sample
    shares, delivered, slow, samples = benchlab_sample(bl, lib, fp, R, T, tmp, a.repeat)
    rows.append(["benchlab sample (1 kHz, FP)", err(shares), slow, "%.0f%%" % delivered, "-", "-",
                 shares])
    if T == 1:
        rows.append(["(floor: cpu-clock interrupts at 1 kHz, no signal)", float("nan"),
                     interrupt_floor(fp, R, tmp, a.repeat), "-", "-", "-", {}])
    # benchlab trace
    tr = build(os.path.join(tmp, "wl_tr"), ["-finstrument-functions"],
               ["-L" + lib, "-Wl,-rpath," + lib, "-lbenchlab-trace"])
    shares, calls, cost, waited = benchlab_trace(bl, tr, R, T, tmp)
    env = dict(os.environ, BENCHLAB_PROFILE_OUT=os.path.join(tmp, "t.raw"))
    slow = ratio(run_plain(fp), lambda: wall([tr, str(R), str(T)], env=env), a.repeat)
    n_calls = sum(exact_calls.values()) + 4 * R * T
    per_call = (slow - 1) * statistics.median([run_plain(fp)() for _ in range(3)]) / n_calls * 1e9
    exact = all(calls.get(f) == c for f, c in exact_calls.items())
    rows.append(["benchlab trace", err(shares), slow, "-", "%.1f ns (calibrated %.1f)" % (
        per_call, cost), "yes" if exact else "no", shares])
    # perf
    if shutil.which("perf"):
        for mode in ("fp", "dwarf"):
            try:
                shares = perf_shares(fp, R, T, tmp, mode)
                slow = ratio(run_plain(fp), lambda: wall(
                    ["perf", "record", "-q", "-F", "1000",
                     *(["-g"] if mode == "fp" else ["--call-graph", "dwarf"]),
                     "-o", os.path.join(tmp, "p2.data"), fp, str(R), str(T)]), a.repeat)
                rows.append(["perf record -F 1000 " + ("-g" if mode == "fp" else
                             "--call-graph dwarf"), err(shares), slow, "-", "-", "-", shares])
            except subprocess.CalledProcessError as e:
                rows.append(["perf (" + mode + ") failed: " + e.stderr.strip()[:60], float("nan"),
                             float("nan"), "-", "-", "-", {}])
    # gprof
    pg = build(os.path.join(tmp, "wl_pg"), ["-pg"])
    shares, calls = gprof_shares(pg, R, T, tmp)
    slow = ratio(run_plain(fp), lambda: wall([pg, str(R), str(T)], cwd=tmp), a.repeat)
    exact = all(calls.get(f) == c for f, c in exact_calls.items())
    rows.append(["gprof (-pg)", err(shares), slow, "-", "-", "yes" if exact else "no", shares])
    # uftrace
    if shutil.which("uftrace"):
        uf = build(os.path.join(tmp, "wl_uf"), ["-pg"])
        shares, calls = uftrace_shares(uf, R, T, tmp)
        slow = ratio(run_plain(fp), lambda: wall(["uftrace", "record", "-d",
                                                  os.path.join(tmp, "u2.data"), uf, str(R),
                                                  str(T)]), a.repeat)
        per_call = (slow - 1) * statistics.median([run_plain(fp)() for _ in range(3)]) / \
            n_calls * 1e9
        exact = all(calls.get(f) == c for f, c in exact_calls.items())
        rows.append(["uftrace record (-pg)", err(shares), slow, "-", "%.1f ns" % per_call,
                     "yes" if exact else "no", shares])
    else:
        rows.append(["uftrace: not installed", float("nan"), float("nan"), "-", "-", "-", {}])

    print("workload: %d rounds x %d thread(s); truth = callgrind inclusive instructions; "
          "load average at the end %s" % (R, T, open("/proc/loadavg").read().split()[0]))
    print("truth: " + ", ".join("%s %.2f%%" % (f, truth[f]) for f in FUNCS if f in truth))
    print()
    print("| tool | max inclusive error (points) | slowdown | rate delivered | cost per call"
          " | exact calls |")
    print("|---|---|---|---|---|---|")
    for name, e, slow, rate, cost, exact, _ in rows:
        print("| %s | %.2f | %.3fx | %s | %s | %s |" % (name, e, slow, rate, cost, exact))
    print()
    for name, _, _, _, _, _, shares in rows:
        if shares:
            print("%-34s " % name + " ".join("%s=%.2f" % (f, shares.get(f, 0)) for f in FUNCS))
    # sampling error: a share p of n samples has a standard error of sqrt(p(1-p)/n)
    se = {f: 100 * (truth[f] / 100 * (1 - truth[f] / 100) / samples) ** 0.5 for f in truth} \
        if samples else {}
    if se:
        print()
        print("benchlab sample: %d samples; standard error of each share: " % samples +
              " ".join("%s %.2f" % (f, se[f]) for f in FUNCS if f in se) +
              "; errors in standard errors: " +
              " ".join("%s %.1f" % (f, abs(rows[0][6].get(f, 0) - truth[f]) / se[f])
                       for f in FUNCS if f in se and se[f] > 0))
    print("benchlab trace: the threads waited for a CPU %d%% of their time (schedstat)" % waited)
    if T == 1:
        hz = 10000
        env = dict(os.environ, LD_PRELOAD=os.path.join(lib, "libbenchlab-sampler.so"),
                   BENCHLAB_PROFILE_OUT=os.path.join(tmp, "y.raw"), BENCHLAB_PROFILE_HZ=str(hz))
        ours = per_sample_us(fp, max(R // 4, 100), env, hz, a.repeat)
        floor = per_sample_us(fp, max(R // 4, 100), floor_env(tmp, hz), hz, a.repeat)
        print("per sample, measured at 10 kHz: benchlab sampler %.1f us, the cpu-clock interrupt "
              "alone %.1f us: at 1 kHz %.2f%% and %.2f%% of CPU time" %
              (ours, floor, ours / 10, floor / 10))
    # start-up and tear-down: a trivial program, plain against preloaded, and the whole CLI
    true_bin = shutil.which("true")
    env = dict(os.environ, LD_PRELOAD=os.path.join(lib, "libbenchlab-sampler.so"),
               BENCHLAB_PROFILE_OUT=os.path.join(tmp, "true.raw"))
    plain = statistics.median([elapsed([true_bin]) for _ in range(20)])
    pre = statistics.median([elapsed([true_bin], env=env) for _ in range(20)])
    short = statistics.median([elapsed([fp, "30", "1"]) for _ in range(10)])
    cli = statistics.median([elapsed([bl, "profile", "-o", os.path.join(tmp, "t.folded"), "--",
                                   fp, "30", "1"]) for _ in range(10)])
    print()
    print("start-up + tear-down: preloaded sampler adds %.1f ms to `true` (%.1f ms plain); "
          "`benchlab profile` of a 30-round workload, symbolization included, adds %.1f ms "
          "(%.1f ms plain)" % ((pre - plain) * 1e3, plain * 1e3, (cli - short) * 1e3,
                               short * 1e3))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
