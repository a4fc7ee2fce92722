package runner_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/task"
)

// pricedDeveloper routes every role to the mock and prices the developer's
// tokens ($1 per million input tokens).
func pricedDeveloper(extra map[string]any) map[string]any {
	m := map[string]any{"tool": "mock"}
	out := map[string]any{"roles": map[string]any{"planner": m, "refinement": m, "reviewer": m,
		"developer": map[string]any{"tool": "mock", "model": mock.PricedModel}}}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// events returns the stored events of a task of kind k.
func (r *root) events(id string, k task.EventKind) []task.Event {
	r.t.Helper()
	evs, err := r.st.Events(context.Background(), id, time.Time{})
	if err != nil {
		r.t.Fatal(err)
	}
	var out []task.Event
	for _, e := range evs {
		if e.Data.Kind() == k {
			out = append(out, e)
		}
	}
	return out
}

// A daily cap in cap mode stops the live developer step through the real
// queue: the mock reports its usage while it runs ($0.20 a report, unpriced
// by the tool so the price table prices it), the step is stopped at the
// report that reaches $1.00 — its process tree ends, it never finishes its
// work — the task is stopped with the reason the user reads, the 80 %
// crossing is warned once, the worktree is kept; the queue then claims no
// task the cap covers until the limit is raised, and the stopped task is
// retryable.
func TestDailyCapStopsLiveStepAndHoldsQueue(t *testing.T) {
	r := newRoot(t, pricedDeveloper(map[string]any{"budgets": map[string]any{"daily": map[string]any{"usd": 1, "mode": "cap"}}}))
	ctx := context.Background()
	tk := r.add("Spend.\n[[mock-usage developer=2000000]]\n[[mock-delay developer=300]]", 1)
	if res := r.cli(ctx, "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("runner: %+v", res)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusStopped || got.Error != "budget: daily cap $1.00 reached" {
		t.Fatalf("task %s %q, want stopped by the daily cap", got.Status, got.Error)
	}
	exs, _ := r.st.Executions(ctx, tk.ID)
	dev := exs[len(exs)-1]
	if dev.Role != task.RoleDeveloper || dev.Outcome != task.OutcomeStopped || !dev.CostEstimated {
		t.Fatalf("developer execution %+v", dev)
	}
	// Stopped live, before its last report: the reports that were on
	// their way while it stopped are real spend and counted too. Each
	// report is a 200k-token model call, so the developer's session may
	// rotate on its context window first: its spend is that of all its
	// sessions.
	var devIn int64
	for _, ex := range exs {
		if ex.Role == task.RoleDeveloper {
			devIn += ex.Usage.TokensIn
		}
	}
	if devIn < 1_000_000 || devIn >= 2_000_000 {
		t.Fatalf("developer usage %d tokens in (last session %+v), task %+v: want the step stopped between its 5th and 10th report", devIn, dev.Usage, got.Usage)
	}
	if dev.PGID > 0 && len(groupAlive(dev.PGID)) > 0 {
		t.Fatalf("the developer's process group lives on: %v", groupAlive(dev.PGID))
	}
	log := r.logText(tk.ID)
	if strings.Contains(log, "Mock developer finished.") {
		t.Fatal("the developer ran to its end: the cap did not stop it live")
	}
	for _, want := range []string{"Budget warning: the daily budget is at 80 % ($0.80 of $1.00)",
		"Budget: daily cap $1.00 reached: stopping developer (work kept)",
		"Stopped: budget: daily cap $1.00 reached; worktree and branch kept"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	warns := r.events(tk.ID, task.EventBudgetWarning)
	if len(warns) != 1 || warns[0].Data.(task.BudgetWarning).Percent != 80 {
		t.Fatalf("warnings %+v, want one at 80 %%", warns)
	}
	stops := r.events(tk.ID, task.EventBudgetStopped)
	if len(stops) != 1 {
		t.Fatalf("budget_stopped events %+v", stops)
	}
	// The stop came at the 5th report: $1.00 (priced from the table; the
	// day's tokens include the planner's and refinement's few).
	if bs := stops[0].Data.(task.BudgetStopped); bs.Scope != "daily" || bs.Mode != "cap" || bs.Step != "developer" || bs.LimitUSD != 1 ||
		bs.SpentTokens < 1_000_000 || bs.SpentTokens > 1_001_000 || bs.SpentUSD < 0.999 || bs.SpentUSD > 1.001 {
		t.Fatalf("budget_stopped %+v", bs)
	}
	if got.WorktreePath == "" {
		t.Fatal("no worktree recorded")
	}
	if _, err := r.st.GetTask(ctx, tk.ID); err != nil {
		t.Fatal(err)
	}

	// The queue claims nothing the cap covers, and says why once.
	next := r.add("Next.", 1)
	if res := r.cli(ctx, "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("runner: %+v", res)
	}
	if g := r.get(next.ID); g.Status != task.StatusPending {
		t.Fatalf("held task %s", g.Status)
	}
	if n := strings.Count(r.logText(next.ID), "Queue holds this task: budget: daily cap $1.00 reached; it resets at "); n != 1 {
		t.Fatalf("hold logged %d times:\n%s", n, r.logText(next.ID))
	}
	res := r.cli(ctx, "budget")
	if res.code != 0 || !strings.Contains(res.stdout, "daily") || !strings.Contains(res.stdout, "$1.00 of $1.00") ||
		!strings.Contains(res.stdout, "1 pending task held") {
		t.Fatalf("budget: %+v", res)
	}
	// Raising the limit lets the queue go on; the stopped task is retried
	// with one action.
	if res := r.cli(ctx, "settings", "set", "budgets.daily.usd", "10"); res.code != 0 {
		t.Fatalf("raise: %+v", res)
	}
	if res := r.cli(ctx, "budget", "retry"); res.code != 0 || !strings.Contains(res.stdout, "1 task") {
		t.Fatalf("budget retry: %+v", res)
	}
	if g := r.get(tk.ID); g.Status != task.StatusPending {
		t.Fatalf("retried task %s", g.Status)
	}
	if res := r.cli(ctx, "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("runner: %+v", res)
	}
	for _, id := range []string{next.ID, tk.ID} {
		if g := r.get(id); g.Status != task.StatusDone {
			t.Fatalf("%s after the raise: %s %q", id, g.Status, g.Error)
		}
	}
}

// A tool that reports no usage at all is not free: its step's usage is
// estimated from the size of its prompt and output, counted against the
// budgets and the log says so.
func TestSilentToolUsageEstimated(t *testing.T) {
	r := newRoot(t, map[string]any{"budgets": map[string]any{"task": map[string]any{"tokens": 1, "mode": "warn"}}})
	ctx := context.Background()
	tk := r.add("Quiet.\n[[mock-nousage developer=1]]", 1)
	if res := r.cli(ctx, "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("runner: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	exs, _ := r.st.Executions(ctx, tk.ID)
	var dev task.Execution
	for _, x := range exs {
		if x.Role == task.RoleDeveloper {
			dev = x
		}
	}
	if dev.Usage.TokensIn == 0 || dev.Usage.TokensOut == 0 {
		t.Fatalf("developer usage %+v, want an estimate", dev.Usage)
	}
	log := r.logText(tk.ID)
	if n := strings.Count(log, "mock reported no usage for "); n != 1 {
		t.Fatalf("%d estimate notes:\n%s", n, log)
	}
	if !strings.Contains(log, "mock reported no usage for developer: counted an estimate of") {
		t.Fatalf("log:\n%s", log)
	}
}

// `budget` with no budgets says how to set one; --json gives the report;
// an unknown action is a usage error; a bad limit is refused by settings
// with one line and changes nothing.
func TestBudgetCommandEdges(t *testing.T) {
	r := newRoot(t, nil)
	ctx := context.Background()
	if res := r.cli(ctx, "budget"); res.code != 0 || !strings.Contains(res.stdout, "No budgets are set") || !strings.Contains(res.stdout, "repeat failures 3") {
		t.Fatalf("budget: %+v", res)
	}
	if res := r.cli(ctx, "budget", "reset"); res.code != 2 || !strings.Contains(res.stderr, "expected no argument, or retry") {
		t.Fatalf("budget reset: %+v", res)
	}
	for _, v := range []string{"0", "abc", `"5"`} {
		res := r.cli(ctx, "settings", "set", "budgets.daily.usd", v)
		if res.code != 1 || strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 || !strings.Contains(res.stderr, "budgets.daily.usd") {
			t.Fatalf("set usd %s: %+v", v, res)
		}
	}
	if res := r.cli(ctx, "settings", "get", "budgets"); res.code != 0 || strings.Contains(res.stdout, "daily") {
		t.Fatalf("refused sets changed the file: %+v", res)
	}
	if res := r.cli(ctx, "settings", "set", "budgets.monthly", `{"tokens": 5000, "mode": "cap"}`); res.code != 0 {
		t.Fatalf("set monthly: %+v", res)
	}
	res := r.cli(ctx, "budget", "--json")
	var rep struct {
		Lines []struct {
			Scope       string `json:"scope"`
			Mode        string `json:"mode"`
			LimitTokens int64  `json:"limit_tokens"`
		} `json:"lines"`
	}
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &rep) != nil || len(rep.Lines) != 1 || rep.Lines[0].Scope != "monthly" ||
		rep.Lines[0].Mode != "cap" || rep.Lines[0].LimitTokens != 5000 {
		t.Fatalf("budget --json: %+v", res)
	}
}
