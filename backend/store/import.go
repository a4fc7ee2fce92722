package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Limits on what an import carries besides the task's own fields.
const (
	// MaxOriginID is the longest origin id kept, in bytes.
	MaxOriginID = 200
	// MaxExtra is the largest object of unknown fields kept, in bytes.
	MaxExtra = 1 << 20
)

// Import is a task brought in from outside (a markdown file): the fields of
// Task that describe it (ID and Position are ignored; OriginID, Extra,
// CreatedAt and UpdatedAt are kept, the times defaulting to the import's
// when zero), its body sections, its log and the files to attach.
type Import struct {
	Task     task.Task
	Sections []task.Section
	Log      []task.LogLine
	Files    []NewFile
	// Again imports a task whose OriginID another task already has.
	Again bool
}

// DuplicateOriginError refuses an import whose origin id an earlier import
// already brought in: the same file imported twice by mistake.
type DuplicateOriginError struct {
	// OriginID is the file's id; TaskID the task imported from it before.
	OriginID, TaskID string
}

// Error says which task the origin was imported as.
func (e *DuplicateOriginError) Error() string {
	return fmt.Sprintf("task %q was already imported as %s", e.OriginID, e.TaskID)
}

// Unwrap lets errors.Is match ErrExists.
func (e *DuplicateOriginError) Unwrap() error { return ErrExists }

// ImportTask stores in as a new task with a fresh id, with its sections, log
// and files, in one transaction, and records an imported event. Its status
// is kept, except that an ongoing task is refused (its run belongs to
// another store) and an archived one must name a prev_status it can return
// to. Prompt sections in in.Sections are dropped: the prompt section is made
// from Task.Prompt. It returns a *DuplicateOriginError when another task has
// the same OriginID (unless in.Again), an error wrapping task.ErrInvalid (or
// task.ErrIllegalTransition for a bad archived state, ErrTooLarge for a
// file over the attachment limit), and stores nothing on error.
func (s *Store) ImportTask(ctx context.Context, in Import) (task.Task, error) {
	t := in.Task
	n, err := task.NewTask{Title: t.Title, Prompt: t.Prompt, Priority: t.Priority, Base: t.Base, Labels: t.Labels,
		Runs: t.Runs, Repo: t.Repo, Command: t.Command, Tools: t.Tools}.Normalize()
	if err != nil {
		return task.Task{}, err
	}
	if err := checkImport(in); err != nil {
		return task.Task{}, err
	}
	now := s.now()
	id, err := task.NewID(now, rand.Reader)
	if err != nil {
		return task.Task{}, err
	}
	dir := filepath.Join(s.attachDir, id)
	staged, err := stageFiles(dir, in.Files, s.attachLimit)
	committed := false
	defer func() {
		if !committed && len(in.Files) > 0 {
			os.RemoveAll(dir)
		}
	}()
	if err != nil {
		return task.Task{}, err
	}
	ms := now.UnixMilli()
	created, updated := keptTime(t.CreatedAt, ms), keptTime(t.UpdatedAt, ms)
	if updated < created {
		updated = created
	}
	var out task.Task
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkOriginTx(ctx, tx, t.OriginID, in.Again); err != nil {
			return err
		}
		if err := insertImportedTx(ctx, tx, id, n, t, created, updated); err != nil {
			return err
		}
		if err := importContentTx(ctx, tx, id, in, n.Prompt, staged, ms); err != nil {
			return err
		}
		// Adding the sections moved updated_at; the file's time is kept.
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET updated_at = ? WHERE id = ?`, updated, id); err != nil {
			return fmt.Errorf("import task: %w", err)
		}
		if err := appendEventTx(ctx, tx, id, ms, task.Imported{Status: t.Status, OriginID: t.OriginID}); err != nil {
			return err
		}
		for _, f := range staged {
			if err := f.tmp.Commit(); err != nil {
				return fmt.Errorf("import attachment %s: %w", f.Name, err)
			}
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	if err != nil {
		return task.Task{}, err
	}
	committed = true
	return out, nil
}

// checkImport applies the rules ImportTask adds to the task's own: a
// status it may be stored in, counters and usage in range, valid sections
// and log levels, a one-line origin id, an object of extra fields and
// attachment names valid and given once.
func checkImport(in Import) error {
	t := in.Task
	if _, err := task.ParseStatus(string(t.Status)); err != nil {
		return err
	}
	if t.Status == task.StatusOngoing {
		return invalidf("cannot import an ongoing task; its run belongs to another store (set status to stopped or pending)")
	}
	if t.Status == task.StatusArchived {
		if err := task.CheckUnarchive(t.Status, t.PrevStatus); err != nil {
			return err
		}
	}
	if t.CompletedRuns < 0 || t.CompletedRuns > task.MaxRuns {
		return invalidf("completed_runs %d out of range", t.CompletedRuns)
	}
	u := t.Usage
	if u.TokensIn < 0 || u.TokensOut < 0 || u.CacheRead < 0 || u.CacheWrite < 0 || u.CostUSD < 0 {
		return invalidf("usage must not be negative")
	}
	for _, sec := range in.Sections {
		if err := sec.Validate(); err != nil {
			return err
		}
	}
	for _, l := range in.Log {
		if !l.Level.Valid() {
			return invalidf("unknown log level %q", l.Level)
		}
	}
	if len(t.OriginID) > MaxOriginID || !utf8.ValidString(t.OriginID) {
		return invalidf("origin id is longer than %d bytes or not valid UTF-8", MaxOriginID)
	}
	for _, r := range t.OriginID {
		if unicode.IsControl(r) {
			return invalidf("origin id %q contains a control character", t.OriginID)
		}
	}
	if len(t.Extra) > 0 {
		var obj map[string]json.RawMessage
		if len(t.Extra) > MaxExtra || json.Unmarshal(t.Extra, &obj) != nil || obj == nil {
			return invalidf("extra fields must be a JSON object of at most %d bytes", MaxExtra)
		}
	}
	seen := map[string]bool{}
	for _, f := range in.Files {
		if err := CheckAttachmentName(f.Name); err != nil {
			return err
		}
		if seen[f.Name] {
			return invalidf("attachment name %q is given twice", f.Name)
		}
		seen[f.Name] = true
	}
	return nil
}

// checkOriginTx returns a *DuplicateOriginError when a task already has
// origin (unless again: the user imports it once more).
func checkOriginTx(ctx context.Context, tx *sql.Tx, origin string, again bool) error {
	if origin == "" || again {
		return nil
	}
	var other string
	err := tx.QueryRowContext(ctx, `SELECT id FROM tasks WHERE origin_id = ? ORDER BY created_at, id LIMIT 1`, origin).Scan(&other)
	if err == nil {
		return &DuplicateOriginError{OriginID: origin, TaskID: other}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("import task: %w", err)
	}
	return nil
}

// insertImportedTx inserts the task row of an import as id: n its
// normalized fields, t the rest as imported (an archived task's previous
// status, its questions without empty ones, its extra fields), created and
// updated its times in Unix milliseconds.
func insertImportedTx(ctx context.Context, tx *sql.Tx, id string, n task.NewTask, t task.Task, created, updated int64) error {
	prev := ""
	if t.Status == task.StatusArchived {
		prev = string(t.PrevStatus)
	}
	qs := []string{}
	for _, q := range t.Questions {
		if q != "" {
			qs = append(qs, q)
		}
	}
	extra := ""
	if len(t.Extra) > 0 {
		extra = string(t.Extra)
	}
	u := t.Usage
	_, err := tx.ExecContext(ctx, `INSERT INTO tasks (id, title, prompt, status, prev_status, priority, skip, labels, command,
		runs, completed_runs, base, repo, questions, tools, created_at, updated_at, started_at, finished_at,
		branch, base_sha, head_sha, worktree_path, error, tokens_in, tokens_out, cache_read, cache_write, cost_usd, origin_id, extra)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, n.Title, n.Prompt, string(t.Status), prev, n.Priority, t.Skip, mustJSON(n.Labels), n.Command,
		n.Runs, t.CompletedRuns, n.Base, n.Repo, mustJSON(qs), mustJSON(n.Tools), created, updated, timeMs(t.StartedAt), timeMs(t.FinishedAt),
		t.Branch, t.BaseSHA, t.HeadSHA, t.WorktreePath, t.Error, u.TokensIn, u.TokensOut, u.CacheRead, u.CacheWrite, u.CostUSD,
		t.OriginID, extra)
	if err != nil {
		return fmt.Errorf("import task: %w", err)
	}
	return nil
}

// importContentTx stores what an import carries besides its task row: the
// prompt section (from prompt; the prompt sections in in.Sections are
// dropped), the other sections, the log (a line without a time at ms) and
// the rows of the staged files.
func importContentTx(ctx context.Context, tx *sql.Tx, id string, in Import, prompt string, staged []stagedFile, ms int64) error {
	if _, err := addSectionTx(ctx, tx, task.Section{TaskID: id, Kind: task.SectionPrompt, Body: prompt}, ms); err != nil {
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
	for _, f := range staged {
		if _, err := tx.ExecContext(ctx, `INSERT INTO attachments (task_id, name, size, sha256, added_at) VALUES (?, ?, ?, ?, ?)`,
			id, f.Name, f.Size, f.SHA256, ms); err != nil {
			return fmt.Errorf("import attachment %s: %w", f.Name, err)
		}
	}
	return nil
}

// keptTime is t in Unix milliseconds, or def when t is zero.
func keptTime(t time.Time, def int64) int64 {
	if t.IsZero() {
		return def
	}
	return t.UnixMilli()
}

func timeMs(p *time.Time) any {
	if p == nil || p.IsZero() {
		return nil
	}
	return p.UnixMilli()
}
