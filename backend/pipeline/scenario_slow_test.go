//go:build slow

package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
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
	for _, role := range []agent.Role{agent.RolePlanner, agent.RoleDeveloper, agent.RoleObserver, agent.RoleReviewer} {
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
