package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// DiffRange returns the commits a task's diff is taken between: its
// recorded base and its branch head, or with leftovers the branch head and
// the leftovers branch. A task without a recorded base falls back to the
// merge base of its branch and its default target. It works from branches
// alone, so it still answers after the worktree directory is removed. It
// returns ErrNoTaskBranch when the task branch is gone.
func (s *Service) DiffRange(ctx context.Context, t task.Task, leftovers bool) (base, head string, err error) {
	head = "refs/heads/" + TaskBranch(t.ID)
	if _, ok, err := s.git.RefSHA(ctx, t.Repo, head); err != nil {
		return "", "", err
	} else if !ok {
		return "", "", fmt.Errorf("task %s: %w", t.ID, ErrNoTaskBranch)
	}
	if leftovers {
		left := "refs/heads/" + LeftoversBranch(t.ID)
		if _, ok, err := s.git.RefSHA(ctx, t.Repo, left); err != nil {
			return "", "", err
		} else if !ok {
			return "", "", fmt.Errorf("task %s has no leftovers branch", t.ID)
		}
		return head, left, nil
	}
	if t.BaseSHA != "" {
		return t.BaseSHA, head, nil
	}
	target, err := s.DefaultTarget(ctx, t.Repo, t.Base)
	if err != nil {
		return "", "", fmt.Errorf("task %s has no recorded base: %w", t.ID, err)
	}
	out, err := s.git.Run(ctx, t.Repo, "merge-base", "--end-of-options", "refs/heads/"+target, head)
	if err != nil {
		return "", "", fmt.Errorf("task %s has no recorded base and no merge base with %s: %w", t.ID, target, err)
	}
	base = strings.TrimSuffix(string(out), "\n")
	if base == "" {
		return "", "", errors.New("empty merge base")
	}
	return base, head, nil
}
