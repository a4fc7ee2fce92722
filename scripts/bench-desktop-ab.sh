#!/usr/bin/env bash
# bench-desktop-ab.sh ROUNDS VARIANT... — desktop builds (or environment
# settings) compared side by side under one Xvfb, interleaved round by round
# so that the load of a shared machine falls on every variant alike.
# VARIANT is "name|desktop-binary|ENV=VALUE ..." (the environment part may
# be empty), e.g.
#   scripts/bench-desktop-ab.sh 5 "main|/tmp/main-desktop|" "new|build/bin/boof-runner-desktop|"
# A variant may also be the bare WebKitGTK floor (go build -tags desktop -o
# /tmp/webkitfloor ./scripts/webkitfloor), which prints "first paint" as the
# app logs "window: first paint", to try a setting on the floor itself.
# Each run: cold start to the first paint, the process tree's CPU time
# until then and 5 s later, and the tree's idle PSS 5 s after first paint,
# split into the UI process (and anything else that is not WebKit's), the
# WebKitWebProcess and the WebKitNetworkProcess. Prints each variant's
# medians (MiB, ms) and every run's figures.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 ROUNDS 'name|binary|ENV=V ...'..." >&2; exit 2; }
rounds=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/xvfb.sh
. "$here/xvfb.sh"
# shellcheck source=scripts/proctree.sh
. "$here/proctree.sh"
tmp=$(mktemp -d)
app=""
cleanup() {
	[ -z "$app" ] || { kill -TERM "$app" 2>/dev/null; wait "$app" 2>/dev/null || true; }
	stop_bus
	stop_xvfb
	rm -rf "$tmp"
}
trap cleanup EXIT
start_xvfb
export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" NO_AT_BRIDGE=1
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
start_bus

wait_paint() {
	for _ in $(seq 3000); do
		grep -q "first paint" "$1" 2>/dev/null && return 0
		sleep 0.005
	done
	echo "bench-desktop-ab: no first paint in $1" >&2
	tail "$1" >&2
	exit 1
}
# pss PID prints the tree's PSS in MiB: total, UI (and the rest), web, network.
pss() {
	local ui=0 web=0 net=0 v p
	for p in $(tree_pids "$1"); do
		v=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
		case "$(cat "/proc/$p/comm" 2>/dev/null)" in
		WebKitWebProces*) web=$((web + v)) ;;
		WebKitNetworkPr*) net=$((net + v)) ;;
		*) ui=$((ui + v)) ;;
		esac
	done
	echo "$(((ui + web + net) / 1024)) $((ui / 1024)) $((web / 1024)) $((net / 1024))"
}

out="$tmp/results"
: >"$out"
n=0
for _ in $(seq "$rounds"); do
	for v in "$@"; do
		IFS='|' read -r name bin envs <<<"$v"
		n=$((n + 1))
		log="$tmp/app$n.log"
		: >"$log"
		t0=$(now_ns)
		# shellcheck disable=SC2086 # envs is a list of NAME=VALUE words
		env $envs "$bin" --data-dir "$tmp/data$n" >"$log" 2>&1 &
		app=$!
		wait_paint "$log"
		cold=$((($(now_ns) - t0) / 1000000))
		c=$(tree_cpu "$app")
		sleep 5
		echo "$name $cold $c $(tree_cpu "$app") $(pss "$app")" >>"$out"
		kill -TERM "$app"
		wait "$app" 2>/dev/null || true
		app=""
	done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $rounds rounds, interleaved"
printf '%-16s %8s %8s %9s %6s %5s %5s %5s\n' variant cold_ms cpu_ms cpu+5s_ms PSS UI web net
for v in "$@"; do
	IFS='|' read -r name _ _ <<<"$v"
	vals=()
	for col in 2 3 4 5 6 7 8; do vals+=("$(awk -v n="$name" -v c=$col '$1 == n {print $c}' "$out" | median)"); done
	printf '%-16s %8s %8s %9s %6s %5s %5s %5s\n' "$name" "${vals[@]}"
done
echo "every run (variant cold_ms cpu_ms cpu+5s_ms PSS UI web net):"
cat "$out"
