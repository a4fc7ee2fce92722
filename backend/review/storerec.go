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

// Event kinds the StoreRecorder appends.
const (
	EventAccepted         = "accepted"
	EventAcceptUndone     = "accept_undone"
	EventRejected         = "rejected"
	EventChangesRequested = "changes_requested"
)

// ErrNoAccept: the task has no accept that has not been undone.
var ErrNoAccept = errors.New("task has no accept to undo")

// StoreRecorder records review decisions in the task store: a status
// change through the store's state machine plus an event whose payload is
// the record. Until the store keeps accept records in columns of their
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

// RecordAccept moves the task to accepted and appends an "accepted" event
// holding rec. Errors are the store's (*task.TransitionError, ErrNotFound
// ...); a failed event puts the status back first.
func (r StoreRecorder) RecordAccept(ctx context.Context, taskID string, rec AcceptRecord) error {
	return r.statusAndEvent(ctx, taskID, task.StatusAccepted, task.StatusDone, EventAccepted, rec)
}

// RecordUndo moves the task back to done and appends an "accept_undone"
// event holding the undone record.
func (r StoreRecorder) RecordUndo(ctx context.Context, taskID string, rec AcceptRecord) error {
	return r.statusAndEvent(ctx, taskID, task.StatusDone, task.StatusAccepted, EventAcceptUndone, rec)
}

// RecordReject moves the task to rejected and appends a "rejected" event
// listing the deleted branches. A failed event cannot put the status back
// (rejected may only go on to pending or archived) and is returned.
func (r StoreRecorder) RecordReject(ctx context.Context, taskID string, rec RejectRecord) error {
	return r.statusAndEvent(ctx, taskID, task.StatusRejected, "", EventRejected, rec)
}

// RecordChangeRequest adds body as the task's human_review section, moves
// the task to pending and appends a "changes_requested" event.
func (r StoreRecorder) RecordChangeRequest(ctx context.Context, taskID, body string, c ChangeRequest) error {
	if _, err := r.Store.AddSection(ctx, task.Section{TaskID: taskID, Kind: task.SectionHumanReview, Body: body}); err != nil {
		return err
	}
	return r.statusAndEvent(ctx, taskID, task.StatusPending, "", EventChangesRequested,
		map[string]int{"comments": len(c.Comments), "drops": len(c.Drops)})
}

func (r StoreRecorder) statusAndEvent(ctx context.Context, taskID string, to, back task.Status, kind string, payload any) error {
	t, err := r.Store.Transition(ctx, taskID, to, store.TransitionNote{Reason: kind})
	if err != nil {
		return err
	}
	if err := r.Store.AppendEvent(ctx, taskID, kind, payload); err != nil {
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
// an error wrapping ErrNoAccept. Store errors are returned wrapped.
func (r StoreRecorder) LastAccept(ctx context.Context, taskID string) (AcceptRecord, error) {
	evs, err := r.Store.Events(ctx, taskID, time.Time{})
	if err != nil {
		return AcceptRecord{}, err
	}
	var last *AcceptRecord
	for _, e := range evs {
		switch e.Kind {
		case EventAccepted:
			var a AcceptRecord
			if err := json.Unmarshal(e.Payload, &a); err != nil {
				return AcceptRecord{}, fmt.Errorf("accept record of %s: %w", taskID, err)
			}
			last = &a
		case EventAcceptUndone:
			last = nil
		}
	}
	if last == nil {
		return AcceptRecord{}, fmt.Errorf("task %s: %w", taskID, ErrNoAccept)
	}
	return *last, nil
}

// EventReconciled is the event kind NoteResolution appends.
const EventReconciled = "accept_reconciled"

// NoteResolution records in the task's log and events what Reconcile did
// with an accept or undo a crash had cut short.
func (r StoreRecorder) NoteResolution(ctx context.Context, res Resolution) error {
	if err := r.Store.AppendLog(ctx, res.Move.TaskID, 0, task.LevelWarn, res.String()); err != nil {
		return err
	}
	return r.Store.AppendEvent(ctx, res.Move.TaskID, EventReconciled, res)
}
