package worktree_test

import (
	"time"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

// On a clean worktree, a read-only step that only reads (it may rebuild
// ignored files and refresh the index with git status) leaves no stray
// ref and the snapshot stays as it was.
func TestQuickGuardUnchanged(t *testing.T) {
	m, wt, snap := cleanGuardFixture(t)
	write(t, filepath.Join(wt.Dir, "build.log"), "rebuilt\n")
	sh(t, wt.Dir, "status", "--short")
	st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
	if err != nil || len(st.Files) != 0 || st.Ref != "" || st.HeadMoved {
		t.Fatalf("stray %+v %v", st, err)
	}
	if got := sh(t, wt.Repo, "for-each-ref", "refs/boof-runner/"); got != "" {
		t.Errorf("a stray ref for a step that changed nothing: %s", got)
	}
}

// On a clean worktree, every kind of change is still found, saved with
// the state before (HEAD's tree) as first parent, and reverted.
func TestQuickGuardSavesAndReverts(t *testing.T) {
	cases := map[string]struct {
		change func(t *testing.T, dir string)
		files  string
		moved  bool
	}{
		"edit": {func(t *testing.T, dir string) { write(t, filepath.Join(dir, "a.txt"), "edited\n") }, "a.txt", false},
		"untracked": {func(t *testing.T, dir string) { write(t, filepath.Join(dir, "new", "n.txt"), "new\n") },
			"new/n.txt", false},
		"delete": {func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
				t.Fatal(err)
			}
		}, "b.txt", false},
		"index only": {func(t *testing.T, dir string) { sh(t, dir, "rm", "-q", "--cached", "b.txt") }, "", false},
		"commit": {func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "c.txt"), "c\n")
			sh(t, dir, "add", "c.txt")
			sh(t, dir, "commit", "-qm", "reviewer commit")
		}, "c.txt", true},
		"detach": {func(t *testing.T, dir string) { sh(t, dir, "checkout", "-q", "--detach", "HEAD~1") }, "b.txt", true},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m, wt, snap := cleanGuardFixture(t)
			head := sh(t, wt.Dir, "rev-parse", "HEAD")
			c.change(t, wt.Dir)
			st, err := m.Restore(t.Context(), wt, snap, "observer-1")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(st.Files, ",") != c.files || st.HeadMoved != c.moved || len(st.Unreverted) != 0 || st.Ref == "" {
				t.Fatalf("stray %+v, want files %q moved %v", st, c.files, c.moved)
			}
			if got, want := sh(t, wt.Repo, "rev-parse", st.SHA+"^1^{tree}"), sh(t, wt.Repo, "rev-parse", head+"^{tree}"); got != want {
				t.Errorf("state before the step %s, want HEAD's tree %s", got, want)
			}
			if got := sh(t, wt.Dir, "status", "--porcelain", "--untracked-files=all"); got != "" {
				t.Errorf("not reverted: %s", got)
			}
			if sh(t, wt.Dir, "rev-parse", "HEAD") != head || sh(t, wt.Dir, "symbolic-ref", "HEAD") != "refs/heads/"+wt.Branch {
				t.Error("HEAD not put back")
			}
			if read(t, filepath.Join(wt.Dir, "build.log")) != "ignored\n" {
				t.Error("an ignored file was touched")
			}
			again, err := m.Snapshot(t.Context(), wt)
			if err != nil || again != snap {
				t.Errorf("state after revert %+v, want %+v (%v)", again, snap, err)
			}
		})
	}
}

// agedGuardFixture is guardFixture once its files' change times are old
// enough for stat data to prove them unchanged, with the git calls of the
// manager logged to the returned file.
func agedGuardFixture(t *testing.T) (*worktree.Manager, worktree.Worktree, worktree.Snapshot, string) {
	t.Helper()
	_, wt, _ := guardFixture(t)
	time.Sleep(120 * time.Millisecond) // past the guard's 50 ms margin
	m, log := loggedManager(t)
	snap, err := m.Snapshot(t.Context(), wt)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Probe == "" || snap.Clean || worktree.KeptFiles(snap) != 2 {
		t.Fatalf("aged worktree with changes recorded as %+v", snap)
	}
	if err := os.Truncate(log, 0); err != nil {
		t.Fatal(err)
	}
	return m, wt, snap, log
}

// A read-only step on a worktree with uncommitted work that changed
// nothing is cleared by one git status; a same-size rewrite of a file that
// was already changed (which git status alone would not show) is found.
func TestQuickGuardWithChanges(t *testing.T) {
	t.Run("unchanged", func(t *testing.T) {
		m, wt, snap, log := agedGuardFixture(t)
		write(t, filepath.Join(wt.Dir, "build.log"), "rebuilt\n")
		st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
		if err != nil || len(st.Files) != 0 || st.Ref != "" {
			t.Fatalf("stray %+v %v", st, err)
		}
		if calls := strings.TrimSpace(read(t, log)); strings.Count(calls, "\n") != 0 || !strings.Contains(calls, "status") {
			t.Errorf("the unchanged check ran %q, want one git status", calls)
		}
	})
	for name, path := range map[string]string{"changed file": "a.txt", "untracked file": "notes.txt"} {
		t.Run("same-size rewrite of an "+name, func(t *testing.T) {
			m, wt, snap, _ := agedGuardFixture(t)
			before := read(t, filepath.Join(wt.Dir, path))
			write(t, filepath.Join(wt.Dir, path), strings.ToUpper(before))
			st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
			if err != nil || strings.Join(st.Files, ",") != path || st.Ref == "" {
				t.Fatalf("stray %+v %v, want %s", st, err, path)
			}
			if got := read(t, filepath.Join(wt.Dir, path)); got != before {
				t.Errorf("%s is %q, want %q put back", path, got, before)
			}
		})
	}
}

// A commit a read-only step makes inside a submodule whose commit already
// differed changes no stat data in the worktree: the full record finds it.
func TestQuickGuardSubmoduleCommit(t *testing.T) {
	m, wt := guardWorktree(t)
	lib := t.TempDir()
	sh(t, lib, "init", "-q", "-b", "main")
	write(t, filepath.Join(lib, "l.txt"), "lib\n")
	commitAll(t, lib, "lib")
	sh(t, wt.Dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	commitAll(t, wt.Dir, "add lib")
	sub := filepath.Join(wt.Dir, "lib")
	write(t, filepath.Join(sub, "l.txt"), "moved\n")
	commitAll(t, sub, "moved before the step")
	time.Sleep(120 * time.Millisecond)
	snap, err := m.Snapshot(t.Context(), wt)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(sub, "l.txt"), "moved again by the step\n")
	commitAll(t, sub, "moved by the step")
	st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(st.Files, ",") != "lib" || st.Ref == "" {
		t.Fatalf("stray %+v, want the submodule lib saved", st)
	}
}
