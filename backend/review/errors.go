package review

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// Errors callers branch on. Every refusal below leaves all refs, indexes
// and working trees as they were.
var (
	// ErrBadStrategy: an unknown accept strategy.
	ErrBadStrategy = errors.New("bad accept strategy")
	// ErrBadBranch: a branch name git would not accept.
	ErrBadBranch = errors.New("bad branch name")
	// ErrNoTarget: the target branch does not exist.
	ErrNoTarget = errors.New("target branch does not exist")
	// ErrNoTaskBranch: the task branch does not exist.
	ErrNoTaskBranch = errors.New("task branch does not exist")
	// ErrSameBranch: the target is one of the task's own branches.
	ErrSameBranch = errors.New("target is a task branch")
	// ErrNothingToAccept: the target already holds all of the task's work.
	ErrNothingToAccept = errors.New("nothing to accept")
	// ErrConflict is matched by *ConflictError.
	ErrConflict = errors.New("accept would conflict")
	// ErrDirty is matched by *DirtyError.
	ErrDirty = errors.New("target checkout has uncommitted changes")
	// ErrTargetMoved is matched by *MovedError.
	ErrTargetMoved = errors.New("target branch moved")
	// ErrCheckedOut: a branch to delete is checked out in a worktree, or a
	// target is being rebased in one.
	ErrCheckedOut = errors.New("branch is checked out")
	// ErrNotConfirmed: branch deletion was asked without confirming
	// exactly the branches that would go.
	ErrNotConfirmed = errors.New("branch deletion not confirmed")
	// ErrNotVerified is matched by *NotVerifiedError.
	ErrNotVerified = errors.New("work did not pass verification")
	// ErrUnsettled: a ref move failed and the ref could not be read back
	// to tell whether it moved; its journal entry is kept, and the next
	// reconciliation (the next accept or undo in the repository, the
	// runner's start) completes or rolls it back.
	ErrUnsettled = errors.New("the outcome of the move is settled at the next reconciliation")
)

// NoTargetError is a target branch that does not exist in a repository.
type NoTargetError struct {
	Branch, Repo string
}

// Error names the branch.
func (e *NoTargetError) Error() string {
	return fmt.Sprintf("target branch %s does not exist in %s", e.Branch, e.Repo)
}

// Unwrap lets errors.Is match ErrNoTarget.
func (e *NoTargetError) Unwrap() error { return ErrNoTarget }

// NotVerifiedError is an accept of work whose latest verification failed.
type NotVerifiedError struct {
	// Reason is the failed run's message ("verification failed: ./check.sh exited 1").
	Reason string
}

// Error names the failed verification.
func (e *NotVerifiedError) Error() string { return "accept refused: " + e.Reason }

// Unwrap lets errors.Is match ErrNotVerified.
func (e *NotVerifiedError) Unwrap() error { return ErrNotVerified }

// ConflictError is an accept that cannot be made without conflicts.
type ConflictError struct {
	// Files are the conflicted paths.
	Files []string
}

// Error lists the conflicted files.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("accept would conflict in %d file(s): %s", len(e.Files), quoteList(e.Files))
}

// Unwrap lets errors.Is match ErrConflict.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// DirtyError is a target checkout that cannot be updated safely: it has
// uncommitted changes to tracked files, or untracked files the update
// would overwrite.
type DirtyError struct {
	// Dir is the checkout's directory.
	Dir string
	// Files are the changed or colliding paths.
	Files []string
}

// Error names the checkout and lists the files.
func (e *DirtyError) Error() string {
	return fmt.Sprintf("target checkout %s has uncommitted changes in %d file(s) (commit or stash them first): %s",
		e.Dir, len(e.Files), quoteList(e.Files))
}

// Unwrap lets errors.Is match ErrDirty.
func (e *DirtyError) Unwrap() error { return ErrDirty }

// MovedError is a target ref that no longer holds the commit an accept or
// undo was prepared against.
type MovedError struct {
	// Ref is the full target ref.
	Ref string
	// Expected and Actual are the expected and current commits.
	Expected, Actual string
}

// Error names the ref and both commits.
func (e *MovedError) Error() string {
	return fmt.Sprintf("%s moved meanwhile (expected %s, now %s): nothing changed", e.Ref, short(e.Expected), short(e.Actual))
}

// Unwrap lets errors.Is match ErrTargetMoved.
func (e *MovedError) Unwrap() error { return ErrTargetMoved }

func short(sha string) string {
	if sha == "" {
		return "nothing"
	}
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// quoteList quotes each name (Go syntax, so a newline in a name stays
// visible) and joins them, keeping at most 20.
func quoteList(names []string) string {
	const max = 20
	var parts []string
	for i, n := range names {
		if i == max {
			parts = append(parts, fmt.Sprintf("… and %d more", len(names)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%q", n))
	}
	return strings.Join(parts, ", ")
}

// gitDetail is the first line of a git error's message.
func gitDetail(err error) string {
	var ge *gitx.Error
	if errors.As(err, &ge) && ge.Detail() != "" {
		return ge.Detail()
	}
	return err.Error()
}

// PRMergedError: the task's work landed through its pull request, merged
// on the forge; there is no local accept to undo (revert it there).
type PRMergedError struct {
	TaskID   string
	Number   int
	URL      string
	MergeSHA string
}

// Error returns "pull request #N of <task> was merged".
func (e *PRMergedError) Error() string {
	return fmt.Sprintf("pull request #%d of %s was merged on its forge (merge commit %s)", e.Number, e.TaskID, e.MergeSHA)
}
