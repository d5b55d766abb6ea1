#!/usr/bin/env python3
"""static_check.py SRC BUILD - internal functions that only their own file calls.

A library-internal function (bl__ prefix) that no other file calls is one
file's business: it belongs `static` in that file, out of the headers, so
that a reader sees at once that nothing else depends on it. This reads the
object files of BUILD with nm: every global bl__ symbol defined in an
object (T, D, B, R: code or data) must be referenced (U) by some object
that does not define it, or be named in a public header under
SRC/include (an inline function or macro there calls it from the users'
code), or be in ALLOWED. Prints every offender with the object that
defines it; exit 1 when there is one.

Objects compiled twice (base/escape.c is built into libbenchlab and
libbenchlab-profile) define a symbol twice; a reference from any object
that does not define it counts.
"""
import os
import re
import subprocess
import sys

# name: why it is global though one file calls it. Keep this short.
ALLOWED = {
    "bl__ref_chain": "the reference loop (bench/refchain.c) is measured: global and noinline, so "
    "that no caller's constants are propagated or cloned into the code it times",
}


def objects(build):
    for root, dirs, files in os.walk(build):
        # the fuzzers' external project is built with another compiler and flags
        dirs[:] = [d for d in dirs if d not in ("soak", "Testing")]
        for f in files:
            if f.endswith(".o"):
                yield os.path.join(root, f)


def nm(path, *flags):
    out = subprocess.run(["nm", *flags, path], capture_output=True, text=True)
    return out.stdout.splitlines() if out.returncode == 0 else []


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    src, build = sys.argv[1], sys.argv[2]
    defined = {}  # name -> set of objects
    used = {}  # name -> set of objects
    n_obj = 0
    for o in objects(build):
        n_obj += 1
        for line in nm(o, "-g", "--defined-only"):
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR" and parts[2].startswith("bl__"):
                defined.setdefault(parts[2], set()).add(o)
        for line in nm(o, "-u"):
            parts = line.split()
            if parts and parts[-1].startswith("bl__"):
                used.setdefault(parts[-1], set()).add(o)
    if n_obj == 0 or not defined:
        print("static_check: no objects with bl__ symbols under %s: build first" % build,
              file=sys.stderr)
        return 2
    public = set()
    for root, _, files in os.walk(os.path.join(src, "include")):
        for f in files:
            with open(os.path.join(root, f), errors="replace") as fh:
                public.update(re.findall(r"\bbl__\w+", fh.read()))
    bad = []
    for name, where in sorted(defined.items()):
        if name in public or name in ALLOWED:
            continue
        if any(o not in where for o in used.get(name, ())):
            continue
        bad.append((name, sorted(where)[0]))
    for name, o in bad:
        print("%s: defined in %s and called from no other file: make it static there"
              % (name, os.path.relpath(o, build)))
    if bad:
        print("%d internal function(s) that should be static (of %d bl__ symbols in %d objects)"
              % (len(bad), len(defined), n_obj))
        return 1
    print("every global bl__ symbol (%d, in %d objects) is used by another file" %
          (len(defined), n_obj))
    return 0


if __name__ == "__main__":
    sys.exit(main())
