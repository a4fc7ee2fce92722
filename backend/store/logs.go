package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// AppendLog appends one line to a task's execution log; execID 0 means the
// line belongs to no execution. It returns an error wrapping task.ErrInvalid
// for an unknown level and ErrNotFound (via the foreign key) for a missing task.
func (s *Store) AppendLog(ctx context.Context, taskID string, execID int64, level task.LogLevel, text string) error {
	if !level.Valid() {
		return invalidf("unknown log level %q", level)
	}
	var ex any
	if execID != 0 {
		ex = execID
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO log_lines (task_id, exec_id, at, level, text) VALUES (?, ?, ?, ?, ?)`,
		taskID, ex, s.nowMs(), string(level), text)
	if err != nil {
		if isFKError(err) {
			return fmt.Errorf("append log: %w", notFound(WhatTask, taskID))
		}
		return fmt.Errorf("append log: %w", err)
	}
	return nil
}

// Log returns up to limit lines of a task's log with id > afterID, in order;
// limit <= 0 means 1000. Pass the last line's ID to page forward.
func (s *Store) Log(ctx context.Context, taskID string, afterID int64, limit int) ([]task.LogLine, error) {
	if limit <= 0 {
		limit = 1000
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, task_id, COALESCE(exec_id, 0), at, level, text FROM log_lines
		WHERE task_id = ? AND id > ? ORDER BY id LIMIT ?`, taskID, afterID, limit)
	if err != nil {
		return nil, fmt.Errorf("log of %s: %w", taskID, err)
	}
	defer rows.Close()
	out := []task.LogLine{}
	for rows.Next() {
		var l task.LogLine
		var at int64
		if err := rows.Scan(&l.ID, &l.TaskID, &l.ExecID, &at, &l.Level, &l.Text); err != nil {
			return nil, fmt.Errorf("log of %s: %w", taskID, err)
		}
		l.At = time.UnixMilli(at).UTC()
		out = append(out, l)
	}
	return out, rows.Err()
}

// AppendEvent appends an event to a task's history; its kind is d.Kind().
// It returns an error wrapping task.ErrInvalid for a payload of no stored
// kind (live kinds such as task.EventText are not history) or one that
// cannot be marshalled, and ErrNotFound for a missing task.
func (s *Store) AppendEvent(ctx context.Context, taskID string, d task.EventData) error {
	if err := task.CheckStored(d); err != nil {
		return err
	}
	if _, err := json.Marshal(d); err != nil {
		return invalidf("event %s payload: %v", d.Kind(), err)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, taskID); err != nil {
			return err
		}
		return appendEventTx(ctx, tx, taskID, s.nowMs(), d)
	})
}

// Events returns a task's events at or after since, oldest first, each with
// its payload decoded as its kind's (task.DecodeEvent: a row this version
// cannot read comes back as a task.Unknown, never as an error).
func (s *Store) Events(ctx context.Context, taskID string, since time.Time) ([]task.Event, error) {
	var from int64
	if !since.IsZero() {
		from = since.UnixMilli()
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, task_id, at, kind, payload FROM events
		WHERE task_id = ? AND at >= ? ORDER BY at, id`, taskID, from)
	if err != nil {
		return nil, fmt.Errorf("events of %s: %w", taskID, err)
	}
	defer rows.Close()
	out := []task.Event{}
	for rows.Next() {
		var e task.Event
		var at int64
		var kind, payload string
		if err := rows.Scan(&e.ID, &e.TaskID, &at, &kind, &payload); err != nil {
			return nil, fmt.Errorf("events of %s: %w", taskID, err)
		}
		e.At = time.UnixMilli(at).UTC()
		e.Data = task.DecodeEvent(task.EventKind(kind), []byte(payload))
		out = append(out, e)
	}
	return out, rows.Err()
}
