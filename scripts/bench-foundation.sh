#!/usr/bin/env bash
# bench-foundation.sh BIN — the foundation figures: cold start of the real
# window to DOM ready under Xvfb (median of 5), idle RSS of the app's whole
# process tree, stripped binary size, and `add` wall time (median of 20).
set -euo pipefail
bin=$(realpath "${1:-build/bin/boof-runner}")
here=$(dirname "$0")
# shellcheck source=scripts/xvfb.sh
. "$here/xvfb.sh"
tmp=$(mktemp -d)
trap 'stop_xvfb; rm -rf "$tmp"' EXIT
start_xvfb
export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" NO_AT_BRIDGE=1
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now_ms() { date +%s%3N; }

# tree_rss PID prints the summed RSS (KiB) of PID and all its descendants.
tree_rss() {
	local pids=("$1") i=0 kids
	while [ $i -lt ${#pids[@]} ]; do
		kids=$(pgrep -P "${pids[$i]}" || true)
		for k in $kids; do pids+=("$k"); done
		i=$((i + 1))
	done
	ps -o rss= -p "$(IFS=,; echo "${pids[*]}")" | awk '{s+=$1} END {print s}'
}

# tree_pss PID prints the summed proportional set size (KiB): shared library
# pages are divided among the processes that map them instead of counted in each.
tree_pss() {
	local pids=("$1") i=0 kids s=0 p
	while [ $i -lt ${#pids[@]} ]; do
		kids=$(pgrep -P "${pids[$i]}" || true)
		for k in $kids; do pids+=("$k"); done
		i=$((i + 1))
	done
	for p in "${pids[@]}"; do
		p=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
		s=$((s + ${p:-0}))
	done
	echo "$s"
}

starts=()
rss=""
pss=""
for run in 1 2 3 4 5; do
	log="$tmp/app$run.log"
	: >"$log"
	t0=$(now_ms)
	"$bin" --data-dir "$tmp/data" >"$log" 2>&1 &
	pid=$!
	until grep -q "window: dom ready" "$log"; do
		kill -0 "$pid" 2>/dev/null || { echo "app exited"; cat "$log"; exit 1; }
		sleep 0.01
	done
	starts+=($(($(now_ms) - t0)))
	if [ $run -eq 5 ]; then
		sleep 5
		rss=$(tree_rss "$pid")
		pss=$(tree_pss "$pid")
	fi
	kill "$pid"; wait "$pid" 2>/dev/null || true
done
echo "cold start to DOM ready (ms): ${starts[*]} -> median $(printf '%s\n' "${starts[@]}" | median)"
echo "idle RSS of the process tree after 5 s: $((rss / 1024)) MiB (PSS, shared pages counted once: $((pss / 1024)) MiB)"
echo "stripped binary size: $(($(stat -c %s "$bin") / 1024 / 1024)) MiB ($(stat -c %s "$bin") bytes)"
adds=()
# add checks the task's repository as the runner would (two git calls), so
# it gets a real one.
git init -q -b main "$tmp/repo" && git -C "$tmp/repo" -c user.name=b -c user.email=b@example.com commit -q --allow-empty -m init
for i in $(seq 20); do
	t0=$(date +%s%N)
	"$bin" add --data-dir "$tmp/data" --repo "$tmp/repo" "benchmark task $i" >/dev/null
	adds+=($((($(date +%s%N) - t0) / 1000000)))
done
echo "boof-runner add wall time (ms): median $(printf '%s\n' "${adds[@]}" | median) of 20"
