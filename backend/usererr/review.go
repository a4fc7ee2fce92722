package usererr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/mergequeue"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func describeReview(err error) (string, Code, bool) {
	var ce *review.ConflictError
	var de *review.DirtyError
	var me *review.MovedError
	var nv *review.NotVerifiedError
	var nt *review.NoTargetError
	var tw *mergequeue.TwiceError
	switch {
	case errors.Is(err, review.ErrUnsettled):
		// Before the git error it wraps: the move may have been made.
		return "The branch may or may not have moved (git failed and the branch could not be read back); the next accept or undo " +
			"in this repository, or the next start of the runner, settles it, so check the branch before you try again", Git, true
	case errors.As(err, &nt):
		return "Nothing changed: the target branch " + nt.Branch + " does not exist in " + nt.Repo, InvalidInput, true
	case errors.As(err, &tw):
		return "Nothing changed: task " + tw.TaskID + " is named twice", InvalidInput, true
	case errors.As(err, &nv):
		return "Nothing changed: the work did not pass its verification gate (" + nv.Reason +
			"); send it back to the developer, or fix it and run `boof-runner verify ID` again", WrongStatus, true
	case errors.As(err, &ce):
		return "Nothing changed: the accept would conflict in " + files(ce.Files) +
			"; re-queue the task to merge the target into its branch, or resolve it by hand", Conflict, true
	case errors.Is(err, review.ErrConflict):
		return "Nothing changed: the accept would conflict; re-queue the task to merge the target into its branch, or resolve it by hand", Conflict, true
	case errors.As(err, &de):
		return fmt.Sprintf("Nothing changed: the target checkout %s has uncommitted changes in %s; commit or stash them first", de.Dir, files(de.Files)), DirtyCheckout, true
	case errors.Is(err, review.ErrDirty):
		return "Nothing changed: the target checkout has uncommitted changes; commit or stash them first", DirtyCheckout, true
	case errors.As(err, &me):
		return fmt.Sprintf("Nothing changed: branch %s moved meanwhile (expected %s, now %s); try again",
			strings.TrimPrefix(me.Ref, "refs/heads/"), shortSHA(me.Expected), shortSHA(me.Actual)), TargetMoved, true
	case errors.Is(err, review.ErrTargetMoved):
		return "Nothing changed: the target branch moved meanwhile; try again", TargetMoved, true
	}
	return describeChangeRequest(err)
}

// describeChangeRequest: a review or a hunk selection the task's diff no
// longer matches, a drop that no longer reverts, a retry with no plan.
func describeChangeRequest(err error) (string, Code, bool) {
	var sh *review.StaleHunkError
	var dr *worktree.DropError
	var np *store.NoPlanError
	var fa *worktree.FileAtError
	switch {
	case errors.As(err, &fa) && fa.Missing:
		return fmt.Sprintf("The file %q is not in commit %s", fa.Path, shortSHA(fa.Rev)), InvalidInput, true
	case errors.As(err, &fa):
		return fmt.Sprintf("The file %q is too large to show (%d MiB)", fa.Path, fa.Size>>20), InvalidInput, true
	case errors.As(err, &sh):
		return "Nothing changed: " + sh.Error() + "; reload the diff and try again", InvalidInput, true
	case errors.As(err, &dr):
		return fmt.Sprintf("Nothing changed: the dropped hunk %d of %q (%s) no longer reverts on the task branch: %s",
			dr.Index, dr.File, dr.Header, dr.Detail), Conflict, true
	case errors.Is(err, review.ErrEmptyReview):
		return "Nothing changed: the request for changes is empty; write a comment or drop a hunk", InvalidInput, true
	case errors.Is(err, review.ErrBadReview):
		return "Nothing changed: " + strings.TrimPrefix(err.Error(), review.ErrBadReview.Error()+": "), InvalidInput, true
	case errors.Is(err, review.ErrBadDraft):
		return "The review draft was not saved: " + strings.TrimPrefix(err.Error(), review.ErrBadDraft.Error()+": "), InvalidInput, true
	case errors.Is(err, review.ErrSubsetStrategy):
		return "Nothing changed: a hunk-level accept is one squash commit; choose squash, leave out the leftovers, or accept the whole branch", InvalidInput, true
	case errors.As(err, &np):
		return "Nothing changed: the task has no final plan to start the developer from; retry it from the planner", WrongStatus, true
	}
	return "", "", false
}

func describeUnknownBase(err error) (string, Code, bool) {
	var ub *worktree.UnknownBaseError
	var unborn *worktree.UnbornError
	switch {
	case errors.As(err, &ub):
		return fmt.Sprintf("The base ref %q is not a branch or commit in %s", ub.Base, ub.Dir), UnknownBase, true
	case errors.As(err, &unborn):
		return fmt.Sprintf("The repository %s is on branch %s, which has no commits yet; give the task a base branch or commit, or check out a branch that has commits",
			unborn.Dir, unborn.Branch), Git, true
	case errors.Is(err, worktree.ErrNoCommits):
		return "The repository has no commits yet; make a first commit so tasks have something to start from", Git, true
	case errors.Is(err, worktree.ErrNoWorkDir):
		return "The working directory does not exist or is not a folder", Git, true
	}
	return "", "", false
}

func describeLocked(err error) (string, Code, bool) {
	var le *runner.LockedError
	if errors.As(err, &le) {
		holder := "Another process"
		if le.PID > 0 {
			holder = fmt.Sprintf("Another process (pid %d)", le.PID)
		}
		return holder + " is already running the queue of this data root; you can still add and read tasks and send stop or inject controls", RunnerLocked, true
	}
	if errors.Is(err, runner.ErrLocked) {
		return "Another process is already running the queue of this data root; you can still add and read tasks and send stop or inject controls", RunnerLocked, true
	}
	return "", "", false
}

// files quotes up to five names (Go syntax, so a newline in a name stays
// visible) and says how many more there are.
func files(names []string) string {
	const max = 5
	var q []string
	for i, n := range names {
		if i == max {
			q = append(q, fmt.Sprintf("%d more", len(names)-max))
			break
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	if len(q) == 0 {
		return "some files"
	}
	return list(q, "and")
}

func shortSHA(sha string) string {
	if sha == "" {
		return "nothing"
	}
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
