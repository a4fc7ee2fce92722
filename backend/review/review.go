// Package review brings a finished task's work into the user's branches:
// accept (merge, squash or rebase) with a dry run, compare-and-swap ref
// moves and a clean-checkout rule, undo of an accept, reject with optional
// branch deletion, and the "## Human review" section of a request for
// changes. All git calls go through backend/gitx; nothing here touches the
// store: callers pass small recorder interfaces.
package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// Strategy is how an accept brings the task's commits into the target.
type Strategy string

const (
	// StrategyMerge makes a merge commit (like `git merge --no-ff`) whose
	// parents are the target and the task head.
	StrategyMerge Strategy = "merge"
	// StrategySquash makes one commit on the target holding all the task's
	// changes.
	StrategySquash Strategy = "squash"
	// StrategyRebase replays the task's commits onto the target and moves
	// the target forward to the last of them.
	StrategyRebase Strategy = "rebase"
)

// Strategies lists the strategies in display order.
var Strategies = []Strategy{StrategyMerge, StrategySquash, StrategyRebase}

// ParseStrategy returns the strategy named s ("" means merge), or an error
// wrapping ErrBadStrategy.
func ParseStrategy(s string) (Strategy, error) {
	if s == "" {
		return StrategyMerge, nil
	}
	for _, st := range Strategies {
		if string(st) == s {
			return st, nil
		}
	}
	return "", fmt.Errorf("%w: %q (want merge, squash or rebase)", ErrBadStrategy, s)
}

// BranchPrefix and LeftoversSuffix name a task's branches; they match
// backend/worktree (boof-runner/<id> and boof-runner/<id>--leftovers).
const (
	BranchPrefix    = "boof-runner/"
	LeftoversSuffix = "--leftovers"
)

// TaskBranch returns the task branch name of id (without refs/heads/).
func TaskBranch(id string) string { return BranchPrefix + id }

// LeftoversBranch returns the leftovers side branch name of id.
func LeftoversBranch(id string) string { return BranchPrefix + id + LeftoversSuffix }

// Service accepts, undoes and rejects task work. It is safe for
// concurrent use; every change to a repository runs under gitx's
// per-repository lock.
type Service struct {
	git      *gitx.Git
	now      func() time.Time
	identity []string
	// beforeSwap, when set, runs after the result commit is built and
	// before the target ref is moved (tests use it to move the target).
	beforeSwap func()
}

// Option configures a Service.
type Option func(*Service)

// WithIdentity sets the name and e-mail used for the commits an accept
// makes when the repository has no user identity configured (default
// "Boof Runner <boof-runner@localhost>").
func WithIdentity(name, email string) Option {
	return func(s *Service) {
		s.identity = []string{
			"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email,
			"GIT_COMMITTER_NAME=" + name, "GIT_COMMITTER_EMAIL=" + email,
		}
	}
}

// New returns a Service running git through g and reading time from now
// (time.Now when nil).
func New(g *gitx.Git, now func() time.Time, opts ...Option) *Service {
	if now == nil {
		now = time.Now
	}
	s := &Service{git: g, now: now}
	WithIdentity("Boof Runner", "boof-runner@localhost")(s)
	for _, o := range opts {
		o(s)
	}
	return s
}

// commitEnv returns the environment for commits made in repo: the
// repository's own identity when it has one, else the service's, and the
// service clock as the date.
func (s *Service) commitEnv(ctx context.Context, repo string) []string {
	date := "GIT_COMMITTER_DATE=" + s.now().UTC().Format(time.RFC3339)
	adate := "GIT_AUTHOR_DATE=" + s.now().UTC().Format(time.RFC3339)
	if _, err := s.git.Run(ctx, repo, "var", "GIT_COMMITTER_IDENT"); err == nil {
		if _, err := s.git.Run(ctx, repo, "var", "GIT_AUTHOR_IDENT"); err == nil {
			return []string{date, adate}
		}
	}
	return append(append([]string{}, s.identity...), date, adate)
}

// branchRef turns a branch name into its full ref, refusing names git
// would not accept and names that start with '-'.
func (s *Service) branchRef(ctx context.Context, repo, branch string) (string, error) {
	branch = strings.TrimPrefix(branch, "refs/heads/")
	if err := gitx.CheckRev(branch); err != nil {
		return "", fmt.Errorf("branch %q: %w", branch, ErrBadBranch)
	}
	if _, err := s.git.Run(ctx, repo, "check-ref-format", "--branch", branch); err != nil {
		var ge *gitx.Error
		if errors.As(err, &ge) {
			return "", fmt.Errorf("branch %q: %w", branch, ErrBadBranch)
		}
		return "", fmt.Errorf("check branch name: %w", err)
	}
	return "refs/heads/" + branch, nil
}
