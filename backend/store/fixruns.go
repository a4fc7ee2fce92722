package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Sources of a change request (FixRequest.Source).
const (
	// SourceReview is the user's review of the diff.
	SourceReview = "review"
	// SourceConflicts sends a task whose accept conflicts back to resolve it.
	SourceConflicts = "conflicts"
	// SourceQueue sends a task whose merge-queue entry is red back to make it green.
	SourceQueue = "merge-queue"
)

// FixRequest is a request for changes to record with RequestFix: the task
// goes back to the queue for a fix run that starts at the developer.
type FixRequest struct {
	TaskID string
	// Body is the rendered "## Human review" section every role of the fix
	// run reads, verbatim.
	Body string
	// Request is the structured request as JSON (review.ChangeRequest),
	// kept for the history; "" stores {}.
	Request json.RawMessage
	// Drops are the hunks to revert before the developer runs.
	Drops []task.HunkDrop
	// Comments counts the hunk comments; General is set when there is a
	// general comment (both for the history event).
	Comments int
	General  bool
	// Source is who asked (SourceReview when empty).
	Source string
}

// ChangeRequest is a stored request for changes.
type ChangeRequest struct {
	ID     int64  `json:"id"`
	TaskID string `json:"task_id"`
	// Seq is its ordinal on the task: fix run Seq addresses it.
	Seq int `json:"seq"`
	// SectionID is its human_review section; Body that section's text.
	SectionID int64           `json:"section_id"`
	Body      string          `json:"body"`
	Request   json.RawMessage `json:"request"`
	Drops     []task.HunkDrop `json:"drops"`
	Source    string          `json:"source"`
	CreatedAt time.Time       `json:"created_at"`
}

// RequestFix records a request for changes on a finished task in one
// transaction: its human_review section, the change request, the next run
// (a fix run from the developer addressing it, task.RunStart), the move to
// pending and a changes_requested event. It returns the stored request.
// Errors: a *task.TransitionError for a task that has not finished or may
// not return to pending, an error wrapping task.ErrInvalid for an empty
// body, ErrNotFound for a missing task; nothing changes on error.
func (s *Store) RequestFix(ctx context.Context, r FixRequest) (ChangeRequest, error) {
	if r.Body == "" {
		return ChangeRequest{}, invalidf("request for changes is empty")
	}
	if r.Source == "" {
		r.Source = SourceReview
	}
	req := []byte(r.Request)
	if len(req) == 0 {
		req = []byte("{}")
	}
	drops := r.Drops
	if drops == nil {
		drops = []task.HunkDrop{}
	}
	out := ChangeRequest{TaskID: r.TaskID, Body: r.Body, Request: json.RawMessage(req), Drops: drops, Source: r.Source}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, r.TaskID)
		if err != nil {
			return err
		}
		if !t.Status.Terminal() { // a running or queued task has no finished work to review
			return &task.TransitionError{From: t.Status, To: task.StatusPending}
		}
		if err := task.CheckTransition(t.Status, task.StatusPending); err != nil {
			return err
		}
		at := s.nowMs()
		sec, err := addSectionTx(ctx, tx, task.Section{TaskID: r.TaskID, Kind: task.SectionHumanReview, Iteration: t.NextIteration(), Body: r.Body}, at)
		if err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) + 1 FROM change_requests WHERE task_id = ?`, r.TaskID).Scan(&out.Seq); err != nil {
			return fmt.Errorf("request changes on %s: %w", r.TaskID, err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO change_requests (task_id, seq, section_id, request, drops, source, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, r.TaskID, out.Seq, sec.ID, string(req), mustJSON(drops), r.Source, at)
		if err != nil {
			return fmt.Errorf("request changes on %s: %w", r.TaskID, err)
		}
		out.ID, _ = res.LastInsertId()
		out.SectionID, out.CreatedAt = sec.ID, time.UnixMilli(at).UTC()
		start := task.RunStart{From: task.RoleDeveloper, Review: out.ID, Fix: out.Seq}
		if err := setRunStartTx(ctx, tx, r.TaskID, start); err != nil {
			return err
		}
		if err := transitionTx(ctx, tx, t, task.StatusPending, TransitionNote{Reason: string(task.EventChangesRequested)}, at); err != nil {
			return err
		}
		if r.Source == SourceReview { // the user's review is sent: its draft is done with
			if err := clearDraftTx(ctx, tx, r.TaskID); err != nil {
				return err
			}
		}
		return appendEventTx(ctx, tx, r.TaskID, at, task.ChangesRequested{Comments: r.Comments, Drops: len(r.Drops),
			Request: out.ID, Fix: out.Seq, General: r.General, Source: r.Source})
	})
	if err != nil {
		return ChangeRequest{}, err
	}
	return out, nil
}

// ChangeRequestByID returns a stored request for changes, or an error
// wrapping ErrNotFound.
func (s *Store) ChangeRequestByID(ctx context.Context, id int64) (ChangeRequest, error) {
	rs, err := s.changeRequests(ctx, `c.id = ?`, id)
	if err != nil {
		return ChangeRequest{}, err
	}
	if len(rs) == 0 {
		return ChangeRequest{}, fmt.Errorf("change request %d: %w", id, ErrNotFound)
	}
	return rs[0], nil
}

// ChangeRequests returns a task's requests for changes, oldest first.
func (s *Store) ChangeRequests(ctx context.Context, taskID string) ([]ChangeRequest, error) {
	return s.changeRequests(ctx, `c.task_id = ?`, taskID)
}

func (s *Store) changeRequests(ctx context.Context, where string, arg any) ([]ChangeRequest, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.task_id, c.seq, c.section_id, COALESCE(s.body, ''), c.request, c.drops, c.source, c.created_at
		FROM change_requests c LEFT JOIN sections s ON s.id = c.section_id WHERE `+where+` ORDER BY c.id`, arg)
	if err != nil {
		return nil, fmt.Errorf("change requests: %w", err)
	}
	defer rows.Close()
	out := []ChangeRequest{}
	for rows.Next() {
		var c ChangeRequest
		var req, drops string
		var at int64
		if err := rows.Scan(&c.ID, &c.TaskID, &c.Seq, &c.SectionID, &c.Body, &req, &drops, &c.Source, &at); err != nil {
			return nil, fmt.Errorf("change requests: %w", err)
		}
		c.Request = json.RawMessage(req)
		if err := json.Unmarshal([]byte(drops), &c.Drops); err != nil {
			return nil, fmt.Errorf("change request %d: drops: %w", c.ID, err)
		}
		c.CreatedAt = time.UnixMilli(at).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}
