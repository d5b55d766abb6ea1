#!/bin/sh
# fake_suite.sh - a stand-in suite that speaks the worker protocol without
# measuring anything: it logs the arguments each worker got to $FAKE_LOG
# and sends fixed batches (and a batch size of 1000 for the tune file), so
# tests can check what the runner asks of its workers (launches, budget
# split, tuned repetitions).
if [ "${1:-}" = "--benchlab-list" ]; then
    printf 'benchlab-list 1\nBenchmarkFakeA\nBenchmarkFakeB\n'
    exit 0
fi
# The first $FAKE_DISTURB launches of BenchmarkFakeB measure 2 batches, each
# with a context switch, as a worker on a busy machine might.
ivcsw=0 n=12
done_b=$(cat "$FAKE_LOG" 2>/dev/null | grep -c 'worker BenchmarkFakeB ')
if [ "$2" = BenchmarkFakeB ] && [ "$done_b" -lt "${FAKE_DISTURB:-0}" ]; then
    ivcsw=1 n=2
fi
echo "$*" >>"$FAKE_LOG"
{
    printf 'hello 1 %d\ncalib 20 0 rusage\n' $$
    # $FAKE_THREADS: a benchmark of that many threads (batch times are the group's)
    [ -z "${FAKE_THREADS:-}" ] || printf 'threads %d\n' "$FAKE_THREADS"
    printf 's p 1000 1000000 1000000 0 0 0 0 0\n'
    i=0
    while [ $i -lt $n ]; do
        printf 's O 1000 1000 1000 0 0 0 0 0\ns m 1000 %d %d %d 0 0 0 0\n' $((1000000 + i)) $((1000000 + i)) $ivcsw
        i=$((i + 1))
    done
    printf 'tune 1000\ndone 13000\n'
} >&3
