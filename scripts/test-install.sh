#!/usr/bin/env bash
# test-install.sh PKGDIR BIN OUTDIR — the install journeys of a new user, on
# this machine (as root):
#  1. make install / make uninstall into a temp PREFIX: the files, a valid
#     desktop entry with absolute Exec lines, and nothing left but the data;
#  2. the .deb: desktop entry and metainfo valid, apt-get install ./…deb,
#     start it through its desktop entry (gtk-launch boof-runner) under
#     Xvfb, see the window (screenshot OUTDIR/install-window.png), launch
#     again and see that no second process stays, remove the package and see
#     the data root untouched.
set -euo pipefail
pkgdir=$(realpath "${1:-build/bin/pkg}")
bin=$(realpath "${2:-build/bin/boof-runner}")
out=$(mkdir -p "${3:-out/screens}" && realpath "${3:-out/screens}")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/xvfb.sh
. "$here/xvfb.sh"
deb=$(ls "$pkgdir"/boof-runner_*.deb | head -n1)
tmp=$(mktemp -d)
installed=0
# our_pids lists the installed app's processes started by this test: exe
# /usr/bin/boof-runner (or the desktop binary it execs to open the window)
# and this test's runtime directory in the environment.
our_pids() {
	local p
	for p in /proc/[0-9]*; do
		case "$(readlink "$p/exe" 2>/dev/null)" in /usr/bin/boof-runner | /usr/lib/boof-runner/boof-runner-desktop) ;; *) continue ;; esac
		tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$tmp/run" && echo "${p#/proc/}"
	done
	return 0
}
cleanup() {
	for p in $(our_pids); do kill -TERM "$p" 2>/dev/null || true; done
	[ $installed = 0 ] || apt-get remove -y -qq boof-runner >/dev/null 2>&1 || true
	stop_bus
	stop_xvfb
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "test-install: $*" >&2; [ -f "$tmp/app.log" ] && tail -20 "$tmp/app.log" >&2; exit 1; }

# 1. make install / uninstall for one user.
prefix="$tmp/prefix"
mkdir -p "$prefix/share/boof-runner-data-guard"
echo keep >"$prefix/share/boof-runner-data-guard/mine"
"$here/install.sh" install "$prefix" "$bin" >/dev/null
for f in bin/boof-runner lib/boof-runner/boof-runner-desktop share/applications/boof-runner.desktop share/metainfo/io.github.boof_runner.BoofRunner.metainfo.xml \
	share/man/man1/boof-runner.1.gz share/icons/hicolor/48x48/apps/boof-runner.png share/icons/hicolor/512x512/apps/boof-runner.png; do
	[ -f "$prefix/$f" ] || fail "make install did not install $f"
done
grep -qx "Exec=$prefix/bin/boof-runner" "$prefix/share/applications/boof-runner.desktop" || fail "the installed entry's Exec is not absolute"
grep -qx "Exec=$prefix/bin/boof-runner --new-task" "$prefix/share/applications/boof-runner.desktop" || fail "the New task action's Exec is not absolute"
desktop-file-validate "$prefix/share/applications/boof-runner.desktop" || fail "the installed desktop entry is invalid"
"$prefix/bin/boof-runner" --version | grep -q '^boof-runner [0-9]' || fail "the installed binary has no version"
"$here/install.sh" uninstall "$prefix" >/dev/null
left=$(cd "$prefix" && find . -type f ! -name mimeinfo.cache | sort)
[ "$left" = "./share/boof-runner-data-guard/mine" ] || fail "make uninstall left or removed files: $left"
echo "test-install: make install/uninstall: ok"

# 2. The package.
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/applications/boof-runner.desktop >"$tmp/boof-runner.desktop"
desktop-file-validate "$tmp/boof-runner.desktop" || fail "the package's desktop entry is invalid"
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/metainfo/io.github.boof_runner.BoofRunner.metainfo.xml >"$tmp/meta.xml"
appstreamcli validate --no-net "$tmp/meta.xml" >/dev/null || fail "the package's metainfo is invalid"
if dpkg-query -W -f='${Status}' boof-runner 2>/dev/null | grep -q "install ok installed"; then
	fail "boof-runner is installed on this machine already; remove it first"
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get install failed"; }
installed=1
[ -x /usr/bin/boof-runner ] || fail "no /usr/bin/boof-runner after install"
[ -x /usr/lib/boof-runner/boof-runner-desktop ] || fail "no /usr/lib/boof-runner/boof-runner-desktop after install"
# The command the user types loads neither GTK nor WebKit.
! ldd /usr/bin/boof-runner | grep -qE 'libgtk|libwebkit' || fail "/usr/bin/boof-runner links GTK or WebKit"
echo "test-install: apt-get install $(basename "$deb"): ok"

start_xvfb
export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share" NO_AT_BRIDGE=1
unset BOOF_RUNNER_HOME
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
start_bus
data="$XDG_DATA_HOME/boof-runner"
gtk-launch boof-runner >"$tmp/app.log" 2>&1 || fail "gtk-launch boof-runner failed"
for _ in $(seq 600); do grep -q "window: first paint" "$tmp/app.log" && break; sleep 0.1; done
grep -q "window: first paint" "$tmp/app.log" || fail "the app started by gtk-launch never painted"
wait_window "Boof Runner" 30 >/dev/null || fail "no visible window"
sleep 1
import -window root "$out/install-window.png"
pids=$(our_pids)
[ "$(echo "$pids" | wc -w)" = 1 ] || fail "expected one app process, got: $pids"
# Launch again, as a second double-click does: it hands over and exits.
gtk-launch boof-runner >>"$tmp/app.log" 2>&1 || fail "second gtk-launch failed"
for _ in $(seq 100); do grep -q "launch handed over" "$tmp/app.log" && break; sleep 0.1; done
grep -q "launch handed over" "$tmp/app.log" || fail "the second launch was not handed to the running app"
sleep 1
now=$(our_pids)
[ "$now" = "$pids" ] || fail "a second process stays: before $pids, now $now"
echo "test-install: gtk-launch twice: one app (pid $pids), window shown; screenshot $out/install-window.png"
"/usr/bin/boof-runner" add --repo "$tmp" --title "Kept across removal" "Do not lose me" >/dev/null
kill -TERM "$pids"
for _ in $(seq 200); do kill -0 "$pids" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$pids" 2>/dev/null || fail "the app did not quit on SIGTERM"
before=$(cd "$data" && find . -type f ! -name 'ui-snapshot.txt' -printf '%p %s\n' | sort)
apt-get remove -y -qq boof-runner >/dev/null 2>&1 || fail "apt-get remove failed"
installed=0
[ ! -e /usr/bin/boof-runner ] || fail "/usr/bin/boof-runner is still there after removal"
[ ! -e /usr/lib/boof-runner ] || fail "/usr/lib/boof-runner is still there after removal"
[ ! -e /usr/share/applications/boof-runner.desktop ] || fail "the desktop entry is still there after removal"
after=$(cd "$data" && find . -type f ! -name 'ui-snapshot.txt' -printf '%p %s\n' | sort)
[ "$before" = "$after" ] || fail "removing the package changed the data root"
"$bin" list --data-dir "$data" | grep -q "Kept across removal" || fail "the task is gone after removal"
echo "test-install: apt-get remove: the data root is untouched ($(echo "$after" | wc -l) files)"
