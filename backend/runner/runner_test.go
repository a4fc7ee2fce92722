package runner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestLockNamesHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runner.lock")
	l, err := runner.AcquireLock(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runner.AcquireLock(path)
	var le *runner.LockedError
	if !errors.As(err, &le) || !errors.Is(err, runner.ErrLocked) || le.PID != os.Getpid() ||
		!strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second acquire: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatal("second release:", err)
	}
	l2, err := runner.AcquireLock(path)
	if err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	l2.Release()
}

func TestPausedRunnerStartsNothing(t *testing.T) {
	r := newRoot(t, map[string]any{"runner": map[string]any{"enabled": false}})
	tk := r.add("Wait.", 1)
	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 || !strings.Contains(res.stderr, "paused") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if got := r.get(tk.ID); got.Status != task.StatusPending {
		t.Fatalf("paused runner ran the task: %s", got.Status)
	}
	if res := r.cli(context.Background(), "settings", "set", "runner.enabled", "true"); res.code != 0 {
		t.Fatalf("settings set: %+v", res)
	}
	if res := r.cli(context.Background(), "runner", "--once"); res.code != 0 {
		t.Fatalf("once: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone {
		t.Fatalf("after resume: %s %q", got.Status, got.Error)
	}
}

func waitExec(t *testing.T, r *root, id string, role task.Role) task.Execution {
	t.Helper()
	var x task.Execution
	waitFor(t, string(role)+" step", func() bool {
		var ok bool
		x, ok = r.openExec(id, role)
		return ok
	})
	return x
}

func TestTwoRunnersOneDataRoot(t *testing.T) {
	r := newRoot(t, nil)
	tk := r.add("Hang.\n[[mock-stall developer=1]]", 1)
	cmd, _ := r.spawn()
	x := waitExec(t, r, tk.ID, task.RoleDeveloper)
	lock := dataroot.Paths{Root: r.dir}.RunnerLock()
	if pid := runner.HolderPID(lock); pid != cmd.Process.Pid {
		t.Fatalf("lock holder %d, want %d", pid, cmd.Process.Pid)
	}
	res := r.cli(context.Background(), "runner", "--until-idle")
	want := "boof-runner: Another process (pid " + strconv.Itoa(cmd.Process.Pid) + ") is already running the queue of this data root; " +
		"you can still add and read tasks and send stop or inject controls.\n"
	if res.code != 1 || res.stderr != want {
		t.Fatalf("second runner: %+v", res)
	}
	// The second process can still add tasks, read and send controls.
	if res := r.cli(context.Background(), "add", "Another."); res.code != 0 {
		t.Fatalf("add while locked: %+v", res)
	}
	if res := r.cli(context.Background(), "inject", tk.ID, "Prefer small commits."); res.code != 0 || !strings.Contains(res.stdout, "delivered into the live session") {
		t.Fatalf("inject: %+v", res)
	}
	waitFor(t, "live delivery", func() bool {
		return strings.Contains(r.logText(tk.ID), "Injected prompt delivered live to developer")
	})
	if res := r.cli(context.Background(), "stop", tk.ID); res.code != 0 {
		t.Fatalf("stop: %+v", res)
	}
	waitFor(t, "task stopped", func() bool { return r.get(tk.ID).Status == task.StatusStopped })
	if got := r.get(tk.ID); got.Error != "stopped by user" {
		t.Fatalf("stopped with %q", got.Error)
	}
	waitFor(t, "agent gone", func() bool { return !alive(x.PID) })
	// The first runner goes on with the queue: the added task finishes.
	waitFor(t, "added task done", func() bool {
		ts, _ := r.st.ListTasks(context.Background(), store.Filter{Statuses: []task.Status{task.StatusDone}})
		return len(ts) == 1
	})
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 143 {
		t.Fatalf("runner exit after SIGTERM: %v, want 143", err)
	}
}
