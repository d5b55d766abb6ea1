#!/bin/sh
# pg.sh COMMAND... - run COMMAND against a PostgreSQL server of its own.
#
# Creates a cluster (initdb) in a temporary directory with Debian's
# postgresql package, starts it on a free port of 127.0.0.1 (and a unix
# socket in the directory), runs COMMAND with BENCHLAB_TEST_PG set to
# postgresql://bl@127.0.0.1:PORT (trust authentication, superuser "bl"),
# and stops the server and removes everything at exit, whatever happens.
# PostgreSQL refuses to run as root: as root the server runs as the
# package's `postgres` user.
set -eu

bindir=$(pg_config --bindir 2>/dev/null || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "pg.sh: no PostgreSQL server found: install the postgresql package" >&2
    exit 1
fi

tmp=$(mktemp -d /tmp/benchlab-pg.XXXXXX)
as_server=""
if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
        echo "pg.sh: running as root and there is no postgres user to run the server" >&2
        exit 1
    fi
    chown postgres "$tmp"
    as_server="runuser -u postgres --"
fi
started=0
cleanup() {
    if [ "$started" = 1 ]; then
        $as_server "$bindir/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

$as_server "$bindir/initdb" -D "$tmp/data" -U bl --auth=trust -E UTF8 --locale=C \
    --no-sync >"$tmp/initdb.log" 2>&1 || { cat "$tmp/initdb.log" >&2; exit 1; }

# A free port: ask the kernel for one, then hand it to the server. Another
# process could take it in between; then the server fails and we retry.
for attempt in 1 2 3 4 5; do
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if $as_server "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 \
        -o "-p $port -k $tmp -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=50" \
        start >/dev/null 2>&1; then
        started=1
        break
    fi
done
if [ "$started" != 1 ]; then
    echo "pg.sh: the PostgreSQL server did not start:" >&2
    cat "$tmp/server.log" >&2
    exit 1
fi

export BENCHLAB_TEST_PG="postgresql://bl@127.0.0.1:$port"
"$@"
