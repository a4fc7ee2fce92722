package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// ErrNotPaused is matched by every *NotPausedError.
var ErrNotPaused = errors.New("tool not paused")

// NotPausedError reports a resume of a tool that is not paused.
type NotPausedError struct{ Tool string }

// Error returns "tool <name> is not paused".
func (e *NotPausedError) Error() string { return fmt.Sprintf("tool %s is not paused", e.Tool) }

// Unwrap lets errors.Is match ErrNotPaused.
func (e *NotPausedError) Unwrap() error { return ErrNotPaused }

// PauseTool records that p.Tool is paused until p.Until and returns the
// pause in force: a pause of the tool that already lasts longer is kept (a
// second step hitting the same limit never shortens it). It returns an
// error wrapping task.ErrInvalid for a pause without a tool or an end.
func (s *Store) PauseTool(ctx context.Context, p task.ToolPause) (task.ToolPause, error) {
	if p.Tool == "" || p.Until.IsZero() {
		return task.ToolPause{}, invalidf("a tool pause needs a tool and an end")
	}
	if p.PausedAt.IsZero() {
		p.PausedAt = s.now()
	}
	var out task.ToolPause
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		cur, ok, err := toolPauseTx(ctx, tx, p.Tool)
		if err != nil {
			return err
		}
		if ok && cur.Until.After(p.Until) && cur.Until.After(p.PausedAt) {
			out = cur
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO tool_pauses (tool, until_at, paused_at, reason, message, task_id, warning)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, p.Tool, p.Until.UnixMilli(), p.PausedAt.UnixMilli(), p.Reason, p.Message, p.TaskID, p.Warning); err != nil {
			return fmt.Errorf("pause tool %s: %w", p.Tool, err)
		}
		out, _, err = toolPauseTx(ctx, tx, p.Tool)
		return err
	})
	return out, err
}

// ReplacePause overwrites a tool's pause as it is (a correction of its end
// after the clock jumped); it returns an error wrapping task.ErrInvalid for
// a pause without a tool or an end.
func (s *Store) ReplacePause(ctx context.Context, p task.ToolPause) error {
	if p.Tool == "" || p.Until.IsZero() {
		return invalidf("a tool pause needs a tool and an end")
	}
	if _, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO tool_pauses (tool, until_at, paused_at, reason, message, task_id, warning)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, p.Tool, p.Until.UnixMilli(), p.PausedAt.UnixMilli(), p.Reason, p.Message, p.TaskID, p.Warning); err != nil {
		return fmt.Errorf("replace pause of %s: %w", p.Tool, err)
	}
	return nil
}

// ToolPauses returns the pauses in force at now (Until after now), by tool name.
func (s *Store) ToolPauses(ctx context.Context, now time.Time) ([]task.ToolPause, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT tool, until_at, paused_at, reason, message, task_id, warning
		FROM tool_pauses WHERE until_at > ? ORDER BY tool`, now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("tool pauses: %w", err)
	}
	defer rows.Close()
	out := []task.ToolPause{}
	for rows.Next() {
		p, err := scanPause(rows)
		if err != nil {
			return nil, fmt.Errorf("tool pauses: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ResumeTool ends a tool's pause now (the user resumes it early). It
// returns a *NotPausedError when the tool has no pause in force at now.
func (s *Store) ResumeTool(ctx context.Context, tool string, now time.Time) (task.ToolPause, error) {
	var out task.ToolPause
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		p, ok, err := toolPauseTx(ctx, tx, tool)
		if err != nil {
			return err
		}
		if !ok || !p.Until.After(now) {
			return &NotPausedError{Tool: tool}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM tool_pauses WHERE tool = ?`, tool); err != nil {
			return fmt.Errorf("resume tool %s: %w", tool, err)
		}
		out = p
		return nil
	})
	return out, err
}

func toolPauseTx(ctx context.Context, tx *sql.Tx, tool string) (task.ToolPause, bool, error) {
	p, err := scanPause(tx.QueryRowContext(ctx, `SELECT tool, until_at, paused_at, reason, message, task_id, warning
		FROM tool_pauses WHERE tool = ?`, tool))
	if errors.Is(err, sql.ErrNoRows) {
		return task.ToolPause{}, false, nil
	}
	if err != nil {
		return task.ToolPause{}, false, fmt.Errorf("tool pause %s: %w", tool, err)
	}
	return p, true, nil
}

func scanPause(r scanner) (task.ToolPause, error) {
	var p task.ToolPause
	var until, at int64
	if err := r.Scan(&p.Tool, &until, &at, &p.Reason, &p.Message, &p.TaskID, &p.Warning); err != nil {
		return p, err
	}
	p.Until, p.PausedAt = time.UnixMilli(until).UTC(), time.UnixMilli(at).UTC()
	return p, nil
}
