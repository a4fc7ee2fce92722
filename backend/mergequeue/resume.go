package mergequeue

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// resume re-checks, from git and the task store, the entries a crash left
// landing. The runner host reconciles the journaled accepts first, so a
// target move is either complete (the task is accepted with this entry's
// commit) or never happened; the entry is then landed, or queued again and
// built afresh on the target's tip — never applied twice. Temporary
// worktrees left behind are removed.
func (q *Queue) resume(ctx context.Context) error {
	entries, err := q.Store.QueueEntries(ctx, false)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.State != task.QueueLanding {
			continue
		}
		q.removeWorktree(ctx, e.Repo, q.entryDir(e.ID))
		rec, err := review.StoreRecorder{Store: q.Store}.LastAccept(ctx, e.TaskID)
		if err == nil && e.Built != "" && rec.NewSHA == e.Built {
			_, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueLanded,
				Landed: &e.Built, Reason: ptr(""),
				Event: task.MergeQueued{Action: task.QueueLandedOn, Entry: e.ID, Target: e.Target, Strategy: e.Strategy, Old: rec.OldSHA, New: rec.NewSHA,
					Reason: "re-checked after a restart: it had landed"}})
		} else {
			_, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueQueued,
				Reason: ptr("re-checked after a restart: it had not landed; it is built and verified again"),
				Event:  task.MergeQueued{Action: task.QueueRequeued, Entry: e.ID, Target: e.Target, Reason: "interrupted by a restart"}})
		}
		if err != nil {
			return fmt.Errorf("merge queue: resume entry %d: %w", e.ID, err)
		}
		q.changed()
	}
	return nil
}

// landedMeanwhile tells whether a queued entry that was built before (a
// landing interrupted, or tried again) has landed all the same, and if so
// marks it landed: the journal's moves are settled first
// (review.Service.Reconcile; each resolution noted in its task's log, a
// failure left to the landing's own move to report), then the task's
// accept is compared with the entry's build.
func (q *Queue) landedMeanwhile(ctx context.Context, e task.QueueEntry) (bool, error) {
	rec := review.StoreRecorder{Store: q.Store}
	res, _ := q.Review.Reconcile(ctx, rec)
	for _, r := range res {
		_ = rec.NoteResolution(ctx, r)
	}
	last, err := rec.LastAccept(ctx, e.TaskID)
	if errors.Is(err, review.ErrNoAccept) || err == nil && (last.NewSHA != e.Built || last.Target != "refs/heads/"+e.Target) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueQueued}, To: task.QueueLanding}); err != nil {
		if errors.Is(err, store.ErrEntryMoved) || errors.Is(err, store.ErrNotFound) {
			return false, nil // removed or moved by the user meanwhile
		}
		return false, err
	}
	_, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueLanded,
		Landed: &e.Built, Reason: ptr(""),
		Event: task.MergeQueued{Action: task.QueueLandedOn, Entry: e.ID, Target: e.Target, Strategy: e.Strategy, Old: last.OldSHA, New: last.NewSHA,
			Reason: "re-checked: it had landed"}})
	return err == nil, err
}

// requeueReturned queues again the returned entries whose task is done
// once more, and marks undone the landed entries whose accept was undone.
func (q *Queue) requeueReturned(ctx context.Context) error {
	entries, err := q.Store.QueueEntries(ctx, true)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.State != task.QueueReturned && e.State != task.QueueLanded {
			continue
		}
		t, err := q.Store.GetTask(ctx, e.TaskID)
		if err != nil {
			continue // deleted: the entry goes with it
		}
		switch {
		case e.State == task.QueueReturned && t.Status == task.StatusDone:
			_, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueReturned}, To: task.QueueQueued,
				Reason: ptr(""), Files: []string{}, Output: ptr(""),
				Event: task.MergeQueued{Action: task.QueueRequeued, Entry: e.ID, Target: e.Target, Reason: "the developer's fix run is done"}})
		case e.State == task.QueueLanded && t.Status == task.StatusDone:
			_, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanded}, To: task.QueueUndone,
				Event: task.MergeQueued{Action: task.QueueReverted, Entry: e.ID, Target: e.Target}})
		default:
			continue
		}
		if err != nil && !errors.Is(err, store.ErrEntryMoved) {
			return err
		}
		q.changed()
	}
	return nil
}

// entryDir is the temporary worktree of an entry.
func (q *Queue) entryDir(id int64) string {
	return filepath.Join(q.WorkDir, fmt.Sprintf("entry-%d", id))
}

// Remove takes a task's active entry out of the queue; an entry landing
// right now is dropped before its target moves (removed is then false).
func (q *Queue) Remove(ctx context.Context, taskID string) (removed bool, err error) {
	_, removed, err = q.Store.Dequeue(ctx, taskID)
	if err == nil {
		q.changed()
	}
	return removed, err
}

// Move puts a task's active entry at position to (0-based) of the queue.
func (q *Queue) Move(ctx context.Context, taskID string, to int) ([]task.QueueEntry, error) {
	out, err := q.Store.MoveInQueue(ctx, taskID, to)
	if err == nil {
		q.changed()
	}
	return out, err
}

// ErrNotBlocked refuses to send back an entry that is not blocked.
var ErrNotBlocked = errors.New("merge queue entry is not blocked")

// SendBack returns a blocked entry's task to its developer through the
// same fix-run path as a user's change request: the task goes back to
// pending with a human review asking it to merge the target into its
// branch (a new commit, no history rewritten) and resolve the conflicts or
// make the verify command pass there. The entry is queued again when the
// task is done.
func (q *Queue) SendBack(ctx context.Context, taskID string) (task.QueueEntry, error) {
	e, err := q.Store.ActiveQueueEntry(ctx, taskID)
	if err != nil {
		return e, err
	}
	if e.State != task.QueueBlocked {
		return e, fmt.Errorf("%w (it is %s)", ErrNotBlocked, e.State)
	}
	t, err := q.Store.GetTask(ctx, taskID)
	if err != nil {
		return e, err
	}
	rec := review.StoreRecorder{Store: q.Store}
	if len(e.Files) > 0 {
		_, err = review.ResolveWithAgent(ctx, taskID, t.Status, e.Target, e.Files, rec)
	} else {
		_, err = review.SendBack(ctx, taskID, t.Status, RenderMakeGreen(e), review.SourceQueue, rec)
	}
	if err != nil {
		return e, err
	}
	e, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueBlocked}, To: task.QueueReturned,
		Event: task.MergeQueued{Action: task.QueueSentBack, Entry: e.ID, Target: e.Target, Reason: e.Reason}})
	if err == nil {
		q.changed()
	}
	return e, err
}

// RenderMakeGreen is the human review that sends a red entry back: merge
// the target into the task branch and make the verify command pass there.
func RenderMakeGreen(e task.QueueEntry) string {
	var b strings.Builder
	b.WriteString(review.HumanReviewHeading + "\n\n")
	fmt.Fprintf(&b, "The merge queue could not land this work on `%s`: %s. ", e.Target, e.Reason)
	fmt.Fprintf(&b, "Merge `%s` into your branch in this worktree (`git merge %s`, a new commit; never rewrite history), "+
		"then make the verify command pass on the result and commit.", e.Target, e.Target)
	if out := strings.TrimSpace(e.Output); out != "" {
		b.WriteString("\n\nThe end of its output on the merged result:\n\n```\n")
		b.WriteString(strings.ReplaceAll(out, "```", "`\u200b``"))
		b.WriteString("\n```\n")
	}
	return b.String()
}
