package review

import (
	"context"
	"fmt"
)

// DeleteBranches deletes a task's branches (task branch and leftovers) when
// confirm lists exactly what TaskBranches returns now; it is what deleting a
// task with "delete its branches" does. Errors are those of Reject's
// deletion: ErrNotConfirmed, ErrCheckedOut, *MovedError (nothing deleted).
func (s *Service) DeleteBranches(ctx context.Context, repo, taskID string, confirm []Branch) ([]Branch, error) {
	common, unlock, err := s.lockRepo(ctx, repo)
	if err != nil {
		return nil, fmt.Errorf("delete branches: %w", err)
	}
	defer unlock()
	have, err := s.deletable(ctx, RejectRequest{Repo: repo, TaskID: taskID, DeleteBranches: true, Confirm: confirm}, common)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("delete branches: %w", err)
	}
	// Once the first branch goes, the others follow whatever happens to
	// ctx (a signal), or every one is put back.
	ctx, cancel := s.critical(ctx, taskID, "the task's branches are deleted")
	defer cancel()
	return s.deleteBranches(ctx, repo, have)
}
