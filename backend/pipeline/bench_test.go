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
// without the orchestration: the same git commands the worktree package
// runs (provision, prompt diffs for observer and reviewer, leftovers saved
// with a temporary index, worktree removed) and the five agent runs.
const baselineScript = `set -e
repo=$1; id=$2; exe=$3; state=$4
wt="$repo/.bench-wt/$id"
g() { git --no-pager "$@" > /dev/null; }
g -C "$repo" rev-parse --path-format=absolute --show-toplevel --git-common-dir --show-prefix
git -C "$repo" rev-parse --verify --quiet "refs/heads/boof-runner/$id" || true
g -C "$repo" rev-parse --verify --quiet "HEAD^{commit}"
g -C "$repo" worktree list --porcelain -z
g -C "$repo" worktree add --quiet -b "boof-runner/$id" -- "$wt" HEAD
for role in planner refinement developer observer reviewer; do
  if [ $role = observer ] || [ $role = reviewer ]; then
    g -C "$wt" diff --no-color --no-ext-diff -M HEAD~1 --
    g -C "$wt" ls-files --others --exclude-standard --full-name -z
  fi
  printf 'Bench task.\n' > "$state/prompt.txt"
  ` + agentEnv + `=1 "$exe" --role $role --dir "$wt" --state "$state" --prompt-file "$state/prompt.txt" > "$state/out.txt"
done
g -C "$repo" rev-parse --verify --quiet "refs/heads/boof-runner/$id"
g -C "$wt" rev-parse --verify --quiet HEAD
g -C "$wt" rev-parse --path-format=absolute --git-path index
g -C "$wt" ls-files --others --exclude-standard --full-name
g -C "$wt" ls-files --stage -z
export GIT_INDEX_FILE="$state/index"
git -C "$wt" read-tree HEAD
git -C "$wt" add -A
tree=$(git -C "$wt" write-tree)
g -C "$wt" rev-parse --verify HEAD
c=$(git -C "$wt" commit-tree "$tree" -p HEAD -m leftovers)
unset GIT_INDEX_FILE
g -C "$repo" rev-parse --path-format=absolute --git-common-dir
git -C "$repo" rev-parse --verify --quiet "refs/heads/boof-runner/$id--leftovers" || true
g -C "$repo" update-ref "refs/heads/boof-runner/$id--leftovers" "$c"
g -C "$repo" rev-parse --path-format=absolute --git-common-dir
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
