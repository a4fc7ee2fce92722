package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestDecidedOutcomeSurvivesUntilCompleted(t *testing.T) {
	s, path := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RolePlanner}); err != nil {
		t.Fatal(err)
	}
	d := Decided{TaskID: tk.ID, Status: task.StatusDone, CountRun: true, Cleanup: "done",
		Note:     TransitionNote{Reason: "approved", Branch: "boof-runner/" + tk.ID, BaseSHA: "base"},
		Worktree: json.RawMessage(`{"dir":"/w"}`)}
	n, err := s.Decide(ctx, d)
	if err != nil || n != 1 {
		t.Fatalf("decide: %d %v", n, err)
	}
	// The decision and the counted run are durable: another connection
	// (a restarted process) reads them while the task is still ongoing.
	other, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	got, ok, err := other.DecidedOutcome(ctx, tk.ID)
	if err != nil || !ok || got.Status != task.StatusDone || got.Cleanup != "done" || string(got.Worktree) != `{"dir":"/w"}` || got.Note.Branch != d.Note.Branch {
		t.Fatalf("decided = %+v %v %v", got, ok, err)
	}
	if tt, _ := other.GetTask(ctx, tk.ID); tt.Status != task.StatusOngoing || tt.CompletedRuns != 1 {
		t.Fatalf("task %s, %d runs", tt.Status, tt.CompletedRuns)
	}
	done, err := other.CompleteDecided(ctx, tk.ID, TransitionNote{HeadSHA: "head"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != task.StatusDone || done.HeadSHA != "head" || done.BaseSHA != "base" || done.Branch != d.Note.Branch || done.CompletedRuns != 1 {
		t.Fatalf("completed task = %+v", done)
	}
	if _, ok, _ := other.DecidedOutcome(ctx, tk.ID); ok {
		t.Fatal("decision kept after completion")
	}
	if _, err := other.CompleteDecided(ctx, tk.ID, TransitionNote{}, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second completion: %v", err)
	}
}

func TestDecideRefusesATaskThatIsNotOngoing(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	_, err := s.Decide(ctx, Decided{TaskID: tk.ID, Status: task.StatusDone, CountRun: true})
	var se *StatusError
	if !errors.As(err, &se) {
		t.Fatalf("decide on a pending task: %v", err)
	}
	if tt, _ := s.GetTask(ctx, tk.ID); tt.CompletedRuns != 0 {
		t.Fatalf("a refused decision counted a run: %d", tt.CompletedRuns)
	}
	if _, err := s.Decide(ctx, Decided{TaskID: tk.ID, Status: "exploded"}); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("bad status: %v", err)
	}
}
