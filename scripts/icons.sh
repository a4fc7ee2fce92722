#!/usr/bin/env bash
# icons.sh — regenerates the hicolor theme icons committed under
# build/linux/icons/ from build/appicon.png (ImageMagick). Run it after the
# app icon changes; `make install` and `make package` use the committed files.
set -euo pipefail
cd "$(dirname "$0")/.."
src=build/appicon.png
for size in 16 22 24 32 48 64 128 256 512; do
	dir="build/linux/icons/hicolor/${size}x${size}/apps"
	mkdir -p "$dir"
	convert "$src" -filter Lanczos -resize "${size}x${size}" -depth 8 -strip \
		-define png:exclude-chunks=date,time "$dir/boof-runner.png"
done
echo "icons: $(find build/linux/icons -name '*.png' | wc -l) sizes in build/linux/icons/hicolor"
