package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Spend is one spend row: how much a step's usage grew by at one moment.
type Spend struct {
	TaskID string
	ExecID int64
	Tool   string
	At     time.Time
	// Tokens is input + output + cache writes (BudgetTokens).
	Tokens  int64
	CostUSD float64
	// Estimated is true when CostUSD came from the tool's price table.
	Estimated bool
}

// Zero reports whether the row records no change.
func (s Spend) Zero() bool { return s.Tokens == 0 && s.CostUSD == 0 }

// BudgetTokens is the tokens of u that budgets count: input, output and
// cache writes (cache reads, billed at a tenth of input, count in USD only).
func BudgetTokens(u task.Usage) int64 { return u.TokensIn + u.TokensOut + u.CacheWrite }

// mergeUsage returns what a step's recorded usage becomes when the tool
// reports its usage so far as u: each token count never goes down (a final
// figure below the live ones, or recovery closing a step with none, keeps
// what was recorded); the cost is the tool's own figure when it gave one
// (estimated false, above 0), even below an earlier estimate, and else
// never goes down either.
func mergeUsage(rec, u task.Usage, estimated bool) task.Usage {
	out := task.Usage{TokensIn: max(rec.TokensIn, u.TokensIn), TokensOut: max(rec.TokensOut, u.TokensOut),
		CacheRead: max(rec.CacheRead, u.CacheRead), CacheWrite: max(rec.CacheWrite, u.CacheWrite),
		CostUSD: max(rec.CostUSD, u.CostUSD)}
	if !estimated && u.CostUSD > 0 {
		out.CostUSD = u.CostUSD
	}
	return out
}

// openUsageTx reads the usage recorded so far on an open execution.
func openUsageTx(ctx context.Context, tx *sql.Tx, execID int64) (task.Execution, error) {
	e, err := scanExecution(tx.QueryRowContext(ctx, `SELECT `+execColumns+` FROM executions WHERE id = ?`, execID))
	if errors.Is(err, sql.ErrNoRows) {
		return e, notFound(WhatExecution, strconv.FormatInt(execID, 10))
	}
	if err != nil {
		return e, fmt.Errorf("execution %d: %w", execID, err)
	}
	if e.EndedAt != nil {
		return e, fmt.Errorf("execution %d: %w", execID, ErrExecutionClosed)
	}
	return e, nil
}

// addUsageTx sets an execution's usage to next, adds the difference from
// rec to its task's totals and records it as a spend row at at; it returns
// that row (Zero when nothing changed, and then nothing is written).
func addUsageTx(ctx context.Context, tx *sql.Tx, e task.Execution, next task.Usage, estimated bool, at int64) (Spend, error) {
	rec := e.Usage
	d := task.Usage{TokensIn: next.TokensIn - rec.TokensIn, TokensOut: next.TokensOut - rec.TokensOut,
		CacheRead: next.CacheRead - rec.CacheRead, CacheWrite: next.CacheWrite - rec.CacheWrite, CostUSD: next.CostUSD - rec.CostUSD}
	sp := Spend{TaskID: e.TaskID, ExecID: e.ID, Tool: e.Tool, At: time.UnixMilli(at).UTC(), Tokens: BudgetTokens(d),
		CostUSD: d.CostUSD, Estimated: estimated}
	if d == (task.Usage{}) {
		return Spend{TaskID: e.TaskID, ExecID: e.ID, Tool: e.Tool, At: sp.At}, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE executions SET tokens_in = ?, tokens_out = ?, cache_read = ?, cache_write = ?,
		cost_usd = ?, cost_estimated = ? WHERE id = ?`, next.TokensIn, next.TokensOut, next.CacheRead, next.CacheWrite,
		next.CostUSD, estimated, e.ID); err != nil {
		return sp, fmt.Errorf("record usage of execution %d: %w", e.ID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tasks SET tokens_in = tokens_in + ?, tokens_out = tokens_out + ?,
		cache_read = cache_read + ?, cache_write = cache_write + ?, cost_usd = cost_usd + ? WHERE id = ?`,
		d.TokensIn, d.TokensOut, d.CacheRead, d.CacheWrite, d.CostUSD, e.TaskID); err != nil {
		return sp, fmt.Errorf("record usage of execution %d: %w", e.ID, err)
	}
	if sp.Zero() {
		return sp, nil // only cache reads changed: nothing a budget counts
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO spend (task_id, exec_id, tool, at, tokens, cost_usd, estimated)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, e.TaskID, e.ID, e.Tool, at, sp.Tokens, sp.CostUSD, estimated); err != nil {
		return sp, fmt.Errorf("record spend of execution %d: %w", e.ID, err)
	}
	return sp, nil
}

// RecordUsage records a running step's usage so far (what the tool
// reported, cumulative for the step) in one transaction: on the open
// execution, the growth on its task's totals, and the growth as a spend row
// stamped at (the budget clock's time, which never runs backwards).
// costEstimated says usage.CostUSD came from the price table. Counts never
// go down (see mergeUsage). It returns the spend row (Zero when nothing
// grew), an error wrapping task.ErrInvalid for negative counts, ErrNotFound
// for a missing execution and ErrExecutionClosed for one already finished.
func (s *Store) RecordUsage(ctx context.Context, execID int64, usage task.Usage, costEstimated bool, at time.Time) (Spend, error) {
	if usage.TokensIn < 0 || usage.TokensOut < 0 || usage.CacheRead < 0 || usage.CacheWrite < 0 || usage.CostUSD < 0 {
		return Spend{}, invalidf("usage must not be negative")
	}
	var sp Spend
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		e, err := openUsageTx(ctx, tx, execID)
		if err != nil {
			return err
		}
		sp, err = addUsageTx(ctx, tx, e, mergeUsage(e.Usage, usage, costEstimated), costEstimated, at.UnixMilli())
		return err
	})
	return sp, err
}

// SpendTotal is spend summed over rows, of one tool ("" for a total).
type SpendTotal struct {
	Tool    string
	Tokens  int64
	CostUSD float64
}

// SpendByTool sums the spend stamped in [from, to) per tool, sorted by tool.
func (s *Store) SpendByTool(ctx context.Context, from, to time.Time) ([]SpendTotal, error) {
	return s.spendTotals(ctx, `WHERE at >= ? AND at < ?`, from.UnixMilli(), to.UnixMilli())
}

// TaskSpendByTool sums a task's spend, of all time, per tool.
func (s *Store) TaskSpendByTool(ctx context.Context, taskID string) ([]SpendTotal, error) {
	return s.spendTotals(ctx, `WHERE task_id = ?`, taskID)
}

func (s *Store) spendTotals(ctx context.Context, where string, args ...any) ([]SpendTotal, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT tool, sum(tokens), sum(cost_usd) FROM spend `+where+` GROUP BY tool ORDER BY tool`, args...)
	if err != nil {
		return nil, fmt.Errorf("spend: %w", err)
	}
	defer rows.Close()
	out := []SpendTotal{}
	for rows.Next() {
		var t SpendTotal
		if err := rows.Scan(&t.Tool, &t.Tokens, &t.CostUSD); err != nil {
			return nil, fmt.Errorf("spend: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// TaskSpend is one task's spend of one tool ("" for all its tools).
type TaskSpend struct {
	TaskID string
	SpendTotal
}

// TasksSpend sums the spend of every task in one of statuses per tool,
// by task id and tool.
func (s *Store) TasksSpend(ctx context.Context, statuses ...task.Status) ([]TaskSpend, error) {
	if len(statuses) == 0 {
		return []TaskSpend{}, nil
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(statuses)), ",")
	args := make([]any, len(statuses))
	for i, st := range statuses {
		args[i] = string(st)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT sp.task_id, sp.tool, sum(sp.tokens), sum(sp.cost_usd) FROM spend sp
		JOIN tasks t ON t.id = sp.task_id WHERE t.status IN (`+marks+`) GROUP BY sp.task_id, sp.tool ORDER BY sp.task_id, sp.tool`, args...)
	if err != nil {
		return nil, fmt.Errorf("spend of tasks: %w", err)
	}
	defer rows.Close()
	out := []TaskSpend{}
	for rows.Next() {
		var t TaskSpend
		if err := rows.Scan(&t.TaskID, &t.Tool, &t.Tokens, &t.CostUSD); err != nil {
			return nil, fmt.Errorf("spend of tasks: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// LastSpendAt returns the latest stamp of a spend row, zero when there is
// none: the budget clock never counts from before it.
func (s *Store) LastSpendAt(ctx context.Context) (time.Time, error) {
	var at sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT max(at) FROM spend`).Scan(&at); err != nil {
		return time.Time{}, fmt.Errorf("spend: %w", err)
	}
	if !at.Valid {
		return time.Time{}, nil
	}
	return time.UnixMilli(at.Int64).UTC(), nil
}

// ReasonBudgetPrefix starts the reason of the status change of a task a
// budget stopped ("budget:daily", "budget:tools.codex.task").
const ReasonBudgetPrefix = "budget:"

// StoppedTask is a stopped task with the reason of its stop.
type StoppedTask struct {
	Task task.Task
	// Reason is the reason of the status change that stopped it.
	Reason string
}

// StoppedBy lists the stopped tasks whose stop (their last status change)
// has a reason starting with prefix, oldest stop first.
func (s *Store) StoppedBy(ctx context.Context, prefix string) ([]StoppedTask, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+prefixed("t.", taskColumns)+`, r.reason FROM tasks t
		JOIN (SELECT e.task_id, json_extract(e.payload, '$.reason') AS reason, e.id AS eid FROM events e
			WHERE e.id IN (SELECT max(id) FROM events WHERE kind = 'status_changed' GROUP BY task_id)
			AND json_valid(e.payload)) r ON r.task_id = t.id
		WHERE t.status = 'stopped' AND substr(r.reason, 1, ?) = ? ORDER BY r.eid`, len(prefix), prefix)
	if err != nil {
		return nil, fmt.Errorf("stopped tasks: %w", err)
	}
	defer rows.Close()
	out := []StoppedTask{}
	for rows.Next() {
		var st StoppedTask
		t, err := scanTask(reasonScanner{rows, &st.Reason})
		if err != nil {
			return nil, fmt.Errorf("stopped tasks: %w", err)
		}
		st.Task = t
		out = append(out, st)
	}
	return out, rows.Err()
}

// reasonScanner scans a task row followed by one more column.
type reasonScanner struct {
	rows   *sql.Rows
	reason *string
}

func (r reasonScanner) Scan(dest ...any) error { return r.rows.Scan(append(dest, r.reason)...) }

// prefixed qualifies each of a comma-separated column list with p.
func prefixed(p, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}
