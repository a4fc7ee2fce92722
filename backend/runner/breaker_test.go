package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Each circuit breaker trips from the mock's typed events through the real
// queue: the developer step is stopped before it finishes its work, the
// task is stopped with circuit_broken:<reason> and the evidence in its
// event, its worktree is kept, and it is retryable.
func TestBreakersTripThroughQueue(t *testing.T) {
	cases := []struct {
		name     string
		breakers map[string]any
		markers  string
		check    func(t *testing.T, c task.CircuitBroken)
		reason   string
	}{
		{"repeat failure", nil, "[[mock-failcall developer=10]]\n[[mock-delay developer=100]]", func(t *testing.T, c task.CircuitBroken) {
			if c.Breaker != task.BreakerRepeatFailure || c.Count != 3 || c.Tool != "bash" || c.Input != mock.FailCallCommand || c.Error != mock.FailCallError {
				t.Fatalf("evidence %+v", c)
			}
		}, `circuit_broken:repeat_failure: bash "npm test" failed 3 times in a row with the same error`},
		{"no progress", nil, "[[mock-loop developer=20]]\n[[mock-delay developer=100]]", func(t *testing.T, c task.CircuitBroken) {
			if c.Breaker != task.BreakerNoProgress || c.Count != 12 || c.Tool != "read" || c.Input != mock.LoopFile {
				t.Fatalf("evidence %+v", c)
			}
		}, "circuit_broken:no_progress: 12 tool results in a row changed no file and gave no new output"},
		{"tool calls", map[string]any{"toolCalls": 5}, "[[mock-loop developer=20]]\n[[mock-delay developer=100]]", func(t *testing.T, c task.CircuitBroken) {
			if c.Breaker != task.BreakerToolCalls || c.Count != 5 || c.Limit != 5 {
				t.Fatalf("evidence %+v", c)
			}
		}, "circuit_broken:tool_calls: 5 tool calls in one step (limit 5)"},
		{"token velocity", map[string]any{"tokensPerMinute": 100000, "velocityWindowMs": 1000},
			"[[mock-usage developer=2000000]]\n[[mock-delay developer=300]]", func(t *testing.T, c task.CircuitBroken) {
				if c.Breaker != task.BreakerTokenVelocity || c.Limit != 100000 || c.Count <= 100000 || c.WindowMs < 1000 || c.Tokens == 0 {
					t.Fatalf("evidence %+v", c)
				}
			}, "circuit_broken:token_velocity: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			extra := map[string]any{}
			if tc.breakers != nil {
				extra["breakers"] = tc.breakers
			}
			r := newRoot(t, extra)
			ctx := context.Background()
			tk := r.add("Loop.\n"+tc.markers, 1)
			if res := r.cli(ctx, "runner", "--until-idle"); res.code != 0 {
				t.Fatalf("runner: %+v", res)
			}
			got := r.get(tk.ID)
			if got.Status != task.StatusStopped || !strings.HasPrefix(got.Error, tc.reason) {
				t.Fatalf("task %s %q, want stopped with %q", got.Status, got.Error, tc.reason)
			}
			evs := r.events(tk.ID, task.EventCircuitBroken)
			if len(evs) != 1 {
				t.Fatalf("circuit_broken events: %d", len(evs))
			}
			c := evs[0].Data.(task.CircuitBroken)
			if c.Step != "developer" || c.Reason != got.Error {
				t.Fatalf("event %+v", c)
			}
			tc.check(t, c)
			if strings.Contains(r.logText(tk.ID), "Mock developer finished.") {
				t.Fatal("the developer ran to its end")
			}
			if got.WorktreePath == "" {
				t.Fatal("worktree not kept")
			}
			if res := r.cli(ctx, "retry", tk.ID); res.code != 0 {
				t.Fatalf("retry: %+v", res)
			}
		})
	}
}

// A budget cap and a breaker reached on the same usage event: the budget
// wins, and the step is torn down once.
func TestBudgetBeatsBreakerOnSameEvent(t *testing.T) {
	// The first usage report comes after two paced lines (1.2 s), past the
	// velocity window (1 s), and reaches the task cap at once.
	r := newRoot(t, map[string]any{
		"budgets":  map[string]any{"task": map[string]any{"tokens": 200000, "mode": "cap"}},
		"breakers": map[string]any{"tokensPerMinute": 100000, "velocityWindowMs": 1000},
	})
	ctx := context.Background()
	tk := r.add("Both.\n[[mock-usage developer=2000000]]\n[[mock-delay developer=600]]", 1)
	if res := r.cli(ctx, "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("runner: %+v", res)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusStopped || got.Error != "budget: task cap 200,000 tokens reached" {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	if n := len(r.events(tk.ID, task.EventCircuitBroken)); n != 0 {
		t.Fatalf("%d breaker trips beside the budget", n)
	}
	if n := len(r.events(tk.ID, task.EventBudgetStopped)); n != 1 {
		t.Fatalf("%d budget stops", n)
	}
	if n := strings.Count(r.logText(tk.ID), "stopping developer"); n != 1 {
		t.Fatalf("%d teardowns:\n%s", n, r.logText(tk.ID))
	}
}
