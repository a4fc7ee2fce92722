package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/task"
)

// receivedSince returns the prompts the mock agent received for the
// task's worktree after the first n, and all of them.
func (f *hostFixture) received(t *testing.T, worktree string) []mock.Received {
	t.Helper()
	return receivedIn(t, filepath.Join(filepath.Dir(f.repo), "data", "mock-state"), worktree)
}

// receivedIn returns the prompts the mock agent received in the working
// directory dir, oldest first.
func receivedIn(t *testing.T, stateBase, dir string) []mock.Received {
	t.Helper()
	all, err := mock.ReadReceived(stateBase)
	if err != nil {
		t.Fatal(err)
	}
	var out []mock.Received
	for _, r := range all {
		if r.Dir == dir {
			out = append(out, r)
		}
	}
	return out
}

func roleList(rs []mock.Received) []task.Role {
	out := []task.Role{}
	for _, r := range rs {
		out = append(out, r.Role)
	}
	return out
}

// Retrying a stopped task continues where it stopped: the developer the
// user stopped runs again with the plan it had and a note that its
// previous attempt was cut short; the planner and the refinement do not
// run again.
func TestRetryResumesAStoppedTask(t *testing.T) {
	f := startHost(t)
	a, err := f.tasks.Create(NewTaskInput{Prompt: "Resume me\n[[mock-await developer=1]]"})
	if err != nil {
		t.Fatal(err)
	}
	f.waitRole(t, a.ID, task.RoleDeveloper)
	if err := f.run.Stop(a.ID); err != nil {
		t.Fatal(err)
	}
	stopped := f.waitStatus(t, a.ID, task.StatusStopped)
	before := len(f.received(t, stopped.WorktreePath))
	if _, err := f.tasks.Retry(a.ID); err != nil {
		t.Fatal(err)
	}
	// The developer waits for one message again: the user's live inject finishes it.
	f.waitRole(t, a.ID, task.RoleDeveloper)
	if _, err := f.run.Inject(a.ID, "go on"); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got, _ := f.st.GetTask(context.Background(), a.ID)
		if got.Status != task.StatusPending && got.Status != task.StatusOngoing {
			break
		}
		if time.Now().After(end) {
			st, _ := f.run.Status()
			t.Fatalf("the retried run hangs: %s, running %+v, prompts %v", got.Status, st.Running, roleList(f.received(t, stopped.WorktreePath)))
		}
	}
	done, _ := f.st.GetTask(context.Background(), a.ID)
	if done.Status != task.StatusDone {
		secs, _ := f.st.Sections(context.Background(), a.ID)
		t.Fatalf("the retried run ended %s: %s (%d sections; prompts %v)", done.Status, done.Error, len(secs), roleList(f.received(t, done.WorktreePath)))
	}
	got := f.received(t, done.WorktreePath)[before:]
	if len(got) < 2 || got[0].Role != task.RoleDeveloper {
		t.Fatalf("the retried run's steps: %v (want the developer first)", roleList(got))
	}
	for _, r := range got {
		if r.Role == task.RolePlanner || r.Role == task.RoleRefinement {
			t.Fatalf("the retry planned again: %v", roleList(got))
		}
	}
	dev := got[0].Prompt
	if !strings.Contains(dev, pipeline.HeadingResumed) || !strings.Contains(dev, "## Refined plan") || strings.Contains(dev, pipeline.HeadingIteration) {
		t.Fatalf("the resumed developer's prompt:\n%s", dev)
	}
	if strings.Contains(got[1].Prompt, pipeline.HeadingResumed) {
		t.Fatalf("a later step was told it resumes:\n%s", got[1].Prompt)
	}
	if done.CompletedRuns != 1 {
		t.Fatalf("completed runs %d", done.CompletedRuns)
	}
}

// A failed task restarts at the planner by default, or at the developer
// when the user asks (the last final plan is kept).
func TestRetryFailedFromPlannerOrDeveloper(t *testing.T) {
	f := startHost(t)
	a, err := f.tasks.Create(NewTaskInput{Prompt: "Rejected\n[[mock-verdicts reviewer=REJECT]]"})
	if err != nil {
		t.Fatal(err)
	}
	failed := f.waitStatus(t, a.ID, task.StatusFailed)
	n := len(f.received(t, failed.WorktreePath))

	if _, err := f.tasks.RetryFrom(a.ID, "developer"); err != nil {
		t.Fatal(err)
	}
	failed = f.waitStatus(t, a.ID, task.StatusFailed)
	all := f.received(t, failed.WorktreePath)
	got := all[n:]
	if len(got) == 0 || got[0].Role != task.RoleDeveloper || !strings.Contains(got[0].Prompt, "## Refined plan") {
		t.Fatalf("retry from the developer ran %v", roleList(got))
	}
	for _, r := range got {
		if r.Role == task.RolePlanner || r.Role == task.RoleRefinement {
			t.Fatalf("retry from the developer planned again: %v", roleList(got))
		}
	}
	n = len(all)

	if _, err := f.tasks.Retry(a.ID); err != nil {
		t.Fatal(err)
	}
	// The developer waits for one message again: the user's live inject finishes it.
	f.waitRole(t, a.ID, task.RoleDeveloper)
	if _, err := f.run.Inject(a.ID, "go on"); err != nil {
		t.Fatal(err)
	}
	failed = f.waitStatus(t, a.ID, task.StatusFailed)
	if got := f.received(t, failed.WorktreePath)[n:]; len(got) == 0 || got[0].Role != task.RolePlanner {
		t.Fatalf("a plain retry of a failed task ran %v (want the planner first)", roleList(got))
	}
	if _, err := f.tasks.RetryFrom(a.ID, "observer"); err == nil {
		t.Fatal("a retry from the observer was accepted")
	}
}
