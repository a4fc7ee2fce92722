package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Recorder records journaled moves in the task store and tells whether one
// was recorded already (StoreRecorder). Reconciling a move cut short by a
// crash needs all three.
type Recorder interface {
	AcceptRecorder
	UndoRecorder
	// LastAccept returns the task's latest accept not undone, or an error
	// wrapping ErrNoAccept.
	LastAccept(ctx context.Context, taskID string) (AcceptRecord, error)
}

// RefMove asks MoveRef to move a target ref.
type RefMove struct {
	Op     Op
	TaskID string
	// Repo is any directory of the repository.
	Repo string
	// Ref is the full ref (refs/heads/...), moved from Old to New.
	Ref      string
	Old, New string
	Strategy Strategy
	// Record is the accept the move records (OpAccept) or undoes (OpUndo).
	Record AcceptRecord
}

// MoveRef is the one journaled ref move that accepts build on (a whole
// accept, a hunk accept's squash commit built from a temporary index, a
// merge queue's landing built in a temporary worktree): it moves m.Ref
// from m.Old to m.New with a compare-and-swap and, when the ref is checked
// out, brings that checkout along, then records the move with rec. The
// intent is durable in the journal before the ref moves, so a crash at any
// point leaves a move that Reconcile completes (or rolls back) at the next
// start; every move first reconciles what an earlier one left in the same
// repository. A signal (ctx ending) before the intent is written stops the
// move with nothing changed; after it, the move, its checkout update and
// its record are finished first (bounded by gitx's interrupt grace), so
// that a signal never leaves the ref moved and nothing recorded. Whatever
// fails, nothing is left changed. Errors: ErrNoJournal, *MovedError (the
// ref no longer holds m.Old), *DirtyError (the checkout cannot move
// cleanly), a wrapped recorder error after the move was put back, an error
// matching ErrUnsettled (the journal keeps the move for the next
// reconciliation), or wrapped gitx errors.
func (s *Service) MoveRef(ctx context.Context, m RefMove, rec Recorder) error {
	if s.journal == nil {
		return ErrNoJournal
	}
	for _, sha := range []string{m.Old, m.New} {
		if err := gitx.CheckRev(sha); err != nil {
			return fmt.Errorf("move %s: %w", m.Ref, err)
		}
	}
	ref, err := branchRef(m.Ref)
	if err != nil {
		return err
	}
	unlock, err := s.journal.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	ctx = s.tagged(ctx, m.TaskID, string(m.Op))
	common, unlockRepo, err := s.lockRepo(ctx, m.Repo)
	if err != nil {
		return fmt.Errorf("move %s: %w", ref, err)
	}
	defer unlockRepo()
	if _, err := s.reconcileRepo(ctx, common, rec); err != nil {
		return err
	}
	dir, err := s.checkoutOf(ctx, m.Repo, ref)
	if err != nil {
		return err
	}
	if dir == "" {
		if err := inProgress(common, ref); err != nil {
			return err
		}
	}
	mv := Move{Op: m.Op, TaskID: m.TaskID, Repo: m.Repo, Common: common, Ref: ref, Old: m.Old, New: m.New,
		Strategy: m.Strategy, Checkout: dir, Record: m.Record}
	return s.move(ctx, mv, s.recordFunc(mv, rec))
}

// recordFunc returns what records mv in rec (nothing when rec is nil).
func (s *Service) recordFunc(mv Move, rec interface {
	AcceptRecorder
	UndoRecorder
}) func(context.Context) error {
	return func(ctx context.Context) error {
		if rec == nil {
			return nil
		}
		if mv.Op == OpUndo {
			return rec.RecordUndo(ctx, mv.TaskID, mv.Record)
		}
		return rec.RecordAccept(ctx, mv.TaskID, mv.Record)
	}
}

// Failpoints of a journaled move, "<op>:<point>" (see backend/failpoint).
const (
	failIntent        = "intent"         // the intent is durable, the ref has not moved
	failRefMoved      = "ref-moved"      // the ref moved, the checkout not yet
	failCheckoutMoved = "checkout-moved" // the checkout moved, nothing recorded yet
	failRecorded      = "recorded"       // recorded, the journal entry not yet removed
)

// move runs a journaled move; the caller holds the journal lock and the
// repository lock, and has set mv's Checkout. record is called once ref
// and checkout moved; its error puts both back.
//
// The cancellation boundary is the intent: a ctx that ended before it is
// written stops the move with nothing changed; from the intent on, the
// move, its checkout update and its record run to their end under a
// critical context (gitx.Critical) whatever happens to ctx (a signal), and
// the journal entry is dropped only once the move is recorded, rolled back,
// or read back from the ref as not made.
func (s *Service) move(ctx context.Context, mv Move, record func(context.Context) error) error {
	if mv.Checkout != "" {
		if err := s.checkClean(ctx, mv.Checkout, mv.Old, mv.New); err != nil {
			return err
		}
		mv.CheckoutClean = true
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("move %s: %w", mv.Ref, err)
	}
	ctx, cancel := s.critical(ctx, mv.TaskID, fmt.Sprintf("%s moves for the %s", strings.TrimPrefix(mv.Ref, "refs/heads/"), moveReason(mv.Op)))
	defer cancel()
	mv.ID, mv.State, mv.At = newMoveID(s.now()), stateIntent, s.now().UTC()
	if err := s.journal.write(mv); err != nil {
		return err
	}
	fail := func(point string) { failpoint.Hit(string(mv.Op) + ":" + point) }
	fail(failIntent)
	if s.beforeSwap != nil {
		s.beforeSwap()
	}
	reason := "boof-runner: " + moveReason(mv.Op)
	if err := s.git.UpdateRef(ctx, mv.Repo, mv.Ref, mv.New, mv.Old, reason); err != nil {
		if err := s.notMoved(ctx, mv, err); err != nil {
			return err
		}
	}
	fail(failRefMoved)
	if mv.Checkout != "" {
		if err := s.moveCheckout(ctx, mv.Checkout, mv.Old, mv.New); err != nil {
			return s.rollback(ctx, mv, err)
		}
	}
	fail(failCheckoutMoved)
	if err := record(ctx); err != nil {
		return s.rollback(ctx, mv, fmt.Errorf("record %s: %w", moveReason(mv.Op), err))
	}
	fail(failRecorded)
	// The move is complete; an entry that cannot be removed is found
	// recorded by the next reconciliation and removed then.
	_ = s.journal.remove(mv.ID)
	return nil
}

// notMoved settles a move whose ref update failed by reading the ref
// back: it returns nil when the ref holds mv.New all the same (git was
// stopped, or failed, after the ref moved: the move goes on); otherwise
// the error to return, having dropped the journal entry when the ref is
// known not to have moved, and kept it when the ref cannot be read (the
// next reconciliation settles it).
func (s *Service) notMoved(ctx context.Context, mv Move, err error) error {
	rctx, cancel := cleanupCtx(ctx) // read back even when the grace is over
	defer cancel()
	cur, ok, rerr := s.git.RefSHA(rctx, mv.Repo, mv.Ref)
	switch {
	case rerr != nil:
		return fmt.Errorf("move %s: %w (%w: %v)", mv.Ref, err, ErrUnsettled, rerr)
	case ok && cur == mv.New:
		return nil
	}
	_ = s.journal.remove(mv.ID)
	if errors.Is(err, gitx.ErrRefMoved) {
		return &MovedError{Ref: mv.Ref, Expected: mv.Old, Actual: cur}
	}
	return fmt.Errorf("move %s: %w", mv.Ref, err)
}

// critical enters a critical section for the task (gitx.Critical: ctx
// ending no longer cuts it short); when ctx ends meanwhile (a signal), the
// notice says that what is under way is finished first.
func (s *Service) critical(ctx context.Context, taskID, what string) (context.Context, context.CancelFunc) {
	cctx, cancel := s.git.Critical(ctx)
	if s.notice == nil {
		return cctx, cancel
	}
	stop := context.AfterFunc(ctx, func() {
		s.notice(taskID, "interrupted while "+what+": that is finished first, then this stops")
	})
	return cctx, func() {
		stop()
		cancel()
	}
}

// rollback puts a failed move back (journaled as a rollback first, so a
// crash meanwhile is finished by Reconcile) and returns cause, with what
// could not be put back.
func (s *Service) rollback(ctx context.Context, mv Move, cause error) error {
	cctx, cancel := cleanupCtx(ctx)
	defer cancel()
	mv.State = stateRollback
	if err := s.journal.write(mv); err != nil {
		return fmt.Errorf("%w (and journaling the rollback failed: %v)", cause, err)
	}
	if err := s.putBack(cctx, mv); err != nil {
		return fmt.Errorf("%w (and putting %s back failed: %v)", cause, mv.Ref, err)
	}
	_ = s.journal.remove(mv.ID)
	return cause
}

func moveReason(op Op) string {
	if op == OpUndo {
		return "undo accept"
	}
	return "accept"
}

// tagged marks the git commands run under ctx with the accept's step tag.
func (s *Service) tagged(ctx context.Context, taskID, step string) context.Context {
	if s.journal == nil || s.journal.scope == "" {
		return ctx
	}
	return gitx.WithCallEnv(ctx, proc.StepTagEnv(s.journal.scope, proc.OwnerAccept, taskID, step))
}
