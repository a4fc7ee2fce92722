package review

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Branch is one of a task's branches, as listed before deleting it.
type Branch struct {
	// Name is the short branch name (boof-runner/<id> or its leftovers).
	Name string `json:"name"`
	// SHA is the commit it points at; deletion is a compare-and-swap on it.
	SHA string `json:"sha"`
	// Unique counts its commits that no other local branch holds: the
	// work that only the reflog keeps once the branch is gone.
	Unique int `json:"unique"`
	// Worktree is the existing directory where it is checked out, if any.
	Worktree string `json:"worktree,omitempty"`
}

// TaskBranches lists the task's branches that exist (task branch first,
// then leftovers). Errors are ErrBadBranch for an unusable task id, or
// wrapped gitx errors.
func (s *Service) TaskBranches(ctx context.Context, repo, taskID string) ([]Branch, error) {
	names := []string{TaskBranch(taskID), LeftoversBranch(taskID)}
	var out []Branch
	for _, n := range names {
		ref, err := branchRef(n)
		if err != nil {
			return nil, fmt.Errorf("task id %q: %w", taskID, err)
		}
		sha, ok, err := s.git.RefSHA(ctx, repo, ref)
		if err != nil {
			return nil, fmt.Errorf("task branches: %w", err)
		}
		if !ok {
			continue
		}
		b := Branch{Name: n, SHA: sha}
		args := []string{"rev-list", "--count", sha, "--not"}
		for _, x := range names {
			args = append(args, "--exclude="+x)
		}
		cnt, err := s.git.Run(ctx, repo, append(args, "--branches")...)
		if err != nil {
			return nil, fmt.Errorf("task branches: %w", err)
		}
		b.Unique, _ = strconv.Atoi(strings.TrimSpace(string(cnt)))
		if b.Worktree, err = s.checkoutOf(ctx, repo, ref); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// RejectRequest asks to reject a task's work.
type RejectRequest struct {
	// Repo is the task's working directory.
	Repo   string `json:"repo"`
	TaskID string `json:"task_id"`
	// Status, when set, is the task's status; one that may not become
	// rejected is refused before anything changes.
	Status task.Status `json:"status,omitempty"`
	// DeleteBranches asks to delete the task's branches too.
	DeleteBranches bool `json:"delete_branches"`
	// Confirm must list exactly the branches TaskBranches returns now
	// (names and commits) for DeleteBranches to go ahead.
	Confirm []Branch `json:"confirm,omitempty"`
}

// RejectRecord is what a reject did.
type RejectRecord struct {
	// Deleted are the branches deleted (none unless asked).
	Deleted []Branch  `json:"deleted"`
	At      time.Time `json:"at"`
}

// RejectRecorder stores a reject on the task: status rejected and an
// event. An error makes Reject restore the deleted branches.
type RejectRecorder interface {
	RecordReject(ctx context.Context, taskID string, rec RejectRecord) error
}

// Reject rejects the task's work: branches are kept unless DeleteBranches
// is set with a Confirm list that matches the branches exactly. Errors:
// *task.TransitionError, ErrNotConfirmed (the list differs: nothing
// deleted), ErrCheckedOut (a branch is checked out in an existing
// worktree: nothing deleted), *MovedError (a branch moved while being
// deleted: the others are restored), a wrapped recorder error after the
// branches are restored, or wrapped gitx errors.
func (s *Service) Reject(ctx context.Context, r RejectRequest, rec RejectRecorder) (RejectRecord, error) {
	if r.Status != "" {
		if err := task.CheckTransition(r.Status, task.StatusRejected); err != nil {
			return RejectRecord{}, err
		}
	}
	out := RejectRecord{Deleted: []Branch{}, At: s.now().UTC()}
	if r.DeleteBranches {
		common, unlock, err := s.lockRepo(ctx, r.Repo)
		if err != nil {
			return RejectRecord{}, fmt.Errorf("reject: %w", err)
		}
		defer unlock()
		have, err := s.deletable(ctx, r, common)
		if err != nil {
			return RejectRecord{}, err
		}
		// From the first deletion on, the deletions and the record run to
		// their end whatever happens to ctx (a signal): a branch deleted
		// with the task not rejected would hold its work in no ref.
		if err := ctx.Err(); err != nil {
			return RejectRecord{}, fmt.Errorf("reject: %w", err)
		}
		var cancel context.CancelFunc
		ctx, cancel = s.critical(ctx, r.TaskID, "the task's branches are deleted")
		defer cancel()
		if out.Deleted, err = s.deleteBranches(ctx, r.Repo, have); err != nil {
			return RejectRecord{}, err
		}
	}
	if rec != nil {
		if err := rec.RecordReject(ctx, r.TaskID, out); err != nil {
			cctx, cancel := cleanupCtx(ctx)
			defer cancel()
			if rerr := s.restore(cctx, r.Repo, out.Deleted); rerr != nil {
				return RejectRecord{}, fmt.Errorf("record reject: %w (and restoring branches failed: %v)", err, rerr)
			}
			return RejectRecord{}, fmt.Errorf("record reject: %w", err)
		}
	}
	return out, nil
}

// deletable returns the task's branches when they may be deleted: they are
// exactly those confirmed, and none is checked out or being rebased.
func (s *Service) deletable(ctx context.Context, r RejectRequest, common string) ([]Branch, error) {
	have, err := s.TaskBranches(ctx, r.Repo, r.TaskID)
	if err != nil {
		return nil, err
	}
	if !sameBranches(have, r.Confirm) {
		return nil, fmt.Errorf("%w: would delete %s", ErrNotConfirmed, Describe(have))
	}
	for _, b := range have {
		if b.Worktree != "" {
			return nil, fmt.Errorf("%s is checked out in %s (remove that worktree first): %w", b.Name, b.Worktree, ErrCheckedOut)
		}
		if err := inProgress(common, "refs/heads/"+b.Name); err != nil {
			return nil, err
		}
	}
	return have, nil
}

// deleteBranches deletes bs, each with a compare-and-swap. When one fails,
// every branch of bs that no longer exists is put back (the failed one
// too: its deletion may have happened all the same) and the error is
// returned.
func (s *Service) deleteBranches(ctx context.Context, repo string, bs []Branch) ([]Branch, error) {
	for i, b := range bs {
		err := s.git.DeleteRef(ctx, repo, "refs/heads/"+b.Name, b.SHA)
		if err != nil {
			cctx, cancel := cleanupCtx(ctx)
			defer cancel()
			_ = s.restore(cctx, repo, bs[:i+1])
			if errors.Is(err, gitx.ErrRefMoved) {
				cur, _, _ := s.git.RefSHA(cctx, repo, "refs/heads/"+b.Name)
				return nil, &MovedError{Ref: "refs/heads/" + b.Name, Expected: b.SHA, Actual: cur}
			}
			return nil, fmt.Errorf("delete %s: %w", b.Name, err)
		}
	}
	// Worktree registrations whose directory is gone and whose branch was
	// just deleted would point at nothing.
	_, _ = s.git.Run(ctx, repo, "worktree", "prune")
	return bs, nil
}

// restore recreates deleted branches (each only if it does not exist).
func (s *Service) restore(ctx context.Context, repo string, bs []Branch) error {
	var errs []error
	for _, b := range bs {
		if err := s.git.UpdateRef(ctx, repo, "refs/heads/"+b.Name, b.SHA, "", "boof-runner: reject rolled back"); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func sameBranches(a, b []Branch) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].SHA != b[i].SHA {
			return false
		}
	}
	return true
}

// Describe lists branches as a reject's confirmation shows them.
func Describe(bs []Branch) string {
	if len(bs) == 0 {
		return "no branches"
	}
	var parts []string
	for _, b := range bs {
		parts = append(parts, fmt.Sprintf("%s at %s (%d commit(s) on no other branch)", b.Name, short(b.SHA), b.Unique))
	}
	return strings.Join(parts, ", ")
}
