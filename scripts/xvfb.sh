# xvfb.sh — sourced by the window scripts: start_xvfb starts a private Xvfb,
# exports DISPLAY, and arranges for it to stop on exit.
start_xvfb() {
	local fdfile
	fdfile=$(mktemp)
	XVFB_LOG=$(mktemp)
	Xvfb -displayfd 1 -screen 0 "${XVFB_SIZE:-1280x800x24}" -nolisten tcp >"$fdfile" 2>"$XVFB_LOG" &
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
	[ -z "${XVFB_LOG:-}" ] || rm -f "$XVFB_LOG"
	return 0
}

# xvfb_state says what the X server looks like now (for a failure message):
# alive or not, whether it answers, the end of its log.
xvfb_state() {
	local alive=gone answers
	kill -0 "${XVFB_PID:-0}" 2>/dev/null && alive=alive
	answers=$(xdotool getdisplaygeometry 2>&1 || true)
	echo "Xvfb on $DISPLAY (pid ${XVFB_PID:-?}) $alive, answers: ${answers:-nothing}; its log: $(tail -n 5 "${XVFB_LOG:-/dev/null}" 2>/dev/null | tr '\n' ' ')"
}

# wait_window NAME TIMEOUT_S [PID] prints the window id once a visible window
# has NAME; it gives up early when process PID (the app) is gone.
wait_window() {
	local deadline=$((SECONDS + $2)) wid
	while [ $SECONDS -lt $deadline ]; do
		wid=$(xdotool search --onlyvisible --name "^$1\$" 2>/dev/null | head -n1 || true)
		[ -n "$wid" ] && { echo "$wid"; return 0; }
		[ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# open_window BIN DATA LOG starts the app (BIN --data-dir DATA, its output in
# LOG) and waits up to 30 s for its window; APP_PID and WID are set. When the
# app could not init GTK on the display (seen once in CI on an Xvfb that had
# just answered xdotool; not reproduced) it says what the X server looked
# like and starts the app once more. Any other failure prints that state and
# the app's log and returns 1.
open_window() {
	local try why
	for try in 1 2; do
		"$1" --data-dir "$2" >"$3" 2>&1 &
		APP_PID=$!
		WID=$(wait_window "Boof Runner" 30 "$APP_PID") && return 0
		if kill -0 "$APP_PID" 2>/dev/null; then why="within 30 s"; else why="(the app exited)"; fi
		echo "no Boof Runner window $why; $(xvfb_state)" >&2
		cat "$3" >&2
		{ [ "$try" = 1 ] && grep -q "failed to init GTK" "$3"; } || return 1
		echo "GTK could not open $DISPLAY; starting the app once more" >&2
	done
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

# stop_app PID sends SIGTERM and waits up to 20 s for the app to quit,
# leaving its exit status in APP_STATUS; it returns 1 (after a SIGKILL) when
# the app did not quit by itself.
stop_app() {
	local pid=$1 i
	APP_STATUS=0
	kill "$pid" 2>/dev/null || return 0
	for i in $(seq 200); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; APP_STATUS=$?; return 0; }
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	return 1
}

# snapshot DATA PID prints the text the app's window shows: SIGUSR2 makes the
# app ask its front end (DiagService) and write DATA/ui-snapshot.txt. Fails
# when no new snapshot arrives within 20 s.
snapshot() {
	local f="$1/ui-snapshot.txt" before now deadline=$((SECONDS + 20))
	before=$(head -n1 "$f" 2>/dev/null || echo none)
	kill -USR2 "$2" 2>/dev/null || return 1
	while [ $SECONDS -lt $deadline ]; do
		now=$(head -n1 "$f" 2>/dev/null || true)
		if [ -n "$now" ] && [ "$now" != "$before" ]; then
			tail -n +2 "$f"
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# screen_has DATA PID TEXT... waits up to 20 s until the window shows every
# TEXT (fixed strings); prints the last snapshot and fails otherwise.
screen_has() {
	local data=$1 pid=$2 text t ok deadline=$((SECONDS + ${SCREEN_WAIT:-20}))
	shift 2
	while :; do
		text=$(snapshot "$data" "$pid") || { echo "no snapshot from the app" >&2; return 1; }
		ok=1
		for t in "$@"; do grep -qF -- "$t" <<<"$text" || { ok=0; break; }; done
		[ $ok = 1 ] && return 0
		if [ $SECONDS -ge $deadline ]; then
			echo "the window does not show '$t'; it shows:" >&2
			head -c 3000 <<<"$text" >&2
			return 1
		fi
		sleep 0.5
	done
}

# wait_log FILE PATTERN SECONDS waits for PATTERN in FILE; fails on timeout.
wait_log() {
	local deadline=$((SECONDS + $3))
	until grep -q -- "$2" "$1"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.1
	done
}
