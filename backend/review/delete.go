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
	return s.deleteBranches(ctx, RejectRequest{Repo: repo, TaskID: taskID, DeleteBranches: true, Confirm: confirm}, common)
}
