package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// unrecordedTimeout bounds what unrecorded does: a few writes, and the
// clean-up of a decided outcome (git commands).
const unrecordedTimeout = time.Minute

// unrecorded handles a task whose outcome the store could not record. It
// frees the disk reserve when the disk is full. When the run's outcome was
// decided (durable, with the run counted), it records that outcome
// (pipeline.RecordDecided): the task ends as decided, its run counted
// once. Otherwise it records the task as failed, saying why and what is
// kept (store.ReasonUnrecorded: a default retry resumes the run). When it
// cannot tell which, it changes nothing: the next start's recovery does.
// Then it logs it and makes Run stop starting tasks and return an
// *UnrecordedError.
func (r *Runner) unrecorded(taskID string, res pipeline.Result, cause error) {
	ue := &UnrecordedError{TaskID: taskID, Outcome: res.Status, Err: cause}
	if store.DiskFull(cause) && r.o.Reserve != nil && r.o.Reserve.Release() {
		r.o.Logger.Warn("runner: the disk is full; freed the disk reserve to record the task", "task", taskID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), unrecordedTimeout)
	defer cancel()
	d, decided, err := r.o.Store.DecidedOutcome(ctx, taskID)
	switch {
	case err != nil:
		r.o.Logger.Error("runner: cannot read the task's decided outcome; the next start records it", "task", taskID, "err", err)
	case decided:
		ue.Decided = d.Status
		ue.Recorded = r.recordDecided(ctx, taskID, d)
	default:
		ue.Recorded = r.recordFailed(ctx, taskID, res, cause)
	}
	r.o.Logger.Error("runner: task outcome not recorded", "task", taskID, "recorded", ue.Recorded, "decided", ue.Decided, "err", cause)
	r.mu.Lock()
	if r.fatal == nil {
		r.fatal = ue
	}
	r.mu.Unlock()
	r.Wake()
}

// recordDecided records a decided outcome whose status could not be
// written when the run ended; false leaves the task ongoing, for the next
// start to finish.
func (r *Runner) recordDecided(ctx context.Context, taskID string, d store.Decided) bool {
	t, err := r.o.Store.GetTask(ctx, taskID)
	if err == nil {
		_, err = r.o.Pipeline.RecordDecided(ctx, t, d)
	}
	if err != nil {
		r.o.Logger.Error("runner: the decided outcome could not be recorded either; the next start records it", "task", taskID, "status", d.Status, "err", err)
		return false
	}
	return true
}

// recordFailed records the task as failed, saying why and what is kept; it
// reports whether the task is no longer ongoing.
func (r *Runner) recordFailed(ctx context.Context, taskID string, res pipeline.Result, cause error) bool {
	why := "the outcome of this run could not be saved"
	if store.DiskFull(cause) {
		why = "the disk filled up while this task ran, so its outcome could not be saved"
	}
	if res.Status != "" {
		why += fmt.Sprintf(" (the run ended as %s", res.Status)
		if res.Message != "" {
			why += ": " + res.Message
		}
		why += ")"
	}
	why += "; " + kept(res) + ": retry it once the problem is solved (the retry goes on from the step that was cut short)"
	_, err := r.o.Store.Transition(ctx, taskID, task.StatusFailed, store.TransitionNote{Reason: store.ReasonUnrecorded, Error: why})
	if err == nil {
		_ = r.o.Store.AppendLog(ctx, taskID, 0, task.LevelError, "Task failed: "+why+": "+cause.Error())
	}
	var te *task.TransitionError
	return err == nil || errors.As(err, &te) // not ongoing any more: something was recorded
}

// kept says what of a run whose outcome was not recorded is kept.
func kept(res pipeline.Result) string {
	switch {
	case res.Worktree == "":
		return "it had no worktree yet"
	case res.Branch == "":
		return "its changes stay in " + res.Worktree
	}
	if fi, err := os.Stat(res.Worktree); err == nil && fi.IsDir() {
		return "its branch " + res.Branch + " and its worktree " + res.Worktree + " are kept"
	}
	return "its branch " + res.Branch + " is kept (its worktree directory is gone)"
}
