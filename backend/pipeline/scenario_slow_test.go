//go:build slow

package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func TestRunsThreeIterations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Roles.Observer = &settings.ToolRef{Tool: "mock"} })
	ctx := context.Background()
	tk := e.addTask("Iterate.", 3)
	for i := 1; i <= 3; i++ {
		res := e.claimRun(ctx, tk.ID)
		want := task.StatusPending
		if i == 3 {
			want = task.StatusDone
		}
		if res.Status != want || res.Iteration != i {
			t.Fatalf("run %d: %s (iteration %d) %q\n%s", i, res.Status, res.Iteration, res.Message, e.logText(tk.ID))
		}
		if got := e.get(tk.ID); got.CompletedRuns != i {
			t.Fatalf("completed runs %d after run %d", got.CompletedRuns, i)
		}
	}
	mustContain(t, e.logText(tk.ID), "Run 1 of 3 complete; the task is queued for run 2", "Run 3 of 3 started")
	revs := e.sections(tk.ID, task.SectionReviewerReport)
	if len(revs) != 3 || revs[2].Iteration != 3 {
		t.Fatalf("reviewer reports %+v", revs)
	}
	for _, role := range []task.Role{task.RolePlanner, task.RoleDeveloper, task.RoleObserver, task.RoleReviewer} {
		ps := e.rec.prompts(role)
		if len(ps) != 3 {
			t.Fatalf("%s prompts %d", role, len(ps))
		}
		if strings.Contains(ps[0], HeadingPrevIteration) {
			t.Fatalf("first run of %s has previous findings", role)
		}
		for _, p := range ps[1:] {
			mustContain(t, p, HeadingPrevIteration, "Observer report (run", "Reviewer report (run", "VERDICT: APPROVE", "critically")
		}
	}
	if !e.branchExists(worktree.LeftoversBranchName(tk.ID)) {
		t.Fatal("no leftovers branch after the last run")
	}
}

func TestStallThenRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Retries.IdleTimeoutMs = 1500 })
	tk := e.addTask("Stalls once.\n[[mock-stall refinement=1]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	mustContain(t, e.logText(tk.ID), "Transient failure in refinement (attempt 1/3): stalled: no output for 1.5s")
	var outcomes []string
	for _, x := range e.executions(tk.ID) {
		if x.Role == task.RoleRefinement {
			outcomes = append(outcomes, string(x.Outcome))
		}
	}
	if strings.Join(outcomes, ",") != "stalled,succeeded" {
		t.Fatalf("refinement executions %v", outcomes)
	}
}

func TestDeveloperQuestionGoesToPlannerInternally(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tk := e.addTask("Dev asks.\n[[mock-questions developer=1]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	mustContain(t, e.logText(tk.ID), "Developer asked 2 question(s); the planner answers them", "Planner answered the developer")
	answers := e.rec.prompts(task.RolePlannerAnswer)
	if len(answers) != 1 || !strings.Contains(answers[0], "Which name should the mock file have?") {
		t.Fatalf("planner-answer prompts: %q", answers)
	}
	devs := e.rec.prompts(task.RoleDeveloper)
	if len(devs) != 2 || !strings.Contains(devs[1], HeadingPlannerAnswer) || !strings.Contains(devs[1], "Use the defaults of the plan") {
		t.Fatalf("developer re-run lacks the planner's answer: %d prompts", len(devs))
	}
	if e.get(tk.ID).Status != task.StatusDone || len(e.get(tk.ID).Questions) != 0 {
		t.Fatal("developer question reached the user")
	}
}

func TestTransientBudgetSpentFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) {
		s.Retries.Transient = 1
		s.Retries.BackoffMs = []int64{1000}
	})
	tk := e.addTask("Always flaky.\n[[mock-transient reviewer=9]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusFailed || !strings.HasPrefix(res.Message, "reviewer-1 failed: API Error: 503") {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	if len(e.rec.prompts(task.RoleReviewer)) != 2 {
		t.Fatalf("reviewer attempts %d, want 2", len(e.rec.prompts(task.RoleReviewer)))
	}
}

func TestDiffOverInlineLimitGoesAsStat(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Review.MaxInlineDiffBytes = 10 })
	tk := e.addTask("Small limit.", 1)
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	mustContain(t, e.logText(tk.ID), "Diff exceeds inline limit")
	revs := e.rec.prompts(task.RoleReviewer)
	if len(revs) != 1 || !strings.Contains(revs[0], HeadingDiff) || !strings.Contains(revs[0], "over the inline limit") ||
		strings.Contains(revs[0], "+Developer run") {
		t.Fatalf("reviewer prompt diff section wrong:\n%s", revs[0])
	}
	big := newEnv(t, nil)
	tk2 := big.addTask("Default limit.", 1)
	big.claimRun(context.Background(), tk2.ID)
	if revs := big.rec.prompts(task.RoleReviewer); !strings.Contains(revs[0], "+Developer run 1.") {
		t.Fatalf("inline diff missing:\n%s", revs[0])
	}
}
