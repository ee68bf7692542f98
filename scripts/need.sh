#!/bin/sh
# need.sh: install what a build step needs, only when it is missing, and say so.
#   scripts/need.sh apt COMMAND PACKAGE...   apt-get install PACKAGE... unless COMMAND exists
#   scripts/need.sh cjson DIR                unpack Debian's patched cJSON source into DIR
#   scripts/need.sh npm                      npm ci (or install) unless node_modules is current
set -eu

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

case "$1" in
apt)
    shift; cmd=$1; shift
    if command -v "$cmd" >/dev/null 2>&1; then exit 0; fi
    echo "==> $cmd not found: installing Debian packages: $*"
    if [ ! -f /tmp/.edgegraph-apt-updated ]; then as_root apt-get update -qq && touch /tmp/.edgegraph-apt-updated; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
    ;;
cjson)
    # cJSON is a named dependency fetched at build time, never committed: the
    # source of Debian's package, with Debian's security patches applied.
    dir=$2
    [ -f "$dir/cJSON.c" ] && exit 0
    echo "==> fetching cJSON source (Debian source package, patched) into $dir"
    command -v dpkg-source >/dev/null 2>&1 || "$0" apt dpkg-source dpkg-dev
    tmp=$(mktemp -d)
    mkdir -p "$tmp/parts" "$tmp/lists/partial" "$tmp/src"
    # deb-src for apt alone, without touching /etc.
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        sed 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources > "$tmp/parts/src.sources"
    else
        sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "$tmp/parts/src.list"
    fi
    O="-o Dir::Etc::SourceParts=$tmp/parts -o Dir::Etc::SourceList=/dev/null -o Dir::State::Lists=$tmp/lists"
    as_root apt-get $O update -qq >/dev/null
    (cd "$tmp/src" && apt-get $O source -qq cjson >/dev/null 2>&1)
    src=$(ls -d "$tmp"/src/cjson-*/ | head -n 1)
    mkdir -p "$dir"
    cp "$src/cJSON.c" "$src/cJSON.h" "$src/LICENSE" "$dir/"
    rm -rf "$tmp"
    ;;
npm)
    if [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then exit 0; fi
    echo "==> installing npm dev dependencies"
    # npm ci when the lock file is complete; npm leaves out other platforms'
    # optional binaries (deno's), which makes ci refuse: then npm install,
    # which still follows the lock file for everything it lists.
    if [ -f package-lock.json ] && npm ci --no-audit --no-fund --loglevel=silent 2>/dev/null; then :; else
        npm install --no-audit --no-fund --loglevel=error
    fi
    ;;
*)
    echo "usage: need.sh apt|cjson|npm ..." >&2; exit 2 ;;
esac
