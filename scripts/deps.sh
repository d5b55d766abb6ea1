#!/bin/sh
# deps.sh - install the Debian packages benchlab needs to build, test and
# run its demo. Run as root it installs what is missing with apt-get; as
# another user it names what is missing and fails.
#
#   scripts/deps.sh            build + demo packages
#   scripts/deps.sh --check    + what `make check` needs (tests, sanitizers)
set -eu

need="cmake ninja-build gcc make pkg-config libc6-dev"
if [ "${1:-}" = "--check" ]; then
    need="$need libcmocka-dev clang"
fi
# Optional packages used by later modules are listed in deps-extra.txt, one
# per line, so that a module can add its dependency in one place.
here=$(dirname "$0")
if [ -f "$here/deps-extra.txt" ]; then
    need="$need $(grep -v '^#' "$here/deps-extra.txt" | tr '\n' ' ')"
fi
# Packages only the tests need (a browser for the HTML report's test) are
# in deps-check.txt, installed with --check.
if [ "${1:-}" = "--check" ] && [ -f "$here/deps-check.txt" ]; then
    need="$need $(grep -v '^#' "$here/deps-check.txt" | tr '\n' ' ')"
fi

missing=""
for p in $need; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "benchlab needs these Debian packages:$missing" >&2
    echo "install them as root: apt-get install$missing" >&2
    exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
