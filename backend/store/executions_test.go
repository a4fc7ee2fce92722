package store

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestExecutionLifecycleAndUsage(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	first, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RolePlanner, Tool: "claude", Model: "claude-sonnet-4-5", TranscriptPath: "/t/1.log"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetExecutionProcess(ctx, first.ID, 100, 100, []int{101, 102}, map[int]uint64{100: 7, 101: 8}); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenExecutions(ctx)
	if err != nil || len(open) != 1 || open[0].PID != 100 || len(open[0].PIDs) != 2 || open[0].TranscriptPath != "/t/1.log" {
		t.Fatalf("open = %+v, %v", open, err)
	}
	if st := open[0].Starts; len(st) != 2 || st[100] != 7 || st[101] != 8 {
		t.Fatalf("start times = %v", st)
	}
	// A cost the pipeline estimated from the tool's price table is recorded as estimated.
	if err := s.FinishExecution(ctx, first.ID, task.OutcomeSucceeded, 0, task.Usage{TokensIn: 1_000_000, TokensOut: 100_000, CostUSD: 4.5}, true); err != nil {
		t.Fatal(err)
	}
	second, err := s.StartExecution(ctx, task.Execution{TaskID: tk.ID, Role: task.RoleDeveloper, Attempt: 2, Tool: "codex", Model: "gpt-5"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishExecution(ctx, second.ID, task.OutcomeTransient, 1, task.Usage{TokensIn: 10, TokensOut: 5, CostUSD: 0.25}, false); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishExecution(ctx, second.ID, task.OutcomeFailed, 1, task.Usage{}, false); !errors.Is(err, ErrExecutionClosed) {
		t.Fatalf("finish twice: %v", err)
	}
	if err := s.FinishExecution(ctx, 9999, task.OutcomeFailed, 1, task.Usage{}, false); !errors.Is(err, ErrNotFound) {
		t.Fatalf("finish missing: %v", err)
	}
	if err := s.FinishExecution(ctx, second.ID, "exploded", 1, task.Usage{}, false); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("bad outcome: %v", err)
	}
	if err := s.SetExecutionProcess(ctx, second.ID, 1, 1, nil, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("set process on closed execution: %v", err)
	}
	if open, _ := s.OpenExecutions(ctx); len(open) != 0 {
		t.Fatalf("still open: %+v", open)
	}
	ex, _ := s.Executions(ctx, tk.ID)
	if len(ex) != 2 || !ex[0].CostEstimated || math.Abs(ex[0].Usage.CostUSD-4.5) > 1e-9 || ex[1].CostEstimated || *ex[1].ExitCode != 1 || ex[1].Outcome != task.OutcomeTransient {
		t.Fatalf("executions = %+v", ex)
	}
	got, _ := s.GetTask(ctx, tk.ID)
	if got.Usage.TokensIn != 1_000_010 || got.Usage.TokensOut != 100_005 || math.Abs(got.Usage.CostUSD-4.75) > 1e-9 {
		t.Fatalf("task usage = %+v", got.Usage)
	}
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	byTool, err := s.UsageByTool(ctx, from, to)
	if err != nil || len(byTool) != 2 || byTool[0].Key != "claude" || byTool[1].Key != "codex" || byTool[1].TokensOut != 5 {
		t.Fatalf("by tool = %+v %v", byTool, err)
	}
	byDay, _ := s.UsageByDay(ctx, from, to)
	if len(byDay) != 1 || byDay[0].Key != "2026-01-01" || byDay[0].Executions != 2 {
		t.Fatalf("by day = %+v", byDay)
	}
	byModel, _ := s.UsageByModel(ctx, from, to)
	byTask, _ := s.UsageByTask(ctx, from, to)
	if len(byModel) != 2 || len(byTask) != 1 || byTask[0].Key != tk.ID {
		t.Fatalf("by model %+v by task %+v", byModel, byTask)
	}
	// Per role, in pipeline order (not by name): the planner before the developer; a
	// reviewer step still running counts for the task, not for the range.
	if _, err := s.StartExecution(ctx, task.Execution{TaskID: tk.ID, Role: task.RoleReviewer, Attempt: 1, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	byRole, _ := s.UsageByRole(ctx, from, to)
	if len(byRole) != 2 || byRole[0].Key != "planner" || byRole[1].Key != "developer" || byRole[1].TokensIn != 10 || byRole[0].TokensIn != 1_000_000 {
		t.Fatalf("by role = %+v", byRole)
	}
	taskRoles, err := s.TaskUsageByRole(ctx, tk.ID)
	if err != nil || len(taskRoles) != 3 || taskRoles[0].Key != "planner" || taskRoles[1].Key != "developer" || taskRoles[2].Key != "reviewer" ||
		math.Abs(taskRoles[0].CostUSD-4.5) > 1e-9 || taskRoles[2].Executions != 1 {
		t.Fatalf("task usage by role = %+v %v", taskRoles, err)
	}
	if empty, _ := s.UsageByTask(ctx, to, to.Add(time.Hour)); len(empty) != 0 {
		t.Fatalf("out of range: %+v", empty)
	}
}
