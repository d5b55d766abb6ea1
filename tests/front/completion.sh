#!/bin/sh
# completion.sh CASE BUILD - the man pages and shell completions written from
# the option tables (src/docgen): every page renders with man -l, the bash
# completion loads and completes commands, options, values and benchmark
# names, the zsh completion loads and completes in an interactive zsh.
set -u
case_name=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/e2e_lib.sh"
share=$build/share
suite=$build/bin/fixture_measure

# complete WORD... with bash: the words of COMPREPLY, one per line
bash_complete() {
    bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _benchlab
        printf "%s\n" "${COMPREPLY[@]}"' "$share/bash/benchlab" "$@"
}

case $case_name in
man-pages-render)
    n=0
    for page in "$share"/man/*.[13]; do
        MANWIDTH=80 man --warnings -l "$page" >"$tmp/out" 2>"$tmp/err" ||
            fail "man -l $page: exit $?"
        [ ! -s "$tmp/err" ] || { cat "$tmp/err"; fail "man -l $page: warnings"; }
        grep -q 'benchlab' "$tmp/out" || fail "$page does not name benchlab"
        n=$((n + 1))
    done
    # benchlab(1), benchlab(3) and one page per command with options on its table
    [ "$n" -ge 12 ] || fail "only $n pages"
    for c in run exec env ab compare profile report history judge baseline merge; do
        [ -f "$share/man/benchlab-$c.1" ] || fail "no benchlab-$c(1)"
        # the synopsis names the command, even one without operands (env)
        MANWIDTH=80 man -l "$share/man/benchlab-$c.1" 2>/dev/null |
            awk '/^SYNOPSIS/ { getline; print; exit }' | tr -s ' ' >"$tmp/out"
        out_has "^ *benchlab $c"
    done
    MANWIDTH=80 man -l "$share/man/benchlab-run.1" >"$tmp/out" 2>/dev/null
    out_has '--timeout DURATION'
    out_has 'Default: 60s'
    # exec's options of several values and its short-only -N
    MANWIDTH=80 man -l "$share/man/benchlab-exec.1" >"$tmp/out" 2>/dev/null
    out_has '^ *-P, --parameter-scan VAR MIN MAX$'
    out_has '^ *-L, --parameter-list VAR VALUES$'
    out_has '^ *-N  *the same as --shell=none$'
    out_lacks 'min-benchmarking-time'
    MANWIDTH=80 man -l "$share/man/benchlab.3" >"$tmp/out" 2>/dev/null
    out_has 'bl_results \*bl_results_create(void);'
    out_lacks 'bl__'
    ;;
bash-completion)
    bash -c ". '$share/bash/benchlab'; complete -p benchlab" >"$tmp/out" 2>"$tmp/err" ||
        fail "complete -p benchlab: exit $?"
    out_has 'complete -F _benchlab benchlab'
    bash_complete benchlab ex >"$tmp/out"
    [ "$(cat "$tmp/out")" = exec ] || fail "benchlab ex<TAB>: $(cat "$tmp/out")"
    bash_complete benchlab run "$suite" --fo >"$tmp/out"
    [ "$(cat "$tmp/out")" = --format ] || fail "run SUITE --fo<TAB>: $(cat "$tmp/out")"
    bash_complete benchlab run "$suite" --format '' >"$tmp/out"
    [ "$(tr '\n' ' ' <"$tmp/out")" = "go json csv markdown gbench-json gbench-csv gbench-console " ] || fail "--format values"
    bash_complete benchlab run "$suite" --color = ne >"$tmp/out"
    [ "$(cat "$tmp/out")" = never ] || fail "--color=ne<TAB>: $(cat "$tmp/out")"
    bash_complete benchlab run "$suite" --profile-format = svg,fo >"$tmp/out"
    [ "$(cat "$tmp/out")" = svg,folded ] || fail "a list's last item: $(cat "$tmp/out")"
    # the suite's benchmarks, from its --list
    bash_complete benchlab run "$suite" --filter BenchmarkE >"$tmp/out"
    [ "$(cat "$tmp/out")" = BenchmarkEmpty ] || fail "--filter names: $(cat "$tmp/out")"
    bash_complete benchlab compare -fo >"$tmp/out"
    [ "$(cat "$tmp/out")" = -format ] || fail "compare's Go-style flags: $(cat "$tmp/out")"
    # exec: its options, their values, and a command after them
    bash_complete benchlab exec --exp >"$tmp/out"
    [ "$(tr '\n' ' ' <"$tmp/out")" = "--export-asciidoc --export-csv --export-json --export-markdown --export-orgmode " ] ||
        fail "exec --exp<TAB>: $(cat "$tmp/out")"
    bash_complete benchlab exec -r 3 --time-unit mi >"$tmp/out"
    [ "$(tr '\n' ' ' <"$tmp/out")" = "microsecond millisecond " ] || fail "exec --time-unit values"
    bash_complete benchlab exec -i '' >"$tmp/out"
    out_lacks 'all-non-zero' # -i's value only comes as -i=VALUE
    bash_complete benchlab exec -N ech >"$tmp/out"
    out_has '^echo$'
    bash_complete benchlab baseline '' >"$tmp/out"
    [ "$(tr '\n' ' ' <"$tmp/out")" = "set list ack acks unack " ] || fail "baseline's words"
    # a suite's own command line
    bash -c ". '$share/bash/benchlab'; COMP_WORDS=('$suite' --time); COMP_CWORD=1
        _benchlab_suite; printf '%s\n' \"\${COMPREPLY[@]}\"" >"$tmp/out"
    [ "$(tr '\n' ' ' <"$tmp/out")" = "--time --timeout --time-unit " ] || fail "suite: $(cat "$tmp/out")"
    ;;
zsh-completion)
    command -v zsh >/dev/null || fail "zsh is not installed (scripts/deps.sh --check)"
    zsh -n "$share/zsh/_benchlab" || fail "_benchlab: syntax"
    zsh -f -c "fpath=('$share/zsh' \$fpath); autoload -Uz compinit; compinit -u -D
        print -r -- \${_comps[benchlab]}" >"$tmp/out"
    [ "$(cat "$tmp/out")" = _benchlab ] || fail "compinit does not bind _benchlab"
    timeout 60 zsh -f "$(dirname "$0")/zsh_complete.zsh" "$share/zsh" "benchlab ex" >"$tmp/out" 2>&1
    grep -q 'benchlab exec' "$tmp/out" || { cat -v "$tmp/out"; fail "zsh: benchlab ex<TAB>"; }
    timeout 60 zsh -f "$(dirname "$0")/zsh_complete.zsh" "$share/zsh" "benchlab run $suite --fo" \
        >"$tmp/out" 2>&1
    grep -q -- '--format' "$tmp/out" || { cat -v "$tmp/out"; fail "zsh: run SUITE --fo<TAB>"; }
    timeout 60 zsh -f "$(dirname "$0")/zsh_complete.zsh" "$share/zsh" "benchlab exec --export-c" \
        >"$tmp/out" 2>&1
    grep -q -- '--export-csv' "$tmp/out" || { cat -v "$tmp/out"; fail "zsh: exec --export-c<TAB>"; }
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
