#!/usr/bin/env python3
"""bench/scaling/rusage.py - CPU time and peak memory of a command.

    rusage.py REPS OUT COMMAND [ARG...]

runs COMMAND REPS times (stdout to OUT, stderr to OUT.err) and prints one
line: the least user + system CPU seconds of the runs (to the microsecond,
from wait4's rusage, which the kernel scales to its nanosecond scheduler
clock: not /usr/bin/time's 10 ms rounding), the least wall seconds, the
least peak RSS in KiB, and the highest exit status. The least of a few
runs is the one the rest of the machine disturbed least.
"""
import os
import sys
import time


def once(argv, out):
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            err = os.open(out + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(err, 2)
            os.execvp(argv[0], argv)
        except OSError as e:
            os.write(2, f"{argv[0]}: {e}\n".encode())
        os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - start
    return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: rusage.py REPS OUT COMMAND [ARG...]\n")
        sys.exit(2)
    reps = int(sys.argv[1])
    runs = [once(sys.argv[3:], sys.argv[2]) for _ in range(reps)]
    print("%.6f %.6f %d %d" % (min(r[0] for r in runs), min(r[1] for r in runs),
                               min(r[2] for r in runs), max(abs(r[3]) for r in runs)))


if __name__ == "__main__":
    main()
