#!/bin/sh
# output.sh CASE BINDIR DATADIR - how every writer opens its output
# (benchlab/output.h, docs/formats.md "Output files"): devices are written
# in place and never replaced, regular files whole or not at all, a failed
# write is an error that names the output and its cause.
#
# Runs in a private mount namespace with a tmpfs on /dev holding our own
# null, full and zero: a regression that replaces /dev/null replaces ours,
# not the machine's.
set -u
case_name=$1
bin=$2
data=$3
if [ -z "${BL_PRIVATE_DEV:-}" ]; then
    if unshare -m true 2>/dev/null; then
        exec unshare -m env BL_PRIVATE_DEV=private sh "$0" "$@"
    fi
    # In a chroot "/" is no mount point, so unshare cannot make it private
    # (EINVAL); we then make the mount holding /dev private ourselves below.
    if unshare -m --propagation unchanged true 2>/dev/null; then
        exec unshare -m --propagation unchanged env BL_PRIVATE_DEV=unchanged sh "$0" "$@"
    fi
    echo "SKIP [$case_name]: needs unshare -m (root) for a private /dev"
    exit 77
fi
if [ "$BL_PRIVATE_DEV" = unchanged ]; then
    # Without this our tmpfs on /dev would propagate to the caller's /dev.
    if ! mountpoint -q /dev || ! mount --make-rprivate /dev; then
        echo "SKIP [$case_name]: /dev is no mount point that can be made private here"
        exit 77
    fi
fi
mount -t tmpfs -o mode=755 bl-private-dev /dev || exit 1
mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 && mknod -m 666 /dev/zero c 1 5 &&
    mknod -m 666 /dev/urandom c 1 9 || exit 1
ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/1 /dev/stdout && ln -s /proc/self/fd/2 /dev/stderr
mkdir /dev/shm && mount -t tmpfs shm /dev/shm

cli="$bin/benchlab"
suite="$bin/example_suite"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"
is_device() { [ -c "$1" ] || fail "$1 is no longer a character device: $(ls -l "$1")"; }
no_temps() {
    left=$(ls -a "$1" | grep '\.tmp' || true)
    [ -z "$left" ] || fail "temporary files left in $1: $left"
}
go="$data/doc-old.txt"
one="--filter HashFNV1a/bytes=64 --count 2 --time 0.05 --no-table"

case $case_name in
devices-are-written-in-place)
    # every writer, as root, onto /dev/null: exit 0 and /dev/null stays a device
    run "$cli" merge "$go" -o /dev/null
    expect_status 0
    run "$cli" report "$go" -o /dev/null
    expect_status 0
    run "$suite" $one --out /dev/null
    expect_status 0
    run "$cli" run "$suite" $one --format json --out /dev/null
    expect_status 0
    run "$cli" exec -N --runs 2 true --export-json /dev/null --export-csv /dev/null \
        --export-markdown /dev/null
    expect_status 0
    is_device /dev/null
    is_device /dev/full
    # a non-root user may write /dev/null, not create files in /dev
    # (the input is copied: the checkout may be under a home nobody cannot read)
    chmod 755 "$tmp"
    cp "$go" "$tmp/in.txt" && chmod 644 "$tmp/in.txt"
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$cli" merge "$tmp/in.txt" -o /dev/null
    expect_status 0
    is_device /dev/null
    no_temps /dev
    ;;
full-device-is-an-error)
    run "$cli" merge "$go" -o /dev/full
    expect_status 2
    err_has "merge: --out /dev/full: No space left on device"
    run "$cli" report "$go" -o /dev/full
    expect_status 2
    err_has "report: /dev/full: No space left on device"
    run "$suite" $one --out /dev/full
    expect_status 2
    err_has "\-\-out /dev/full: No space left on device"
    run "$cli" exec -N --runs 2 true --export-json /dev/full
    expect_status 2
    err_has "/dev/full.*No space left on device"
    is_device /dev/full
    no_temps /dev
    ;;
stdout-full-is-an-error)
    # the probe's command: results lost, exit 0, nothing said
    "$suite" $one >/dev/full 2>"$tmp/err"
    st=$?
    expect_status 2
    err_has "stdout: No space left on device"
    err_lacks "Input/output error"
    "$cli" run "$suite" $one >/dev/full 2>"$tmp/err"
    st=$?
    expect_status 2
    err_has "stdout: No space left on device"
    "$cli" exec -N --runs 2 --format go true >/dev/full 2>"$tmp/err"
    st=$?
    expect_status 2
    err_has "stdout: No space left on device"
    for args in "merge $go" "merge $go --format json" "compare $go" "report $go -o -"; do
        "$cli" $args >/dev/full 2>"$tmp/err"
        st=$?
        expect_status 2
        err_has "No space left on device"
    done
    ;;
links-lead-to-their-target)
    echo old >"$tmp/target.txt"
    ln -s target.txt "$tmp/link.txt"
    run "$cli" merge "$go" -o "$tmp/link.txt"
    expect_status 0
    [ -L "$tmp/link.txt" ] || fail "the symbolic link was replaced"
    grep -q BenchmarkEncode "$tmp/target.txt" || fail "the link's target was not written"
    # /dev/stdout writes to the descriptor: appended here, the link kept
    echo first >"$tmp/stdout.txt"
    "$cli" merge "$go" -o /dev/stdout >>"$tmp/stdout.txt" 2>"$tmp/err"
    st=$?
    expect_status 0
    [ -L /dev/stdout ] || fail "/dev/stdout was replaced"
    [ "$(head -1 "$tmp/stdout.txt")" = first ] || fail "/dev/stdout did not append"
    grep -q BenchmarkEncode "$tmp/stdout.txt" || fail "nothing reached /dev/stdout"
    # "-" is stdout for every writer that takes a file
    run "$cli" merge "$go" -o -
    expect_status 0
    out_has BenchmarkEncode
    run "$suite" $one --out -
    expect_status 0
    out_has "BenchmarkHashFNV1a"
    [ ! -e ./- ] && [ ! -e "$tmp/-" ] || fail "a file named - was written"
    ;;
fifo-is-written-through)
    mkfifo "$tmp/fifo"
    timeout 20 cat "$tmp/fifo" >"$tmp/got" &
    reader=$!
    run "$cli" merge "$go" -o "$tmp/fifo"
    expect_status 0
    wait $reader
    [ -p "$tmp/fifo" ] || fail "the FIFO was replaced"
    grep -q BenchmarkEncode "$tmp/got" || fail "nothing came through the FIFO"
    ;;
gbench-out-is-checked-and-named)
    # Google Benchmark's --benchmark_out on a suite of the layer: devices
    # written in place, links followed, a FIFO written through, what cannot
    # be written refused before measuring, every message naming the flag
    # given; --benchmark_format onto a full stdout is an error
    gb="$bin/gbench/bl_api_suite"
    gbone="--benchmark_filter=^BM_counters$ --benchmark_min_time=0.02 --benchmark_repetitions=1"
    run "$gb" $gbone --benchmark_out=/dev/null
    expect_status 0
    is_device /dev/null
    run "$gb" $gbone --benchmark_out=/dev/full
    expect_status 2
    err_has "\-\-benchmark_out /dev/full: No space left on device"
    is_device /dev/full
    run "$gb" $gbone --benchmark_out=/dev/stdout
    expect_status 0
    [ -L /dev/stdout ] || fail "/dev/stdout was replaced"
    out_has '"benchmarks"'
    mkfifo "$tmp/gfifo"
    timeout 20 cat "$tmp/gfifo" >"$tmp/ggot" &
    reader=$!
    run "$gb" $gbone --benchmark_out="$tmp/gfifo"
    expect_status 0
    wait $reader
    [ -p "$tmp/gfifo" ] || fail "the FIFO was replaced"
    grep -q '"BM_counters"' "$tmp/ggot" || fail "nothing came through the FIFO"
    echo old >"$tmp/gtarget"
    ln -s gtarget "$tmp/glink"
    run "$gb" $gbone --benchmark_out="$tmp/glink"
    expect_status 0
    [ -L "$tmp/glink" ] || fail "the symbolic link was replaced"
    grep -q '"BM_counters"' "$tmp/gtarget" || fail "the link's target was not written"
    mkdir "$tmp/gdir"
    run "$gb" $gbone --benchmark_out="$tmp/gdir"
    expect_status 2
    err_has "\-\-benchmark_out $tmp/gdir: is a directory; nothing was measured"
    err_lacks "\-\-out "
    [ -d "$tmp/gdir" ] || fail "the directory was replaced"
    mkdir "$tmp/gro" && echo keep >"$tmp/gro/f" && chmod 555 "$tmp/gro" && chmod 755 "$tmp"
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$gb" $gbone --benchmark_out="$tmp/gro/f"
    expect_status 2
    err_has "\-\-benchmark_out $tmp/gro/f: Permission denied; nothing was measured"
    [ "$(cat "$tmp/gro/f")" = keep ] || fail "the unwritable file was changed"
    no_temps "$tmp"
    # two outputs named: refused, not one of them dropped
    run "$gb" $gbone --benchmark_out="$tmp/a.json" --out "$tmp/b.json"
    expect_status 2
    err_has "\-\-benchmark_out and \-\-out both name the output: give one"
    [ ! -e "$tmp/a.json" ] && [ ! -e "$tmp/b.json" ] || fail "a file was written"
    run "$gb" $gbone --benchmark_format=csv --format=json
    expect_status 2
    err_has "\-\-benchmark_format and \-\-format both name the format: give one"
    for f in json csv console; do
        "$gb" $gbone --benchmark_format=$f >/dev/full 2>"$tmp/err"
        st=$?
        expect_status 2
        err_has "stdout: No space left on device"
    done
    ;;
store-not-a-file-is-named)
    # a store named by a device or a FIFO: refused before measuring, naming
    # what the path is (SQLite said "disk I/O error" or, reading /dev/null,
    # "no runs saved yet"); nothing made beside it
    mkfifo "$tmp/sfifo"
    for s in /dev/null:'a character device' /dev/full:'a character device' \
        "$tmp/sfifo":'a FIFO'; do
        p=${s%%:*}
        run "$suite" $one --save --store "$p"
        expect_status 2
        err_has "\-\-save: store $p: is ${s#*:}, not a store file; nothing was measured"
        run "$cli" history --store "$p"
        expect_status 2
        err_has "store $p: is ${s#*:}, not a store file"
    done
    is_device /dev/null
    is_device /dev/full
    [ -z "$(ls /dev | grep journal)" ] || fail "a journal was made in /dev: $(ls /dev)"
    ;;
regular-file-keeps-mode)
    echo old >"$tmp/out.txt"
    chmod 640 "$tmp/out.txt"
    run "$cli" merge "$go" -o "$tmp/out.txt"
    expect_status 0
    [ "$(stat -c %a "$tmp/out.txt")" = 640 ] || fail "mode $(stat -c %a "$tmp/out.txt"), want 640"
    grep -q BenchmarkEncode "$tmp/out.txt" || fail "not replaced"
    no_temps "$tmp"
    ;;
killed-writers-leave-nothing)
    # exec's export no longer truncates the previous file at start
    echo previous >"$tmp/e.json"
    "$cli" exec -N --runs 200 'sleep 0.05' --export-json "$tmp/e.json" >/dev/null 2>&1 &
    pid=$!
    sleep 1
    kill -9 $pid
    wait $pid 2>/dev/null
    [ "$(cat "$tmp/e.json")" = previous ] || fail "kill -9 changed the previous export"
    no_temps "$tmp"
    for sig in HUP TERM XFSZ; do
        echo previous >"$tmp/r.json"
        "$suite" --filter 'Hash' --time 0.3 --no-table --out "$tmp/r.json" >/dev/null 2>&1 &
        pid=$!
        sleep 1
        kill -s $sig $pid
        wait $pid 2>/dev/null
        no_temps "$tmp"
        # SIGTERM ends a run early and keeps what finished; the others end it
        [ "$(cat "$tmp/r.json")" = previous ] || grep -q Benchmark "$tmp/r.json" ||
            fail "SIG$sig left a partial file: $(head -c 200 "$tmp/r.json")"
    done
    ;;
stale-temporaries-are-removed)
    echo stale >"$tmp/out.txt.tmp.999999999"
    echo live >"$tmp/out.txt.tmp.$$"
    echo mine >"$tmp/out.txt.tmp.notapid"
    run "$cli" merge "$go" -o "$tmp/out.txt"
    expect_status 0
    [ ! -e "$tmp/out.txt.tmp.999999999" ] || fail "a dead writer's temporary file stays"
    [ -e "$tmp/out.txt.tmp.$$" ] || fail "a live writer's temporary file was removed"
    [ -e "$tmp/out.txt.tmp.notapid" ] || fail "a file not ours was removed"
    ;;
file-size-limit-is-an-error)
    echo previous >"$tmp/big.json"
    (ulimit -f 4 && "$cli" merge "$go" "$go" "$go" --format json -o "$tmp/big.json") >"$tmp/out" 2>"$tmp/err"
    st=$?
    expect_status 2
    err_has "File too large"
    [ "$(cat "$tmp/big.json")" = previous ] || fail "the previous file was changed"
    no_temps "$tmp"
    ;;
store-on-full-disk-says-so)
    mkdir "$tmp/small" && mount -t tmpfs -o size=40k bl-small "$tmp/small" || fail "mount"
    run "$cli" merge "$go" "$data/doc-new.txt" --save --store "$tmp/small/s.db"
    expect_status 2
    err_has "s.db.*disk is full"
    run "$suite" $one --save --store "$tmp/small/s2.db"
    expect_status 2
    err_has "s2.db.*disk is full"
    umount "$tmp/small"
    ;;
hostile-names-are-neutralised)
    # names from a hostile file: OSC 52 (clipboard), a formula, HTML, bytes not UTF-8
    esc=$(printf '\033')
    printf 'goos: linux\n' >"$tmp/h.txt"
    for i in 1 2 3 4 5 6; do
        printf 'BenchmarkA\033]52;c;cHduZWQ=\007x-8 1 %d ns/op\n' "$((100 + i))"
        printf 'Benchmark=cmd|calc!A0-8 1 %d ns/op\n' "$((200 + i))"
        printf 'Benchmark<img/src=x/onerror=alert(1)>-8 1 %d ns/op\n' "$((300 + i))"
        printf 'Benchmark\377bad-8 1 %d ns/op\n' "$((400 + i))"
    done >>"$tmp/h.txt"
    run "$cli" compare "$tmp/h.txt"
    expect_status 0
    out_lacks "$esc"
    out_has 'A\\x1b]52;c;cHduZWQ=\\x07x'
    run "$cli" compare -format csv "$tmp/h.txt"
    out_has "^\"'=cmd|calc!A0-8\",2"
    # CSV goes to terminals too: its cells show control bytes as text
    out_lacks "$esc"
    out_has '^A\\x1b]52;c;cHduZWQ=\\x07x-8,'
    out_has '^\\xffbad-8,'
    # ... and so do the gate's regressions, the notes and CSV's warnings on stderr
    sed 's/ \([0-9]*\) ns\/op/ 9\1 ns\/op/' "$tmp/h.txt" >"$tmp/h2.txt"
    run "$cli" compare --fail-on-regression=5 "$tmp/h.txt" "$tmp/h2.txt"
    expect_status 1
    err_lacks "$esc"
    err_has '^benchlab: regression: A\\x1b]52;c;cHduZWQ=\\x07x-8 sec/op'
    printf 'pkg: p\033]0;retitled\007\n' >"$tmp/n1.txt"
    printf 'pkg: q\n' >"$tmp/n2.txt"
    : >"$tmp/w.txt"
    for i in 1 2 3 4 5 6; do
        printf 'BenchmarkS 1 %d ns/op\n' "$((10 + i))" | tee -a "$tmp/n1.txt" >>"$tmp/n2.txt"
        printf 'k\033]0;t\007x: %d\nBenchmarkS 1 %d ns/op\n' "$i" "$((10 + i))" >>"$tmp/w.txt"
    done
    run "$cli" compare "$tmp/n1.txt" "$tmp/n2.txt"
    expect_status 0
    err_lacks "$esc"
    err_has 'differ only in pkg ("p\\x1b]0;retitled\\x07" and "q")'
    run "$cli" compare -format csv -table '' "$tmp/w.txt"
    expect_status 0
    err_lacks "$esc"
    err_has '^B3: benchmarks vary in k\\x1b]0;t\\x07x$'
    run "$cli" compare -format markdown "$tmp/h.txt"
    out_lacks '[^\\]<img'
    out_has '\\<img/src=x/onerror=alert(1)\\>'
    run "$cli" compare -format json "$tmp/h.txt"
    expect_status 0
    python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/out" ||
        fail "compare -format json is not valid UTF-8 JSON"
    run "$cli" merge "$tmp/h.txt" --format json
    expect_status 0
    python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/out" ||
        fail "merge --format json is not valid UTF-8 JSON"
    out_has "Benchmark$(printf '\357\277\275')bad" # U+FFFD for the byte that is not UTF-8
    # run's CSV: a metric unit becomes a column header
    printf 'BenchmarkU-8 1 100 ns/op 5 =1+1\n' >"$tmp/u.txt"
    run "$cli" merge "$tmp/u.txt" --format csv
    expect_status 0
    out_has ",\"'=1+1\"$"
    run "$cli" merge "$tmp/h.txt" --format markdown
    out_lacks '[^\\]<img'
    # exec's exports: one Markdown escaper, one CSV rule
    run "$cli" exec -N --runs 2 -n '<img/src=x/onerror=alert(1)>' true -n '=HYPERLINK("x")' true \
        -n 'a`<img src=x onerror=alert(2)>`|b' true --export-markdown "$tmp/e.md" --export-csv "$tmp/e.csv"
    expect_status 0
    # hyperfine's layout: a command is a code span, where HTML is shown as text,
    # fenced longer than any backtick run inside so that none can close it
    grep -qF '| `<img/src=x/onerror=alert(1)>` |' "$tmp/e.md" || fail "exec markdown: not a code span"
    grep -qF '| ``a`<img src=x onerror=alert(2)>`\|b`` |' "$tmp/e.md" ||
        fail "exec markdown: a backtick closed the code span"
    grep -q "^\"'=HYPERLINK(\"\"x\"\")\"," "$tmp/e.csv" || fail "exec --export-csv wrote a formula"
    # exec's summary names the command without sending its escapes
    run "$cli" exec -N --runs 2 -n "x${esc}]0;retitled$(printf '\007')y" true
    expect_status 0
    out_lacks "$esc"
    out_has 'Benchmark 1: x\\x1b]0;retitled\\x07y'
    ;;
directory-is-refused)
    run "$cli" merge "$go" -o "$tmp"
    expect_status 2
    err_has "merge: --out $tmp: Is a directory"
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
