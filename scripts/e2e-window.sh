#!/usr/bin/env bash
# e2e-window.sh BIN OUTDIR — the real window with the real backend and the
# mock tool, under Xvfb: add a task from the UI and watch it run to done, open
# it, then add a task that never finishes by itself and stop it from the UI
# (Ctrl+. and the confirmation). Checks the store through the CLI and that no
# agent process survives; saves screenshots to OUTDIR/window-*.png.
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
fail() { echo "e2e-window: $*" >&2; import -window root "$out/window-failed.png" 2>/dev/null || true; tail -20 "$tmp/app.log" >&2; exit 1; }
# step NAME: after every step the app must be alive and must not have logged an
# error (a front-end error reaches the log through DiagService).
step() {
	kill -0 "$app_pid" 2>/dev/null || { wait "$app_pid"; fail "the app died during '$1' (exit $?)"; }
	if grep -q "level=ERROR" "$tmp/app.log"; then fail "the app logged an error during '$1': $(grep -m3 "level=ERROR" "$tmp/app.log")"; fi
	echo "e2e-window: ok: $1"
}
see() { screen_has "$tmp/data" "$app_pid" "$@" || fail "the window does not show: $*"; }
# click_see X Y TEXT... clicks at X,Y until the window shows every TEXT (a
# loaded X server may drop a click: up to three clicks, 6 s apart).
click_see() {
	local x=$1 y=$2 i
	shift 2
	for i in 1 2; do
		xdotool mousemove "$x" "$y" click 1
		SCREEN_WAIT=6 screen_has "$tmp/data" "$app_pid" "$@" 2>/dev/null && return 0
		echo "e2e-window: no ${1} after click $i at $x,$y; clicking again" >&2
	done
	xdotool mousemove "$x" "$y" click 1
	see "$@"
}
cli() { "$bin" "$@" --data-dir "$tmp/data"; }
status_of() { cli show "$1" --json | sed -n 's/^  "status": "\(.*\)",$/\1/p'; }
wait_status() { # ID STATUS SECONDS
	local deadline=$((SECONDS + $3))
	until [ "$(status_of "$1")" = "$2" ]; do
		[ $SECONDS -lt "$deadline" ] || fail "task $1 is $(status_of "$1"), not $2, after $3 s"
		sleep 0.25
	done
}
newest_id() { cli list --json | sed -n 's/^    "id": "\(.*\)",$/\1/p' | head -n1; }
# add_task PROMPT types PROMPT into the focused New task form and submits it,
# retrying when a loaded X server dropped keys; prints the new task's id.
add_task() {
	local before id attempt
	before=$(newest_id)
	for attempt in 1 2 3; do
		xdotool key ctrl+a BackSpace
		xdotool type --delay 30 "$1"
		sleep 0.3
		xdotool key ctrl+Return
		for _ in $(seq 40); do
			id=$(newest_id)
			if [ -n "$id" ] && [ "$id" != "$before" ]; then
				if cli show "$id" --json | grep -qF "\"prompt\": \"$1\""; then echo "$id"; return 0; fi
				cli delete "$id" >/dev/null # keys were dropped: a garbled prompt
				break
			fi
			sleep 0.25
		done
		echo "e2e-window: typing attempt $attempt failed; retrying" >&2
		xdotool key ctrl+n
		sleep 0.5
	done
	return 1
}

repo="$tmp/repo"
mkdir -p "$repo" && git -C "$repo" init -q -b main
echo "hello" >"$repo/README" && git -C "$repo" add README
git -C "$repo" -c user.name=E2E -c user.email=e2e@example.com commit -q -m init
cli settings set workingDirectory "$repo" >/dev/null
for role in planner refinement developer reviewer; do cli settings set "roles.$role" '{"tool":"mock"}' >/dev/null; done
cli settings set stop.graceMs 1000 >/dev/null
cli settings set ui.setupDismissed true >/dev/null # the first-launch screen (no agent CLI here) is its own flow

start_xvfb
export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" NO_AT_BRIDGE=1
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
start_bus
open_window "$bin" "$tmp/data" "$tmp/app.log" || { app_pid=${APP_PID:-}; fail "no window"; }
app_pid=$APP_PID wid=$WID
wait_log "$tmp/app.log" "window: dom ready" 30 || fail "the front end never loaded"
see "New task" "Prompt"
step "start"
xdotool windowfocus --sync "$wid" 2>/dev/null || true

# 1. A task added from the form runs through the whole pipeline to done.
first=$(add_task "Add a greeting file") || fail "the form did not create the task"
wait_status "$first" done 120
see "Add a greeting file" "Done"
step "a task from the form ran to done"
import -window root "$out/window-done.png"
# Open it: the first row of the list.
click_see 200 207 "Review changes" "Reports" "Planner"
step "the done task is open"
import -window root "$out/window-task.png"
cli show "$first" | grep -q "reviewer_report.*APPROVE" || fail "no approved reviewer report stored"
# Its review: the editor's "Review changes" button (second in the action row).
click_see 648 98 "Accept…" "Reject…" "mock-"
step "its review shows the diff"
import -window root "$out/window-review.png"
xdotool key ctrl+1
see "New task"

# 2. A task whose developer waits forever is stopped from the UI.
xdotool key ctrl+n
sleep 0.5
second=$(add_task "Refactor everything [[mock-await developer=9]]") || fail "the form did not create the second task"
wait_status "$second" ongoing 60
deadline=$((SECONDS + 60))
until cli show "$second" | grep -q "developer"; do
	[ $SECONDS -lt $deadline ] || fail "the developer step never started"
	sleep 0.25
done
xdotool mousemove 200 207 click 1 # the running task, first row
see "Refactor everything" "Waiting for 9 message(s)." "Stop"
step "the running task streams"
import -window root "$out/window-running.png"
xdotool key ctrl+period
see "The work is kept" "Stop task"
step "stop asks first"
import -window root "$out/window-stop-confirm.png"
xdotool key Tab Return
wait_status "$second" stopped 30
see "Stopped"
step "stopped from the UI"
import -window root "$out/window-stopped.png"
# Agent steps run inside the task's worktree: nothing may be left there.
survivors=""
for p in /proc/[0-9]*; do
	case "$(readlink "$p/cwd" 2>/dev/null)" in "$repo/.boof-runner-worktrees/"*) survivors="$survivors ${p#/proc/}" ;; esac
done
[ -z "$survivors" ] || fail "agent processes survived the stop:$survivors"
[ -d "$repo/.boof-runner-worktrees/$second" ] || fail "the stopped task's worktree was not kept"

# 3. Every screen renders against the real backend.
# A recurring schedule added with the CLI shows on the Schedules screen (7).
cli add --every "0 2 * * 1-5" --tz Europe/Berlin --name "Nightly deps" "Update the dependencies" >/dev/null
screen_text=("" "" "No task is waiting for an answer." "Command templates" "Save settings" "Leftovers" "Merge queue" "weekdays at 02:00")
for n in 2 3 4 5 6 7; do
	xdotool key "ctrl+$n"
	see "${screen_text[$n]}"
	step "screen $n renders"
	import -window root "$out/window-screen-$n.png"
done

# 4. SIGTERM quits the app cleanly, within the grace, leaving no process.
stop_app "$app_pid" || fail "the app did not quit within 20 s of SIGTERM"
[ "$APP_STATUS" -eq 0 ] || fail "the app exited with status $APP_STATUS after SIGTERM"
app_pid=""
for p in /proc/[0-9]*; do
	case "$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null)" in *dbus-daemon* | *at-spi*) ;; # the session bus's own helpers
	*"$tmp/"*) fail "process ${p#/proc/} survived the app: $(tr '\0' ' ' <"$p/cmdline")" ;; esac
done
echo "e2e-window: done → $first, stopped → $second; screenshots in $out/window-*.png"
