#!/bin/sh
# cli.sh CASE BINDIR - end-to-end tests of the store from the command line:
# run --save (the benchlab command and a suite's own main), bad stores,
# history, compare @refs, baselines, judge, shards and merge. Checks are
# structural (counts, names, verdicts of runs made 4x slower on purpose);
# none depends on how fast the machine is (the judge cases compare 8
# launches a side of a 4x slowdown, so that a launch or two disturbed by a
# loaded machine cannot hide it). With BENCHLAB_TEST_PG set (by
# pg.sh), the store is a fresh PostgreSQL database instead of a file.
set -u
case_name=$1
bin=$2
here=$(cd "$(dirname "$0")" && pwd)
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

. "$here/../support/e2e_lib.sh"
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
    # a store that takes the run's check but refuses the run itself at the
    # end (its --run-id holds exec results): the results are out, not lost
    "$cli" exec -r 2 --save --store "$store" --run-id taken true >/dev/null 2>&1 ||
        fail "exec --save"
    run "$cli" run "$suite" $quick --filter Steady --store "$store" --run-id taken
    expect_status 2
    out_has '^BenchmarkSteady	'
    err_has 'run taken holds exec results'
    err_has 'written but not saved'
    # --out still gets its file
    run "$suite" $quick --filter Steady --store "$store" --run-id taken --out res.txt
    expect_status 2
    grep -q '^BenchmarkSteady	' res.txt || fail "--out lost its results"
    ;;
bad-store-refused-before-measuring)
    # what --save would fail on at the end is refused at once: nothing
    # measured, the path and the reason named (suite and benchlab run)
    [ -n "${BENCHLAB_TEST_PG:-}" ] && exit 0 # file stores; the server case is below
    echo "not a database, just text, long enough to not look like an empty file" >notastore.db
    for how in "$cli run $suite" "$suite"; do
        run $how $quick --filter Steady --store notastore.db
        expect_status 2
        [ ! -s "$tmp/out" ] || fail "$how: measured before refusing the store"
        err_has 'notastore.db: not a benchlab store'
        err_has 'nothing was measured'
        err_lacks 'Steady'
    done
    # a store that opens but cannot be written: the file read-only, then
    # only its directory (no journal beside it). Root writes anyway, so as
    # root the suite runs without CAP_DAC_OVERRIDE (setpriv, util-linux).
    mkdir ro
    "$suite" $quick --filter Steady --store ro/s.db >/dev/null 2>&1 || fail "first save"
    as_user=""
    if [ "$(id -u)" -eq 0 ]; then
        command -v setpriv >/dev/null || fail "setpriv(1) is missing (Debian package util-linux)"
        as_user="setpriv --bounding-set=-dac_override,-dac_read_search"
    fi
    # a new store is checked without being made: its directory must be
    # writable, or makable in a writable parent
    mkdir ro2
    chmod a-w ro2
    run $as_user "$suite" $quick --filter Steady --store ro2/new.db
    chmod u+w ro2
    expect_status 2
    [ ! -s "$tmp/out" ] || fail "measured before refusing a store that cannot be made"
    err_has 'store ro2/new.db: cannot be created in ro2: Permission denied'
    err_has 'nothing was measured'
    [ ! -e ro2/new.db ] || fail "the check made ro2/new.db"
    run "$suite" $quick --filter Steady --store nodir/deeper/s.db
    expect_status 2
    err_has 'store nodir/deeper/s.db: cannot create directory nodir/deeper: its parent does not exist'
    err_has 'nothing was measured'
    [ ! -e nodir ] || fail "the check made nodir"
    for locked in "ro ro/s.db" "ro"; do
        chmod a-w $locked
        run $as_user "$suite" $quick --filter Steady --store ro/s.db
        chmod u+w ro ro/s.db
        expect_status 2
        [ ! -s "$tmp/out" ] || fail "measured before refusing a read-only store ($locked)"
        err_has 'ro/s.db: cannot be written: attempt to write a readonly database'
        err_has 'nothing was measured'
    done
    ;;
failed-run-leaves-no-new-store-or-out)
    # the check before the run creates nothing, and a run in which no
    # benchmark gave a result saves nothing and writes no --out file: a new
    # path stays missing, a file that was there stays as it was, and a
    # non-regular --out (a FIFO here) is still written in place
    faults="$bin/fixture_faults"
    for how in "$faults" "$cli run $faults"; do
        rm -rf store r.txt r.json
        run $how $quick --filter '^BenchmarkFails$' --store "$store" --out r.txt
        expect_status 1
        err_has 'nothing saved: no benchmark gave a result'
        err_has '\-\-out r.txt: not written: no benchmark gave a result (no file was made)'
        [ ! -e r.txt ] || fail "$how: a failed run made --out r.txt"
        if [ -n "${BENCHLAB_TEST_PG:-}" ]; then
            [ "$(sql 'SELECT count(*) FROM runs')" = 0 ] || fail "$how: a failed run was saved"
        else
            [ ! -e "$store" ] && [ ! -e store ] || fail "$how: a failed run left a store behind"
        fi
        # not a suite: refused after the check, nothing made either
        run $cli run /bin/true --save --store "$store" --out r.json
        expect_status 2
        err_has 'not a benchlab suite'
        [ ! -e r.json ] || fail "not a suite: --out r.json made"
        [ -n "${BENCHLAB_TEST_PG:-}" ] || [ ! -e "$store" ] || fail "not a suite: a store made"
    done
    # what was there stays: a store with a run, an --out file
    "$bin/fixture_store" $quick --filter Steady --store "$store" >/dev/null 2>&1 || fail "first save"
    [ -n "${BENCHLAB_TEST_PG:-}" ] || cp "$store" before.db
    echo old >r.txt
    run "$faults" $quick --filter '^BenchmarkFails$' --store "$store" --out r.txt --format json
    expect_status 1
    err_has '\-\-out r.txt: not written: no benchmark gave a result (the file is as it was)'
    [ "$(cat r.txt)" = old ] || fail "a failed run replaced r.txt"
    [ "$(sql 'SELECT count(*) FROM runs')" = 1 ] || fail "a failed run was saved"
    [ -n "${BENCHLAB_TEST_PG:-}" ] || cmp -s "$store" before.db || fail "the store changed"
    # a FIFO is written in place (the Go header) and stays a FIFO
    mkfifo pipe
    cat pipe >got.txt &
    reader=$!
    run "$faults" $quick --filter '^BenchmarkFails$' --out pipe
    wait $reader
    expect_status 1
    [ -p pipe ] || fail "the FIFO was replaced"
    grep -q '^goos: linux$' got.txt || fail "the FIFO did not get the header: $(cat got.txt)"
    err_lacks 'not written'
    # a run with a result still makes both
    rm -f r2.txt
    run "$faults" $quick --filter '^Benchmark(Fails|AaHealthy)$' --store "$store" --out r2.txt
    expect_status 1
    grep -q '^BenchmarkAaHealthy	' r2.txt || fail "--out lost the result"
    err_has 'saved as run 2 in '
    ;;
damaged-store-is-refused)
    # a store with a damaged page is not written into: the run is refused
    # before it measures, exec's save says so after, and the file is as it was
    [ -n "${BENCHLAB_TEST_PG:-}" ] && exit 0 # SQLite files
    for i in 1 2 3; do
        "$suite" $quick --count 2 --store s.db >/dev/null 2>"$tmp/save.err" ||
            fail "save $i: exit $?: $(cat "$tmp/save.err")"
    done
    n=$(sqlite3 s.db 'PRAGMA page_count')
    [ "$n" -ge 6 ] || fail "a store of $n pages is too small to damage one in the middle"
    dd if=/dev/zero of=s.db bs="$(sqlite3 s.db 'PRAGMA page_size')" seek=$((n / 2)) count=1 \
        conv=notrunc 2>/dev/null
    cp s.db before.db
    run "$suite" $quick --filter Steady --store s.db
    expect_status 2
    [ ! -s "$tmp/out" ] || fail "measured before refusing a damaged store"
    # quick_check names the page, or SQLite stops at it ("malformed")
    err_has 'store s.db: the file is damaged'
    grep -q -E "quick_check: Page $((n / 2 + 1)): |disk image is malformed" "$tmp/err" ||
        fail "the damage is not named"
    err_has 'nothing was measured'
    run "$cli" exec -r 2 --save --store s.db true
    expect_status 2
    err_has 'store s.db: the file is damaged'
    cmp -s s.db before.db || fail "the damaged store was written"
    # the schema's own page damaged (the file header kept): SQLite says
    # "malformed", which is a damaged store, not "not an SQLite database"
    "$suite" $quick --count 1 --store t.db >/dev/null 2>"$tmp/save.err" ||
        fail "save t.db: exit $?: $(cat "$tmp/save.err")"
    ps=$(sqlite3 t.db 'PRAGMA page_size')
    dd if=/dev/zero of=t.db bs=1 seek=100 count=$((ps - 100)) conv=notrunc 2>/dev/null
    run "$suite" $quick --filter Steady --store t.db
    expect_status 2
    [ ! -s "$tmp/out" ] || fail "measured before refusing a store with a damaged schema"
    err_has 'store t.db: the file is damaged (database disk image is malformed)'
    err_has 'nothing was measured'
    ;;
unreachable-server-refused-before-measuring)
    run "$cli" run "$suite" $quick --filter Steady \
        --store 'postgresql://bench:pw@127.0.0.1:1/none?connect_timeout=3'
    expect_status 2
    [ ! -s "$tmp/out" ] || fail "measured before refusing the store"
    err_has 'cannot connect'
    err_has 'nothing was measured'
    err_lacks ':pw@'
    ;;
out-and-profile-dir-refused-before-measuring)
    [ -n "${BENCHLAB_TEST_PG:-}" ] && exit 0 # no store involved
    mkdir adir
    # a link's own directory exists; the writer writes where it leads
    ln -s nodir/r.json link.json
    for bad in "--out nodir/r.json|--out nodir/r.json: the directory nodir does not exist" \
        "--out adir|--out adir: is a directory" \
        "--out link.json|--out link.json: the directory nodir does not exist" \
        "--profile --profile-dir nodir/p|--profile-dir nodir/p: the directory nodir does not exist" \
        "--profile --profile-dir res.txt|--profile-dir res.txt: exists and is not a directory"; do
        args=${bad%%|*}
        msg=${bad#*|}
        echo old >res.txt
        run "$suite" $quick --filter Steady $args
        expect_status 2
        [ ! -s "$tmp/out" ] || fail "$args: measured before refusing"
        err_has "$msg"
        err_has 'nothing was measured'
        [ "$(cat res.txt)" = old ] || fail "$args: res.txt changed"
    done
    ;;
history-shows-runs-and-centres)
    "$suite" $quick --store "$store" >/dev/null 2>&1 || fail "first run"
    "$suite" $quick --store "$store" --tag second >/dev/null 2>&1 || fail "second run"
    run "$cli" history --store "$store"
    expect_status 0
    out_has ': 2 runs'
    out_has 'second'
    out_has '^benchmark .*#1 .*#2 .*change$'
    out_has '^Work/n=200 .* ns .* ns .*%$'
    out_has '^Steady '
    out_lacks '▁\|█' # no sparkline when not on a terminal
    run "$cli" history --store "$store" --sparkline always --filter 'Work' --last 1
    expect_status 0
    out_has ': 1 run with matching benchmarks'
    out_has 'trend'
    grep -q '[▁▂▃▄▅▆▇█]' "$tmp/out" || fail "no sparkline with --sparkline always"
    out_lacks '^Steady'
    out_lacks '#1 '
    run "$cli" history --store "$store" --filter '('
    expect_status 2
    err_has 'filter'
    ;;
history-of-no-store)
    if [ -n "${BENCHLAB_TEST_PG:-}" ]; then
        run "$cli" history --store "$store" # an empty database
        expect_status 2
        err_has 'no runs saved yet'
    else
        run "$cli" history --store "$tmp/none.db"
        expect_status 2
        err_has "store $tmp/none.db: no such store"
        [ ! -e "$tmp/none.db" ] || fail "reading created a store"
    fi
    ;;
judge-finds-a-regression)
    "$suite" $quick --count 8 --store "$store" >/dev/null 2>&1 || fail "base run"
    FIXTURE_FACTOR=4 "$suite" $quick --count 8 --store "$store" >/dev/null 2>&1 || fail "slow run"
    run "$cli" judge --store "$store"
    expect_status 1
    out_has 'judging run 2 .* against run 1'
    out_has '^Work/n=200 .* SLOWER$'
    out_has '^Work/n=400 .* [0-9]/[0-9] launches .* SLOWER$'
    out_has 'REGRESSION'
    # the other way round it is faster, and exit 0
    run "$cli" judge @1 --against @2 --filter Work --store "$store"
    expect_status 0
    out_has '^Work/n=200 .* faster$'
    out_has 'no regression'
    # a threshold beyond the change: unchanged
    run "$cli" judge --threshold 1000 --filter Work --store "$store"
    expect_status 0
    out_has '^Work/n=200 .* unchanged$'
    ;;
judge-shows-hostile-names-escaped)
    # names, configuration and baseline names from hostile files: an OSC 52
    # clipboard write, a screen clear, a window title. Every text writer
    # shows them as \x1b, never sends them to the terminal.
    esc=$(printf '\033')
    for r in 1 2; do
        {
            printf 'goos: linux\ncpu: cpu%d\033]0;title\007\n' "$r"
            for i in 1 2 3 4 5 6 7 8; do
                printf 'BenchmarkA\033]52;c;cHduZWQ=\007x-8 1 %d ns/op\n' "$((400 * r + i))"
                printf 'BenchmarkOnly%d\033[2J-8 1 %d ns/op\n' "$r" "$((100 + i))"
            done
        } >"$tmp/h$r.txt"
        "$cli" merge "$tmp/h$r.txt" --save --store "$store" >/dev/null 2>&1 || fail "merge --save $r"
    done
    # two CPU names: not comparable, said with the names made safe
    run "$cli" judge --store "$store"
    expect_status 3
    err_lacks "$esc"
    err_has 'not comparable: @latest ran on cpu2\\x1b]0;title\\x07, the baseline on cpu1\\x1b]0;title\\x07'
    run "$cli" judge --store "$store" --allow-other-machine
    expect_status 1
    out_lacks "$esc"
    out_has '^A\\x1b]52;c;cHduZWQ=\\x07x-8 .* SLOWER$'
    out_has '^new (not in the baseline): Only2\\x1b\[2J-8$'
    out_has '^MISSING from this run (in the baseline; a lost shard or a crashed job?): Only1\\x1b\[2J-8$'
    run "$cli" judge --format markdown --store "$store" --allow-other-machine
    out_lacks "$esc"
    run "$cli" history --store "$store"
    out_lacks "$esc"
    out_has '^A\\x1b]52;c;cHduZWQ=\\x07x-8 '
    # a baseline name in a shared store is anyone's; errors quote names
    run "$cli" baseline set "$(printf 'b\033]0;t\007')" @1 --store "$store"
    expect_status 0
    out_lacks "$esc"
    run "$cli" baseline list --store "$store"
    out_lacks "$esc"
    out_has '^b\\x1b]0;t\\x07 = run 1 '
    run "$cli" judge --against "$(printf 'n\033[2J')" --store "$store"
    expect_status 3
    err_lacks "$esc"
    err_has "no baseline named 'n\\\\x1b\\[2J'"
    # merge warns of files from other CPUs, quoting them
    run "$cli" merge "$tmp/h1.txt" "$tmp/h2.txt" -o "$tmp/m.txt"
    expect_status 0
    err_lacks "$esc"
    err_has 'ran on another CPU (cpu2\\x1b]0;title\\x07, not cpu1\\x1b]0;title\\x07)'
    ;;
judge-markdown-against-a-baseline)
    "$suite" $quick --count 8 --store "$store" >/dev/null 2>&1 || fail "base run"
    FIXTURE_FACTOR=4 "$suite" $quick --count 8 --store "$store" >/dev/null 2>&1 || fail "slow run"
    run "$cli" baseline set main @1 --store "$store"
    expect_status 0
    out_has 'baseline main = run 1'
    run "$cli" baseline list --store "$store"
    out_has '^main = run 1'
    run "$cli" judge --against main --format markdown --filter Work --store "$store"
    expect_status 1
    out_has '^### benchlab judge: .* 2 slower'
    out_has 'against @baseline:main (run 1, '
    out_has '^| Work/n=200 | .* | \*\*slower\*\* |$'
    ;;
compare-stored-runs)
    "$suite" $quick --count 2 --store "$store" >/dev/null 2>&1 || fail "run 1"
    "$suite" $quick --count 2 --store "$store" >new.txt 2>/dev/null || fail "run 2"
    run "$cli" compare -store "$store" @1 @latest
    expect_status 0
    out_has '@1 .*@latest'
    out_has '^Work/n=200 '
    # a stored run beside a file, labelled
    run "$cli" compare -store "$store" base=@1 new.txt
    expect_status 0
    out_has 'base .*new.txt'
    out_has '^Steady '
    ;;
bad-references)
    "$suite" $quick --store "$store" >/dev/null 2>&1 || fail "run"
    run "$cli" compare -store "$store" @nosuch @latest
    expect_status 2
    err_has 'unknown run @nosuch'
    run "$cli" judge --against nosuch --store "$store"
    expect_status 3
    err_has "no baseline named 'nosuch'"
    # the first run of a history has nothing to judge against: it passes, said
    run "$cli" judge --store "$store"
    expect_status 0
    out_has '^no earlier run to judge against: run 1 is the first of the runs with benchmarks'
    run "$cli" judge --store "$store" --format markdown
    expect_status 0
    out_has '^### benchlab judge: :white_check_mark: nothing to judge against yet$'
    run "$cli" baseline set main @42 --store "$store"
    expect_status 2
    err_has 'unknown run @42'
    run "$cli" judge @latest~5 --store "$store"
    expect_status 2
    err_has 'not that many runs'
    ;;
git-references)
    mkdir proj && cd proj && git init -q . &&
        git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one || fail "git"
    first=$(git rev-parse HEAD)
    "$suite" $quick --count 2 --store "$store" >/dev/null 2>&1 || fail "run at one"
    git -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
    "$suite" $quick --count 2 --store "$store" >/dev/null 2>&1 || fail "run at two"
    [ "$(sql 'SELECT git_commit FROM runs WHERE id = 1')" = "$first" ] || fail "commit not saved"
    [ "$(sql 'SELECT git_dirty FROM runs WHERE id = 1')" = 0 ] || fail "dirty flag"
    run "$cli" compare -store "$store" @HEAD~1 @HEAD
    expect_status 0
    out_has '@HEAD~1 .*@HEAD'
    run "$cli" judge --against @HEAD~1 --threshold 1000 --store "$store"
    expect_status 0
    out_has "against @HEAD~1 (run 1, $(echo "$first" | cut -c1-7)"
    run "$cli" history --store "$store"
    out_has "$(echo "$first" | cut -c1-7) "
    # a commit with no stored run
    git -c user.name=t -c user.email=t@t commit -q --allow-empty -m three
    run "$cli" compare -store "$store" @HEAD
    expect_status 2
    err_has 'no stored run of commit'
    ;;
shards-split-and-join)
    "$suite" --list >all.txt || fail "list"
    : >union.txt
    for k in 1 2 3; do
        "$suite" --list --shard $k/3 >"s$k.txt" || fail "list shard $k"
        cat "s$k.txt" >>union.txt
    done
    [ "$(sort union.txt)" = "$(sort all.txt)" ] || fail "the shards do not cover the suite once"
    [ "$(sort union.txt | uniq -d | wc -l)" -eq 0 ] || fail "a benchmark is in two shards"
    # two shards of one CI run land in one stored run
    run "$suite" $quick --count 2 --shard 1/2 --run-id ci-9 --store "$store"
    expect_status 0
    out_has '^# shard: 1/2$'
    run "$cli" run "$suite" $quick --count 2 --shard 2/2 --run-id ci-9 --store "$store"
    expect_status 0
    [ "$(sql 'SELECT count(*) FROM runs')" = 1 ] || fail "want one run"
    [ "$(sql 'SELECT n_parts FROM runs')" = 2 ] || fail "want two parts"
    [ "$(sql "SELECT count(DISTINCT name) FROM benches")" = "$(wc -l <all.txt | tr -d ' ')" ] ||
        fail "the run lacks benchmarks"
    [ "$(sql "SELECT group_concat(shard, ',') FROM (SELECT shard FROM parts ORDER BY seq) p" 2>/dev/null ||
        sql "SELECT string_agg(shard, ',' ORDER BY seq) FROM parts")" = "1/2,2/2" ] ||
        fail "the parts' shards"
    run "$cli" history --store "$store"
    out_has ': 1 run'
    out_has 'ci-9'
    # an empty shard runs nothing and succeeds
    run "$suite" $quick --shard 7/50 --filter Steady
    [ "$st" -eq 0 ] || fail "exit status $st for an empty shard"
    ;;
shard-saved-twice-replaces-it)
    # a CI job rerun saves its shard again under the run id: the second save
    # replaces the first (its launches), never adds to them
    run "$suite" $quick --count 2 --shard 1/2 --run-id ci-7 --store "$store"
    expect_status 0
    first=$(sql 'SELECT count(*) FROM launches')
    run "$suite" $quick --count 2 --shard 1/2 --run-id ci-7 --store "$store"
    expect_status 0
    err_has 'shard 1/2 saved again: replaces its earlier save'
    [ "$(sql 'SELECT count(*) FROM launches')" = "$first" ] ||
        fail "launches: expected $first (one save of shard 1/2), measured $(sql 'SELECT count(*) FROM launches')"
    [ "$(sql 'SELECT count(*) FROM parts')" = 1 ] || fail "want one part"
    [ "$(sql 'SELECT n_parts FROM runs')" = 1 ] || fail "n_parts: want 1"
    run "$suite" $quick --count 2 --shard 2/2 --run-id ci-7 --store "$store"
    expect_status 0
    [ "$(sql 'SELECT n_parts FROM runs')" = 2 ] || fail "n_parts: want 2 after shard 2/2"
    ;;
first-run-and-missing-benchmarks)
    # synthetic runs (Go format), so that the verdicts are exact: 4
    # benchmarks x 8 launches, the same values in both runs
    gen() { # FILE BENCHMARK...
        f=$1
        shift
        : >"$f"
        printf 'goos: linux\ngoarch: amd64\n' >>"$f"
        for b in "$@"; do
            for i in 1 2 3 4 5 6 7 8; do printf 'Benchmark%s-8 100 %d ns/op\n' "$b" "$((1000 + i))" >>"$f"; done
        done
    }
    gen all.txt A B C D
    gen lost.txt A B
    run "$cli" merge all.txt --save --store "$store"
    expect_status 0
    # the first run of a history: nothing to judge against, a note, exit 0
    run "$cli" judge --store "$store"
    expect_status 0
    out_has '^no earlier run to judge against: run 1 is the first'
    run "$cli" judge --store "$store" --format markdown
    expect_status 0
    out_has 'nothing to judge against yet'
    # a lost shard: C and D are in the baseline, not in the new run
    run "$cli" merge lost.txt --save --store "$store"
    expect_status 0
    run "$cli" judge --store "$store"
    expect_status 1
    out_has '^MISSING from this run .*: C-8, D-8$'
    out_has 'MISSING BENCHMARKS'
    run "$cli" judge --store "$store" --allow-missing
    expect_status 0
    ;;
measured-history-finds-its-steps)
    # A history measured on this machine (tests/data/history/README.md):
    # the planted steps Hash@8, Sort@14 and Hash@26 are found at their
    # runs, in time and in ref-cycles; Copy, never changed, has no change
    # in time; single wild runs are outliers, not changes. (Sum's +4% at
    # 20 is missed: two clipped spikes outscore it, docs/store.md.)
    awk '/^# date:/ { n++ } { print > sprintf("run-%02d.txt", n) }' \
        "$here/../data/history/measured-32.txt"
    [ "$(ls run-*.txt | wc -l)" -eq 32 ] || fail "want 32 runs in the fixture"
    for f in run-*.txt; do
        "$cli" merge "$f" --save --store "$store" >/dev/null 2>&1 || fail "saving $f"
    done
    for m in time ref-cycles; do
        run "$cli" history --changes --store "$store" --metric $m --format json
        expect_status 0
        python3 - "$tmp/out" $m <<'PY' || fail "history --changes --metric $m on the measured history"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["runs"] == 32 and d["benchmarks"] == 4, (d["runs"], d["benchmarks"])
steps = {(c["benchmark"], c["run"]) for c in d["changes"] if c["kind"] == "change"}
for planted in (("BenchmarkHash", 8), ("BenchmarkSort", 14), ("BenchmarkHash", 26)):
    assert planted in steps, (planted, sorted(steps))
ratio = {(c["benchmark"], c["run"]): c["ratio"] for c in d["changes"] if c["kind"] == "change"}
assert ratio[("BenchmarkHash", 8)] > 1.05 and ratio[("BenchmarkSort", 14)] > 1.05, ratio
if sys.argv[2] == "time":
    assert not any(b == "BenchmarkCopy" for b, _ in steps), sorted(steps)
outliers = {(c["benchmark"], c["run"]) for c in d["changes"] if c["kind"] == "outlier"}
assert ("BenchmarkSum", 1) in outliers, sorted(outliers)
if sys.argv[2] == "time":
    assert ("BenchmarkSum", 14) in outliers, sorted(outliers)
assert not steps & outliers
PY
    done
    ;;
acknowledged-change-passes-the-gate)
    # A known slowdown, accepted (issue 30): Bench02 1.3x slower from the
    # 9th of 16 commits on. Acknowledged at that commit, a judge of two
    # runs with it between them passes Bench02 as acknowledged (git's
    # ancestry says the commit came in between), the change point is
    # marked, and an ack elsewhere (another commit, another benchmark)
    # passes nothing. Synthetic runs (Go format), so verdicts are exact.
    git init -q repo && cd repo || fail "git init"
    for i in $(seq 1 16); do
        git -c user.name=t -c user.email=t@t commit -q --allow-empty -m "c$i" || fail "commit"
    done
    gen() { # FILE FACTOR ADD: 4 benchmarks, 5 launches each, Bench02 times FACTOR
        awk -v f="$2" -v add="$3" 'BEGIN {
            print "goos: linux"; print "goarch: amd64"
            for (k = 1; k <= 4; k++) for (i = 1; i <= 5; i++)
                printf "BenchmarkBench%02d-8 100 %.1f ns/op\n", k,
                    (1000 + 10 * k + 3 * i + add) * (k == 2 ? f : 1)
        }' >"$1"
    }
    for r in $(seq 1 16); do
        f=1
        [ "$r" -gt 8 ] && f=1.3
        gen r.txt $f $((r * 7 % 5))
        "$cli" merge r.txt --save --store "$store" --branch main \
            --commit "$(git rev-parse "HEAD~$((16 - r))")" >/dev/null 2>&1 || fail "save run $r"
    done
    c9=$(git rev-parse HEAD~7)
    c4=$(git rev-parse HEAD~12)
    run "$cli" judge --store "$store" --against @4
    expect_status 1
    out_has '^Bench02-8 .* SLOWER$'
    run "$cli" baseline ack 'Bench02*' "$c9" --reason 'safer hash' --store "$store"
    expect_status 0
    out_has "^acknowledged: Bench02\\* at $c9\$"
    run "$cli" baseline acks --store "$store"
    expect_status 0
    out_has "^Bench02\\* at $(echo "$c9" | cut -c1-12) (acknowledged .*): safer hash\$"
    run "$cli" judge --store "$store" --against @4
    expect_status 0
    out_has "^Bench02-8 .* slower, acknowledged at $(echo "$c9" | cut -c1-7)\$"
    out_has '^1 slower, 0 faster, 3 unchanged (1 acknowledged): no regression but the acknowledged$'
    GITHUB_ACTIONS=true run "$cli" judge --store "$store" --against @4 --format markdown
    expect_status 0
    out_has '| slower, acknowledged at `'
    err_has '^::warning title=benchlab judge%3A Bench02-8 slower%2C acknowledged::'
    err_lacks '^::error'
    # judged within the new level (run 12 against 9) the ack is not between them
    run "$cli" judge @12 --store "$store" --against @9
    expect_status 0
    out_lacks 'acknowledged'
    run "$cli" history --changes --store "$store"
    expect_status 0
    out_has '^Bench02-8 .* +30.0% (acknowledged) '
    run "$cli" history --changes --store "$store" --format json
    expect_status 0
    out_has "\"acknowledged\": \"$c9\"}"
    # withdrawn, and acked at a commit before the baseline or for another
    # benchmark: the regression fails the gate again
    run "$cli" baseline unack 'Bench02*' "$c9" --store "$store"
    expect_status 0
    run "$cli" baseline ack 'Bench02*' "$c4" --store "$store"
    expect_status 0
    run "$cli" baseline ack 'Bench03-8' "$c9" --store "$store"
    expect_status 0
    run "$cli" judge --store "$store" --against @4
    expect_status 1
    out_has '^Bench02-8 .* SLOWER$'
    run "$cli" history --changes --store "$store" --format json
    out_has '"acknowledged": null}'
    # bad input names itself
    run "$cli" baseline unack 'Bench02*' "$c9" --store "$store"
    expect_status 2
    err_has "no acknowledgement of Bench02\\* at $c9"
    run "$cli" baseline ack 'Bench02*' not-a-commit --store "$store"
    expect_status 2
    err_has "commit 'not-a-commit': not a revision git knows here, nor a hash"
    ;;
gate-fires-at-five-launches)
    # The README's CI recipe at --count 5 on a 12-benchmark suite (issue
    # 30): 5 launches a side give the U test a smallest p of 0.0079, above
    # the 0.05/12 Holm needs, so the rank test alone could never fire.
    # Synthetic runs (Go format), so that the verdicts are exact: launch i
    # of benchmark k is 1000 + 10 k + 3 i (ns/op) with ref-cycles/op 2000 +
    # 7 i; GEN_SLOW names a benchmark at FACTOR times, GEN_CLOCK scales
    # every ns/op (a machine whose clock moved) but not the ref-cycles,
    # GEN_SHIFT reorders the launches and GEN_ADD adds to every ns/op
    gen() { # FILE FACTOR
        awk -v slow="${GEN_SLOW:-}" -v f="$2" -v clock="${GEN_CLOCK:-1}" -v shift="${GEN_SHIFT:-0}" -v add="${GEN_ADD:-0}" 'BEGIN {
            print "goos: linux"; print "goarch: amd64"
            for (k = 1; k <= 12; k++) for (i = 1; i <= 5; i++) {
                name = sprintf("Bench%02d", k)
                m = (name == slow) ? f : 1
                j = (i + shift) % 5 + 1
                printf "Benchmark%s-8 100 %.1f ns/op %.1f ref-cycles/op\n", name,
                    (1000 + 10 * k + 3 * j + add) * m * clock, (2000 + 7 * j) * m
            } }' >"$1"
    }
    gen base.txt 1
    GEN_SLOW=Bench07 gen slow.txt 2
    GEN_SHIFT=2 GEN_ADD=0.5 gen same.txt 1
    run "$cli" merge base.txt --save --store "$store"
    expect_status 0
    run "$cli" merge slow.txt --save --store "$store"
    expect_status 0
    # one benchmark 2x slower: a regression, named, exit 1
    run "$cli" judge --store "$store" --metric time
    expect_status 1
    out_has "^Welch's t on log values per benchmark, Holm-corrected over 12 benchmarks at alpha 0.05"
    out_has '^note: with 5/5 values the U test.s smallest p is 0.0079, which cannot reach the 0.0042'
    [ "$(grep -c ' SLOWER$' "$tmp/out")" -eq 1 ] || fail "want exactly one SLOWER row"
    out_has '^Bench07-8 .* +100.0% .* SLOWER$'
    out_has '^1 slower, 0 faster, 11 unchanged: REGRESSION$'
    # the same in Markdown: the note is in the pull request comment too
    run "$cli" judge --store "$store" --format markdown --metric time
    expect_status 1
    out_has "Welch's t on log values per benchmark"
    # an A/A run (another order, every value 0.5 ns up: significant to
    # Welch's t, far below the threshold): nothing fires
    run "$cli" merge same.txt --save --store "$store"
    expect_status 0
    run "$cli" judge --store "$store" --against @1 --metric time
    expect_status 0
    out_has '^0 slower, 0 faster, 12 unchanged: no regression past the threshold$'
    # every ns/op 15% up, ref-cycles flat: the machine's clock moved. Time
    # says slower; the ref-cycles metric does not, and it is the default
    # (auto) where both runs have it
    GEN_CLOCK=1.15 gen clock.txt 1
    run "$cli" merge clock.txt --save --store "$store"
    expect_status 0
    run "$cli" judge --store "$store" --against @1 --metric time
    expect_status 1
    out_has '^12 slower, 0 faster, 0 unchanged: REGRESSION$'
    for m in ref-cycles auto; do
        run "$cli" judge --store "$store" --against @1 --metric $m
        expect_status 0
        out_has '^judged on ref-cycles/op: '
        out_has '^0 slower, 0 faster, 12 unchanged: no regression past the threshold$'
    done
    run "$cli" judge --store "$store" --against @1
    expect_status 0
    out_has '^judged on ref-cycles/op: '
    # a run without ref-cycles (another tool's Go output): auto judges time
    grep -v '^Benchmark' clock.txt >plain.txt
    sed 's/ [0-9.]* ref-cycles\/op$//' clock.txt | grep '^Benchmark' >>plain.txt
    run "$cli" merge plain.txt --save --store "$store"
    expect_status 0
    run "$cli" judge --store "$store" --against @1
    expect_status 1
    out_lacks '^judged on '
    out_has '^12 slower, 0 faster, 0 unchanged: REGRESSION$'
    # and ref-cycles see the planted change (run 2 against run 1)
    run "$cli" judge @2 --store "$store" --against @1 --metric ref-cycles/op
    expect_status 1
    out_has '^Bench07-8 .* +100.0% .* SLOWER$'
    run "$cli" judge --store "$store" --metric cycles
    expect_status 2
    err_has 'cycles'
    # a metric no run has: an error, not a gate that passes without judging
    run "$cli" judge --store "$store" --metric instructions
    expect_status 3
    err_has 'nothing to judge: no benchmark of .* has instructions/op on both sides'
    # compare's gate on the same files: Welch's t where the U test has no
    # room (12 comparisons at 5 a side), the 2x found, the A/A passed
    run "$cli" compare -fail-on-regression base.txt slow.txt
    expect_status 1
    # one regression a unit: sec/op and ref-cycles/op, 2x both
    [ "$(grep -c '^benchlab: regression: ' "$tmp/err")" -eq 2 ] || fail "compare: want two regressions"
    err_has "^benchlab: regression: Bench07-8 ref-cycles/op: +100.00% vs slow.txt (p=[0-9.e-]* by Welch's t on log values"
    err_has "^benchlab: regression: Bench07-8 sec/op: +100.00% vs slow.txt (p=[0-9.e-]* by Welch's t on log values: the U test cannot reach the level with so few values, holm correction over 12 sec/op comparisons, threshold 0%)$"
    run "$cli" compare -fail-on-regression=5 base.txt same.txt
    expect_status 0
    err_lacks 'regression'
    ;;
history-changes-finds-planted-steps)
    # A main-branch history of 36 runs (issue 30 item 1), saved run by run
    # as a team's CI saves them, with planted changes: Step 8% up from run
    # 20 on (time and ref-cycles), Outlier 40% up in run 12 only, Clock's
    # ns/op 15% up from run 26 with its ref-cycles flat (the machine's
    # clock, not the code), Flat nothing. Launch i of run r has a noise of
    # at most 1% that is the same on every machine. A pull request's run
    # (branch pr, everything 3x) comes last.
    gen() { # FILE RUN FACTOR
        awk -v r="$2" -v f="$3" 'BEGIN {
            print "goos: linux"; print "goarch: amd64"
            split("Flat Step Outlier Clock", names, " ")
            for (k = 1; k <= 4; k++) for (i = 1; i <= 3; i++) {
                u = ((r * 37 + i * 11 + k * 5) % 21 - 10) / 1000
                t = 1000 * k * (1 + u) * f; c = 2000 * k * (1 + u) * f
                if (names[k] == "Step" && r >= 20) { t *= 1.08; c *= 1.08 }
                if (names[k] == "Outlier" && r == 12) { t *= 1.4; c *= 1.4 }
                if (names[k] == "Clock" && r >= 26) t *= 1.15
                printf "Benchmark%s-8 100 %.2f ns/op %.2f ref-cycles/op\n", names[k], t, c
            } }' >"$1"
    }
    r=1
    while [ $r -le 36 ]; do
        gen "h$r.txt" $r 1
        "$cli" merge "h$r.txt" --save --store "$store" --commit "$(printf 'c0ffee%02d' $r)" \
            --branch main >/dev/null 2>&1 || fail "merge --save $r"
        r=$((r + 1))
    done
    gen pr.txt 37 3
    run "$cli" merge pr.txt --save --store "$store" --commit abcdef37 --branch pr
    expect_status 0
    run "$cli" history --changes --branch main --store "$store"
    expect_status 0
    out_has '^change points in ns/op over 36 runs: binary segmentation, permutation test of the largest shift'
    out_has '^Step-8  *#20  *c0ffee2  *2.0[0-9]* µs ±[0-9.]*%  *2.1[0-9]* µs ±[0-9.]*%  *+8.0%  *[0-9.e-]*$'
    out_has '^Clock-8  *#26  *c0ffee2  *4.0[0-9]* µs .* +15.0% '
    out_has '^Outlier-8  *#12  *c0ffee1  *3.0[0-9]* µs  *4.2[0-9]* µs  *+40.[0-9]%$'
    out_has '^2 change points in 2 benchmarks; 2 of 4 without a change$'
    out_lacks '^Flat'
    # the same in JSON, twice: the same bytes (seeded shuffles)
    "$cli" history --changes --branch main --store "$store" --format json >c1.json || fail "json"
    "$cli" history --changes --branch main --store "$store" --format json >c2.json || fail "json"
    cmp -s c1.json c2.json || fail "two calls gave two answers"
    python3 - c1.json <<'PY' || fail "the JSON changes are not the planted ones"
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((c["benchmark"], c["kind"], c["run"], c["commit"]) for c in d["changes"])
want = [("BenchmarkClock-8", "change", 26, "c0ffee26"), ("BenchmarkOutlier-8", "outlier", 12, "c0ffee12"),
        ("BenchmarkStep-8", "change", 20, "c0ffee20")]
assert got == want, got
step = [c for c in d["changes"] if c["benchmark"] == "BenchmarkStep-8"][0]
assert 1.07 < step["ratio"] < 1.09 and step["p"] <= 0.001, step
assert step["before_ci"][0] < step["before"] < step["before_ci"][1] < step["after_ci"][0], step
assert step["n_before"] == 19 and step["n_after"] == 17, step
assert d["unit"] == "ns/op" and d["runs"] == 36 and d["benchmarks"] == 4 and d["unchanged"] == 2, d
PY
    # in ref-cycles the clock's step is gone, the code's stays
    run "$cli" history --changes --branch main --metric ref-cycles --store "$store"
    expect_status 0
    out_has '^change points in ref-cycles/op over 36 runs'
    out_has '^Step-8  *#20  *c0ffee2  *4000 ±[0-9.]*%  *4320 ±[0-9.]*%  *+8.0%'
    out_lacks '^Clock'
    # the Markdown of a pull request comment
    run "$cli" history --changes --branch main --store "$store" --format markdown
    expect_status 0
    out_has '^### benchlab: 2 change points in 2 benchmarks$'
    out_has '^| Step-8 | #20 | `c0ffee2` | '
    # every branch: the pull request's 3x run is each benchmark's outlier,
    # not a change (one run, nothing after it)
    run "$cli" history --changes --store "$store" --format json
    expect_status 0
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
last = sorted(c["benchmark"] for c in d["changes"] if c["run"] == 37)
assert last == ["BenchmarkClock-8", "BenchmarkFlat-8", "BenchmarkOutlier-8", "BenchmarkStep-8"], last
assert all(c["kind"] == "outlier" for c in d["changes"] if c["run"] == 37), d' "$tmp/out" ||
        fail "the pull request run is not every benchmark's outlier"
    # the table of runs of one branch; the options of --changes without it
    run "$cli" history --branch pr --store "$store"
    expect_status 0
    out_has '^store .*: 1 run on branch pr$'
    run "$cli" history --alpha 0.01 --store "$store"
    expect_status 2
    err_has 'history: --alpha is for --changes'
    run "$cli" history --changes --alpha 2 --store "$store"
    expect_status 2
    err_has "history: --alpha: '2' is not in (0, 1)"
    ;;
github-annotations-and-summary)
    # Under GitHub Actions (issue 30 item 3) judge, ab and compare's gate
    # annotate the run on stderr, worst first and at most the 10 of a kind
    # GitHub shows, and append their Markdown to $GITHUB_STEP_SUMMARY.
    # Synthetic runs: B01..B12 of 14 benchmarks about 2x slower, B14 2%
    # slower (significant, under the 5% threshold), names with ':' and ','
    # that a workflow command must escape
    gen() { # FILE FACTOR SLOW [CPU]
        awk -v f="$2" -v slow="$3" -v cpu="${4:-TestCPU}" 'BEGIN {
            print "goos: linux"; print "cpu: " cpu
            for (k = 1; k <= 14; k++) for (i = 1; i <= 5; i++) {
                m = (k <= slow) ? f * (1 + k / 100) : 1
                if (k == 14 && f > 1) m = 1.02
                printf "BenchmarkB%02d:x,y-8 100 %.2f ns/op\n", k, (1000 + 10 * k + 3 * i) * m
            } }' >"$1"
    }
    gen a.txt 1 0
    gen b.txt 2 12
    run "$cli" merge a.txt --save --store "$store"
    expect_status 0
    # the first run: passes, and says so in the summary too
    printf 'before\n' >sum.md
    GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$tmp/sum.md run "$cli" judge --store "$store"
    expect_status 0
    [ "$(head -1 sum.md)" = before ] || fail "the summary was not appended to"
    grep -q '^### benchlab judge: :white_check_mark: nothing to judge against yet$' sum.md ||
        fail "the first run's note is not in the summary"
    run "$cli" merge b.txt --save --store "$store"
    expect_status 0
    GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$tmp/sum.md run "$cli" judge --store "$store"
    expect_status 1
    # 12 regressions: the worst 9, then one line of the 3 more (10 shown)
    [ "$(grep -c '^::error ' "$tmp/err")" -eq 10 ] || fail "want 10 ::error lines"
    err_has '^::error title=benchlab judge%3A B12%3Ax%2Cy-8 slower::B12:x,y-8 is slower than run 1 .*: +124.0%25 \[+122.2%25, +125.8%25\], p<0.001, 5/5 launches, past the 5%25 threshold$'
    [ "$(grep '^::error ' "$tmp/err" | head -1 | grep -c B12)" -eq 1 ] || fail "not worst first"
    err_has '^::error title=benchlab::and 3 more regressions (GitHub shows 10 annotations of a kind per step)'
    err_lacks '^::error title=benchlab judge%3A B01'
    [ "$(grep -c '^::warning ' "$tmp/err")" -eq 1 ] || fail "want 1 ::warning line"
    err_has '^::warning title=benchlab judge%3A B14%3Ax%2Cy-8 slower%2C under the threshold::B14:x,y-8 is slower .*+2.0%25.*under the 5%25 threshold of the gate$'
    # stdout is the table alone (a --format markdown comment stays clean)
    out_lacks '^::'
    grep -q '^### benchlab judge: :red_circle: 12 slower, 0 faster, 2 unchanged$' sum.md ||
        fail "the verdicts are not in the summary"
    # outside GitHub Actions: no workflow commands
    run "$cli" judge --store "$store"
    expect_status 1
    err_lacks '^::'
    # the summary stays within GitHub's 1 MiB a step, cut at a line's end
    head -c 1048000 /dev/zero | tr '\0' 'x' >big.md
    GITHUB_STEP_SUMMARY=$tmp/big.md run "$cli" judge --store "$store"
    expect_status 1
    [ "$(wc -c <big.md)" -le 1048576 ] || fail "the summary grew past 1 MiB"
    tail -1 big.md | grep -q "cut here: GitHub keeps at most 1 MiB of summary a step" ||
        fail "the cut is not said"
    # a summary that cannot be written is said, and the verdict stands
    GITHUB_STEP_SUMMARY=$tmp/no/such/dir/s.md run "$cli" judge --store "$store"
    expect_status 1
    err_has "judge: GITHUB_STEP_SUMMARY $tmp/no/such/dir/s.md: No such file or directory"
    # compare's gate, on 4 benchmarks (5 launches a side: the U test's
    # 0.0079 passes Holm over 4)
    grep -E 'B0[1-4]|goos|cpu' a.txt >a4.txt
    grep -E 'B0[1-4]|goos|cpu' b.txt >b4.txt
    GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$tmp/c.md run "$cli" compare -fail-on-regression a4.txt b4.txt
    expect_status 1
    [ "$(grep -c '^::error ' "$tmp/err")" -eq 4 ] || fail "compare: want 4 ::error lines"
    err_has '^::error title=benchlab compare%3A B04%3Ax%2Cy-8 worse sec/op::B04:x,y-8 sec/op: +108.00%25 vs b4.txt (p=0.00794, holm correction over 4 sec/op comparisons), past the 0%25 threshold$'
    grep -q '^| sec/op ' c.md || fail "compare: the tables are not in the summary"
    ;;
judge-not-comparable)
    # exit 3, told apart from a regression (1) and trouble (2): runs of
    # two CPU models, a baseline named that does not exist
    printf 'cpu: CPU A\nBenchmarkX-8 100 1000 ns/op\n' >a.txt
    printf 'cpu: CPU B\nBenchmarkX-8 100 5000 ns/op\n' >b.txt
    run "$cli" merge a.txt --save --store "$store"
    run "$cli" merge b.txt --save --store "$store"
    run "$cli" judge --store "$store"
    expect_status 3
    err_has 'judge: not comparable: @latest ran on CPU B, the baseline on CPU A .*--allow-other-machine judges anyway'
    run "$cli" judge --store "$store" --allow-other-machine
    expect_status 0
    out_has '^X-8 .* unchanged$'
    run "$cli" judge --store "$store" --against release
    expect_status 3
    err_has "no baseline named 'release'"
    run "$cli" judge @99 --store "$store"
    expect_status 2
    ;;
commit-and-branch-from-ci-or-options)
    printf 'BenchmarkA-8 100 1000 ns/op\n' >a.txt
    sha=0123456789abcdef0123456789abcdef01234567
    # outside git: the CI's variables name the commit and branch (the
    # pull request's head branch before the ref name)
    GITHUB_SHA=$sha GITHUB_HEAD_REF=feature GITHUB_REF_NAME=12/merge \
        run "$cli" merge a.txt --save --store "$store"
    expect_status 0
    [ "$(sql 'SELECT git_commit FROM runs WHERE id = 1')" = "$sha" ] ||
        fail "commit: expected $sha (GITHUB_SHA), stored $(sql 'SELECT git_commit FROM runs WHERE id = 1')"
    [ "$(sql 'SELECT git_branch FROM runs WHERE id = 1')" = feature ] ||
        fail "branch: expected feature (GITHUB_HEAD_REF), stored $(sql 'SELECT git_branch FROM runs WHERE id = 1')"
    CI_COMMIT_SHA=$sha CI_COMMIT_REF_NAME=main run "$cli" merge a.txt --save --store "$store"
    expect_status 0
    [ "$(sql 'SELECT git_branch FROM runs WHERE id = 2')" = main ] || fail "branch: expected main (CI_COMMIT_REF_NAME)"
    # the options beat the variables
    GITHUB_SHA=$sha GITHUB_REF_NAME=main \
        run "$cli" merge a.txt --save --store "$store" --commit abcdef12 --branch release
    expect_status 0
    [ "$(sql 'SELECT git_commit FROM runs WHERE id = 3')" = abcdef12 ] ||
        fail "commit: expected abcdef12 (--commit), stored $(sql 'SELECT git_commit FROM runs WHERE id = 3')"
    [ "$(sql 'SELECT git_branch FROM runs WHERE id = 3')" = release ] || fail "branch: expected release (--branch)"
    run "$cli" merge a.txt --save --store "$store" --commit not-hex
    expect_status 2
    err_has 'not-hex'
    ;;
merge-files-and-runs)
    "$suite" $quick --count 2 --filter Work --out a.json 2>/dev/null || fail "run a"
    "$suite" $quick --count 3 --filter Steady --out b.txt 2>/dev/null || fail "run b"
    run "$cli" merge a.json b.txt
    expect_status 0
    [ "$(grep -c '^BenchmarkWork/n=200	' "$tmp/out")" -eq 2 ] || fail "want 2 Work/n=200 lines"
    [ "$(grep -c '^BenchmarkSteady	' "$tmp/out")" -eq 3 ] || fail "want 3 Steady lines"
    out_has '^# merged-from: a.json, b.txt$'
    # into the store, then merged with a stored run into JSON
    run "$cli" merge a.json b.txt --save --store "$store" --tag merged
    expect_status 0
    err_has 'saved as run 1'
    [ "$(sql 'SELECT kind FROM runs WHERE id = 1')" = merge ] || fail "kind merge"
    [ "$(sql "SELECT count(*) FROM samples")" -gt 0 ] || fail "the JSON batches were not kept"
    run "$cli" merge @1 a.json --store "$store" -o m.json
    expect_status 0
    grep -q '"schema":"benchlab/1"' m.json || fail "-o m.json is not JSON"
    [ "$(grep -o '"status":"ok"' m.json | wc -l)" -eq 11 ] || fail "want 11 launches (7 of @1, 4 of a.json)"
    run "$cli" merge nosuch.txt
    expect_status 2
    err_has 'nosuch.txt'
    ;;
judge-nothing-in-common)
    # an exec session saved after a suite's run: judge's default baseline is
    # the suite's run, which shares no benchmark with it; nothing was judged,
    # so the gate must not pass
    "$suite" $quick --count 2 --store "$store" >/dev/null 2>&1 || fail "suite run"
    run "$cli" exec -r 2 --save --store "$store" true
    expect_status 0
    run "$cli" judge --store "$store"
    expect_status 3
    err_has "judge: nothing to judge: run 2 (.*) and run 1 (.*) have no benchmark in common (1 new, [0-9]* missing); name a run"
    out_has 'new (not in the baseline): Exec/cmd=true'
    # one benchmark in common is something to judge
    run "$cli" judge @2 --against @2 --store "$store"
    expect_status 0
    ;;
exec-and-profile-save)
    run "$cli" exec -r 6 --save --store "$store" --tag sleepy 'true' 'sleep 0.01'
    expect_status 0
    err_has 'saved as run 1'
    [ "$(sql 'SELECT kind FROM runs WHERE id = 1')" = exec ] || fail "kind exec"
    [ "$(sql "SELECT count(*) FROM launches")" = 12 ] || fail "want a launch per run"
    run "$cli" history --store "$store"
    out_has 'Exec/cmd=true'
    run "$cli" compare -store "$store" @1
    expect_status 0
    out_has 'Exec/cmd=sleep_0.01'
    # judge an exec run against itself: nothing changed
    run "$cli" judge @1 --against @1 --store "$store"
    expect_status 0
    out_has 'unchanged'
    if [ -x "$bin/../lib/libbenchlab-sampler.so" ] || ls "$bin"/../lib/libbenchlab-sampler* >/dev/null 2>&1; then
        run "$cli" profile --save --store "$store" -o p.folded -- \
            sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done'
        expect_status 0
        err_has 'saved as run 2'
        [ "$(sql 'SELECT kind FROM runs WHERE id = 2')" = profile ] || fail "kind profile"
        [ "$(sql 'SELECT count(*) FROM profile_functions')" -gt 0 ] || fail "no functions saved"
    fi
    ;;
build-facts-saved)
    run "$suite" $quick --filter Steady --store "$store"
    expect_status 0
    out_has '^# fingerprint: [0-9a-f]\{16\}$'
    out_has '^# compiler: '
    fp=$(sql 'SELECT fingerprint FROM runs WHERE id = 1')
    [ ${#fp} -eq 16 ] || fail "fingerprint '$fp'"
    cc=$(sql 'SELECT compiler FROM runs WHERE id = 1')
    [ -n "$cc" ] || fail "no compiler saved"
    ;;
stored-run-reads-back-as-its-json)
    # what Google Benchmark suites carry (counters with flags, 4 threads'
    # sums, the real and cpu clocks, repetitions, a benchmark's own count,
    # a label, its own time unit, a family's sizes and their complexity fit)
    # is stored: the run read back is its own JSON, field by field, so
    # rates recomputed from it (GB's outputs, report) are the run's
    run "$bin/fixture_counters" $quick --out run.json --store "$store"
    expect_status 0
    run "$cli" merge @latest -o back.json --store "$store"
    expect_status 0
    python3 "$here/same_run.py" --counters run.json back.json >"$tmp/out" 2>&1 ||
        fail "the stored run differs from its own JSON: $(cat "$tmp/out")"
    # and so is a merge of the run's own JSON (its sizes, labels, units and fits)
    run "$cli" merge run.json -o merged.json
    expect_status 0
    python3 "$here/same_run.py" --counters run.json merged.json >"$tmp/out" 2>&1 ||
        fail "a merge of the run's JSON differs from it: $(cat "$tmp/out")"
    [ "$(sql "SELECT count(*) FROM metrics WHERE is_counter = 1 AND counter_flags = 17")" -gt 0 ] ||
        fail "no counter with kIsRate|kInvert in metrics"
    [ "$(sql "SELECT count(*) FROM launches WHERE counter_clock = 2 AND loop_iterations > 0")" -gt 0 ] ||
        fail "no launch with the real clock and its repetitions"
    ;;
old-schema-migrates)
    # a store written by benchlab before schema version 2 (tests/store/v1/:
    # how they were made is in its README) opens, migrates once, keeps its
    # run, reads it back as that benchlab read it, and takes new runs whole
    if [ -n "${BENCHLAB_TEST_PG:-}" ]; then
        psql -q "$store" -f "$here/v1/pg.sql" >/dev/null 2>psql.err || fail "loading pg.sql: $(cat psql.err)"
        want="$here/v1/pg-run1.json"
    else
        mkdir -p store && sqlite3 "$store" <"$here/v1/sqlite.sql" || fail "loading sqlite.sql"
        want="$here/v1/sqlite-run1.json"
    fi
    [ "$(sql "SELECT value FROM benchlab_meta WHERE key = 'schema_version'")" = 1 ] ||
        fail "the fixture is not version 1"
    run "$cli" history --store "$store"
    expect_status 0
    out_has 'Counters'
    [ "$(sql "SELECT value FROM benchlab_meta WHERE key = 'schema_version'")" = 4 ] ||
        fail "not migrated to version 4"
    [ "$(sql 'SELECT count(*) FROM runs')" = 1 ] || fail "the old run is gone"
    run "$cli" merge @1 -o back.json --store "$store"
    expect_status 0
    python3 "$here/same_run.py" --older "$want" back.json >"$tmp/out" 2>&1 ||
        fail "the old run reads back otherwise than the older benchlab read it"
    # once: a second open finds version 4; a new run goes in whole
    run "$bin/fixture_counters" $quick --out run.json --store "$store"
    expect_status 0
    err_has 'saved as run 2 in '
    run "$cli" merge @2 -o back2.json --store "$store"
    expect_status 0
    python3 "$here/same_run.py" --counters run.json back2.json >"$tmp/out" 2>&1 ||
        fail "a run saved into the migrated store differs from its own JSON"
    [ -n "${BENCHLAB_TEST_PG:-}" ] && exit 0
    # an old store that cannot be written (read-only media) is read as it
    # is, not migrated, and not saved into
    mkdir ro && sqlite3 ro/s.db <"$here/v1/sqlite.sql" || fail "loading sqlite.sql"
    chmod a-w ro/s.db ro
    as_user=""
    if [ "$(id -u)" -eq 0 ]; then
        command -v setpriv >/dev/null || fail "setpriv(1) is missing (Debian package util-linux)"
        as_user="setpriv --bounding-set=-dac_override,-dac_read_search"
    fi
    run $as_user "$cli" merge @1 -o "$tmp/ro.json" --store ro/s.db
    st_read=$st
    run $as_user "$bin/fixture_counters" $quick --store ro/s.db
    chmod u+w ro ro/s.db
    [ "$st_read" -eq 0 ] || fail "an old read-only store cannot be read (status $st_read)"
    python3 "$here/same_run.py" --older "$want" ro.json >/dev/null 2>&1 ||
        fail "an old read-only store reads back otherwise than the older benchlab read it"
    expect_status 2
    err_has 'ro/s.db: cannot be written: its schema (version 1) must be migrated to version 4 first'
    err_has 'nothing was measured'
    [ "$(sqlite3 ro/s.db "SELECT value FROM benchlab_meta WHERE key = 'schema_version'")" = 1 ] ||
        fail "a read-only store was migrated"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "ok $case_name"
