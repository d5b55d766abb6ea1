#!/bin/sh
# run_case.sh BENCHLAB CASES_DIR DATA_DIR NAME [--update]
#
# Golden test of `benchlab compare`: runs the arguments in NAME.args (one
# shell-quoted line; stdin comes from NAME.stdin when present) in DATA_DIR
# and compares stdout, stderr and the exit status with NAME.stdout,
# NAME.stderr and NAME.status byte for byte. --update rewrites them.
set -u
bin=$1 name=$4 update=${5:-}
cases=$(cd "$2" && pwd) && data=$(cd "$3" && pwd) || exit 2
args_file=$cases/$name.args
[ -f "$args_file" ] || { echo "no such case: $args_file" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
args=$(cat "$args_file")
stdin=/dev/null
[ -f "$cases/$name.stdin" ] && stdin=$cases/$name.stdin
(cd "$data" && eval "set -- $args" && "$bin" compare "$@" <"$stdin" >"$tmp/stdout" 2>"$tmp/stderr")
echo $? >"$tmp/status"
if [ "$update" = --update ]; then
    cp "$tmp/stdout" "$cases/$name.stdout"
    cp "$tmp/stderr" "$cases/$name.stderr"
    cp "$tmp/status" "$cases/$name.status"
    exit 0
fi
fail=0
for f in stdout stderr status; do
    if ! cmp -s "$tmp/$f" "$cases/$name.$f"; then
        echo "--- $name.$f differs (expected, got):"
        diff "$cases/$name.$f" "$tmp/$f" | head -40
        fail=1
    fi
done
exit $fail
