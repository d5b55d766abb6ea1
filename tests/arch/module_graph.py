#!/usr/bin/env python3
"""module_graph.py SRC OBJDIR [--check ARCHITECTURE.md] - the module graph of libbenchlab.

Builds the graph of src/lib's modules (its subdirectories) from two sources:
  includes: a file of module M that includes "../X/..." uses X;
  calls:    an object file of module M that needs a symbol an object file of
            module X defines (nm) uses X.
Also checks that src/cli includes only the public headers and front.h.
Prints every edge with what makes it (a few examples), then, with --check,
compares the graph with the allowed edges stated in docs/ARCHITECTURE.md
(the lines "M -> A, B" of its ```arch``` block) and fails on any edge not
allowed and on any cycle.
"""
import os
import re
import subprocess
import sys


def modules(src):
    lib = os.path.join(src, "src", "lib")
    return sorted(d for d in os.listdir(lib) if os.path.isdir(os.path.join(lib, d)))


def include_edges(src, mods):
    edges = {}
    lib = os.path.join(src, "src", "lib")
    pat = re.compile(r'^\s*#\s*include\s+"\.\./([a-z_]+)/')
    for m in mods:
        for name in sorted(os.listdir(os.path.join(lib, m))):
            if not name.endswith((".c", ".h")):
                continue
            with open(os.path.join(lib, m, name), encoding="utf-8") as f:
                for line in f:
                    hit = pat.match(line)
                    if hit and hit.group(1) != m and hit.group(1) in mods:
                        edges.setdefault((m, hit.group(1)), []).append(f"{m}/{name} includes ../{hit.group(1)}/")
    return edges


def nm(path):
    out = subprocess.run(["nm", "--defined-only", "-g", path], capture_output=True, text=True).stdout
    defined = {l.split()[-1] for l in out.splitlines() if len(l.split()) == 3}
    out = subprocess.run(["nm", "-u", path], capture_output=True, text=True).stdout
    undefined = {l.split()[-1] for l in out.splitlines() if l.split()}
    return defined, undefined


def call_edges(src, objdir, mods):
    """The object of each source file now in src/lib (a stale object of a
    moved file must not count)."""
    owner, needs = {}, {}
    for m in mods:
        for name in sorted(os.listdir(os.path.join(src, "src", "lib", m))):
            if not name.endswith(".c"):
                continue
            obj = os.path.join(objdir, m, name + ".o")
            if not os.path.exists(obj):
                sys.exit(f"no object {obj}: build first")
            defined, undefined = nm(obj)
            for s in defined:
                owner[s] = m
            needs[(m, name)] = undefined
    edges = {}
    for (m, obj), undefined in needs.items():
        for s in sorted(undefined):
            x = owner.get(s)
            if x and x != m:
                edges.setdefault((m, x), []).append(f"{m}/{obj} calls {s} ({x})")
    return edges


def cli_includes(src):
    """src/cli reads the library through the public headers and front.h only."""
    bad = []
    cli = os.path.join(src, "src", "cli")
    ok = re.compile(r'^(benchlab\.h|benchlab/[a-z_]+\.h|cli\.h|front\.h)$')
    for name in sorted(os.listdir(cli)):
        if name.endswith((".c", ".h")):
            with open(os.path.join(cli, name), encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    hit = re.match(r'^\s*#\s*include\s+"([^"]+)"', line)
                    if hit and not ok.match(hit.group(1)):
                        bad.append(f"src/cli/{name}:{n}: includes \"{hit.group(1)}\"")
    return bad


def allowed_edges(doc):
    text = open(doc, encoding="utf-8").read()
    block = re.search(r"```arch\n(.*?)```", text, re.S)
    if not block:
        sys.exit(f"{doc}: no ```arch block stating the allowed edges")
    allowed = {}
    for line in block.group(1).splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        m, _, rest = line.partition("->")
        allowed[m.strip()] = {x.strip() for x in rest.replace(",", " ").split() if x.strip()}
    return allowed


def cycles(graph):
    """Every elementary cycle's smallest witness, found by DFS from each node."""
    found = []
    seen = set()
    def dfs(start, node, path):
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                cyc = path + [start]
                key = frozenset(cyc)
                if key not in seen:
                    seen.add(key)
                    found.append(cyc)
            elif nxt not in path and nxt > start:
                dfs(start, nxt, path + [nxt])
    for n in sorted(graph):
        dfs(n, n, [n])
    return found


def main():
    args = sys.argv[1:]
    doc = None
    if "--check" in args:
        i = args.index("--check")
        doc = args[i + 1]
        del args[i:i + 2]
    src, objdir = args
    mods = modules(src)
    edges = include_edges(src, mods)
    for k, v in call_edges(src, objdir, mods).items():
        edges.setdefault(k, []).extend(v)
    graph = {}
    for (a, b) in edges:
        graph.setdefault(a, set()).add(b)
    print("module graph of src/lib (from #includes and calls):")
    for m in mods:
        print(f"  {m:12s} -> {', '.join(sorted(graph.get(m, ()))) or '(nothing)'}")
    bad = 0
    if doc:
        allowed = allowed_edges(doc)
        for m in mods:
            if m not in allowed:
                print(f"FAIL: module {m} is not in {doc}'s allowed edges")
                bad = 1
        for (a, b), why in sorted(edges.items()):
            if b not in allowed.get(a, set()):
                print(f"FAIL: edge {a} -> {b} is not allowed by {doc}:")
                for w in why[:5]:
                    print(f"    {w}")
                bad = 1
        for m, targets in sorted(allowed.items()):
            for t in sorted(targets):
                if t not in mods:
                    print(f"FAIL: {doc} allows {m} -> {t}, and there is no module {t}")
                    bad = 1
    for b in cli_includes(src):
        print(f"FAIL: {b} (src/cli: public headers and front.h only)")
        bad = 1
    for cyc in cycles(graph):
        print("FAIL: cycle " + " -> ".join(cyc))
        for a, b in zip(cyc, cyc[1:]):
            for w in edges[(a, b)][:2]:
                print(f"    {w}")
        bad = 1
    print("FAIL" if bad else "ok: every edge is allowed and there is no cycle")
    return bad


if __name__ == "__main__":
    sys.exit(main())
