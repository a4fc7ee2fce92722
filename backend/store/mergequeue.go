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

// WhatQueueEntry names a merge-queue entry in a NotFoundError (its task id).
const WhatQueueEntry = "merge queue entry of task"

// ErrQueued is matched by every *QueuedError.
var ErrQueued = errors.New("task is already in the merge queue")

// QueuedError refuses to queue a task that already has an active entry.
type QueuedError struct {
	TaskID string
	State  task.QueueState
	Target string
}

// Error names the task, its entry's state and target.
func (e *QueuedError) Error() string {
	return fmt.Sprintf("task %s is already in the merge queue of %s (%s)", e.TaskID, e.Target, e.State)
}

// Unwrap lets errors.Is match ErrQueued.
func (e *QueuedError) Unwrap() error { return ErrQueued }

// ErrEntryMoved is matched by every *EntryStateError.
var ErrEntryMoved = errors.New("merge queue entry changed meanwhile")

// EntryStateError is a conditional change of an entry that found it in
// another state than expected (changed by another process meanwhile).
type EntryStateError struct {
	TaskID string
	Want   []task.QueueState
	Have   task.QueueState
}

// Error names the states.
func (e *EntryStateError) Error() string {
	var want []string
	for _, s := range e.Want {
		want = append(want, string(s))
	}
	return fmt.Sprintf("merge queue entry of task %s is %s, not %s", e.TaskID, e.Have, strings.Join(want, " or "))
}

// Unwrap lets errors.Is match ErrEntryMoved.
func (e *EntryStateError) Unwrap() error { return ErrEntryMoved }

const queueColumns = `id, task_id, repo, target, strategy, position, state, reason, files, output,
	base_sha, task_head, built, verified, landed, attempts, created_at, updated_at`

// activeStates is the SQL list of the states task.QueueState.Active holds.
const activeStates = `('queued', 'landing', 'blocked', 'returned')`

func scanEntry(row interface{ Scan(...any) error }) (task.QueueEntry, error) {
	var e task.QueueEntry
	var files string
	var verified int
	var created, updated int64
	err := row.Scan(&e.ID, &e.TaskID, &e.Repo, &e.Target, &e.Strategy, &e.Position, &e.State, &e.Reason, &files, &e.Output,
		&e.BaseSHA, &e.TaskHead, &e.Built, &verified, &e.Landed, &e.Attempts, &created, &updated)
	if err != nil {
		return e, err
	}
	if err := json.Unmarshal([]byte(files), &e.Files); err != nil || e.Files == nil {
		e.Files = []string{}
	}
	e.Verified = verified != 0
	e.CreatedAt, e.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return e, nil
}

// NewQueueEntry is one task to add to the merge queue.
type NewQueueEntry struct {
	TaskID, Repo, Target, Strategy string
}

// Enqueue adds tasks to the end of the merge queue, in the order given, in
// one transaction: every task must exist, be done (its work waits to be
// accepted) and have no active entry; otherwise nothing is added and the
// error is *NotFoundError, *StatusError or *QueuedError. Each gets a
// task.MergeQueued event.
func (s *Store) Enqueue(ctx context.Context, add []NewQueueEntry) ([]task.QueueEntry, error) {
	var out []task.QueueEntry
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		at := s.nowMs()
		var pos int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(position), 0) FROM merge_queue`).Scan(&pos); err != nil {
			return fmt.Errorf("enqueue: %w", err)
		}
		for _, a := range add {
			t, err := getTaskTx(ctx, tx, a.TaskID)
			if err != nil {
				return err
			}
			if t.Status != task.StatusDone {
				return &StatusError{Op: "queue", TaskID: t.ID, Status: t.Status, Allowed: []task.Status{task.StatusDone}}
			}
			if cur, err := activeEntryTx(ctx, tx, t.ID); err == nil {
				return &QueuedError{TaskID: t.ID, State: cur.State, Target: cur.Target}
			} else if !errors.Is(err, ErrNotFound) {
				return err
			}
			pos++
			res, err := tx.ExecContext(ctx, `INSERT INTO merge_queue (task_id, repo, target, strategy, position, state, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)`, t.ID, a.Repo, a.Target, a.Strategy, pos, at, at)
			if err != nil {
				return fmt.Errorf("enqueue %s: %w", t.ID, err)
			}
			id, _ := res.LastInsertId()
			if err := appendEventTx(ctx, tx, t.ID, at, task.MergeQueued{Action: task.QueueAdded, Entry: id, Target: a.Target, Strategy: a.Strategy}); err != nil {
				return err
			}
			e, err := entryTx(ctx, tx, id)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// rowQuerier is a *sql.DB or a *sql.Tx.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func entryTx(ctx context.Context, q rowQuerier, id int64) (task.QueueEntry, error) {
	e, err := scanEntry(q.QueryRowContext(ctx, `SELECT `+queueColumns+` FROM merge_queue WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, notFound(WhatQueueEntry, fmt.Sprint(id))
	}
	if err != nil {
		return e, fmt.Errorf("read merge queue entry %d: %w", id, err)
	}
	return e, nil
}

func activeEntryTx(ctx context.Context, q rowQuerier, taskID string) (task.QueueEntry, error) {
	e, err := scanEntry(q.QueryRowContext(ctx, `SELECT `+queueColumns+` FROM merge_queue WHERE task_id = ? AND state IN `+activeStates, taskID))
	if errors.Is(err, sql.ErrNoRows) {
		return e, notFound(WhatQueueEntry, taskID)
	}
	if err != nil {
		return e, fmt.Errorf("read merge queue entry of %s: %w", taskID, err)
	}
	return e, nil
}

// QueueEntry returns the entry with id, or an error wrapping ErrNotFound.
func (s *Store) QueueEntry(ctx context.Context, id int64) (task.QueueEntry, error) {
	return entryTx(ctx, s.db, id)
}

// ActiveQueueEntry returns the task's active entry (queued, landing, blocked
// or returned), or an error wrapping ErrNotFound.
func (s *Store) ActiveQueueEntry(ctx context.Context, taskID string) (task.QueueEntry, error) {
	return activeEntryTx(ctx, s.db, taskID)
}

// QueueEntries lists the merge queue in order: the active entries by
// position, then (with history) the landed and undone ones, newest first,
// at most 200 of them.
func (s *Store) QueueEntries(ctx context.Context, history bool) ([]task.QueueEntry, error) {
	q := `SELECT ` + queueColumns + ` FROM merge_queue WHERE state IN ` + activeStates + ` ORDER BY position, id`
	out, err := s.queryEntries(ctx, q)
	if err != nil || !history {
		return out, err
	}
	old, err := s.queryEntries(ctx, `SELECT `+queueColumns+` FROM merge_queue WHERE state NOT IN `+activeStates+` ORDER BY updated_at DESC, id DESC LIMIT 200`)
	return append(out, old...), err
}

func (s *Store) queryEntries(ctx context.Context, q string, args ...any) ([]task.QueueEntry, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list merge queue: %w", err)
	}
	defer rows.Close()
	out := []task.QueueEntry{}
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("list merge queue: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// EntryChange is a conditional change of an entry: from one of From to
// To, with the fields set. Event, when set, is appended to the task's
// history in the same transaction.
type EntryChange struct {
	From []task.QueueState
	To   task.QueueState
	// Fields set on the entry (nil leaves a field as it is).
	Reason   *string
	Files    []string
	Output   *string
	BaseSHA  *string
	TaskHead *string
	Built    *string
	Verified *bool
	Landed   *string
	// Attempt adds one to the attempts count.
	Attempt bool
	// Last moves the entry to the end of the queue (re-queued).
	Last  bool
	Event task.EventData
}

// ChangeQueueEntry applies c to the entry with id when its state is one
// of c.From; c.To must be a legal move (task.CheckQueueMove) unless it
// equals the current state. It returns the changed entry, a
// *EntryStateError when the entry is in another state, a
// *task.QueueMoveError for an illegal move, or ErrNotFound.
func (s *Store) ChangeQueueEntry(ctx context.Context, id int64, c EntryChange) (task.QueueEntry, error) {
	var out task.QueueEntry
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		e, err := entryTx(ctx, tx, id)
		if err != nil {
			return err
		}
		ok := len(c.From) == 0
		for _, f := range c.From {
			ok = ok || f == e.State
		}
		if !ok {
			return &EntryStateError{TaskID: e.TaskID, Want: c.From, Have: e.State}
		}
		if c.To != e.State {
			if err := task.CheckQueueMove(e.State, c.To); err != nil {
				return err
			}
		}
		set := []string{"state = ?", "updated_at = ?"}
		at := s.nowMs()
		args := []any{string(c.To), at}
		str := func(col string, v *string) {
			if v != nil {
				set = append(set, col+" = ?")
				args = append(args, *v)
			}
		}
		str("reason", c.Reason)
		str("output", c.Output)
		str("base_sha", c.BaseSHA)
		str("task_head", c.TaskHead)
		str("built", c.Built)
		str("landed", c.Landed)
		if c.Files != nil {
			set, args = append(set, "files = ?"), append(args, mustJSON(c.Files))
		}
		if c.Verified != nil {
			set, args = append(set, "verified = ?"), append(args, *c.Verified)
		}
		if c.Attempt {
			set = append(set, "attempts = attempts + 1")
		}
		if c.Last {
			set = append(set, "position = (SELECT COALESCE(MAX(position), 0) + 1 FROM merge_queue)")
		}
		args = append(args, id)
		if _, err := tx.ExecContext(ctx, `UPDATE merge_queue SET `+strings.Join(set, ", ")+` WHERE id = ?`, args...); err != nil {
			return fmt.Errorf("change merge queue entry %d: %w", id, err)
		}
		if c.Event != nil {
			if err := appendEventTx(ctx, tx, e.TaskID, at, c.Event); err != nil {
				return err
			}
		}
		out, err = entryTx(ctx, tx, id)
		return err
	})
	return out, err
}

// Dequeue removes a task's active entry that is not landing (queued,
// blocked or returned) and records a task.MergeQueued event. An entry in
// flight is marked instead (RemoveRequested), and the queue drops it
// before it lands. It returns the entry and whether it was removed now;
// ErrNotFound when the task has no active entry.
func (s *Store) Dequeue(ctx context.Context, taskID string) (task.QueueEntry, bool, error) {
	var out task.QueueEntry
	removed := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		e, err := activeEntryTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		out = e
		at := s.nowMs()
		if e.State == task.QueueLanding {
			_, err := tx.ExecContext(ctx, `UPDATE merge_queue SET remove_requested = 1, updated_at = ? WHERE id = ?`, at, e.ID)
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM merge_queue WHERE id = ?`, e.ID); err != nil {
			return fmt.Errorf("remove merge queue entry: %w", err)
		}
		removed = true
		return appendEventTx(ctx, tx, taskID, at, task.MergeQueued{Action: task.QueueRemoved, Entry: e.ID, Target: e.Target, Strategy: e.Strategy})
	})
	return out, removed, err
}

// RemoveRequested reports whether the user asked to remove an entry while
// it was landing.
func (s *Store) RemoveRequested(ctx context.Context, id int64) (bool, error) {
	var r int
	err := s.db.QueryRowContext(ctx, `SELECT remove_requested FROM merge_queue WHERE id = ?`, id).Scan(&r)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("read merge queue entry %d: %w", id, err)
	}
	return r != 0, nil
}

// DropQueueEntry deletes an entry whose removal was asked for while it
// landed (see Dequeue), with its task.MergeQueued event.
func (s *Store) DropQueueEntry(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		e, err := entryTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM merge_queue WHERE id = ?`, id); err != nil {
			return fmt.Errorf("remove merge queue entry: %w", err)
		}
		return appendEventTx(ctx, tx, e.TaskID, s.nowMs(), task.MergeQueued{Action: task.QueueRemoved, Entry: e.ID, Target: e.Target, Strategy: e.Strategy})
	})
}

// MoveInQueue moves a task's active entry to index to (0-based, clamped)
// among the active entries, renumbering them in one transaction, with a
// task.MergeQueued event. ErrNotFound when the task has no active entry.
func (s *Store) MoveInQueue(ctx context.Context, taskID string, to int) ([]task.QueueEntry, error) {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		e, err := activeEntryTx(ctx, tx, taskID)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM merge_queue WHERE state IN `+activeStates+` ORDER BY position, id`)
		if err != nil {
			return fmt.Errorf("reorder merge queue: %w", err)
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("reorder merge queue: %w", err)
			}
			if id != e.ID {
				ids = append(ids, id)
			}
		}
		rows.Close()
		to = min(max(to, 0), len(ids))
		ids = append(ids[:to], append([]int64{e.ID}, ids[to:]...)...)
		at := s.nowMs()
		for i, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE merge_queue SET position = ? WHERE id = ?`, i+1, id); err != nil {
				return fmt.Errorf("reorder merge queue: %w", err)
			}
		}
		return appendEventTx(ctx, tx, taskID, at, task.MergeQueued{Action: task.QueueMoved, Entry: e.ID, Target: e.Target,
			Reason: fmt.Sprintf("moved to position %d", to+1)})
	})
	if err != nil {
		return nil, err
	}
	return s.QueueEntries(ctx, false)
}

// QueueCounts returns how many entries are in each active state.
func (s *Store) QueueCounts(ctx context.Context) (map[task.QueueState]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT state, COUNT(*) FROM merge_queue WHERE state IN `+activeStates+` GROUP BY state`)
	if err != nil {
		return nil, fmt.Errorf("count merge queue: %w", err)
	}
	defer rows.Close()
	out := map[task.QueueState]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("count merge queue: %w", err)
		}
		out[task.QueueState(st)] = n
	}
	return out, rows.Err()
}
