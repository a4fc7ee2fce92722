package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestNextPendingOrder(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	if _, err := s.NextPending(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty queue: want ErrNotFound, got %v", err)
	}
	old := mustCreate(t, s, task.NewTask{Title: "old"})
	newer := mustCreate(t, s, task.NewTask{Title: "newer"})
	high := mustCreate(t, s, task.NewTask{Title: "high", Priority: 5})
	mustCreate(t, s, task.NewTask{Title: "draft", Priority: 9, Draft: true})
	skipped := mustCreate(t, s, task.NewTask{Title: "skipped", Priority: 10})
	if err := s.SetSkip(ctx, skipped.ID, true); err != nil {
		t.Fatal(err)
	}
	want := []string{high.ID, old.ID, newer.ID}
	for i, id := range want {
		got, err := s.NextPending(ctx)
		if err != nil || got.ID != id {
			t.Fatalf("pick %d: got %s (%v), want %s", i, got.Title, err, id)
		}
		if _, err := s.Claim(ctx, got.ID, ClaimInfo{Role: task.RolePlanner}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.NextPending(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("want empty queue, got %v", err)
	}
}

func TestReorderMovesWithinQueue(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	a := mustCreate(t, s, task.NewTask{Title: "a"})
	b := mustCreate(t, s, task.NewTask{Title: "b"})
	c := mustCreate(t, s, task.NewTask{Title: "c", Priority: 3})
	// c (priority 3) moved after b takes priority 0 and lands between b and nothing.
	if err := s.Reorder(ctx, c.ID, "", b.ID); err != nil {
		t.Fatal(err)
	}
	// b moved before a.
	if err := s.Reorder(ctx, b.ID, a.ID, ""); err != nil {
		t.Fatal(err)
	}
	var order []string
	for range 3 {
		got, err := s.NextPending(ctx)
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, got.Title)
		if _, err := s.Claim(ctx, got.ID, ClaimInfo{Role: task.RolePlanner}); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(order) != "[b a c]" {
		t.Fatalf("order = %v, want [b a c]", order)
	}
	for _, bad := range [][3]string{{a.ID, "", ""}, {a.ID, b.ID, c.ID}, {a.ID, a.ID, ""}} {
		if err := s.Reorder(ctx, bad[0], bad[1], bad[2]); !errors.Is(err, task.ErrInvalid) {
			t.Errorf("Reorder%v: want ErrInvalid, got %v", bad, err)
		}
	}
	if err := s.Reorder(ctx, a.ID, b.ID, ""); !isStatusErr(err) {
		t.Errorf("reorder ongoing: want StatusError, got %v", err)
	}
}

func TestClaimOpensExecutionAndConflicts(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	e, err := s.Claim(ctx, tk.ID, ClaimInfo{Runner: "r1", Role: task.RolePlanner, Tool: "mock", Model: "mock-1"})
	if err != nil {
		t.Fatal(err)
	}
	if e.ID == 0 || e.Iteration != 1 || e.Attempt != 1 || e.EndedAt != nil {
		t.Fatalf("execution = %+v", e)
	}
	got, _ := s.GetTask(ctx, tk.ID)
	if got.Status != task.StatusOngoing || got.StartedAt == nil {
		t.Fatalf("after claim: %+v", got)
	}
	before := snap(t, s, tk.ID)
	_, err = s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RolePlanner})
	var ce *ClaimConflictError
	if !errors.As(err, &ce) || !errors.Is(err, ErrClaimConflict) || ce.Status != task.StatusOngoing {
		t.Fatalf("second claim: want ClaimConflictError, got %v", err)
	}
	assertUnchanged(t, s, before)
	sk := mustCreate(t, s, task.NewTask{})
	if err := s.SetSkip(ctx, sk.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim(ctx, sk.ID, ClaimInfo{Role: task.RolePlanner}); !errors.As(err, &ce) || !ce.Skipped {
		t.Fatalf("claim skipped: want conflict with Skipped, got %v", err)
	}
	if _, err := s.Claim(ctx, "0000000000000000", ClaimInfo{Role: task.RolePlanner}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing task: %v", err)
	}
	if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: "boss"}); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("bad role: %v", err)
	}
	kinds := map[task.EventKind]int{}
	for _, ev := range before.Events {
		kinds[ev.Kind()]++
	}
	// The step's own events are the pipeline's, when the step starts.
	if kinds[task.EventCreated] != 1 || kinds[task.EventClaimed] != 1 || kinds[task.EventStatusChanged] != 1 || len(kinds) != 3 {
		t.Fatalf("events = %v", kinds)
	}
}

// TestClaimRaceEachOnce has 1,000 goroutines race to claim 100 tasks: every
// task is claimed exactly once and every loser gets a typed conflict.
func TestClaimRaceEachOnce(t *testing.T) {
	skipUnderWine(t, "concurrent BEGIN IMMEDIATE gets \"database is locked\" past the busy timeout over Wine's file locks (untried on Windows)")
	s, _ := openTemp(t)
	ctx := context.Background()
	var ids []string
	for i := range 100 {
		ids = append(ids, mustCreate(t, s, task.NewTask{Prompt: fmt.Sprintf("task %d", i)}).ID)
	}
	var wins, conflicts atomic.Int64
	claimedBy := make([]atomic.Int64, len(ids))
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, 1000)
	for g := range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			i := g % len(ids)
			_, err := s.Claim(ctx, ids[i], ClaimInfo{Runner: fmt.Sprint(g), Role: task.RolePlanner})
			switch {
			case err == nil:
				wins.Add(1)
				claimedBy[i].Add(1)
			case errors.Is(err, ErrClaimConflict):
				conflicts.Add(1)
			default:
				errs <- err
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("unexpected error (must be a conflict or success): %v", err)
	}
	if wins.Load() != 100 || conflicts.Load() != 900 {
		t.Fatalf("wins %d conflicts %d, want 100 and 900", wins.Load(), conflicts.Load())
	}
	for i := range claimedBy {
		if n := claimedBy[i].Load(); n != 1 {
			t.Fatalf("task %d claimed %d times", i, n)
		}
		ex, err := s.Executions(ctx, ids[i])
		if err != nil || len(ex) != 1 {
			t.Fatalf("task %d has %d executions (%v)", i, len(ex), err)
		}
	}
}

func TestTransitionThroughStoreRecordsEventOrChangesNothing(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	for _, from := range task.Statuses {
		for _, to := range task.Statuses {
			t.Run(string(from)+"→"+string(to), func(t *testing.T) {
				tk := mustCreate(t, s, task.NewTask{Draft: true})
				forceStatus(t, s, tk.ID, from)
				before := snap(t, s, tk.ID)
				got, err := s.Transition(ctx, tk.ID, to, TransitionNote{Reason: "test", Error: "boom"})
				legal := task.CanTransition(from, to) && to != task.StatusOngoing
				if from == task.StatusArchived {
					legal = to == before.Task.PrevStatus
				}
				if !legal {
					if !errors.Is(err, task.ErrIllegalTransition) {
						t.Fatalf("want illegal transition, got %v", err)
					}
					assertUnchanged(t, s, before)
					return
				}
				if err != nil {
					t.Fatalf("legal transition refused: %v", err)
				}
				if got.Status != to {
					t.Fatalf("status = %s", got.Status)
				}
				evs, _ := s.Events(ctx, tk.ID, before.Task.UpdatedAt)
				last := evs[len(evs)-1]
				if p, ok := last.Data.(task.StatusChanged); !ok || p.From != from || p.To != to {
					t.Fatalf("last event = %s %+v", last.Kind(), last.Data)
				}
			})
		}
	}
}

func TestArchiveUnarchiveReturnsToPreviousStatus(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	for _, st := range []task.Status{task.StatusDraft, task.StatusDone, task.StatusFailed, task.StatusStopped, task.StatusAccepted, task.StatusRejected} {
		tk := mustCreate(t, s, task.NewTask{Draft: true})
		forceStatus(t, s, tk.ID, st)
		a, err := s.Archive(ctx, tk.ID)
		if err != nil || a.Status != task.StatusArchived || a.PrevStatus != st {
			t.Fatalf("archive %s: %+v %v", st, a, err)
		}
		u, err := s.Unarchive(ctx, tk.ID)
		if err != nil || u.Status != st || u.PrevStatus != "" {
			t.Fatalf("unarchive %s: %+v %v", st, u, err)
		}
		before := snap(t, s, tk.ID)
		if _, err := s.Unarchive(ctx, tk.ID); !isStatusErr(err) {
			t.Fatalf("unarchive a %s task: want StatusError, got %v", st, err)
		}
		assertUnchanged(t, s, before)
	}
	p := mustCreate(t, s, task.NewTask{})
	before := snap(t, s, p.ID)
	if _, err := s.Archive(ctx, p.ID); !errors.Is(err, task.ErrIllegalTransition) {
		t.Fatalf("archive pending: %v", err)
	}
	assertUnchanged(t, s, before)
}

func TestListByLabelAndQueueOrder(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	a := mustCreate(t, s, task.NewTask{Title: "a", Labels: []string{"ui", "x%"}})
	b := mustCreate(t, s, task.NewTask{Title: "b", Priority: 2, Labels: []string{"ui"}})
	mustCreate(t, s, task.NewTask{Title: "c", Labels: []string{"uix"}})
	got, err := s.ListTasks(ctx, Filter{Label: "ui", Queue: true})
	if err != nil || len(got) != 2 || got[0].ID != b.ID || got[1].ID != a.ID {
		t.Fatalf("label ui in queue order = %v, %v", got, err)
	}
	if got, _ := s.ListTasks(ctx, Filter{Label: "x%"}); len(got) != 1 || got[0].ID != a.ID {
		t.Fatalf("label x%% = %v", got)
	}
}
