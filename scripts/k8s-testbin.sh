#!/usr/bin/env bash
# k8s-testbin.sh [--cached] [CACHE] — the control plane the cluster tests run against:
# kube-apiserver, kube-controller-manager and kube-scheduler from
# k8s.io/kubernetes, an etcd built from go.etcd.io/etcd/server/v3's embed
# package and kwok, built from the Go module proxy only when missing, then
# prints the directory holding them.
#
#   BIN=$(scripts/k8s-testbin.sh)
#   BOOF_K8S_BIN=$BIN go test -tags k8s ./backend/executor/kubernetes/...
#
# The binaries are cached under CACHE (default ~/.cache/boof-runner/k8s-testbin)
# in a folder named <go>-<k8s>-<kwok>; the Go build and module caches used to
# make them (3.4 GB) live under a throwaway folder in /tmp removed on exit.
# k8s.io/kubernetes cannot be built inside its own module (its zip lacks
# staging/), so a small tools module requires it with its staging modules
# replaced by their published versions. Nothing here touches the project's
# go.mod: client-go never reaches the desktop binary.
#
# --cached builds nothing: it prints the directory when every binary is
# there and exits 1 otherwise (make test runs the journeys only then: a
# cold build takes about 40 minutes on 2 loaded cores).
set -euo pipefail

cached_only=false
if [ "${1:-}" = --cached ]; then
	cached_only=true
	shift
fi

K8S_VERSION=v1.34.4
STAGING_VERSION=v0.34.4
ETCD_VERSION=v3.6.4
KWOK_VERSION=v0.8.0
BINARIES=(kube-apiserver kube-controller-manager kube-scheduler etcd kwok)

cache=${1:-$HOME/.cache/boof-runner/k8s-testbin}
gover=$(go env GOVERSION)
dir=$cache/$gover-$K8S_VERSION-$KWOK_VERSION

complete() {
	local b
	for b in "${BINARIES[@]}"; do [ -x "$dir/$b" ] || return 1; done
}

if complete; then
	echo "$dir"
	exit 0
fi
if $cached_only; then
	exit 1
fi

mkdir -p "$cache"
# One build at a time: a second caller waits for the first and then finds
# the binaries.
exec 9>"$cache/.lock"
flock 9
if complete; then
	echo "$dir"
	exit 0
fi

work=$(mktemp -d /tmp/boof-k8s-build.XXXXXX)
cleanup() {
	chmod -R u+w "$work" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
export GOCACHE=$work/gocache GOMODCACHE=$work/gomod GOPATH=$work/gopath
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0 GOWORK=off
# Binaries already built by an interrupted run stay in $partial and are not
# built again.
partial=$dir.partial
mkdir -p "$partial"

mod=$work/tools
mkdir -p "$mod/etcd"
{
	echo "module boof-runner.local/k8s-testbin"
	echo
	echo "go 1.24.0"
	echo
	echo "godebug default=go1.24"
	echo
	echo "require ("
	echo "	k8s.io/kubernetes $K8S_VERSION"
	echo "	go.etcd.io/etcd/server/v3 $ETCD_VERSION"
	echo ")"
	echo
	echo "replace ("
	for m in api apiextensions-apiserver apimachinery apiserver cli-runtime client-go \
		cloud-provider cluster-bootstrap code-generator component-base component-helpers \
		controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation \
		endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy \
		kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission \
		sample-apiserver sample-cli-plugin sample-controller; do
		echo "	k8s.io/$m => k8s.io/$m $STAGING_VERSION"
	done
	echo ")"
} >"$mod/go.mod"

# The etcd: embed's server on the URLs given, until SIGINT or SIGTERM.
cat >"$mod/etcd/main.go" <<'EOF'
// Command etcd runs one etcd member from go.etcd.io/etcd/server/v3/embed.
package main

import (
	"flag"
	"log"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"go.etcd.io/etcd/server/v3/embed"
)

func main() {
	dataDir := flag.String("data-dir", "", "data folder")
	client := flag.String("listen-client-urls", "http://127.0.0.1:2379", "client URL")
	peer := flag.String("listen-peer-urls", "http://127.0.0.1:2380", "peer URL")
	flag.Parse()
	cu, err := url.Parse(*client)
	if err != nil {
		log.Fatal(err)
	}
	pu, err := url.Parse(*peer)
	if err != nil {
		log.Fatal(err)
	}
	cfg := embed.NewConfig()
	cfg.Dir = *dataDir
	cfg.ListenClientUrls = []url.URL{*cu}
	cfg.AdvertiseClientUrls = []url.URL{*cu}
	cfg.ListenPeerUrls = []url.URL{*pu}
	cfg.AdvertisePeerUrls = []url.URL{*pu}
	cfg.InitialCluster = cfg.Name + "=" + pu.String()
	cfg.LogLevel = "error"
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		log.Fatal(err)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-e.Server.ReadyNotify():
		log.Printf("etcd ready on %s", cu)
	case err := <-e.Err():
		log.Fatal(err)
	}
	select {
	case <-sig:
	case err := <-e.Err():
		log.Print(err)
	}
	e.Close()
}
EOF

cd "$mod"
ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VERSION"
echo "k8s-testbin: resolving modules" >&2
go get "k8s.io/kubernetes/cmd/kube-apiserver@$K8S_VERSION" \
	"k8s.io/kubernetes/cmd/kube-controller-manager@$K8S_VERSION" \
	"k8s.io/kubernetes/cmd/kube-scheduler@$K8S_VERSION" \
	"go.etcd.io/etcd/server/v3@$ETCD_VERSION" >&2
# etcd first: the quickest, and a failure shows before the long builds.
if [ ! -x "$partial/etcd" ]; then
	t0=$SECONDS
	go build -trimpath -ldflags "-s -w" -o "$partial/etcd.tmp" ./etcd >&2
	mv "$partial/etcd.tmp" "$partial/etcd"
	echo "k8s-testbin: etcd in $((SECONDS - t0)) s" >&2
fi
for c in kube-apiserver kube-controller-manager kube-scheduler; do
	[ -x "$partial/$c" ] && continue
	t0=$SECONDS
	echo "k8s-testbin: building $c" >&2
	go build -trimpath -ldflags "$ldflags" -o "$partial/$c.tmp" "k8s.io/kubernetes/cmd/$c" >&2
	mv "$partial/$c.tmp" "$partial/$c"
	echo "k8s-testbin: $c in $((SECONDS - t0)) s" >&2
done
if [ ! -x "$partial/kwok" ]; then
	t0=$SECONDS
	echo "k8s-testbin: building kwok" >&2
	(cd "$work" && GOFLAGS= GOBIN=$work/bin go install -trimpath -ldflags "-s -w" "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION" >&2)
	mv "$work/bin/kwok" "$partial/kwok"
	echo "k8s-testbin: kwok in $((SECONDS - t0)) s" >&2
fi

rm -rf "$dir"
mv "$partial" "$dir"
complete
echo "$dir"
