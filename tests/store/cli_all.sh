#!/bin/sh
# cli_all.sh BINDIR - run every case of cli.sh one after the other (on the
# one PostgreSQL server pg.sh started); fails when any case fails. The
# cases are the lines "<case>)" of cli.sh's case statement, as
# tests/CMakeLists.txt's benchlab_script_cases finds them.
bin=$1
here=$(dirname "$0")
cases=$(sed -n 's/^\([a-z0-9][a-z0-9.-]*\)).*/\1/p' "$here/cli.sh")
[ -n "$cases" ] || { echo "cli_all.sh: no case found in $here/cli.sh" >&2; exit 1; }
failed=0
for c in $cases; do
    sh "$here/cli.sh" "$c" "$bin" || { echo "cli_all.sh: store-cli-pg case $c failed" >&2; failed=1; }
done
exit $failed
