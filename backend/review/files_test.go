package review

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAcceptHostileNamesBinaryAndRenames brings names with spaces, unicode
// and newlines, a binary file and a rename into a checked-out target.
func TestAcceptHostileNamesBinaryAndRenames(t *testing.T) {
	t.Parallel()
	f := fixture{repo: newRepo(t)}
	big := strings.Repeat("a line long enough to keep the rename similar\n", 20)
	write(t, filepath.Join(f.repo, "old name.txt"), big)
	commitAll(t, f.repo, "main: old name")
	f.mainHead = rev(t, f.repo, "main")
	f.wt = taskWorktree(t, f.repo, "T1")
	names := []string{"with space.txt", "ünïcødé 名前.txt", "new\nline.txt", "dir with space/inner\tfile.md"}
	for _, n := range names {
		write(t, filepath.Join(f.wt, n), "content of "+n+"\n")
	}
	binary := []byte{0, 1, 2, 0xff, 0, 'P', 'N', 'G', 0}
	if err := os.WriteFile(filepath.Join(f.wt, "image.bin"), binary, 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, f.wt, "mv", "old name.txt", "renamed ü.txt")
	f.taskHead = commitAll(t, f.wt, "task: hostile names")
	if !strings.Contains(sh(t, f.repo, "diff", "-M", "--name-status", "main", TaskBranch("T1")), "R100") {
		t.Fatal("fixture has no rename")
	}
	a, err := newService(t).Accept(ctx(t), req(f, StrategyMerge), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rev(t, f.repo, "HEAD") != a.NewSHA {
		t.Fatal("checkout not moved")
	}
	for _, n := range names {
		if got := read(t, filepath.Join(f.repo, n)); got != "content of "+n+"\n" {
			t.Fatalf("%q = %q", n, got)
		}
	}
	if got := read(t, filepath.Join(f.repo, "image.bin")); got != string(binary) {
		t.Fatalf("binary = %q", got)
	}
	if _, err := os.Stat(filepath.Join(f.repo, "old name.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("rename source still on disk")
	}
	if read(t, filepath.Join(f.repo, "renamed ü.txt")) != big {
		t.Fatal("rename target wrong")
	}
	if st := sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=all"); st != "" {
		t.Fatalf("status = %q", st)
	}
}

// TestHostileNamesInConflictsAndDirtyLists checks that odd names come back
// intact in the file lists of refusals.
func TestHostileNamesInConflictsAndDirtyLists(t *testing.T) {
	t.Parallel()
	f := fixture{repo: newRepo(t)}
	odd := "new\nline ü.txt"
	write(t, filepath.Join(f.repo, odd), "base\n")
	commitAll(t, f.repo, "main: odd")
	f.wt = taskWorktree(t, f.repo, "T1")
	write(t, filepath.Join(f.wt, odd), "task\n")
	commitAll(t, f.wt, "task: odd")
	write(t, filepath.Join(f.repo, odd), "local\n")
	_, err := newService(t).Accept(ctx(t), req(f, StrategySquash), nil)
	var de *DirtyError
	if !errors.As(err, &de) || len(de.Files) != 1 || de.Files[0] != odd {
		t.Fatalf("dirty err = %v", err)
	}
	commitAll(t, f.repo, "main: conflicting odd")
	_, err = newService(t).Accept(ctx(t), req(f, StrategySquash), nil)
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Files) != 1 || ce.Files[0] != odd {
		t.Fatalf("conflict err = %v", err)
	}
	if !strings.Contains(err.Error(), `"new\nline ü.txt"`) {
		t.Fatalf("message hides the newline: %v", err)
	}
}

func TestAcceptIncludesLeftovers(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	f.detach(t)
	// Leftovers saved on the task head, as backend/worktree does.
	write(t, filepath.Join(f.wt, "scratch.txt"), "unfinished\n")
	sh(t, f.wt, "switch", "-q", "-c", LeftoversBranch("T1"))
	left := commitAll(t, f.wt, "Leftovers of task T1")
	sh(t, f.wt, "switch", "-q", TaskBranch("T1"))

	r := req(f, StrategySquash)
	s := newService(t)
	p, err := s.Plan(ctx(t), r)
	if err != nil || p.Leftovers != "" {
		t.Fatalf("without the option: leftovers %q, err %v", p.Leftovers, err)
	}
	r.IncludeLeftovers = true
	a, err := s.Accept(ctx(t), r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Leftovers != left || a.TaskHead != f.taskHead {
		t.Fatalf("record = %+v", a)
	}
	if got := sh(t, f.repo, "show", "main:scratch.txt"); got != "unfinished" {
		t.Fatalf("scratch.txt = %q", got)
	}
	if got := sh(t, f.repo, "show", "main:c.txt"); got != "sea" {
		t.Fatalf("c.txt = %q", got)
	}
}

func TestAcceptIncludesStaleLeftovers(t *testing.T) {
	t.Parallel()
	// The task branch moved on after its leftovers were saved (a retry):
	// the leftovers are merged onto the current task head.
	f := newFixture(t, false)
	f.detach(t)
	sh(t, f.wt, "switch", "-q", "-c", LeftoversBranch("T1"))
	write(t, filepath.Join(f.wt, "scratch.txt"), "unfinished\n")
	commitAll(t, f.wt, "Leftovers of task T1")
	sh(t, f.wt, "switch", "-q", TaskBranch("T1"))
	write(t, filepath.Join(f.wt, "retry.txt"), "retry work\n")
	head := commitAll(t, f.wt, "task: retry")

	r := req(f, StrategyRebase)
	r.IncludeLeftovers = true
	a, err := newService(t).Accept(ctx(t), r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.TaskHead != head {
		t.Fatalf("task head = %s", a.TaskHead)
	}
	files := sh(t, f.repo, "ls-tree", "--name-only", "main")
	if files != "a.txt\nb.txt\nc.txt\nretry.txt\nscratch.txt" {
		t.Fatalf("files = %q", files)
	}
	if parent := rev(t, f.repo, "main^"); parent != head {
		t.Fatalf("leftovers commit parent = %s, want the task head", parent)
	}
}

func TestAcceptAfterTaskWorktreeRemoved(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	if err := os.RemoveAll(f.wt); err != nil {
		t.Fatal(err)
	}
	for _, st := range []Strategy{StrategyRebase, StrategyMerge} {
		if st == StrategyMerge {
			sh(t, f.repo, "reset", "-q", "--hard", f.mainHead)
		}
		a, err := newService(t).Accept(ctx(t), req(f, st), nil)
		if err != nil {
			t.Fatalf("%s: %v", st, err)
		}
		if read(t, filepath.Join(f.repo, "c.txt")) != "sea\n" || rev(t, f.repo, "HEAD") != a.NewSHA {
			t.Fatalf("%s: checkout not updated", st)
		}
	}
}

func TestAcceptIntoLinkedWorktreeCheckout(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	f.detach(t)
	linked := filepath.Join(t.TempDir(), "linked main")
	sh(t, f.repo, "worktree", "add", "-q", linked, "main")
	a, err := newService(t).Accept(ctx(t), req(f, StrategyRebase), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Checkout != linked || rev(t, linked, "HEAD") != a.NewSHA {
		t.Fatalf("checkout = %q, linked HEAD %s, new %s", a.Checkout, rev(t, linked, "HEAD"), a.NewSHA)
	}
	if read(t, filepath.Join(linked, "c.txt")) != "sea\n" || sh(t, linked, "status", "--porcelain=v1", "--untracked-files=all") != "" {
		t.Fatal("linked checkout not clean at the new commit")
	}
	if rev(t, f.repo, "HEAD") != f.mainHead {
		t.Fatal("the detached main worktree moved")
	}
}

func TestTaskCommits(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	if err := os.RemoveAll(f.wt); err != nil {
		t.Fatal(err)
	}
	list, err := newService(t).TaskCommits(ctx(t), f.repo, "T1", f.base, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].SHA != f.taskHead || list[0].Subject != "task: add c" ||
		list[1].Subject != "task: shout one" || list[0].Author != "T" || list[0].Date.IsZero() {
		t.Fatalf("commits = %+v", list)
	}
	if _, err := newService(t).TaskCommits(ctx(t), f.repo, "T1", f.base, true); !errors.Is(err, ErrNoTaskBranch) {
		t.Fatalf("no leftovers branch: %v", err)
	}
	if _, err := newService(t).TaskCommits(ctx(t), f.repo, "T1", "--all", false); err == nil {
		t.Fatal("an option-like base was accepted")
	}
}
