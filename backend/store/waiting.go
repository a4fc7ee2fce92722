package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/boof-runner/boof-runner/backend/task"
)

// waits reports whether a pending task whose next step runs on tool (the
// task's own tool for the step, else the one settings give its role) and
// that does onLimit on a usage limit waits for a tool paused in p: the
// rule NextClaimable's groups follow (a paused tool's tasks run only when
// they switch tools and the tool is switchable).
func (p Pick) waits(tool string, onLimit task.OnLimit) bool {
	if !slices.Contains(p.Paused, tool) {
		return false
	}
	if !slices.Contains(p.Switchable, tool) {
		return true
	}
	return onLimit != task.OnLimitSwitch && (onLimit != task.OnLimitDefault || !p.SwitchByDefault)
}

// WaitingFor returns, by task id, the paused tool each pending task waits
// for: the tasks NextClaimable passes over because their next step needs a
// tool p names as paused (and they do not switch tools). Tasks that wait
// only for their start time or are skipped are not in it.
func (s *Store) WaitingFor(ctx context.Context, p Pick) (map[string]string, error) {
	out := map[string]string{}
	if len(p.Paused) == 0 {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, next_role, next_tool, on_limit FROM tasks WHERE status = 'pending'`)
	if err != nil {
		return nil, fmt.Errorf("tasks waiting for a tool: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, role, tool, onLimit string
		if err := rows.Scan(&id, &role, &tool, &onLimit); err != nil {
			return nil, fmt.Errorf("tasks waiting for a tool: %w", err)
		}
		if tool == "" {
			tool = p.RoleTools[task.Role(role)]
		}
		if p.waits(tool, task.OnLimit(onLimit)) {
			out[id] = tool
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("tasks waiting for a tool: %w", err)
	}
	return out, nil
}
