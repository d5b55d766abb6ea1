#!/bin/sh
# edges.sh CASE BINDIR - the runner at the edges of the process model.
# Benchmarks that fork (fixture_fork.c): a launch ends with its worker,
# whatever its children hold; no process of a run survives it; results
# that were complete are kept. A low open-file limit is named as such.
set -u
case_name=$1
bin=$2
tmp=$(mktemp -d)
suite="$bin/fixture_fork"
export FORK_PIDS="$tmp/pids"
cleanup() {
    # never leave a sleeper behind, even when the test fails
    [ -f "$FORK_PIDS" ] && while read -r p; do kill -9 "$p" 2>/dev/null; done <"$FORK_PIDS"
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"

# every pid in $FORK_PIDS is gone (they are killed and reaped before the
# run returns; the loop only allows for a slow /proc)
none_survive() {
    [ -s "$FORK_PIDS" ] || fail "the benchmark left no pids in $FORK_PIDS"
    while read -r p; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        ! kill -0 "$p" 2>/dev/null || fail "process $p of the run survived it: $(cat /proc/$p/cmdline 2>/dev/null | tr '\0' ' ')"
    done <"$FORK_PIDS"
}

case $case_name in
child-holding-pipes-does-not-hold-the-launch)
    # the child sleeps 120 s holding the pipes; the launch ends with the
    # worker, not with the time limit, and keeps its results
    for how in "$suite" "$bin/benchlab run $suite"; do
        : >"$FORK_PIDS"
        run $how --time 0.05s --timeout 30s --count 2 --filter ForkKeepsPipes
        expect_status 0
        out_has '^BenchmarkForkKeepsPipes	'
        err_lacks 'time limit'
        [ "$(grep -c '^BenchmarkForkKeepsPipes	' "$tmp/out")" = 2 ] || fail "want both launches"
        none_survive
    done
    ;;
daemons-do-not-outlive-the-run)
    : >"$FORK_PIDS"
    run "$suite" --time 0.05s --timeout 30s --count 2 --filter Daemon
    expect_status 0
    out_has '^BenchmarkDaemon	'
    [ "$(wc -l <"$FORK_PIDS")" -eq 2 ] || fail "want a daemon per launch: $(cat "$FORK_PIDS")"
    none_survive
    ;;
daemons-of-live-workers-are-kept)
    # ab holds many workers at once: the end of one kills its own strays,
    # not the daemon another still uses; none outlives the run
    : >"$FORK_PIDS"
    export FORK_LOST="$tmp/lost"
    : >"$FORK_LOST"
    # (the verdict, exit 0 or 1 on this loaded machine, is not the point)
    run "$bin/benchlab" ab "$suite" "$suite" --time 0.3s --timeout 30s --filter ServerKept
    [ "$st" -le 1 ] || fail "exit status $st"
    out_has '^BenchmarkServerKept '
    [ "$(wc -l <"$FORK_PIDS")" -ge 2 ] || fail "want a daemon per worker: $(cat "$FORK_PIDS")"
    [ ! -s "$FORK_LOST" ] || fail "a live worker lost its daemon: $(cat "$FORK_LOST")"
    none_survive
    ;;
complete-results-kept-when-exit-hangs)
    # results sent, then exit() never returns: killed at the time limit,
    # the launch kept (5 s: room for a loaded machine to finish measuring)
    run "$suite" --time 0.05s --timeout 5s --count 1 --filter ExitHangs
    expect_status 0
    out_has '^BenchmarkExitHangs	'
    err_lacks 'time limit'
    ;;
forked-child-in-the-loop-is-refused)
    # a child that returns into the loop beside the worker: its batches
    # would mix with the worker's on the channel it inherited. The launch
    # fails naming it, no result of it is written, the child is ended.
    for how in "$suite" "$bin/benchlab run $suite"; do
        : >"$FORK_PIDS"
        run $how --time 0.05s --timeout 30s --count 2 --filter ForkContinues
        expect_status 1
        err_has 'ForkContinues: a process it forked (pid [0-9]*) went on into the benchmark loop'
        out_lacks '^BenchmarkForkContinues	'
        [ -s "$FORK_PIDS" ] || fail "$how: the child noted no pid"
        none_survive
    done
    ;;
closed-or-reused-channel-is-named)
    # a body that closes descriptors it did not open, the channel among
    # them: said so (not "exit() called inside the benchmark?"), and a file
    # it opens on the channel's number gets none of the worker's messages
    run "$suite" --time 0.05s --timeout 30s --count 1 --filter ChannelClosed
    expect_status 1
    err_has 'ChannelClosed: closed or replaced the channel to the runner (fd 3)'
    err_lacks 'exit() called'
    export CHANNEL_FILE="$tmp/mine.txt"
    run "$suite" --time 0.05s --timeout 30s --count 1 --filter ChannelReused
    expect_status 1
    err_has 'ChannelReused: closed or replaced the channel to the runner (fd 3)'
    [ -f "$tmp/mine.txt" ] || fail "the benchmark's file was not made"
    [ ! -s "$tmp/mine.txt" ] || fail "the worker wrote into the benchmark's file: $(head -c 200 "$tmp/mine.txt")"
    ;;
statistic-that-ends-its-process-loses-nothing)
    # a statistic's function that crashes or exits: computed away from the
    # run's results, which are written and kept; the statistic is said to
    # be missing, naming it
    for how in segv exit; do
        for fmt in json gbench-json; do
            echo previous >"$tmp/r.json"
            run env STATS_END=$how "$suite" --time 0.05s --count 2 --filter StatsEnd \
                --format $fmt --out "$tmp/r.json"
            expect_status 0
            err_has "statistic 'ending' of StatsEnd: the function ended the process computing it"
            python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["benchmarks"]' \
                "$tmp/r.json" || fail "$how $fmt: the results were not written: $(head -c 200 "$tmp/r.json")"
        done
    done
    # one that never returns: killed at --timeout, the results kept, under
    # the suite's own runner and benchlab run alike
    for how in "$suite" "$bin/benchlab run $suite"; do
        run env STATS_END=hang timeout 60 $how --time 0.05s --count 2 --timeout 2s --filter StatsEnd
        expect_status 0
        err_has "statistic 'ending' of StatsEnd: the function did not return within 2s (--timeout): killed"
        out_has '^BenchmarkStatsEnd	'
    done
    # a statistic that works still comes out
    run "$suite" --time 0.05s --count 2 --filter StatsEnd
    expect_status 0
    err_has '^  StatsEnd  ending  .* ns  (2 launches)'
    ;;
clock-never-resumed-is-named)
    # bl_pause (PauseTiming) in every repetition, never bl_resume: said at
    # once, not "ran past its time limit" a minute later
    run "$suite" --time 0.05s --timeout 20s --count 1 --filter NeverResumes
    expect_status 1
    err_has 'NeverResumes: the clock was paused (bl_pause, PauseTiming) and not resumed'
    err_lacks 'time limit'
    ;;
low-open-file-limit-is-named)
    # at ulimit -n 10 no worker can start: said so, not "not a benchlab suite"
    for how in "$suite" "$bin/benchlab run $suite"; do
        run sh -c "ulimit -n 10 && exec $how --time 0.05s --filter Daemon"
        expect_status 2
        err_has 'cannot start a worker: too many open files (the open-file limit, ulimit -n, is 10; a worker needs 16)'
        err_lacks 'not a benchlab suite'
        [ ! -s "$tmp/out" ] || fail "$how: results without a worker"
    done
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "ok $case_name"
