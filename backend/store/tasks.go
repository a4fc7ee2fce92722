package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

const taskColumns = `id, title, prompt, status, priority, skip, labels, command, runs,
	completed_runs, base, repo, created_at, updated_at, started_at, finished_at, branch, error,
	prev_status, position, questions, tools, base_sha, head_sha, worktree_path,
	tokens_in, tokens_out, cache_read, cache_write, cost_usd, origin_id, extra, not_before, on_limit, schedule_id, fix_runs, run_start, executor`

// GetTask returns the task with id, or an error wrapping ErrNotFound.
func (s *Store) GetTask(ctx context.Context, id string) (task.Task, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+taskColumns+` FROM tasks WHERE id = ?`, id)
	t, err := scanTask(row)
	if errors.Is(err, sql.ErrNoRows) {
		return task.Task{}, notFound(WhatTask, id)
	}
	if err != nil {
		return task.Task{}, fmt.Errorf("get task %s: %w", id, err)
	}
	return t, nil
}

// Filter selects tasks for ListTasks.
type Filter struct {
	// Statuses keeps tasks in any of these statuses; empty keeps all.
	Statuses []task.Status
	// Search keeps tasks whose id, title or prompt contains it (case-insensitive for ASCII).
	Search string
	// Label keeps tasks carrying this exact label.
	Label string
	// Queue orders by queue position (priority, then position, then oldest)
	// instead of newest activity first.
	Queue bool
	// Limit caps the result; zero means 500.
	Limit int
	// Offset skips that many rows.
	Offset int
}

// ListTasks returns tasks matching f, newest activity first (or in queue
// order when f.Queue).
func (s *Store) ListTasks(ctx context.Context, f Filter) ([]task.Task, error) {
	var where []string
	var args []any
	if len(f.Statuses) > 0 {
		ph := strings.TrimSuffix(strings.Repeat("?,", len(f.Statuses)), ",")
		where = append(where, "status IN ("+ph+")")
		for _, st := range f.Statuses {
			args = append(args, string(st))
		}
	}
	if q := strings.TrimSpace(f.Search); q != "" {
		// instr, not LIKE: a LIKE pattern over SQLite's length limit (50,000
		// bytes) fails with "LIKE or GLOB pattern too complex".
		where = append(where, `(instr(lower(id), lower(?)) > 0 OR instr(lower(title), lower(?)) > 0 OR instr(lower(prompt), lower(?)) > 0)`)
		args = append(args, q, q, q)
	}
	if f.Label != "" {
		where = append(where, `EXISTS (SELECT 1 FROM json_each(tasks.labels) WHERE value = ?)`)
		args = append(args, f.Label)
	}
	q := `SELECT ` + taskColumns + ` FROM tasks`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if f.Limit <= 0 {
		f.Limit = 500
	}
	if f.Queue {
		q += " ORDER BY priority DESC, position, created_at, id LIMIT ? OFFSET ?"
	} else {
		q += " ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?"
	}
	args = append(args, f.Limit, f.Offset)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	defer rows.Close()
	out := []task.Task{}
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, fmt.Errorf("list tasks: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(dest ...any) error }

func scanTask(r scanner) (task.Task, error) {
	var t task.Task
	var status, labels, prev, questions, tools, extra, runStart string
	var skip int
	var created, updated int64
	var started, finished, notBefore sql.NullInt64
	var onLimit, executor string
	err := r.Scan(&t.ID, &t.Title, &t.Prompt, &status, &t.Priority, &skip, &labels, &t.Command, &t.Runs,
		&t.CompletedRuns, &t.Base, &t.Repo, &created, &updated, &started, &finished, &t.Branch, &t.Error,
		&prev, &t.Position, &questions, &tools, &t.BaseSHA, &t.HeadSHA, &t.WorktreePath,
		&t.Usage.TokensIn, &t.Usage.TokensOut, &t.Usage.CacheRead, &t.Usage.CacheWrite, &t.Usage.CostUSD, &t.OriginID, &extra,
		&notBefore, &onLimit, &t.ScheduleID, &t.FixRuns, &runStart, &executor)
	if err != nil {
		return t, err
	}
	t.Status = task.Status(status)
	t.Skip = skip != 0
	t.NotBefore = msPtr(notBefore)
	t.OnLimit = task.OnLimit(onLimit)
	t.Executor = task.Executor(executor)
	if err := json.Unmarshal([]byte(labels), &t.Labels); err != nil || t.Labels == nil {
		t.Labels = []string{}
	}
	t.PrevStatus = task.Status(prev)
	if err := json.Unmarshal([]byte(questions), &t.Questions); err != nil || t.Questions == nil {
		t.Questions = []string{}
	}
	if err := json.Unmarshal([]byte(tools), &t.Tools); err != nil || t.Tools == nil {
		t.Tools = task.Tools{}
	}
	_ = json.Unmarshal([]byte(runStart), &t.RunStart) // unreadable: a run from the planner
	if extra != "" {
		t.Extra = json.RawMessage(extra)
	}
	t.CreatedAt = time.UnixMilli(created).UTC()
	t.UpdatedAt = time.UnixMilli(updated).UTC()
	t.StartedAt = msPtr(started)
	t.FinishedAt = msPtr(finished)
	return t, nil
}

func msPtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMilli(v.Int64).UTC()
	return &t
}
