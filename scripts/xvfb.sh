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
