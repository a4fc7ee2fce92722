package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// UsageRow is usage summed over the executions that ended in a range,
// grouped by Key (a day as YYYY-MM-DD in UTC, a tool, a model or a task id).
type UsageRow struct {
	Key        string  `json:"key"`
	Executions int     `json:"executions"`
	TokensIn   int64   `json:"tokens_in"`
	TokensOut  int64   `json:"tokens_out"`
	CacheRead  int64   `json:"cache_read"`
	CacheWrite int64   `json:"cache_write"`
	CostUSD    float64 `json:"cost_usd"`
}

// UsageByDay sums usage of executions that ended in [from, to) per UTC day.
func (s *Store) UsageByDay(ctx context.Context, from, to time.Time) ([]UsageRow, error) {
	return s.usageBy(ctx, `strftime('%Y-%m-%d', ended_at / 1000, 'unixepoch')`, from, to)
}

// UsageByTool sums usage of executions that ended in [from, to) per tool.
func (s *Store) UsageByTool(ctx context.Context, from, to time.Time) ([]UsageRow, error) {
	return s.usageBy(ctx, `tool`, from, to)
}

// UsageByModel sums usage of executions that ended in [from, to) per model.
func (s *Store) UsageByModel(ctx context.Context, from, to time.Time) ([]UsageRow, error) {
	return s.usageBy(ctx, `model`, from, to)
}

// UsageByTask sums usage of executions that ended in [from, to) per task id.
func (s *Store) UsageByTask(ctx context.Context, from, to time.Time) ([]UsageRow, error) {
	return s.usageBy(ctx, `task_id`, from, to)
}

// UsageByRole sums usage of executions that ended in [from, to) per
// pipeline role, in pipeline order (the planner answering a question counts
// as the planner).
func (s *Store) UsageByRole(ctx context.Context, from, to time.Time) ([]UsageRow, error) {
	out, err := s.usageBy(ctx, `role`, from, to)
	sort.SliceStable(out, func(i, j int) bool { return roleOrder(out[i].Key) < roleOrder(out[j].Key) })
	return out, err
}

// TaskUsageByRole sums a task's usage per role over its executions, ended
// or still running, in pipeline role order.
func (s *Store) TaskUsageByRole(ctx context.Context, taskID string) ([]UsageRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT role, count(*), sum(tokens_in), sum(tokens_out),
		sum(cache_read), sum(cache_write), sum(cost_usd) FROM executions WHERE task_id = ? GROUP BY role`, taskID)
	if err != nil {
		return nil, fmt.Errorf("usage of %s: %w", taskID, err)
	}
	out, err := scanUsage(rows)
	if err != nil {
		return nil, fmt.Errorf("usage of %s: %w", taskID, err)
	}
	sort.SliceStable(out, func(i, j int) bool { return roleOrder(out[i].Key) < roleOrder(out[j].Key) })
	return out, nil
}

// roleOrder places a role name in pipeline order; unknown names go last.
func roleOrder(name string) int {
	for i, r := range task.Roles {
		if string(r) == name {
			return i
		}
	}
	return len(task.Roles)
}

func scanUsage(rows *sql.Rows) ([]UsageRow, error) {
	defer rows.Close()
	out := []UsageRow{}
	for rows.Next() {
		var r UsageRow
		if err := rows.Scan(&r.Key, &r.Executions, &r.TokensIn, &r.TokensOut, &r.CacheRead, &r.CacheWrite, &r.CostUSD); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// usageBy groups by key, which is one of the fixed expressions above, never
// user input.
func (s *Store) usageBy(ctx context.Context, key string, from, to time.Time) ([]UsageRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+key+` AS k, count(*), sum(tokens_in), sum(tokens_out),
		sum(cache_read), sum(cache_write), sum(cost_usd) FROM executions
		WHERE ended_at IS NOT NULL AND ended_at >= ? AND ended_at < ? GROUP BY k ORDER BY k`, from.UnixMilli(), to.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	out, err := scanUsage(rows)
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	return out, nil
}
