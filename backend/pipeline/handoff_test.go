package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The secret the tests put in a task's prompt: a handoff never carries it.
const handoffSecret = "ghp_q8Xk2LmN7pR4sT9vW1yZ3bC6dF0hJ5gK"

// switchEnv is newEnv with a second mock tool, "mock-b", sharing the
// mock's run counters (so the run after a limit is the mock's next), as
// the tool "mock" switches to; installed says whether mock-b counts as
// installed.
func switchEnv(t *testing.T, installed bool, mut func(*settings.Settings)) (*env, *recTool) {
	t.Helper()
	e := newEnv(t, mut)
	state := t.TempDir()
	e.rec = sharedMock(mock.Name, state)
	alt := sharedMock("mock-b", state)
	e.opts.Tools = agent.NewRegistry(e.rec, alt)
	e.opts.Switch = func(tool string) []SwitchCandidate {
		if tool == mock.Name {
			return []SwitchCandidate{{Tool: "mock-b", Installed: installed}}
		}
		return nil
	}
	e.p = New(e.opts)
	return e, alt
}

// sharedMock is a mock tool named name whose run counters are in state,
// shared by every mock made with the same state.
func sharedMock(name, state string) *recTool {
	return &recTool{Tool: mock.New(mock.Options{Name: name, Command: []string{os.Args[0]},
		Env: []string{agentEnv + "=1", "GORACE=atexit_sleep_ms=0"}, Runner: testRunner, StateDir: state})}
}

// eventsOf returns the payloads of kind the run emitted.
func eventsOf[T task.EventData](e *env) []T {
	var out []T
	for _, h := range e.hookEvents() {
		if d, ok := h.ev.Data.(T); ok {
			out = append(out, d)
		}
	}
	return out
}

// A usage limit in the developer step of a task that switches tools: the
// limited tool is paused, a scrubbed handoff file is written outside the
// worktree, and the developer step goes on on the other tool in a fresh
// session whose prompt carries the handoff (the task, the plan, the
// reports so far, the files changed and the cut step's last output); the
// remaining steps run on the other tool too and the task is done.
func TestUsageLimitSwitchesToTheOtherToolWithAHandoff(t *testing.T) {
	e, alt := switchEnv(t, true, func(s *settings.Settings) { s.Limits.OnLimit = task.OnLimitSwitch })
	tk := e.addTask("Switch work with "+handoffSecret+".\n[[mock-limit developer=1]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if n := len(e.rec.prompts(task.RoleDeveloper)); n != 1 {
		t.Fatalf("mock developer ran %d times", n)
	}
	devB := alt.prompts(task.RoleDeveloper)
	if len(devB) != 1 {
		t.Fatalf("mock-b developer ran %d times", len(devB))
	}
	wt := e.get(tk.ID)
	mustContain(t, devB[0], HeadingHandoff, "mock reached its usage limit", "From: mock", "To: mock-b",
		"## What the task is", "Switch work with", "## The plan", "### planner_report", "### final_plan",
		"## Files changed on the branch", mock.FileName(wt.WorktreePath), "You've hit your usage limit (mock)")
	if _, h, _ := strings.Cut(devB[0], HeadingHandoff); strings.Contains(h, handoffSecret) || !strings.Contains(h, "[REDACTED]") {
		t.Errorf("the handoff is not scrubbed:\n%s", h)
	}
	for _, q := range alt.reqs {
		if q.ResumeSession != "" {
			t.Errorf("mock-b resumed session %q: a switch starts fresh", q.ResumeSession)
		}
	}
	if n, m := len(e.rec.prompts(task.RoleReviewer)), len(alt.prompts(task.RoleReviewer)); n != 0 || m != 1 {
		t.Errorf("reviewer ran %d times on mock and %d on mock-b: the remaining steps go on on mock-b", n, m)
	}
	pauses, err := e.st.ToolPauses(context.Background(), time.Now())
	if err != nil || len(pauses) != 1 || pauses[0].Tool != mock.Name {
		t.Fatalf("pauses %+v %v", pauses, err)
	}
	lims := eventsOf[task.LimitReached](e)
	if len(lims) != 1 || lims[0].Action != task.LimitActionSwitch || lims[0].SwitchTo != "mock-b" || lims[0].Handoff == "" {
		t.Fatalf("limit events %+v", lims)
	}
	b, err := os.ReadFile(lims[0].Handoff)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(devB[0], strings.TrimSpace(string(b))) || strings.Contains(string(b), handoffSecret) || !strings.Contains(string(b), "[REDACTED]") {
		t.Errorf("handoff file:\n%s", b)
	}
	if strings.HasPrefix(lims[0].Handoff, wt.WorktreePath) {
		t.Errorf("the handoff %s is inside the worktree", lims[0].Handoff)
	}
	mustContain(t, e.logText(tk.ID), "mock hit its usage limit; continuing on mock-b with a handoff")
}

// A task that would switch waits for the reset instead, saying why, when
// the other tool is not installed or is paused too.
func TestUsageLimitSwitchFallsBackToWait(t *testing.T) {
	for _, tc := range []struct {
		name      string
		installed bool
		pauseB    bool
		why       string
	}{
		{"not installed", false, false, "mock-b is not installed"},
		{"paused too", true, true, "mock-b is paused too (mock-b paused until"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, alt := switchEnv(t, tc.installed, nil)
			if tc.pauseB {
				if _, err := e.st.PauseTool(context.Background(), task.ToolPause{Tool: "mock-b", Until: time.Now().Add(2 * time.Hour)}); err != nil {
					t.Fatal(err)
				}
			}
			tk, err := e.st.CreateTask(context.Background(), task.NewTask{Prompt: "Wait work.\n[[mock-limit developer=1]]", Runs: 1,
				OnLimit: task.OnLimitSwitch})
			if err != nil {
				t.Fatal(err)
			}
			res := e.claimRun(context.Background(), tk.ID)
			if res.Status != task.StatusPending {
				t.Fatalf("status %s (%s)", res.Status, res.Message)
			}
			if len(alt.reqs) != 0 {
				t.Errorf("mock-b ran %d steps", len(alt.reqs))
			}
			mustContain(t, e.logText(tk.ID), "would switch tools after the usage limit of mock, but "+tc.why, "waits for the reset instead")
			lims := eventsOf[task.LimitReached](e)
			if len(lims) != 1 || lims[0].Action != task.LimitActionWait {
				t.Fatalf("limit events %+v", lims)
			}
		})
	}
}

// A step whose tool runs out of turns (its own signal) rotates to a fresh
// session that starts from a handoff; session_rotated says so, the
// execution is recorded as rotated, and the task is done.
func TestOutOfTurnsRotatesTheSessionWithAHandoff(t *testing.T) {
	e := newEnv(t, nil)
	tk := e.addTask("Long work.\n[[mock-turns developer=1]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	dev := e.rec.prompts(task.RoleDeveloper)
	if len(dev) != 2 {
		t.Fatalf("developer ran %d times", len(dev))
	}
	if strings.Contains(dev[0], HeadingHandoff) {
		t.Error("the first session got a handoff")
	}
	mustContain(t, dev[1], HeadingHandoff, "the mock session ran out of turns (3 turns", "From: mock",
		"worked 3 turns before running out", mock.TurnsError)
	rots := eventsOf[task.SessionRotated](e)
	if len(rots) != 1 || rots[0].Reason != task.RotateTurns || rots[0].Rotation != 1 || rots[0].MaxRotations != settings.DefaultMaxRotations ||
		rots[0].FromSession == "" || rots[0].Handoff == "" || rots[0].Step != "developer" {
		t.Fatalf("rotations %+v", rots)
	}
	if _, err := os.Stat(rots[0].Handoff); err != nil || filepath.Dir(filepath.Dir(rots[0].Handoff)) != e.opts.TranscriptDir {
		t.Errorf("handoff file %s: %v", rots[0].Handoff, err)
	}
	var outcomes []string
	for _, x := range e.execs(tk.ID) {
		if x.Role == task.RoleDeveloper {
			outcomes = append(outcomes, string(x.Outcome))
		}
	}
	if strings.Join(outcomes, ",") != "rotated,succeeded" {
		t.Errorf("developer outcomes %v", outcomes)
	}
	mustContain(t, e.logText(tk.ID), "the mock session ran out of turns; rotating to a fresh session with a handoff (rotation 1 of 3)")
}

// A step whose context estimate passes settings.sessions.rotateContextPercent
// of the tool's window is stopped mid-step and rotated.
func TestContextEstimateRotatesMidStep(t *testing.T) {
	e := newEnv(t, nil)
	e.opts.ContextWindow = func(string) int64 { return 200_000 }
	e.p = New(e.opts)
	tk := e.addTask("Big context.\n[[mock-context developer=1]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)", res.Status, res.Message)
	}
	dev := e.rec.prompts(task.RoleDeveloper)
	if len(dev) != 2 {
		t.Fatalf("developer ran %d times", len(dev))
	}
	mustContain(t, dev[1], HeadingHandoff, "ran out of context window", "context estimate 190000 tokens", "Mock developer starting")
	rots := eventsOf[task.SessionRotated](e)
	if len(rots) != 1 || rots[0].Reason != task.RotateContext {
		t.Fatalf("rotations %+v", rots)
	}
}

// A step rotates at most sessions.maxRotations times; then it fails as
// the tool ended it.
func TestRotationsAreCapped(t *testing.T) {
	e := newEnv(t, func(s *settings.Settings) { s.Sessions.MaxRotations = 1 })
	tk := e.addTask("Endless work.\n[[mock-turns developer=2]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusFailed || !strings.Contains(res.Message, mock.TurnsError) {
		t.Fatalf("status %s (%s)", res.Status, res.Message)
	}
	if n := len(eventsOf[task.SessionRotated](e)); n != 1 {
		t.Errorf("%d rotations", n)
	}
	if n := len(e.rec.prompts(task.RoleDeveloper)); n != 2 {
		t.Errorf("developer ran %d times", n)
	}
}

func (e *env) execs(id string) []task.Execution {
	e.t.Helper()
	xs, err := e.st.Executions(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return xs
}

// A step that passes settings.sessions.rotateAfterTurns tool calls is
// stopped there and rotated, before the tool ends it itself.
func TestTurnThresholdRotatesMidStep(t *testing.T) {
	e := newEnv(t, func(s *settings.Settings) { s.Sessions.RotateAfterTurns = 3 })
	tk := e.addTask("Many calls.\n[[mock-turns developer=1]]\n[[mock-delay developer=300]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)", res.Status, res.Message)
	}
	dev := e.rec.prompts(task.RoleDeveloper)
	if len(dev) != 2 {
		t.Fatalf("developer ran %d times", len(dev))
	}
	mustContain(t, dev[1], HeadingHandoff, "the mock session ran out of turns (3 turns", "→ read")
	if strings.Contains(dev[1], "worked 3 turns before running out") || strings.Contains(dev[1], mock.TurnsError) {
		t.Errorf("the step was not stopped at the threshold:\n%s", dev[1])
	}
	if rots := eventsOf[task.SessionRotated](e); len(rots) != 1 || rots[0].Reason != task.RotateTurns {
		t.Fatalf("rotations %+v", rots)
	}
}

// A task that switches tools and meets its tool already paused runs its
// steps on the other tool from the start (nothing to hand off).
func TestPausedToolSwitchesBeforeTheStep(t *testing.T) {
	e, alt := switchEnv(t, true, nil)
	if _, err := e.st.PauseTool(context.Background(), task.ToolPause{Tool: mock.Name, Until: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	tk, err := e.st.CreateTask(context.Background(), task.NewTask{Prompt: "Paused from the start.", Runs: 1, OnLimit: task.OnLimitSwitch})
	if err != nil {
		t.Fatal(err)
	}
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if len(e.rec.reqs) != 0 || len(alt.prompts(task.RolePlanner)) != 1 || len(alt.prompts(task.RoleReviewer)) != 1 {
		t.Fatalf("mock ran %d steps; mock-b planner %d reviewer %d", len(e.rec.reqs), len(alt.prompts(task.RolePlanner)), len(alt.prompts(task.RoleReviewer)))
	}
	mustContain(t, e.logText(tk.ID), "the task switches tools, so step planner runs on mock-b")
}
