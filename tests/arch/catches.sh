#!/bin/sh
# catches.sh SRC OBJDIR - the graph check fails on an edge the document does
# not allow: the same check against docs/ARCHITECTURE.md with bench's
# edges narrowed to base alone must name bench -> instruments.
set -u
src=$1 objdir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^bench *->.*/bench -> base/' "$src/docs/ARCHITECTURE.md" >"$tmp/arch.md"
grep -q '^bench -> base$' "$tmp/arch.md" || { echo "FAIL: no bench line to narrow"; exit 1; }
if python3 "$src/tests/arch/module_graph.py" "$src" "$objdir" --check "$tmp/arch.md" >"$tmp/out"; then
    cat "$tmp/out"; echo "FAIL: a forbidden edge passed"; exit 1
fi
grep -q '^FAIL: edge bench -> instruments is not allowed' "$tmp/out" ||
    { cat "$tmp/out"; echo "FAIL: the edge is not named"; exit 1; }
exit 0
