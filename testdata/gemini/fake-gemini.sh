#!/bin/sh
# fake-gemini.sh — stands in for the gemini CLI in the adapter's unit
# tests: records its arguments, environment and stdin, replays a recorded
# stream-json transcript, then ends like the real CLI does.
#   FAKE_GEMINI_DIR      where args.txt, env.txt and stdin.txt are written
#   FAKE_GEMINI_STREAM   the transcript to print (testdata/gemini/<case>/stream.jsonl)
#   FAKE_GEMINI_STDERR   text printed to stderr first (optional)
#   FAKE_GEMINI_EXIT     exit status (default 0)
#   FAKE_GEMINI_VERSION  what --version prints (default 0.61.0)
set -u
if [ "${1:-}" = "--version" ]; then
	echo "${FAKE_GEMINI_VERSION:-0.61.0}"
	exit 0
fi
: > "$FAKE_GEMINI_DIR/args.txt"
for a in "$@"; do printf '%s\0' "$a" >> "$FAKE_GEMINI_DIR/args.txt"; done
env > "$FAKE_GEMINI_DIR/env.txt"
cat > "$FAKE_GEMINI_DIR/stdin.txt"
[ -n "${FAKE_GEMINI_STDERR:-}" ] && printf '%s\n' "$FAKE_GEMINI_STDERR" >&2
cat "$FAKE_GEMINI_STREAM"
exit "${FAKE_GEMINI_EXIT:-0}"
