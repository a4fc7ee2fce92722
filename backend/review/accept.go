package review

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// AcceptRecord is what an accept did, kept on the task so it can be shown
// and undone.
type AcceptRecord struct {
	Strategy Strategy `json:"strategy"`
	// Target is the full target ref (refs/heads/...).
	Target string `json:"target"`
	// OldSHA and NewSHA are the target's commit before and after.
	OldSHA string `json:"old_sha"`
	NewSHA string `json:"new_sha"`
	// TaskHead is the task branch commit that was accepted.
	TaskHead string `json:"task_head"`
	// Leftovers is the leftovers commit included, "" when none.
	Leftovers string `json:"leftovers,omitempty"`
	// Checkout is the directory whose checkout was moved, "" when none.
	Checkout string `json:"checkout,omitempty"`
	// At is when the accept was made.
	At time.Time `json:"at"`
}

// AcceptRecorder stores an accept on the task: status accepted, the
// record, and an event, in one transaction. An error makes Accept put the
// target back where it was.
type AcceptRecorder interface {
	RecordAccept(ctx context.Context, taskID string, rec AcceptRecord) error
}

// UndoRecorder stores the undo of an accept: status done and an event.
// An error makes Undo put the accept back.
type UndoRecorder interface {
	RecordUndo(ctx context.Context, taskID string, rec AcceptRecord) error
}

// Accept makes the dry run of r and, when it is clean, builds the result
// commit without touching any working tree, moves the target ref with a
// compare-and-swap against the commit the plan was made on, brings the
// target's checkout (if any) to the new commit, and calls rec (when not
// nil). Whatever fails, nothing is left changed: a refused plan returns
// the errors of Plan; a replay conflict during rebase *ConflictError; a
// target moved meanwhile *MovedError; a checkout that became dirty or
// whose untracked files would be overwritten *DirtyError; a recorder
// error is returned wrapped after the target is put back.
func (s *Service) Accept(ctx context.Context, r Request, rec AcceptRecorder) (AcceptRecord, error) {
	common, unlock, err := s.lockRepo(ctx, r.Repo)
	if err != nil {
		return AcceptRecord{}, fmt.Errorf("accept: %w", err)
	}
	defer unlock()
	p, err := s.plan(ctx, r, common, false)
	if err != nil {
		return AcceptRecord{}, err
	}
	newSHA, err := s.build(ctx, r, p)
	if err != nil {
		return AcceptRecord{}, err
	}
	out := AcceptRecord{
		Strategy: p.Strategy, Target: p.TargetRef, OldSHA: p.TargetSHA, NewSHA: newSHA,
		TaskHead: p.TaskHead, Leftovers: p.Leftovers, At: s.now().UTC(),
	}
	out.Checkout = p.Checkout
	if p.Strategy == StrategyRebase && !p.FastForward {
		// A replay takes a while: the user may have switched branches.
		if out.Checkout, err = s.checkoutOf(ctx, r.Repo, p.TargetRef); err != nil {
			return AcceptRecord{}, err
		}
	}
	if err := s.swap(ctx, r.Repo, out.Target, out.Checkout, out.OldSHA, newSHA, "accept"); err != nil {
		return AcceptRecord{}, err
	}
	if rec != nil {
		if err := rec.RecordAccept(ctx, r.TaskID, out); err != nil {
			cctx, cancel := cleanupCtx(ctx)
			defer cancel()
			if rerr := s.swap(cctx, r.Repo, out.Target, out.Checkout, newSHA, out.OldSHA, "accept rolled back"); rerr != nil {
				return AcceptRecord{}, fmt.Errorf("record accept: %w (and putting %s back failed: %v)", err, out.Target, rerr)
			}
			return AcceptRecord{}, fmt.Errorf("record accept: %w", err)
		}
	}
	return out, nil
}

// UndoRequest asks to undo an accept.
type UndoRequest struct {
	// Repo is the task's working directory.
	Repo   string `json:"repo"`
	TaskID string `json:"task_id"`
	// Status, when set, is the task's status; one that may not return to
	// done is refused before git runs.
	Status task.Status `json:"status,omitempty"`
	// Record is the accept to undo.
	Record AcceptRecord `json:"record"`
}

// Undo moves the target back from the accept's commit to the commit it had
// before, while it still points at the accept's commit (compare-and-swap)
// and its checkout, if any, is clean; then calls rec (when not nil).
// Errors: *MovedError when the target moved on (nothing changed),
// *DirtyError for a dirty checkout, ErrNoTarget when the target is gone,
// *task.TransitionError, a wrapped recorder error after the accept is put
// back, or wrapped gitx errors.
func (s *Service) Undo(ctx context.Context, r UndoRequest, rec UndoRecorder) error {
	if r.Status != "" {
		if err := task.CheckTransition(r.Status, task.StatusDone); err != nil {
			return err
		}
	}
	a := r.Record
	for _, sha := range []string{a.OldSHA, a.NewSHA} {
		if err := gitx.CheckRev(sha); err != nil {
			return fmt.Errorf("undo accept: record: %w", err)
		}
	}
	common, unlock, err := s.lockRepo(ctx, r.Repo)
	if err != nil {
		return fmt.Errorf("undo accept: %w", err)
	}
	defer unlock()
	ref, err := branchRef(a.Target)
	if err != nil {
		return err
	}
	cur, err := s.mustRef(ctx, r.Repo, ref, ErrNoTarget)
	if err != nil {
		return err
	}
	if cur != a.NewSHA {
		return &MovedError{Ref: ref, Expected: a.NewSHA, Actual: cur}
	}
	dir, err := s.checkoutOf(ctx, r.Repo, ref)
	if err != nil {
		return err
	}
	if dir == "" {
		if err := inProgress(common, ref); err != nil {
			return err
		}
	}
	if err := s.swap(ctx, r.Repo, ref, dir, a.NewSHA, a.OldSHA, "undo accept"); err != nil {
		return err
	}
	if rec != nil {
		if err := rec.RecordUndo(ctx, r.TaskID, a); err != nil {
			cctx, cancel := cleanupCtx(ctx)
			defer cancel()
			if rerr := s.swap(cctx, r.Repo, ref, dir, a.OldSHA, a.NewSHA, "undo accept rolled back"); rerr != nil {
				return fmt.Errorf("record undo: %w (and restoring the accept failed: %v)", err, rerr)
			}
			return fmt.Errorf("record undo: %w", err)
		}
	}
	return nil
}

// swap moves ref from old to new with a compare-and-swap and, when dir is
// the ref's checkout, brings that checkout along. A checkout that cannot
// move cleanly is refused before the ref moves; a checkout update that
// still fails puts the ref back.
func (s *Service) swap(ctx context.Context, repo, ref, dir, old, new, reason string) error {
	if dir != "" {
		if err := s.checkClean(ctx, dir, old, new); err != nil {
			return err
		}
	}
	if s.beforeSwap != nil {
		s.beforeSwap()
	}
	if err := s.git.UpdateRef(ctx, repo, ref, new, old, "boof-runner: "+reason); err != nil {
		if errors.Is(err, gitx.ErrRefMoved) {
			cur, _, _ := s.git.RefSHA(ctx, repo, ref)
			return &MovedError{Ref: ref, Expected: old, Actual: cur}
		}
		return fmt.Errorf("move %s: %w", ref, err)
	}
	if dir == "" {
		return nil
	}
	if err := s.moveCheckout(ctx, dir, old, new); err != nil {
		cctx, cancel := cleanupCtx(ctx)
		defer cancel()
		if rerr := s.git.UpdateRef(cctx, repo, ref, old, new, "boof-runner: "+reason+" rolled back"); rerr != nil {
			return fmt.Errorf("%w (and putting %s back failed: %v)", err, ref, rerr)
		}
		return err
	}
	return nil
}
