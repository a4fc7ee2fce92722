package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
	// Except lists tasks to pass over this time (a budget holds them).
	Except []string
}

// NextClaimable returns the task the runner should take next, as
// NextPending orders them, leaving out the tasks that must wait: those
// whose not-before time is after p.Now and those whose next step's tool is
// in p.Paused. It returns an error wrapping ErrNotFound when no task can
// be claimed now.
func (s *Store) NextClaimable(ctx context.Context, p Pick) (task.Task, error) {
	q, args := claimQuery(p)
	t, err := scanTask(s.db.QueryRowContext(ctx, q, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Task{}, fmt.Errorf("next claimable task: %w", ErrNotFound)
	}
	if err != nil {
		return task.Task{}, fmt.Errorf("next claimable task: %w", err)
	}
	return t, nil
}

// claimQuery builds NextClaimable's query.
func claimQuery(p Pick) (string, []any) {
	q := `SELECT ` + taskColumns + ` FROM tasks
		WHERE status = 'pending' AND skip = 0 AND (not_before IS NULL OR not_before <= ?)`
	args := []any{p.Now.UnixMilli()}
	if len(p.Paused) > 0 {
		// The role of the task's next step (its resume point's, else the
		// planner's) and the tool it runs with: the task's own override,
		// else the role's tool in settings (pausedRoles lists the roles
		// whose settings tool is paused).
		var pausedRoles []any
		for _, r := range task.Roles {
			if slices.Contains(p.Paused, p.RoleTools[r]) {
				pausedRoles = append(pausedRoles, string(r))
			}
		}
		in := func(n int) string { return "(" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")" }
		q = `SELECT ` + taskColumns + ` FROM tasks LEFT JOIN (SELECT task_id AS rp_task, role AS rp_role FROM task_resume) ON rp_task = tasks.id
		WHERE status = 'pending' AND skip = 0 AND (not_before IS NULL OR not_before <= ?)
		AND NOT (IFNULL(CASE WHEN tools = '{}' THEN NULL ELSE NULLIF(json_extract(tools, '$.' || COALESCE(rp_role, 'planner') || '.tool'), '') END`
		q += ` IN ` + in(len(p.Paused)) + `, 0)`
		for _, t := range p.Paused {
			args = append(args, t)
		}
		q += ` OR (CASE WHEN tools = '{}' THEN NULL ELSE NULLIF(json_extract(tools, '$.' || COALESCE(rp_role, 'planner') || '.tool'), '') END IS NULL`
		if len(pausedRoles) > 0 {
			q += ` AND COALESCE(rp_role, 'planner') IN ` + in(len(pausedRoles)) + `)`
			args = append(args, pausedRoles...)
		} else {
			q += ` AND 0)`
		}
		q += `)`
	}
	if len(p.Except) > 0 {
		q += ` AND tasks.id NOT IN (` + strings.TrimSuffix(strings.Repeat("?,", len(p.Except)), ",") + `)`
		for _, id := range p.Except {
			args = append(args, id)
		}
	}
	q += ` ORDER BY priority DESC, position, created_at, id LIMIT 1`
	return q, args
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
