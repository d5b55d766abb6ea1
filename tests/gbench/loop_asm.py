#!/usr/bin/env python3
"""loop_asm.py EXE FUNC [FUNC...]: the machine code of each function's hot loop.

What an empty benchmark body costs beyond the loop the engine subtracts is
decided by its machine code, not by a time (a time of a fraction of a
nanosecond also depends on where the linker placed the loop: issue 25).
For each FUNC (a symbol as `objdump -d -C` names it: a prefix up to the
first '(' or '.', so a C++ function is named without its parameters; a
.cold part gcc splits off is not the loop) this prints the innermost loop:
the shortest run of instructions from a backward jump's target to that
jump. An instruction is shown by its mnemonic alone (registers, addresses
and jump targets differ between two copies of the same loop).

  --same A B    fail unless the loops of A and B are the same sequence of
                instructions (the body's loop is the overhead loop)
  --no-call F   fail if the loop of F calls anything (an out-of-line
                KeepRunningBatch was a call each repetition)

Prints one line per function: NAME: N instructions: mnemonic mnemonic...
and on failure one line saying what was expected and what was found.
Used by tests/gbench/gbench.sh (loops-match-google-benchmark) and
tests/engine/e2e.sh (empty-body-is-near-zero).
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
    best = None
    for i, (addr, text) in enumerate(insns):
        m = JUMP.match(text)
        if not m:
            continue
        target = int(m.group(2), 16)
        if target > addr or target < insns[0][0]:
            continue
        body = [t for a, t in insns[: i + 1] if a >= target]
        if best is None or len(body) < len(best):
            best = body
    return best


def mnemonics(body):
    return [t.split()[0] for t in body]


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    exe = args.pop(0)
    funcs = functions(exe)
    same, no_call, names = [], [], []
    while args:
        a = args.pop(0)
        if a == "--same":
            same.append((args.pop(0), args.pop(0)))
        elif a == "--no-call":
            no_call.append(args.pop(0))
        else:
            names.append(a)
    wanted = names + [n for p in same for n in p] + no_call
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
    for n in no_call:
        calls = [t for t in loops[n] if t.startswith("call")]
        if calls:
            print("loop_asm: expected no call in the loop of %s, found %s" % (n, "; ".join(calls)))
            bad = 1
    sys.exit(bad)


main()
