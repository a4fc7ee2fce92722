package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/task"
)

// orderEnv is switchEnv with two tools after the mock, in this order:
// mock-b, then mock-c (installedC says whether mock-c counts as
// installed); the three share their run counters.
func orderEnv(t *testing.T, installedC bool) (*env, *recTool, *recTool) {
	t.Helper()
	e := newEnv(t, nil)
	state := t.TempDir()
	e.rec = sharedMock(mock.Name, state)
	b, c := sharedMock("mock-b", state), sharedMock("mock-c", state)
	e.opts.Tools = agent.NewRegistry(e.rec, b, c)
	e.opts.Switch = func(tool string) []SwitchCandidate {
		if tool == mock.Name {
			return []SwitchCandidate{{Tool: "mock-b", Installed: true}, {Tool: "mock-c", Installed: installedC}}
		}
		return nil
	}
	e.p = New(e.opts)
	return e, b, c
}

// With mock-b paused, a usage limit of the mock hands the step to the
// next tool of the order, mock-c; with mock-c not installed either, the
// task waits and the log says why for each of them.
func TestUsageLimitSwitchTakesTheNextToolInOrder(t *testing.T) {
	for _, tc := range []struct {
		name       string
		installedC bool
	}{{"next is free", true}, {"none is free", false}} {
		t.Run(tc.name, func(t *testing.T) {
			e, b, c := orderEnv(t, tc.installedC)
			if _, err := e.st.PauseTool(context.Background(), task.ToolPause{Tool: "mock-b", Until: time.Now().Add(2 * time.Hour)}); err != nil {
				t.Fatal(err)
			}
			tk, err := e.st.CreateTask(context.Background(), task.NewTask{Prompt: "Order work.\n[[mock-limit developer=1]]", Runs: 1,
				OnLimit: task.OnLimitSwitch})
			if err != nil {
				t.Fatal(err)
			}
			res := e.claimRun(context.Background(), tk.ID)
			if len(b.reqs) != 0 {
				t.Errorf("the paused mock-b ran %d steps", len(b.reqs))
			}
			if !tc.installedC {
				if res.Status != task.StatusPending || len(c.reqs) != 0 {
					t.Fatalf("status %s, mock-c ran %d steps", res.Status, len(c.reqs))
				}
				mustContain(t, e.logText(tk.ID), "but mock-b is paused too (mock-b paused until", "; mock-c is not installed")
				return
			}
			if res.Status != task.StatusDone {
				t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
			}
			if devC := c.prompts(task.RoleDeveloper); len(devC) != 1 {
				t.Fatalf("mock-c developer ran %d times", len(devC))
			} else {
				mustContain(t, devC[0], HeadingHandoff, "mock reached its usage limit", "To: mock-c")
			}
			lims := eventsOf[task.LimitReached](e)
			if len(lims) != 1 || lims[0].SwitchTo != "mock-c" {
				t.Fatalf("limit events %+v", lims)
			}
			mustContain(t, e.logText(tk.ID), "mock hit its usage limit; continuing on mock-c with a handoff")
		})
	}
}
