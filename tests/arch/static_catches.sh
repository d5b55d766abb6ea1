#!/bin/sh
# static_catches.sh SRC - the static check names what only its own file
# calls, and only that: in a made-up build, bl__lonely (defined in a.o,
# called from nowhere else) and bl__self (called only inside a.o) must fail
# it by name; bl__shared (called from b.o), bl__inline_user (named in a
# public header) and a static function must not. With the offenders gone,
# the check passes.
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build/obj" "$tmp/src/include/benchlab"
fail() { echo "FAIL (static-check-catches): $*"; exit 1; }
cat >"$tmp/a.c" <<'C'
int bl__lonely(void) { return 1; }
int bl__self(void) { return 2; }
int bl__shared(void) { return bl__self() + 3; }
int bl__inline_user(void) { return 4; }
static int helper(void) { return 5; }
int bl__keep(void) { return helper(); }
C
cat >"$tmp/b.c" <<'C'
int bl__shared(void);
int bl__keep(void);
int user(void) { return bl__shared() + bl__keep(); }
C
echo 'static inline int bl_public(void) { int bl__inline_user(void); return bl__inline_user(); }' \
    >"$tmp/src/include/benchlab/h.h"
cc -c -o "$tmp/build/obj/a.o" "$tmp/a.c" && cc -c -o "$tmp/build/obj/b.o" "$tmp/b.c" ||
    fail "cannot compile the made-up tree"
python3 "$src/tests/arch/static_check.py" "$tmp/src" "$tmp/build" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "offenders passed (exit $rc): $(cat "$tmp/out")"
for f in bl__lonely bl__self; do
    grep -q "^$f: defined in obj/a.o" "$tmp/out" || fail "$f not named: $(cat "$tmp/out")"
done
for f in bl__shared bl__inline_user bl__keep helper; do
    grep -q "^$f:" "$tmp/out" && fail "$f named though another file uses it"
done
# the offenders made static: it passes
sed -i 's/^int bl__lonely/static int bl__lonely/; s/^int bl__self/static int bl__self/' "$tmp/a.c"
cc -c -o "$tmp/build/obj/a.o" "$tmp/a.c" 2>/dev/null || fail "cannot compile the mended tree"
python3 "$src/tests/arch/static_check.py" "$tmp/src" "$tmp/build" >"$tmp/out" 2>&1 ||
    fail "the mended tree fails: $(cat "$tmp/out")"
echo "ok: the static check names bl__lonely and bl__self, and passes once they are static"
