#!/bin/sh
# install-clis.sh DIR — installs the agent CLIs used by the real-CLI test
# suite into DIR (npm --prefix) when they are missing or at another version,
# then prints DIR's bin directory. Versions are pinned: the adapters' parsers
# and the recorded transcripts in testdata/ were made with these.
#
#   BIN=$(scripts/install-clis.sh "$HOME/.cache/boof-clis")
#   BOOF_CLAUDE_BIN=$BIN/claude BOOF_CODEX_BIN=$BIN/codex BOOF_GEMINI_BIN=$BIN/gemini \
#   BOOF_OPENCODE_BIN=$BIN/opencode BOOF_QWEN_BIN=$BIN/qwen go test -tags realcli ./backend/agent/...
#
# Two runs at once (parallel make targets, two worktrees) take turns on a
# lock in DIR, so npm never installs into the same prefix twice at a time.
set -eu

CLAUDE_VERSION=2.1.197
CODEX_VERSION=0.171.0
GEMINI_VERSION=0.61.0
OPENCODE_VERSION=1.18.33
QWEN_VERSION=0.24.4

if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

exec 9>"$dir/.install.lock"
flock 9

# installed PKG prints the installed version of PKG in DIR, or nothing.
installed() {
	pj="$dir/node_modules/$1/package.json"
	[ -f "$pj" ] && node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true
}

want=""
# need PKG VERSION adds PKG@VERSION to want unless DIR has that version.
need() {
	[ "$(installed "$1")" = "$2" ] || want="$want $1@$2"
}
need @anthropic-ai/claude-code "$CLAUDE_VERSION"
need @openai/codex "$CODEX_VERSION"
need @google/gemini-cli "$GEMINI_VERSION"
need opencode-ai "$OPENCODE_VERSION"
need @qwen-code/qwen-code "$QWEN_VERSION"
if [ -n "$want" ]; then
	# --save-exact keeps DIR's package.json pinned too, so a later install
	# of one package never moves another.
	# shellcheck disable=SC2086 # want is a list of package specs
	npm install --prefix "$dir" --no-audit --no-fund --save-exact --loglevel=error $want >&2
fi

bin="$dir/node_modules/.bin"
for b in claude codex gemini opencode qwen; do
	if [ ! -x "$bin/$b" ]; then
		echo "install-clis: $bin/$b missing after install" >&2
		exit 1
	fi
done
echo "$bin"
