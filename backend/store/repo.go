package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TasksWithoutRepo returns the tasks that ran in git (a branch or a worktree
// is recorded) but have no working directory recorded: tasks added before
// the working directory was recorded at add. RecordRepo repairs them.
func (s *Store) TasksWithoutRepo(ctx context.Context) ([]task.Task, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+taskColumns+` FROM tasks
		WHERE repo = '' AND (branch != '' OR worktree_path != '') ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("tasks without repo: %w", err)
	}
	defer rows.Close()
	out := []task.Task{}
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, fmt.Errorf("tasks without repo: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RecordRepo sets a task's working directory when it has none; a task that
// already has one keeps it. It reports whether it changed the task, and
// returns an error wrapping task.ErrInvalid for a path that is not absolute
// or holds a line break or NUL, and ErrNotFound for a missing task.
func (s *Store) RecordRepo(ctx context.Context, id, repo string) (bool, error) {
	if !strings.HasPrefix(repo, "/") || strings.ContainsAny(repo, "\x00\n\r") {
		return false, invalidf("working directory %q is not an absolute path", repo)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE tasks SET repo = ? WHERE id = ? AND repo = ''`, repo, id)
	if err != nil {
		return false, fmt.Errorf("record repo of %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, nil
	}
	if _, err := s.GetTask(ctx, id); err != nil {
		return false, err
	}
	return false, nil
}

// RepoUse is a working directory tasks were added in, and when the last
// of them was.
type RepoUse struct {
	Path     string    `json:"path"`
	LastUsed time.Time `json:"last_used"`
	Tasks    int       `json:"tasks"`
}

// RecentRepos returns the working directories recorded on tasks, the one
// used last first, at most limit of them.
func (s *Store) RecentRepos(ctx context.Context, limit int) ([]RepoUse, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT repo, MAX(created_at), COUNT(*) FROM tasks WHERE repo != ''
		GROUP BY repo ORDER BY MAX(created_at) DESC, repo LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("recent repositories: %w", err)
	}
	defer rows.Close()
	out := []RepoUse{}
	for rows.Next() {
		var u RepoUse
		var at int64
		if err := rows.Scan(&u.Path, &at, &u.Tasks); err != nil {
			return nil, fmt.Errorf("recent repositories: %w", err)
		}
		u.LastUsed = time.UnixMilli(at).UTC()
		out = append(out, u)
	}
	return out, rows.Err()
}
