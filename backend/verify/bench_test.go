package verify

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// BenchmarkGateOverhead measures one gate run of a trivial command (PTY,
// process-tree runner, worktree snapshot and restore, the empty-diff
// check) against the same command run by a bare exec, in the same run;
// it reports the overhead per run in ms (goal ≤ 100 ms).
func BenchmarkGateOverhead(b *testing.B) {
	dir := repo(b)
	write(b, dir+"/work.txt", "uncommitted work\n")
	head := git(b, dir, "rev-parse", "HEAD")
	cmd := "./check.sh"
	bare := func() {
		c := exec.Command(Shell, "-c", cmd)
		c.Dir = dir
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
	gate := func() {
		r, err := runner().Start(context.Background(), Spec{Dir: dir, Command: cmd, Base: head, Timeout: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		res, err := r.Wait()
		if err != nil || res.Outcome != task.VerifyPassed {
			b.Fatalf("%+v %v", res, err)
		}
	}
	bare()
	gate()
	var bareTotal, gateTotal time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		bare()
		t1 := time.Now()
		gate()
		bareTotal += t1.Sub(t0)
		gateTotal += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(bareTotal.Microseconds())/1000/n, "bare-ms/op")
	b.ReportMetric(float64(gateTotal.Microseconds())/1000/n, "gate-ms/op")
	b.ReportMetric(float64((gateTotal-bareTotal).Microseconds())/1000/n, "overhead-ms/op")
}
