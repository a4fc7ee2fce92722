package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TaskRows are one task's rows in the tables a run reads, column by
// column, as JSON carries them (integers as json.Number after a decode
// with UseNumber): what the store of a task run elsewhere is seeded with
// (ExportTaskRows on the desktop, SeedTask in the pod). Both ends run the
// same schema (LatestSchema); a pod refuses rows of another.
type TaskRows map[string][]map[string]any

// seedTables are the tables ExportTaskRows copies, in the order SeedTask
// inserts them, with the condition that selects the task's rows. The
// controls are the injected prompts not yet applied (a stop is the pod's
// own); repo_verify is the task repository's verify command.
var seedTables = []struct{ table, where string }{
	{"tasks", "id = ?"},
	{"sections", "task_id = ? ORDER BY id"},
	{"change_requests", "task_id = ? ORDER BY id"},
	{"task_resume", "task_id = ?"},
	{"task_verify", "task_id = ?"},
	{"attachments", "task_id = ?"},
	{"controls", "task_id = ? AND kind = 'inject' AND consumed_at IS NULL ORDER BY id"},
	{"repo_verify", "path = ?"},
}

// ExportTaskRows returns the rows of task id a run of it reads, repo being
// the repository it runs in (for its verify command). It returns an error
// wrapping ErrNotFound for a missing task.
func (s *Store) ExportTaskRows(ctx context.Context, id, repo string) (TaskRows, error) {
	out := TaskRows{}
	for _, t := range seedTables {
		arg := id
		if t.table == "repo_verify" {
			arg = repo
		}
		rows, err := queryRows(ctx, s.db, `SELECT * FROM `+t.table+` WHERE `+t.where, arg)
		if err != nil {
			return nil, fmt.Errorf("export %s of %s: %w", t.table, id, err)
		}
		out[t.table] = rows
	}
	if len(out["tasks"]) != 1 {
		return nil, notFound(WhatTask, id)
	}
	return out, nil
}

func queryRows(ctx context.Context, db *sql.DB, q string, args ...any) ([]map[string]any, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				vals[i] = string(b) // no table here holds a BLOB
			}
			m[c] = vals[i]
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// SeedTask stores rows (ExportTaskRows of another store) in this empty
// store, in one transaction, as a task this store's runner claims next:
// pending, run here ("local"), in repository repo, with no worktree of
// another machine recorded. It returns an error wrapping task.ErrInvalid
// for rows without exactly one task or naming an unknown table or
// column, and ErrExists when the task is already here.
func (s *Store) SeedTask(ctx context.Context, rows TaskRows, repo string) (task.Task, error) {
	if len(rows["tasks"]) != 1 {
		return task.Task{}, invalidf("seed rows hold %d tasks, want 1", len(rows["tasks"]))
	}
	id, _ := rows["tasks"][0]["id"].(string)
	for name := range rows {
		if !slices.ContainsFunc(seedTables, func(t struct{ table, where string }) bool { return t.table == name }) {
			return task.Task{}, invalidf("seed rows name the unknown table %q", name)
		}
	}
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, id); err == nil {
			return fmt.Errorf("seed task %s: %w", id, ErrExists)
		}
		for _, t := range seedTables {
			for _, row := range rows[t.table] {
				row = seedRow(t.table, row, repo)
				if err := insertRowTx(ctx, tx, t.table, row); err != nil {
					return fmt.Errorf("seed %s of %s: %w", t.table, id, err)
				}
			}
		}
		var err error
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	return out, err
}

// seedRow adapts a row of the desktop's store to this one: the task is
// pending here, runs here, in repo, and has no worktree or branch yet.
func seedRow(table string, row map[string]any, repo string) map[string]any {
	r := make(map[string]any, len(row))
	for k, v := range row {
		r[k] = v
	}
	switch table {
	case "tasks":
		r["status"], r["repo"], r["executor"] = string(task.StatusPending), repo, ""
		r["worktree_path"], r["started_at"], r["finished_at"], r["error"] = "", nil, nil, ""
	case "repo_verify":
		r["path"] = repo
	}
	return r
}

// insertRowTx inserts row into table; columns are checked against the
// table's own (a name is never taken from the row unchecked).
func insertRowTx(ctx context.Context, tx *sql.Tx, table string, row map[string]any) error {
	known, err := tableColumns(ctx, tx, table)
	if err != nil {
		return err
	}
	cols := make([]string, 0, len(row))
	for c := range row {
		if !known[c] {
			return invalidf("table %s has no column %q", table, c)
		}
		cols = append(cols, c)
	}
	slices.Sort(cols)
	args := make([]any, len(cols))
	for i, c := range cols {
		args[i] = sqlValue(row[c])
	}
	q := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES (` +
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + `)`
	_, err = tx.ExecContext(ctx, q, args...)
	return err
}

func tableColumns(ctx context.Context, tx *sql.Tx, table string) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}

// sqlValue turns a JSON-decoded value into one SQLite stores as the
// desktop's store had it: json.Number as an integer when it is one.
func sqlValue(v any) any {
	n, ok := v.(json.Number)
	if !ok {
		return v
	}
	if i, err := n.Int64(); err == nil {
		return i
	}
	f, _ := n.Float64()
	return f
}

// SeedInjection stores an injected prompt the desktop sent for a task run
// here, under the desktop's id (so the pipeline's task.InjectionApplied
// names the desktop's row), and returns false when it is already here.
func (s *Store) SeedInjection(ctx context.Context, inj task.Injection) (bool, error) {
	if strings.TrimSpace(inj.Text) == "" || len(inj.Text) > MaxInjection || inj.ID <= 0 {
		return false, invalidf("injected prompt %d is empty, too long or has no id", inj.ID)
	}
	added := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, inj.TaskID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO controls (id, task_id, kind, text, created_at) VALUES (?, ?, 'inject', ?, ?)`,
			inj.ID, inj.TaskID, inj.Text, s.nowMs())
		if err != nil {
			return fmt.Errorf("seed injection: %w", err)
		}
		n, _ := res.RowsAffected()
		added = n == 1
		return nil
	})
	return added, err
}
