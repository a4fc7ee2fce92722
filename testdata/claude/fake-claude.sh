#!/bin/sh
# fake-claude.sh — stands in for the claude CLI in the adapter's unit tests:
# records its arguments, environment and stdin, replays a recorded
# stream-json transcript, then ends like the real CLI does.
#   FAKE_CLAUDE_DIR     where args.txt, env.txt and stdin.txt are written
#   FAKE_CLAUDE_STREAM  the transcript to print (testdata/claude/<case>/stream.jsonl)
#   FAKE_CLAUDE_EXIT    exit status (default 0)
set -u
: > "$FAKE_CLAUDE_DIR/args.txt"
for a in "$@"; do printf '%s\0' "$a" >> "$FAKE_CLAUDE_DIR/args.txt"; done
env > "$FAKE_CLAUDE_DIR/env.txt"
input=no
for a in "$@"; do [ "$a" = "--input-format" ] && input=yes; done
if [ "$input" = yes ]; then
	# The first stdin line is the prompt; the run only ends once the caller
	# closes stdin after the result, as with the real CLI.
	head -n 1 > "$FAKE_CLAUDE_DIR/stdin.txt"
fi
cat "$FAKE_CLAUDE_STREAM"
if [ "$input" = yes ]; then
	cat >> "$FAKE_CLAUDE_DIR/stdin.txt"
fi
# The real CLI prints a terminal-reset blob after its last line.
printf '\033[?25h\033[?1004l\033[?2004l'
exit "${FAKE_CLAUDE_EXIT:-0}"
