package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func TestHappyPathNoObserver(t *testing.T) {
	e := newEnv(t, nil)
	tk := e.addTask("Write the file.", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	got := e.get(tk.ID)
	if got.Status != task.StatusDone || got.CompletedRuns != 1 || got.Branch != worktree.BranchName(tk.ID) || got.HeadSHA == "" {
		t.Fatalf("task %+v", got)
	}
	if n := len(e.sections(tk.ID, task.SectionPlannerReport)); n != 1 {
		t.Fatalf("planner reports %d", n)
	}
	if n := len(e.sections(tk.ID, task.SectionFinalPlan)); n != 1 {
		t.Fatalf("final plans %d", n)
	}
	if v := e.verdicts(tk.ID, task.SectionReviewerReport); v != "APPROVE" {
		t.Fatalf("reviewer verdicts %q", v)
	}
	if v := e.verdicts(tk.ID, task.SectionObserverReport); v != "" {
		t.Fatalf("observer ran without configuration: %q", v)
	}
	mustContain(t, e.logText(tk.ID), "Reviewer verdict (round 1): APPROVE", "Task done")
	if !e.branchExists(worktree.BranchName(tk.ID)) || !e.branchExists(worktree.LeftoversBranchName(tk.ID)) {
		t.Fatal("task branch or leftovers branch missing")
	}
	wtDir := filepath.Join(e.repo, worktree.DefaultRootName, tk.ID)
	if _, err := os.Stat(wtDir); !os.IsNotExist(err) {
		t.Fatalf("worktree dir not removed on done: %v", err)
	}
	if f := gitRun(t, e.repo, "show", worktree.BranchName(tk.ID)+":"+mock.FileName(wtDir)); f == "" {
		t.Fatal("developer commit missing on the task branch")
	}
	if len(e.openExecutions()) != 0 {
		t.Fatal("executions left open")
	}
}
