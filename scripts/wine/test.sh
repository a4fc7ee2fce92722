#!/usr/bin/env bash
# test.sh PACKAGES... — the Windows build of those packages' tests, run
# under Wine 8 (wine64) through go_windows_amd64_exec: cgo through
# mingw-w64, no -race (it needs the real platform). t.TempDir's cleanup is
# made tolerant of Wine's missing FileDispositionInformationEx by a
# go test -overlay of the testing package (removeall_wine.go.txt): nothing
# else differs from a Windows run. Prints go test's lines; exits non-zero
# when a test fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
export WINEPREFIX
WINEPREFIX=$("$here/setup.sh")
ov=$(mktemp -d "${TMPDIR:-/tmp}/boof-wine-overlay.XXXXXX")
trap 'rm -rf "$ov"' EXIT
src=$(go env GOROOT)/src/testing
grep -q 'err := os.RemoveAll(path)' "$src/testing.go" ||
	{ echo "wine/test.sh: testing.removeAll changed in this Go; update the overlay" >&2; exit 1; }
sed 's/err := os.RemoveAll(path)/err := removeAllTolerant(path)/' "$src/testing.go" >"$ov/testing.go"
cp "$here/removeall_wine.go.txt" "$ov/removeall_wine.go"
printf '{"Replace":{"%s":"%s","%s":"%s"}}\n' \
	"$src/testing.go" "$ov/testing.go" "$src/removeall_wine.go" "$ov/removeall_wine.go" >"$ov/overlay.json"
rc=0
# Tests that start processes read this to retry a start Wine refused.
export BOOF_UNDER_WINE=1
PATH=$here:$PATH GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
	go test -overlay "$ov/overlay.json" -count=1 -timeout 20m "$@" || rc=$?
wineserver -k 2>/dev/null || true
exit $rc
