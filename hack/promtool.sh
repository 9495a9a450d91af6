#!/usr/bin/env bash
# Provides promtool from Debian's prometheus package without installing the package (which would start a
# Prometheus server): the .deb is downloaded with apt-get and only usr/bin/promtool is unpacked into
# ~/.cache/seedplan/tools. Idempotent. Prints promtool's path.
set -euo pipefail

tools="${SEEDPLAN_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/seedplan/tools}"
if command -v promtool >/dev/null; then
  command -v promtool
  exit 0
fi
for found in "$tools"/promtool-*/promtool; do
  if [ -x "$found" ]; then
    echo "$found"
    exit 0
  fi
done

log() { echo "promtool: $*" >&2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
if ! apt-get download prometheus >/dev/null 2>&1; then
  log "updating the package lists"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  apt-get download prometheus >/dev/null 2>&1
fi
deb=$(ls prometheus_*.deb)
version=$(dpkg-deb -f "$deb" Version)
dpkg-deb -x "$deb" unpacked
dir="$tools/promtool-$version"
mkdir -p "$dir"
install -m 0755 unpacked/usr/bin/promtool "$dir/promtool"
log "unpacked promtool $version from $deb"
echo "$dir/promtool"
