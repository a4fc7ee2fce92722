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

// ExecOutcome is how one execution ended.
type ExecOutcome string

const (
	// OutcomeSucceeded is a step that exited cleanly.
	OutcomeSucceeded ExecOutcome = "succeeded"
	// OutcomeFailed is a step that failed for good.
	OutcomeFailed ExecOutcome = "failed"
	// OutcomeStopped is a step the user stopped.
	OutcomeStopped ExecOutcome = "stopped"
	// OutcomeStalled is a step the idle watchdog or deadline ended.
	OutcomeStalled ExecOutcome = "stalled"
	// OutcomeTransient is a step that failed with a transient error and may be retried.
	OutcomeTransient ExecOutcome = "transient"
)

func validOutcome(o ExecOutcome) bool {
	switch o {
	case OutcomeSucceeded, OutcomeFailed, OutcomeStopped, OutcomeStalled, OutcomeTransient:
		return true
	}
	return false
}

// ErrExecutionClosed is returned when finishing an execution that already ended.
var ErrExecutionClosed = errors.New("execution already finished")

// Execution is one role step attempt. EndedAt is nil while it is open.
type Execution struct {
	ID             int64       `json:"id"`
	TaskID         string      `json:"task_id"`
	Iteration      int         `json:"iteration"`
	Role           task.Role   `json:"role"`
	Round          int         `json:"round"`
	Attempt        int         `json:"attempt"`
	Tool           string      `json:"tool"`
	Model          string      `json:"model"`
	TranscriptPath string      `json:"transcript_path"`
	PID            int         `json:"pid"`
	PGID           int         `json:"pgid"`
	PIDs           []int       `json:"pids"`
	StartedAt      time.Time   `json:"started_at"`
	EndedAt        *time.Time  `json:"ended_at,omitempty"`
	Outcome        ExecOutcome `json:"outcome,omitempty"`
	ExitCode       *int        `json:"exit_code,omitempty"`
	Usage          task.Usage  `json:"usage"`
	// CostEstimated is true when the cost came from the price table, not the tool.
	CostEstimated bool `json:"cost_estimated"`
}

func (e *Execution) normalize() error {
	if _, err := task.ParseRole(string(e.Role)); err != nil {
		return err
	}
	if e.Iteration == 0 {
		e.Iteration = 1
	}
	if e.Attempt == 0 {
		e.Attempt = 1
	}
	if e.Iteration < 0 || e.Round < 0 || e.Attempt < 0 {
		return invalidf("execution iteration, round and attempt must not be negative")
	}
	if e.PIDs == nil {
		e.PIDs = []int{}
	}
	return nil
}

const execColumns = `id, task_id, iteration, role, round, attempt, tool, model, transcript_path,
	pid, pgid, pids, started_at, ended_at, outcome, exit_code,
	tokens_in, tokens_out, cache_read, cache_write, cost_usd, cost_estimated`

func insertExecutionTx(ctx context.Context, tx *sql.Tx, e Execution, at int64) (Execution, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO executions (task_id, iteration, role, round, attempt, tool, model,
		transcript_path, pid, pgid, pids, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.TaskID, e.Iteration, string(e.Role), e.Round, e.Attempt, e.Tool, e.Model, e.TranscriptPath,
		e.PID, e.PGID, mustJSON(e.PIDs), at)
	if err != nil {
		return e, fmt.Errorf("start execution: %w", err)
	}
	e.ID, _ = res.LastInsertId()
	e.StartedAt = time.UnixMilli(at).UTC()
	err = appendEventTx(ctx, tx, e.TaskID, at, "step_started", map[string]any{
		"execution": e.ID, "role": e.Role, "iteration": e.Iteration, "round": e.Round, "attempt": e.Attempt,
		"tool": e.Tool, "model": e.Model})
	return e, err
}

// StartExecution opens an execution row for a step attempt of an existing
// task and records a step_started event. It returns an error wrapping
// ErrNotFound for a missing task and task.ErrInvalid for a bad role or
// negative counters.
func (s *Store) StartExecution(ctx context.Context, e Execution) (Execution, error) {
	if err := e.normalize(); err != nil {
		return Execution{}, err
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
		return Execution{}, err
	}
	return e, nil
}

// SetExecutionProcess records the process id, process group and known
// descendant pids of an open execution, so crash recovery can find them. It
// returns an error wrapping ErrNotFound when no such execution is open.
func (s *Store) SetExecutionProcess(ctx context.Context, execID int64, pid, pgid int, pids []int) error {
	if pids == nil {
		pids = []int{}
	}
	res, err := s.db.ExecContext(ctx, `UPDATE executions SET pid = ?, pgid = ?, pids = ? WHERE id = ? AND ended_at IS NULL`,
		pid, pgid, mustJSON(pids), execID)
	if err != nil {
		return fmt.Errorf("set execution process: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("open %w", notFound(WhatExecution, strconv.FormatInt(execID, 10)))
	}
	return nil
}

// FinishExecution closes an open execution with its outcome, exit code and
// usage, adds the usage to the task's totals and records a step_finished
// event, all in one transaction. When usage.CostUSD is zero the cost is
// estimated from the model price table (task.EstimateCost). It returns an
// error wrapping task.ErrInvalid for an unknown outcome or negative token
// counts, ErrNotFound for a missing execution and ErrExecutionClosed for one
// already finished.
func (s *Store) FinishExecution(ctx context.Context, execID int64, outcome ExecOutcome, exitCode int, usage task.Usage) error {
	if !validOutcome(outcome) {
		return invalidf("unknown execution outcome %q", outcome)
	}
	if usage.TokensIn < 0 || usage.TokensOut < 0 || usage.CacheRead < 0 || usage.CacheWrite < 0 || usage.CostUSD < 0 {
		return invalidf("usage must not be negative")
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		e, err := scanExecution(tx.QueryRowContext(ctx, `SELECT `+execColumns+` FROM executions WHERE id = ?`, execID))
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(WhatExecution, strconv.FormatInt(execID, 10))
		}
		if err != nil {
			return fmt.Errorf("finish execution %d: %w", execID, err)
		}
		if e.EndedAt != nil {
			return fmt.Errorf("finish execution %d: %w", execID, ErrExecutionClosed)
		}
		estimated := false
		if usage.CostUSD == 0 {
			usage.CostUSD, estimated = task.EstimateCost(e.Model, usage)
		}
		at := s.nowMs()
		if _, err := tx.ExecContext(ctx, `UPDATE executions SET ended_at = ?, outcome = ?, exit_code = ?,
			tokens_in = ?, tokens_out = ?, cache_read = ?, cache_write = ?, cost_usd = ?, cost_estimated = ? WHERE id = ?`,
			at, string(outcome), exitCode, usage.TokensIn, usage.TokensOut, usage.CacheRead, usage.CacheWrite,
			usage.CostUSD, estimated, execID); err != nil {
			return fmt.Errorf("finish execution %d: %w", execID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET tokens_in = tokens_in + ?, tokens_out = tokens_out + ?,
			cache_read = cache_read + ?, cache_write = cache_write + ?, cost_usd = cost_usd + ?, updated_at = ? WHERE id = ?`,
			usage.TokensIn, usage.TokensOut, usage.CacheRead, usage.CacheWrite, usage.CostUSD, at, e.TaskID); err != nil {
			return fmt.Errorf("finish execution %d: %w", execID, err)
		}
		return appendEventTx(ctx, tx, e.TaskID, at, "step_finished", map[string]any{
			"execution": execID, "role": e.Role, "iteration": e.Iteration, "round": e.Round, "attempt": e.Attempt,
			"outcome": outcome, "exit_code": exitCode, "usage": usage})
	})
}

// OpenExecutions returns every execution not yet finished, oldest first: the
// steps running now, or left open by a crash for recovery to close.
func (s *Store) OpenExecutions(ctx context.Context) ([]Execution, error) {
	return s.queryExecutions(ctx, `SELECT `+execColumns+` FROM executions WHERE ended_at IS NULL ORDER BY id`)
}

// Executions returns a task's executions in the order they started.
func (s *Store) Executions(ctx context.Context, taskID string) ([]Execution, error) {
	return s.queryExecutions(ctx, `SELECT `+execColumns+` FROM executions WHERE task_id = ? ORDER BY id`, taskID)
}

func (s *Store) queryExecutions(ctx context.Context, q string, args ...any) ([]Execution, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list executions: %w", err)
	}
	defer rows.Close()
	out := []Execution{}
	for rows.Next() {
		e, err := scanExecution(rows)
		if err != nil {
			return nil, fmt.Errorf("list executions: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func scanExecution(r scanner) (Execution, error) {
	var e Execution
	var role, pids, outcome string
	var started int64
	var ended, exit sql.NullInt64
	err := r.Scan(&e.ID, &e.TaskID, &e.Iteration, &role, &e.Round, &e.Attempt, &e.Tool, &e.Model, &e.TranscriptPath,
		&e.PID, &e.PGID, &pids, &started, &ended, &outcome, &exit,
		&e.Usage.TokensIn, &e.Usage.TokensOut, &e.Usage.CacheRead, &e.Usage.CacheWrite, &e.Usage.CostUSD, &e.CostEstimated)
	if err != nil {
		return e, err
	}
	e.Role = task.Role(role)
	e.Outcome = ExecOutcome(outcome)
	if json.Unmarshal([]byte(pids), &e.PIDs) != nil || e.PIDs == nil {
		e.PIDs = []int{}
	}
	e.StartedAt = time.UnixMilli(started).UTC()
	e.EndedAt = msPtr(ended)
	if exit.Valid {
		c := int(exit.Int64)
		e.ExitCode = &c
	}
	return e, nil
}
