package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/task"
)

// DefaultAttachmentLimit is the per-file attachment size limit (10 MB) used
// when neither Options nor the caller sets one.
const DefaultAttachmentLimit = 10 << 20

// Attachment is a file copied into the data root for a task.
type Attachment struct {
	Name    string    `json:"name"`
	Size    int64     `json:"size"`
	SHA256  string    `json:"sha256"`
	AddedAt time.Time `json:"added_at"`
	// Path is the absolute path of the stored copy, listed in the prompt.
	Path string `json:"path"`
}

// CheckAttachmentName returns an error wrapping task.ErrInvalid unless name is
// a plain file name: valid UTF-8, at most 255 bytes, not "." or "..", and
// free of path separators, NUL and other control characters.
func CheckAttachmentName(name string) error {
	switch {
	case name == "" || strings.TrimSpace(name) == "":
		return invalidf("attachment name is empty")
	case len(name) > 255:
		return invalidf("attachment name is longer than 255 bytes")
	case !utf8.ValidString(name):
		return invalidf("attachment name %q is not valid UTF-8", name)
	case name == "." || name == "..":
		return invalidf("attachment name %q is not a file name", name)
	case strings.ContainsAny(name, `/\`):
		return invalidf("attachment name %q contains a path separator", name)
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return invalidf("attachment name %q contains a control character or NUL", name)
		}
	}
	return nil
}

func (s *Store) attachmentPath(taskID, name string) (string, error) {
	if !task.ValidID(taskID) {
		return "", notFound(WhatTask, taskID)
	}
	if err := CheckAttachmentName(name); err != nil {
		return "", err
	}
	return filepath.Join(s.attachDir, taskID, name), nil
}

// AddAttachment copies r into the task's attachment directory as name. limit
// caps the size in bytes (<= 0 means the store's limit). It returns an error
// wrapping task.ErrInvalid for a bad name, ErrTooLarge over the limit,
// ErrExists for a name already attached, a *StatusError unless the task is a
// draft, pending or in actions, and ErrNotFound for a missing task. On error
// nothing is stored.
func (s *Store) AddAttachment(ctx context.Context, taskID, name string, r io.Reader, limit int64) (Attachment, error) {
	dst, err := s.attachmentPath(taskID, name)
	if err != nil {
		return Attachment{}, err
	}
	if limit <= 0 {
		limit = s.attachLimit
	}
	t, err := s.GetTask(ctx, taskID)
	if err != nil {
		return Attachment{}, err
	}
	if err := requireStatus("attach to", taskID, t.Status, task.StatusDraft, task.StatusPending, task.StatusActions); err != nil {
		return Attachment{}, err
	}
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Attachment{}, fmt.Errorf("attach %s: %w", name, err)
	}
	tmp, err := atomicfile.Create(dst)
	if err != nil {
		return Attachment{}, fmt.Errorf("attach %s: %w", name, err)
	}
	defer tmp.Abort() // no-op after the commit
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, limit+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Attachment{}, fmt.Errorf("attach %s: %w", name, err)
	}
	if n > limit {
		return Attachment{}, &TooLargeError{Name: name, Limit: limit}
	}
	a := Attachment{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), Path: dst}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		if err := requireStatus("attach to", taskID, t.Status, task.StatusDraft, task.StatusPending, task.StatusActions); err != nil {
			return err
		}
		at := s.nowMs()
		var exists int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM attachments WHERE task_id = ? AND name = ?`, taskID, name).Scan(&exists); err != nil {
			return fmt.Errorf("attach %s: %w", name, err)
		}
		if exists > 0 {
			return fmt.Errorf("attachment %s: %w", name, ErrExists)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO attachments (task_id, name, size, sha256, added_at) VALUES (?, ?, ?, ?, ?)`,
			taskID, name, a.Size, a.SHA256, at); err != nil {
			return fmt.Errorf("attach %s: %w", name, err)
		}
		if err := appendEventTx(ctx, tx, taskID, at, task.AttachmentAdded{Name: name, Size: n}); err != nil {
			return err
		}
		a.AddedAt = time.UnixMilli(at).UTC()
		// Rename inside the transaction: if it fails nothing is committed.
		if err := tmp.Commit(); err != nil {
			return fmt.Errorf("attach %s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		if !errors.Is(err, ErrExists) {
			if _, statErr := os.Stat(dst); statErr == nil && !s.attachmentRecorded(ctx, taskID, name) {
				os.Remove(dst)
			}
		}
		return Attachment{}, err
	}
	return a, nil
}

func (s *Store) attachmentRecorded(ctx context.Context, taskID, name string) bool {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM attachments WHERE task_id = ? AND name = ?`, taskID, name).Scan(&n)
	return err == nil && n > 0
}

// RemoveAttachment deletes an attachment's row and file. It returns an error
// wrapping ErrNotFound when the task has no attachment of that name and
// task.ErrInvalid for a bad name.
func (s *Store) RemoveAttachment(ctx context.Context, taskID, name string) error {
	path, err := s.attachmentPath(taskID, name)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM attachments WHERE task_id = ? AND name = ?`, taskID, name)
		if err != nil {
			return fmt.Errorf("remove attachment %s: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("task %s: %w", taskID, notFound(WhatAttachment, name))
		}
		return appendEventTx(ctx, tx, taskID, s.nowMs(), task.AttachmentRemoved{Name: name})
	})
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove attachment file %s: %w", name, err)
	}
	return nil
}

// Attachments lists a task's attachments by name.
func (s *Store) Attachments(ctx context.Context, taskID string) ([]Attachment, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, size, sha256, added_at FROM attachments WHERE task_id = ? ORDER BY name`, taskID)
	if err != nil {
		return nil, fmt.Errorf("attachments of %s: %w", taskID, err)
	}
	defer rows.Close()
	out := []Attachment{}
	for rows.Next() {
		var a Attachment
		var at int64
		if err := rows.Scan(&a.Name, &a.Size, &a.SHA256, &at); err != nil {
			return nil, fmt.Errorf("attachments of %s: %w", taskID, err)
		}
		a.AddedAt = time.UnixMilli(at).UTC()
		a.Path = filepath.Join(s.attachDir, taskID, a.Name)
		out = append(out, a)
	}
	return out, rows.Err()
}
