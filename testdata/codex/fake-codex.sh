#!/bin/sh
# fake-codex.sh stands in for the codex CLI in the codex adapter's unit
# tests: it replays a recorded transcript. Settings come from the environment:
#   FAKE_CODEX_STREAM  file printed to stdout (a recorded stream.jsonl)
#   FAKE_CODEX_LAST    file copied to the -o file (else the -o file is left empty, as codex does on failure)
#   FAKE_CODEX_EXIT    exit status (default 0)
#   FAKE_CODEX_ARGS    file that receives the arguments, NUL-terminated; FILE.dir gets the working
#                      directory and FILE.stdin what was read from stdin when the prompt is "-"
#   FAKE_CODEX_HANG    when 1, start a child "sleep" after the stream and wait for it (a dead server)
#   FAKE_CODEX_CATALOG file printed for "debug models" (else that command fails)
if [ "$#" -eq 1 ] && [ "$1" = "--version" ]; then
	echo "codex-cli 0.171.0"
	exit 0
fi
prev=""
for a in "$@"; do
	if [ "$prev" = "debug" ] && [ "$a" = "models" ]; then
		[ -n "$FAKE_CODEX_CATALOG" ] || exit 1
		cat "$FAKE_CODEX_CATALOG"
		exit 0
	fi
	prev=$a
done
last=""
prev=""
for a in "$@"; do
	[ "$prev" = "-o" ] && last=$a
	prev=$a
done
if [ -n "$FAKE_CODEX_ARGS" ]; then
	printf '%s\0' "$@" >"$FAKE_CODEX_ARGS"
	pwd >"$FAKE_CODEX_ARGS.dir"
	[ "$prev" = "-" ] && cat >"$FAKE_CODEX_ARGS.stdin"
fi
echo "Reading additional input from stdin..." >&2
[ -n "$FAKE_CODEX_STREAM" ] && cat "$FAKE_CODEX_STREAM"
if [ -n "$last" ]; then
	if [ -n "$FAKE_CODEX_LAST" ]; then cat "$FAKE_CODEX_LAST" >"$last"; else : >"$last"; fi
fi
if [ "$FAKE_CODEX_HANG" = "1" ]; then
	sleep 1000 &
	wait
fi
exit "${FAKE_CODEX_EXIT:-0}"
