package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// ScrubCounts says how many stored rows a scrub pass changed, per table.
type ScrubCounts struct {
	Sections, LogLines, Events, Tasks int
}

// Total is the number of rows changed.
func (c ScrubCounts) Total() int { return c.Sections + c.LogLines + c.Events + c.Tasks }

// userSections are the sections the user wrote: never scrubbed.
var userSections = map[task.SectionKind]bool{
	task.SectionPrompt: true, task.SectionCommand: true, task.SectionAnswers: true,
	task.SectionInjectedPrompt: true, task.SectionHumanReview: true,
}

// UpgradeDone reports whether the one-time pass name has run on this database.
func (s *Store) UpgradeDone(ctx context.Context, name string) (bool, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM upgrades WHERE name = ?`, name).Scan(&n); err != nil {
		return false, fmt.Errorf("read upgrade %s: %w", name, err)
	}
	return n > 0, nil
}

// MarkUpgradeDone records that the one-time pass name has run.
func (s *Store) MarkUpgradeDone(ctx context.Context, name string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO upgrades (name, done_at) VALUES (?, ?)`, name, s.nowMs()); err != nil {
		return fmt.Errorf("mark upgrade %s: %w", name, err)
	}
	return nil
}

// ScrubAgentText rewrites, with scrub, the stored text agents produced or
// that was derived from it: report sections (not the user's prompt,
// command, answers, injections or review comments), every log line, the
// free text of stored events, and each task's questions and error. Rows
// scrub leaves unchanged are not written. Each table is one transaction;
// the pass is idempotent, so an interrupted one is simply run again.
func (s *Store) ScrubAgentText(ctx context.Context, scrub func(string) string) (ScrubCounts, error) {
	var c ScrubCounts
	var err error
	if c.Sections, err = s.scrubColumn(ctx, `SELECT id, kind, body FROM sections`, `UPDATE sections SET body = ? WHERE id = ?`,
		func(kind, text string) (string, bool) {
			if userSections[task.SectionKind(kind)] {
				return text, false
			}
			out := scrub(text)
			return out, out != text
		}); err != nil {
		return c, err
	}
	if c.LogLines, err = s.scrubColumn(ctx, `SELECT id, level, text FROM log_lines`, `UPDATE log_lines SET text = ? WHERE id = ?`,
		func(_, text string) (string, bool) { out := scrub(text); return out, out != text }); err != nil {
		return c, err
	}
	if c.Events, err = s.scrubColumn(ctx, `SELECT id, kind, payload FROM events`, `UPDATE events SET payload = ? WHERE id = ?`,
		func(kind, raw string) (string, bool) {
			k := task.EventKind(kind)
			if k == task.EventPromptInjected {
				return raw, false // the user's words
			}
			d := task.DecodeEvent(k, []byte(raw))
			if _, ok := d.(task.Unknown); ok {
				out := scrub(raw) // unreadable here: scrub the JSON text itself
				return out, out != raw && json.Valid([]byte(out))
			}
			b, err := json.Marshal(task.MapText(d, scrub))
			if err != nil {
				return raw, false
			}
			before, _ := json.Marshal(d)
			return string(b), string(b) != string(before)
		}); err != nil {
		return c, err
	}
	c.Tasks, err = s.scrubTasks(ctx, scrub)
	return c, err
}

// scrubColumn runs query (id, tag, text), passes each row to f and writes
// the changed ones with update (text, id), in one transaction.
func (s *Store) scrubColumn(ctx context.Context, query, update string, f func(tag, text string) (string, bool)) (int, error) {
	if f == nil {
		return 0, nil
	}
	n := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query)
		if err != nil {
			return fmt.Errorf("scrub: %w", err)
		}
		type change struct {
			id   int64
			text string
		}
		var changes []change
		for rows.Next() {
			var id int64
			var tag, text string
			if err := rows.Scan(&id, &tag, &text); err != nil {
				rows.Close()
				return fmt.Errorf("scrub: %w", err)
			}
			if out, ok := f(tag, text); ok {
				changes = append(changes, change{id, out})
			}
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("scrub: %w", err)
		}
		for _, ch := range changes {
			if _, err := tx.ExecContext(ctx, update, ch.text, ch.id); err != nil {
				return fmt.Errorf("scrub: %w", err)
			}
		}
		n = len(changes)
		return nil
	})
	return n, err
}

// scrubTasks scrubs each task's questions (a JSON list) and error.
func (s *Store) scrubTasks(ctx context.Context, scrub func(string) string) (int, error) {
	n := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, questions, error FROM tasks`)
		if err != nil {
			return fmt.Errorf("scrub tasks: %w", err)
		}
		type change struct{ id, questions, errText string }
		var changes []change
		for rows.Next() {
			var id, qs, e string
			if err := rows.Scan(&id, &qs, &e); err != nil {
				rows.Close()
				return fmt.Errorf("scrub tasks: %w", err)
			}
			var list []string
			newQs := qs
			if json.Unmarshal([]byte(qs), &list) == nil {
				for i := range list {
					list[i] = scrub(list[i])
				}
				newQs = mustJSON(list)
				if len(list) == 0 {
					newQs = qs
				}
			}
			if newE := scrub(e); newQs != qs || newE != e {
				changes = append(changes, change{id, newQs, newE})
			}
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("scrub tasks: %w", err)
		}
		for _, ch := range changes {
			if _, err := tx.ExecContext(ctx, `UPDATE tasks SET questions = ?, error = ? WHERE id = ?`, ch.questions, ch.errText, ch.id); err != nil {
				return fmt.Errorf("scrub tasks: %w", err)
			}
		}
		n = len(changes)
		return nil
	})
	return n, err
}

// Checkpoint copies the write-ahead log into the database file and empties
// it (PRAGMA wal_checkpoint(TRUNCATE)), so page versions written before a
// scrub pass leave the disk. A reader holding an old snapshot makes it a
// partial checkpoint; that is not an error.
func (s *Store) Checkpoint(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}
