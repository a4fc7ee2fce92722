package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// RetryOptions choose where a retried task's next run begins.
type RetryOptions struct {
	// From is "" for the default (a stopped task resumes at the step that
	// was cut short, and so does a failed one whose outcome could not be
	// recorded (ReasonUnrecorded); another failed one restarts at the
	// planner),
	// task.RolePlanner to start over, or task.RoleDeveloper to restart at
	// the developer with the last final plan.
	From task.Role
}

// ErrNoPlan: a retry from the developer of a task that has no final plan.
var ErrNoPlan = errors.New("task has no final plan")

// NoPlanError refuses a retry from the developer of a task whose planning
// never finished.
type NoPlanError struct{ TaskID string }

func (e *NoPlanError) Error() string {
	return fmt.Sprintf("retry %s from the developer: it has no final plan", e.TaskID)
}

// Unwrap lets errors.Is match ErrNoPlan.
func (e *NoPlanError) Unwrap() error { return ErrNoPlan }

// RetryWith re-queues a failed or stopped task (keeping its worktree and
// branch) with its next run chosen by o; a review the task was fixing
// stays with it. Errors: a *StatusError for a task in another status, an
// error wrapping task.ErrInvalid for another From, a *NoPlanError for a
// retry from the developer without a final plan, ErrNotFound; nothing
// changes on error.
func (s *Store) RetryWith(ctx context.Context, id string, o RetryOptions) (task.Task, error) {
	switch o.From {
	case "", task.RolePlanner, task.RoleDeveloper:
	default:
		return task.Task{}, invalidf("a retry starts at the planner or the developer, not %q", o.From)
	}
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := requireStatus("retry", id, t.Status, task.StatusFailed, task.StatusStopped); err != nil {
			return err
		}
		start := task.RunStart{Review: t.RunStart.Review, Fix: t.RunStart.Fix}
		switch {
		case o.From == task.RoleDeveloper:
			var plans int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sections WHERE task_id = ? AND kind = 'final_plan'`, id).Scan(&plans); err != nil {
				return fmt.Errorf("retry %s: %w", id, err)
			}
			if plans == 0 {
				return &NoPlanError{TaskID: id}
			}
			start.From = task.RoleDeveloper
		case o.From == "" && t.Status == task.StatusStopped:
			start.Resume = true
			start.From = t.RunStart.From // what the cut-short run started from, should nothing be left to resume
		case o.From == "" && t.Status == task.StatusFailed:
			reason, err := lastStatusReasonTx(ctx, tx, id)
			if err != nil {
				return err
			}
			if reason == ReasonUnrecorded { // cut short by the store, not failed by its work
				start.Resume = true
				start.From = t.RunStart.From
			}
		}
		if err := setRunStartTx(ctx, tx, id, start); err != nil {
			return err
		}
		if err := transitionTx(ctx, tx, t, task.StatusPending, TransitionNote{Reason: "retry"}, s.nowMs()); err != nil {
			return err
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	return out, err
}

// ReasonUnrecorded is the reason of the status change that records a task
// as failed because its run's outcome could not be recorded (the disk
// filled up): the run was cut short, and a default retry resumes it.
const ReasonUnrecorded = "outcome not recorded"

// lastStatusReasonTx returns the reason of the task's last status change.
func lastStatusReasonTx(ctx context.Context, tx *sql.Tx, id string) (string, error) {
	var reason sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT json_extract(payload, '$.reason') FROM events
		WHERE task_id = ? AND kind = 'status_changed' AND json_valid(payload) ORDER BY at DESC, id DESC LIMIT 1`, id).Scan(&reason)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("last status change of %s: %w", id, err)
	}
	return reason.String, nil
}

func setRunStartTx(ctx context.Context, tx *sql.Tx, id string, start task.RunStart) error {
	if _, err := tx.ExecContext(ctx, `UPDATE tasks SET run_start = ? WHERE id = ?`, mustJSON(start), id); err != nil {
		return fmt.Errorf("set next run of %s: %w", id, err)
	}
	return nil
}

// RetargetExecution gives the execution a claim opened (which names the
// planner) to the step a run really starts with — the developer of a fix
// run, the step a resumed run continues — before any process started: its
// role, round, attempt and transcript path. It returns an error wrapping
// ErrNotFound when no such open execution without a process exists.
func (s *Store) RetargetExecution(ctx context.Context, e task.Execution) error {
	if err := e.Normalize(); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE executions SET role = ?, round = ?, attempt = ?, transcript_path = ?, tool = ?, model = ?
		WHERE id = ? AND ended_at IS NULL AND COALESCE(pid, 0) = 0`,
		string(e.Role), e.Round, e.Attempt, e.TranscriptPath, e.Tool, e.Model, e.ID)
	if err != nil {
		return fmt.Errorf("retarget execution %d: %w", e.ID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("retarget execution %d: %w", e.ID, ErrNotFound)
	}
	return nil
}
