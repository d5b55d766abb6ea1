#!/usr/bin/env python3
"""Every CTest of the build carries a known label (tests/CMakeLists.txt).

usage: labels_check.py BUILD_DIR LABEL...

`make check-fast` and the sanitizer pass choose tests by label, so a test
without one, or with a misspelt one, would silently run in fewer passes
than its author meant. Prints each offender on one line.
"""
import json
import subprocess
import sys


def main():
    build, known = sys.argv[1], set(sys.argv[2:])
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                         capture_output=True, text=True).stdout
    bad = []
    for test in json.loads(out)["tests"]:
        labels = []
        for prop in test.get("properties", []):
            if prop["name"] == "LABELS":
                labels = prop["value"]
        if not labels:
            bad.append(f"{test['name']}: no label (known: {' '.join(sorted(known))})")
        for label in labels:
            if label not in known:
                bad.append(f"{test['name']}: unknown label {label!r}")
    for line in bad:
        print(line)
    if bad:
        print(f"{len(bad)} test(s) without a known label: add LABELS in its CMakeLists.txt "
              "or '# ctest: LABEL' on its case line", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
