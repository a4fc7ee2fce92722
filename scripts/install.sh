#!/usr/bin/env bash
# install.sh install|uninstall PREFIX BIN — installs the built app for one
# user or system-wide without a package: the binary, the desktop entry (its
# Exec lines made absolute), the hicolor icons, the AppStream metainfo and
# the man page. uninstall removes exactly those files and never the data root
# (~/.local/share/boof-runner) nor settings. DESTDIR is honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: install.sh install|uninstall PREFIX [BIN]}
prefix=${2:?usage: install.sh install|uninstall PREFIX [BIN]}
bin=${3:-build/bin/boof-runner}
case "$prefix" in /*) ;; *) echo "install: PREFIX must be an absolute path (got $prefix)" >&2; exit 2 ;; esac
root="${DESTDIR:-}$prefix"
sizes=(16 22 24 32 48 64 128 256 512)
metainfo=io.github.boof_runner.BoofRunner.metainfo.xml

# files prints every installed file, relative to PREFIX.
files() {
	echo bin/boof-runner
	echo lib/boof-runner/boof-runner-desktop
	echo share/applications/boof-runner.desktop
	echo "share/metainfo/$metainfo"
	echo share/man/man1/boof-runner.1.gz
	for s in "${sizes[@]}"; do echo "share/icons/hicolor/${s}x${s}/apps/boof-runner.png"; done
}

refresh() {
	if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$root/share/applications" || true; fi
	# Refresh an icon cache only where one exists: creating one in a user's
	# hicolor folder would hide icons other apps add later.
	if [ -f "$root/share/icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then
		gtk-update-icon-cache -q -t -f "$root/share/icons/hicolor" || true
	fi
}

case "$mode" in
install)
	[ -x "$bin" ] || { echo "install: $bin is missing; run make build first" >&2; exit 1; }
	desk="$(dirname "$bin")/boof-runner-desktop"
	[ -x "$desk" ] || { echo "install: $desk is missing; run make build first" >&2; exit 1; }
	install -Dm755 "$bin" "$root/bin/boof-runner"
	install -Dm755 "$desk" "$root/lib/boof-runner/boof-runner-desktop"
	install -d "$root/share/applications"
	sed -e "s|^Exec=boof-runner|Exec=$prefix/bin/boof-runner|" build/linux/boof-runner.desktop >"$root/share/applications/boof-runner.desktop"
	chmod 644 "$root/share/applications/boof-runner.desktop"
	install -Dm644 build/linux/boof-runner.metainfo.xml "$root/share/metainfo/$metainfo"
	install -d "$root/share/man/man1"
	gzip -9nc build/linux/doc/boof-runner.1 >"$root/share/man/man1/boof-runner.1.gz"
	chmod 644 "$root/share/man/man1/boof-runner.1.gz"
	for s in "${sizes[@]}"; do
		install -Dm644 "build/linux/icons/hicolor/${s}x${s}/apps/boof-runner.png" "$root/share/icons/hicolor/${s}x${s}/apps/boof-runner.png"
	done
	refresh
	echo "installed boof-runner in $prefix ($(files | wc -l) files)"
	;;
uninstall)
	n=0
	while read -r f; do
		if [ -e "$root/$f" ] || [ -L "$root/$f" ]; then rm -f "$root/$f"; n=$((n + 1)); fi
	done < <(files)
	rmdir "$root/lib/boof-runner" 2>/dev/null || true
	refresh
	echo "removed $n files of boof-runner from $prefix (your data root and settings are kept)"
	;;
*)
	echo "usage: install.sh install|uninstall PREFIX [BIN]" >&2
	exit 2
	;;
esac
