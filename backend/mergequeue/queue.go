// Package mergequeue lands accepted tasks on their target branch one at a
// time, in order, and only when green: each entry's task branch is applied
// to the target's current tip (review.Service.Build), the verify command
// runs on the result in a temporary worktree (never the user's checkout),
// and only a pass moves the target through the journaled compare-and-swap
// accept (review.Service.MoveRef). A conflict or a red verify parks the
// entry and the queue moves on. Every state change is durable first, so a
// crash at any point is re-checked from git at the next start and never
// applies an entry twice.
package mergequeue

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/verify"
)

// FailVerified is the failpoint after an entry's verify passed and was
// recorded, before its target moves.
const FailVerified = "mergequeue:verified"

// maxRetries bounds how often one pass tries an entry again on a target
// that moved under it.
const maxRetries = 3

// Queue drives the merge queue of one data root. Pass is not safe for
// concurrent use (the runner host calls it from one goroutine, under the
// runner lock); Add, Remove, Move and SendBack are.
type Queue struct {
	Store    *store.Store
	Review   *review.Service
	Verify   *verify.Runner
	Git      *gitx.Git
	Settings func() settings.Settings
	// WorkDir holds the temporary worktrees landings are verified in.
	WorkDir string
	// Describe turns an error into the sentence shown on a parked entry
	// (usererr.Describe); default the error's text.
	Describe func(error) string
	// OnChange, when set, is called after an entry changed state.
	OnChange func()
	// Scope tags the verify command's processes (proc.Scope); may be "".
	Scope string

	resumed bool
}

func (q *Queue) describe(err error) string {
	if q.Describe != nil {
		return q.Describe(err)
	}
	return err.Error()
}

func (q *Queue) changed() {
	if q.OnChange != nil {
		q.OnChange()
	}
}

// TwiceError is a task named twice in one Add.
type TwiceError struct {
	TaskID string
}

// Error names the task.
func (e *TwiceError) Error() string { return "task " + e.TaskID + " is named twice" }

// Add queues finished tasks, in the order given, on target (default: each
// task's base branch, else the branch checked out in its repository) with
// strategy (default merge). Nothing is added when one of them cannot be:
// a task that is not done, is already queued or named twice (a
// *TwiceError), or whose work failed its verification; a bad strategy or
// branch name, a target branch that does not exist (a
// *review.NoTargetError).
func (q *Queue) Add(ctx context.Context, ids []string, target, strategy string) ([]task.QueueEntry, error) {
	st, err := review.ParseStrategy(strategy)
	if err != nil {
		return nil, err
	}
	set := q.Settings()
	var add []store.NewQueueEntry
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return nil, &TwiceError{TaskID: id}
		}
		seen[id] = true
	}
	for _, id := range ids {
		t, err := q.Store.GetTask(ctx, id)
		if err != nil {
			return nil, err
		}
		if reason, err := q.Store.UnverifiedReason(ctx, t.ID); err != nil {
			return nil, err
		} else if reason != "" {
			return nil, &review.NotVerifiedError{Reason: reason}
		}
		repo := t.Repo
		if repo == "" {
			repo = set.WorkingDirectory
		}
		top, err := q.Git.TopLevel(ctx, repo)
		if err != nil {
			return nil, fmt.Errorf("queue %s: %w", t.ID, err)
		}
		tgt := strings.TrimPrefix(target, "refs/heads/")
		if tgt == "" {
			if tgt, err = q.Review.DefaultTarget(ctx, top, t.Base); err != nil {
				return nil, err
			}
		}
		if _, err := q.Git.Run(ctx, top, "check-ref-format", "--branch", tgt); err != nil {
			return nil, fmt.Errorf("%q: %w", tgt, review.ErrBadBranch)
		}
		if _, ok, err := q.Git.RefSHA(ctx, top, "refs/heads/"+tgt); err != nil {
			return nil, fmt.Errorf("queue %s: %w", t.ID, err)
		} else if !ok { // refused now, not blocked when its turn comes
			return nil, &review.NoTargetError{Branch: tgt, Repo: top}
		}
		add = append(add, store.NewQueueEntry{TaskID: t.ID, Repo: top, Target: tgt, Strategy: string(st)})
	}
	out, err := q.Store.Enqueue(ctx, add)
	if err == nil {
		q.changed()
	}
	return out, err
}

// Pass resumes what a crash left in flight (once), takes returned entries
// whose task is done again back into the queue, then lands the queued
// entries in order, one at a time, while the runner is enabled (pausing
// the runner pauses the queue between entries). It returns how many entries it landed
// or parked. Entries whose target's checkout is dirty wait (queued, with
// a reason) and hold back the later entries of the same target.
func (q *Queue) Pass(ctx context.Context) (int, error) {
	if !q.resumed {
		if err := q.resume(ctx); err != nil {
			return 0, err
		}
		q.resumed = true
	}
	if err := q.requeueReturned(ctx); err != nil {
		return 0, err
	}
	entries, err := q.Store.QueueEntries(ctx, false)
	if err != nil {
		return 0, err
	}
	held := map[string]bool{} // repo+target whose checkout is dirty
	n := 0
	for _, e := range entries {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		if !q.Settings().Runner.Enabled {
			return n, nil // paused: the next entry waits
		}
		key := e.Repo + "\x00" + e.Target
		if e.State != task.QueueQueued || held[key] {
			continue
		}
		res, err := q.land(ctx, e)
		if err != nil {
			return n, err
		}
		switch res {
		case resWaiting:
			held[key] = true
		case resLanded, resBlocked:
			n++
		}
		q.changed()
	}
	return n, ctx.Err()
}

// result is how one landing attempt ended.
type result int

const (
	resLanded result = iota
	resBlocked
	resWaiting
	resRemoved
)

// land takes one queued entry through build, verify and the move.
func (q *Queue) land(ctx context.Context, e task.QueueEntry) (result, error) {
	for try := 0; ; try++ {
		res, retry, err := q.attempt(ctx, e)
		if err != nil && ctx.Err() != nil {
			return q.interrupted(e.ID)
		}
		if err != nil || !retry {
			return res, err
		}
		if try+1 >= maxRetries {
			return resWaiting, nil
		}
	}
}

// attempt is one try of an entry; retry is set when its target moved
// under it (the entry is queued again and may be tried at once).
func (q *Queue) attempt(ctx context.Context, e task.QueueEntry) (result, bool, error) {
	if e.Built != "" { // built before: its move may have been made, and settled since
		if landed, err := q.landedMeanwhile(ctx, e); err != nil || landed {
			return resLanded, false, err
		}
	}
	e, err := q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueQueued}, To: task.QueueLanding,
		Attempt: true, Reason: ptr(""), Verified: ptr(false), Built: ptr(""), Output: ptr(""), Files: []string{},
		Event: task.MergeQueued{Action: task.QueueStarted, Entry: e.ID, Target: e.Target, Strategy: e.Strategy}})
	if err != nil {
		if errors.Is(err, store.ErrEntryMoved) || errors.Is(err, store.ErrNotFound) {
			return resRemoved, false, nil // removed or moved by the user meanwhile
		}
		return 0, false, err
	}
	t, err := q.Store.GetTask(ctx, e.TaskID)
	if err != nil {
		return q.block(ctx, e, q.describe(err), nil, "")
	}
	req, err := q.request(ctx, e, t)
	if err != nil {
		return 0, false, err
	}
	plan, built, err := q.Review.Build(ctx, req)
	if err != nil {
		var ce *review.ConflictError
		switch {
		case errors.As(err, &ce):
			return q.block(ctx, e, fmt.Sprintf("conflicts with %s in %d file(s)", e.Target, len(ce.Files)), ce.Files, "")
		case errors.Is(err, review.ErrNoTarget):
			return q.block(ctx, e, fmt.Sprintf("the target branch %s no longer exists", e.Target), nil, "")
		case errors.Is(err, review.ErrNoTaskBranch):
			return q.block(ctx, e, fmt.Sprintf("the task branch %s was deleted", review.TaskBranch(e.TaskID)), nil, "")
		case errors.Is(err, review.ErrNothingToAccept):
			return q.block(ctx, e, fmt.Sprintf("nothing to land: %s already holds all of the task's work", e.Target), nil, "")
		}
		return q.block(ctx, e, q.describe(err), nil, "")
	}
	if e, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueLanding,
		BaseSHA: &plan.TargetSHA, TaskHead: &plan.TaskHead, Built: &built}); err != nil {
		return 0, false, err
	}
	vr, ran, err := q.verify(ctx, e, t, built)
	if err != nil {
		return 0, false, err
	}
	if ran && !vr.Outcome.Passed() {
		return q.block(ctx, e, vr.FailureMessage(), nil, vr.Tail)
	}
	if e, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueLanding,
		Verified: ptr(true)}); err != nil {
		return 0, false, err
	}
	if gone, err := q.Store.RemoveRequested(ctx, e.ID); err != nil {
		return 0, false, err
	} else if gone {
		return resRemoved, false, q.Store.DropQueueEntry(ctx, e.ID)
	}
	failpoint.Hit(FailVerified)
	rec := review.AcceptRecord{Strategy: plan.Strategy, Target: plan.TargetRef, OldSHA: plan.TargetSHA, NewSHA: built,
		TaskHead: plan.TaskHead, Leftovers: plan.Leftovers, At: time.Now().UTC()}
	err = q.Review.MoveRef(ctx, review.RefMove{Op: review.OpAccept, TaskID: e.TaskID, Repo: e.Repo, Ref: plan.TargetRef,
		Old: plan.TargetSHA, New: built, Strategy: plan.Strategy, Record: rec}, review.StoreRecorder{Store: q.Store})
	var de *review.DirtyError
	switch {
	case err == nil:
		// The target moved and the task is accepted: the entry is
		// landed whatever happens to ctx (a signal) meanwhile.
		var cancel context.CancelFunc
		ctx, cancel = q.Git.Critical(ctx)
		defer cancel()
	case errors.Is(err, review.ErrUnsettled):
		// The move may have been made: the entry is checked again once the
		// journal settled it (landedMeanwhile), never built afresh first.
		_, cerr := q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueQueued,
			Reason: ptr("interrupted while " + e.Target + " moved; it is checked again"),
			Event:  task.MergeQueued{Action: task.QueueRequeued, Entry: e.ID, Target: e.Target, Reason: "move not settled"}})
		return resWaiting, false, cerr
	case errors.Is(err, review.ErrTargetMoved):
		_, cerr := q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueQueued,
			Reason: ptr(e.Target + " moved while the entry was verified; it is tried again on the new tip"),
			Event:  task.MergeQueued{Action: task.QueueRetried, Entry: e.ID, Target: e.Target, Reason: "target moved"}})
		return resWaiting, cerr == nil, cerr
	case errors.As(err, &de):
		reason := fmt.Sprintf("waiting: the checkout %s of %s has uncommitted changes in %s; commit or stash them", de.Dir, e.Target, strings.Join(de.Files, ", "))
		_, cerr := q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueQueued,
			Reason: &reason, Event: task.MergeQueued{Action: task.QueueWaiting, Entry: e.ID, Target: e.Target, Reason: reason, Files: de.Files}})
		return resWaiting, false, cerr
	default:
		return q.block(ctx, e, q.describe(err), nil, "")
	}
	_, err = q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueLanded,
		Landed: &built, Reason: ptr(""),
		Event: task.MergeQueued{Action: task.QueueLandedOn, Entry: e.ID, Target: e.Target, Strategy: e.Strategy, Old: plan.TargetSHA, New: built}})
	return resLanded, false, err
}

// request is the accept an entry makes of its task: the default message
// of the strategy (review.TaskMessage) and whether the task went
// unverified.
func (q *Queue) request(ctx context.Context, e task.QueueEntry, t task.Task) (review.Request, error) {
	msg, err := review.TaskMessage(ctx, q.Store, review.Strategy(e.Strategy), t)
	if err != nil {
		return review.Request{}, err
	}
	reason, err := q.Store.UnverifiedReason(ctx, t.ID)
	if err != nil {
		return review.Request{}, err
	}
	return review.Request{Repo: e.Repo, TaskID: e.TaskID, Status: t.Status, Target: e.Target, Strategy: review.Strategy(e.Strategy),
		Message: msg, Unverified: reason}, nil
}

// block parks an entry in flight with a reason, the conflicting files or
// the verify output.
func (q *Queue) block(ctx context.Context, e task.QueueEntry, reason string, files []string, output string) (result, bool, error) {
	if ctx.Err() != nil { // a git command or the verify was cut short: not the entry's fault
		res, err := q.interrupted(e.ID)
		return res, false, err
	}
	if files == nil {
		files = []string{}
	}
	_, err := q.Store.ChangeQueueEntry(ctx, e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueBlocked,
		Reason: &reason, Files: files, Output: &output,
		Event: task.MergeQueued{Action: task.QueueParked, Entry: e.ID, Target: e.Target, Reason: reason, Files: files}})
	return resBlocked, false, err
}

// interrupted puts an entry whose landing was cut short (the app exiting,
// the runner stopping) back in the queue, to be built and verified again.
func (q *Queue) interrupted(id int64) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := q.Store.ChangeQueueEntry(ctx, id, store.EntryChange{From: []task.QueueState{task.QueueLanding}, To: task.QueueQueued,
		Reason: ptr("interrupted: it is built and verified again"),
		Event:  task.MergeQueued{Action: task.QueueRequeued, Entry: id, Reason: "interrupted"}})
	if errors.Is(err, store.ErrEntryMoved) {
		err = nil // it landed or was parked meanwhile
	}
	return resWaiting, err
}

// verify runs the task's verify command on the built commit in a
// temporary worktree, records the run as a task event and removes the
// worktree; ran is false when no command is set.
func (q *Queue) verify(ctx context.Context, e task.QueueEntry, t task.Task, built string) (task.VerifyRun, bool, error) {
	set := q.Settings()
	choice, err := pipeline.ResolveVerify(ctx, q.Store, set, t.ID, e.Repo)
	if err != nil || choice.Command == "" {
		return task.VerifyRun{}, false, err
	}
	dir := q.entryDir(e.ID)
	q.removeWorktree(ctx, e.Repo, dir)
	if err := os.MkdirAll(q.WorkDir, 0o700); err != nil {
		return task.VerifyRun{}, false, fmt.Errorf("merge queue: %w", err)
	}
	if _, err := q.Git.Run(ctx, e.Repo, "worktree", "add", "--detach", "--quiet", dir, built); err != nil {
		return task.VerifyRun{}, false, fmt.Errorf("merge queue: temporary worktree: %w", err)
	}
	defer q.removeWorktree(context.WithoutCancel(ctx), e.Repo, dir)
	var env []string
	if q.Scope != "" { // tagged, so that a restart after a crash ends what the command left running
		env = []string{proc.StepTagEnv(q.Scope, proc.OwnerRun, e.TaskID, fmt.Sprintf("queue-%d", e.ID))}
	}
	run, err := q.Verify.Start(ctx, verify.Spec{Dir: dir, Command: choice.Command, Keep: true, Env: env,
		Timeout:   time.Duration(set.Verify.TimeoutMs) * time.Millisecond,
		MaxOutput: set.Verify.MaxOutputBytes, Grace: time.Duration(set.Stop.GraceMs) * time.Millisecond})
	if err != nil {
		return task.VerifyRun{}, false, err
	}
	vr, err := run.Wait()
	if err != nil {
		return vr, true, err
	}
	if vr.Outcome == task.VerifyStopped && ctx.Err() != nil {
		return vr, true, ctx.Err()
	}
	vr.Source, vr.Where = choice.Source, "queue"
	if err := q.Store.AppendEvent(ctx, t.ID, vr); err != nil {
		return vr, true, err
	}
	return vr, true, nil
}

// removeWorktree removes a temporary worktree (and what a crash left of
// one) from the repository and the disk.
func (q *Queue) removeWorktree(ctx context.Context, repo, dir string) {
	if _, err := os.Stat(dir); err == nil {
		_, _ = q.Git.Run(ctx, repo, "worktree", "remove", "--force", dir)
		_ = os.RemoveAll(dir)
	}
	_, _ = q.Git.Run(ctx, repo, "worktree", "prune")
}

func ptr[T any](v T) *T { return &v }
