#!/bin/sh
# caller_env_listed.sh SRC - every BENCHLAB_ environment variable the sources
# name is in tests/support/caller_env.txt, so CTest removes it from every
# test's environment; and the removal works (this script runs under CTest:
# none of them is set here, even when the caller exported them).
src=$1
list="$src/tests/support/caller_env.txt"
status=0
for v in $(grep -rhoE '"BENCHLAB_[A-Z0-9_]+"' "$src/src" "$src/include" | tr -d '"' | sort -u); do
    grep -qx "$v" "$list" || { echo "FAIL: $v is read by the sources but not in $list"; status=1; }
done
for v in $(grep -E '^[A-Z]' "$list"); do
    if env | grep -q "^$v="; then
        echo "FAIL: $v is set in a test's environment (CTest should have removed it)"
        status=1
    fi
done
[ $status -eq 0 ] && echo "ok caller environment"
exit $status
