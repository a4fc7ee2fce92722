package app

import (
	"context"
	"time"

	"github.com/boof-runner/boof-runner/backend/mergequeue"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// EventQueueChanged says the merge queue changed (an entry added, moved,
// removed, sent back, landed or parked); the Merge queue screen reloads.
const EventQueueChanged = "queue:changed"

// MergeQueueService is the merge queue as the window shows and edits it:
// the entries in order, adding a done task, removing, reordering and
// sending a parked entry back to its developer. The runner host lands the
// entries; this service only changes them (as the CLI's `queue` does).
type MergeQueueService struct {
	q     *mergequeue.Queue
	store *store.Store
	emit  Emitter
	ctx   func() context.Context
	wake  func()
}

// NewMergeQueueService builds the service over the data root's queue; wake
// tells this process's runner that work changed (a sent-back task waits to
// run), may be nil.
func NewMergeQueueService(q *mergequeue.Queue, st *store.Store, emit Emitter, ctx func() context.Context, wake func()) *MergeQueueService {
	if wake == nil {
		wake = func() {}
	}
	return &MergeQueueService{q: q, store: st, emit: emit, ctx: ctx, wake: wake}
}

// QueueItem is one merge queue entry as the window shows it.
type QueueItem struct {
	ID     int64  `json:"id"`
	TaskID string `json:"task_id"`
	// Title is the task's title ("" when the task is gone).
	Title    string `json:"title"`
	Repo     string `json:"repo"`
	Target   string `json:"target"`
	Strategy string `json:"strategy"`
	// State is queued, landing, blocked, returned, landed or undone.
	State string `json:"state"`
	// Reason says why the entry is blocked or waiting.
	Reason string `json:"reason"`
	// Files are a conflicting landing's files; Output a red verify's tail.
	Files  []string `json:"files"`
	Output string   `json:"output"`
	// Landed is the target's commit after the entry landed.
	Landed    string    `json:"landed"`
	Verified  bool      `json:"verified"`
	Attempts  int       `json:"attempts"`
	UpdatedAt time.Time `json:"updated_at"`
}

// QueueAddInput is what "Add to merge queue" sends: the target branch (""
// = the task's base branch, else the branch checked out in its repository)
// and the strategy (merge, squash or rebase; "" = merge).
type QueueAddInput struct {
	Target   string `json:"target"`
	Strategy string `json:"strategy"`
}

func (s *MergeQueueService) item(ctx context.Context, e task.QueueEntry) QueueItem {
	it := QueueItem{ID: e.ID, TaskID: e.TaskID, Repo: e.Repo, Target: e.Target, Strategy: e.Strategy, State: string(e.State),
		Reason: e.Reason, Files: e.Files, Output: e.Output, Landed: e.Landed, Verified: e.Verified, Attempts: e.Attempts, UpdatedAt: e.UpdatedAt}
	if it.Files == nil {
		it.Files = []string{}
	}
	if t, err := s.store.GetTask(ctx, e.TaskID); err == nil {
		it.Title = displayTitle(t)
	}
	return it
}

func (s *MergeQueueService) items(ctx context.Context, es []task.QueueEntry) []QueueItem {
	out := make([]QueueItem, 0, len(es))
	for _, e := range es {
		out = append(out, s.item(ctx, e))
	}
	return out
}

func (s *MergeQueueService) changed() {
	s.emit.Emit(EventQueueChanged)
	s.emit.Emit(EventTasksChanged)
}

// List returns the active entries in landing order, then (with history)
// the landed and undone ones, newest first.
func (s *MergeQueueService) List(history bool) ([]QueueItem, error) {
	ctx := s.ctx()
	es, err := s.store.QueueEntries(ctx, history)
	if err != nil {
		return nil, userError(err)
	}
	return s.items(ctx, es), nil
}

// Add queues a done task on a target branch with a strategy. A task that
// is not done, already queued or whose work failed its verification is
// refused and nothing is added.
func (s *MergeQueueService) Add(taskID string, in QueueAddInput) (QueueItem, error) {
	ctx := s.ctx()
	strategy := in.Strategy
	if strategy == "" {
		strategy = "merge"
	}
	es, err := s.q.Add(ctx, []string{taskID}, in.Target, strategy)
	if err != nil {
		return QueueItem{}, userError(err)
	}
	s.changed()
	s.wake()
	return s.item(ctx, es[0]), nil
}

// Remove takes the task's entry out of the queue. An entry landing right
// now is dropped before its target moves: removed is then false.
func (s *MergeQueueService) Remove(taskID string) (bool, error) {
	removed, err := s.q.Remove(s.ctx(), taskID)
	if err != nil {
		return false, userError(err)
	}
	s.changed()
	return removed, nil
}

// Move puts the task's entry at position to (0 = first) and returns the
// active entries in their new order.
func (s *MergeQueueService) Move(taskID string, to int) ([]QueueItem, error) {
	ctx := s.ctx()
	es, err := s.q.Move(ctx, taskID, to)
	if err != nil {
		return nil, userError(err)
	}
	s.changed()
	return s.items(ctx, es), nil
}

// SendBack returns a parked entry's task to its developer (a fix run that
// merges the target into the task branch and resolves the conflicts or
// makes the verify command pass); the entry is queued again when the task
// is done.
func (s *MergeQueueService) SendBack(taskID string) (QueueItem, error) {
	ctx := s.ctx()
	e, err := s.q.SendBack(ctx, taskID)
	if err != nil {
		return QueueItem{}, userError(err)
	}
	s.changed()
	s.wake()
	return s.item(ctx, e), nil
}

// Count is how many entries wait in the queue (queued, landing, blocked or
// returned): the tray's "Merge queue (N)".
func (s *MergeQueueService) Count() (int, error) {
	return QueueCount(s.ctx(), s.store)
}

// QueueCount counts the active entries of the merge queue.
func QueueCount(ctx context.Context, st *store.Store) (int, error) {
	counts, err := st.QueueCounts(ctx)
	if err != nil {
		return 0, userError(err)
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	return n, nil
}
