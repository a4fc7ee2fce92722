package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// NextPending returns the task the runner should take next: the
// highest-priority, non-skipped pending task that is not one of except (the
// tasks the runner holds back); ties go to the lower position (set by
// Reorder), then the oldest. It returns an error wrapping ErrNotFound when
// the queue is empty.
func (s *Store) NextPending(ctx context.Context, except ...string) (task.Task, error) {
	q := `SELECT ` + taskColumns + ` FROM tasks WHERE status = 'pending' AND skip = 0`
	args := make([]any, len(except))
	if len(except) > 0 {
		q += ` AND id NOT IN (` + strings.TrimSuffix(strings.Repeat("?,", len(except)), ",") + `)`
		for i, id := range except {
			args[i] = id
		}
	}
	row := s.db.QueryRowContext(ctx, q+` ORDER BY priority DESC, position, created_at, id LIMIT 1`, args...)
	t, err := scanTask(row)
	if errors.Is(err, sql.ErrNoRows) {
		return task.Task{}, fmt.Errorf("next pending task: %w", ErrNotFound)
	}
	if err != nil {
		return task.Task{}, fmt.Errorf("next pending task: %w", err)
	}
	return t, nil
}

// ClaimInfo describes the first execution a claim opens.
type ClaimInfo struct {
	// Runner identifies the claiming runner (host/pid), recorded in the event.
	Runner         string
	Iteration      int
	Role           task.Role
	Round          int
	Attempt        int
	Tool           string
	Model          string
	TranscriptPath string
	// Repo is the working directory the task runs in, recorded on a task
	// that has none yet (one added without a working directory).
	Repo string
}

// Claim moves a pending, non-skipped task to ongoing with one conditional
// UPDATE inside the transaction that inserts its first execution row, and
// records claimed and status_changed events there too; a task with no
// working directory recorded gets c.Repo. A claim that loses a
// race (or finds the task no longer pending) returns a *ClaimConflictError
// (errors.Is ErrClaimConflict) and changes nothing; do not retry it. A
// missing task returns an error wrapping ErrNotFound; bad ClaimInfo one
// wrapping task.ErrInvalid.
func (s *Store) Claim(ctx context.Context, taskID string, c ClaimInfo) (task.Execution, error) {
	e := task.Execution{TaskID: taskID, Iteration: c.Iteration, Role: c.Role, Round: c.Round, Attempt: c.Attempt,
		Tool: c.Tool, Model: c.Model, TranscriptPath: c.TranscriptPath}
	if err := e.Normalize(); err != nil {
		return task.Execution{}, err
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		at := s.nowMs()
		res, err := tx.ExecContext(ctx, `UPDATE tasks SET status = 'ongoing', updated_at = ?,
			started_at = COALESCE(started_at, ?), finished_at = NULL, error = '',
			repo = CASE WHEN repo = '' THEN ? ELSE repo END
			WHERE id = ? AND status = 'pending' AND skip = 0`, at, at, c.Repo, taskID)
		if err != nil {
			return fmt.Errorf("claim task %s: %w", taskID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			t, err := getTaskTx(ctx, tx, taskID)
			if err != nil {
				return err
			}
			return &ClaimConflictError{TaskID: taskID, Status: t.Status, Skipped: t.Skip && t.Status == task.StatusPending}
		}
		// Stop requests sent before this claim belong to an earlier run.
		if _, err := tx.ExecContext(ctx, `UPDATE controls SET consumed_at = ? WHERE task_id = ? AND kind = 'stop' AND consumed_at IS NULL`, at, taskID); err != nil {
			return fmt.Errorf("claim task %s: %w", taskID, err)
		}
		// The new run takes the worktree over; its own end cleans it up.
		if _, err := tx.ExecContext(ctx, `DELETE FROM cleanups_left WHERE task_id = ?`, taskID); err != nil {
			return fmt.Errorf("claim task %s: %w", taskID, err)
		}
		if err := appendEventTx(ctx, tx, taskID, at, task.StatusChanged{From: task.StatusPending, To: task.StatusOngoing, Reason: "claimed"}); err != nil {
			return err
		}
		if err := appendEventTx(ctx, tx, taskID, at, task.Claimed{Runner: c.Runner}); err != nil {
			return err
		}
		e, err = insertExecutionTx(ctx, tx, e, at)
		return err
	})
	if err != nil {
		return task.Execution{}, err
	}
	return e, nil
}

// TransitionNote carries what a status change records besides the status.
// Empty fields leave the stored value unchanged.
type TransitionNote struct {
	// Reason is a short machine-readable cause for the event ("answered", "stopped by user").
	Reason string
	// Error is the error message of a failed task.
	Error        string
	Branch       string
	BaseSHA      string
	HeadSHA      string
	WorktreePath string
}

// Transition changes a task's status through task.CheckTransition and records
// a status_changed event in the same transaction. Moving to ongoing is only
// done by Claim; leaving archived only to the status before archiving. It
// returns a *task.TransitionError (errors.Is task.ErrIllegalTransition) for an
// illegal change and an error wrapping ErrNotFound for a missing task; either
// way nothing changes.
func (s *Store) Transition(ctx context.Context, taskID string, to task.Status, note TransitionNote) (task.Task, error) {
	if _, err := task.ParseStatus(string(to)); err != nil {
		return task.Task{}, err
	}
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		if err := transitionTx(ctx, tx, t, to, note, s.nowMs()); err != nil {
			return err
		}
		out, err = getTaskTx(ctx, tx, taskID)
		return err
	})
	return out, err
}

func transitionTx(ctx context.Context, tx *sql.Tx, t task.Task, to task.Status, note TransitionNote, at int64) error {
	from := t.Status
	if to == task.StatusOngoing {
		return &task.TransitionError{From: from, To: to} // only Claim starts a task
	}
	var err error
	if from == task.StatusArchived {
		err = task.CheckUnarchive(from, to)
		if err == nil && to != t.PrevStatus {
			err = &task.TransitionError{From: from, To: to}
		}
	} else {
		err = task.CheckTransition(from, to)
	}
	if err != nil {
		return err
	}
	set := `, prev_status = ?, error = CASE WHEN ? != '' THEN ? WHEN ? = 'pending' THEN '' ELSE error END,
		branch = CASE WHEN ? != '' THEN ? ELSE branch END,
		base_sha = CASE WHEN ? != '' THEN ? ELSE base_sha END,
		head_sha = CASE WHEN ? != '' THEN ? ELSE head_sha END,
		worktree_path = CASE WHEN ? != '' THEN ? ELSE worktree_path END,
		finished_at = CASE WHEN ? THEN ? WHEN ? = 'pending' THEN NULL ELSE finished_at END`
	prev := ""
	if to == task.StatusArchived {
		prev = string(from)
	}
	finishing := from == task.StatusOngoing && to.Terminal()
	args := []any{prev, note.Error, note.Error, string(to),
		note.Branch, note.Branch, note.BaseSHA, note.BaseSHA, note.HeadSHA, note.HeadSHA,
		note.WorktreePath, note.WorktreePath, finishing, at, string(to)}
	if err := setStatusTx(ctx, tx, t.ID, from, to, at, note.Reason, set, args...); err != nil {
		return err
	}
	if to == task.StatusAccepted { // the review was decided: its draft is done with
		if err := clearDraftTx(ctx, tx, t.ID); err != nil {
			return err
		}
	}
	if from == task.StatusOngoing {
		if _, err := tx.ExecContext(ctx, `UPDATE controls SET consumed_at = ? WHERE task_id = ? AND kind = 'stop' AND consumed_at IS NULL`, at, t.ID); err != nil {
			return fmt.Errorf("transition %s: %w", t.ID, err)
		}
	}
	return nil
}
