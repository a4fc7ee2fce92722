#!/usr/bin/env bash
# smoke-window.sh BIN OUTDIR — the real-window smoke test: starts the real app
# under Xvfb with a temp data dir, fills the New task form with xdotool,
# submits it, checks with the CLI that the task is in SQLite (and that the
# window has its icon), and saves a
# screenshot to OUTDIR/smoke-window.png.
set -euo pipefail
bin=$(realpath "${1:-build/bin/boof-runner}")
out=$(mkdir -p "${2:-out/screens}" && realpath "${2:-out/screens}")
here=$(dirname "$0")
# shellcheck source=scripts/xvfb.sh
. "$here/xvfb.sh"

tmp=$(mktemp -d)
app_pid=""
cleanup() {
	if [ -n "$app_pid" ]; then stop_app "$app_pid" || true; fi
	stop_bus
	stop_xvfb
	rm -rf "$tmp"
}
trap cleanup EXIT
start_xvfb

export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" NO_AT_BRIDGE=1
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
start_bus
# A repository to work in: the New task form refuses a task with no folder
# to run in (the first-run journey without one is a browser flow).
repo="$tmp/repo"
git init -q -b main "$repo"
git -C "$repo" -c user.name=smoke -c user.email=smoke@localhost commit -q --allow-empty -m first
"$bin" settings set workingDirectory "$repo" --data-dir "$tmp/data" >/dev/null
"$bin" settings set ui.setupDismissed true --data-dir "$tmp/data" >/dev/null # the first-launch screen (no agent CLI here) is its own flow
open_window "$bin" "$tmp/data" "$tmp/app.log" || { app_pid=${APP_PID:-}; echo "smoke: no window" >&2; exit 1; }
app_pid=$APP_PID wid=$WID
echo "smoke: window $wid is up"
# The window has its icon: the 256 px one (build.WindowIcon). GDK drops an
# icon too large for one X request (the 1024 px app icon was), leaving none.
icon=$(xprop -id "$wid" -f _NET_WM_ICON 32c ' = $0x$1' _NET_WM_ICON 2>&1 || true)
[ "$icon" = "_NET_WM_ICON(CARDINAL) = 256x256" ] || { echo "smoke: the window's icon is not the 256 px one: $icon" >&2; exit 1; }
# Wait until the front end has loaded (the app logs it from Wails' DomReady).
for _ in $(seq 300); do
	grep -q "window: dom ready" "$tmp/app.log" && break
	sleep 0.1
done
grep -q "window: dom ready" "$tmp/app.log" || { echo "smoke: the front end never loaded" >&2; cat "$tmp/app.log" >&2; exit 1; }
# The shell gave WebKit its environment (app/shell/webkit_env.go): the web
# process runs without the DMA-BUF renderer.
web=$(pgrep -P "$app_pid" -f WebKitWebProcess | head -n1 || true)
[ -n "$web" ] && tr '\0' '\n' <"/proc/$web/environ" | grep -qx WEBKIT_DISABLE_DMABUF_RENDERER=1 ||
	{ echo "smoke: the web process ($web) runs without WEBKIT_DISABLE_DMABUF_RENDERER=1" >&2; exit 1; }
prompt="Smoke task typed by xdotool $$"
for attempt in 1 2 3; do
	sleep 0.5
	xdotool windowfocus --sync "$wid" 2>/dev/null || true
	xdotool key ctrl+a BackSpace
	xdotool type --delay 10 "$prompt"
	xdotool key ctrl+Return
	for _ in $(seq 20); do
		if "$bin" list --json --data-dir "$tmp/data" | grep -qF "$prompt"; then
			kill -0 "$app_pid" 2>/dev/null || { echo "smoke: the app died" >&2; cat "$tmp/app.log" >&2; exit 1; }
			# What the window shows, asked of the app itself (SIGUSR2 → ui-snapshot.txt).
			screen_has "$tmp/data" "$app_pid" "$prompt" "New task" || { cat "$tmp/app.log" >&2; exit 1; }
			if grep -q "level=ERROR" "$tmp/app.log"; then echo "smoke: the app logged an error" >&2; cat "$tmp/app.log" >&2; exit 1; fi
			import -window root "$out/smoke-window.png"
			echo "smoke: task stored after attempt $attempt; screenshot $out/smoke-window.png"
			"$bin" list --data-dir "$tmp/data"
			exit 0
		fi
		sleep 0.25
	done
done
import -window root "$out/smoke-window-failed.png" || true
echo "smoke: the task never reached the store; see $out/smoke-window-failed.png" >&2
cat "$tmp/app.log" >&2
exit 1
