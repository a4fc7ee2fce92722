package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Release moves an ongoing task back to pending at the front of its
// priority (before every pending task of that priority), records where it
// goes on (rp, when not nil) and the event d (when not nil), in one
// transaction: the task is claimed again, before the others, once the
// claim filter lets it (its tool's pause ended). It returns a *StatusError
// for a task that is not ongoing and ErrNotFound for a missing one;
// nothing changes on error.
func (s *Store) Release(ctx context.Context, taskID string, rp *task.ResumePoint, reason string, d task.EventData) (task.Task, error) {
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		if err := requireStatus("release", taskID, t.Status, task.StatusOngoing); err != nil {
			return err
		}
		at := s.nowMs()
		if d != nil {
			if err := appendEventTx(ctx, tx, taskID, at, d); err != nil {
				return err
			}
		}
		var front int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MIN(position), 0) - 1 FROM tasks WHERE status = 'pending' AND priority = ?`,
			t.Priority).Scan(&front); err != nil {
			return fmt.Errorf("release %s: %w", taskID, err)
		}
		if err := transitionTx(ctx, tx, t, task.StatusPending, TransitionNote{Reason: reason}, at); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET position = ? WHERE id = ?`, front, taskID); err != nil {
			return fmt.Errorf("release %s: %w", taskID, err)
		}
		if rp != nil {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO task_resume (task_id, iteration, step, role, round, attempt, tool, model,
				session_id, reason, after_section, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				taskID, rp.Iteration, rp.Step, string(rp.Role), rp.Round, rp.Attempt, rp.Tool, rp.Model, rp.SessionID, rp.Reason,
				rp.AfterSection, at); err != nil {
				return fmt.Errorf("release %s: %w", taskID, err)
			}
		}
		out, err = getTaskTx(ctx, tx, taskID)
		return err
	})
	return out, err
}

// ResumePoint returns where a released task goes on, and false when it
// starts its run from the beginning.
func (s *Store) ResumePoint(ctx context.Context, taskID string) (task.ResumePoint, bool, error) {
	var rp task.ResumePoint
	var role string
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT task_id, iteration, step, role, round, attempt, tool, model, session_id, reason, after_section, created_at
		FROM task_resume WHERE task_id = ?`, taskID).Scan(&rp.TaskID, &rp.Iteration, &rp.Step, &role, &rp.Round, &rp.Attempt, &rp.Tool, &rp.Model,
		&rp.SessionID, &rp.Reason, &rp.AfterSection, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return task.ResumePoint{}, false, nil
	}
	if err != nil {
		return task.ResumePoint{}, false, fmt.Errorf("resume point of %s: %w", taskID, err)
	}
	rp.Role = task.Role(role)
	rp.CreatedAt = time.UnixMilli(at).UTC()
	return rp, true, nil
}

// DropResume forgets where a task goes on (its run took it up).
func (s *Store) DropResume(ctx context.Context, taskID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM task_resume WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("drop resume point of %s: %w", taskID, err)
	}
	return nil
}

// LastSectionID returns the id of a task's newest section (0 for none): a
// run's own reports are the sections after the id it started with.
func (s *Store) LastSectionID(ctx context.Context, taskID string) (int64, error) {
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM sections WHERE task_id = ?`, taskID).Scan(&id); err != nil {
		return 0, fmt.Errorf("last section of %s: %w", taskID, err)
	}
	return id, nil
}
