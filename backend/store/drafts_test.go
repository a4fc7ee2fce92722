package store

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// doneForDraft takes a new task to done.
func doneForDraft(t *testing.T, s *Store) task.Task {
	t.Helper()
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{Repo: "/r"})
	if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Transition(ctx, tk.ID, task.StatusDone, TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	return tk
}

func draftOf(t *testing.T, s *Store, id string) string {
	t.Helper()
	d, ok, err := s.ReviewDraft(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return ""
	}
	return string(d.Draft)
}

func TestReviewDraftSaveReplaceClear(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := doneForDraft(t, s)
	if draftOf(t, s, tk.ID) != "" {
		t.Fatal("a new task has a draft")
	}
	if _, err := s.SaveReviewDraft(ctx, tk.ID, json.RawMessage(`{"general":"a"}`)); err != nil {
		t.Fatal(err)
	}
	at, err := s.SaveReviewDraft(ctx, tk.ID, json.RawMessage(`{"general":"b"}`))
	if err != nil || draftOf(t, s, tk.ID) != `{"general":"b"}` {
		t.Fatalf("replace: %v %q", err, draftOf(t, s, tk.ID))
	}
	if d, _, _ := s.ReviewDraft(ctx, tk.ID); !d.UpdatedAt.Equal(at) {
		t.Fatalf("saved at %v, read %v", at, d.UpdatedAt)
	}
	for _, bad := range []string{`[]`, `null`, `"x"`, `{`, `{"general":"` + strings.Repeat("x", MaxDraftBytes) + `"}`} {
		if _, err := s.SaveReviewDraft(ctx, tk.ID, json.RawMessage(bad)); !errors.Is(err, task.ErrInvalid) {
			t.Fatalf("%.20s: %v", bad, err)
		}
	}
	if _, err := s.SaveReviewDraft(ctx, "nope", json.RawMessage(`{}`)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no task: %v", err)
	}
	if draftOf(t, s, tk.ID) != `{"general":"b"}` {
		t.Fatal("a refused save changed the draft")
	}
	if err := s.ClearReviewDraft(ctx, tk.ID); err != nil || draftOf(t, s, tk.ID) != "" {
		t.Fatalf("clear: %v", err)
	}
}

// The draft goes when the user's review is sent, when the task is
// accepted (whoever accepts it) and with the task; a task sent back by
// someone else (the merge queue's verification) keeps it.
func TestReviewDraftClearedWithItsDecision(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	save := func(id string) {
		t.Helper()
		if _, err := s.SaveReviewDraft(ctx, id, json.RawMessage(`{"general":"x"}`)); err != nil {
			t.Fatal(err)
		}
	}
	queued := doneForDraft(t, s)
	save(queued.ID)
	if _, err := s.RequestFix(ctx, FixRequest{TaskID: queued.ID, Body: "## Human review\n\nverify failed", Source: "merge-queue"}); err != nil {
		t.Fatal(err)
	}
	if draftOf(t, s, queued.ID) == "" {
		t.Fatal("a send-back the user did not make cleared the draft")
	}

	sent := doneForDraft(t, s)
	save(sent.ID)
	if _, err := s.RequestFix(ctx, FixRequest{TaskID: sent.ID, Body: "## Human review\n\nx"}); err != nil {
		t.Fatal(err)
	}
	if draftOf(t, s, sent.ID) != "" {
		t.Fatal("the sent review's draft is still there")
	}

	accepted := doneForDraft(t, s)
	save(accepted.ID)
	if _, err := s.Transition(ctx, accepted.ID, task.StatusAccepted, TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	if draftOf(t, s, accepted.ID) != "" {
		t.Fatal("the accepted task's draft is still there")
	}

	deleted := doneForDraft(t, s)
	save(deleted.ID)
	if err := s.DeleteTask(ctx, deleted.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM review_drafts WHERE task_id = ?`, deleted.ID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a deleted task's draft: %d %v", n, err)
	}
}

// undoReviewDrafts drops what the review-drafts migration adds, so that a
// test can take a database back to an older version.
const undoReviewDrafts = `DROP TABLE review_drafts; `
