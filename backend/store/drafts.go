package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// MaxDraftBytes bounds a stored review draft (its JSON).
const MaxDraftBytes = 16 << 20

// ReviewDraft is a task's unsent review as the Review screen saved it: the
// draft as JSON (review.Draft) and when it was saved.
type ReviewDraft struct {
	TaskID    string          `json:"task_id"`
	Draft     json.RawMessage `json:"draft"`
	UpdatedAt time.Time       `json:"updated_at"`
}

// SaveReviewDraft stores draft as the task's unsent review, replacing the
// one before. It returns the time it was saved. Errors: ErrNotFound
// (wrapped) for a missing task, an error wrapping task.ErrInvalid for a
// draft that is not a JSON object or is larger than MaxDraftBytes.
func (s *Store) SaveReviewDraft(ctx context.Context, taskID string, draft json.RawMessage) (time.Time, error) {
	if len(draft) > MaxDraftBytes {
		return time.Time{}, invalidf("the review draft is larger than %d bytes", MaxDraftBytes)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(draft, &obj); err != nil || obj == nil {
		return time.Time{}, invalidf("the review draft is not a JSON object")
	}
	at := s.nowMs()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, taskID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO review_drafts (task_id, draft, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (task_id) DO UPDATE SET draft = excluded.draft, updated_at = excluded.updated_at`, taskID, string(draft), at)
		if err != nil {
			return fmt.Errorf("save the review draft of %s: %w", taskID, err)
		}
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(at).UTC(), nil
}

// ReviewDraft returns the task's unsent review; ok is false when it has
// none (a missing task has none either).
func (s *Store) ReviewDraft(ctx context.Context, taskID string) (d ReviewDraft, ok bool, err error) {
	var body string
	var at int64
	err = s.db.QueryRowContext(ctx, `SELECT draft, updated_at FROM review_drafts WHERE task_id = ?`, taskID).Scan(&body, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return ReviewDraft{}, false, nil
	}
	if err != nil {
		return ReviewDraft{}, false, fmt.Errorf("review draft of %s: %w", taskID, err)
	}
	return ReviewDraft{TaskID: taskID, Draft: json.RawMessage(body), UpdatedAt: time.UnixMilli(at).UTC()}, true, nil
}

// ClearReviewDraft deletes the task's unsent review (none is fine).
// Errors: ErrNotFound (wrapped) for a missing task, so a discard of a
// task deleted meanwhile is not said to be done.
func (s *Store) ClearReviewDraft(ctx context.Context, taskID string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, taskID); err != nil {
			return err
		}
		return clearDraftTx(ctx, tx, taskID)
	})
}

// clearDraftTx deletes the task's unsent review inside a transaction that
// sends it or accepts the task.
func clearDraftTx(ctx context.Context, tx *sql.Tx, taskID string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM review_drafts WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("clear the review draft of %s: %w", taskID, err)
	}
	return nil
}
