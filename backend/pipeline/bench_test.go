package pipeline

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
)

// baselineScript does the git and process work of a 5-step mock task
// without the orchestration: the git commands the pipeline runs for it, as
// `strace -f -e execve` lists them (provision; the read-only guard's
// status before and after each read-only step, shared between neighbours;
// the observer's prompt diff and untracked files, which the reviewer's
// prompt reuses; leftovers saved through a temporary index seeded from the
// worktree's; the worktree removed), and the five agent runs with the
// flags the adapter gives them.
const baselineScript = `set -e
repo=$1; id=$2; exe=$3; state=$4
wt="$repo/.bench-wt/$id"
g() { git --no-pager "$@" > /dev/null; }
g -C "$repo" rev-parse --path-format=absolute --show-toplevel --git-common-dir --show-prefix
base=$(git --no-pager -C "$repo" rev-parse --verify --quiet --end-of-options "HEAD^{commit}")
g -C "$repo" worktree list --porcelain -z
g -C "$repo" worktree add --quiet -b "boof-runner/$id" -- "$wt" "$base"
st() { g -C "$wt" status --porcelain=v2 -z --branch --no-renames --untracked-files=all --ignore-submodules=none; }
agent() {
  printf 'Bench task.\n' > "$state/prompt.txt"
  ` + agentEnv + `=1 "$exe" --role "$1" --dir "$wt" --state "$state" --prompt-file "$state/prompt.txt" --input $2 < /dev/null > "$state/out.txt"
}
st; agent planner --read-only
st; agent refinement --read-only
st; agent developer
g -C "$wt" diff --no-color --no-ext-diff --no-textconv --no-relative -M --raw --numstat -z --end-of-options "$base" --
g -C "$wt" ls-files --others --exclude-standard --full-name -z -- :/
g -C "$wt" diff --no-color --no-ext-diff --no-textconv --no-relative -M --src-prefix=a/ --dst-prefix=b/ --end-of-options "$base" --
g -C "$wt" ls-files --others --exclude-standard --full-name -z -- :/
st; agent observer --read-only
st; agent reviewer --read-only
st
head=$(< "$repo/.git/refs/heads/boof-runner/$id")
g -C "$wt" rev-parse --path-format=absolute --git-common-dir
cp "$repo/.git/worktrees/$id/index" "$state/leftovers.index"
export GIT_INDEX_FILE="$state/leftovers.index"
g -C "$wt" add -A
g -C "$wt" ls-files --stage -z
tree=$(git --no-pager -C "$wt" write-tree)
unset GIT_INDEX_FILE
c=$(printf 'Leftovers\n' | git --no-pager -C "$wt" commit-tree -p "$head" -F - "$tree")
printf 'update refs/heads/boof-runner/%s--leftovers\0%s\0%s\0' "$id" "$c" 0000000000000000000000000000000000000000 |
  g -C "$repo" update-ref -m "boof-runner: save leftovers" -z --stdin
g -C "$repo" worktree remove --force -- "$wt"
`

// BenchmarkOrchestrationOverhead runs a 5-step mock task through the
// pipeline and the same git and process operations as a shell script,
// alternately, and reports the ratio of their times.
func BenchmarkOrchestrationOverhead(b *testing.B) {
	script := filepath.Join(b.TempDir(), "baseline.sh")
	if err := os.WriteFile(script, []byte(baselineScript), 0o755); err != nil {
		b.Fatal(err)
	}
	var pipe, base time.Duration
	for i := 0; i < b.N; i++ {
		e := newBenchEnv(b)
		// As the app runs it: with a scope, each step ends with the sweep
		// for processes its git commands left behind.
		e.p.o.Scope = fmt.Sprintf("bench%d", time.Now().UnixNano())
		tk := e.addTask("Bench task.", 1)
		start := time.Now()
		res := e.claimRun(context.Background(), tk.ID)
		pipe += time.Since(start)
		if res.Status != "done" {
			b.Fatalf("status %s %q", res.Status, res.Message)
		}
		repo := newRepo(b)
		state := b.TempDir()
		start = time.Now()
		out, err := exec.Command("bash", script, repo, fmt.Sprintf("b%d", i), os.Args[0], state).CombinedOutput()
		base += time.Since(start)
		if err != nil {
			b.Fatalf("baseline: %v\n%s", err, out)
		}
	}
	b.ReportMetric(float64(pipe)/float64(b.N)/1e6, "pipeline-ms/op")
	b.ReportMetric(float64(base)/float64(b.N)/1e6, "script-ms/op")
	b.ReportMetric(float64(pipe)/float64(base), "ratio")
}

// newBenchEnv is newEnv for benchmarks: observer configured, 5 steps.
func newBenchEnv(b *testing.B) *env {
	return newEnvTB(b, func(s *settings.Settings) { s.Roles.Observer = &settings.ToolRef{Tool: "mock"} })
}
