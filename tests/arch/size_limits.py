#!/usr/bin/env python3
"""size_limits.py SRC [--max-file-lines N] [--max-function-lines N] - rooms that grew too big.

Fails on any C or C++ source file under src/ and include/ longer than
--max-file-lines (1,000) lines, and on any function in them longer than
--max-function-lines (150) lines, counted from the line of its opening
brace to the line of its closing brace (the body; in this tree's style the
opening brace of a function has its own line). Prints every offender with
its size.

The functions are found by a small scanner, not a compiler: comments,
string and character literals and preprocessor lines are blanked first;
then every brace at file, namespace, class or extern "C" level opens a
function body when the text since the previous ';', '{' or '}' ends in a
parameter list (and qualifiers) or has a constructor's initializer list
(measured, and skipped whole: lambdas and local blocks are the function's),
a scope when that text names a namespace, class, struct, union or enum or
is extern "C" (looked into, for C++ methods), and anything else, an
initializer after '=' among them, is skipped. Macros that expand to whole
functions are not seen; nothing in this tree defines functions that way.

ALLOWED lists the offenders tolerated for now, each with why and until when.
"""
import os
import re
import sys

EXTS = (".c", ".h", ".cc", ".cpp", ".hpp", ".cxx")
# Google Benchmark's own sources, if ever vendored, are not ours to split.
EXCLUDE = ("tests/gbench/google-benchmark",)

# (path, function): tolerated offenders. Keep this empty but for work in flight.
ALLOWED = set()


def blank(text):
    """Comments, literals and preprocessor lines as spaces; newlines kept."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # a directive, with its continuation lines
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:end]))
            i = end
            continue
        raw = re.match(r'R"([^()\\ ]{0,16})\(', text[i:i + 20])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + raw.group(1) + '"', i)
            end = n if end < 0 else end + len(raw.group(1)) + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:end]))
            i = end
            continue
        if c in "\"'":
            # a digit separator (1'000) is not a character literal
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
            continue
        if c == "\n":
            at_line_start = True
        out.append(c)
        i += 1
    return "".join(out)


def collapse(flat):
    """The header with every parenthesized group emptied: f(int x = 1) -> f()."""
    prev = None
    while prev != flat:
        prev = flat
        flat = re.sub(r"\([^()]*\)", "()", flat)
    return flat


FUNCTION_END = re.compile(r"\)\s*(const|volatile|noexcept(\(\))?|override|final|&&?|"
                          r"__attribute__\(\)|->\s*[\w:<>,*&\s]+|\s)*$")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b|\bextern\s*$")


def skip_block(s, i):
    """Index of the brace that closes the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(s) - 1


def function_name(flat):
    """The identifier before the parameter list (A::b, operator== included)."""
    head = flat[:flat.index("(")] if "(" in flat else flat
    hit = re.search(r"(operator\s*\S+|[A-Za-z_~][\w:~]*)\s*$", head)
    return hit.group(1) if hit else "?"


def functions(text):
    """(name, line of the opening brace, line of the closing one) of every
    function defined in text."""
    s = blank(text)
    found = []
    i, n = 0, len(s)
    header_start = 0  # where the text since the last ; { } at this level begins
    while i < n:
        c = s[i]
        if c in ";}":
            header_start = i + 1
        elif c == "{":
            flat = collapse(" ".join(s[header_start:i].split()))
            if FUNCTION_END.search(flat) or re.search(r"\)\s*:[^:]", flat):
                end = skip_block(s, i)
                found.append((function_name(flat), s.count("\n", 0, i) + 1,
                              s.count("\n", 0, end) + 1))
                i = end
            elif "=" in flat.replace("==", "") or not SCOPE.search(flat):
                i = skip_block(s, i)  # an initializer, or nothing we look into
            # else: namespace, class, struct, extern "C": look inside
            header_start = i + 1
        i += 1
    return found


def main():
    args = sys.argv[1:]
    max_file, max_fn = 1000, 150
    if "--max-file-lines" in args:
        k = args.index("--max-file-lines")
        max_file = int(args[k + 1])
        del args[k:k + 2]
    if "--max-function-lines" in args:
        k = args.index("--max-function-lines")
        max_fn = int(args[k + 1])
        del args[k:k + 2]
    (src,) = args
    bad = []
    allowed_seen = set()
    n_files = n_functions = 0
    for top in ("src", "include"):
        for root, dirs, files in os.walk(os.path.join(src, top)):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, src)
                if not name.endswith(EXTS) or rel.startswith(EXCLUDE):
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                n_files += 1
                lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
                if lines > max_file:
                    bad.append(f"{rel}: {lines} lines (at most {max_file})")
                for fn, first, last in functions(text):
                    n_functions += 1
                    length = last - first + 1
                    if length <= max_fn:
                        continue
                    if (rel, fn) in ALLOWED:
                        allowed_seen.add((rel, fn))
                        print(f"allowed for now: {rel}:{first}: {fn}, {length} lines")
                        continue
                    bad.append(f"{rel}:{first}: function {fn}: {length} lines (at most {max_fn})")
    for rel, fn in sorted(ALLOWED - allowed_seen):
        print(f"note: the allowed {rel}: {fn} is no longer too long: remove it from ALLOWED")
    for b in bad:
        print("FAIL: " + b)
    print(f"{n_files} files, {n_functions} functions: " +
          ("FAIL" if bad else f"ok: no file over {max_file} lines, no function over {max_fn}"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
