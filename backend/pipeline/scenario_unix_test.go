//go:build unix

package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func TestStopMidDeveloper(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	tk := e.addTask("Hangs.\n[[mock-stall developer=1]]", 1)
	done := e.startRun(ctx, tk.ID)
	x := e.waitOpenExec(tk.ID, task.RoleDeveloper)
	if err := e.st.RequestStop(ctx, tk.ID); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Status != task.StatusStopped || res.Message != "stopped by user" {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	for _, pid := range append([]int{x.PID}, x.PIDs...) {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d survived the stop: %v", pid, err)
		}
	}
	got := e.get(tk.ID)
	if got.Status != task.StatusStopped || got.Error != "stopped by user" || got.WorktreePath == "" {
		t.Fatalf("task %+v", got)
	}
	if _, err := os.Stat(filepath.Join(e.repo, worktree.DefaultRootName, tk.ID)); err != nil {
		t.Fatalf("stopped task lost its worktree: %v", err)
	}
	if !e.branchExists(worktree.BranchName(tk.ID)) {
		t.Fatal("stopped task lost its branch")
	}
	if len(e.openExecutions()) != 0 {
		t.Fatal("execution left open after stop")
	}
	mustContain(t, e.logText(tk.ID), "Stop requested: stopping developer", "Stopped by user; worktree and branch kept")
}

func TestAppExitMidStepRecordsInterrupted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tk := e.addTask("Hangs.\n[[mock-stall developer=1]]", 1)
	done := e.startRun(ctx, tk.ID)
	x := e.waitOpenExec(tk.ID, task.RoleDeveloper)
	cancel()
	res := <-done
	if res.Status != task.StatusStopped || res.Message != InterruptedMessage {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	if err := syscall.Kill(x.PID, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("agent survived the app exit: %v", err)
	}
	if got := e.get(tk.ID); got.Status != task.StatusStopped || got.Error != InterruptedMessage {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	if len(e.openExecutions()) != 0 {
		t.Fatal("execution left open")
	}
}
