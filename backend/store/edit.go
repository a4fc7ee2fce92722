package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// FieldEdit changes some of a task's fields; a nil field stays as it is.
type FieldEdit struct {
	Title    *string
	Labels   []string
	SetLabel bool // Labels replaces the labels (an empty list clears them)
	Priority *int
	Skip     *bool
}

// EditFields applies e in one transaction: all of it or, on error, none.
// Title and labels may change while the task is a draft or pending (as
// UpdateTask); priority and skip in any status but ongoing (the queue has
// taken a running task already). It returns an error wrapping
// task.ErrInvalid for a bad value, a *StatusError for a title or label
// change in another status or a priority or skip change of a running task,
// and ErrNotFound for a missing task.
func (s *Store) EditFields(ctx context.Context, id string, e FieldEdit) (task.Task, error) {
	var labels []string
	if e.SetLabel {
		var err error
		if labels, err = task.NormalizeLabels(e.Labels); err != nil {
			return task.Task{}, err
		}
	}
	if e.Title != nil {
		n, err := task.NewTask{Prompt: "x", Title: *e.Title}.Normalize()
		if err != nil {
			return task.Task{}, err
		}
		e.Title = &n.Title
	}
	if e.Priority != nil && (*e.Priority < -task.MaxPriority || *e.Priority > task.MaxPriority) {
		return task.Task{}, invalidf("priority %d is outside ±%d", *e.Priority, task.MaxPriority)
	}
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if e.Priority != nil || e.Skip != nil {
			if err := notRunning("edit", id, t.Status); err != nil {
				return err
			}
		}
		at := s.nowMs()
		var set []string
		var args []any
		if e.Title != nil || e.SetLabel {
			if err := requireStatus("edit", id, t.Status, task.StatusDraft, task.StatusPending); err != nil {
				return err
			}
			if e.Title != nil {
				set, args = append(set, "title = ?"), append(args, *e.Title)
			}
			if e.SetLabel {
				set, args = append(set, "labels = ?"), append(args, mustJSON(labels))
			}
			if err := appendEventTx(ctx, tx, id, at, task.Edited{}); err != nil {
				return err
			}
		}
		if e.Priority != nil {
			set, args = append(set, "priority = ?"), append(args, *e.Priority)
			if err := appendEventTx(ctx, tx, id, at, task.PriorityChanged{Priority: *e.Priority}); err != nil {
				return err
			}
		}
		if e.Skip != nil {
			set, args = append(set, "skip = ?"), append(args, *e.Skip)
			if err := appendEventTx(ctx, tx, id, at, task.SkipChanged{Skip: *e.Skip}); err != nil {
				return err
			}
		}
		if len(set) > 0 {
			args = append(append(args, at), id)
			if _, err := tx.ExecContext(ctx, `UPDATE tasks SET `+strings.Join(set, ", ")+`, updated_at = ? WHERE id = ?`, args...); err != nil {
				return fmt.Errorf("edit task %s: %w", id, err)
			}
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	return out, err
}
