//go:build realcli

package runner_test

import (
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/task"
)

// taskCap is a task budget of 50,000 tokens in cap mode.
var taskCap = map[string]any{"budgets": map[string]any{"task": map[string]any{"tokens": 50_000, "mode": "cap"}}}

// hugeDeveloper answers the developer's first turn with a tool call and
// 60,000 input tokens (within the models' context windows, so the CLIs do
// not compact); the planner and refinement cost little.
func hugeDeveloper(c modelCall) fakemodel.Reply {
	if c.role != task.RoleDeveloper {
		return planReply(c)
	}
	r := developerReply(c)
	if !c.toolResult {
		r.InputTokens, r.OutputTokens = 60_000, 40
	}
	return r
}

// The real claude reports the usage of each model reply while it runs: a
// reply of 60,000 tokens reaches the task cap and the developer
// step is stopped live, its tree ended (runPipeline checks that nothing
// survives), the task stopped with the budget's reason; no later step runs.
func TestRealCLIBudgetCapStopsClaudeLive(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, hugeDeveloper)
	roles := map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": claudeRole(), "reviewer": claudeRole()}
	p := runPipelineWith(t, roles, map[string]any{"claude-code": claudeSettings(t, bin, srv, nil)}, taskCap)
	if p.tk.Status != task.StatusStopped || p.tk.Error != "budget: task cap 50,000 tokens reached" {
		t.Fatalf("task %s %q\nlog:\n%s", p.tk.Status, p.tk.Error, p.r.logText(p.tk.ID))
	}
	devs := p.executions(t, task.RoleDeveloper)
	if len(devs) != 1 || devs[0].Outcome != task.OutcomeStopped || devs[0].Usage.TokensIn < 60_000 {
		t.Fatalf("developer executions %+v", devs)
	}
	if secs := p.sections(t, task.SectionDeveloperReport); len(secs) != 0 && strings.Contains(secs[0].Body, "Added greeting.txt") {
		t.Fatalf("the developer finished its work: %+v", secs)
	}
	if n := model.turnsOf(task.RoleReviewer); n != 0 {
		t.Fatalf("the reviewer ran %d turns after the cap", n)
	}
	// Stopped live: claude never sent the result of the tool call back.
	model.mu.Lock()
	for _, c := range model.calls {
		if c.role == task.RoleDeveloper && c.toolResult {
			t.Errorf("the developer went on after the reply that reached the cap: %v", model.calls)
		}
	}
	model.mu.Unlock()
	if !strings.Contains(p.r.logText(p.tk.ID), "Budget: task cap 50,000 tokens reached: stopping developer (work kept)") {
		t.Fatalf("log:\n%s", p.r.logText(p.tk.ID))
	}
}

// The real codex reports its usage when its turn completes: the cap is
// reached then, the task is stopped with the budget's reason before the
// reviewer starts.
func TestRealCLIBudgetCapStopsCodexAtTurnEnd(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CODEX_BIN", "codex")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, hugeDeveloper)
	codexRole := map[string]any{"tool": "codex", "model": "gpt-6.2-sol"}
	roles := map[string]any{"planner": codexRole, "refinement": codexRole, "developer": codexRole, "reviewer": codexRole}
	p := runPipelineWith(t, roles, map[string]any{"codex": codexSettings(t, bin, srv)}, taskCap)
	if p.tk.Status != task.StatusStopped || p.tk.Error != "budget: task cap 50,000 tokens reached" {
		t.Fatalf("task %s %q\nlog:\n%s", p.tk.Status, p.tk.Error, p.r.logText(p.tk.ID))
	}
	if devs := p.executions(t, task.RoleDeveloper); len(devs) != 1 || devs[0].Usage.TokensIn < 60_000 {
		t.Fatalf("developer executions %+v", devs)
	}
	if n := model.turnsOf(task.RoleReviewer); n != 0 {
		t.Fatalf("the reviewer ran %d turns after the cap", n)
	}
}

// The real claude running the same failing command again and again trips
// the repeat-failure breaker from its typed tool results: the developer
// step is stopped with the call and the error as evidence.
func TestRealCLIRepeatFailureBreakerClaude(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		if c.role != task.RoleDeveloper {
			return planReply(c)
		}
		return fakemodel.Reply{Text: "Running the tests.", ToolCalls: []fakemodel.ToolCall{{Name: "Bash",
			Input: map[string]any{"command": "echo 'FAIL: TestX' >&2; exit 1", "description": "run the tests"}}}}
	})
	roles := map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": claudeRole(), "reviewer": claudeRole()}
	p := runPipelineWith(t, roles, map[string]any{"claude-code": claudeSettings(t, bin, srv, nil)}, nil)
	if p.tk.Status != task.StatusStopped || !strings.HasPrefix(p.tk.Error, "circuit_broken:repeat_failure: Bash ") {
		t.Fatalf("task %s %q\nlog:\n%s", p.tk.Status, p.tk.Error, p.r.logText(p.tk.ID))
	}
	evs := p.r.events(p.tk.ID, task.EventCircuitBroken)
	if len(evs) != 1 {
		t.Fatalf("circuit_broken events %+v", evs)
	}
	c := evs[0].Data.(task.CircuitBroken)
	if c.Breaker != task.BreakerRepeatFailure || c.Count != 3 || c.Tool != "Bash" || !strings.Contains(c.Input, "exit 1") || !strings.Contains(c.Error, "FAIL: TestX") {
		t.Fatalf("evidence %+v", c)
	}
	if n := model.turnsOf(task.RoleReviewer); n != 0 {
		t.Fatalf("the reviewer ran %d turns", n)
	}
}
