package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/task"
)

// NewFile is a file attached to a task as it is created: Name is the
// attachment's name (a plain file name), Data its bytes.
type NewFile struct {
	Name string
	Data io.Reader
}

// CreateTask validates n and stores it as a pending task (a draft when
// n.Draft). When n names a command template, the template's text is copied
// into the task (a command section) in the same transaction: editing or
// deleting the template later changes no task. It returns an error
// wrapping task.ErrInvalid for bad input and a *NotFoundError for a
// command template that does not exist; nothing is stored on error.
func (s *Store) CreateTask(ctx context.Context, n task.NewTask) (task.Task, error) {
	t, _, err := s.CreateTaskWithFiles(ctx, n, nil, 0)
	return t, err
}

// CreateTaskWithFiles is CreateTask plus attachments: every file is copied
// into the new task's attachment directory and recorded in the same
// transaction as the task, so either the task exists with all its files or
// nothing does. limit caps each file in bytes (<= 0: the store's limit).
// Besides CreateTask's errors it returns one wrapping task.ErrInvalid for a
// bad or repeated name, ErrTooLarge for a file over the limit and the
// reader's error for a file that cannot be read.
func (s *Store) CreateTaskWithFiles(ctx context.Context, n task.NewTask, files []NewFile, limit int64) (task.Task, []Attachment, error) {
	n, err := n.Normalize()
	if err != nil {
		return task.Task{}, nil, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		if err := CheckAttachmentName(f.Name); err != nil {
			return task.Task{}, nil, err
		}
		if seen[f.Name] {
			return task.Task{}, nil, invalidf("attachment name %q is given twice", f.Name)
		}
		seen[f.Name] = true
	}
	if limit <= 0 {
		limit = s.attachLimit
	}
	now := s.now()
	id, err := task.NewID(now, rand.Reader)
	if err != nil {
		return task.Task{}, nil, err
	}
	dir := filepath.Join(s.attachDir, id) // a fresh id: the directory is ours alone
	staged, err := stageFiles(dir, files, limit)
	committed := false
	defer func() {
		if !committed && len(files) > 0 {
			os.RemoveAll(dir)
		}
	}()
	if err != nil {
		return task.Task{}, nil, err
	}
	status := task.StatusPending
	if n.Draft {
		status = task.StatusDraft
	}
	ms := now.UnixMilli()
	var out task.Task
	var atts []Attachment
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := insertTaskTx(ctx, tx, id, n, status, "", ms); err != nil {
			return err
		}
		for _, f := range staged {
			if _, err := tx.ExecContext(ctx, `INSERT INTO attachments (task_id, name, size, sha256, added_at) VALUES (?, ?, ?, ?, ?)`,
				id, f.Name, f.Size, f.SHA256, ms); err != nil {
				return fmt.Errorf("attach %s: %w", f.Name, err)
			}
			if err := appendEventTx(ctx, tx, id, ms, task.AttachmentAdded{Name: f.Name, Size: f.Size}); err != nil {
				return err
			}
			a := f.Attachment
			a.AddedAt = time.UnixMilli(ms).UTC()
			atts = append(atts, a)
		}
		// Rename inside the transaction: if one fails nothing is committed
		// and the deferred cleanup removes the directory.
		for _, f := range staged {
			if err := f.tmp.Commit(); err != nil {
				return fmt.Errorf("attach %s: %w", f.Name, err)
			}
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	if err != nil {
		return task.Task{}, nil, err
	}
	committed = true
	if atts == nil {
		atts = []Attachment{}
	}
	return out, atts, nil
}

// insertTaskTx inserts a normalized new task with its prompt section, its
// copy of the command template and its created event; scheduleID links it
// to the schedule whose fire queued it ("" for none).
func insertTaskTx(ctx context.Context, tx *sql.Tx, id string, n task.NewTask, status task.Status, scheduleID string, ms int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO tasks (id, title, prompt, status, priority, labels, command, runs, base, repo, tools,
		created_at, updated_at, not_before, on_limit, schedule_id, executor)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, n.Title, n.Prompt, status, n.Priority, mustJSON(n.Labels), n.Command, n.Runs, n.Base, n.Repo, mustJSON(n.Tools), ms, ms,
		timeMs(n.NotBefore), string(n.OnLimit), scheduleID, string(n.Executor))
	if err != nil {
		return fmt.Errorf("create task: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sections (task_id, kind, body, created_at) VALUES (?, 'prompt', ?, ?)`, id, n.Prompt, ms); err != nil {
		return fmt.Errorf("create task: %w", err)
	}
	if err := copyCommandTx(ctx, tx, id, n.Command, ms); err != nil {
		return err
	}
	if err := insertTaskVerifyTx(ctx, tx, id, n); err != nil {
		return err
	}
	return appendEventTx(ctx, tx, id, ms, task.Created{Status: status, Command: n.Command})
}

// createTaskTx stores a normalized new task (pending) queued by a
// schedule inside tx, with extra (an event of the same change), and reads
// it back.
func (s *Store) createTaskTx(ctx context.Context, tx *sql.Tx, n task.NewTask, scheduleID string, extra task.EventData) (task.Task, error) {
	now := s.now()
	id, err := task.NewID(now, rand.Reader)
	if err != nil {
		return task.Task{}, err
	}
	ms := now.UnixMilli()
	if err := insertTaskTx(ctx, tx, id, n, task.StatusPending, scheduleID, ms); err != nil {
		return task.Task{}, err
	}
	if extra != nil {
		if err := appendEventTx(ctx, tx, id, ms, extra); err != nil {
			return task.Task{}, err
		}
	}
	return getTaskTx(ctx, tx, id)
}

// stagedFile is an attachment written to a temporary file next to its
// final path (synced and closed), waiting for the transaction that
// records it to commit it.
type stagedFile struct {
	Attachment
	tmp *atomicfile.Temp
}

// stageFiles copies each file into dir under a temporary name, computing
// size and digest, and refuses one over limit.
func stageFiles(dir string, files []NewFile, limit int64) ([]stagedFile, error) {
	if len(files) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("attachments: %w", err)
	}
	out := make([]stagedFile, 0, len(files))
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		tmp, err := atomicfile.Create(path)
		if err != nil {
			return nil, fmt.Errorf("attach %s: %w", f.Name, err)
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(f.Data, limit+1))
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			tmp.Abort()
			return nil, fmt.Errorf("attach %s: %w", f.Name, err)
		}
		if n > limit {
			tmp.Abort()
			return nil, &TooLargeError{Name: f.Name, Limit: limit}
		}
		out = append(out, stagedFile{tmp: tmp, Attachment: Attachment{Name: f.Name, Size: n,
			SHA256: hex.EncodeToString(h.Sum(nil)), Path: path}})
	}
	return out, nil
}

// copyCommandTx replaces the task's copy of a command template's text with
// the current text of the template name ("" removes the copy). It returns a
// *NotFoundError for a template that does not exist.
func copyCommandTx(ctx context.Context, tx *sql.Tx, id, name string, at int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM sections WHERE task_id = ? AND kind = 'command'`, id); err != nil {
		return fmt.Errorf("command of %s: %w", id, err)
	}
	if name == "" {
		return nil
	}
	var text string
	err := tx.QueryRowContext(ctx, `SELECT text FROM commands WHERE name = ?`, name).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound(WhatCommand, name)
	}
	if err != nil {
		return fmt.Errorf("command %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sections (task_id, kind, body, created_at) VALUES (?, 'command', ?, ?)`, id, text, at); err != nil {
		return fmt.Errorf("command of %s: %w", id, err)
	}
	return nil
}
