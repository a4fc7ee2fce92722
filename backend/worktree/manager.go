// Package worktree isolates each task in its own git worktree and branch,
// saves uncommitted leftovers on a side branch, applies the retention
// policy when a task ends, and provides the diff model used by prompts and
// the review screen. All git calls go through backend/gitx.
package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Logf records one line of the task log at a level. Every rule that says
// "the log records ..." calls it with that text; warnings (work deleted, no
// git repository) at task.LevelWarn.
type Logf func(level task.LogLevel, format string, args ...any)

// BranchPrefix starts every task branch name.
const BranchPrefix = "boof-runner/"

// LeftoversSuffix ends the name of a task's leftovers side branch.
const LeftoversSuffix = "--leftovers"

// DefaultRootName is the directory under the working directory that holds
// the worktrees when no root is configured.
const DefaultRootName = ".boof-runner-worktrees"

// Errors callers branch on.
var (
	// ErrUnregisteredDir: something that is not this task's registered
	// worktree already occupies the worktree path; it is left untouched.
	ErrUnregisteredDir = errors.New("unregistered directory at worktree path")
	// ErrBadTaskID: the task id cannot name a branch and a directory.
	ErrBadTaskID = errors.New("bad task id")
	// ErrBadRoot: the worktree root setting cannot be used.
	ErrBadRoot = errors.New("bad worktree root")
	// ErrBadPolicy: an unknown onDone/onFailure value.
	ErrBadPolicy = errors.New("bad worktree policy")
	// ErrNoCommits: the repository has no commit to start a worktree from.
	ErrNoCommits = errors.New("repository has no commits")
	// ErrBranchInUse: the task branch is checked out in another directory.
	ErrBranchInUse = errors.New("task branch checked out elsewhere")
	// ErrNoMeta: the task has no meta sidecar under the worktree root.
	ErrNoMeta = errors.New("no worktree meta for task")
	// ErrNoWorkDir: the working directory does not exist.
	ErrNoWorkDir = errors.New("working directory does not exist")
)

// UnknownBaseError is returned when a task's base ref names no commit.
type UnknownBaseError struct {
	Base string
	Dir  string
}

// Error returns "unknown base ref '<base>': not a branch or commit in <dir>".
func (e *UnknownBaseError) Error() string {
	return fmt.Sprintf("unknown base ref '%s': not a branch or commit in %s", e.Base, e.Dir)
}

// Manager provisions, finishes and diffs task worktrees. It is safe for
// concurrent use; operations that write a repository's refs or worktree
// registry are serialized per repository through gitx.Git.LockRepo.
type Manager struct {
	git  *gitx.Git
	now  func() time.Time
	home func() (string, error)
}

// Option configures a Manager.
type Option func(*Manager)

// WithHome replaces how the home directory for a "~/" root is found
// (default os.UserHomeDir).
func WithHome(f func() (string, error)) Option { return func(m *Manager) { m.home = f } }

// NewManager returns a Manager running git through g and reading time
// from now (used for meta timestamps and leftovers commit dates).
func NewManager(g *gitx.Git, now func() time.Time, opts ...Option) *Manager {
	m := &Manager{git: g, now: now, home: os.UserHomeDir}
	for _, o := range opts {
		o(m)
	}
	return m
}

var taskIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// CheckTaskID reports whether id can name a task branch and directory:
// 1-100 characters of letters, digits, '.', '_' and '-', starting with a
// letter or digit, without ".." and not ending in ".lock" or ".". It
// returns an error wrapping ErrBadTaskID.
func CheckTaskID(id string) error {
	if !taskIDPattern.MatchString(id) || strings.Contains(id, "..") ||
		strings.HasSuffix(id, ".lock") || strings.HasSuffix(id, ".") ||
		strings.HasSuffix(id, LeftoversSuffix) {
		return fmt.Errorf("task id %q: %w", id, ErrBadTaskID)
	}
	return nil
}

// BranchName returns the task branch name for id.
func BranchName(id string) string { return BranchPrefix + id }

// LeftoversBranchName returns the leftovers side branch name for id.
func LeftoversBranchName(id string) string { return BranchPrefix + id + LeftoversSuffix }

func (m *Manager) identityEnv() []string {
	date := m.now().UTC().Format(time.RFC3339)
	return []string{
		"GIT_AUTHOR_NAME=Boof Runner", "GIT_AUTHOR_EMAIL=boof-runner@localhost",
		"GIT_COMMITTER_NAME=Boof Runner", "GIT_COMMITTER_EMAIL=boof-runner@localhost",
		"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date,
	}
}

func (m *Manager) lock(ctx context.Context, repo string) (func(), error) {
	return m.git.LockRepo(ctx, repo)
}
