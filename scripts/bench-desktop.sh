#!/usr/bin/env bash
# bench-desktop.sh [PKGDIR] — the desktop figures of the installed package,
# measured side by side in one run under Xvfb (as root; the package is
# installed for the run and removed after):
#   cold start of /usr/bin/boof-runner to the front end's first paint (the
#     app logs "window: first paint" when the page has painted), median of 5;
#   idle PSS of the app's whole process tree (WebKit's processes included)
#     5 s after the first paint;
#   a second launch to the window shown again (the running app logs
#     "window: shown" once the front end applied the hand-over), median of 5,
#     and the second process's own exit;
#   the .deb's size.
set -euo pipefail
pkgdir=$(realpath "${1:-build/bin/pkg}")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/xvfb.sh
. "$here/xvfb.sh"
# shellcheck source=scripts/proctree.sh
. "$here/proctree.sh"
deb=$(ls "$pkgdir"/boof-runner_*.deb | head -n1)
tmp=$(mktemp -d)
installed=0
app=""
cleanup() {
	[ -z "$app" ] || { kill -TERM "$app" 2>/dev/null; wait "$app" 2>/dev/null || true; }
	[ $installed = 0 ] || apt-get remove -y -qq boof-runner >/dev/null 2>&1 || true
	stop_bus
	stop_xvfb
	rm -rf "$tmp"
}
trap cleanup EXIT
if dpkg-query -W -f='${Status}' boof-runner 2>/dev/null | grep -q "install ok installed"; then
	echo "bench-desktop: boof-runner is installed already; remove it first" >&2
	exit 1
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null 2>&1
installed=1
start_xvfb
export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" NO_AT_BRIDGE=1
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
start_bus

# wait_line FILE TEXT COUNT waits until FILE holds TEXT COUNT times.
wait_line() {
	for _ in $(seq 3000); do
		[ "$(grep -c "$2" "$1" 2>/dev/null || true)" -ge "$3" ] && return 0
		sleep 0.005
	done
	echo "bench-desktop: no '$2' in $1" >&2
	tail "$1" >&2
	exit 1
}
# tree_pss PID prints the PSS (KiB) of PID and its descendants; each
# process's share goes to $tmp/pss-parts as "name KiB".
tree_pss() {
	local s=0 p v
	: >"$tmp/pss-parts"
	for p in $(tree_pids "$1"); do
		v=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
		echo "$(cat "/proc/$p/comm" 2>/dev/null) $((${v:-0} / 1024))" >>"$tmp/pss-parts"
		s=$((s + ${v:-0}))
	done
	echo "$s"
}

cold=() coldcpu=() second=() exits=() secondcpu=() pss=""
for run in 1 2 3 4 5; do
	log="$tmp/app$run.log"
	: >"$log"
	t0=$(now_ns)
	/usr/bin/boof-runner --data-dir "$tmp/data$run" >"$log" 2>&1 &
	app=$!
	wait_line "$log" "window: first paint" 1
	cold+=($((($(now_ns) - t0) / 1000000)))
	coldcpu+=($(tree_cpu "$app"))
	if [ $run = 1 ]; then
		sleep 5
		pss=$(tree_pss "$app")
		cp "$tmp/pss-parts" "$tmp/pss-first"
	fi
	shown=$(grep -c "window: shown" "$log" || true)
	t0=$(now_ns)
	/usr/bin/time -f "%U %S" -o "$tmp/time" /usr/bin/boof-runner --data-dir "$tmp/data$run"
	exits+=($((($(now_ns) - t0) / 1000000)))
	secondcpu+=($(awk '{printf "%d", ($1 + $2) * 1000}' "$tmp/time"))
	wait_line "$log" "window: shown" $((shown + 1))
	second+=($((($(now_ns) - t0) / 1000000)))
	kill -TERM "$app"; wait "$app" 2>/dev/null || true
	app=""
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "cold start of the installed app to first paint (ms): ${cold[*]} -> median $(printf '%s\n' "${cold[@]}" | median)"
echo "  CPU time of the process tree until then (ms): ${coldcpu[*]} -> median $(printf '%s\n' "${coldcpu[@]}" | median)"
echo "idle PSS of the process tree 5 s after first paint: $((pss / 1024)) MiB ($(awk '{printf "%s%s %s MiB", (NR > 1 ? ", " : ""), $1, $2}' "$tmp/pss-first"))"
echo "second launch to the window shown again (ms): ${second[*]} -> median $(printf '%s\n' "${second[@]}" | median)"
echo "  of which the second process until it exited (ms): ${exits[*]} -> median $(printf '%s\n' "${exits[@]}" | median)"
echo "  CPU time of the second process (ms): ${secondcpu[*]} -> median $(printf '%s\n' "${secondcpu[@]}" | median)"
echo ".deb size: $(($(stat -c %s "$deb") / 1024)) KiB ($(basename "$deb"))"
