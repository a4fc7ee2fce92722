package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// RepoOf finds the repository a task ran in when the task did not record
// it (tasks added before the working directory was recorded at add): the
// main repository of its worktree directory when that still exists, else
// the first of candidates (and the directory that holds a worktree under
// the default root, <repo>/.boof-runner-worktrees/<id>) that is a git
// repository with the task's branch. It returns "" when none fits.
func (m *Manager) RepoOf(ctx context.Context, t task.Task, candidates ...string) string {
	if t.WorktreePath != "" {
		if fi, err := os.Stat(t.WorktreePath); err == nil && fi.IsDir() {
			if common, err := m.git.CommonDir(ctx, t.WorktreePath); err == nil && filepath.Base(common) == ".git" {
				return filepath.Dir(common)
			}
		}
		if dir, ok := strings.CutSuffix(filepath.Clean(t.WorktreePath), string(filepath.Separator)+filepath.Join(DefaultRootName, t.ID)); ok {
			candidates = append([]string{dir}, candidates...)
		}
	}
	branch := t.Branch
	if branch == "" {
		branch = BranchPrefix + t.ID
	}
	for _, c := range candidates {
		if c == "" || !filepath.IsAbs(c) {
			continue
		}
		if _, ok, err := m.git.RefSHA(ctx, c, "refs/heads/"+branch); err == nil && ok {
			return filepath.Clean(c)
		}
	}
	return ""
}
