package worktree_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func TestConcurrentTasksOnOneRepo(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	const n = 6
	errs := make(chan error, n)
	for i := range n {
		go func() {
			id := "c" + string(rune('0'+i))
			wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: id}, func(task.LogLevel, string, ...any) {})
			if err != nil {
				errs <- err
				return
			}
			if err := os.WriteFile(filepath.Join(wt.Dir, id+".txt"), []byte(id), 0o644); err != nil {
				errs <- err
				return
			}
			_, err = m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, func(task.LogLevel, string, ...any) {})
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for i := range n {
		id := "c" + string(rune('0'+i))
		if tree := lsTree(t, repo, worktree.LeftoversBranchName(id)); tree[id+".txt"] == "" {
			t.Errorf("task %s: leftovers = %q", id, tree)
		}
	}
	if got := sh(t, repo, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 {
		t.Fatalf("worktrees left registered:\n%s", got)
	}
}

// A user's git holding the main repository's index.lock (a commit in
// progress) must not stop task worktrees: they never need that index.
func TestProvisionAndFinishWhileMainIndexLocked(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	lock := filepath.Join(repo, ".git", "index.lock")
	write(t, lock, "")
	m := newManager(gitx.WithLockRetry(1, 0))
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "x.txt"), "x\n")
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, tlog(t))
	if err != nil || !rep.DirRemoved || rep.LeftoversSHA == "" {
		t.Fatalf("report = %+v %v", rep, err)
	}
	if !exists(lock) {
		t.Fatal("the user's lock file was touched")
	}
}
