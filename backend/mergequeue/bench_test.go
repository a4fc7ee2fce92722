package mergequeue

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// baselineScript does by hand what the queue does for one merge entry:
// build the merge on the target's tip, check it out in a temporary
// worktree, run the verify command there, move the target, bring the
// checkout along and remove the worktree.
const baselineScript = `set -e
cd "$1"
base=$(git rev-parse main)
tree=$(git merge-tree --write-tree main "$2")
new=$(git commit-tree "$tree" -p "$base" -p "$2" -m "merge $2")
git worktree add --detach --quiet "$3" "$new"
(cd "$3" && ./check.sh > /dev/null)
git worktree remove --force "$3"
git update-ref refs/heads/main "$new" "$base"
git read-tree -m -u "$base" "$new"
`

// BenchmarkQueueOverhead lands one entry per iteration through the queue
// and the same git commands and verify run by a shell script, in the same
// run, and reports both and their ratio (goal ≤ 1.15).
func BenchmarkQueueOverhead(b *testing.B) {
	f := newFixture(b)
	script := filepath.Join(b.TempDir(), "land.sh")
	if err := os.WriteFile(script, []byte(baselineScript), 0o755); err != nil {
		b.Fatal(err)
	}
	var queueTotal, shellTotal time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		q := f.doneTask(fmt.Sprintf("Queued %d", i), map[string]string{fmt.Sprintf("q%d.txt", i): "q\n"})
		s := f.doneTask(fmt.Sprintf("Scripted %d", i), map[string]string{fmt.Sprintf("s%d.txt", i): "s\n"})
		f.add(q.ID)
		b.StartTimer()
		t0 := time.Now()
		if n, err := f.q.Pass(context.Background()); err != nil || n != 1 {
			b.Fatalf("pass: %d %v", n, err)
		}
		t1 := time.Now()
		out, err := exec.Command("/bin/sh", script, f.repo, "refs/heads/boof-runner/"+s.ID, filepath.Join(b.TempDir(), "wt")).CombinedOutput()
		if err != nil {
			b.Fatalf("baseline: %v\n%s", err, out)
		}
		queueTotal += t1.Sub(t0)
		shellTotal += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(queueTotal.Microseconds())/1000/n, "queue-ms/entry")
	b.ReportMetric(float64(shellTotal.Microseconds())/1000/n, "shell-ms/entry")
	b.ReportMetric(float64(queueTotal)/float64(shellTotal), "ratio")
}
