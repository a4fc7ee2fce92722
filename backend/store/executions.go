package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// ErrExecutionClosed is returned when finishing an execution that already ended.
var ErrExecutionClosed = errors.New("execution already finished")

const execColumns = `id, task_id, iteration, role, round, attempt, tool, model, transcript_path,
	pid, pgid, pids, pid_starts, started_at, ended_at, outcome, exit_code,
	tokens_in, tokens_out, cache_read, cache_write, cost_usd, cost_estimated, session_id`

func insertExecutionTx(ctx context.Context, tx *sql.Tx, e task.Execution, at int64) (task.Execution, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO executions (task_id, iteration, role, round, attempt, tool, model,
		transcript_path, pid, pgid, pids, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.TaskID, e.Iteration, string(e.Role), e.Round, e.Attempt, e.Tool, e.Model, e.TranscriptPath,
		e.PID, e.PGID, mustJSON(e.PIDs), at)
	if err != nil {
		return e, fmt.Errorf("start execution: %w", err)
	}
	e.ID, _ = res.LastInsertId()
	e.StartedAt = time.UnixMilli(at).UTC()
	return e, nil
}

// StartExecution opens an execution row for a step attempt of an existing
// task (the pipeline records the task.StepStarted event when the step
// actually starts). It returns an error wrapping
// ErrNotFound for a missing task and task.ErrInvalid for a bad role or
// negative counters.
func (s *Store) StartExecution(ctx context.Context, e task.Execution) (task.Execution, error) {
	if err := e.Normalize(); err != nil {
		return task.Execution{}, err
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, e.TaskID); err != nil {
			return err
		}
		var err error
		e, err = insertExecutionTx(ctx, tx, e, s.nowMs())
		return err
	})
	if err != nil {
		return task.Execution{}, err
	}
	return e, nil
}

// SetExecutionProcess records the process id, process group and known
// descendant pids of an open execution, with the start time of each (see
// proc.StartTimes; pids without one are recorded all the same), so crash
// recovery can find them and signal a pid only while it names the same
// process. It returns an error wrapping ErrNotFound when no such execution
// is open.
func (s *Store) SetExecutionProcess(ctx context.Context, execID int64, pid, pgid int, pids []int, starts map[int]uint64) error {
	if pids == nil {
		pids = []int{}
	}
	if starts == nil {
		starts = map[int]uint64{}
	}
	res, err := s.db.ExecContext(ctx, `UPDATE executions SET pid = ?, pgid = ?, pids = ?, pid_starts = ? WHERE id = ? AND ended_at IS NULL`,
		pid, pgid, mustJSON(pids), mustJSON(starts), execID)
	if err != nil {
		return fmt.Errorf("set execution process: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("open %w", notFound(WhatExecution, strconv.FormatInt(execID, 10)))
	}
	return nil
}

// FinishExecution closes an open execution with its outcome, exit code and
// final usage, in one transaction with what the usage adds to the task's
// totals and to the spend (the caller records the task.StepFinished event).
// Usage the step recorded while it ran (RecordUsage) is kept: counts never
// go down, so recovery closing a crashed step with no usage keeps what it
// had spent (see mergeUsage). costEstimated records that usage.CostUSD came
// from the tool's price table (agent.Registry.EstimateCost), not from the
// tool. It returns an error wrapping task.ErrInvalid for an unknown outcome
// or negative token counts, ErrNotFound for a missing execution and
// ErrExecutionClosed for one already finished.
func (s *Store) FinishExecution(ctx context.Context, execID int64, outcome task.ExecOutcome, exitCode int, usage task.Usage, costEstimated bool) error {
	if !outcome.Valid() {
		return invalidf("unknown execution outcome %q", outcome)
	}
	if usage.TokensIn < 0 || usage.TokensOut < 0 || usage.CacheRead < 0 || usage.CacheWrite < 0 || usage.CostUSD < 0 {
		return invalidf("usage must not be negative")
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		return finishExecutionTx(ctx, tx, execID, outcome, exitCode, usage, costEstimated, s.nowMs())
	})
}

// finishExecutionTx is FinishExecution inside tx, at the time at.
func finishExecutionTx(ctx context.Context, tx *sql.Tx, execID int64, outcome task.ExecOutcome, exitCode int, usage task.Usage, costEstimated bool, at int64) error {
	e, err := openUsageTx(ctx, tx, execID)
	if err != nil {
		return fmt.Errorf("finish %w", err)
	}
	estimated := costEstimated || (e.CostEstimated && usage.CostUSD == 0)
	if _, err := addUsageTx(ctx, tx, e, mergeUsage(e.Usage, usage, costEstimated), estimated, at); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE executions SET ended_at = ?, outcome = ?, exit_code = ?, cost_estimated = ? WHERE id = ?`,
		at, string(outcome), exitCode, estimated, execID); err != nil {
		return fmt.Errorf("finish execution %d: %w", execID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tasks SET updated_at = ? WHERE id = ?`, at, e.TaskID); err != nil {
		return fmt.Errorf("finish execution %d: %w", execID, err)
	}
	return nil
}

// OpenExecutions returns every execution not yet finished, oldest first: the
// steps running now, or left open by a crash for recovery to close.
func (s *Store) OpenExecutions(ctx context.Context) ([]task.Execution, error) {
	return s.queryExecutions(ctx, `SELECT `+execColumns+` FROM executions WHERE ended_at IS NULL ORDER BY id`)
}

// Executions returns a task's executions in the order they started.
func (s *Store) Executions(ctx context.Context, taskID string) ([]task.Execution, error) {
	return s.queryExecutions(ctx, `SELECT `+execColumns+` FROM executions WHERE task_id = ? ORDER BY id`, taskID)
}

func (s *Store) queryExecutions(ctx context.Context, q string, args ...any) ([]task.Execution, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list executions: %w", err)
	}
	defer rows.Close()
	out := []task.Execution{}
	for rows.Next() {
		e, err := scanExecution(rows)
		if err != nil {
			return nil, fmt.Errorf("list executions: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func scanExecution(r scanner) (task.Execution, error) {
	var e task.Execution
	var role, pids, starts, outcome string
	var started int64
	var ended, exit sql.NullInt64
	err := r.Scan(&e.ID, &e.TaskID, &e.Iteration, &role, &e.Round, &e.Attempt, &e.Tool, &e.Model, &e.TranscriptPath,
		&e.PID, &e.PGID, &pids, &starts, &started, &ended, &outcome, &exit,
		&e.Usage.TokensIn, &e.Usage.TokensOut, &e.Usage.CacheRead, &e.Usage.CacheWrite, &e.Usage.CostUSD, &e.CostEstimated, &e.SessionID)
	if err != nil {
		return e, err
	}
	e.Role = task.Role(role)
	e.Outcome = task.ExecOutcome(outcome)
	if json.Unmarshal([]byte(pids), &e.PIDs) != nil || e.PIDs == nil {
		e.PIDs = []int{}
	}
	if json.Unmarshal([]byte(starts), &e.Starts) != nil || len(e.Starts) == 0 {
		e.Starts = nil
	}
	e.StartedAt = time.UnixMilli(started).UTC()
	e.EndedAt = msPtr(ended)
	if exit.Valid {
		c := int(exit.Int64)
		e.ExitCode = &c
	}
	return e, nil
}
