package pipeline

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// waitOpenExec waits (bounded) until the task has an open execution of role with a pid.
func (e *env) waitOpenExec(id string, role task.Role) task.Execution {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		for _, x := range e.openExecutions() {
			if x.TaskID == id && x.Role == role && x.PID > 0 {
				return x
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("no open %s execution", role)
	return task.Execution{}
}

func (e *env) executions(id string) []task.Execution {
	e.t.Helper()
	xs, err := e.st.Executions(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return xs
}

func TestPlannerQuestionsParkThenAnswerResumes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	tk := e.addTask("Needs input.\n[[mock-questions planner=1]]", 1)
	res := e.claimRun(ctx, tk.ID)
	if res.Status != task.StatusActions {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	got := e.get(tk.ID)
	if got.Status != task.StatusActions || len(got.Questions) != 2 {
		t.Fatalf("parked task %s questions %v", got.Status, got.Questions)
	}
	if n := len(e.sections(tk.ID, task.SectionQuestions)); n != 1 {
		t.Fatalf("questions sections %d", n)
	}
	if len(e.rec.prompts(task.RoleRefinement)) != 0 {
		t.Fatal("refinement ran while the planner waited for answers")
	}
	if _, err := e.st.Answer(ctx, tk.ID, "Call it answer.md and keep the leftovers."); err != nil {
		t.Fatal(err)
	}
	res = e.claimRun(ctx, tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("after answer: %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	ps := e.rec.prompts(task.RolePlanner)
	if len(ps) != 2 || !strings.Contains(ps[1], HeadingAnswers) || !strings.Contains(ps[1], "Call it answer.md") ||
		!strings.Contains(ps[1], "Which name should the mock file have?") {
		t.Fatalf("resumed planner prompt lacks the answers:\n%s", ps[len(ps)-1])
	}
}

func TestTransientThenSuccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tk := e.addTask("Flaky.\n[[mock-transient developer=1]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	mustContain(t, e.logText(tk.ID), "Transient failure in developer (attempt 1/3): API Error: 503", "retrying in 30s in the same worktree")
	if len(e.sleeps) == 0 || sum(e.sleeps) != 30*time.Second {
		t.Fatalf("backoff slept %v", e.sleeps)
	}
	var outcomes []string
	for _, x := range e.executions(tk.ID) {
		if x.Role == task.RoleDeveloper {
			outcomes = append(outcomes, string(x.Outcome))
		}
	}
	if strings.Join(outcomes, ",") != "transient,succeeded" {
		t.Fatalf("developer executions %v", outcomes)
	}
	devs := e.rec.prompts(task.RoleDeveloper)
	if len(devs) != 2 || strings.Contains(devs[0], HeadingInterrupted) || !strings.Contains(devs[1], HeadingInterrupted) {
		t.Fatal("retried prompt lacks the previous-attempt-interrupted section")
	}
}

func TestStopDuringBackoff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	tk := e.addTask("Flaky.\n[[mock-transient refinement=1]]", 1)
	e.onSleep = func() { _ = e.st.RequestStop(ctx, tk.ID) }
	res := e.claimRun(ctx, tk.ID)
	if res.Status != task.StatusStopped {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if len(e.rec.prompts(task.RoleRefinement)) != 1 {
		t.Fatal("refinement retried after a stop during backoff")
	}
}

func TestInjectWhileDeveloperRuns(t *testing.T) {
	t.Parallel()
	for _, live := range []bool{true, false} {
		name := map[bool]string{true: "delivered live", false: "next step"}[live]
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.rec.noMidRun = !live
			ctx := context.Background()
			tk := e.addTask("Steer me.\n[[mock-delay developer=400]]", 1)
			done := e.startRun(ctx, tk.ID)
			e.waitOpenExec(tk.ID, task.RoleDeveloper)
			if _, err := e.st.Inject(ctx, tk.ID, "Also add a CHANGELOG entry."); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if res.Status != task.StatusDone {
				t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
			}
			revs := e.rec.prompts(task.RoleReviewer)
			if len(revs) != 1 || !strings.Contains(revs[0], HeadingInjected) || !strings.Contains(revs[0], "Also add a CHANGELOG entry.") {
				t.Fatalf("reviewer prompt lacks the injected prompt")
			}
			secs := e.sections(tk.ID, task.SectionInjectedPrompt)
			if len(secs) != 1 {
				t.Fatalf("injected sections %d", len(secs))
			}
			dev := e.sections(tk.ID, task.SectionDeveloperReport)
			if live {
				mustContain(t, e.logText(tk.ID), "Injected prompt delivered live to developer")
				if secs[0].Step != "developer" || !strings.Contains(dev[0].Body, "Also add a CHANGELOG entry.") {
					t.Fatalf("live delivery: step %q, developer report %q", secs[0].Step, dev[0].Body)
				}
			} else {
				mustContain(t, e.logText(tk.ID), "Injected prompt applied to reviewer-1's prompt")
				if secs[0].Step != "reviewer-1" || strings.Contains(dev[0].Body, "CHANGELOG") {
					t.Fatalf("queued delivery: step %q", secs[0].Step)
				}
			}
		})
	}
}

func TestUnknownBaseFailsBeforeAnything(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	tk, err := e.st.CreateTask(ctx, task.NewTask{Prompt: "p", Base: "no-such-branch"})
	if err != nil {
		t.Fatal(err)
	}
	res := e.claimRun(ctx, tk.ID)
	if res.Status != task.StatusFailed || !strings.HasPrefix(res.Message, "unknown base ref 'no-such-branch'") {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	if e.branchExists(worktree.BranchName(tk.ID)) || len(e.rec.prompts(task.RolePlanner)) != 0 {
		t.Fatal("something ran or was created for an unknown base")
	}
	if len(e.openExecutions()) != 0 {
		t.Fatal("claimed execution left open")
	}
}

func sum(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s
}

// A step whose tool reports no cost is priced from the tool's own price
// table, and marked estimated; a model the table does not know stays unpriced.
func TestCostEstimatedFromTheToolsPrices(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) {
		for _, r := range []*settings.ToolRef{&s.Roles.Planner, &s.Roles.Refinement, &s.Roles.Developer, &s.Roles.Reviewer} {
			r.Model = "mock-priced"
		}
	})
	o := e.p.o
	o.Tools = agent.Build([]agent.Adapter{{Name: e.rec.Name(), Prices: agent.Prices{"mock-priced": {In: 2, Out: 4}},
		New: func(agent.Config) agent.Tool { return e.rec }}}, func(agent.Adapter) agent.Config { return agent.Config{} })
	e.p = New(o)
	tk := e.addTask("Priced work.", 1)
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	xs := e.executions(tk.ID)
	total := 0.0
	for i, x := range xs {
		want := float64(x.Usage.TokensIn*2+x.Usage.TokensOut*4) / 1e6
		switch {
		case i == 0 && x.Model == "": // the claimed planner execution: no model, no price
			if x.CostEstimated || x.Usage.CostUSD != 0 {
				t.Errorf("unpriced execution %+v", x)
			}
		case !x.CostEstimated || x.Usage.TokensIn == 0 || math.Abs(x.Usage.CostUSD-want) > 1e-12:
			t.Errorf("execution %d (%s, model %q): cost %v estimated %v, want %v", i, x.Role, x.Model, x.Usage.CostUSD, x.CostEstimated, want)
		}
		total += x.Usage.CostUSD
	}
	if got := e.get(tk.ID).Usage.CostUSD; len(xs) < 4 || total == 0 || math.Abs(got-total) > 1e-12 {
		t.Fatalf("task cost %v, executions %d summing to %v", got, len(xs), total)
	}
}
