package store

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// decideDone claims tk and decides it done with a worktree to clean up.
func decideDone(t *testing.T, s *Store, id string) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Claim(ctx, id, ClaimInfo{Role: task.RolePlanner}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, Decided{TaskID: id, Status: task.StatusDone, CountRun: true, Cleanup: "done", Worktree: json.RawMessage(`{"dir":"/w"}`)}); err != nil {
		t.Fatal(err)
	}
}

// TestCleanupLeftIsKeptWithTheStatus: a completion that names a clean-up
// left keeps it in the same transaction; it is listed while no run holds
// the task, dropped when done, and dropped by the claim of a new run.
func TestCleanupLeftIsKeptWithTheStatus(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	a := mustCreate(t, s, task.NewTask{})
	b := mustCreate(t, s, task.NewTask{})
	decideDone(t, s, a.ID)
	decideDone(t, s, b.ID)
	if _, err := s.CompleteDecided(ctx, a.ID, TransitionNote{}, "leftovers not saved: no space left on device"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CompleteDecided(ctx, b.ID, TransitionNote{}, ""); err != nil {
		t.Fatal(err)
	}
	cs, err := s.CleanupsLeft(ctx)
	if err != nil || len(cs) != 1 {
		t.Fatalf("clean-ups left: %+v %v", cs, err)
	}
	if c := cs[0]; c.TaskID != a.ID || c.Cleanup != "done" || string(c.Worktree) != `{"dir":"/w"}` || c.Reason != "leftovers not saved: no space left on device" {
		t.Fatalf("clean-up left: %+v", c)
	}
	if got, _ := s.GetTask(ctx, a.ID); got.Status != task.StatusDone || got.CompletedRuns != 1 {
		t.Fatalf("task %s, %d runs", got.Status, got.CompletedRuns)
	}
	if err := s.DropCleanupLeft(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if cs, _ := s.CleanupsLeft(ctx); len(cs) != 0 {
		t.Fatalf("after the drop: %+v", cs)
	}

	// A new run takes the worktree over: queued, it is not listed; its
	// claim drops the clean-up left.
	setStatus := func(st task.Status) {
		t.Helper()
		if _, err := s.db.Exec(`UPDATE tasks SET status = ? WHERE id = ?`, string(st), a.ID); err != nil {
			t.Fatal(err)
		}
	}
	setStatus(task.StatusPending)
	decideDone(t, s, a.ID)
	if _, err := s.CompleteDecided(ctx, a.ID, TransitionNote{}, "removal failed"); err != nil {
		t.Fatal(err)
	}
	if cs, _ := s.CleanupsLeft(ctx); len(cs) != 1 {
		t.Fatalf("not kept: %+v", cs)
	}
	setStatus(task.StatusPending)
	if cs, _ := s.CleanupsLeft(ctx); len(cs) != 0 {
		t.Fatalf("listed while queued: %+v", cs)
	}
	if _, err := s.Claim(ctx, a.ID, ClaimInfo{Role: task.RolePlanner}); err != nil {
		t.Fatal(err)
	}
	setStatus(task.StatusDone)
	if cs, _ := s.CleanupsLeft(ctx); len(cs) != 0 {
		t.Fatalf("the claim left it: %+v", cs)
	}
}

// TestRetryOfAnUnrecordedOutcomeResumes: a failed task whose outcome could
// not be recorded resumes by default on retry; another failed task starts
// over.
func TestRetryOfAnUnrecordedOutcomeResumes(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	for _, c := range []struct {
		reason string
		resume bool
	}{{ReasonUnrecorded, true}, {"failed", false}} {
		tk := mustCreate(t, s, task.NewTask{})
		if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RolePlanner}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Transition(ctx, tk.ID, task.StatusFailed, TransitionNote{Reason: c.reason}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Retry(ctx, tk.ID)
		if err != nil || got.RunStart.Resume != c.resume {
			t.Fatalf("%s: retry %+v %v", c.reason, got.RunStart, err)
		}
		if got, err := s.RetryWith(ctx, tk.ID, RetryOptions{}); err == nil {
			t.Fatalf("%s: retried a pending task: %+v", c.reason, got)
		}
	}
}

// undoCleanupsLeft drops what the clean-ups-left migration adds, so that a
// test can reopen an older schema.
const undoCleanupsLeft = `DROP TABLE cleanups_left; `
