#!/bin/sh
# deps.sh - install the Debian packages of scripts/packages.txt that are
# missing, for the groups asked (default: build).
#
#   scripts/deps.sh                   build: make, make demo, make install
#   scripts/deps.sh build test        + what make check needs
#   scripts/deps.sh --check           the same as "build test"
#   scripts/deps.sh --list [GROUP..]  print the packages, one a line, and exit
#
# As root it says what it installs and why, then installs it with apt-get,
# waiting for the package manager's lock (up to BENCHLAB_APT_WAIT seconds,
# default 600) when another install is running. As another user it names
# what is missing and the command that installs it, and fails.
set -eu
here=$(dirname "$0")
list="$here/packages.txt"
list_only=0
groups=""
for a in "$@"; do
    case $a in
    --check) groups="$groups build test" ;;
    --list) list_only=1 ;;
    build | test | optional) groups="$groups $a" ;;
    *)
        echo "deps.sh: unknown group '$a' (build, test, optional, --check, --list)" >&2
        exit 2
        ;;
    esac
done
[ -n "$groups" ] || groups=build

# "PACKAGE<TAB>GROUP: WHY" for each package of the groups asked
wanted=$(awk -v groups="$groups" '
    BEGIN { n = split(groups, g, " "); for (i = 1; i <= n; i++) want[g[i]] = 1 }
    /^[ \t]*(#|$)/ { next }
    $1 in want && !seen[$2]++ {
        why = $0; sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]*/, "", why)
        printf "%s\t%s: %s\n", $2, $1, why
    }' "$list")
if [ "$list_only" -eq 1 ]; then
    printf '%s\n' "$wanted" | cut -f1
    exit 0
fi

missing=""
reasons=""
tab=$(printf '\t')
while IFS="$tab" read -r p why; do
    [ -n "$p" ] || continue
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
        reasons="$reasons  $p ($why)
"
    fi
done <<EOT
$wanted
EOT
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "benchlab needs these Debian packages ($(echo $groups | tr ' ' '+')):" >&2
    printf '%s' "$reasons" >&2
    echo "install them as root: apt-get install$missing" >&2
    exit 1
fi
echo "scripts/deps.sh: installing the missing Debian packages for $(echo $groups | tr ' ' '+'):" >&2
printf '%s' "$reasons" >&2
export DEBIAN_FRONTEND=noninteractive
wait_s=${BENCHLAB_APT_WAIT:-600}
# DPkg::Lock::Timeout makes apt-get wait for dpkg's lock instead of failing;
# the package lists have a lock of their own that apt-get update does not
# wait for, so update is retried while another apt holds it.
apt_opts="-o DPkg::Lock::Timeout=$wait_s"
waited=0
until err=$(apt-get $apt_opts update -qq 2>&1 >/dev/null); do
    case $err in
    *"Could not get lock"*)
        if [ "$waited" -lt "$wait_s" ]; then
            [ "$waited" -eq 0 ] && echo "scripts/deps.sh: another apt is running; waiting for its lock (up to $wait_s s)" >&2
            sleep 5
            waited=$((waited + 5))
            continue
        fi
        ;;
    esac
    printf '%s\n' "$err" >&2
    echo "scripts/deps.sh: apt-get update failed" >&2
    exit 1
done
# shellcheck disable=SC2086
apt-get $apt_opts install -y -qq --no-install-recommends $missing >&2
echo "scripts/deps.sh: installed:$missing" >&2
