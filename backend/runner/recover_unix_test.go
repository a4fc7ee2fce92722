//go:build unix

package runner_test

import (
	"context"
	"os/exec"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestRecoverStopsSurvivorsAndTasks(t *testing.T) {
	r := newRoot(t, nil)
	ctx := context.Background()
	tk := r.add("Crashed.", 1)
	ex, err := r.st.Claim(ctx, tk.ID, store.ClaimInfo{Runner: "dead", Role: task.RolePlanner, Tool: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	// A survivor in its own process group, with a child, as an agent would be.
	sv := exec.Command("sh", "-c", "sleep 1000 & sleep 1000")
	sv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sv.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = sv.Wait(); close(waited) }()
	if err := r.st.SetExecutionProcess(ctx, ex.ID, sv.Process.Pid, sv.Process.Pid, []int{sv.Process.Pid}, proc.StartTimes(sv.Process.Pid)); err != nil {
		t.Fatal(err)
	}
	run := runner.New(runner.Options{Store: r.st, Pipeline: nil, Settings: nil, Grace: 200e6})
	rec, err := run.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	<-waited
	if rec.Executions != 1 || len(rec.Tasks) != 1 || rec.Survivors < 1 {
		t.Fatalf("recovery %+v", rec)
	}
	if left := groupAlive(sv.Process.Pid); len(left) > 0 {
		t.Fatalf("group survivors: %v", left)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusStopped || got.Error != pipeline.InterruptedMessage {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	evs, _ := r.st.Events(ctx, tk.ID, got.CreatedAt.Add(-1))
	var recovered, stepStopped bool
	for _, e := range evs {
		switch d := e.Data.(type) {
		case task.Recovered:
			recovered = d.Reason == pipeline.InterruptedMessage && !d.At.IsZero()
		case task.StepFinished:
			stepStopped = d.Outcome == task.OutcomeStopped && d.ExitCode == -1
		}
	}
	if !recovered || !stepStopped {
		t.Fatalf("recovery events: recovered %v, step finished as stopped %v; events %+v", recovered, stepStopped, evs)
	}
	if xs, _ := r.st.OpenExecutions(ctx); len(xs) != 0 {
		t.Fatal("execution left open")
	}
}
