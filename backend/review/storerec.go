package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// ErrNoAccept: the task has no accept that has not been undone.
var ErrNoAccept = errors.New("task has no accept to undo")

// StoreRecorder records review decisions in the task store: a status
// change through the store's state machine plus an event of the task's
// history (task.Accepted, task.AcceptUndone, task.Rejected,
// task.ChangesRequested) whose payload is the record. Until the store keeps accept records in columns of their
// own, LastAccept reads them back from the events.
type StoreRecorder struct {
	Store *store.Store
}

var (
	_ AcceptRecorder = StoreRecorder{}
	_ UndoRecorder   = StoreRecorder{}
	_ RejectRecorder = StoreRecorder{}
	_ ChangeRecorder = StoreRecorder{}
)

// RecordAccept moves the task to accepted and appends a task.Accepted event
// holding rec. Errors are the store's (*task.TransitionError, ErrNotFound
// ...); a failed event puts the status back first.
func (r StoreRecorder) RecordAccept(ctx context.Context, taskID string, rec AcceptRecord) error {
	return r.statusAndEvent(ctx, taskID, task.StatusAccepted, task.StatusDone, rec.event())
}

// RecordUndo moves the task back to done and appends a task.AcceptUndone
// event holding the undone record.
func (r StoreRecorder) RecordUndo(ctx context.Context, taskID string, rec AcceptRecord) error {
	return r.statusAndEvent(ctx, taskID, task.StatusDone, task.StatusAccepted, task.AcceptUndone{Accepted: rec.event()})
}

// RecordReject moves the task to rejected and appends a task.Rejected event
// listing the deleted branches. A failed event cannot put the status back
// (rejected may only go on to pending or archived) and is returned.
func (r StoreRecorder) RecordReject(ctx context.Context, taskID string, rec RejectRecord) error {
	return r.statusAndEvent(ctx, taskID, task.StatusRejected, "", rec.event())
}

// QueueFix queues a fix run (store.RequestFix): the task's human_review
// section, the change request with its drops, the next run from the
// developer, the move to pending and a changes_requested event, in one
// transaction.
func (r StoreRecorder) QueueFix(ctx context.Context, f FixRun) (Queued, error) {
	req, err := json.Marshal(f.Request)
	if err != nil {
		return Queued{}, err
	}
	cr, err := r.Store.RequestFix(ctx, store.FixRequest{TaskID: f.TaskID, Body: f.Body, Request: req, Drops: f.Drops,
		Comments: len(f.Request.Comments), General: f.Request.General != "", Source: f.Source})
	if err != nil {
		return Queued{}, err
	}
	return Queued{Request: cr.ID, Fix: cr.Seq, Body: cr.Body}, nil
}

func (r StoreRecorder) statusAndEvent(ctx context.Context, taskID string, to, back task.Status, ev task.EventData) error {
	kind := string(ev.Kind())
	t, err := r.Store.Transition(ctx, taskID, to, store.TransitionNote{Reason: kind})
	if err != nil {
		return err
	}
	if err := r.Store.AppendEvent(ctx, taskID, ev); err != nil {
		if back != "" {
			cctx, cancel := cleanupCtx(ctx)
			defer cancel()
			if _, berr := r.Store.Transition(cctx, taskID, back, store.TransitionNote{Reason: kind + " rolled back"}); berr != nil {
				return fmt.Errorf("%w (and putting %s back to %s failed: %v)", err, t.ID, back, berr)
			}
		}
		return err
	}
	return nil
}

// LastAccept returns the task's latest accept that has not been undone, or
// an error wrapping ErrNoAccept; a task whose pull request was merged on
// its forge gives a *PRMergedError (undo it there). Store errors are
// returned wrapped.
func (r StoreRecorder) LastAccept(ctx context.Context, taskID string) (AcceptRecord, error) {
	if pr, err := r.Store.PullRequest(ctx, taskID); err == nil && pr.State == "merged" {
		return AcceptRecord{}, &PRMergedError{TaskID: taskID, Number: pr.Number, URL: pr.URL, MergeSHA: pr.MergeSHA}
	}
	evs, err := r.Store.Events(ctx, taskID, time.Time{})
	if err != nil {
		return AcceptRecord{}, err
	}
	var last *AcceptRecord
	for _, e := range evs {
		switch d := e.Data.(type) {
		case task.Accepted:
			a := acceptRecordOf(d)
			last = &a
		case task.AcceptUndone:
			last = nil
		case task.Unknown:
			if d.Name == task.EventAccepted {
				return AcceptRecord{}, fmt.Errorf("accept record of %s: unreadable payload %s", taskID, d.Raw)
			}
		}
	}
	if last == nil {
		return AcceptRecord{}, fmt.Errorf("task %s: %w", taskID, ErrNoAccept)
	}
	return *last, nil
}

// event is the history event of an accept.
func (a AcceptRecord) event() task.Accepted {
	return task.Accepted{Strategy: string(a.Strategy), Target: a.Target, OldSHA: a.OldSHA, NewSHA: a.NewSHA,
		TaskHead: a.TaskHead, Leftovers: a.Leftovers, Checkout: a.Checkout, At: a.At, Only: a.Only}
}

// acceptRecordOf reads an accept back from its history event.
func acceptRecordOf(e task.Accepted) AcceptRecord {
	return AcceptRecord{Strategy: Strategy(e.Strategy), Target: e.Target, OldSHA: e.OldSHA, NewSHA: e.NewSHA,
		TaskHead: e.TaskHead, Leftovers: e.Leftovers, Checkout: e.Checkout, At: e.At, Only: e.Only}
}

// event is the history event of a reject.
func (r RejectRecord) event() task.Rejected {
	out := task.Rejected{Deleted: make([]task.RejectedBranch, 0, len(r.Deleted)), At: r.At}
	for _, b := range r.Deleted {
		out.Deleted = append(out.Deleted, task.RejectedBranch{Name: b.Name, SHA: b.SHA, Unique: b.Unique, Worktree: b.Worktree})
	}
	return out
}

// NoteResolution records in the task's log and events what Reconcile did
// with an accept or undo a crash had cut short.
func (r StoreRecorder) NoteResolution(ctx context.Context, res Resolution) error {
	if err := r.Store.AppendLog(ctx, res.Move.TaskID, 0, task.LevelWarn, res.String()); err != nil {
		return err
	}
	return r.Store.AppendEvent(ctx, res.Move.TaskID, task.AcceptReconciled{Op: string(res.Move.Op), Ref: res.Move.Ref,
		Old: res.Move.Old, New: res.Move.New, Completed: res.Completed, Detail: res.Detail})
}
