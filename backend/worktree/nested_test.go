package worktree_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

func TestFinishNestedRepositoriesKeepDir(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	withCommit := filepath.Join(wt.Dir, "vendor", "lib")
	write(t, filepath.Join(withCommit, "lib.go"), "package lib\n")
	sh(t, withCommit, "init", "-q")
	libHead := commitAll(t, withCommit, "lib")
	empty := filepath.Join(wt.Dir, "fresh repo")
	write(t, filepath.Join(empty, "x.txt"), "x\n")
	sh(t, empty, "init", "-q")
	write(t, filepath.Join(wt.Dir, "plain.txt"), "p\n")
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || rep.DirRemoved || rep.LeftoversSHA == "" {
		t.Fatalf("report = %+v %v\n%s", rep, err, rec.String())
	}
	if strings.Join(rep.KeptPaths, ",") != "fresh repo/,vendor/lib/" {
		t.Fatalf("kept paths = %q", rep.KeptPaths)
	}
	tree := lsTree(t, repo, rep.LeftoversSHA)
	if tree["vendor/lib"] != "160000 commit" || tree["plain.txt"] == "" {
		t.Fatalf("leftovers tree = %q", tree)
	}
	if _, ok := tree["fresh repo"]; ok || tree["fresh repo/x.txt"] != "" {
		t.Fatalf("repo without commit was saved: %q", tree)
	}
	if got := sh(t, repo, "ls-tree", rep.LeftoversSHA, "vendor/lib"); !strings.Contains(got, libHead) {
		t.Fatalf("gitlink = %q, want %s", got, libHead)
	}
	if !exists(filepath.Join(empty, "x.txt")) || !rec.has("nested git repositories cannot be saved") || !rec.has("fresh repo/") {
		t.Fatalf("log:\n%s", rec.String())
	}
}

func TestFinishSubmodule(t *testing.T) {
	t.Parallel()
	lib := newRepo(t)
	repo := newRepo(t)
	sh(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	commitAll(t, repo, "add submodule")
	m := newManager()

	// Not checked out in the task worktree: nothing nested, removed as usual.
	plain := provision(t, m, repo, "plain")
	rep, err := m.Finish(t.Context(), plain, worktree.OutcomeDone, worktree.Policy{}, tlog(t))
	if err != nil || !rep.DirRemoved {
		t.Fatalf("uninitialized submodule: %+v %v", rep, err)
	}

	// Checked out with uncommitted work inside: that work cannot be saved,
	// so the directory stays and the path is logged.
	wt := provision(t, m, repo, "t")
	sh(t, wt.Dir, "-c", "protocol.file.allow=always", "submodule", "update", "--init", "-q")
	write(t, filepath.Join(wt.Dir, "lib", "a.txt"), "changed inside the submodule\n")
	write(t, filepath.Join(wt.Dir, "top.txt"), "t\n")
	var rec recorder
	rep, err = m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || rep.DirRemoved || strings.Join(rep.KeptPaths, ",") != "lib/" || rep.LeftoversSHA == "" {
		t.Fatalf("report = %+v %v\n%s", rep, err, rec.String())
	}
	if tree := lsTree(t, repo, rep.LeftoversSHA); tree["lib"] != "160000 commit" || tree["top.txt"] == "" {
		t.Fatalf("leftovers tree = %q", tree)
	}
	if b, _ := os.ReadFile(filepath.Join(wt.Dir, "lib", "a.txt")); string(b) != "changed inside the submodule\n" {
		t.Fatal("submodule work lost")
	}
}

// The untracked files are listed (a walk of the worktree) only when git
// refuses the add for a nested repository without a commit.
func TestSaveLeftoversListsUntrackedOnlyWhenTheAddIsRefused(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m, log := loggedManager(t)
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "plain.txt"), "p\n")
	withCommit := filepath.Join(wt.Dir, "lib")
	write(t, filepath.Join(withCommit, "lib.go"), "package lib\n")
	sh(t, withCommit, "init", "-q")
	commitAll(t, withCommit, "lib")
	left, err := m.SaveLeftovers(t.Context(), wt, tlog(t))
	if err != nil || left.SHA == "" || strings.Join(left.Nested, ",") != "lib/" || len(left.Skipped) != 0 {
		t.Fatalf("leftovers = %+v %v", left, err)
	}
	calls, _ := os.ReadFile(log)
	if strings.Contains(string(calls), "--others") || strings.Count(string(calls), "add -A") != 1 {
		t.Fatalf("git calls:\n%s", calls)
	}

	write(t, filepath.Join(wt.Dir, "fresh", "x.txt"), "x\n")
	sh(t, filepath.Join(wt.Dir, "fresh"), "init", "-q")
	left, err = m.SaveLeftovers(t.Context(), wt, tlog(t))
	if err != nil || strings.Join(left.Nested, ",") != "fresh/,lib/" || strings.Join(left.Skipped, ",") != "fresh/" {
		t.Fatalf("leftovers = %+v %v", left, err)
	}
	if tree := lsTree(t, repo, left.SHA); tree["lib"] != "160000 commit" || tree["plain.txt"] == "" || tree["fresh/x.txt"] != "" {
		t.Fatalf("leftovers tree = %q", tree)
	}
	calls, _ = os.ReadFile(log)
	if strings.Count(string(calls), "--others") != 1 {
		t.Fatalf("git calls:\n%s", calls)
	}
}
