#!/usr/bin/env bash
# setup.sh [CACHE] — makes the Wine prefix the Windows tests run in
# (CACHE/wine-prefix, once): a 64-bit prefix with the bcryptprimitives.dll
# that Wine 8 lacks (built here from bcryptprimitives.c with mingw-w64).
# Prints the prefix.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-$HOME/.cache/boof-runner}
prefix=$cache/wine-prefix
export WINEPREFIX=$prefix WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
dll=$prefix/drive_c/windows/system32/bcryptprimitives.dll
stamp=$prefix/.boof-bcrypt-$(sha256sum "$here/bcryptprimitives.c" | cut -c1-12)
if [ ! -f "$stamp" ]; then
	mkdir -p "$cache"
	if [ ! -d "$prefix/drive_c/windows/system32" ]; then
		echo "wine/setup.sh: making the prefix $prefix" >&2
		wineboot --init >/dev/null 2>&1 || true
		wineserver -w
	fi
	x86_64-w64-mingw32-gcc -O2 -shared -s -o "$dll" \
		"$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -lbcrypt
	touch "$stamp"
fi
echo "$prefix"
