#!/bin/sh
# cli.sh CASE BINDIR - end-to-end tests of the store from the command line:
# run --save (the benchlab command and a suite's own main), bad stores,
# history, compare @refs, baselines, judge, shards and merge. Checks are
# structural (counts, names, verdicts of runs made 4x slower on purpose);
# none depends on how fast the machine is. With BENCHLAB_TEST_PG set (by
# pg.sh), the store is a fresh PostgreSQL database instead of a file.
set -u
case_name=$1
bin=$2
tmp=$(mktemp -d)
cli="$bin/benchlab"
suite="$bin/fixture_store"
cd "$tmp" || exit 1
unset BENCHLAB_STORE
if [ -n "${BENCHLAB_TEST_PG:-}" ]; then
    db="bl_cli_$$"
    psql -q "$BENCHLAB_TEST_PG/postgres" -c "CREATE DATABASE $db" >/dev/null || exit 1
    store="$BENCHLAB_TEST_PG/$db"
    trap 'psql -q "$BENCHLAB_TEST_PG/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null; rm -rf "$tmp"' EXIT
else
    store="$tmp/store/results.db"
    trap 'rm -rf "$tmp"' EXIT
fi
quick="--time 0.05s --no-table"

fail() {
    echo "FAIL [$case_name]: $*"
    echo "--- stdout"; cat "$tmp/out" 2>/dev/null
    echo "--- stderr"; cat "$tmp/err" 2>/dev/null
    exit 1
}
run() { # run CMD... ; status in $st
    "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
}
expect_status() { [ "$st" -eq "$1" ] || fail "exit status $st, want $1"; }
out_has() { grep -q -- "$1" "$tmp/out" || fail "stdout lacks /$1/"; }
out_lacks() { ! grep -q -- "$1" "$tmp/out" || fail "stdout has /$1/"; }
err_has() { grep -q -- "$1" "$tmp/err" || fail "stderr lacks /$1/"; }
err_lacks() { ! grep -q -- "$1" "$tmp/err" || fail "stderr has /$1/"; }
sql() { # one value from the store
    if [ -n "${BENCHLAB_TEST_PG:-}" ]; then
        psql -qtA "$store" -c "$1"
    else
        sqlite3 "$store" "$1"
    fi
}

case $case_name in
run-save-command-and-suite)
    run "$cli" run "$suite" $quick --save --store "$store"
    expect_status 0
    out_has '^BenchmarkWork/n=200	'
    err_has 'saved as run 1 in '
    # the suite's own main loads libbenchlab-store for --save
    run "$suite" $quick --store "$store" --tag nightly
    expect_status 0
    out_has '^BenchmarkSteady	'
    err_has 'saved as run 2 in '
    [ "$(sql 'SELECT count(*) FROM runs')" = 2 ] || fail "want 2 runs"
    [ "$(sql 'SELECT tag FROM runs WHERE id = 2')" = nightly ] || fail "tag not saved"
    [ "$(sql 'SELECT count(DISTINCT name) FROM benches WHERE run_id = 1')" = 3 ] ||
        fail "want 3 benchmarks in run 1"
    [ "$(sql "SELECT count(*) FROM samples")" -gt 30 ] || fail "samples not saved"
    ;;
default-store-is-the-project-top)
    [ -n "${BENCHLAB_TEST_PG:-}" ] && exit 0 # about the SQLite default path only
    mkdir -p proj/sub && cd proj && git init -q . && cd sub
    run "$cli" run "$suite" $quick --filter Steady --save
    expect_status 0
    [ -f "$tmp/proj/.benchlab/results.db" ] || fail "no store at the git top level"
    err_has "saved as run 1 in $tmp/proj/.benchlab/results.db"
    cd "$tmp" && mkdir plain && cd plain
    BENCHLAB_STORE="$tmp/env.db" run "$cli" run "$suite" $quick --filter Steady --save
    expect_status 0
    [ -f "$tmp/env.db" ] || fail "BENCHLAB_STORE not used"
    ;;
save-failure-keeps-results)
    [ -n "${BENCHLAB_TEST_PG:-}" ] && exit 0 # file stores; the server case is below
    echo "not a database, just text, long enough to not look like an empty file" >notastore.db
    run "$cli" run "$suite" $quick --filter Steady --store notastore.db
    expect_status 2
    out_has '^BenchmarkSteady	'
    err_has 'notastore.db: not a benchlab store'
    err_has 'written but not saved'
    # --out still gets its file
    run "$suite" $quick --filter Steady --store notastore.db --out res.txt
    expect_status 2
    grep -q '^BenchmarkSteady	' res.txt || fail "--out lost its results"
    ;;
unreachable-server-keeps-results)
    run "$cli" run "$suite" $quick --filter Steady \
        --store 'postgresql://bench:pw@127.0.0.1:1/none?connect_timeout=3'
    expect_status 2
    out_has '^BenchmarkSteady	'
    err_has 'cannot connect'
    err_lacks ':pw@'
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "ok $case_name"
