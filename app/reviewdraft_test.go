package app

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// openReviewSvc opens the store at db and a review service over it, as
// the window does at each start.
func openReviewSvc(t *testing.T, db, journal string) (*ReviewService, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g := gitx.New()
	return NewReviewService(g, st, worktree.NewManager(g, time.Now), review.New(g, time.Now, review.WithJournal(review.NewJournal(journal, ""))),
		&RecordingEmitter{}, context.Background), st
}

// Unsent review work survives a restart: the draft saved through the
// bound service comes back from a new store and service over the same
// database, every field as it was; a viewed file whose content changed
// since is unviewed, and the branch's move is said.
func TestReviewDraftSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	db, journal := filepath.Join(dir, "boof.db"), filepath.Join(dir, "journal")
	svc, st := openReviewSvc(t, db, journal)
	tk, repo := reviewedTaskOn(t, st, "Shout", map[string]string{"a.txt": numbered(20), "b.txt": "bee\n"},
		map[string]string{"a.txt": numbered(20, 2, 18), "b.txt": "BEE\n"})
	sum, err := svc.Summary(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	hash := map[string]string{}
	for _, f := range sum.Files {
		hash[f.Path] = f.Hash
	}
	d := review.Draft{
		Head:    sum.Head,
		General: "Nearly there.",
		Comments: []review.Comment{
			{File: "a.txt", Index: 1, Header: "@@ -1,5 +1,5 @@", Line: 2, EndLine: 3, Text: "Why upper case?"},
			{File: "a.txt", Index: 2, Line: 18, Side: review.SideOld, Text: ""}, // still being written
		},
		Drops:  []review.Drop{{File: "b.txt", Index: 1, Header: "@@ -1 +1 @@"}},
		Chosen: []review.Selection{{File: "a.txt", Hunks: []int{2}}},
		Viewed: []review.Viewed{{Path: "a.txt", Hash: hash["a.txt"]}, {Path: "b.txt", Hash: hash["b.txt"]}},
	}
	saved, err := svc.SaveDraft(tk.ID, d)
	if err != nil {
		t.Fatal(err)
	}
	if saved.UpdatedAt.IsZero() {
		t.Fatal("no save time")
	}
	st.Close()

	svc2, _ := openReviewSvc(t, db, journal) // a restart
	got, err := svc2.Draft(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := d
	want.UpdatedAt, want.Unviewed = saved.UpdatedAt, []string{}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after a restart:\n%+v\nwant\n%+v", got, want)
	}

	// b.txt changes on the branch: its mark goes, a.txt's stays.
	commitOnBranch(t, repo, "boof-runner/"+tk.ID, map[string]string{"b.txt": "BUZZ\n"})
	got, err = svc2.Draft(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Moved || !reflect.DeepEqual(got.Viewed, d.Viewed[:1]) || !reflect.DeepEqual(got.Unviewed, []string{"b.txt"}) || len(got.Comments) != 2 {
		t.Fatalf("after the branch moved: %+v", got)
	}
}

// A draft is cleared when it is sent and when the task is accepted; a
// draft that breaks a limit is refused and the one before is kept.
func TestReviewDraftClearedWhenSentOrAccepted(t *testing.T) {
	s := newTestStore(t)
	tk, _ := reviewedTaskOn(t, s, "Shout", map[string]string{"a.txt": numbered(20)}, map[string]string{"a.txt": numbered(20, 2)})
	svc := newReviewSvc(t, s)
	d := review.Draft{General: "keep this", Comments: []review.Comment{{File: "a.txt", Line: 2, Text: "why?"}}}
	if _, err := svc.SaveDraft(tk.ID, d); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []review.Draft{
		{Comments: []review.Comment{{File: "", Line: 3, Text: "no file"}}},
		{Comments: []review.Comment{{File: "a.txt", Line: 5, EndLine: 2, Text: "backwards"}}},
		{Comments: []review.Comment{{File: "a.txt", Line: 5, Side: "left", Text: "side"}}},
		{Drops: []review.Drop{{File: "a.txt"}}},
		{General: strings.Repeat("x", review.MaxCommentText+1)},
	} {
		if _, err := svc.SaveDraft(tk.ID, bad); err == nil || !strings.HasPrefix(err.Error(), "The review draft was not saved: ") {
			t.Fatalf("%+v: %v", bad, err)
		}
	}
	if got, _ := svc.Draft(tk.ID); got.General != "keep this" {
		t.Fatalf("a refused save changed the draft: %+v", got)
	}
	if _, err := svc.SaveDraft("nope", d); err == nil {
		t.Fatal("a draft of no task was saved")
	}

	// Sent: cleared with the request, in its transaction.
	if _, err := svc.RequestChanges(tk.ID, review.ChangeRequest{General: "keep this", Comments: d.Comments}); err != nil {
		t.Fatal(err)
	}
	if got, _ := svc.Draft(tk.ID); got.General != "" || len(got.Comments) != 0 {
		t.Fatalf("the sent draft is still there: %+v", got)
	}

	// Accepted: cleared with the status.
	s2 := newTestStore(t)
	tk2, _ := reviewedTaskOn(t, s2, "Shout", map[string]string{"a.txt": numbered(20)}, map[string]string{"a.txt": numbered(20, 2)})
	svc2 := newReviewSvc(t, s2)
	if _, err := svc2.SaveDraft(tk2.ID, review.Draft{Chosen: []review.Selection{{File: "a.txt"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc2.Accept(tk2.ID, AcceptInput{Strategy: "squash", Target: "main", Only: []review.Selection{{File: "a.txt"}}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := svc2.Draft(tk2.ID); len(got.Chosen) != 0 {
		t.Fatalf("the accepted task's draft is still there: %+v", got)
	}
	if err := svc2.ClearDraft(tk2.ID); err != nil {
		t.Fatal(err)
	}
}
