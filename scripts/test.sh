#!/usr/bin/env bash
# test.sh — what `make test` runs: every stage in order, each timed, then a
# scan that fails when any process the run started survived it (app, Xvfb,
# dbus-daemon, chromium, agents). Everything the tests start lives under one
# private TMPDIR, so the scan can tell our leftovers from the machine's.
set -euo pipefail
cd "$(dirname "$0")/.."

run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/boof-test.XXXXXX")
baseline=$(mktemp)
scripts/proc-scan.sh baseline "$baseline"
export TMPDIR=$run_tmp
times=()
start=$SECONDS

finish() {
	local rc=$?
	set +e
	echo
	echo "== stage times"
	printf '   %s\n' "${times[@]}"
	echo "   total $((SECONDS - start)) s"
	echo "== process scan"
	scripts/proc-scan.sh check "$run_tmp" "$baseline" || rc=1
	rm -rf "$run_tmp" "$baseline"
	exit $rc
}
trap finish EXIT
trap 'exit 130' INT TERM

# stage NAME COMMAND...: runs it, records its time; a failure ends the run.
stage() {
	local name=$1 t0=$SECONDS
	shift
	echo "== $name"
	if "$@"; then
		times+=("$(printf '%-14s %5d s' "$name" $((SECONDS - t0)))")
	else
		times+=("$(printf '%-14s %5d s  FAILED' "$name" $((SECONDS - t0)))")
		exit 1
	fi
}

stage deps make --no-print-directory deps-apt
stage wails-doctor sh -c 'go tool wails doctor >/dev/null || { go tool wails doctor; exit 1; }'
stage npm-ci sh -c 'cd frontend && npm ci --no-audit --no-fund'
stage frontend make --no-print-directory frontend
stage contract make --no-print-directory contract
stage test-frontend make --no-print-directory test-frontend
stage vet make --no-print-directory -o frontend vet
# Windows and macOS (docs/platforms.md): the .exe files and the installer,
# the Windows tests under Wine, the installer under Wine.
stage test-windows make --no-print-directory -o frontend -o deps-apt test-windows
stage test-go make --no-print-directory test-go
stage test-k8s make --no-print-directory test-k8s-cached
stage bench make --no-print-directory bench-smoke
stage reliability make --no-print-directory test-reliability
stage test-e2e make --no-print-directory -o frontend test-e2e
# (-o: the front end was built and the deps installed by the stages above.)
stage test-window make --no-print-directory -o frontend -o deps test-window
stage test-desktop make --no-print-directory -o frontend -o deps test-desktop
