# zsh_complete.zsh FPATH_DIR LINE - type LINE and TAB in an interactive zsh
# with benchlab's completion loaded (on a pseudo-terminal, zsh/zpty) and
# print what the line became. Used by completion.sh.
zmodload zsh/zpty || exit 2
dir=$1 line=$2
zpty z zsh -f -i
zpty -w z "fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D; PS1='> '"
zpty -w z "unsetopt zle_bracketed_paste 2>/dev/null; print READY"
zpty -r z out '*READY*'
zpty -w -n z "$line"$'\t'
sleep 1
# keep the line from running, then mark the end of what the terminal showed
zpty -w -n z $'\C-u'
zpty -w z 'print DONE'
out=""
zpty -r z out '*DONE*'
zpty -d z
print -r -- "$out"
