#!/bin/sh
# version.sh — the version of this checkout, as the package and the binary
# carry it: the newest tag vX.Y.Z itself ("X.Y.Z"), X.Y.Z+N.g<sha> for N
# commits after it, and 0.0.0+g<sha> when no tag exists, so it always starts
# with a digit (Debian and RPM need that). ".dirty" marks uncommitted changes.
set -eu
cd "$(dirname "$0")/.."
dirty=""
git diff --quiet HEAD -- 2>/dev/null || dirty=".dirty"
if d=$(git describe --tags --match 'v[0-9]*' --long 2>/dev/null); then
	# vX.Y.Z-N-gSHA
	n=${d%-g*}; n=${n##*-}
	tag=${d%-*-g*}; tag=${tag#v}
	sha=${d##*-g}
	if [ "$n" = 0 ]; then v="$tag"; [ -z "$dirty" ] || v="$tag+g$sha$dirty"; else v="$tag+$n.g$sha$dirty"; fi
elif sha=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	v="0.0.0+g$sha$dirty"
else
	v="0.0.0"
fi
echo "$v"
