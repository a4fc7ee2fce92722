#!/usr/bin/env bash
# build-windows.sh OUTDIR [VERSION] — the Windows x64 build, cross-compiled
# here: OUTDIR/boof-runner.exe (the headless command, a console program),
# OUTDIR/boof-runner-desktop.exe (the window: desktop,production tags, a GUI
# program that needs frontend/dist built) and the NSIS installer
# OUTDIR/boof-runner-VERSION-setup.exe. cgo (SQLite) through mingw-w64,
# linked static, so the .exe needs only what Windows ships. Prints the
# sizes and the time each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: build-windows.sh OUTDIR [VERSION]}
version=${2:-$(scripts/version.sh)}
[ -f frontend/dist/index.html ] || { echo "build-windows.sh: frontend/dist is not built (make frontend)" >&2; exit 1; }
mkdir -p "$out"
export GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc
ld="-s -w -X main.version=$version -extldflags=-static"
t=$SECONDS
go build -trimpath -ldflags "$ld" -o "$out/boof-runner.exe" .
echo "build-windows: boof-runner.exe in $((SECONDS - t)) s"
t=$SECONDS
go build -trimpath -tags desktop,production -ldflags "$ld -H windowsgui" -o "$out/boof-runner-desktop.exe" .
echo "build-windows: boof-runner-desktop.exe in $((SECONDS - t)) s"
t=$SECONDS
setup=$out/boof-runner-$version-setup.exe
makensis -V2 -DVERSION="$version" -DBINDIR="$(cd "$out" && pwd)" -DOUTFILE="$(cd "$out" && pwd)/${setup##*/}" \
	build/windows/installer.nsi
echo "build-windows: ${setup##*/} in $((SECONDS - t)) s"
ls -l "$out"/*.exe
