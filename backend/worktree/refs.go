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
	if r.HeadSHA, _, err = m.git.RefSHA(ctx, repo, "refs/heads/"+r.Branch); err != nil {
		return TaskRefs{}, fmt.Errorf("task refs: %w", err)
	}
	if r.LeftoversSHA, _, err = m.git.RefSHA(ctx, repo, "refs/heads/"+r.LeftoversBranch); err != nil {
		return TaskRefs{}, fmt.Errorf("task refs: %w", err)
	}
	return r, nil
}
