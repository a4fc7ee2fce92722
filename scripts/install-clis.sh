#!/bin/sh
# install-clis.sh DIR — installs the agent CLIs used by the real-CLI test
# suite into DIR (npm --prefix) when they are missing or at another version,
# then prints DIR's bin directory. Versions are pinned: the adapters' parsers
# and the recorded transcripts in testdata/ were made with these.
#
#   BIN=$(scripts/install-clis.sh "$HOME/.cache/boof-clis")
#   BOOF_CLAUDE_BIN=$BIN/claude BOOF_CODEX_BIN=$BIN/codex go test -tags realcli ./backend/agent/...
set -eu

CLAUDE_VERSION=2.1.197
CODEX_VERSION=0.171.0

if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# installed PKG prints the installed version of PKG in DIR, or nothing.
installed() {
	pj="$dir/node_modules/$1/package.json"
	[ -f "$pj" ] && node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true
}

want=""
[ "$(installed @anthropic-ai/claude-code)" = "$CLAUDE_VERSION" ] || want="$want @anthropic-ai/claude-code@$CLAUDE_VERSION"
[ "$(installed @openai/codex)" = "$CODEX_VERSION" ] || want="$want @openai/codex@$CODEX_VERSION"
if [ -n "$want" ]; then
	# shellcheck disable=SC2086 # want is a list of package specs
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error $want >&2
fi

bin="$dir/node_modules/.bin"
for b in claude codex; do
	if [ ! -x "$bin/$b" ]; then
		echo "install-clis: $bin/$b missing after install" >&2
		exit 1
	fi
done
echo "$bin"
