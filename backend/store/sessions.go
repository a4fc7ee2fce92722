package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/boof-runner/boof-runner/backend/task"
)

// SetExecutionSession records the tool's native session id of an execution
// (open or closed: the id may be known only once the step ended). It
// returns an error wrapping ErrNotFound for a missing execution.
func (s *Store) SetExecutionSession(ctx context.Context, execID int64, sessionID string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE executions SET session_id = ? WHERE id = ?`, sessionID, execID)
	if err != nil {
		return fmt.Errorf("set execution session: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return notFound(WhatExecution, strconv.FormatInt(execID, 10))
	}
	return nil
}

// LastSession returns the newest execution of a task's step run by tool
// that recorded a native session id: what a retry or a resume on the same
// tool continues with --resume. role filters by the execution's role and
// round by its round (for the fix rounds of the developer and the review
// rounds); an empty role matches every step. ok is false when there is none.
func (s *Store) LastSession(ctx context.Context, taskID string, role task.Role, round int, tool string) (task.Execution, bool, error) {
	q := `SELECT ` + execColumns + ` FROM executions WHERE task_id = ? AND tool = ? AND session_id != ''`
	args := []any{taskID, tool}
	if role != "" {
		q += ` AND role = ? AND round = ?`
		args = append(args, string(role), round)
	}
	e, err := scanExecution(s.db.QueryRowContext(ctx, q+` ORDER BY id DESC LIMIT 1`, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Execution{}, false, nil
	}
	if err != nil {
		return task.Execution{}, false, fmt.Errorf("last session of %s: %w", taskID, err)
	}
	return e, true, nil
}
