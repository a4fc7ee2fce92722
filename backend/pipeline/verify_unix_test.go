//go:build unix

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestVerifyStoppedMidRunLeavesNoSurvivors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Verify.Command = "sleep 300 & sleep 300; echo never" })
	e.p.o.Scope = fmt.Sprintf("vt%d", time.Now().UnixNano())
	ctx := context.Background()
	tk := e.addTask("Stop the check.", 1)
	done := e.startRun(ctx, tk.ID)
	x := e.waitOpenExec(tk.ID, task.RoleVerify)
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
	left, err := proc.FindTagged(proc.StepTag(e.p.o.Scope, proc.OwnerRun, tk.ID, "verify-1"))
	if err != nil || len(left) > 0 {
		t.Fatalf("tagged survivors %+v %v", left, err)
	}
	if len(e.openExecutions()) != 0 {
		t.Fatal("execution left open after stop")
	}
	mustContain(t, e.logText(tk.ID), "Stop requested: stopping verify-1")
}
