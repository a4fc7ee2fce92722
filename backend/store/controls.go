package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// RequestStop durably asks the runner (in this or another process) to stop an
// ongoing task, and records a stop_requested event. It returns a *StatusError
// (errors.Is ErrWrongStatus) when the task is not ongoing and ErrNotFound when
// it does not exist.
func (s *Store) RequestStop(ctx context.Context, taskID string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		if err := requireStatus("stop", taskID, t.Status, task.StatusOngoing); err != nil {
			return err
		}
		at := s.nowMs()
		if _, err := tx.ExecContext(ctx, `INSERT INTO controls (task_id, kind, created_at) VALUES (?, 'stop', ?)`, taskID, at); err != nil {
			return fmt.Errorf("request stop: %w", err)
		}
		return appendEventTx(ctx, tx, taskID, at, task.StopRequested{})
	})
}

// StopRequested reports whether a stop request for the task's current run is
// pending. Requests are cleared when the task is claimed again or leaves
// ongoing.
func (s *Store) StopRequested(ctx context.Context, taskID string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM controls WHERE task_id = ? AND kind = 'stop' AND consumed_at IS NULL`, taskID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("stop requested %s: %w", taskID, err)
	}
	return n > 0, nil
}

// MaxInjection is the largest injected prompt accepted, in bytes.
const MaxInjection = 1 << 20

// Inject durably stores a prompt for the runner to include in the task's next
// step and records a prompt_injected event. It returns an error wrapping
// task.ErrInvalid for empty or oversized text or text with a NUL byte, a *StatusError unless the task
// is pending, ongoing or in actions, and ErrNotFound for a missing task.
func (s *Store) Inject(ctx context.Context, taskID, text string) (task.Injection, error) {
	if strings.TrimSpace(text) == "" {
		return task.Injection{}, invalidf("the prompt is empty")
	}
	if len(text) > MaxInjection {
		return task.Injection{}, invalidf("the prompt is longer than %d bytes", MaxInjection)
	}
	if strings.IndexByte(text, 0) >= 0 {
		return task.Injection{}, invalidf("the prompt contains a NUL byte")
	}
	var inj task.Injection
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		if err := requireStatus("inject into", taskID, t.Status, task.StatusOngoing, task.StatusPending, task.StatusActions); err != nil {
			return err
		}
		at := s.nowMs()
		res, err := tx.ExecContext(ctx, `INSERT INTO controls (task_id, kind, text, created_at) VALUES (?, 'inject', ?, ?)`, taskID, text, at)
		if err != nil {
			return fmt.Errorf("inject: %w", err)
		}
		id, _ := res.LastInsertId()
		inj = task.Injection{ID: id, TaskID: taskID, Text: text, CreatedAt: time.UnixMilli(at).UTC()}
		return appendEventTx(ctx, tx, taskID, at, task.PromptInjected{Injection: id, Bytes: len(text)})
	})
	if err != nil {
		return task.Injection{}, err
	}
	return inj, nil
}

// Injections returns a task's injected prompts, applied or not, oldest first.
func (s *Store) Injections(ctx context.Context, taskID string) ([]task.Injection, error) {
	return s.queryInjections(ctx, s.db, `WHERE task_id = ? AND kind = 'inject' ORDER BY id`, taskID)
}

// ApplyInjections marks every not-yet-applied injected prompt of the task as
// applied to step, stores each as an injected_prompt section with that step,
// and returns them, oldest first, all in one transaction. Step must be a
// short token such as "developer" or "reviewer-2"; otherwise it returns an
// error wrapping task.ErrInvalid.
func (s *Store) ApplyInjections(ctx context.Context, taskID, step string) ([]task.Injection, error) {
	if err := (task.Section{Kind: task.SectionInjectedPrompt, Step: step}).Validate(); err != nil || step == "" {
		return nil, invalidf("injection step %q must be a non-empty token", step)
	}
	var out []task.Injection
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = s.queryInjections(ctx, tx, `WHERE task_id = ? AND kind = 'inject' AND consumed_at IS NULL ORDER BY id`, taskID)
		if err != nil {
			return err
		}
		at := s.nowMs()
		for i := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE controls SET consumed_at = ?, step = ? WHERE id = ?`, at, step, out[i].ID); err != nil {
				return fmt.Errorf("apply injection: %w", err)
			}
			if _, err := addSectionTx(ctx, tx, task.Section{TaskID: taskID, Kind: task.SectionInjectedPrompt, Step: step, Body: out[i].Text}, at); err != nil {
				return err
			}
			applied := time.UnixMilli(at).UTC()
			out[i].Step, out[i].AppliedAt = step, &applied
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func (s *Store) queryInjections(ctx context.Context, q querier, where string, args ...any) ([]task.Injection, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, task_id, text, step, created_at, consumed_at FROM controls `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("injections: %w", err)
	}
	defer rows.Close()
	out := []task.Injection{}
	for rows.Next() {
		var inj task.Injection
		var at int64
		var applied sql.NullInt64
		if err := rows.Scan(&inj.ID, &inj.TaskID, &inj.Text, &inj.Step, &at, &applied); err != nil {
			return nil, fmt.Errorf("injections: %w", err)
		}
		inj.CreatedAt = time.UnixMilli(at).UTC()
		inj.AppliedAt = msPtr(applied)
		out = append(out, inj)
	}
	return out, rows.Err()
}
