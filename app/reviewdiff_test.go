package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// diffTask is a done task whose branch renames old.go to new.go with two
// edits 30 lines apart, makes run.sh executable, changes a binary file and
// adds a Makefile.
func diffTask(t *testing.T) (*ReviewService, string, string) {
	t.Helper()
	s := newTestStore(t)
	tk, repo := reviewedTaskOn(t, s, "Rename", map[string]string{"old.go": numbered(60), "run.sh": "echo hi\n", "blob.bin": "a\x00b"},
		map[string]string{"blob.bin": "a\x00c", "Makefile": "all:\n\ttrue\n"})
	git(t, repo, "checkout", "-q", "boof-runner/"+tk.ID)
	git(t, repo, "mv", "old.go", "new.go")
	os.WriteFile(filepath.Join(repo, "new.go"), []byte(numbered(60, 5, 50)), 0o644)
	os.Chmod(filepath.Join(repo, "run.sh"), 0o755)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "more")
	git(t, repo, "checkout", "-q", "main")
	return newReviewSvc(t, s), tk.ID, repo
}

// The diff model gives the new diff view what it needs as data: a rename
// and a mode change without git's header lines, a language hint, the
// content hash of each file, and every hunk line numbered in both
// versions.
func TestFileDiffModel(t *testing.T) {
	svc, id, repo := diffTask(t)
	sum, err := svc.Summary(id)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]DiffFile{}
	for _, f := range sum.Files {
		by[f.Path] = f
	}
	head := git(t, repo, "rev-parse", "boof-runner/"+id)
	if f := by["new.go"]; f.Change != "renamed" || f.OldPath != "old.go" || f.Similarity < 50 || f.Language != "go" || f.Hash != git(t, repo, "rev-parse", head+":new.go") {
		t.Fatalf("new.go: %+v", f)
	}
	if f := by["run.sh"]; !f.ModeChanged || f.OldMode != "100644" || f.NewMode != "100755" || f.Language != "bash" {
		t.Fatalf("run.sh: %+v", f)
	}
	if f := by["Makefile"]; f.Change != "added" || f.Language != "makefile" || f.OldMode != "000000" {
		t.Fatalf("Makefile: %+v", f)
	}

	d, err := svc.FileDiff(id, FileDiffRequest{Path: "new.go"})
	if err != nil {
		t.Fatal(err)
	}
	if d.OldPath != "old.go" || d.Base != sum.Base || d.Head != head || len(d.Hunks) != 2 || d.Next != nil || d.Lines != 16 || d.NewTotal != 60 {
		t.Fatalf("new.go diff: %+v", d)
	}
	h := d.Hunks[1]
	if h.Index != 2 || h.OldStart != 47 || h.NewStart != 47 || h.Count != 8 || len(h.Lines) != 8 {
		t.Fatalf("hunk 2: %+v", h)
	}
	del, add := h.Lines[3], h.Lines[4]
	if del != (worktree.DiffLine{Kind: worktree.LineDeleted, Old: 50, Text: "line 50"}) || add != (worktree.DiffLine{Kind: worktree.LineAdded, New: 50, Text: "LINE 50"}) {
		t.Fatalf("changed line: %+v %+v", del, add)
	}
	for _, h := range d.Hunks {
		for _, l := range h.Lines {
			if strings.HasPrefix(l.Text, "diff --git") || strings.HasPrefix(l.Text, "index ") || strings.HasPrefix(l.Text, "--") || strings.HasPrefix(l.Text, "++") {
				t.Fatalf("a git header line in the model: %+v", l)
			}
		}
	}
	// By the old path too; a mode change alone has no hunks; a binary file none either.
	if o, err := svc.FileDiff(id, FileDiffRequest{Path: "old.go"}); err != nil || o.Path != "new.go" {
		t.Fatalf("by old path: %+v %v", o.DiffFile, err)
	}
	if m, err := svc.FileDiff(id, FileDiffRequest{Path: "run.sh"}); err != nil || len(m.Hunks) != 0 || !m.ModeChanged {
		t.Fatalf("run.sh: %+v %v", m, err)
	}
	if b, err := svc.FileDiff(id, FileDiffRequest{Path: "blob.bin"}); err != nil || !b.Binary || len(b.Hunks) != 0 {
		t.Fatalf("blob.bin: %+v %v", b, err)
	}
	if _, err := svc.FileDiff(id, FileDiffRequest{Path: "README"}); err == nil || !strings.Contains(err.Error(), "not changed") {
		t.Fatalf("an unchanged file: %v", err)
	}
}

// A file of any size is read a window at a time: the windows follow each
// other through Next and hold every line once.
func TestFileDiffWindows(t *testing.T) {
	svc, id, _ := diffTask(t)
	whole, err := svc.FileDiff(id, FileDiffRequest{Path: "new.go"})
	if err != nil {
		t.Fatal(err)
	}
	var want, got []worktree.DiffLine
	for _, h := range whole.Hunks {
		want = append(want, h.Lines...)
	}
	req := FileDiffRequest{Path: "new.go", MaxLines: 4}
	for pages := 0; ; pages++ {
		d, err := svc.FileDiff(id, req)
		if err != nil || pages > 10 {
			t.Fatalf("page %d: %v", pages, err)
		}
		if len(d.Hunks) != 2 || d.Lines != whole.Lines {
			t.Fatalf("page %d outline: %+v", pages, d.Hunks)
		}
		for _, h := range d.Hunks {
			got = append(got, h.Lines...)
		}
		if d.Next == nil {
			break
		}
		req.FromHunk, req.FromLine = d.Next.Hunk, d.Next.Line
	}
	if len(got) != len(want) {
		t.Fatalf("paged %d lines, whole %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// The unchanged lines between hunks expand on click: FileLines reads them
// at the diff's old or new end, by line numbers.
func TestFileLinesExpandsContext(t *testing.T) {
	svc, id, _ := diffTask(t)
	fl, err := svc.FileLines(id, FileLinesRequest{Path: "new.go", Side: "new", From: 9, To: 12})
	if err != nil {
		t.Fatal(err)
	}
	if fl.Total != 60 || fl.From != 9 || fl.To != 12 || strings.Join(fl.Lines, ",") != "line 9,line 10,line 11,line 12" {
		t.Fatalf("new side: %+v", fl)
	}
	fl, err = svc.FileLines(id, FileLinesRequest{Path: "old.go", Side: "old", From: 58})
	if err != nil || fl.To != 60 || strings.Join(fl.Lines, ",") != "line 58,line 59,line 60" {
		t.Fatalf("old side to the end: %+v %v", fl, err)
	}
	if fl, err = svc.FileLines(id, FileLinesRequest{Path: "new.go", Side: "new", From: 70}); err != nil || len(fl.Lines) != 0 || fl.Total != 60 {
		t.Fatalf("past the end: %+v %v", fl, err)
	}
	for _, bad := range []FileLinesRequest{
		{Path: "new.go", Side: "left", From: 1},
		{Path: "new.go", Side: "old", From: 1}, // new.go is not at the old end
		{Path: "README", Side: "new", From: 1},
		{Path: "../etc/passwd", Side: "new", From: 1},
	} {
		_, err := svc.FileLines(id, bad)
		var ue *usererr.Error
		if err == nil || !errors.As(err, &ue) || strings.Contains(ue.Message, "\n") {
			t.Fatalf("%+v: %v", bad, err)
		}
	}
}
