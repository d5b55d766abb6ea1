#!/bin/sh
# realprogs.sh [BUILD_DIR] - benchlab profile against perf record --call-graph dwarf on
# programs nobody here wrote: zlib's minigzip, lz4 and xz, built from source with
# -O2 -g -fomit-frame-pointer (as distributions build), and Debian's own python3
# (libc's names come from libc6-dbg when it is installed). Sources: $ZLIB_SRC, $LZ4_SRC,
# $XZ_SRC (checkouts), else cloned from GitHub into $WORK (default a temporary
# directory; never into this repository). Prints the tables of README.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
[ -x "$build/bin/benchlab" ] || { echo "realprogs: build first ($build/bin/benchlab)" >&2; exit 2; }
command -v perf >/dev/null || { echo "realprogs: perf is needed (linux-perf)" >&2; exit 2; }
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/benchlab-realprogs.XXXXXX")}
flags="-O2 -g -fomit-frame-pointer"
src() { # NAME REPO VAR
    eval "dir=\${$3:-}"
    if [ -z "$dir" ]; then
        dir=$work/$1
        [ -d "$dir" ] || git clone -q --depth 1 "https://github.com/$2" "$dir"
    fi
    echo "$dir"
}
zlib=$(src zlib madler/zlib ZLIB_SRC)
lz4=$(src lz4 lz4/lz4 LZ4_SRC)
xz=$(src xz tukaani-project/xz XZ_SRC)
(cd "$zlib" && CFLAGS=$flags ./configure --static >/dev/null && make -s minigzip >/dev/null)
make -s -C "$lz4/programs" lz4 CFLAGS="$flags" >/dev/null
cmake -S "$xz" -B "$work/xz-build" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="$flags" \
    >/dev/null
cmake --build "$work/xz-build" --target xz >/dev/null
for p in "$zlib/minigzip" "$lz4/programs/lz4" "$work/xz-build/xz"; do
    echo "$p: $(git -C "$(dirname "$p")" log -1 --format='%h %cs' 2>/dev/null || echo '?'),"\
        "$(objdump -d "$p" | grep -c 'mov  *%rsp,%rbp') functions with a frame pointer" >&2
done
# input: real text, the same bytes for every tool (the first 24 MB of a tar of /usr/include)
[ -s "$work/input.tar" ] || tar cf - /usr/include 2>/dev/null | head -c 24000000 >"$work/input.tar"
head -c 6000000 "$work/input.tar" >"$work/input6.tar"
python3 "$here/realprogs.py" "$build" --repeat "${REPEAT:-3}" \
    "minigzip -9=$zlib/minigzip -9 < $work/input.tar" \
    "lz4 -9=$lz4/programs/lz4 -9 -c $work/input.tar" \
    "xz -6=$work/xz-build/xz -6 -c -T1 $work/input6.tar" \
    "python3 (Debian's)=python3 -c 'sum(len(str(i * i)) for i in range(12000000))'"
