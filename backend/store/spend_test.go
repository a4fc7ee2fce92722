package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// A running step's usage events are recorded with its execution, its task's
// totals and the spend in one transaction each; the step's end adds only
// what is new; recovery closing the step with no usage keeps what it spent.
func TestRecordUsageAndSpend(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	ex, err := s.StartExecution(ctx, task.Execution{TaskID: tk.ID, Role: task.RoleDeveloper, Tool: "codex"})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	steps := []struct {
		u          task.Usage
		estimated  bool
		wantTokens int64
		wantCost   float64
	}{
		{task.Usage{TokensIn: 1000, TokensOut: 10, CacheRead: 5000, CostUSD: 0.5}, true, 1010, 0.5},
		{task.Usage{TokensIn: 3000, TokensOut: 10, CacheRead: 9000, CacheWrite: 100, CostUSD: 1.25}, true, 2100, 0.75},
		// A report below what was recorded (tokens) changes nothing.
		{task.Usage{TokensIn: 2000, TokensOut: 10, CostUSD: 1.0}, true, 0, 0},
		// The tool's own cost replaces the estimate, even below it.
		{task.Usage{TokensIn: 3000, TokensOut: 40, CacheRead: 9000, CacheWrite: 100, CostUSD: 1.0}, false, 30, -0.25},
	}
	for i, st := range steps {
		sp, err := s.RecordUsage(ctx, ex.ID, st.u, st.estimated, day.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if sp.Tokens != st.wantTokens || !near(sp.CostUSD, st.wantCost) || sp.Tool != "codex" || sp.TaskID != tk.ID {
			t.Fatalf("event %d: spend %+v, want %d tokens $%v", i, sp, st.wantTokens, st.wantCost)
		}
	}
	got, _ := s.GetTask(ctx, tk.ID)
	if got.Usage.TokensIn != 3000 || got.Usage.TokensOut != 40 || got.Usage.CacheRead != 9000 || !near(got.Usage.CostUSD, 1.0) {
		t.Fatalf("task totals %+v", got.Usage)
	}
	// Recovery closes the step with nothing: the spend stays.
	if err := s.FinishExecution(ctx, ex.ID, task.OutcomeStopped, -1, task.Usage{}, false); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTask(ctx, tk.ID)
	exs, _ := s.Executions(ctx, tk.ID)
	if got.Usage.TokensIn != 3000 || !near(got.Usage.CostUSD, 1.0) || exs[0].Usage.TokensIn != 3000 || exs[0].CostEstimated {
		t.Fatalf("after finish: task %+v exec %+v", got.Usage, exs[0])
	}
	if _, err := s.RecordUsage(ctx, ex.ID, task.Usage{TokensIn: 1}, true, day); !errors.Is(err, ErrExecutionClosed) {
		t.Fatalf("usage after the end: %v", err)
	}
	if _, err := s.RecordUsage(ctx, ex.ID, task.Usage{TokensIn: -1}, true, day); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("negative usage: %v", err)
	}
	byTool, err := s.SpendByTool(ctx, day, day.Add(time.Hour))
	if err != nil || len(byTool) != 1 || byTool[0].Tokens != 3140 || !near(byTool[0].CostUSD, 1.0) {
		t.Fatalf("spend by tool %+v %v", byTool, err)
	}
	if none, _ := s.SpendByTool(ctx, day.Add(time.Hour), day.Add(2*time.Hour)); len(none) != 0 {
		t.Fatalf("spend outside the range %+v", none)
	}
	if last, _ := s.LastSpendAt(ctx); !last.Equal(day.Add(3 * time.Minute)) {
		t.Fatalf("last spend at %v", last)
	}
	// Spend outlives its task: deleting it does not give the budget back.
	if _, err := s.Transition(ctx, tk.ID, task.StatusDraft, TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTask(ctx, tk.ID); err != nil {
		t.Fatal(err)
	}
	if byTool, _ := s.SpendByTool(ctx, day, day.Add(time.Hour)); len(byTool) != 1 || byTool[0].Tokens != 3140 {
		t.Fatalf("spend after delete %+v", byTool)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

// The tasks a budget stopped are found by the reason of their stop; a task
// retried and stopped by the user afterwards is not one of them.
func TestStoppedByAndNextPendingExcept(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	stop := func(reason string) task.Task {
		tk := mustCreate(t, s, task.NewTask{})
		if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RolePlanner, Attempt: 1, Iteration: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Transition(ctx, tk.ID, task.StatusStopped, TransitionNote{Reason: reason, Error: "x"}); err != nil {
			t.Fatal(err)
		}
		return tk
	}
	a := stop("budget:daily")
	b := stop("stopped by user")
	c := stop("budget:tools.codex.task")
	if _, err := s.Retry(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim(ctx, c.ID, ClaimInfo{Role: task.RolePlanner, Attempt: 1, Iteration: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Transition(ctx, c.ID, task.StatusStopped, TransitionNote{Reason: "stopped by user"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.StoppedBy(ctx, ReasonBudgetPrefix)
	if err != nil || len(got) != 1 || got[0].Task.ID != a.ID || got[0].Reason != "budget:daily" {
		t.Fatalf("stopped by a budget: %+v %v (b %s)", got, err, b.ID)
	}
	p1 := mustCreate(t, s, task.NewTask{Priority: 5})
	p2 := mustCreate(t, s, task.NewTask{Priority: 1})
	if n, err := s.NextPending(ctx, p1.ID); err != nil || n.ID != p2.ID {
		t.Fatalf("next except %s: %s %v", p1.ID, n.ID, err)
	}
	if _, err := s.NextPending(ctx, p1.ID, p2.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("all held: %v", err)
	}
}
