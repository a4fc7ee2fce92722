package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Import is a task brought in from outside (a markdown file): the fields of
// Task that describe it (ID, CreatedAt, UpdatedAt and Position are ignored),
// its body sections and its log.
type Import struct {
	Task     task.Task
	Sections []task.Section
	Log      []task.LogLine
}

// ImportTask stores in as a new task with a fresh id, in one transaction, and
// records an imported event. Its status is kept, except that an ongoing task
// is refused (its run belongs to another store) and an archived one must name
// a prev_status it can return to. Prompt sections in in.Sections are dropped:
// the prompt section is made from Task.Prompt. It returns an error wrapping
// task.ErrInvalid (or task.ErrIllegalTransition for a bad archived state) and
// stores nothing on error.
func (s *Store) ImportTask(ctx context.Context, in Import) (task.Task, error) {
	t := in.Task
	n, err := task.NewTask{Title: t.Title, Prompt: t.Prompt, Priority: t.Priority, Base: t.Base, Labels: t.Labels,
		Runs: t.Runs, Repo: t.Repo, Command: t.Command, Tools: t.Tools}.Normalize()
	if err != nil {
		return task.Task{}, err
	}
	if _, err := task.ParseStatus(string(t.Status)); err != nil {
		return task.Task{}, err
	}
	if t.Status == task.StatusOngoing {
		return task.Task{}, invalidf("cannot import an ongoing task; its run belongs to another store (set status to stopped or pending)")
	}
	prev := ""
	if t.Status == task.StatusArchived {
		if err := task.CheckUnarchive(t.Status, t.PrevStatus); err != nil {
			return task.Task{}, err
		}
		prev = string(t.PrevStatus)
	}
	if t.CompletedRuns < 0 || t.CompletedRuns > task.MaxRuns {
		return task.Task{}, invalidf("completed_runs %d out of range", t.CompletedRuns)
	}
	u := t.Usage
	if u.TokensIn < 0 || u.TokensOut < 0 || u.CacheRead < 0 || u.CacheWrite < 0 || u.CostUSD < 0 {
		return task.Task{}, invalidf("usage must not be negative")
	}
	var qs []string
	for _, q := range t.Questions {
		if q != "" {
			qs = append(qs, q)
		}
	}
	if qs == nil {
		qs = []string{}
	}
	for _, sec := range in.Sections {
		if err := sec.Validate(); err != nil {
			return task.Task{}, err
		}
	}
	for _, l := range in.Log {
		if !l.Level.Valid() {
			return task.Task{}, invalidf("unknown log level %q", l.Level)
		}
	}
	now := s.now()
	id, err := task.NewID(now, rand.Reader)
	if err != nil {
		return task.Task{}, err
	}
	ms := now.UnixMilli()
	var out task.Task
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tasks (id, title, prompt, status, prev_status, priority, skip, labels, command,
			runs, completed_runs, base, repo, questions, tools, created_at, updated_at, started_at, finished_at,
			branch, base_sha, head_sha, worktree_path, error, tokens_in, tokens_out, cache_read, cache_write, cost_usd)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, n.Title, n.Prompt, string(t.Status), prev, n.Priority, t.Skip, mustJSON(n.Labels), n.Command,
			n.Runs, t.CompletedRuns, n.Base, n.Repo, mustJSON(qs), mustJSON(n.Tools), ms, ms, timeMs(t.StartedAt), timeMs(t.FinishedAt),
			t.Branch, t.BaseSHA, t.HeadSHA, t.WorktreePath, t.Error, u.TokensIn, u.TokensOut, u.CacheRead, u.CacheWrite, u.CostUSD)
		if err != nil {
			return fmt.Errorf("import task: %w", err)
		}
		if _, err := addSectionTx(ctx, tx, task.Section{TaskID: id, Kind: task.SectionPrompt, Body: n.Prompt}, ms); err != nil {
			return err
		}
		for _, sec := range in.Sections {
			if sec.Kind == task.SectionPrompt {
				continue
			}
			sec.TaskID = id
			if _, err := addSectionTx(ctx, tx, sec, ms); err != nil {
				return err
			}
		}
		for _, l := range in.Log {
			at := ms
			if !l.At.IsZero() {
				at = l.At.UnixMilli()
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO log_lines (task_id, at, level, text) VALUES (?, ?, ?, ?)`, id, at, string(l.Level), l.Text); err != nil {
				return fmt.Errorf("import log: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET updated_at = ? WHERE id = ?`, ms, id); err != nil {
			return fmt.Errorf("import task: %w", err)
		}
		if err := appendEventTx(ctx, tx, id, ms, task.Imported{Status: t.Status}); err != nil {
			return err
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	return out, err
}

func timeMs(p *time.Time) any {
	if p == nil || p.IsZero() {
		return nil
	}
	return p.UnixMilli()
}
