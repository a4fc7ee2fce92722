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
	// Switchable lists the paused tools whose tasks that switch tools on a
	// usage limit may still be claimed: their steps run on the other tool,
	// which is installed and not paused.
	Switchable []string
	// SwitchByDefault is true when settings limits.onLimit is switch: a
	// task without its own on-limit switches too.
	SwitchByDefault bool
}

// NextClaimable returns the task the runner should take next, as
// NextPending orders them, leaving out the tasks that must wait: those
// whose not-before time is after p.Now and those whose next step's tool is
// in p.Paused. It returns an error wrapping ErrNotFound when no task can
// be claimed now.
//
// With tools paused, the tasks are looked up by the stored role and tool
// of their next step (next_role, next_tool, kept by triggers): one indexed
// pick per tool and per role that may run, the first of those wins, so the
// tasks that wait for a paused tool are never read, however many come
// first in line.
func (s *Store) NextClaimable(ctx context.Context, p Pick) (task.Task, error) {
	if len(p.Paused) == 0 {
		q, args := claimBase(p)
		t, err := scanTask(s.db.QueryRowContext(ctx, q, args...))
		if errors.Is(err, sql.ErrNoRows) {
			return task.Task{}, fmt.Errorf("next claimable task: %w", ErrNotFound)
		}
		if err != nil {
			return task.Task{}, fmt.Errorf("next claimable task: %w", err)
		}
		return t, nil
	}
	groups, err := s.claimGroups(ctx, p)
	if err != nil {
		return task.Task{}, fmt.Errorf("next claimable task: %w", err)
	}
	var best task.Task
	found := false
	for _, g := range groups {
		q, args := claimGroupQuery(p, g)
		t, err := scanTask(s.db.QueryRowContext(ctx, q, args...))
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return task.Task{}, fmt.Errorf("next claimable task: %w", err)
		}
		if !found || queueBefore(t, best) {
			best, found = t, true
		}
	}
	if !found {
		return task.Task{}, fmt.Errorf("next claimable task: %w", ErrNotFound)
	}
	return best, nil
}

// queueBefore reports whether a comes before b in the queue's order.
func queueBefore(a, b task.Task) bool {
	switch {
	case a.Priority != b.Priority:
		return a.Priority > b.Priority
	case a.Position != b.Position:
		return a.Position < b.Position
	case !a.CreatedAt.Equal(b.CreatedAt):
		return a.CreatedAt.Before(b.CreatedAt)
	}
	return a.ID < b.ID
}

// claimOrder is the queue's order (NextPending's).
const claimOrder = ` ORDER BY priority DESC, position, created_at, id`

// claimFilter is the filter of a claimable task besides its tool, with its
// arguments (p.Now and p.Except).
func claimFilter(p Pick) (string, []any) {
	q := `status = 'pending' AND skip = 0 AND (not_before IS NULL OR not_before <= ?)`
	args := []any{p.Now.UnixMilli()}
	if len(p.Except) > 0 {
		q += ` AND id NOT IN ` + placeholders(len(p.Except))
		for _, id := range p.Except {
			args = append(args, id)
		}
	}
	return q, args
}

// claimBase is the query without paused tools: the first task in line.
func claimBase(p Pick) (string, []any) {
	f, args := claimFilter(p)
	return `SELECT ` + taskColumns + ` FROM tasks WHERE ` + f + claimOrder + ` LIMIT 1`, args
}

// claimGroup is one set of pending tasks whose next step may run: those
// whose own tool for it is tool, or (tool "") those that leave it to
// settings and whose next step is role; with onLimit set, only the tasks
// of that on-limit (a paused tool's tasks that switch tools).
type claimGroup struct {
	tool    string
	role    string
	onLimit *string
}

// groups returns the groups of tasks of a next-step tool (effective: the
// task's own or settings') that may run: all of them when effective is
// not paused, the ones that switch tools when it is switchable, else none.
func (p Pick) groups(g claimGroup, effective string) []claimGroup {
	if !slices.Contains(p.Paused, effective) {
		return []claimGroup{g}
	}
	if !slices.Contains(p.Switchable, effective) {
		return nil
	}
	vals := []string{string(task.OnLimitSwitch)}
	if p.SwitchByDefault {
		vals = append(vals, string(task.OnLimitDefault))
	}
	var out []claimGroup
	for _, v := range vals {
		g.onLimit = &v
		out = append(out, g)
	}
	return out
}

// claimGroups lists the groups that may run: each tool a pending task
// names for its next step that is not paused, and each next-step role of
// the pending tasks that leave the tool to settings whose settings tool is
// not paused. Both lists are read by skip-scans of the next-step index
// (one seek per distinct value).
func (s *Store) claimGroups(ctx context.Context, p Pick) ([]claimGroup, error) {
	tools, err := s.distinctNext(ctx, `next_tool`, `status = 'pending'`)
	if err != nil {
		return nil, err
	}
	var out []claimGroup
	for _, t := range tools {
		if t != "" {
			out = append(out, p.groups(claimGroup{tool: t}, t)...)
		}
	}
	roles, err := s.distinctNext(ctx, `next_role`, `status = 'pending' AND next_tool = ''`)
	if err != nil {
		return nil, err
	}
	for _, r := range roles {
		out = append(out, p.groups(claimGroup{role: r}, p.RoleTools[task.Role(r)])...)
	}
	return out, nil
}

// distinctNext returns the distinct values of col among the tasks that
// match where, in order, one index seek per value (a skip-scan: SQLite
// would otherwise read every matching row).
func (s *Store) distinctNext(ctx context.Context, col, where string) ([]string, error) {
	q := `WITH RECURSIVE d(v) AS (
		SELECT (SELECT ` + col + ` FROM tasks WHERE ` + where + ` ORDER BY ` + col + ` LIMIT 1)
		UNION ALL
		SELECT (SELECT ` + col + ` FROM tasks WHERE ` + where + ` AND ` + col + ` > d.v ORDER BY ` + col + ` LIMIT 1) FROM d WHERE d.v IS NOT NULL
	) SELECT v FROM d WHERE v IS NOT NULL`
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("next steps: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("next steps: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// claimGroupQuery is the query of a group's first task in line, read
// from its next-step index (one seek; a UNION of the groups made SQLite
// sort each group's rows instead).
func claimGroupQuery(p Pick, g claimGroup) (string, []any) {
	f, args := claimFilter(p)
	cond, gargs := `next_tool = ?`, []any{g.tool}
	idx := `tasks_next_tool`
	if g.tool == "" {
		cond, gargs, idx = `next_tool = '' AND next_role = ?`, []any{g.role}, `tasks_next_role`
	}
	if g.onLimit != nil {
		cond, gargs, idx = cond+` AND on_limit = ?`, append(gargs, *g.onLimit), idx+`_switch`
	}
	return `SELECT ` + taskColumns + ` FROM tasks INDEXED BY ` + idx + ` WHERE ` + f + ` AND ` + cond + claimOrder + ` LIMIT 1`,
		append(args, gargs...)
}

// placeholders returns "(?,?,…)" for n values.
func placeholders(n int) string {
	return "(" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")"
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
