#!/usr/bin/env bash
# Installs what building and testing seedplan needs on a fresh Debian machine, idempotently: only missing
# packages are installed, and apt-get update runs only when something is missing.
set -euo pipefail

# chromium renders the --report pages in the tests, headless.
packages=(coinor-libclp-dev pkg-config chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

command -v go >/dev/null || { echo "Go is required (go1.26 or newer)" >&2; exit 1; }
