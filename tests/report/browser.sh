#!/bin/sh
# browser.sh BINDIR DATADIR - the HTML report in a real browser.
#
# Two reports: one of real runs of the example suite (two runs, so every
# chart kind but history is drawn; three inputs add history), one of
# hostile input (names, labels and metadata with markup and quotes).
# Each is loaded by headless Chromium from a file:// URL:
#   --dump-dom   the page's script ran to its end without an error
#                (data-report-ready="1", no data-report-errors), every
#                chart the writer drew has data with a size on screen
#                (data-charts-drawn equals data-charts), and the only
#                <script> element is the report's own;
#   --screenshot the run colours and the density areas' tints are on the
#                screen in quantity (png_colors.py decodes the PNG);
#   the browser's console log has no error.
# Chromium missing is a failure, never a skip: scripts/deps.sh --check
# installs it (Debian package chromium).
set -u
bin=$1
data=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}
browser=$(command -v chromium || command -v chromium-browser) ||
    fail "chromium is not installed: the browser test needs it (scripts/deps.sh --check installs the Debian package chromium)"
command -v python3 >/dev/null || fail "python3 is not installed (scripts/deps.sh installs it)"

# chromium FLAGS... URL: headless, no network or background services, a
# fresh profile each time (as root it must run without its sandbox)
chrome() {
    prof=$(mktemp -d "$tmp/profile.XXXXXX")
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-extensions --disable-default-apps --mute-audio --hide-scrollbars \
        --enable-logging=stderr --v=0 --user-data-dir="$prof" "$@"
}

check_page() { # check_page NAME HTML MIN_CHARTS
    name=$1
    html=$2
    chrome --virtual-time-budget=5000 --dump-dom "file://$html" >"$tmp/$name.dom" 2>"$tmp/$name.log" ||
        fail "$name: chromium --dump-dom failed: $(tail -5 "$tmp/$name.log")"
    grep -q 'data-report-ready="1"' "$tmp/$name.dom" ||
        fail "$name: the report's script did not finish (no data-report-ready); log: $(grep -i console "$tmp/$name.log" | head -5)"
    ! grep -q 'data-report-errors="' "$tmp/$name.dom" || fail "$name: script errors on the page"
    if grep -E 'CONSOLE|Uncaught' "$tmp/$name.log" | grep -qiE 'error|uncaught'; then
        fail "$name: console errors: $(grep -E 'CONSOLE|Uncaught' "$tmp/$name.log" | head -5)"
    fi
    want=$(sed -n 's/.*data-charts="\([0-9]*\)".*/\1/p' "$tmp/$name.dom" | head -1)
    drawn=$(sed -n 's/.*data-charts-drawn="\([0-9]*\)".*/\1/p' "$tmp/$name.dom" | head -1)
    [ -n "$want" ] && [ -n "$drawn" ] || fail "$name: chart counts missing from the DOM"
    [ "$want" -ge "$3" ] || fail "$name: only $want charts written, want at least $3"
    [ "$drawn" = "$want" ] || fail "$name: $drawn of $want charts have drawn data"
    scripts=$(grep -o '<script' "$tmp/$name.dom" | wc -l)
    [ "$scripts" -eq 1 ] || fail "$name: $scripts <script> elements in the DOM, want only the report's own"
    echo "$name: script ran, $drawn/$want charts drawn"
}

suite="$bin/example_suite"
cli="$bin/benchlab"
filter='^Benchmark(HashFNV1a/bytes=64|MallocList/nodes=16)$'
"$cli" run "$suite" --filter "$filter" --time 0.1s --alloc --out "$tmp/a.json" 2>"$tmp/run.err" ||
    fail "run a: $(cat "$tmp/run.err")"
"$cli" run "$suite" --filter "$filter" --time 0.1s --count 2 --out "$tmp/b.json" 2>"$tmp/run.err" ||
    fail "run b: $(cat "$tmp/run.err")"
"$cli" report old="$tmp/a.json" new="$tmp/b.json" -o "$tmp/two.html" 2>"$tmp/rep.err" ||
    fail "report: $(cat "$tmp/rep.err")"
# distribution, scaling, timeline and comparison for both benchmarks
check_page two "$tmp/two.html" 8
"$cli" report "$tmp/a.json" "$tmp/b.json" "$tmp/a.json" -o "$tmp/three.html" 2>"$tmp/rep.err" ||
    fail "report: $(cat "$tmp/rep.err")"
grep -q 'class="fig history"' "$tmp/three.html" || fail "three runs: no history chart"
check_page three "$tmp/three.html" 10

"$cli" report '<b title"x">run='"$data/hostile.json" -o "$tmp/hostile.html" 2>"$tmp/rep.err" ||
    fail "hostile report: $(cat "$tmp/rep.err")"
check_page hostile "$tmp/hostile.html" 3
grep -q 'alert(&quot;pwned&quot;)' "$tmp/hostile.dom" || fail "hostile: the escaped name is not shown as text"
! grep -q '<b title' "$tmp/hostile.dom" || fail "hostile: the label became markup"
grep -q '&lt;b title"x"&gt;run' "$tmp/hostile.dom" || fail "hostile: the label is not shown as text"

# the screenshot: the two runs' colours in the charts, and the tints of the
# density areas (the run colour at 20% over white), which only charts have.
# An area's size follows the measured data (a narrow peak fills little: a
# clean-clone run drew 1339 and 1468 pixels), so 400 each: an area not
# drawn leaves none.
chrome --window-size=1280,1800 --screenshot="$tmp/two.png" "file://$tmp/two.html" \
    >"$tmp/shot.log" 2>&1 || fail "screenshot failed: $(tail -5 "$tmp/shot.log")"
python3 "$here/png_colors.py" "$tmp/two.png" '#4e79a7:400' '#f28e2b:400' '#dce4ed:400:4' \
    '#fce8d5:400:4' || fail "the charts' colours are missing from the screenshot"
echo "ok"
