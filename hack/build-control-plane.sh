#!/usr/bin/env bash
# Builds the real components the integration tests run against, from the Go module proxy (no prebuilt
# binaries can be downloaded here): etcd, kube-apiserver, gardener-apiserver, the real gardener-scheduler (the
# tests run it beside seedplan, make bench-peer against it) and a Prometheus Pushgateway.
# Idempotent and cached by version: a binary that exists is not rebuilt. Prints the directory holding them.
#
#   hack/build-control-plane.sh            build what is missing, print the directory
#   SEEDPLAN_TOOLS=/dir hack/...           build into /dir instead of ~/.cache/seedplan/tools
#
# Built without -trimpath and with the default cgo setting on purpose: the packages the gardener-apiserver and the
# gardener-scheduler share with seedplan (k8s.io, controller-runtime, Gardener's APIs) then sit in GOCACHE under
# the keys seedplan's builds use, as seedplan requires its modules at Gardener's versions (TestModulesAtGardenersVersions).
# kube-apiserver's module pins older versions of some (protobuf, yaml, logr): its packages are its own.
set -euo pipefail

ETCD_VERSION=v3.6.8
KUBERNETES_VERSION=v1.36.4
KUBERNETES_LIBRARY_VERSION=v0.36.4
GARDENER_VERSION=v1.150.0
PUSHGATEWAY_VERSION=v1.11.1

tools="${SEEDPLAN_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/seedplan/tools}"
seedplan_gomod="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/go.mod"
bin="$tools/bin-etcd-$ETCD_VERSION-k8s-$KUBERNETES_VERSION-gardener-$GARDENER_VERSION-pgw-$PUSHGATEWAY_VERSION"
mkdir -p "$bin"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local

log() { echo "build-control-plane: $*" >&2; }

# scratch DIR makes an empty module in DIR and enters it (recreated on every build so that a failed build cannot
# poison it; each build runs in a subshell).
scratch() {
  rm -rf "$1" && mkdir -p "$1" && cd "$1"
  go mod init "seedplan.local/$(basename "$1")" >/dev/null 2>&1
}

# build NAME PACKAGE [LDFLAGS] builds PACKAGE of the current scratch module into $bin/NAME (atomically), without the
# symbol table and DWARF, which no test reads: linking kube-apiserver then takes two thirds of the time (a panic's
# stack still names its functions).
build() {
  go build -o "$bin/$1.tmp" -ldflags "-s -w ${3:-}" "$2"
  mv "$bin/$1.tmp" "$bin/$1"
}

# version_ldflags VERSION stamps a Kubernetes-style binary (kube-apiserver, gardener-apiserver) with its version.
version_ldflags() {
  local pkg=k8s.io/component-base/version minor=${1#v1.}
  echo "-X $pkg.gitVersion=$1 -X $pkg.gitMajor=1 -X $pkg.gitMinor=${minor%%.*}"
}

# scratch_get DIR MODULE@VERSION is scratch DIR, then requires MODULE@VERSION.
scratch_get() {
  scratch "$1"
  go get "$2" >/dev/null
}

build_etcd() {
  scratch_get "$tools/src/etcd" "go.etcd.io/etcd/server/v3@$ETCD_VERSION"
  build etcd go.etcd.io/etcd/server/v3
}

build_kube_apiserver() {
  scratch "$tools/src/kube-apiserver"
  # kubernetes' go.mod replaces its k8s.io/* staging modules with ./staging/..., which the module zip lacks:
  # point each at its published version instead.
  local gomod
  gomod=$(go mod download -json "k8s.io/kubernetes@$KUBERNETES_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
  [ -f "$gomod" ] || { log "no go.mod for k8s.io/kubernetes@$KUBERNETES_VERSION"; exit 1; }
  grep -E '^\s*k8s\.io/[a-z0-9.-]+ => \./staging/' "$gomod" | awk '{print $1}' | sort -u | while read -r module; do
    go mod edit -replace "$module=$module@$KUBERNETES_LIBRARY_VERSION"
  done
  go get "k8s.io/kubernetes/cmd/kube-apiserver@$KUBERNETES_VERSION" >/dev/null
  raise_to_seedplans_versions
  build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver "$(version_ldflags "$KUBERNETES_VERSION")"
}

# raise_to_seedplans_versions raises each module the current scratch module requires, and seedplan requires at a
# newer version, to seedplan's (never lowering one): kubernetes pins older versions of some (protobuf, yaml, logr,
# swag, x/sys, ...), and a package's build cache key covers its dependencies' versions, so without it hundreds of
# the k8s.io packages seedplan builds compiled a second time for kube-apiserver alone. It requires seedplan's
# version of every module both use and leaves the newer of the two to minimal version selection, which compares
# versions as Go does (a prerelease or pseudo-version below its release, where sort -V puts it above).
raise_to_seedplans_versions() {
  local module version current
  declare -A have
  while read -r module current; do
    have[$module]=$current
  done < <(go list -m -e -f '{{if and .Version (not .Replace)}}{{.Path}} {{.Version}}{{end}}' all | grep .)
  while read -r module version; do
    current=${have[$module]:-}
    if [ -n "$current" ] && [ "$current" != "$version" ]; then
      go mod edit -require "$module@$version"
    fi
  done < <(awk '/^require \(/ { inside = 1; next } inside && /^\)/ { inside = 0 } inside && NF >= 2 { print $1, $2 }' "$seedplan_gomod")
}

# scratch_gardener NAME is scratch NAME, made able to build a command of the gardener module.
scratch_gardener() {
  scratch "$tools/src/$1"
  # gardener's go.mod replaces pkg/apis with a local directory and excludes some versions; a dependent module
  # must require the published pkg/apis itself and repeat the excludes.
  local gomod
  gomod=$(go mod download -json "github.com/gardener/gardener@$GARDENER_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
  [ -f "$gomod" ] || { log "no go.mod for gardener@$GARDENER_VERSION"; exit 1; }
  awk '/^exclude \(/{in_block=1; next} in_block && /^\)/{in_block=0} in_block && NF>=2 {print $1"@"$2} /^exclude [^(]/{print $2"@"$3}' "$gomod" |
    while read -r excluded; do go mod edit -exclude "$excluded"; done
  go mod edit -require "github.com/gardener/gardener/pkg/apis@$GARDENER_VERSION"
}

build_gardener_apiserver() {
  scratch_gardener gardener-apiserver
  go get "github.com/gardener/gardener/cmd/gardener-apiserver@$GARDENER_VERSION" >/dev/null
  # Gardener stamps its binaries through k8s.io/component-base/version (hack/get-build-ld-flags.sh).
  build gardener-apiserver github.com/gardener/gardener/cmd/gardener-apiserver "$(version_ldflags "$GARDENER_VERSION")"
}

# The gardener-scheduler is built like the gardener-apiserver, from the same module and version.
build_gardener_scheduler() {
  scratch_gardener gardener-scheduler
  go get "github.com/gardener/gardener/cmd/gardener-scheduler@$GARDENER_VERSION" >/dev/null
  build gardener-scheduler github.com/gardener/gardener/cmd/gardener-scheduler "$(version_ldflags "$GARDENER_VERSION")"
}

build_pushgateway() {
  scratch_get "$tools/src/pushgateway" "github.com/prometheus/pushgateway@$PUSHGATEWAY_VERSION"
  build pushgateway github.com/prometheus/pushgateway
}

# One build at a time: two runs at once (make test and a test that builds for itself, or two checkouts) would share
# the scratch modules and temporary binaries and pull them from under each other. The second waits, then finds
# the binaries built.
exec 9>"$tools/.lock"
flock 9

for component in etcd kube-apiserver gardener-apiserver gardener-scheduler pushgateway; do
  if [ -x "$bin/$component" ]; then
    continue
  fi
  log "building $component (first time only; all five take ~20 CPU-minutes)"
  start=$(date +%s)
  ( "build_${component//-/_}" )
  log "built $component in $(( $(date +%s) - start ))s"
done
echo "$bin"
