package worktree_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

// keptFixture is a worktree with uncommitted work (a.txt changed, the
// untracked notes.txt, script.sh and the link ln) recorded at once, while
// its files' change times are too fresh for stat data to prove anything:
// the snapshot keeps the listed files aside. The manager's git calls are
// logged to the returned file.
func keptFixture(t *testing.T) (*worktree.Manager, worktree.Worktree, worktree.Snapshot, string) {
	t.Helper()
	_, wt := guardWorktree(t)
	write(t, filepath.Join(wt.Dir, "a.txt"), "one\nuncommitted\n")
	write(t, filepath.Join(wt.Dir, "notes.txt"), "untracked\n")
	write(t, filepath.Join(wt.Dir, "script.sh"), "echo hi\n")
	if err := os.Symlink("notes.txt", filepath.Join(wt.Dir, "ln")); err != nil {
		t.Fatal(err)
	}
	m, log := loggedManager(t)
	snap, err := m.Snapshot(t.Context(), wt)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Clean || snap.Files != "" || worktree.KeptFiles(snap) != 4 {
		t.Fatalf("a fresh worktree with 4 changed paths recorded as %+v (%d kept)", snap, worktree.KeptFiles(snap))
	}
	if calls := strings.TrimSpace(read(t, log)); strings.Contains(calls, "\n") {
		t.Fatalf("the snapshot ran %q, want one git status", calls)
	}
	if err := os.Truncate(log, 0); err != nil {
		t.Fatal(err)
	}
	return m, wt, snap, log
}

// A read-only step that left the kept files as they were — rewritten with
// the same content, or not touched — is cleared by one git status and a
// read of the kept files, even when stat data proves nothing.
func TestKeptRecordUnchanged(t *testing.T) {
	m, wt, snap, log := keptFixture(t)
	write(t, filepath.Join(wt.Dir, "a.txt"), "one\nuncommitted\n") // same content, new stat data
	write(t, filepath.Join(wt.Dir, "build.log"), "rebuilt\n")      // ignored
	st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
	if err != nil || len(st.Files) != 0 || st.Ref != "" || st.HeadMoved {
		t.Fatalf("stray %+v %v", st, err)
	}
	if calls := strings.TrimSpace(read(t, log)); strings.Contains(calls, "\n") || !strings.Contains(calls, "status") {
		t.Errorf("the unchanged check ran %q, want one git status", calls)
	}
}

// Each kind of change to a kept record is found, saved with the state
// before (HEAD's tree and the kept files) as the first parent, and
// reverted: content, a mode bit, a link's target, a deletion, a new file.
func TestKeptRecordFindsEveryChange(t *testing.T) {
	for _, c := range []struct {
		name, path string
		change     func(t *testing.T, dir string)
	}{
		{"same-size edit of a changed file", "a.txt", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "a.txt"), "ONE\nUNCOMMITTED\n")
		}},
		{"same-size edit of an untracked file", "notes.txt", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "notes.txt"), "UNTRACKED\n")
		}},
		{"an untracked file made executable", "script.sh", func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "script.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"a link pointed elsewhere", "ln", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "ln")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("a.txt", filepath.Join(dir, "ln")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a changed file deleted", "a.txt", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "a.txt")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a new file", "new.txt", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "new.txt"), "new\n")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, wt, snap, _ := keptFixture(t)
			c.change(t, wt.Dir)
			st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
			if err != nil || strings.Join(st.Files, ",") != c.path || st.Ref == "" || len(st.Unreverted) != 0 {
				t.Fatalf("stray %+v %v, want %s saved and reverted", st, err, c.path)
			}
			before := st.SHA + "^1"
			for path, want := range map[string]string{"a.txt": "one\nuncommitted", "notes.txt": "untracked", "script.sh": "echo hi", "ln": "notes.txt", "b.txt": "dev"} {
				if got := sh(t, wt.Repo, "show", before+":"+path); got != want {
					t.Errorf("before %s: %q, want %q", path, got, want)
				}
			}
			if modes := sh(t, wt.Repo, "ls-tree", before, "script.sh", "ln"); !strings.Contains(modes, "100644 blob") || !strings.Contains(modes, "120000 blob") {
				t.Errorf("before modes:\n%s", modes)
			}
			if read(t, filepath.Join(wt.Dir, "a.txt")) != "one\nuncommitted\n" || read(t, filepath.Join(wt.Dir, "notes.txt")) != "untracked\n" || exists(filepath.Join(wt.Dir, "new.txt")) {
				t.Errorf("not reverted: %s", sh(t, wt.Dir, "status", "--short"))
			}
			if target, err := os.Readlink(filepath.Join(wt.Dir, "ln")); err != nil || target != "notes.txt" {
				t.Errorf("ln → %q %v", target, err)
			}
		})
	}
}

// The state before is hashed as git add would: through the filters the
// repository's attributes name (here end-of-line normalisation).
func TestKeptRecordAppliesFilters(t *testing.T) {
	_, wt := guardWorktree(t)
	write(t, filepath.Join(wt.Dir, ".gitattributes"), "*.crlf text eol=crlf\n")
	commitAll(t, wt.Dir, "attributes")
	write(t, filepath.Join(wt.Dir, "w.crlf"), "a\r\nb\r\n")
	m := newManager()
	snap, err := m.Snapshot(t.Context(), wt)
	if err != nil || worktree.KeptFiles(snap) != 1 {
		t.Fatalf("snapshot %+v %v", snap, err)
	}
	write(t, filepath.Join(wt.Dir, "x.txt"), "stray\n")
	st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
	if err != nil || strings.Join(st.Files, ",") != "x.txt" {
		t.Fatalf("stray %+v %v", st, err)
	}
	sh(t, wt.Dir, "add", "w.crlf")
	if got, want := sh(t, wt.Repo, "rev-parse", st.SHA+"^1:w.crlf"), sh(t, wt.Dir, "rev-parse", ":w.crlf"); got != want {
		t.Errorf("before w.crlf is blob %s, git add makes %s", got, want)
	}
}
