#!/usr/bin/env bash
# vet-cross.sh TAGSETS... — go vet of every package for Windows (amd64, cgo
# through mingw-w64) and macOS (arm64, cgo through Zig) with each build tag
# set ("" for none), as `make vet` runs it. macOS with the desktop tags is
# left to a Mac (see docs/platforms.md): Wails' and the tray's macOS code
# is cgo Objective-C that needs Apple's SDK, and so are the packages that
# import the tray library (app/shell and main) with any tags.
set -euo pipefail
cd "$(dirname "$0")/.."
zig=$(scripts/zig.sh)/zig
# The cgo compiler for macOS: zig cc for the target (the frameworks are
# only needed to link, which vet does not do), at a fixed path: the path of
# CC is part of go's cache key, so a fresh one each run would vet every
# cgo package again.
cache=$HOME/.cache/boof-runner
zcc=$cache/zigcc-vet-aarch64-macos
mkdir -p "$cache"
printf '#!/bin/sh\nexec "%s" cc -target aarch64-macos "$@"\n' "$zig" >"$zcc.tmp"
chmod +x "$zcc.tmp"
mv "$zcc.tmp" "$zcc"
export ZIG_GLOBAL_CACHE_DIR=${ZIG_GLOBAL_CACHE_DIR:-$cache/zig-cache}
rc=0
for tags in "" "$@"; do
	echo "vet-cross: windows/amd64 tags=${tags:-none}"
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
		go vet -tags "$tags" ./... || rc=1
	case ",$tags," in *,desktop,*) continue;; esac
	# The packages that reach the tray library (its macOS half is
	# Objective-C against Cocoa) are left to a Mac as well.
	pkgs=$(GOOS=darwin GOARCH=arm64 CGO_ENABLED=1 go list -tags "$tags" \
		-f '{{.ImportPath}} {{join .Deps " "}}' ./... | awk '!/ fyne.io\/systray( |$)/ {print $1}')
	skipped=$(GOOS=darwin GOARCH=arm64 CGO_ENABLED=1 go list -tags "$tags" \
		-f '{{.ImportPath}} {{join .Deps " "}}' ./... | awk '/ fyne.io\/systray( |$)/ {print $1}' | tr '\n' ' ')
	echo "vet-cross: darwin/arm64 tags=${tags:-none} (left to a Mac: $skipped)"
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=1 CC="$zcc" \
		go vet -tags "$tags" $pkgs || rc=1
done
exit $rc
