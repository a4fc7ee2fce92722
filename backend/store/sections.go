package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// AddSection appends a typed body section to a task. It returns an error
// wrapping task.ErrInvalid for a bad kind, role, verdict or step and
// ErrNotFound for a missing task.
func (s *Store) AddSection(ctx context.Context, sec task.Section) (task.Section, error) {
	if err := sec.Validate(); err != nil {
		return task.Section{}, err
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, sec.TaskID); err != nil {
			return err
		}
		var err error
		sec, err = addSectionTx(ctx, tx, sec, s.nowMs())
		return err
	})
	if err != nil {
		return task.Section{}, err
	}
	return sec, nil
}

func addSectionTx(ctx context.Context, tx *sql.Tx, sec task.Section, at int64) (task.Section, error) {
	if !sec.CreatedAt.IsZero() {
		at = sec.CreatedAt.UnixMilli()
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO sections (task_id, kind, role, iteration, round, verdict, step, body, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, sec.TaskID, string(sec.Kind), string(sec.Role), sec.Iteration, sec.Round,
		sec.Verdict, sec.Step, sec.Body, at)
	if err != nil {
		return sec, fmt.Errorf("add section %s: %w", sec.Kind, err)
	}
	sec.ID, _ = res.LastInsertId()
	sec.CreatedAt = time.UnixMilli(at).UTC()
	if _, err := tx.ExecContext(ctx, `UPDATE tasks SET updated_at = ? WHERE id = ?`, at, sec.TaskID); err != nil {
		return sec, fmt.Errorf("add section %s: %w", sec.Kind, err)
	}
	return sec, nil
}

// Sections returns a task's body sections in the order they were added.
// A missing task yields an empty list.
func (s *Store) Sections(ctx context.Context, taskID string) ([]task.Section, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, task_id, kind, role, iteration, round, verdict, step, body, created_at
		FROM sections WHERE task_id = ? ORDER BY id`, taskID)
	if err != nil {
		return nil, fmt.Errorf("sections of %s: %w", taskID, err)
	}
	defer rows.Close()
	out := []task.Section{}
	for rows.Next() {
		var sec task.Section
		var kind, role string
		var at int64
		if err := rows.Scan(&sec.ID, &sec.TaskID, &kind, &role, &sec.Iteration, &sec.Round, &sec.Verdict, &sec.Step, &sec.Body, &at); err != nil {
			return nil, fmt.Errorf("sections of %s: %w", taskID, err)
		}
		sec.Kind, sec.Role = task.SectionKind(kind), task.Role(role)
		sec.CreatedAt = time.UnixMilli(at).UTC()
		out = append(out, sec)
	}
	return out, rows.Err()
}
