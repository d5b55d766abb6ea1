#!/bin/sh
# cli_all.sh BINDIR CASE... - run cli.sh's cases one after the other (on
# the one PostgreSQL server pg.sh started); fails when any case fails.
bin=$1
shift
here=$(dirname "$0")
failed=0
for c in "$@"; do
    sh "$here/cli.sh" "$c" "$bin" || failed=1
done
exit $failed
