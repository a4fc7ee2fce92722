package worktree

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// UnbornError is a repository whose HEAD is on a branch without commits
// (a fresh `git checkout --orphan`, or a clone of an empty branch) while
// other branches have some: a task without a base has nothing to start
// from, but the repository is not empty. errors.Is matches ErrNoCommits.
type UnbornError struct {
	Dir, Branch string
}

// Error names the branch.
func (e *UnbornError) Error() string {
	return fmt.Sprintf("HEAD of %s is on branch %s, which has no commits yet", e.Dir, e.Branch)
}

// Unwrap lets errors.Is match ErrNoCommits.
func (e *UnbornError) Unwrap() error { return ErrNoCommits }

// StartPoint resolves the commit a task's branch starts from in repo (a
// folder of a git repository): base, or HEAD when base is "". It returns
// an *UnknownBaseError for a base that names no commit, an *UnbornError
// when HEAD is on a branch without commits in a repository that has some,
// an error wrapping ErrNoCommits for a repository without any commit, and
// a wrapped gitx error for anything else. Task creation checks a task with
// it, and provisioning starts the task's branch with it, so a task that
// could not start is refused when it is added.
func (m *Manager) StartPoint(ctx context.Context, repo, base string) (ref, sha string, err error) {
	ref = base
	if base == "" {
		ref = "HEAD"
	} else if gitx.CheckRev(base) != nil {
		return "", "", &UnknownBaseError{Base: base, Dir: repo}
	}
	sha, err = m.git.ResolveCommit(ctx, repo, ref)
	switch {
	case err == nil:
		return ref, sha, nil
	case errors.Is(err, gitx.ErrUnknownRef) && base == "":
		return "", "", m.noStart(ctx, repo)
	case errors.Is(err, gitx.ErrUnknownRef) || errors.Is(err, gitx.ErrBadRev):
		return "", "", &UnknownBaseError{Base: base, Dir: repo}
	}
	return "", "", fmt.Errorf("resolve start of %s: %w", repo, err)
}

// noStart says why HEAD resolves to no commit: an unborn branch in a
// repository with commits, or no commit at all.
func (m *Manager) noStart(ctx context.Context, repo string) error {
	out, err := m.git.Run(ctx, repo, "rev-list", "-n", "1", "--all")
	if err == nil && strings.TrimSpace(string(out)) != "" {
		branch, _ := m.git.Run(ctx, repo, "symbolic-ref", "--short", "-q", "HEAD")
		return &UnbornError{Dir: repo, Branch: strings.TrimSpace(string(branch))}
	}
	return fmt.Errorf("%s: %w", repo, ErrNoCommits)
}
