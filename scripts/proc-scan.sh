#!/usr/bin/env bash
# proc-scan.sh baseline FILE    — records the pids of app, Xvfb, dbus-daemon,
#                                 chromium and agent processes alive now
# proc-scan.sh check DIR FILE   — fails (exit 1) when a process survives that
#   a) carries TMPDIR=DIR in its environment or runs in / names DIR (everything
#      `make test` starts lives under its private TMPDIR DIR), or
#   b) is an app, Xvfb, dbus-daemon, chromium or agent process that was not in
#      the baseline FILE (with CI=true only: a developer's machine runs others).
# Survivors are listed, then killed, so one failed run does not leak into the next.
set -uo pipefail

names='boof-runner|__mock-agent|Xvfb|dbus-daemon|chromium|chrome_crashpad|claude|codex'

# ours PID: is the process one of ours by name?
ours() {
	local cmd
	cmd=$({ tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null) || return 1
	[[ $cmd =~ $names ]]
}

case "${1:-}" in
baseline)
	: >"$2"
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		ours "$pid" && echo "$pid" >>"$2"
	done
	exit 0
	;;
check) dir=$2 base=$3 ;;
*)
	echo "usage: $0 baseline FILE | check DIR FILE" >&2
	exit 2
	;;
esac

# Our own ancestors (make, the test script) carry TMPDIR too: skip them.
declare -A skip=([$$]=1)
anc=$$
while [ "$anc" -gt 1 ]; do
	anc=$(awk '{print $4}' "/proc/$anc/stat" 2>/dev/null) || break
	skip[$anc]=1
done
found=()
for p in /proc/[0-9]*; do
	pid=${p#/proc/}
	[ -n "${skip[$pid]:-}" ] && continue
	cmd=$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
	[ -n "$cmd" ] || continue # kernel threads, zombies
	cwd=$(readlink "$p/cwd" 2>/dev/null || true)
	if grep -qzx "TMPDIR=$dir" "$p/environ" 2>/dev/null || [[ $cwd == "$dir"* ]] || [[ $cmd == *"$dir"* ]]; then
		found+=("$pid: $cmd")
		continue
	fi
	if [ "${CI:-}" = true ] && ours "$pid" && ! grep -qx "$pid" "$base"; then
		found+=("$pid: $cmd (not running before the tests)")
	fi
done

if [ ${#found[@]} -eq 0 ]; then
	echo "proc-scan: no test process survived"
	exit 0
fi
echo "proc-scan: processes survived the test run:" >&2
printf '  %s\n' "${found[@]}" >&2
for f in "${found[@]}"; do kill -9 "${f%%:*}" 2>/dev/null || true; done
exit 1
