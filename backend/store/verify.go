package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// WhatRepoVerify names a repository's verify command in a NotFoundError.
const WhatRepoVerify = "verify command of repository"

// RepoVerify is a repository's verify command, keyed by the repository's
// top-level path.
type RepoVerify struct {
	Path      string    `json:"path"`
	Command   string    `json:"command"`
	UpdatedAt time.Time `json:"updated_at"`
}

// SetRepoVerify stores the verify command of the repository at path (the
// caller resolves it to the repository's top level). It returns an error
// wrapping task.ErrInvalid for a bad command or path.
func (s *Store) SetRepoVerify(ctx context.Context, path, command string) (RepoVerify, error) {
	cmd, err := task.CheckVerifyCommand(command)
	if err != nil {
		return RepoVerify{}, err
	}
	if path == "" || len(path) > 4096 {
		return RepoVerify{}, invalidf("repository path is empty or too long")
	}
	at := s.nowMs()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO repo_verify (path, command, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (path) DO UPDATE SET command = excluded.command, updated_at = excluded.updated_at`, path, cmd, at); err != nil {
		return RepoVerify{}, fmt.Errorf("set verify command of %s: %w", path, err)
	}
	return RepoVerify{Path: path, Command: cmd, UpdatedAt: time.UnixMilli(at).UTC()}, nil
}

// GetRepoVerify returns the verify command stored for path, or an error
// wrapping ErrNotFound.
func (s *Store) GetRepoVerify(ctx context.Context, path string) (RepoVerify, error) {
	var r RepoVerify
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT path, command, updated_at FROM repo_verify WHERE path = ?`, path).Scan(&r.Path, &r.Command, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return RepoVerify{}, notFound(WhatRepoVerify, path)
	}
	if err != nil {
		return RepoVerify{}, fmt.Errorf("get verify command of %s: %w", path, err)
	}
	r.UpdatedAt = time.UnixMilli(at).UTC()
	return r, nil
}

// DeleteRepoVerify removes the verify command stored for path; ErrNotFound
// (wrapped) when there is none.
func (s *Store) DeleteRepoVerify(ctx context.Context, path string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM repo_verify WHERE path = ?`, path)
	if err != nil {
		return fmt.Errorf("delete verify command of %s: %w", path, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(WhatRepoVerify, path)
	}
	return nil
}

// RepoVerifies lists every stored repository command, by path.
func (s *Store) RepoVerifies(ctx context.Context) ([]RepoVerify, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, command, updated_at FROM repo_verify ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("list verify commands: %w", err)
	}
	defer rows.Close()
	out := []RepoVerify{}
	for rows.Next() {
		var r RepoVerify
		var at int64
		if err := rows.Scan(&r.Path, &r.Command, &at); err != nil {
			return nil, fmt.Errorf("list verify commands: %w", err)
		}
		r.UpdatedAt = time.UnixMilli(at).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// TaskVerify returns a task's own verify choice; ok is false when the task
// has none (it then uses its repository's or the global command).
func (s *Store) TaskVerify(ctx context.Context, taskID string) (v task.TaskVerify, ok bool, err error) {
	var skip int
	err = s.db.QueryRowContext(ctx, `SELECT command, skip FROM task_verify WHERE task_id = ?`, taskID).Scan(&v.Command, &skip)
	if errors.Is(err, sql.ErrNoRows) {
		return task.TaskVerify{}, false, nil
	}
	if err != nil {
		return task.TaskVerify{}, false, fmt.Errorf("get verify command of task %s: %w", taskID, err)
	}
	v.Skip = skip != 0
	return v, true, nil
}

// insertTaskVerifyTx records a new task's own verify choice, when it has one.
func insertTaskVerifyTx(ctx context.Context, tx *sql.Tx, id string, n task.NewTask) error {
	if n.Verify == "" && !n.NoVerify {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO task_verify (task_id, command, skip) VALUES (?, ?, ?)`, id, n.Verify, n.NoVerify); err != nil {
		return fmt.Errorf("create task: verify command: %w", err)
	}
	return nil
}

// LastVerifyRun returns the task's latest verification of its own work
// (the gate's, a manual one; never a merge queue's run on a merged
// result); ok is false when the verify command never ran on it.
func (s *Store) LastVerifyRun(ctx context.Context, taskID string) (v task.VerifyRun, ok bool, err error) {
	var raw string
	err = s.db.QueryRowContext(ctx, `SELECT payload FROM events WHERE task_id = ? AND kind = ?
		AND COALESCE(json_extract(payload, '$.where'), '') != 'queue' ORDER BY at DESC, id DESC LIMIT 1`,
		taskID, string(task.EventVerification)).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return task.VerifyRun{}, false, nil
	}
	if err != nil {
		return task.VerifyRun{}, false, fmt.Errorf("last verification of task %s: %w", taskID, err)
	}
	v, ok = task.DecodeEvent(task.EventVerification, []byte(raw)).(task.VerifyRun)
	return v, ok, nil
}

// UnverifiedReason is why the task's work may not be accepted: its latest
// verification failed ("verification failed: ./check.sh exited 1"); ""
// when it passed, was skipped or never ran.
func (s *Store) UnverifiedReason(ctx context.Context, taskID string) (string, error) {
	v, ok, err := s.LastVerifyRun(ctx, taskID)
	if err != nil || !ok || v.Outcome.Passed() {
		return "", err
	}
	return v.FailureMessage(), nil
}
