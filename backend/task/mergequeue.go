package task

import (
	"fmt"
	"time"
)

// QueueState is where an entry of the merge queue stands.
type QueueState string

const (
	// QueueQueued waits for its turn (or for its target's checkout to be
	// clean again, with Note saying so).
	QueueQueued QueueState = "queued"
	// QueueLanding is the entry in flight: built on the target's tip in a
	// temporary worktree, verified, then landed. After a crash it is
	// re-checked from git, never applied twice.
	QueueLanding QueueState = "landing"
	// QueueBlocked is parked: the landing conflicts, the verify command
	// failed on it, or its task branch or target is gone (Reason, Files,
	// Output say which). The queue moves on without it.
	QueueBlocked QueueState = "blocked"
	// QueueReturned was sent back to the developer: the target was merged
	// into the task branch and the task runs again; the entry is queued
	// again when the task is done.
	QueueReturned QueueState = "returned"
	// QueueLanded moved the target through a journaled accept.
	QueueLanded QueueState = "landed"
	// QueueUndone is a landed entry whose accept was undone.
	QueueUndone QueueState = "undone"
)

// QueueStates lists the states in display order.
var QueueStates = []QueueState{QueueLanding, QueueQueued, QueueBlocked, QueueReturned, QueueLanded, QueueUndone}

// queueMoves is the one table of legal entry state changes.
var queueMoves = map[QueueState][]QueueState{
	QueueQueued:   {QueueLanding, QueueBlocked},
	QueueLanding:  {QueueQueued, QueueBlocked, QueueLanded},
	QueueBlocked:  {QueueQueued, QueueReturned},
	QueueReturned: {QueueQueued, QueueBlocked},
	QueueLanded:   {QueueUndone},
	QueueUndone:   {QueueQueued},
}

// Active reports whether an entry in s still waits to land (and so holds its
// task: a task has at most one active entry).
func (s QueueState) Active() bool {
	switch s {
	case QueueQueued, QueueLanding, QueueBlocked, QueueReturned:
		return true
	}
	return false
}

// QueueMoveError is a refused entry state change.
type QueueMoveError struct {
	From, To QueueState
}

// Error names both states.
func (e *QueueMoveError) Error() string {
	return fmt.Sprintf("merge queue entry cannot go from %s to %s", e.From, e.To)
}

// Unwrap lets errors.Is match ErrIllegalTransition.
func (e *QueueMoveError) Unwrap() error { return ErrIllegalTransition }

// CheckQueueMove returns nil when an entry may go from → to, else a
// *QueueMoveError.
func CheckQueueMove(from, to QueueState) error {
	for _, s := range queueMoves[from] {
		if s == to {
			return nil
		}
	}
	return &QueueMoveError{From: from, To: to}
}

// QueueEntry is one task waiting in (or gone through) the merge queue of a
// target branch.
type QueueEntry struct {
	ID     int64  `json:"id"`
	TaskID string `json:"task_id"`
	// Repo is the repository (the task's working directory).
	Repo string `json:"repo"`
	// Target is the branch to land on (short name); Strategy merge, squash
	// or rebase.
	Target   string `json:"target"`
	Strategy string `json:"strategy"`
	// Position orders the entries (lower first).
	Position int        `json:"position"`
	State    QueueState `json:"state"`
	// Reason says why the entry is blocked or waiting, "" otherwise.
	Reason string `json:"reason,omitempty"`
	// Files are the conflicting files of a blocked landing.
	Files []string `json:"files"`
	// Output is the verify output tail of a red landing.
	Output string `json:"output,omitempty"`
	// BaseSHA is the target commit the landing was built on, TaskHead the
	// task commit it took, Built the commit it built, Verified whether the
	// verify command passed on Built; Landed the target's commit after.
	BaseSHA  string `json:"base_sha,omitempty"`
	TaskHead string `json:"task_head,omitempty"`
	Built    string `json:"built,omitempty"`
	Verified bool   `json:"verified"`
	Landed   string `json:"landed,omitempty"`
	// Attempts counts landings tried (a moved target is tried again).
	Attempts  int       `json:"attempts"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// QueueAction names what happened to a merge-queue entry, in its event.
type QueueAction string

// The actions of EventMergeQueue.
const (
	QueueAdded    QueueAction = "added"
	QueueRemoved  QueueAction = "removed"
	QueueMoved    QueueAction = "moved"
	QueueStarted  QueueAction = "started"
	QueueRetried  QueueAction = "retried"
	QueueWaiting  QueueAction = "waiting"
	QueueParked   QueueAction = "blocked"
	QueueSentBack QueueAction = "sent_back"
	QueueRequeued QueueAction = "requeued"
	QueueLandedOn QueueAction = "landed"
	QueueReverted QueueAction = "undone"
)

// MergeQueued is the payload of EventMergeQueue: what happened to the
// task's entry in the merge queue.
type MergeQueued struct {
	Action   QueueAction `json:"action"`
	Entry    int64       `json:"entry"`
	Target   string      `json:"target"`
	Strategy string      `json:"strategy,omitempty"`
	// Reason says why (blocked, waiting, sent back), Files which files conflict.
	Reason string   `json:"reason,omitempty"`
	Files  []string `json:"files,omitempty"`
	// Old and New are the target's commits around a landing.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// Kind returns EventMergeQueue.
func (MergeQueued) Kind() EventKind { return EventMergeQueue }

// MapText applies f to the reason.
func (m MergeQueued) MapText(f func(string) string) EventData {
	m.Reason = f(m.Reason)
	return m
}
