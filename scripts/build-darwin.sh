#!/usr/bin/env bash
# build-darwin.sh OUTDIR [VERSION] — the headless macOS binaries,
# cross-compiled here: OUTDIR/boof-runner-darwin-arm64 and
# OUTDIR/boof-runner-darwin-amd64. cgo (SQLite) through Zig's C compiler
# (scripts/zig.sh installs it from npm into ~/.cache/boof-runner). Go's own
# runtime/cgo and crypto/x509 link -framework CoreFoundation and Security:
# Apple's SDK is not here, so the linker is given stub frameworks (.tbd text
# stubs listing the symbols Go's standard library imports from them, made
# from this Go's sources), which is all a link needs; the binary then binds
# to the real frameworks on the Mac. -w: Go's dsymutil/strip step does not
# understand Zig's output. The window (.app) needs Apple's SDK: see
# docs/platforms.md for the recipe run on a Mac.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: build-darwin.sh OUTDIR [VERSION]}
version=${2:-$(scripts/version.sh)}
cache=$HOME/.cache/boof-runner
zig=$(scripts/zig.sh "$cache")/zig
export ZIG_GLOBAL_CACHE_DIR=${ZIG_GLOBAL_CACHE_DIR:-$cache/zig-cache}
goroot=$(go env GOROOT)
stubs=$cache/darwin-stubs-$(go env GOVERSION)
if [ ! -f "$stubs/.done" ]; then
	rm -rf "$stubs"
	for fw in CoreFoundation Security; do
		syms=$(grep -rh --include='*.go' --exclude='*_test.go' "cgo_import_dynamic .*/$fw.framework/" "$goroot/src" |
			awk '{print "_" $3}' | sort -u | paste -sd, - | sed 's/,/, /g')
		[ -n "$syms" ] || { echo "build-darwin.sh: no $fw symbols found in $goroot/src" >&2; exit 1; }
		mkdir -p "$stubs/$fw.framework"
		cat >"$stubs/$fw.framework/$fw.tbd" <<-TBD
		--- !tapi-tbd
		tbd-version: 4
		targets: [ x86_64-macos, arm64-macos ]
		install-name: '/System/Library/Frameworks/$fw.framework/Versions/A/$fw'
		exports:
		  - targets: [ x86_64-macos, arm64-macos ]
		    symbols: [ $syms ]
		...
		TBD
	done
	touch "$stubs/.done"
fi
mkdir -p "$out"
for arch in arm64 amd64; do
	case $arch in arm64) target=aarch64-macos ;; amd64) target=x86_64-macos ;; esac
	cc=$cache/zigcc-$target
	printf '#!/bin/sh\nexec "%s" cc -target %s -F "%s" "$@"\n' "$zig" "$target" "$stubs" >"$cc"
	chmod +x "$cc"
	t=$SECONDS
	GOOS=darwin GOARCH=$arch CGO_ENABLED=1 CC=$cc \
		go build -trimpath -ldflags "-w -X main.version=$version" -o "$out/boof-runner-darwin-$arch" .
	echo "build-darwin: boof-runner-darwin-$arch in $((SECONDS - t)) s"
done
file "$out"/boof-runner-darwin-*
ls -l "$out"/boof-runner-darwin-*
