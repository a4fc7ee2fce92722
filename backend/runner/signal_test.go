package runner_test

import (
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestSignalMidStepExitCode: a headless runner that SIGINT or SIGTERM stops
// in the middle of a step records the task as interrupted and exits 130 or
// 143 (128 + the signal), never 0, so a script can tell it was stopped.
func TestSignalMidStepExitCode(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{
		{syscall.SIGINT, 130, "SIGINT"},
		{syscall.SIGTERM, 143, "SIGTERM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRoot(t, nil)
			tk := r.add("Hang.\n[[mock-stall developer=1]]", 1)
			cmd, out := r.spawn("--once")
			waitExec(t, r, tk.ID, task.RoleDeveloper)
			_ = cmd.Process.Signal(tc.sig)
			err := cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tc.code, out)
			}
			if !strings.Contains(out.String(), "boof-runner runner: stopped by "+tc.name+"\n") {
				t.Fatalf("no line saying what stopped it:\n%s", out)
			}
			if got := r.get(tk.ID); got.Status != task.StatusStopped || got.Error != pipeline.InterruptedMessage {
				t.Fatalf("task %s %q", got.Status, got.Error)
			}
		})
	}
}
