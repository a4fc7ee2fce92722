//go:build slow

package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestKillNineMidStepThenRestart(t *testing.T) {
	r := newRoot(t, nil)
	tk := r.add("Hang in the developer.\n[[mock-stall developer=1]]", 1)
	cmd, out := r.spawn()
	var x = waitExec(t, r, tk.ID, task.RoleDeveloper)
	if !alive(x.PID) {
		t.Fatal("agent not running")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !alive(x.PID) {
		t.Log("agent died with the runner (no survivor to reconcile)")
	}
	if got := r.get(tk.ID); got.Status != task.StatusOngoing {
		t.Fatalf("after kill -9 the task is %s\n%s", got.Status, out)
	}
	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 {
		t.Fatalf("restart exit %d: %s", res.code, res.stderr)
	}
	waitFor(t, "agent gone", func() bool { return !alive(x.PID) })
	got := r.get(tk.ID)
	if got.Status != task.StatusStopped || got.Error != pipeline.InterruptedMessage {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	if _, err := os.Stat(filepath.Join(r.repo, ".boof-runner-worktrees", tk.ID)); err != nil {
		t.Fatalf("worktree not kept: %v", err)
	}
	if !strings.Contains(r.logText(tk.ID), "Recovery: closed the developer step") {
		t.Fatalf("log:\n%s", r.logText(tk.ID))
	}
	// Retry resumes from the kept worktree and finishes.
	if _, err := r.st.Retry(context.Background(), tk.ID); err != nil {
		t.Fatal(err)
	}
	if res := r.cli(context.Background(), "runner", "--once"); res.code != 0 {
		t.Fatalf("retry run: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone {
		t.Fatalf("after retry %s %q", got.Status, got.Error)
	}
}

func TestUntilIdleRunsQueueWithConcurrency(t *testing.T) {
	r := newRoot(t, map[string]any{"runner": map[string]any{"concurrency": 2}})
	a := r.add("Task A.", 1)
	b := r.add("Task B.\n[[mock-verdicts reviewer=REJECT]]", 1)
	c := r.add("Task C.", 2)
	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 {
		t.Fatalf("runner exit %d: %s", res.code, res.stderr)
	}
	if got := r.get(a.ID); got.Status != task.StatusDone {
		t.Errorf("A %s %q\n%s", got.Status, got.Error, r.logText(a.ID))
	}
	if got := r.get(b.ID); got.Status != task.StatusFailed || got.Error != "review not approved: reviewer REJECT" {
		t.Errorf("B %s %q", got.Status, got.Error)
	}
	if got := r.get(c.ID); got.Status != task.StatusDone || got.CompletedRuns != 2 {
		t.Errorf("C %s runs %d", got.Status, got.CompletedRuns)
	}
	if !strings.Contains(res.stdout, "Reviewer verdict (round 1): APPROVE") {
		t.Errorf("live log not printed:\n%s", res.stdout)
	}
	if xs, _ := r.st.OpenExecutions(context.Background()); len(xs) != 0 {
		t.Fatalf("open executions left: %d", len(xs))
	}
}
