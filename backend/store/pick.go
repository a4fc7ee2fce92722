package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Pick is what the claim filter of NextClaimable knows besides the queue:
// the time, and the tools paused by a usage limit with the tool each role
// runs with (settings), so that a task whose next step needs a paused tool
// waits while the others run.
type Pick struct {
	// Now is the clock's time; a task whose not-before is later waits.
	Now time.Time
	// Paused lists the tools paused at Now.
	Paused []string
	// RoleTools is the tool settings give each role; a task's own override
	// for the role wins. The role of a task's next step is the role of its
	// resume point, else the planner.
	RoleTools map[task.Role]string
}

// NextClaimable returns the task the runner should take next, as
// NextPending orders them, leaving out the tasks that must wait: those
// whose not-before time is after p.Now and those whose next step's tool is
// in p.Paused. It returns an error wrapping ErrNotFound when no task can
// be claimed now.
func (s *Store) NextClaimable(ctx context.Context, p Pick) (task.Task, error) {
	q := `SELECT ` + taskColumns + ` FROM tasks
		WHERE status = 'pending' AND skip = 0 AND (not_before IS NULL OR not_before <= ?)`
	args := []any{p.Now.UnixMilli()}
	if len(p.Paused) > 0 {
		// The role of the task's next step, and the tool it runs with.
		role := `COALESCE((SELECT CASE role WHEN 'planner_answer' THEN 'planner' ELSE role END FROM task_resume WHERE task_id = tasks.id), 'planner')`
		q += ` AND COALESCE(NULLIF(json_extract(tools, '$.' || ` + role + ` || '.tool'), ''), CASE ` + role
		for _, r := range task.Roles {
			q += ` WHEN ? THEN ?`
			args = append(args, string(r), p.RoleTools[r])
		}
		q += ` ELSE ? END) NOT IN (` + strings.TrimSuffix(strings.Repeat("?,", len(p.Paused)), ",") + `)`
		args = append(args, p.RoleTools[task.RolePlanner])
		for _, t := range p.Paused {
			args = append(args, t)
		}
	}
	q += ` ORDER BY priority DESC, position, created_at, id LIMIT 1`
	t, err := scanTask(s.db.QueryRowContext(ctx, q, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Task{}, fmt.Errorf("next claimable task: %w", ErrNotFound)
	}
	if err != nil {
		return task.Task{}, fmt.Errorf("next claimable task: %w", err)
	}
	return t, nil
}

// NextNotBefore returns the earliest not-before time of a pending task
// still in the future at now (the queue's next wake), false when none.
func (s *Store) NextNotBefore(ctx context.Context, now time.Time) (time.Time, bool, error) {
	var ms sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MIN(not_before) FROM tasks WHERE status = 'pending' AND not_before > ?`,
		now.UnixMilli()).Scan(&ms); err != nil {
		return time.Time{}, false, fmt.Errorf("next not-before: %w", err)
	}
	if !ms.Valid {
		return time.Time{}, false, nil
	}
	return time.UnixMilli(ms.Int64).UTC(), true, nil
}
