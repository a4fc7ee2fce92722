package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// SetSkip sets whether the runner skips a task. It returns an error wrapping
// ErrNotFound for a missing task and a *StatusError for a running one.
func (s *Store) SetSkip(ctx context.Context, id string, skip bool) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := notRunning("edit", id, t.Status); err != nil {
			return err
		}
		at := s.nowMs()
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET skip = ?, updated_at = ? WHERE id = ?`, skip, at, id); err != nil {
			return fmt.Errorf("set skip %s: %w", id, err)
		}
		return appendEventTx(ctx, tx, id, at, task.SkipChanged{Skip: skip})
	})
}

// SetPriority sets a task's priority. It returns an error wrapping
// task.ErrInvalid outside ±task.MaxPriority, ErrNotFound for a missing task
// and a *StatusError for a running one.
func (s *Store) SetPriority(ctx context.Context, id string, priority int) error {
	if priority < -task.MaxPriority || priority > task.MaxPriority {
		return invalidf("priority %d is outside ±%d", priority, task.MaxPriority)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := notRunning("edit", id, t.Status); err != nil {
			return err
		}
		at := s.nowMs()
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET priority = ?, updated_at = ? WHERE id = ?`, priority, at, id); err != nil {
			return fmt.Errorf("set priority %s: %w", id, err)
		}
		return appendEventTx(ctx, tx, id, at, task.PriorityChanged{Priority: priority})
	})
}

// Reorder moves a pending or draft task directly before (beforeID) or after
// (afterID) another pending or draft task in queue order; exactly one of the
// two must be set. The moved task takes the anchor's priority and the tasks of
// that priority are renumbered. It returns an error wrapping task.ErrInvalid
// for bad arguments, a *StatusError for tasks in other statuses and
// ErrNotFound for missing ones.
func (s *Store) Reorder(ctx context.Context, id, beforeID, afterID string) error {
	if (beforeID == "") == (afterID == "") {
		return invalidf("reorder needs exactly one of before and after")
	}
	anchorID, after := beforeID, false
	if afterID != "" {
		anchorID, after = afterID, true
	}
	if anchorID == id {
		return invalidf("cannot move a task relative to itself")
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		moved, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		anchor, err := getTaskTx(ctx, tx, anchorID)
		if err != nil {
			return err
		}
		for _, t := range []task.Task{moved, anchor} {
			if err := requireStatus("reorder", t.ID, t.Status, task.StatusPending, task.StatusDraft); err != nil {
				return err
			}
		}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM tasks WHERE status IN ('pending', 'draft') AND priority = ? AND id != ?
			ORDER BY position, created_at, id`, anchor.Priority, id)
		if err != nil {
			return fmt.Errorf("reorder: %w", err)
		}
		var order []string
		for rows.Next() {
			var tid string
			if err := rows.Scan(&tid); err != nil {
				rows.Close()
				return fmt.Errorf("reorder: %w", err)
			}
			if tid == anchorID && !after {
				order = append(order, id)
			}
			order = append(order, tid)
			if tid == anchorID && after {
				order = append(order, id)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reorder: %w", err)
		}
		at := s.nowMs()
		stmt, err := tx.PrepareContext(ctx, `UPDATE tasks SET position = ?, priority = ? WHERE id = ?`)
		if err != nil {
			return fmt.Errorf("reorder: %w", err)
		}
		defer stmt.Close()
		for i, tid := range order {
			if _, err := stmt.ExecContext(ctx, i+1, anchor.Priority, tid); err != nil {
				return fmt.Errorf("reorder: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET updated_at = ? WHERE id = ?`, at, id); err != nil {
			return fmt.Errorf("reorder: %w", err)
		}
		return appendEventTx(ctx, tx, id, at, task.Reordered{Anchor: anchorID, After: after, Priority: anchor.Priority})
	})
}
