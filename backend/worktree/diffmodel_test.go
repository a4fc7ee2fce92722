package worktree_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

const twoHunks = `diff --git a/f.go b/f.go
index 1111111..2222222 100644
--- a/f.go
+++ b/f.go
@@ -1,3 +1,4 @@ package f
 a
-b
+B
+B2
 c
@@ -10 +11,2 @@ func Tail() {
-j
\ No newline at end of file
+J
+K
\ No newline at end of file
`

func TestParseHunksNumbersEveryLine(t *testing.T) {
	hs, next := worktree.ParseHunks(twoHunks, worktree.Window{})
	if next != nil || len(hs) != 2 {
		t.Fatalf("hunks %d next %+v", len(hs), next)
	}
	L := func(k worktree.LineKind, o, n int, text string) worktree.DiffLine {
		return worktree.DiffLine{Kind: k, Old: o, New: n, Text: text}
	}
	want0 := worktree.DiffHunk{Index: 1, Header: "@@ -1,3 +1,4 @@ package f", Section: "package f", OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 4, Count: 5,
		Lines: []worktree.DiffLine{L("context", 1, 1, "a"), L("del", 2, 0, "b"), L("add", 0, 2, "B"), L("add", 0, 3, "B2"), L("context", 3, 4, "c")}}
	if !reflect.DeepEqual(hs[0], want0) {
		t.Fatalf("hunk 1:\n%+v\nwant\n%+v", hs[0], want0)
	}
	noNL := func(l worktree.DiffLine) worktree.DiffLine { l.NoNewline = true; return l }
	want1 := worktree.DiffHunk{Index: 2, Header: "@@ -10 +11,2 @@ func Tail() {", Section: "func Tail() {", OldStart: 10, OldLines: 1, NewStart: 11, NewLines: 2, Count: 3,
		Lines: []worktree.DiffLine{noNL(L("del", 10, 0, "j")), L("add", 0, 11, "J"), noNL(L("add", 0, 12, "K"))}}
	if !reflect.DeepEqual(hs[1], want1) {
		t.Fatalf("hunk 2:\n%+v\nwant\n%+v", hs[1], want1)
	}
}

// Windows of any size page through the same lines as one whole read,
// each starting where the one before said.
func TestParseHunksWindows(t *testing.T) {
	whole, _ := worktree.ParseHunks(twoHunks, worktree.Window{})
	var all []worktree.DiffLine
	for _, h := range whole {
		all = append(all, h.Lines...)
	}
	for size := 1; size <= len(all)+1; size++ {
		var got []worktree.DiffLine
		w := &worktree.Window{Max: size}
		for pages := 0; w != nil; pages++ {
			if pages > len(all) {
				t.Fatalf("size %d: no end", size)
			}
			hs, next := worktree.ParseHunks(twoHunks, *w)
			n := 0
			for i, h := range hs {
				if h.Count != whole[i].Count || h.Header != whole[i].Header {
					t.Fatalf("size %d: outline of hunk %d differs: %+v", size, i+1, h)
				}
				if len(h.Lines) > 0 && (i < w.Hunk || i == w.Hunk && h.FirstLine != w.Line) {
					t.Fatalf("size %d: window %+v starts at hunk %d line %d", size, *w, i, h.FirstLine)
				}
				n += len(h.Lines)
				got = append(got, h.Lines...)
			}
			if n > size {
				t.Fatalf("size %d: %d lines in one window", size, n)
			}
			w = next
		}
		if !reflect.DeepEqual(got, all) {
			t.Fatalf("size %d: paged lines\n%+v\nwant\n%+v", size, got, all)
		}
	}
}

// On real patches (a rename with edits, lines that look like headers, an
// added file, CRLF text), ParseHunks finds the hunks review.SplitPatch
// finds, and its lines add up to the hunk's ranges.
func TestParseHunksAgreesWithSplitPatch(t *testing.T) {
	repo := t.TempDir()
	sh(t, repo, "init", "-q", "-b", "main")
	var long strings.Builder
	for i := range 60 {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	os.WriteFile(filepath.Join(repo, "old.txt"), []byte(long.String()), 0o644)
	os.WriteFile(filepath.Join(repo, "crlf.txt"), []byte("a\r\nb\r\n"), 0o644)
	sh(t, repo, "add", "-A")
	sh(t, repo, "commit", "-qm", "base")
	base := sh(t, repo, "rev-parse", "HEAD")
	sh(t, repo, "mv", "old.txt", "new.txt")
	edited := strings.Replace(long.String(), "line 3\n", "@@ -1 +1 @@ not a header\n", 1)
	edited = strings.Replace(edited, "line 50\n", "+line fifty\n", 1)
	os.WriteFile(filepath.Join(repo, "new.txt"), []byte(edited), 0o644)
	os.WriteFile(filepath.Join(repo, "crlf.txt"), []byte("a\r\nB\r\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "added.md"), []byte("# hi\n\n-- x\n"), 0o644)
	sh(t, repo, "add", "-A")
	sh(t, repo, "commit", "-qm", "change")
	m := newManager()
	ctx := context.Background()
	files, err := m.Files(ctx, repo, base, "HEAD")
	if err != nil || len(files) != 3 {
		t.Fatalf("files %+v %v", files, err)
	}
	for _, f := range files {
		p, err := m.ChangePatch(ctx, repo, base, "HEAD", f)
		if err != nil {
			t.Fatal(err)
		}
		_, split := review.SplitPatch(p)
		hs, _ := worktree.ParseHunks(p, worktree.Window{})
		if len(hs) != len(split) || len(hs) == 0 {
			t.Fatalf("%s: %d hunks, SplitPatch %d", f.Path, len(hs), len(split))
		}
		for i, h := range hs {
			if h.Index != split[i].Index || h.Header != split[i].Header || h.NewStart != split[i].NewStart {
				t.Fatalf("%s hunk %d: %+v vs %+v", f.Path, i+1, h, split[i])
			}
			var old, nw int
			for _, l := range h.Lines {
				if l.Kind != worktree.LineAdded {
					old++
				}
				if l.Kind != worktree.LineDeleted {
					nw++
				}
			}
			if old != h.OldLines || nw != h.NewLines || h.Count != len(h.Lines) {
				t.Fatalf("%s hunk %d: %d old and %d new lines for %s", f.Path, i+1, old, nw, h.Header)
			}
		}
		if f.Path == "crlf.txt" && hs[0].Lines[len(hs[0].Lines)-1].Text != "B\r" {
			t.Fatalf("crlf line %q", hs[0].Lines[len(hs[0].Lines)-1].Text)
		}
	}
}
