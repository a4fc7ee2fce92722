#!/usr/bin/env bash
# deps-apt.sh — installs the Debian packages Boof Runner needs to build, run
# and test, skipping what is already installed. Runs as root (or via sudo).
set -euo pipefail
pkgs=(build-essential pkg-config git libgtk-3-dev libwebkit2gtk-4.0-dev
      xvfb xauth xdotool imagemagick chromium dbus dbus-x11 python3 procps
      desktop-file-utils appstream lintian libgtk-3-bin wmctrl matchbox-window-manager
      gnome-keyring
      # Windows and macOS (docs/platforms.md): mingw-w64 for cgo, Wine to run
      # the Windows tests and installer, NSIS to make it, file to check the
      # Mach-O output (zig for macOS comes from npm: scripts/zig.sh).
      gcc-mingw-w64-x86-64 wine wine64 nsis file)
missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
echo "deps-apt: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
