package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// CleanupLeft is the worktree clean-up of a finished run that could not be
// completed (CompleteDecided with a reason): its leftovers could not be
// saved or its directory not removed. The runner tries it again.
type CleanupLeft struct {
	TaskID string `json:"task_id"`
	// Cleanup and Worktree are the decided outcome's (Decided.Cleanup,
	// Decided.Worktree).
	Cleanup  string          `json:"cleanup"`
	Worktree json.RawMessage `json:"worktree"`
	// Reason is why it could not be completed the last time.
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// CleanupsLeft returns the clean-ups left of tasks that no run holds (not
// pending or ongoing: a new run takes the worktree over), oldest first.
func (s *Store) CleanupsLeft(ctx context.Context) ([]CleanupLeft, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.task_id, c.cleanup, c.worktree, c.reason, c.created_at
		FROM cleanups_left c JOIN tasks t ON t.id = c.task_id
		WHERE t.status NOT IN ('pending', 'ongoing') ORDER BY c.created_at, c.task_id`)
	if err != nil {
		return nil, fmt.Errorf("clean-ups left: %w", err)
	}
	defer rows.Close()
	var out []CleanupLeft
	for rows.Next() {
		var c CleanupLeft
		var wt string
		var at int64
		if err := rows.Scan(&c.TaskID, &c.Cleanup, &wt, &c.Reason, &at); err != nil {
			return nil, fmt.Errorf("clean-ups left: %w", err)
		}
		c.Worktree, c.At = json.RawMessage(wt), time.UnixMilli(at).UTC()
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("clean-ups left: %w", err)
	}
	return out, nil
}

// DropCleanupLeft deletes a task's clean-up left, once it is done.
func (s *Store) DropCleanupLeft(ctx context.Context, taskID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM cleanups_left WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("drop the clean-up left of %s: %w", taskID, err)
	}
	return nil
}
