package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Decided is a run's outcome, made durable before the worktree clean-up
// (saving leftovers, removing the directory) so that a crash during the
// clean-up is finished by the next start instead of being taken for an
// interrupted step.
type Decided struct {
	TaskID string `json:"task_id"`
	// Status is the status the task moves to once the clean-up is done.
	Status task.Status `json:"status"`
	// Note is recorded with the status change.
	Note TransitionNote `json:"note"`
	// CountRun is true when the run completed: completed_runs was
	// incremented in the same transaction that recorded the decision.
	CountRun bool `json:"count_run"`
	// CountFix is true when the run was a fix run that completed once the
	// planned runs were done: fix_runs was incremented instead. Either
	// count clears the task's next-run choice (task.RunStart).
	CountFix bool `json:"count_fix"`
	// Cleanup names the clean-up still to apply ("done", "failed",
	// "stopped"), "" for none; Worktree is what it works on (JSON owned by
	// the pipeline).
	Cleanup  string          `json:"cleanup"`
	Worktree json.RawMessage `json:"worktree"`
	At       time.Time       `json:"at"`
}

// Decide records d for an ongoing task and, when d.CountRun, adds one to
// its completed runs, in one transaction, and returns the new count. It
// returns an error wrapping task.ErrInvalid for an unknown status, a
// *StatusError for a task that is not ongoing and ErrNotFound for a
// missing one; nothing changes on error.
func (s *Store) Decide(ctx context.Context, d Decided) (int, error) {
	if _, err := task.ParseStatus(string(d.Status)); err != nil {
		return 0, invalidf("decided status %q", d.Status)
	}
	note, err := json.Marshal(d.Note)
	if err != nil {
		return 0, fmt.Errorf("decide %s: %w", d.TaskID, err)
	}
	wt := []byte(d.Worktree)
	if len(wt) == 0 {
		wt = []byte("null")
	}
	var runs int
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, d.TaskID)
		if err != nil {
			return err
		}
		if err := requireStatus("decide the outcome of", d.TaskID, t.Status, task.StatusOngoing); err != nil {
			return err
		}
		at := s.nowMs()
		runs = t.CompletedRuns
		if d.CountRun {
			runs++
		}
		if d.CountRun || d.CountFix {
			fix := 0
			if d.CountFix {
				fix = 1
			}
			if _, err := tx.ExecContext(ctx, `UPDATE tasks SET completed_runs = ?, fix_runs = fix_runs + ?, run_start = '{}', updated_at = ? WHERE id = ?`,
				runs, fix, at, d.TaskID); err != nil {
				return fmt.Errorf("decide %s: %w", d.TaskID, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO decided_outcomes (task_id, status, note, count_run, count_fix, cleanup, worktree, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, d.TaskID, string(d.Status), string(note), d.CountRun, d.CountFix, d.Cleanup, string(wt), at); err != nil {
			return fmt.Errorf("decide %s: %w", d.TaskID, err)
		}
		return appendEventTx(ctx, tx, d.TaskID, at, task.OutcomeDecided{Status: d.Status, Cleanup: d.Cleanup})
	})
	return runs, err
}

// DecidedOutcome returns the decided outcome of a task whose clean-up has
// not finished, and false when there is none.
func (s *Store) DecidedOutcome(ctx context.Context, taskID string) (Decided, bool, error) {
	var d Decided
	var status, note, wt string
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT task_id, status, note, count_run, count_fix, cleanup, worktree, created_at
		FROM decided_outcomes WHERE task_id = ?`, taskID).Scan(&d.TaskID, &status, &note, &d.CountRun, &d.CountFix, &d.Cleanup, &wt, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Decided{}, false, nil
	}
	if err != nil {
		return Decided{}, false, fmt.Errorf("decided outcome of %s: %w", taskID, err)
	}
	d.Status = task.Status(status)
	if err := json.Unmarshal([]byte(note), &d.Note); err != nil {
		return Decided{}, false, fmt.Errorf("decided outcome of %s: %w", taskID, err)
	}
	d.Worktree = json.RawMessage(wt)
	d.At = time.UnixMilli(at).UTC()
	return d, true, nil
}

// CompleteDecided moves the task to its decided status, with the decided
// note plus the non-empty fields of extra, and deletes the decision, in one
// transaction. A non-empty left says why the decided clean-up could not be
// finished: it is kept in the same transaction (CleanupsLeft), to be tried
// again. It returns an error wrapping ErrNotFound when the task has no
// decided outcome, and the errors of Transition.
func (s *Store) CompleteDecided(ctx context.Context, taskID string, extra TransitionNote, left string) (task.Task, error) {
	d, ok, err := s.DecidedOutcome(ctx, taskID)
	if err != nil {
		return task.Task{}, err
	}
	if !ok {
		return task.Task{}, fmt.Errorf("decided outcome of %s: %w", taskID, ErrNotFound)
	}
	note := d.Note
	for _, f := range []struct {
		dst *string
		v   string
	}{
		{&note.Reason, extra.Reason}, {&note.Error, extra.Error}, {&note.Branch, extra.Branch},
		{&note.BaseSHA, extra.BaseSHA}, {&note.HeadSHA, extra.HeadSHA}, {&note.WorktreePath, extra.WorktreePath},
	} {
		if f.v != "" {
			*f.dst = f.v
		}
	}
	var out task.Task
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		if err := transitionTx(ctx, tx, t, d.Status, note, s.nowMs()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM decided_outcomes WHERE task_id = ?`, taskID); err != nil {
			return fmt.Errorf("complete decided outcome of %s: %w", taskID, err)
		}
		if left != "" && d.Cleanup != "" {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO cleanups_left (task_id, cleanup, worktree, reason, created_at) VALUES (?, ?, ?, ?, ?)`,
				taskID, d.Cleanup, string(d.Worktree), left, s.nowMs()); err != nil {
				return fmt.Errorf("complete decided outcome of %s: %w", taskID, err)
			}
		}
		out, err = getTaskTx(ctx, tx, taskID)
		return err
	})
	return out, err
}

// DropDecided deletes a task's decided outcome without changing its
// status (recovery uses it for a task that is no longer ongoing).
func (s *Store) DropDecided(ctx context.Context, taskID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM decided_outcomes WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("drop decided outcome of %s: %w", taskID, err)
	}
	return nil
}
