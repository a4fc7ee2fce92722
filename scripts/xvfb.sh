# xvfb.sh — sourced by the window scripts: start_xvfb starts a private Xvfb,
# exports DISPLAY, and arranges for it to stop on exit.
start_xvfb() {
	local fdfile
	fdfile=$(mktemp)
	Xvfb -displayfd 1 -screen 0 "${XVFB_SIZE:-1280x800x24}" -nolisten tcp >"$fdfile" 2>/dev/null &
	XVFB_PID=$!
	for _ in $(seq 600); do
		[ -s "$fdfile" ] && break
		sleep 0.05
	done
	DISPLAY=":$(head -n1 "$fdfile")"
	export DISPLAY
	rm -f "$fdfile"
	[ "$DISPLAY" != ":" ] || { echo "xvfb: could not start Xvfb" >&2; return 1; }
	for _ in $(seq 100); do # the server answers before anything connects
		xdotool getdisplaygeometry >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "xvfb: Xvfb on $DISPLAY does not answer" >&2
	return 1
}

stop_xvfb() {
	if [ -n "${XVFB_PID:-}" ]; then kill "$XVFB_PID" 2>/dev/null; wait "$XVFB_PID" 2>/dev/null || true; fi
	return 0
}

# wait_window NAME TIMEOUT_S prints the window id once a visible window has NAME.
wait_window() {
	local deadline=$((SECONDS + $2)) wid
	while [ $SECONDS -lt $deadline ]; do
		wid=$(xdotool search --onlyvisible --name "^$1\$" 2>/dev/null | head -n1 || true)
		[ -n "$wid" ] && { echo "$wid"; return 0; }
		sleep 0.1
	done
	return 1
}

# start_bus starts a private session bus for the app (the tray and
# notifications talk DBus) and exports its address; stop_bus ends it.
start_bus() {
	local out
	out=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
	DBUS_SESSION_BUS_ADDRESS=$(printf '%s\n' "$out" | sed -n 1p)
	BUS_PID=$(printf '%s\n' "$out" | sed -n 2p)
	export DBUS_SESSION_BUS_ADDRESS
}

stop_bus() {
	if [ -n "${BUS_PID:-}" ]; then kill "$BUS_PID" 2>/dev/null || true; fi
	return 0
}

# stop_app PID sends SIGTERM and waits up to 20 s for the app to quit; it
# returns 1 (after a SIGKILL) when the app did not quit by itself.
stop_app() {
	local pid=$1 i
	kill "$pid" 2>/dev/null || return 0
	for i in $(seq 200); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	return 1
}
