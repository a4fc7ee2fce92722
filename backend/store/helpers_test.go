package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// clock is a deterministic clock advancing one second per call.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { c.t = c.t.Add(time.Second); return c.t }

func openClock(t *testing.T) (*Store, string) {
	t.Helper()
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	path := filepath.Join(t.TempDir(), "boof.db")
	s, err := Open(context.Background(), path, Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func mustCreate(t *testing.T, s *Store, n task.NewTask) task.Task {
	t.Helper()
	if n.Prompt == "" {
		n.Prompt = "do the thing"
	}
	got, err := s.CreateTask(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// snapshot is everything about a task that an operation might change.
type snapshot struct {
	Task        task.Task
	Sections    []task.Section
	Events      []task.Event
	Executions  []task.Execution
	Attachments []Attachment
}

func snap(t *testing.T, s *Store, id string) snapshot {
	t.Helper()
	ctx := context.Background()
	var sn snapshot
	var err error
	if sn.Task, err = s.GetTask(ctx, id); err != nil {
		t.Fatal(err)
	}
	if sn.Sections, err = s.Sections(ctx, id); err != nil {
		t.Fatal(err)
	}
	if sn.Events, err = s.Events(ctx, id, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if sn.Executions, err = s.Executions(ctx, id); err != nil {
		t.Fatal(err)
	}
	if sn.Attachments, err = s.Attachments(ctx, id); err != nil {
		t.Fatal(err)
	}
	return sn
}

func assertUnchanged(t *testing.T, s *Store, before snapshot) {
	t.Helper()
	after := snap(t, s, before.Task.ID)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("task changed:\nbefore %+v\nafter  %+v", before, after)
	}
}

// forceStatus drives a fresh task into st through legal operations.
func forceStatus(t *testing.T, s *Store, id string, st task.Status) {
	t.Helper()
	ctx := context.Background()
	step := func(to task.Status) {
		t.Helper()
		if _, err := s.Transition(ctx, id, to, TransitionNote{}); err != nil {
			t.Fatalf("→ %s: %v", to, err)
		}
	}
	claim := func() {
		t.Helper()
		if _, err := s.Claim(ctx, id, ClaimInfo{Role: task.RolePlanner}); err != nil {
			t.Fatalf("claim: %v", err)
		}
	}
	cur, err := s.GetTask(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if cur.Status == task.StatusDraft && st != task.StatusDraft {
		step(task.StatusPending)
	}
	switch st {
	case task.StatusDraft:
		if cur.Status == task.StatusPending {
			step(task.StatusDraft)
		}
	case task.StatusPending:
	case task.StatusOngoing:
		claim()
	case task.StatusActions, task.StatusDone, task.StatusFailed, task.StatusStopped:
		claim()
		step(st)
	case task.StatusAccepted, task.StatusRejected:
		claim()
		step(task.StatusDone)
		step(st)
	case task.StatusArchived:
		claim()
		step(task.StatusDone)
		step(task.StatusArchived)
	default:
		t.Fatalf("forceStatus %s", st)
	}
}

func isStatusErr(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && errors.Is(err, ErrWrongStatus)
}
