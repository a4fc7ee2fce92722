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

// RemoteRun is the record of an ongoing task's run in a cluster
// (backend/executor/kubernetes): written before its Job is created, it
// lets a restart find and follow the Job, and it holds how far the pod's
// stream was applied here.
type RemoteRun struct {
	TaskID    string `json:"task_id"`
	Iteration int    `json:"iteration"`
	// Job and Namespace name the Job; Context the kubeconfig context.
	Job, Namespace, Context string
	// BaseSHA is the commit the task's base was when the run was shipped.
	BaseSHA string
	// FirstExec is this store's execution the claim opened; the pod's
	// first execution is recorded in it.
	FirstExec int64
	// LastSeq is the last record of the pod's stream applied here.
	LastSeq int64
	// Execs maps the pod's execution ids to this store's.
	Execs map[int64]int64
	// Refs are the task's refs as last imported (full ref name → sha).
	Refs map[string]string
	// StopSent is set once the Job was deleted for a stop request.
	StopSent  bool
	CreatedAt time.Time
}

// StartRemoteRun records a run of an ongoing task in a cluster, replacing
// the record of an earlier run. It returns an error wrapping ErrNotFound
// for a missing task and a *StatusError for one that is not ongoing.
func (s *Store) StartRemoteRun(ctx context.Context, r RemoteRun) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, r.TaskID)
		if err != nil {
			return err
		}
		if err := requireStatus("run in a cluster", r.TaskID, t.Status, task.StatusOngoing); err != nil {
			return err
		}
		if r.Execs == nil {
			r.Execs = map[int64]int64{}
		}
		if r.Refs == nil {
			r.Refs = map[string]string{}
		}
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO remote_runs (task_id, iteration, job, namespace, context, base_sha, first_exec,
			last_seq, exec_map, refs, stop_sent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.TaskID, r.Iteration, r.Job, r.Namespace, r.Context, r.BaseSHA, r.FirstExec, r.LastSeq, mustJSON(r.Execs), mustJSON(r.Refs), r.StopSent, s.nowMs())
		if err != nil {
			return fmt.Errorf("start remote run of %s: %w", r.TaskID, err)
		}
		return nil
	})
}

// GetRemoteRun returns the record of a task's run in a cluster, false when
// there is none.
func (s *Store) GetRemoteRun(ctx context.Context, taskID string) (RemoteRun, bool, error) {
	r, err := scanRemoteRun(s.db.QueryRowContext(ctx, remoteRunQuery, taskID))
	if errors.Is(err, sql.ErrNoRows) {
		return RemoteRun{}, false, nil
	}
	if err != nil {
		return RemoteRun{}, false, fmt.Errorf("remote run of %s: %w", taskID, err)
	}
	return r, true, nil
}

// DropRemoteRun deletes the record of a task's run in a cluster.
func (s *Store) DropRemoteRun(ctx context.Context, taskID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM remote_runs WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("drop remote run of %s: %w", taskID, err)
	}
	return nil
}

// MarkRemoteStop records that the Job of a task's run was deleted for a
// stop request.
func (s *Store) MarkRemoteStop(ctx context.Context, taskID string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE remote_runs SET stop_sent = 1 WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("mark remote stop of %s: %w", taskID, err)
	}
	return nil
}

const remoteRunQuery = `SELECT task_id, iteration, job, namespace, context, base_sha, first_exec, last_seq, exec_map, refs, stop_sent, created_at
	FROM remote_runs WHERE task_id = ?`

func scanRemoteRun(r scanner) (RemoteRun, error) {
	var rr RemoteRun
	var execs, refs string
	var at int64
	if err := r.Scan(&rr.TaskID, &rr.Iteration, &rr.Job, &rr.Namespace, &rr.Context, &rr.BaseSHA, &rr.FirstExec, &rr.LastSeq,
		&execs, &refs, &rr.StopSent, &at); err != nil {
		return rr, err
	}
	m := map[string]int64{}
	if err := json.Unmarshal([]byte(execs), &m); err != nil {
		return rr, fmt.Errorf("exec map: %w", err)
	}
	rr.Execs = map[int64]int64{}
	for k, v := range m {
		pod, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return rr, fmt.Errorf("exec map key %q: %w", k, err)
		}
		rr.Execs[pod] = v
	}
	if err := json.Unmarshal([]byte(refs), &rr.Refs); err != nil || rr.Refs == nil {
		rr.Refs = map[string]string{}
	}
	rr.CreatedAt = time.UnixMilli(at).UTC()
	return rr, nil
}

// RemoteRecord is one durable record of a task's run in a cluster, as the
// pod's stream carries it, applied here by ApplyRemote. Its parts are
// applied in this order: Step, Log, StepEnd, Event, Sections, Injection,
// Refs; each may be empty.
type RemoteRecord struct {
	// Seq is the record's place in the pod's stream: a record at or below
	// the run's LastSeq was applied before and is skipped.
	Seq int64
	// Exec is the pod's execution the Log and Event belong to (0: none).
	Exec int64
	// Step opens the execution of a step the pod started (Execution.ID is
	// the pod's; the pod's first execution takes over FirstExec).
	Step *task.Execution
	// Log is a line of the task's log.
	Log *task.LogLine
	// Event is a stored event of the run; the step events' execution ids
	// are this store's once applied.
	Event task.EventData
	// StepEnd closes the pod's execution Exec.
	StepEnd *task.StepFinished
	// Sections are reports and plans the pod stored.
	Sections []task.Section
	// Injection marks the injected prompt of this id applied to its step
	// (with its section), as the pod's pipeline did.
	Injection *task.InjectionApplied
	// Refs are the task's refs after a checkpoint was imported into git.
	Refs map[string]string
}

// ApplyRemote applies rec to the task's run in one transaction with the
// run's LastSeq. It returns this store's execution rec.Exec (or rec.Step)
// maps to (0 when none) and false, changing nothing, when rec was applied
// before. It returns an error wrapping ErrNotFound when the task has no
// remote run, and the errors of the writes it makes.
func (s *Store) ApplyRemote(ctx context.Context, taskID string, rec RemoteRecord) (int64, bool, error) {
	var desk int64
	applied := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rr, err := scanRemoteRun(tx.QueryRowContext(ctx, remoteRunQuery, taskID))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("remote run of %s: %w", taskID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("remote run of %s: %w", taskID, err)
		}
		if rec.Seq <= rr.LastSeq {
			desk = rr.Execs[rec.Exec]
			if rec.Step != nil {
				desk = rr.Execs[rec.Step.ID]
			}
			return nil
		}
		at := s.nowMs()
		if desk, err = s.applyRemoteTx(ctx, tx, &rr, rec, at); err != nil {
			return err
		}
		for k, v := range rec.Refs {
			if v == "" {
				delete(rr.Refs, k)
			} else {
				rr.Refs[k] = v
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE remote_runs SET last_seq = ?, exec_map = ?, refs = ? WHERE task_id = ?`,
			rec.Seq, mustJSON(rr.Execs), mustJSON(rr.Refs), taskID)
		if err != nil {
			return fmt.Errorf("apply remote record %d: %w", rec.Seq, err)
		}
		applied = true
		return nil
	})
	return desk, applied, err
}

func (s *Store) applyRemoteTx(ctx context.Context, tx *sql.Tx, rr *RemoteRun, rec RemoteRecord, at int64) (int64, error) {
	desk := rr.Execs[rec.Exec]
	if rec.Step != nil {
		e := *rec.Step
		pod := e.ID
		if id, ok := rr.Execs[pod]; ok {
			desk = id
		} else if len(rr.Execs) == 0 && rr.FirstExec != 0 {
			desk = rr.FirstExec
			if _, err := tx.ExecContext(ctx, `UPDATE executions SET round = ?, attempt = ?, tool = ?, model = ?, transcript_path = ? WHERE id = ?`,
				e.Round, e.Attempt, e.Tool, e.Model, e.TranscriptPath, desk); err != nil {
				return 0, fmt.Errorf("take over execution %d: %w", desk, err)
			}
		} else {
			e.TaskID = rr.TaskID
			if err := e.Normalize(); err != nil {
				return 0, err
			}
			ins, err := insertExecutionTx(ctx, tx, e, at)
			if err != nil {
				return 0, err
			}
			desk = ins.ID
		}
		rr.Execs[pod] = desk
	}
	if rec.Log != nil {
		if !rec.Log.Level.Valid() {
			return 0, invalidf("unknown log level %q", rec.Log.Level)
		}
		var ex any
		if desk != 0 {
			ex = desk
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO log_lines (task_id, exec_id, at, level, text) VALUES (?, ?, ?, ?, ?)`,
			rr.TaskID, ex, at, string(rec.Log.Level), rec.Log.Text); err != nil {
			return 0, fmt.Errorf("append log: %w", err)
		}
	}
	if rec.StepEnd != nil && desk != 0 {
		err := finishExecutionTx(ctx, tx, desk, rec.StepEnd.Outcome, rec.StepEnd.ExitCode, rec.StepEnd.Usage, rec.StepEnd.CostEstimated, at)
		if err != nil && !errors.Is(err, ErrExecutionClosed) {
			return 0, err
		}
	}
	if rec.Event != nil {
		if err := appendEventTx(ctx, tx, rr.TaskID, at, withExecution(rec.Event, desk)); err != nil {
			return 0, err
		}
	}
	for _, sec := range rec.Sections {
		sec.ID, sec.TaskID = 0, rr.TaskID
		if err := sec.Validate(); err != nil {
			return 0, err
		}
		if _, err := addSectionTx(ctx, tx, sec, at); err != nil {
			return 0, err
		}
	}
	if rec.Injection != nil {
		if err := applyInjectionTx(ctx, tx, rr.TaskID, *rec.Injection, at); err != nil {
			return 0, err
		}
	}
	return desk, nil
}

// withExecution returns d with the step events' execution id set to id.
func withExecution(d task.EventData, id int64) task.EventData {
	switch v := d.(type) {
	case task.StepStarted:
		v.Execution = id
		return v
	case task.StepFinished:
		v.Execution = id
		return v
	}
	return d
}

// applyInjectionTx marks one injected prompt applied to its step and
// stores its section, as ApplyInjections does for each; one already
// applied is left as it is.
func applyInjectionTx(ctx context.Context, tx *sql.Tx, taskID string, a task.InjectionApplied, at int64) error {
	var text string
	err := tx.QueryRowContext(ctx, `SELECT text FROM controls WHERE id = ? AND task_id = ? AND kind = 'inject' AND consumed_at IS NULL`,
		a.Injection, taskID).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("apply injection %d: %w", a.Injection, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE controls SET consumed_at = ?, step = ? WHERE id = ?`, at, a.Step, a.Injection); err != nil {
		return fmt.Errorf("apply injection %d: %w", a.Injection, err)
	}
	_, err = addSectionTx(ctx, tx, task.Section{TaskID: taskID, Kind: task.SectionInjectedPrompt, Step: a.Step, Body: text}, at)
	return err
}

// PendingInjections returns a task's injected prompts not yet applied,
// oldest first.
func (s *Store) PendingInjections(ctx context.Context, taskID string) ([]task.Injection, error) {
	return s.queryInjections(ctx, s.db, `WHERE task_id = ? AND kind = 'inject' AND consumed_at IS NULL ORDER BY id`, taskID)
}

// OpenExecutionsOf returns a task's executions not yet finished, oldest
// first.
func (s *Store) OpenExecutionsOf(ctx context.Context, taskID string) ([]task.Execution, error) {
	return s.queryExecutions(ctx, `SELECT `+execColumns+` FROM executions WHERE task_id = ? AND ended_at IS NULL ORDER BY id`, taskID)
}
