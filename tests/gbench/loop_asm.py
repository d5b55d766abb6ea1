#!/usr/bin/env python3
r"""loop_asm.py EXE FUNC [FUNC...] [CHECKS]: the machine code of functions' hot loops.

What an empty benchmark body costs beyond the loop the engine subtracts is
decided by its machine code, not by a time (a time of a fraction of a
nanosecond also depends on where the linker placed the loop: issue 25).
FUNC is a symbol as `objdump -d -C` names it, up to the first '(' or '.':
a C++ function without its parameters, with its namespace
(benchmark::bl__gbench_overhead); a .cold part gcc splits off is not the
loop. Its hot loop is the shortest run of instructions from a backward
jump's target to that jump that calls nothing (a loop's slow path, the
call that starts the next batch, is a cycle too); when every cycle calls,
the shortest of them. An instruction is compared by its mnemonic alone:
registers, addresses and jump targets differ between copies of one loop.

  --same A B             fail unless the loops of A and B are the same
                         sequence of instructions (the body's loop is the
                         overhead loop)
  --extra A B N          fail if the loop of A has more than N instructions
                         beyond the loop of B
  --no-call F            fail if the loop of F calls anything (an out-of-line
                         KeepRunningBatch was a call each repetition)
  --at-least F REGEX N   fail unless N or more of the loop's instructions
                         match REGEX (searched in the whole instruction, AT&T
                         syntax: '^imul' a multiply, '^mov\s+%\w+,[^,]*\(' a
                         store)
  --at-most F REGEX N    fail if more than N of them match ('.' counts all)

Prints one line per function, NAME: N instructions: mnemonics..., and for
each failed check one line `loop_asm: expected ..., found ...`; exits 1 if
any failed. Used by tests/gbench/gbench.sh (loops-match-google-benchmark)
and tests/engine/e2e.sh (empty-body-is-near-zero, do-not-optimize-keeps-work).
"""
import re
import subprocess
import sys

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
HEAD = re.compile(r"^([0-9a-f]+) <(.*)>:$")
JUMP = re.compile(r"^(j[a-z]+|loop[a-z]*)\s+([0-9a-f]+)\b")


def functions(exe):
    out = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", exe], check=True,
                         capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = HEAD.match(line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = INSN.match(line)
        if m and cur is not None:
            text = m.group(2).strip()
            # "cs nopw ...", "rep ret", "notrack jmp": the prefix is not the operation
            words = text.split()
            while len(words) > 1 and words[0] in ("cs", "ds", "rep", "repz", "notrack", "bnd", "data16"):
                words = words[1:]
            cur.append((int(m.group(1), 16), " ".join(words)))
        elif not line.strip():
            cur = None
    return funcs


def find(funcs, name):
    hits = [f for f in funcs if re.split(r"[(.]", f, maxsplit=1)[0] == name]
    if not hits:
        sys.exit("loop_asm: %s: no function %s" % (sys.argv[1], name))
    return funcs[hits[0]]


def loop(insns):
    """The hot loop: the shortest cycle without a call, else the shortest."""
    best = {True: None, False: None}
    for i, (addr, text) in enumerate(insns):
        m = JUMP.match(text)
        if not m:
            continue
        target = int(m.group(2), 16)
        if target > addr or target < insns[0][0]:
            continue
        body = [t for a, t in insns[: i + 1] if a >= target]
        calls = any(t.startswith("call") for t in body)
        if best[calls] is None or len(body) < len(best[calls]):
            best[calls] = body
    return best[False] or best[True]


def mnemonics(body):
    return [t.split()[0] for t in body]


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    exe = args.pop(0)
    funcs = functions(exe)
    same, no_call, names, counts, extra = [], [], [], [], []
    while args:
        a = args.pop(0)
        if a == "--same":
            same.append((args.pop(0), args.pop(0)))
        elif a == "--no-call":
            no_call.append(args.pop(0))
        elif a == "--extra":
            extra.append((args.pop(0), args.pop(0), int(args.pop(0))))
        elif a in ("--at-least", "--at-most"):
            counts.append((a, args.pop(0), args.pop(0), int(args.pop(0))))
        else:
            names.append(a)
    wanted = names + [n for p in same for n in p] + no_call + [c[1] for c in counts] + [n for e in extra for n in e[:2]]
    loops = {}
    for n in dict.fromkeys(wanted):
        body = loop(find(funcs, n))
        if body is None:
            sys.exit("loop_asm: %s: expected a loop (a backward jump) in %s, found none" % (exe, n))
        loops[n] = body
        print("%s: %d instructions: %s" % (n, len(body), " ".join(mnemonics(body))))
    bad = 0
    for a, b in same:
        if mnemonics(loops[a]) != mnemonics(loops[b]):
            print("loop_asm: expected the loop of %s to be the loop of %s (%d instructions), found %d: %s"
                  % (a, b, len(loops[b]), len(loops[a]), " ".join(mnemonics(loops[a]))))
            bad = 1
    for a, b, n in extra:
        if len(loops[a]) > len(loops[b]) + n:
            print("loop_asm: expected the loop of %s to have at most %d instructions beyond the %d of %s's, "
                  "found %d: %s" % (a, n, len(loops[b]), b, len(loops[a]), " ".join(mnemonics(loops[a]))))
            bad = 1
    for n in no_call:
        calls = [t for t in loops[n] if t.startswith("call")]
        if calls:
            print("loop_asm: expected no call in the loop of %s, found %s" % (n, "; ".join(calls)))
            bad = 1
    for how, n, rx, want in counts:
        found = sum(1 for t in loops[n] if re.search(rx, t))
        if (found < want) if how == "--at-least" else (found > want):
            print("loop_asm: expected %s %d instructions /%s/ in the loop of %s, found %d"
                  % (how[2:].replace("-", " "), want, rx, n, found))
            bad = 1
    sys.exit(bad)


main()
