package worktree_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func provision(t *testing.T, m *worktree.Manager, repo, id string) worktree.Worktree {
	t.Helper()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: id}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	return wt
}

// dirtyWorktree commits agent work, then leaves a modified tracked file, a
// staged new file, untracked files with hostile names, a scratch directory,
// an ignored file and a symlink pointing outside the worktree.
func dirtyWorktree(t *testing.T, dir string) (head string) {
	t.Helper()
	write(t, filepath.Join(dir, "agent.txt"), "committed by the agent\n")
	head = commitAll(t, dir, "agent work")
	write(t, filepath.Join(dir, "a.txt"), "one\nchanged\n")
	write(t, filepath.Join(dir, "staged.txt"), "staged\n")
	sh(t, dir, "add", "staged.txt")
	for _, name := range hostileNames {
		write(t, filepath.Join(dir, name), "hostile\n")
	}
	write(t, filepath.Join(dir, "scratch", "deep", "notes.md"), "scratch\n")
	write(t, filepath.Join(dir, "debug.log"), "ignored\n")
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "outside-link")); err != nil {
		t.Fatal(err)
	}
	return head
}

var hostileNames = []string{"with space.txt", "new\nline.txt", "ünïcödé ✓.txt", "-rf", "--help.txt", "*.glob", ":(top)magic"}

func TestFinishDoneSavesLeftoversAndRemovesDir(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	head := dirtyWorktree(t, wt.Dir)
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Branch != "boof-runner/t" || rep.HeadSHA != head || rep.LeftoversBranch != "boof-runner/t--leftovers" ||
		rep.LeftoversSHA == "" || !rep.DirRemoved || len(rep.KeptPaths) != 0 {
		t.Fatalf("report = %+v\n%s", rep, rec.String())
	}
	if exists(wt.Dir) {
		t.Fatal("directory not removed")
	}
	if got := sh(t, repo, "rev-parse", "boof-runner/t"); got != head {
		t.Fatalf("task branch moved to %s", got)
	}
	if got := sh(t, repo, "rev-parse", "boof-runner/t--leftovers^"); got != head {
		t.Fatalf("leftovers parent = %s, want task head", got)
	}
	tree := lsTree(t, repo, "boof-runner/t--leftovers")
	want := map[string]string{
		"a.txt": "100644 blob", "agent.txt": "100644 blob", "staged.txt": "100644 blob",
		"scratch/deep/notes.md": "100644 blob", "outside-link": "120000 blob", ".gitignore": "100644 blob",
	}
	for _, n := range hostileNames {
		want[n] = "100644 blob"
	}
	for p, mode := range want {
		if tree[p] != mode {
			t.Errorf("leftovers %q = %q, want %q", p, tree[p], mode)
		}
	}
	if len(tree) != len(want) {
		t.Errorf("leftovers tree has %d entries, want %d: %q", len(tree), len(want), tree)
	}
	if got := sh(t, repo, "show", "boof-runner/t--leftovers:a.txt"); got != "one\nchanged" {
		t.Errorf("leftovers a.txt = %q", got)
	}
	if got := sh(t, repo, "log", "-1", "--format=%an|%aI", "boof-runner/t--leftovers"); got != "Boof Runner|2026-01-02T03:04:05+00:00" {
		t.Errorf("leftovers author = %q", got)
	}
	if !rec.has("leftovers saved on boof-runner/t--leftovers at "+rep.LeftoversSHA) || !rec.has("removed; branch boof-runner/t kept at "+head) {
		t.Fatalf("log:\n%s", rec.String())
	}
}

func TestFinishDoneKeepLeavesWorktreeUntouched(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	head := dirtyWorktree(t, wt.Dir)
	statusBefore := sh(t, wt.Dir, "status", "--porcelain=v1", "-z", "--ignored")
	indexBefore, _ := os.ReadFile(filepath.Join(repo, ".git", "worktrees", "t", "index"))
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{OnDone: worktree.Keep}, rec.log)
	if err != nil || rep.DirRemoved || rep.LeftoversSHA == "" {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if got := sh(t, wt.Dir, "status", "--porcelain=v1", "-z", "--ignored"); got != statusBefore {
		t.Fatalf("worktree status changed:\n%q\n%q", statusBefore, got)
	}
	if indexAfter, _ := os.ReadFile(filepath.Join(repo, ".git", "worktrees", "t", "index")); string(indexAfter) != string(indexBefore) {
		t.Fatal("the worktree's index changed")
	}
	if sh(t, wt.Dir, "rev-parse", "HEAD") != head || !rec.has("worktree kept at "+wt.Dir) {
		t.Fatalf("log:\n%s", rec.String())
	}
	// Finishing again moves the existing leftovers branch forward (CAS on
	// its current value) instead of failing.
	write(t, filepath.Join(wt.Dir, "later.txt"), "later\n")
	rep2, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{OnDone: worktree.Keep}, rec.log)
	if err != nil || rep2.LeftoversSHA == rep.LeftoversSHA || lsTree(t, repo, rep2.LeftoversSHA)["later.txt"] == "" {
		t.Fatalf("second finish = %+v %v", rep2, err)
	}
}

func TestFinishDoneCleanWorktreeHasNoLeftovers(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "agent.txt"), "x\n")
	commitAll(t, wt.Dir, "work")
	write(t, filepath.Join(wt.Dir, "ignored.log"), "ignored only\n")
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || rep.LeftoversBranch != "" || !rep.DirRemoved {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if branchExists(t, repo, "boof-runner/t--leftovers") || !rec.has("no leftovers to save") {
		t.Fatalf("leftovers branch made for a clean worktree\n%s", rec.String())
	}
}

func TestFinishDeletePolicy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		outcome worktree.Outcome
		policy  worktree.Policy
	}{
		{"done", worktree.OutcomeDone, worktree.Policy{OnDone: worktree.Delete}},
		{"failed", worktree.OutcomeFailed, worktree.Policy{OnFailure: worktree.Delete}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			repo := newRepo(t)
			m := newManager()
			wt := provision(t, m, repo, "t")
			dirtyWorktree(t, wt.Dir)
			sh(t, repo, "branch", "boof-runner/t--leftovers", "boof-runner/t")
			var rec recorder
			rep, err := m.Finish(t.Context(), wt, tc.outcome, tc.policy, rec.log)
			if err != nil || !rep.DirRemoved || !rep.BranchesDeleted {
				t.Fatalf("report = %+v %v", rep, err)
			}
			if exists(wt.Dir) || branchExists(t, repo, "boof-runner/t") || branchExists(t, repo, "boof-runner/t--leftovers") {
				t.Fatal("delete left something behind")
			}
			if !rec.has("warn: WARNING: DELETED task work") || exists(filepath.Join(wt.Root, ".meta", "t.json")) {
				t.Fatalf("log:\n%s", rec.String())
			}
		})
	}
}

func TestFinishFailedKeepsEverything(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	head := dirtyWorktree(t, wt.Dir)
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeFailed, worktree.Policy{}, rec.log)
	if err != nil || rep.DirRemoved || rep.HeadSHA != head || rep.LeftoversBranch != "" {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if !exists(filepath.Join(wt.Dir, "scratch", "deep", "notes.md")) || branchExists(t, repo, "boof-runner/t--leftovers") {
		t.Fatal("failed task's worktree was changed")
	}
	if !rec.has("worktree kept at " + wt.Dir + " on branch boof-runner/t at " + head) {
		t.Fatalf("log:\n%s", rec.String())
	}
}

func TestFinishStoppedKeepsWorkEvenUnderDelete(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	dirtyWorktree(t, wt.Dir)
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeStopped, worktree.Policy{OnDone: worktree.Delete, OnFailure: worktree.Delete}, rec.log)
	if err != nil || rep.DirRemoved || rep.BranchesDeleted {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if !exists(filepath.Join(wt.Dir, "a.txt")) || !branchExists(t, repo, "boof-runner/t") {
		t.Fatal("stopped task lost its work")
	}
	if !rec.has("stopped task keeps its work") {
		t.Fatalf("log:\n%s", rec.String())
	}
}

func TestFinishBadPolicyChangesNothing(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	dirtyWorktree(t, wt.Dir)
	for _, tc := range []struct {
		o worktree.Outcome
		p worktree.Policy
	}{
		{worktree.OutcomeDone, worktree.Policy{OnDone: "remove"}},
		{worktree.OutcomeDone, worktree.Policy{OnFailure: "keep-branch"}},
		{worktree.Outcome(0), worktree.Policy{}},
		{worktree.Outcome(9), worktree.Policy{}},
	} {
		if _, err := m.Finish(t.Context(), wt, tc.o, tc.p, tlog(t)); !errors.Is(err, worktree.ErrBadPolicy) {
			t.Errorf("Finish(%v, %+v) = %v, want ErrBadPolicy", tc.o, tc.p, err)
		}
	}
	if !exists(wt.Dir) || branchExists(t, repo, "boof-runner/t--leftovers") {
		t.Fatal("bad policy changed something")
	}
}

func TestFinishDirDeletedBehindOurBack(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "w.txt"), "w\n")
	head := commitAll(t, wt.Dir, "work")
	if err := os.RemoveAll(wt.Dir); err != nil {
		t.Fatal(err)
	}
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || rep.HeadSHA != head || rep.LeftoversBranch != "" {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if !rec.has("is missing") || !branchExists(t, repo, "boof-runner/t") {
		t.Fatalf("log:\n%s", rec.String())
	}
	// The work survives on the branch: a later reuse rebuilds the directory.
	again := provision(t, m, repo, "t")
	if !exists(filepath.Join(again.Dir, "w.txt")) {
		t.Fatal("rebuilt worktree lacks the branch's work")
	}
}

func TestFinishTaskBranchGone(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	sh(t, wt.Dir, "checkout", "-q", "--detach")
	sh(t, repo, "branch", "-D", "boof-runner/t")
	if _, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, tlog(t)); !errors.Is(err, worktree.ErrNoBranch) {
		t.Fatalf("err = %v, want ErrNoBranch", err)
	}
	if !exists(wt.Dir) {
		t.Fatal("directory removed although the branch is gone")
	}
}

func TestFinishRemovalFailureKeepsDir(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "left.txt"), "l\n")
	sh(t, repo, "worktree", "lock", "--reason", "user hold", wt.Dir)
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || rep.DirRemoved || rep.LeftoversSHA == "" {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if !exists(filepath.Join(wt.Dir, "left.txt")) || !rec.has("worktree kept at "+wt.Dir+": removal failed") {
		t.Fatalf("log:\n%s", rec.String())
	}
}

func TestFinishSaveFailureKeepsDir(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager(gitx.WithLockRetry(2, time.Millisecond), gitx.WithSleep(func(context.Context, time.Duration) error { return nil }))
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "left.txt"), "l\n")
	lock := filepath.Join(repo, ".git", "refs", "heads", "boof-runner", "t--leftovers.lock")
	write(t, lock, "")
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || rep.DirRemoved || rep.LeftoversSHA != "" {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if !exists(filepath.Join(wt.Dir, "left.txt")) || !rec.has("worktree kept at "+wt.Dir+": leftovers not saved") {
		t.Fatalf("log:\n%s", rec.String())
	}
}

func TestFinishWorktreeOnAnotherBranch(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	sh(t, wt.Dir, "checkout", "-q", "-b", "agent-side")
	write(t, filepath.Join(wt.Dir, "side.txt"), "s\n")
	side := commitAll(t, wt.Dir, "on a side branch")
	write(t, filepath.Join(wt.Dir, "left.txt"), "l\n")
	var rec recorder
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{OnDone: worktree.Keep}, rec.log)
	if err != nil || rep.HeadSHA != wt.BaseSHA || rep.LeftoversSHA == "" {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if got := sh(t, repo, "rev-parse", rep.LeftoversSHA+"^"); got != side || !rec.has("is not the task branch head") {
		t.Fatalf("leftovers parent = %s, want %s\n%s", got, side, rec.String())
	}
}
