#!/usr/bin/env bash
# Fuzzes one target (make fuzz runs each):
#
#   hack/fuzz.sh PACKAGE TARGET [go test flags...]      (GO names the go command, go by default)
#
# PACKAGE may be the directory of a module of its own, such as test/conformance.
#
# It fails when the fuzzer finds something, and only then. Before Go 1.27 the fuzzing coordinator can report its
# own -fuzztime deadline as the target's failure — "context deadline exceeded", no failing input written — when a
# worker is busy as the time ends (golang/go#75804): such an end is said and passed over, so that one target's
# spurious red does not stop make fuzz before the targets after it. A finding always writes its input
# ("Failing input written to testdata/fuzz/...") and fails as before.
set -euo pipefail

go=${GO:-go} package=$1 target=$2
shift 2
output=$(mktemp)
trap 'rm -f "$output"' EXIT
dir=.
if [ -f "$package/go.mod" ]; then
  dir=$package package=. # a module of its own (test/conformance) is fuzzed from its directory
fi

if (cd "$dir" && "$go" test "$package" -run '^$' -fuzz "^${target}\$" "$@") 2>&1 | tee "$output"; then
  exit 0
fi
version=$("$go" env GOVERSION)
minor=$(echo "$version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -n "$minor" ] && [ "$minor" -lt 27 ] &&
  grep -qx '[[:space:]]*context deadline exceeded' "$output" && ! grep -q 'Failing input written to' "$output"; then
  echo "hack/fuzz.sh: $target ended on the fuzzing coordinator's own deadline, no input found failing" \
    "(golang/go#75804, $version): not a finding" >&2
  exit 0
fi
exit 1
