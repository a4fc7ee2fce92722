// Package review brings a finished task's work into the user's branches:
// accept (merge, squash or rebase) with a dry run, compare-and-swap ref
// moves and a clean-checkout rule, undo of an accept, reject with optional
// branch deletion, and the "## Human review" section of a request for
// changes. All git calls go through backend/gitx; nothing here touches the
// store: callers pass small recorder interfaces.
package review

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/names"
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
	journal  *Journal
	// beforeSwap, when set, runs after the result commit is built and
	// before the target ref is moved (tests use it to move the target).
	beforeSwap func()
	// notice, when set, hears of a signal that arrived during a ref move.
	notice func(taskID, text string)
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

// WithJournal gives the service the journal its accepts and undos write
// their intent to before any ref moves (see MoveRef, Reconcile). Accept,
// Undo and MoveRef refuse to run without one (ErrNoJournal).
func WithJournal(j *Journal) Option { return func(s *Service) { s.journal = j } }

// WithNotice sets what hears that the caller's context ended (a signal)
// while a ref move was under way (an accept's or an undo's journaled move,
// its reconciliation, the deletion of a task's branches): that is finished
// first (see MoveRef), and notice says so, with the task's id and a line
// for its log, so that the user knows why the command goes on.
func WithNotice(notice func(taskID, text string)) Option {
	return func(s *Service) { s.notice = notice }
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

// dateEnv returns the service clock as the author and committer date.
func (s *Service) dateEnv() []string {
	d := s.now().UTC().Format(time.RFC3339)
	return []string{"GIT_AUTHOR_DATE=" + d, "GIT_COMMITTER_DATE=" + d}
}

// commitTree makes a commit object with the repository's own identity, or
// the service's when the repository has none configured.
func (s *Service) commitTree(ctx context.Context, repo string, c gitx.Commit) (string, error) {
	c.Env = s.dateEnv()
	sha, err := s.git.CommitTree(ctx, repo, c)
	if gitx.IsNoIdentity(err) {
		c.Env = append(append([]string{}, s.identity...), c.Env...)
		sha, err = s.git.CommitTree(ctx, repo, c)
	}
	return sha, err
}

// committerEnv returns the committer identity and date for a rebase: the
// service's identity only when the repository has none configured.
func (s *Service) committerEnv(ctx context.Context, repo string) []string {
	env := []string{"GIT_COMMITTER_DATE=" + s.now().UTC().Format(time.RFC3339)}
	if _, err := s.git.Run(ctx, repo, "var", "GIT_COMMITTER_IDENT"); err == nil {
		return env
	}
	for _, kv := range s.identity {
		if strings.HasPrefix(kv, "GIT_COMMITTER_") {
			env = append(env, kv)
		}
	}
	return env
}

// branchRef turns a branch name into its full ref, refusing names that
// git-check-ref-format --branch would refuse and names starting with '-'.
func branchRef(branch string) (string, error) {
	branch = strings.TrimPrefix(branch, "refs/heads/")
	if !names.Branch(branch) {
		return "", fmt.Errorf("branch %q: %w", branch, ErrBadBranch)
	}
	return "refs/heads/" + branch, nil
}

// cleanupTimeout bounds the git calls that undo a half-done change.
const cleanupTimeout = 30 * time.Second

// cleanupCtx returns a context for undoing a half-done change: it outlives
// the caller's cancellation (the undo must run) but not cleanupTimeout.
func cleanupCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
}

// lockRepo takes gitx's lock of repo's repository and returns its common
// git directory too. Errors are wrapped gitx errors (ErrNotARepo ...).
func (s *Service) lockRepo(ctx context.Context, repo string) (common string, unlock func(), err error) {
	if common, err = s.git.CommonDir(ctx, repo); err != nil {
		return "", nil, err
	}
	if unlock, err = s.git.LockCommonDir(ctx, common); err != nil {
		return "", nil, err
	}
	return common, unlock, nil
}
