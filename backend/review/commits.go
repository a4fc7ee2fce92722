package review

import (
	"context"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// CommitInfo is one commit of a task branch, for the review screen.
type CommitInfo struct {
	SHA     string    `json:"sha"`
	Subject string    `json:"subject"`
	Author  string    `json:"author"`
	Date    time.Time `json:"date"`
}

// MaxCommits caps TaskCommits.
const MaxCommits = 10_000

// TaskCommits lists the commits on the task branch (or its leftovers
// branch, when leftovers is set) that base does not hold, newest first,
// at most MaxCommits. It reads branches only, so it works after the task's
// worktree directory is gone. Errors: ErrNoTaskBranch, gitx.ErrBadRev or
// gitx.ErrUnknownRef for a bad base, or wrapped gitx errors.
func (s *Service) TaskCommits(ctx context.Context, repo, taskID, base string, leftovers bool) ([]CommitInfo, error) {
	name := TaskBranch(taskID)
	if leftovers {
		name = LeftoversBranch(taskID)
	}
	ref, err := branchRef(name)
	if err != nil {
		return nil, fmt.Errorf("task id %q: %w", taskID, err)
	}
	if err := gitx.CheckRev(base); err != nil {
		return nil, fmt.Errorf("task commits: base: %w", err)
	}
	if _, ok, err := s.git.RefSHA(ctx, repo, ref); err != nil {
		return nil, fmt.Errorf("task commits: %w", err)
	} else if !ok {
		return nil, fmt.Errorf("%s: %w", ref, ErrNoTaskBranch)
	}
	out, err := s.git.Run(ctx, repo, "log", "-z", "--no-color", fmt.Sprintf("--max-count=%d", MaxCommits),
		"--format=%H%x00%s%x00%an%x00%aI", "--end-of-options", ref, "^"+base, "--")
	if err != nil {
		return nil, fmt.Errorf("task commits: %w", err)
	}
	f := gitx.SplitNUL(out)
	list := []CommitInfo{}
	for i := 0; i+3 < len(f); i += 4 {
		c := CommitInfo{SHA: f[i], Subject: f[i+1], Author: f[i+2]}
		c.Date, _ = time.Parse(time.RFC3339, f[i+3])
		list = append(list, c)
	}
	return list, nil
}
