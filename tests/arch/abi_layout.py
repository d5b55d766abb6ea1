#!/usr/bin/env python3
"""abi_layout.py SRC [--include DIR] [--record FILE] [--update]

The layouts that benchlab's shared libraries expose in their public
headers, against the record in tests/arch/abi-layout.txt (docs/abi.md):

  libbenchlab         every struct bl_* of include/benchlab.h and
                      include/benchlab/*.h (store.h and profile.h apart)
  libbenchlab-gbench  every class of include/benchlab-gbench/benchmark/
                      benchmark.h (State, Counter, Benchmark, Fixture, ...)
                      with its vtable, as clang lays them out
  libbenchlab-store   every struct bl_store* of include/benchlab/store.h

clang's own record layout dumps give each field's offset, each record's
size and alignment (-fdump-record-layouts) and the order of virtual
functions (-fdump-vtable-layouts). A library whose layouts differ from the
record fails unless its SOVERSION (top CMakeLists.txt) differs from the
recorded one too (new records beside unchanged old ones need only
--update: no older suite uses them): a suite built against the old headers would run with
the new library and read the wrong fields. --update writes the record, and
refuses to while a library's layout changed under the same SOVERSION.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

LIBS = (("libbenchlab", "BENCHLAB_SOVERSION"), ("libbenchlab-gbench", "BENCHLAB_GBENCH_SOVERSION"),
        ("libbenchlab-store", "BENCHLAB_STORE_SOVERSION"))


def soversions(src):
    text = open(os.path.join(src, "CMakeLists.txt")).read()
    out = {}
    for lib, var in LIBS:
        m = re.search(r"^set\(%s (\d+)\)" % var, text, re.M)
        if not m:
            sys.exit("FAIL: no set(%s N) in %s/CMakeLists.txt" % (var, src))
        out[lib] = int(m.group(1))
    return out


def run_clang(compiler, args, code, suffix):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "abi" + suffix)
        with open(path, "w") as f:
            f.write(code)
        p = subprocess.run([compiler] + args + ["-c", "-o", os.devnull, path],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("FAIL: %s could not compile the layout probe:\n%s" % (compiler, p.stderr))
        return p.stdout


def blocks(dump):
    """clang's dump cut into (first line, text) per record or vtable"""
    out = []
    parts = re.split(r"^\*\*\* Dumping AST Record Layout\n|^(?=Vtable for )|^(?=VTable indices for )",
                     dump, flags=re.M)
    for part in parts:
        part = part.strip("\n")
        if not part:
            continue
        lines = part.split("\n")
        if lines[0].startswith("Vtable for "):
            text = "\n".join(lines[:next((i for i, l in enumerate(lines) if not l.strip()),
                                         len(lines))])
            out.append((lines[0], text))
        elif lines[0].startswith("VTable indices"):
            continue  # the same order as the vtable's
        else:
            end = next((i for i, l in enumerate(lines) if "align=" in l and "]" in l), None)
            if end is None:
                end = next((i for i, l in enumerate(lines) if "nvalign=" in l), len(lines) - 1)
            else:
                while end + 1 < len(lines) and lines[end + 1].lstrip().startswith("|"):
                    end += 1
            out.append((lines[0], "\n".join(lines[:end + 1])))
    return out


def tidy(text):
    # where an unnamed member is declared moves with every edit of the header
    return re.sub(r"\((unnamed|anonymous) (struct |union )?at [^)]*\)", r"(\1)", text)


def c_layouts(cc, include, headers, keep):
    code = "".join('#include "%s"\n' % h for h in headers)
    dump = run_clang(cc, ["-x", "c", "-std=c17", "-I", include, "-Xclang",
                          "-fdump-record-layouts-complete"], code, ".c")
    seen, out = set(), []
    for first, text in blocks(dump):
        m = re.match(r"^\s*0 \| (struct|union) (\w+)", first)
        if m and keep(m.group(2)) and m.group(2) not in seen:
            seen.add(m.group(2))
            out.append(tidy(text))
    return sorted(out)


def gbench_classes(header):
    """(qualified name, polymorphic base?) of every class the header defines
    outside a template: nested ones (indented) belong to the class above"""
    names, ns, top = [], ["benchmark"], None
    template = False
    for line in open(header):
        if re.match(r"^namespace internal\b", line):
            ns = ["benchmark", "internal"]
        elif re.match(r"^} // namespace internal", line):
            ns = ["benchmark"]
        m = re.match(r"^(\s*)(template\s*<[^>]*>\s*)?(class|struct)\s+(\w+)\s*(final\s*)?(:[^{;]*)?\s*(\{|$)",
                     line)
        if m and not m.group(2) and not template:
            if m.group(1):
                if top:
                    names.append(top + "::" + m.group(4))
            else:
                top = "::".join(ns + [m.group(4)])
                names.append(top)
        template = bool(re.match(r"^\s*template\s*<.*>\s*$", line))
    return names


def gbench_layouts(cxx, include):
    header = os.path.join(include, "benchlab-gbench", "benchmark", "benchmark.h")
    names = gbench_classes(header)
    code = ["#include <benchmark/benchmark.h>", "namespace bl_abi {", "unsigned long sizes[] = {"]
    code += ["    sizeof(%s)," % n for n in names]
    code += ["};",
             # a Fixture made: its vtable (and its bases') is laid out
             "struct F final : benchmark::Fixture {",
             "    void BenchmarkCase(benchmark::State &) override {}", "};",
             "benchmark::Fixture *make() { return new F; }", "}", ""]
    dump = run_clang(cxx, ["-x", "c++", "-std=c++17", "-I", os.path.join(include, "benchlab-gbench"),
                           "-I", include, "-Xclang", "-fdump-record-layouts", "-Xclang",
                           "-fdump-vtable-layouts"], "\n".join(code), ".cc")
    seen, out = set(), []
    for first, text in blocks(dump):
        m = re.match(r"^\s*0 \| (?:class|struct) (benchmark::[\w:]+)", first) or \
            re.match(r"^Vtable for '(benchmark::[\w:]+)'", first)
        if m and (first, m.group(1)) not in seen:
            seen.add((first, m.group(1)))
            out.append(tidy(text))
    missing = [n for n in names if not any(re.search(r"\| (class|struct) %s\b" % re.escape(n), t)
                                           for t in out)]
    if missing:
        sys.exit("FAIL: no layout for %s" % ", ".join(missing))
    return sorted(out)


def current(args):
    inc = args.include
    lib_headers = ["benchlab.h"] + sorted(
        "benchlab/" + h for h in os.listdir(os.path.join(inc, "benchlab"))
        if h.endswith(".h") and h not in ("store.h", "profile.h"))
    return {
        "libbenchlab": c_layouts(args.cc, inc, lib_headers,
                                 lambda n: n.startswith("bl_") and not n.startswith("bl_store")),
        "libbenchlab-gbench": gbench_layouts(args.cxx, inc),
        "libbenchlab-store": c_layouts(args.cc, inc, ["benchlab/store.h"],
                                       lambda n: n.startswith("bl_store")),
    }


def read_record(path):
    rec, lib = {}, None
    if not os.path.exists(path):
        return rec
    for line in open(path):
        m = re.match(r"^\[(\S+) soversion (\d+)\]$", line)
        if m:
            lib = m.group(1)
            rec[lib] = [int(m.group(2)), []]
        elif lib and not line.startswith("#"):
            rec[lib][1].append(line.rstrip("\n"))
    for lib in rec:
        rec[lib][1] = "\n".join(rec[lib][1]).strip("\n")
    return rec


def heads(text):
    return {b.split("\n")[0].strip(): b for b in text.split("\n\n") if b.strip()}


def first_difference(old, new):
    """the records that changed or went, by their first line"""
    o, n = heads(old), heads(new)
    changed = sorted(k for k in o if o.get(k) != n.get(k))
    return ", ".join(re.sub(r"^0 \| ", "", k) for k in changed[:6]) or "(order)"


def only_added(old, new):
    """every recorded layout is still there, unchanged: the new ones are
    records no older suite was built against, so the soname stands"""
    o, n = heads(old), heads(new)
    return all(n.get(k) == v for k, v in o.items())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--include")
    ap.add_argument("--record")
    ap.add_argument("--cc", default="clang")
    ap.add_argument("--cxx", default="clang++")
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    args.include = args.include or os.path.join(args.src, "include")
    args.record = args.record or os.path.join(args.src, "tests", "arch", "abi-layout.txt")
    sov = soversions(args.src)
    now = {lib: "\n\n".join(v) for lib, v in current(args).items()}
    rec = read_record(args.record)
    var = dict(LIBS)
    bad = 0
    for lib, _ in LIBS:
        if lib not in rec:
            if not args.update:
                print("FAIL: %s: no recorded layout in %s: run %s --update" %
                      (lib, args.record, sys.argv[0]))
                bad = 1
            continue
        old_sov, old = rec[lib]
        if old == now[lib] and old_sov == sov[lib]:
            continue
        if old != now[lib] and old_sov == sov[lib] and only_added(old, now[lib]):
            if not args.update:
                print("FAIL: %s: new public layouts (compatible: the old ones are unchanged): "
                      "record them with %s --update" % (lib, sys.argv[0]))
                bad = 1
            continue
        if old != now[lib] and old_sov == sov[lib]:
            print("FAIL: %s: public layout changed without a soname bump (%s): "
                  "bump %s in CMakeLists.txt (now %d), then %s --update" %
                  (lib, first_difference(old, now[lib]), var[lib], sov[lib], sys.argv[0]))
            bad = 1
        elif not args.update:
            print("FAIL: %s: %s is %d, the record's %d: record the layouts with %s --update" %
                  (lib, var[lib], sov[lib], old_sov, sys.argv[0]))
            bad = 1
    if bad:
        return 1
    if args.update:
        with open(args.record, "w") as f:
            f.write("# The public layouts of benchlab's shared libraries, per SOVERSION\n"
                    "# (docs/abi.md). Written by tests/arch/abi_layout.py --update; checked\n"
                    "# by the arch/abi-layout test. clang %s, %s.\n" %
                    (clang_version(args.cc), os.uname().machine))
            for lib, _ in LIBS:
                f.write("\n[%s soversion %d]\n%s\n" % (lib, sov[lib], now[lib]))
        print("recorded %s" % args.record)
    return 0


def clang_version(cc):
    out = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"version (\d+)", out)
    return m.group(1) if m else "?"


sys.exit(main())
