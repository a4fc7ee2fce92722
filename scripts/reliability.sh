#!/usr/bin/env bash
# reliability.sh [--full] — runs the reliability rows (Go tests with the
# reliability build tag in backend/reliability) and prints one table, saved
# as out/reliability.md. Without --full each row runs its short version.
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
[ "${1:-}" = "--full" ] && full=1
mkdir -p out
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
timeout=10m
[ $full = 1 ] && timeout=45m
BOOF_RELIABILITY_FULL=$full BOOF_RELIABILITY_OUT="$rows" BOOF_RELIABILITY_TABLE="$PWD/out/reliability.md" \
	go test -count=1 -tags reliability -timeout "$timeout" -v ./backend/reliability/ 2>&1 | grep -vE '^(=== RUN|=== PAUSE|=== CONT)'
