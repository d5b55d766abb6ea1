#!/bin/sh
# run.sh [BUILD_DIR] - the profiler comparison of bench/profile (see README.md there).
# Installs the comparison tools when run as root (valgrind, linux-perf, uftrace,
# binutils for gprof), then runs compare.py single- and multi-threaded.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
need=""
for t in valgrind:valgrind perf:linux-perf uftrace:uftrace gprof:binutils gcc:gcc python3:python3; do
    command -v "${t%%:*}" >/dev/null 2>&1 || need="$need ${t#*:}"
done
if [ -n "$need" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >&2
    else
        echo "bench/profile: missing$need (install as root); rows for them are skipped" >&2
    fi
fi
[ -x "$build/bin/benchlab" ] || { echo "bench/profile: build first ($build/bin/benchlab)" >&2; exit 2; }
echo "## single-threaded"
python3 "$here/compare.py" "$build" --rounds "${ROUNDS:-8000}" --threads 1 --repeat "${REPEAT:-5}"
echo
echo "## 2 threads"
python3 "$here/compare.py" "$build" --rounds "$(( ${ROUNDS:-8000} / 2 ))" --threads 2 --repeat "${REPEAT:-5}"
