package app

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Comments anchored to a line, a range of lines and a deleted line, named
// by the hunk numbers and line numbers of the diff model (no hunk text,
// as the new diff view sends them), reach the developer's prompt naming
// the file, the hunk and the lines, with the commented lines quoted; the
// draft the review was written in is gone once it is sent.
func TestLineCommentsReachTheDeveloper(t *testing.T) {
	f := startHost(t)
	os.WriteFile(filepath.Join(f.repo, "lib.txt"), []byte(numbered(400)), 0o644)
	git(t, f.repo, "add", "lib.txt")
	git(t, f.repo, "commit", "-q", "-m", "lib")
	a, err := f.tasks.Create(NewTaskInput{Prompt: "Shout some lines of lib.txt"})
	if err != nil {
		t.Fatal(err)
	}
	done := f.waitStatus(t, a.ID, task.StatusDone)
	// Hunk 1 changes lines 3 and 4; hunk 2 rewrites 300 lines (a big hunk,
	// quoted around the comment only), deleting line 362.
	big := numbered(400, 3, 4)
	big = strings.Replace(big, "line 362\n", "", 1)
	for i := 60; i < 360; i++ {
		big = strings.Replace(big, "line "+strconv.Itoa(i)+"\n", "LINE "+strconv.Itoa(i)+"\n", 1)
	}
	commitOnBranch(t, f.repo, done.Branch, map[string]string{"lib.txt": big})

	g := gitx.New()
	svc := NewReviewService(g, f.st, worktree.NewManager(g, time.Now), review.New(g, time.Now, review.WithJournal(review.NewJournal(t.TempDir(), ""))), f.rec, context.Background,
		WithWake(f.host.Runner.Wake))
	d, err := svc.FileDiff(a.ID, FileDiffRequest{Path: "lib.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Hunks) != 2 {
		t.Fatalf("hunks %+v", d.Hunks)
	}
	h1, h2 := d.Hunks[0], d.Hunks[1]
	comments := []review.Comment{
		{File: "lib.txt", Index: h1.Index, Header: h1.Header, Line: 3, EndLine: 4, Text: "Why are these two shouted?"},
		{File: "lib.txt", Index: h2.Index, Header: h2.Header, Line: 200, Text: "And this one?"},
		{File: "lib.txt", Index: h2.Index, Header: h2.Header, Line: 362, Side: review.SideOld, Text: "Keep line 362."},
	}
	if _, err := svc.SaveDraft(a.ID, review.Draft{Head: d.Head, Comments: comments}); err != nil {
		t.Fatal(err)
	}
	stateBase := filepath.Join(filepath.Dir(f.repo), "data", "mock-state")
	before := receivedIn(t, stateBase, done.WorktreePath)
	if _, err := svc.RequestChanges(a.ID, review.ChangeRequest{Comments: comments}); err != nil {
		t.Fatal(err)
	}
	if dr, _ := svc.Draft(a.ID); len(dr.Comments) != 0 {
		t.Fatalf("the sent draft is still there: %+v", dr)
	}
	f.waitStatus(t, a.ID, task.StatusDone)
	var dev string
	for _, r := range receivedIn(t, stateBase, done.WorktreePath)[len(before):] {
		if r.Role == task.RoleDeveloper {
			dev = r.Prompt
			break
		}
	}
	for _, want := range []string{
		"1. `lib.txt`, hunk 1 `" + h1.Header + "`, lines 3-4:",
		"+LINE 3\n",
		"Why are these two shouted?",
		"2. `lib.txt`, hunk 2 `" + h2.Header + "`, line 200:",
		"+LINE 200\n",
		"And this one?",
		"3. `lib.txt`, hunk 2 `" + h2.Header + "`, old line 362:",
		"-line 362\n",
		"Keep line 362.",
	} {
		if !strings.Contains(dev, want) {
			t.Fatalf("the developer's prompt lacks %q:\n%s", want, dev)
		}
	}
	if strings.Contains(dev, "LINE 100\n") {
		t.Fatalf("the big hunk was quoted whole:\n%s", dev)
	}
}
