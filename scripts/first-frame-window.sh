#!/usr/bin/env bash
# first-frame-window.sh BIN OUTDIR — the window's first frame has the page's
# background, not a dark rectangle under a light UI (issue 40): the real app
# starts under Xvfb twice, light and with a dark desktop preference
# (GTK_THEME=Adwaita:dark, which WebKit reports to the page as
# prefers-color-scheme: dark); the window is screenshot as soon as it is
# visible and again once the front end has loaded, and a pixel near its
# bottom-right corner (page background in every screen) must be the theme's
# background both times: #FFFFFF light, #17191D dark (app.css --bg). And
# WebKit's storage stays in the data root: after both runs nothing of the
# app is under ~/.local/share or ~/.cache, and what WebKit wrote is inside
# the data root under folders of 0700 (DATA/webkit/data, DATA/webkit/cache).
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

# corner WID prints the colour (#RRGGBB) of a pixel 4 px inside the
# window's bottom-right corner.
corner() {
	local geo w h
	geo=$(xdotool getwindowgeometry --shell "$1")
	w=$(sed -n 's/^WIDTH=//p' <<<"$geo") h=$(sed -n 's/^HEIGHT=//p' <<<"$geo")
	import -window "$1" -crop "1x1+$((w - 4))+$((h - 4))" -depth 8 txt:- 2>/dev/null | grep -o '#[0-9A-F]\{6\}' | head -n1
}

check() { # check NAME WANT [ENV=VALUE...]
	local name=$1 want=$2 first loaded
	shift 2
	env "$@" bash -c '. "$0"; open_window "$1" "$2" "$3"; echo "$APP_PID $WID" >"$4"; wait "$APP_PID"' \
		"$here/xvfb.sh" "$bin" "$tmp/data-$name" "$tmp/app-$name.log" "$tmp/ids-$name" &
	for _ in $(seq 600); do [ -s "$tmp/ids-$name" ] && break; sleep 0.05; done
	[ -s "$tmp/ids-$name" ] || { echo "first-frame: no $name window" >&2; cat "$tmp/app-$name.log" >&2; exit 1; }
	read -r app_pid wid <"$tmp/ids-$name"
	first=$(corner "$wid")
	import -window "$wid" "$out/first-frame-$name.png"
	wait_log "$tmp/app-$name.log" "window: dom ready" 60 || { echo "first-frame: the $name front end never loaded" >&2; cat "$tmp/app-$name.log" >&2; exit 1; }
	sleep 1
	loaded=$(corner "$wid")
	import -window "$wid" "$out/first-frame-$name-loaded.png"
	stop_app "$app_pid" || true
	app_pid=""
	echo "first-frame: $name: first frame $first, loaded $loaded (want $want)"
	[ "$first" = "$want" ] && [ "$loaded" = "$want" ] || { echo "first-frame: the $name window is not $want throughout" >&2; exit 1; }
}
check light '#FFFFFF'
check dark '#17191D' GTK_THEME=Adwaita:dark
for d in "$HOME/.local/share/boof-runner" "$HOME/.cache/boof-runner"; do
	[ ! -e "$d" ] || { echo "first-frame: WebKit wrote outside the data root:" >&2; find "$d" >&2; exit 1; }
done
for name in light dark; do
	w="$tmp/data-$name/webkit"
	[ -n "$(find "$w" -mindepth 2 -print -quit)" ] || { echo "first-frame: WebKit wrote nothing under $w" >&2; exit 1; }
	# WebKit makes its own folders 0755 below these: they are closed to
	# others by the 0700 ones the app makes above them
	for d in "$w" "$w/data" "$w/cache" "$tmp/data-$name"; do
		[ "$(stat -c %a "$d")" = 700 ] || { echo "first-frame: $d is not 0700" >&2; ls -ld "$d" >&2; exit 1; }
	done
	echo "first-frame: $name: WebKit's storage in the data root: $(cd "$w" && find . -mindepth 1 -maxdepth 3 | sort | tr '\n' ' ')"
done
