package worktree

import (
	"context"
	"fmt"
)

// TaskRefs are the commits the diff model of one task is built from.
type TaskRefs struct {
	// BaseSHA is the task's base commit (from the meta sidecar).
	BaseSHA string `json:"baseSha"`
	// Branch and HeadSHA are the task branch and its head ("" when gone).
	Branch  string `json:"branch"`
	HeadSHA string `json:"headSha,omitempty"`
	// LeftoversBranch and LeftoversSHA are the side branch and its head
	// ("" when no leftovers were saved).
	LeftoversBranch string `json:"leftoversBranch"`
	LeftoversSHA    string `json:"leftoversSha,omitempty"`
}

// Refs finds a task's base, branch head and leftovers head in the
// repository holding repo, with root the worktree.root setting. They stay
// available after the worktree directory is removed, so the review works
// from branches alone. It returns ErrBadTaskID, ErrBadRoot, ErrNoMeta when
// the task has no sidecar, or wrapped gitx errors.
func (m *Manager) Refs(ctx context.Context, repo, root, taskID string) (TaskRefs, error) {
	if err := CheckTaskID(taskID); err != nil {
		return TaskRefs{}, fmt.Errorf("task refs: %w", err)
	}
	dir, err := m.ResolveRoot(repo, root)
	if err != nil {
		return TaskRefs{}, fmt.Errorf("task refs: %w", err)
	}
	meta, ok, err := ReadMeta(realPath(dir), taskID)
	if err != nil {
		return TaskRefs{}, fmt.Errorf("task refs: %w", err)
	}
	if !ok {
		return TaskRefs{}, fmt.Errorf("task refs: %s: %w", taskID, ErrNoMeta)
	}
	r := TaskRefs{BaseSHA: meta.BaseSHA, Branch: BranchName(taskID), LeftoversBranch: LeftoversBranchName(taskID)}
	if r.HeadSHA, _, err = m.branchSHA(ctx, repo, "", r.Branch); err != nil {
		return TaskRefs{}, fmt.Errorf("task refs: %w", err)
	}
	if r.LeftoversSHA, _, err = m.branchSHA(ctx, repo, "", r.LeftoversBranch); err != nil {
		return TaskRefs{}, fmt.Errorf("task refs: %w", err)
	}
	return r, nil
}

// branchSHA reads refs/heads/<branch> of repo (common: its git common
// directory, "" when not known yet) from the ref files when it can
// (gitx.RefSHAs), else through git; ok is false when it does not exist.
func (m *Manager) branchSHA(ctx context.Context, repo, common, branch string) (sha string, ok bool, err error) {
	ref := "refs/heads/" + branch
	if common == "" {
		common, _ = m.git.CommonDir(ctx, repo)
	}
	if common != "" {
		if got, err := m.git.RefSHAs(ctx, repo, common, ref); err == nil {
			sha, ok = got[ref]
			return sha, ok, nil
		}
	}
	return m.git.RefSHA(ctx, repo, ref)
}
