package worktree_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// TestFailingPostCheckoutHookLeavesNothing: git makes the branch and the
// worktree, then the repository's post-checkout hook fails and git exits
// non-zero. Provision fails and takes both back: no branch, no registered
// worktree, no directory the task does not record; after the hook is fixed
// the task provisions normally.
func TestFailingPostCheckoutHookLeavesNothing(t *testing.T) {
	repo := newRepo(t)
	hook := filepath.Join(repo, ".git", "hooks", "post-checkout")
	write(t, hook, "#!/bin/sh\necho the hook refuses >&2\nexit 3\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	m := newManager()
	const id = "0123456789abcdef"
	_, err := m.Provision(context.Background(), worktree.Request{Repo: repo, TaskID: id}, func(task.LogLevel, string, ...any) {})
	if err == nil || !strings.Contains(err.Error(), "the hook refuses") {
		t.Fatalf("provision with a failing hook: %v", err)
	}
	if out := sh(t, repo, "branch", "--list", worktree.BranchName(id)); out != "" {
		t.Fatalf("branch left behind: %q", out)
	}
	if out := sh(t, repo, "worktree", "list", "--porcelain"); strings.Contains(out, id) {
		t.Fatalf("worktree left registered:\n%s", out)
	}
	if dir := filepath.Join(repo, worktree.DefaultRootName, id); exists(dir) {
		t.Fatalf("directory left behind: %s", dir)
	}
	os.Remove(hook)
	wt, err := m.Provision(context.Background(), worktree.Request{Repo: repo, TaskID: id}, func(task.LogLevel, string, ...any) {})
	if err != nil || wt.Reused || !exists(wt.Dir) {
		t.Fatalf("provision after the hook is gone: %+v %v", wt, err)
	}
}
