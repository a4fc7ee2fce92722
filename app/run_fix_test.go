package app

import (
	"context"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// runningOf is what Status says runs for task id (its developer step), once it does.
func (f *hostFixture) runningOf(t *testing.T, id string) RunningInfo {
	t.Helper()
	var got RunningInfo
	waitFor(t, "the developer step of "+id, func() bool {
		st, _ := f.run.Status()
		for _, r := range st.Running {
			if r.TaskID == id && r.Role == task.RoleDeveloper {
				got = r
				return true
			}
		}
		return false
	})
	return got
}

// The running task's header can say "fix run 1" during a fix run: Status
// names the fix run (Fix) beside the iteration it runs in, which is past the
// planned runs (iteration 2 of 1 planned), and a planned run has no Fix.
func TestStatusNamesTheFixRun(t *testing.T) {
	f := startHost(t)
	// The mock developer waits for one mid-run message in every run: the test sees it running.
	a, err := f.tasks.Create(NewTaskInput{Prompt: "Wait for me\n[[mock-await developer=1]]"})
	if err != nil {
		t.Fatal(err)
	}
	if r := f.runningOf(t, a.ID); r.Fix != 0 || r.Iteration != 1 || r.Iterations != 1 {
		t.Fatalf("the planned run: fix %d, iteration %d of %d", r.Fix, r.Iteration, r.Iterations)
	}
	if _, err := f.run.Inject(a.ID, "go on"); err != nil {
		t.Fatal(err)
	}
	f.waitStatus(t, a.ID, task.StatusDone)

	g := gitx.New()
	svc := NewReviewService(g, f.st, worktree.NewManager(g, time.Now), review.New(g, time.Now, review.WithJournal(review.NewJournal(t.TempDir(), ""))), f.rec, context.Background,
		WithWake(f.host.Runner.Wake))
	if _, err := svc.RequestChanges(a.ID, review.ChangeRequest{General: "Say why in a comment."}); err != nil {
		t.Fatal(err)
	}
	if r := f.runningOf(t, a.ID); r.Fix != 1 || r.Iteration != 2 || r.Iterations != 1 {
		t.Fatalf("the fix run: fix %d, iteration %d of %d", r.Fix, r.Iteration, r.Iterations)
	}
	if _, err := f.run.Inject(a.ID, "go on"); err != nil {
		t.Fatal(err)
	}
	f.waitStatus(t, a.ID, task.StatusDone)
}
