# shellcheck shell=bash
# proctree.sh — what the desktop benchmarks measure of a process tree
# (sourced by bench-desktop.sh and bench-desktop-ab.sh).

# tree_pids PID prints PID and its descendants.
tree_pids() {
	local pids=("$1") i=0 k
	while [ $i -lt ${#pids[@]} ]; do
		for k in $(pgrep -P "${pids[$i]}" || true); do pids+=("$k"); done
		i=$((i + 1))
	done
	echo "${pids[@]}"
}

# tree_cpu PID prints the CPU time (ms, user + system) PID and its
# descendants used so far: the load-independent side of a start-up time.
tree_cpu() {
	local s=0 hz p
	hz=$(getconf CLK_TCK)
	for p in $(tree_pids "$1"); do
		s=$((s + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
	done
	echo $((s * 1000 / hz))
}

# tree_kib PID FILE FIELD prints FIELD (in kB) of /proc/P/FILE summed over
# PID and its descendants: tree_kib "$pid" smaps_rollup Pss.
tree_kib() {
	local s=0 p v
	for p in $(tree_pids "$1"); do
		v=$(awk -v f="$3:" '$1 == f {print $2}' "/proc/$p/$2" 2>/dev/null || true)
		s=$((s + ${v:-0}))
	done
	echo $s
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now_ns() { date +%s%N; }
