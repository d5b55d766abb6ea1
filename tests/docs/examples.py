#!/usr/bin/env python3
"""examples.py LIB SRC - compile the code examples of the docs as printed.

Every ```c block of docs/writing-benchmarks.md and README.md and every
```cpp block of docs/cpp.md is compiled with -Wall -Wextra -Wpedantic
-Werror: C as C17, C++ as C++17 and C++20, with gcc and, when installed,
clang. A fragment is completed only where it leaves something out:
a BENCHLAB(...) printed without its body gets an empty loop, statements
printed alone go inside one, and what the examples call without defining
it is declared in context.h. #line makes an error name the doc's line.
A block with BENCHLAB_MAIN() is a whole program: it is linked with LIB
(libbenchlab.a; "-" to skip) and its --list must name its benchmarks.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

lib, src = sys.argv[1], sys.argv[2]
outdir = tempfile.mkdtemp(prefix="docs-examples.")
here = os.path.dirname(os.path.abspath(__file__))
DOCS = [("README.md", "c"), ("docs/writing-benchmarks.md", "c"), ("docs/cpp.md", "cpp")]
WARN = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]
BODY = "\n{\n    while (bl_loop(st)) {\n    }\n}\n"


def compilers(lang):
    names = ["cc", "clang"] if lang == "c" else ["c++", "clang++"]
    return [n for n in names if shutil.which(n)]


def strip_comments(code):
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", code, flags=re.S)


def complete(code):
    """The block as a translation unit, completed where the doc elides."""
    bare = strip_comments(code)
    if "BENCHLAB(" not in bare and not re.search(r"^static ", bare, re.M):
        return "BENCHLAB(Doc_statements)\n{\n    while (bl_loop(st)) {\n    }\n" + code + "}\n", 5
    # the last BENCHLAB(...): is a body printed after its closing parenthesis?
    start = bare.rindex("BENCHLAB(") + len("BENCHLAB(")
    depth, i = 1, start
    while depth and i < len(bare):
        depth += {"(": 1, ")": -1}.get(bare[i], 0)
        i += 1
    if "{" not in bare[i:]:
        return code + BODY, 1
    return code, 1


failures = []
count = 0
for doc, lang in DOCS:
    text = open(os.path.join(src, doc)).read()
    # fences may be indented (a block inside a list item): the code is dedented
    for m in re.finditer(r"^( *)```" + lang + r"\n(.*?)^\1```", text, re.S | re.M):
        line = text.count("\n", 0, m.start()) + 2  # the block's first line
        code = re.sub(r"^" + m.group(1), "", m.group(2), flags=re.M)
        if re.search(r"^\s*\.\.\.\s*$", code, re.M):
            failures.append(f"{doc}:{line}: a '...' line: the example cannot be compiled")
            continue
        whole = "BENCHLAB_MAIN" in code
        tu, skip = (code, 1) if whole else complete(code)
        header = "" if whole else '#include "context.h"\n'
        # #line: the block's lines are the doc's; a wrapper's own first lines come before
        body = f'#line {line - (skip - 1)} "{doc}"\n' + tu
        ext = "c" if lang == "c" else "cpp"
        base = os.path.join(outdir, f"{os.path.basename(doc)}.{line}")
        with open(f"{base}.{ext}", "w") as f:
            f.write(header + body)
        stds = ["c17"] if lang == "c" else ["c++17", "c++20"]
        for cxx in compilers(lang):
            for std in stds:
                count += 1
                exe = f"{base}.{cxx}.{std}"
                cmd = [cxx, f"-std={std}", "-O2", *WARN, "-I", os.path.join(src, "include"),
                       "-I", here, f"{base}.{ext}"]
                if whole and lib != "-":
                    cmd += [lib, "-lm", "-lpthread", "-o", exe]
                else:
                    cmd += ["-c", "-o", exe + ".o"]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    failures.append(f"{doc}:{line}: {cxx} -std={std}:\n{r.stderr}")
                    continue
                if whole and lib != "-":
                    r = subprocess.run([exe, "--list"], capture_output=True, text=True)
                    if r.returncode or not re.search(r"^Benchmark", r.stdout, re.M):
                        failures.append(f"{doc}:{line}: {exe} --list: status {r.returncode}\n"
                                        f"{r.stdout}{r.stderr}")
shutil.rmtree(outdir)
for f in failures:
    print("FAIL", f)
print(f"{count} compilations, {len(failures)} failures")
sys.exit(1 if failures or count == 0 else 0)
