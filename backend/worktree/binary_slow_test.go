//go:build slow

package worktree_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

// A 50 MB binary file, committed and left over, is listed as binary, its
// patch is one line, it is saved on the leftovers branch and the prompt
// diff stays small.
func TestFiftyMegabyteBinary(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "big")
	data := make([]byte, 50<<20)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(data)
	data[0] = 0
	if err := os.WriteFile(filepath.Join(wt.Dir, "committed.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, wt.Dir, "big binary")
	data[1]++
	if err := os.WriteFile(filepath.Join(wt.Dir, "left over.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}

	files, err := m.Files(t.Context(), repo, wt.BaseSHA, wt.Branch)
	if err != nil || len(files) != 1 || !files[0].Binary || files[0].Status != worktree.Added {
		t.Fatalf("files = %+v %v", files, err)
	}
	p, err := m.FilePatch(t.Context(), repo, wt.BaseSHA, wt.Branch, "committed.bin")
	if err != nil || len(p) > 1000 || !strings.Contains(p, "Binary files") {
		t.Fatalf("patch (%d bytes) = %.200q %v", len(p), p, err)
	}
	var rec recorder
	prompt, err := m.PromptDiff(t.Context(), wt, 0, rec.log)
	if err != nil || len(prompt) > 2000 || !strings.Contains(prompt, "Binary files") || !strings.Contains(prompt, "left over.bin") {
		t.Fatalf("prompt (%d bytes) = %.500q %v", len(prompt), prompt, err)
	}
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || !rep.DirRemoved {
		t.Fatalf("report = %+v %v", rep, err)
	}
	size := sh(t, repo, "cat-file", "-s", rep.LeftoversSHA+":left over.bin")
	if size != "52428800" {
		t.Fatalf("saved size = %s", size)
	}
}
