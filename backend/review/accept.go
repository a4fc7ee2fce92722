package review

import (
	"context"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
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
	// Only lists the files and hunks a hunk-level accept took; empty
	// for the whole branch.
	Only []task.AcceptedFile `json:"only,omitempty"`
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
// commit without touching any working tree, then moves the target ref
// with a journaled compare-and-swap against the commit the plan was made
// on (MoveRef), bringing the target's checkout (if any) to the new commit
// and calling rec (when not nil). A move an earlier accept of this
// repository left half done is reconciled first (with rec, when it is a
// Recorder). Whatever fails, nothing is left changed: a refused plan
// returns the errors of Plan; a replay conflict during rebase
// *ConflictError; a target moved meanwhile *MovedError; a checkout that
// became dirty or whose untracked files would be overwritten *DirtyError;
// a recorder error is returned wrapped after the target is put back;
// ErrNoJournal without a journal.
func (s *Service) Accept(ctx context.Context, r Request, rec AcceptRecorder) (AcceptRecord, error) {
	if s.journal == nil {
		return AcceptRecord{}, ErrNoJournal
	}
	junlock, err := s.journal.lock(ctx)
	if err != nil {
		return AcceptRecord{}, fmt.Errorf("accept: %w", err)
	}
	defer junlock()
	ctx = s.tagged(ctx, r.TaskID, string(OpAccept))
	common, unlock, err := s.lockRepo(ctx, r.Repo)
	if err != nil {
		return AcceptRecord{}, fmt.Errorf("accept: %w", err)
	}
	defer unlock()
	full, _ := rec.(Recorder)
	if _, err := s.reconcileRepo(ctx, common, full); err != nil {
		return AcceptRecord{}, err
	}
	p, err := s.plan(ctx, r, common, false)
	if err != nil {
		return AcceptRecord{}, err
	}
	newSHA, err := s.build(ctx, r, p)
	if err != nil {
		return AcceptRecord{}, err
	}
	failpoint.Hit(FailAcceptBuilt)
	out := AcceptRecord{
		Strategy: p.Strategy, Target: p.TargetRef, OldSHA: p.TargetSHA, NewSHA: newSHA,
		TaskHead: p.TaskHead, Leftovers: p.Leftovers, At: s.now().UTC(), Only: p.Only,
	}
	// The build takes a while (a rebase replays): the user may have
	// switched branches since the plan.
	if out.Checkout, err = s.checkoutOf(ctx, r.Repo, p.TargetRef); err != nil {
		return AcceptRecord{}, err
	}
	if out.Checkout == "" {
		if err := inProgress(common, p.TargetRef); err != nil {
			return AcceptRecord{}, err
		}
	}
	mv := Move{Op: OpAccept, TaskID: r.TaskID, Repo: r.Repo, Common: common, Ref: out.Target,
		Old: out.OldSHA, New: newSHA, Strategy: p.Strategy, Checkout: out.Checkout, Record: out}
	record := func(ctx context.Context) error {
		if rec == nil {
			return nil
		}
		return rec.RecordAccept(ctx, r.TaskID, out)
	}
	if err := s.move(ctx, mv, record); err != nil {
		return AcceptRecord{}, err
	}
	return out, nil
}

// FailAcceptBuilt is the failpoint after an accept built its commit and
// before it journals the move (a pause there lets a test move the target).
const FailAcceptBuilt = "accept:built"

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
// and its checkout, if any, is clean; then calls rec (when not nil). It is
// a journaled move (MoveRef) like the accept. Errors: *MovedError when the
// target moved on (nothing changed), *DirtyError for a dirty checkout,
// ErrNoTarget when the target is gone, *task.TransitionError, a wrapped
// recorder error after the accept is put back, ErrNoJournal, or wrapped
// gitx errors.
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
	if s.journal == nil {
		return ErrNoJournal
	}
	junlock, err := s.journal.lock(ctx)
	if err != nil {
		return fmt.Errorf("undo accept: %w", err)
	}
	defer junlock()
	ctx = s.tagged(ctx, r.TaskID, string(OpUndo))
	common, unlock, err := s.lockRepo(ctx, r.Repo)
	if err != nil {
		return fmt.Errorf("undo accept: %w", err)
	}
	defer unlock()
	full, _ := rec.(Recorder)
	if _, err := s.reconcileRepo(ctx, common, full); err != nil {
		return err
	}
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
	mv := Move{Op: OpUndo, TaskID: r.TaskID, Repo: r.Repo, Common: common, Ref: ref,
		Old: a.NewSHA, New: a.OldSHA, Strategy: a.Strategy, Checkout: dir, Record: a}
	record := func(ctx context.Context) error {
		if rec == nil {
			return nil
		}
		return rec.RecordUndo(ctx, r.TaskID, a)
	}
	return s.move(ctx, mv, record)
}
