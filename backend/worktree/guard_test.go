package worktree_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

// guardFixture provisions a task worktree with a committed file, an
// uncommitted change (the developer's leftovers), an untracked file and an
// ignored one, and snapshots it.
func guardFixture(t *testing.T) (*worktree.Manager, worktree.Worktree, worktree.Snapshot) {
	return guardFixtureOf(t, false)
}

// guardFixtureOf is guardFixture; full adds more untracked files than the
// guard keeps aside (many/), so the snapshot writes its trees at once.
func guardFixtureOf(t *testing.T, full bool) (*worktree.Manager, worktree.Worktree, worktree.Snapshot) {
	t.Helper()
	m, wt := guardWorktree(t)
	write(t, filepath.Join(wt.Dir, "a.txt"), "one\nuncommitted\n")
	write(t, filepath.Join(wt.Dir, "notes.txt"), "untracked\n")
	write(t, filepath.Join(wt.Dir, "build.log"), "ignored\n")
	for i := 0; full && i < 70; i++ {
		write(t, filepath.Join(wt.Dir, "many", fmt.Sprintf("f%02d.txt", i)), "many\n")
	}
	snap, err := m.Snapshot(t.Context(), wt)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Clean || full != (snap.Files != "") || full == (worktree.KeptFiles(snap) == 2) {
		t.Fatalf("a worktree with changes (full record %v) recorded as %+v", full, snap)
	}
	return m, wt, snap
}

// bothRecords runs f on a worktree with uncommitted work recorded by
// keeping its few changed files aside and by writing its trees.
func bothRecords(t *testing.T, f func(t *testing.T, m *worktree.Manager, wt worktree.Worktree, snap worktree.Snapshot)) {
	for _, full := range []bool{false, true} {
		t.Run(map[bool]string{false: "kept", true: "full"}[full], func(t *testing.T) {
			m, wt, snap := guardFixtureOf(t, full)
			f(t, m, wt, snap)
		})
	}
}

// cleanGuardFixture is a task worktree whose work is all committed (an
// ignored file aside), snapshotted: the guard's quick path.
func cleanGuardFixture(t *testing.T) (*worktree.Manager, worktree.Worktree, worktree.Snapshot) {
	t.Helper()
	m, wt := guardWorktree(t)
	write(t, filepath.Join(wt.Dir, "build.log"), "ignored\n")
	snap, err := m.Snapshot(t.Context(), wt)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Clean || snap.Head != sh(t, wt.Dir, "rev-parse", "HEAD") || snap.HeadRef != "refs/heads/"+wt.Branch {
		t.Fatalf("a clean worktree recorded as %+v", snap)
	}
	return m, wt, snap
}

// guardWorktree provisions a task worktree with the developer's commit.
func guardWorktree(t *testing.T) (*worktree.Manager, worktree.Worktree) {
	t.Helper()
	repo := newRepo(t)
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t1"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "b.txt"), "dev\n")
	commitAll(t, wt.Dir, "dev work")
	return m, wt
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A read-only step that changed nothing (it may touch ignored files, the
// index's stat data, /tmp) leaves no stray ref.
func TestRestoreUnchanged(t *testing.T) {
	bothRecords(t, func(t *testing.T, m *worktree.Manager, wt worktree.Worktree, snap worktree.Snapshot) {
		write(t, filepath.Join(wt.Dir, "build.log"), "rebuilt\n")
		sh(t, wt.Dir, "status", "--short")
		st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
		if err != nil || len(st.Files) != 0 || st.Ref != "" || st.HeadMoved {
			t.Fatalf("stray %+v %v", st, err)
		}
	})
}

// Everything a read-only step changed — a tracked file edited, one
// deleted, a new file, a commit on the task branch, a staged change — is
// saved on the stray ref and reverted; ignored files are left alone.
func TestRestoreSavesAndReverts(t *testing.T) {
	bothRecords(t, testRestoreSavesAndReverts)
}

func testRestoreSavesAndReverts(t *testing.T, m *worktree.Manager, wt worktree.Worktree, snap worktree.Snapshot) {
	head := sh(t, wt.Dir, "rev-parse", "HEAD")
	write(t, filepath.Join(wt.Dir, "a.txt"), "rewritten by the reviewer\n")
	if err := os.Remove(filepath.Join(wt.Dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "sub", "new.txt"), "new\n")
	write(t, filepath.Join(wt.Dir, "c.txt"), "committed by the reviewer\n")
	sh(t, wt.Dir, "add", "c.txt")
	sh(t, wt.Dir, "commit", "-qm", "reviewer commit")
	reviewerCommit := sh(t, wt.Dir, "rev-parse", "HEAD")
	write(t, filepath.Join(wt.Dir, "b.txt"), "staged\n")
	sh(t, wt.Dir, "add", "b.txt")
	write(t, filepath.Join(wt.Dir, "build.log"), "rebuilt\n")

	st, err := m.Restore(t.Context(), wt, snap, "reviewer-1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(st.Files, ",") != "a.txt,b.txt,c.txt,notes.txt,sub/new.txt" || !st.HeadMoved || len(st.Unreverted) != 0 {
		t.Fatalf("stray %+v", st)
	}
	if st.Ref != "refs/boof-runner/t1/stray/reviewer-1" || sh(t, wt.Repo, "rev-parse", st.Ref) != st.SHA {
		t.Fatalf("ref %s %s", st.Ref, st.SHA)
	}
	// The stray commit holds the changed state; its first parent the state before.
	if got := sh(t, wt.Repo, "show", st.SHA+":a.txt"); got != "rewritten by the reviewer" {
		t.Errorf("stray a.txt %q", got)
	}
	if got := sh(t, wt.Repo, "show", st.SHA+"^1:a.txt"); got != "one\nuncommitted" {
		t.Errorf("before a.txt %q", got)
	}
	if got := sh(t, wt.Repo, "show", st.SHA+"^1:notes.txt"); got != "untracked" {
		t.Errorf("before notes.txt %q", got)
	}
	if got := sh(t, wt.Repo, "rev-parse", st.SHA+"^2"); got != reviewerCommit {
		t.Errorf("second parent %s, want the reviewer's commit %s", got, reviewerCommit)
	}
	// The worktree is as before.
	if got := sh(t, wt.Dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD %s, want %s", got, head)
	}
	if got := sh(t, wt.Dir, "symbolic-ref", "HEAD"); got != "refs/heads/"+wt.Branch {
		t.Errorf("HEAD on %s", got)
	}
	if read(t, filepath.Join(wt.Dir, "a.txt")) != "one\nuncommitted\n" || read(t, filepath.Join(wt.Dir, "notes.txt")) != "untracked\n" ||
		read(t, filepath.Join(wt.Dir, "b.txt")) != "dev\n" || exists(filepath.Join(wt.Dir, "c.txt")) || exists(filepath.Join(wt.Dir, "sub")) {
		t.Errorf("files not reverted: %s", sh(t, wt.Dir, "status", "--short"))
	}
	if got := sh(t, wt.Dir, "diff", "--cached", "--name-only"); got != "" {
		t.Errorf("index not reverted: staged %q", got)
	}
	if read(t, filepath.Join(wt.Dir, "build.log")) != "rebuilt\n" {
		t.Error("an ignored file was reverted")
	}
	again, err := m.Snapshot(t.Context(), wt) // the revert rewrote files: their stat data differs
	if err != nil || !worktree.SameSnapshot(again, snap) {
		t.Errorf("state after revert %+v, want %+v (%v)", again, snap, err)
	}
}

// A file the revert cannot remove (immutable) is reported, the rest is
// reverted, and the change is on the stray ref all the same.
func TestRestoreReportsWhatItCannotRevert(t *testing.T) {
	m, wt, snap := guardFixture(t)
	locked := filepath.Join(wt.Dir, "locked.txt")
	write(t, locked, "cannot be removed\n")
	write(t, filepath.Join(wt.Dir, "a.txt"), "changed\n")
	if err := exec.Command("chattr", "+i", locked).Run(); err != nil {
		t.Skipf("chattr +i: %v (needs CAP_LINUX_IMMUTABLE on ext4)", err)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", locked).Run() })
	st, err := m.Restore(t.Context(), wt, snap, "observer-1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(st.Unreverted, ",") != "locked.txt" || !strings.Contains(st.Problem, "locked.txt") || st.Ref == "" {
		t.Fatalf("stray %+v", st)
	}
	if read(t, filepath.Join(wt.Dir, "a.txt")) != "one\nuncommitted\n" {
		t.Error("a.txt not reverted")
	}
	if got := sh(t, wt.Repo, "show", st.SHA+":locked.txt"); got != "cannot be removed" {
		t.Errorf("stray ref lacks locked.txt: %q", got)
	}
}
