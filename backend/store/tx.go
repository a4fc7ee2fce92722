package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// inTx runs fn in one IMMEDIATE transaction (the DSN sets _txlock), committing
// when fn returns nil and rolling back otherwise.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// getTaskTx reads a task inside tx, or returns an error wrapping ErrNotFound.
func getTaskTx(ctx context.Context, tx *sql.Tx, id string) (task.Task, error) {
	t, err := scanTask(tx.QueryRowContext(ctx, `SELECT `+taskColumns+` FROM tasks WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Task{}, notFound(WhatTask, id)
	}
	if err != nil {
		return task.Task{}, fmt.Errorf("get task %s: %w", id, err)
	}
	return t, nil
}

// appendEventTx appends one event to a task's history, its payload
// marshalled as JSON. It returns an error wrapping task.ErrInvalid for a
// payload of no stored kind.
func appendEventTx(ctx context.Context, tx *sql.Tx, id string, at int64, d task.EventData) error {
	if err := task.CheckStored(d); err != nil {
		return err
	}
	b, err := json.Marshal(d)
	if err != nil {
		return invalidf("event %s payload: %v", d.Kind(), err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO events (task_id, at, kind, payload) VALUES (?, ?, ?, ?)`, id, at, string(d.Kind()), string(b)); err != nil {
		return fmt.Errorf("append event %s: %w", d.Kind(), err)
	}
	return nil
}

// setStatusTx moves a task from → to with a conditional UPDATE (extraSet adds
// assignments, with extraArgs) and records a status_changed event. It returns
// a *task.TransitionError if the task is no longer in from; inside an
// IMMEDIATE transaction that cannot happen, but the WHERE keeps it honest.
func setStatusTx(ctx context.Context, tx *sql.Tx, id string, from, to task.Status, at int64, reason, extraSet string, extraArgs ...any) error {
	q := `UPDATE tasks SET status = ?, updated_at = ?` + extraSet + ` WHERE id = ? AND status = ?`
	args := append([]any{string(to), at}, extraArgs...)
	args = append(args, id, string(from))
	res, err := tx.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("set status %s: %w", to, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return &task.TransitionError{From: from, To: to}
	}
	return appendEventTx(ctx, tx, id, at, task.StatusChanged{From: from, To: to, Reason: reason})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with plain slices and maps of strings
	}
	return string(b)
}
