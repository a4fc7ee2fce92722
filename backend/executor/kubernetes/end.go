package kubernetes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/executor/bundle"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// finalWriteTimeout bounds the writes that record a run's end.
const finalWriteTimeout = 30 * time.Second

// conclude records how the run ended: the pod's outcome when it printed
// one, else why it did not (a result that did not match, a task that could
// not start, a problem reaching the cluster, a pod lost on the way).
func (f *follower) conclude(ctx context.Context) (pipeline.Result, error) {
	switch {
	case f.mismatch != "":
		return f.endWithout(ctx, task.StatusFailed, "The cluster's result does not match this task: "+f.mismatch, true)
	case f.fail != "":
		return f.endWithout(ctx, task.StatusFailed, "The task could not start in the cluster: "+f.fail, false)
	case f.final != nil:
		return f.applyFinal(ctx)
	}
	s := f.end
	if s == nil {
		s = f.lost
	}
	if s.Kind == wire.StatusError && f.records == 0 && f.rr.LastSeq == 0 {
		// Nothing ran: the cluster refused or could not be reached.
		return f.endWithout(ctx, task.StatusFailed, errorSentence(*s), false)
	}
	return f.endWithout(ctx, task.StatusStopped, lostSentence(*s, f.rr.StopSent)+"; the work of its finished steps is kept", true)
}

// errorSentence says why a run could not start in the cluster.
func errorSentence(s wire.Status) string {
	switch s.Class {
	case wire.ErrorUnreachable:
		return "The cluster cannot be reached: " + s.Message
	case wire.ErrorConfig:
		return "The cluster's configuration cannot be used: " + s.Message
	case wire.ErrorForbidden:
		return "The cluster refused: " + s.Message
	case wire.ErrorImage:
		return "The task's image cannot be pulled: " + s.Message
	case wire.ErrorGone:
		return "The task's Job is gone: " + s.Message
	}
	return "The run in the cluster failed: " + s.Message
}

// lostSentence says how a pod that printed no outcome was lost.
func lostSentence(s wire.Status, stopSent bool) string {
	if stopSent {
		return "Stopped: the task's Job was deleted before its pod handed back an outcome"
	}
	switch {
	case s.Kind == wire.StatusError:
		return "The task's run in the cluster was lost (" + errorSentence(s) + ")"
	case s.Phase == "Gone":
		return "The task's Job was deleted outside Boof Runner" + because(s.Message)
	case s.Reason == "DeadlineExceeded":
		return "The task's Job ran past its deadline (activeDeadlineSeconds, from executor.stepDeadlineMinutes)" + because(s.Message)
	case s.Reason == "Evicted":
		return "The task's pod was evicted" + because(s.Message)
	}
	r := s.Reason
	if r == "" {
		r = s.Phase
	}
	return "The task's pod ended (" + r + ") without an outcome" + because(s.Message)
}

func because(msg string) string {
	if msg = strings.TrimSpace(msg); msg == "" {
		return ""
	}
	return ": " + msg
}

// applyFinal records the outcome the pod's store decided: the reports and
// refs arrived with the last checkpoint, so the status is written last.
func (f *follower) applyFinal(ctx context.Context) (pipeline.Result, error) {
	fin := *f.final
	status, msg := fin.Status, fin.Message
	switch {
	case status == task.StatusPending && !fin.CountRun && !fin.CountFix:
		status, msg = task.StatusStopped, "The cluster run stopped at a tool's usage limit; retry the task after the reset (the work of its finished steps is kept)"
	case status == task.StatusStopped && !f.rr.StopSent && f.end != nil && f.end.Phase != "Succeeded":
		// The pod was told to stop, but not by us: the Job was deleted
		// elsewhere, ran past its deadline or its pod was evicted.
		msg = lostSentence(*f.end, false) + "; it stopped with the work of its finished steps kept"
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalWriteTimeout)
	defer cancel()
	f.closeOpen(wctx, status)
	if status == task.StatusActions && len(fin.Questions) > 0 {
		if err := f.p.o.Store.SetQuestions(wctx, f.t.ID, fin.Questions); err != nil {
			return pipeline.Result{Iteration: f.rr.Iteration}, fmt.Errorf("record questions: %w", err)
		}
	}
	note := fin.Note
	note.Error, note.WorktreePath = msg, ""
	if msg != fin.Message {
		f.log(wctx, 0, task.LevelWarn, msg)
	}
	return f.decide(wctx, store.Decided{TaskID: f.t.ID, Status: status, Note: note, CountRun: fin.CountRun, CountFix: fin.CountFix}, msg)
}

// endWithout ends a run that printed no outcome as status with msg; lost
// makes the last snapshot of the uncommitted work the task's leftovers.
func (f *follower) endWithout(ctx context.Context, status task.Status, msg string, lost bool) (pipeline.Result, error) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalWriteTimeout)
	defer cancel()
	f.closeOpen(wctx, status)
	if lost {
		f.keepSnapshot(wctx)
	}
	level := task.LevelError
	if status == task.StatusStopped {
		level = task.LevelWarn
	}
	f.log(wctx, 0, level, msg)
	note := store.TransitionNote{Reason: "cluster", Error: msg}
	f.noteRefs(wctx, &note)
	return f.decide(wctx, store.Decided{TaskID: f.t.ID, Status: status, Note: note}, msg)
}

// decide makes the outcome durable, then moves the task to it and drops
// the run's record: a crash between the two is finished by recovery
// (CompleteDecided), as a local run's is.
func (f *follower) decide(ctx context.Context, d store.Decided, msg string) (pipeline.Result, error) {
	res := pipeline.Result{Status: d.Status, Message: msg, Iteration: f.rr.Iteration}
	if f.rr.Iteration == 0 {
		res.Iteration = f.t.NextIteration()
	}
	if _, ok := f.rr.Refs["refs/heads/"+worktree.BranchName(f.t.ID)]; ok {
		res.Branch = worktree.BranchName(f.t.ID)
	}
	if _, err := f.p.o.Store.Decide(ctx, d); err != nil {
		return res, fmt.Errorf("record outcome %s: %w", d.Status, err)
	}
	if h := f.p.o.Hooks.OnEvent; h != nil {
		h(f.t.ID, 0, task.Event{TaskID: f.t.ID, At: time.Now().UTC(), Data: task.OutcomeDecided{Status: d.Status}})
	}
	if _, err := f.p.o.Store.CompleteDecided(ctx, f.t.ID, store.TransitionNote{}, ""); err != nil {
		return res, fmt.Errorf("record status %s: %w", d.Status, err)
	}
	if err := f.p.o.Store.DropRemoteRun(ctx, f.t.ID); err != nil {
		f.p.o.Logger.Warn("executor: cannot drop the remote run record", "task", f.t.ID, "err", err)
	}
	return res, nil
}

// closeOpen closes the task's executions still open (a step the pod never
// finished, the claim's when no step ran) as recovery does.
func (f *follower) closeOpen(ctx context.Context, status task.Status) {
	open, err := f.p.o.Store.OpenExecutionsOf(ctx, f.t.ID)
	if err != nil {
		return
	}
	outcome := task.OutcomeStopped
	if status == task.StatusFailed {
		outcome = task.OutcomeFailed
	}
	for _, x := range open {
		if err := f.p.o.Store.FinishExecution(ctx, x.ID, outcome, -1, task.Usage{}, false); err != nil {
			continue
		}
		if x.ID == f.rr.FirstExec && len(f.execs) == 0 {
			continue // the claim's, no step ran in it: no step event
		}
		_ = f.p.o.Store.AppendEvent(ctx, f.t.ID, task.StepFinished{StepAttempt: task.StepAttempt{Execution: x.ID,
			Role: x.Role, Iteration: x.Iteration, Round: x.Round, Attempt: x.Attempt}, Outcome: outcome, ExitCode: -1})
	}
}

// keepSnapshot makes the last snapshot of the pod's uncommitted work the
// task's leftovers branch when the task has none (else it stays at
// wire.WipRef and the log says so).
func (f *follower) keepSnapshot(ctx context.Context) {
	wip := f.rr.Refs[wire.WipRef(f.t.ID)]
	if wip == "" {
		return
	}
	left := "refs/heads/" + worktree.LeftoversBranchName(f.t.ID)
	cur, err := bundle.Refs(ctx, f.p.o.Git, f.repo, left)
	if err != nil {
		return
	}
	if cur[left] != "" {
		f.log(ctx, 0, task.LevelWarn, fmt.Sprintf("The uncommitted work of the last finished step is kept at %s (the task already has a leftovers branch)", wire.WipRef(f.t.ID)))
		return
	}
	err = bundle.Update(ctx, f.p.o.Git, f.repo, map[string]string{left: wip, wire.WipRef(f.t.ID): ""},
		map[string]string{left: "", wire.WipRef(f.t.ID): wip})
	if err != nil {
		f.log(ctx, 0, task.LevelWarn, fmt.Sprintf("The uncommitted work of the last finished step is kept at %s: %v", wire.WipRef(f.t.ID), err))
		return
	}
	f.log(ctx, 0, task.LevelInfo, fmt.Sprintf("The uncommitted work of the last finished step is on %s", worktree.LeftoversBranchName(f.t.ID)))
}

// noteRefs records the task branch's base and head on the note.
func (f *follower) noteRefs(ctx context.Context, note *store.TransitionNote) {
	branch := "refs/heads/" + worktree.BranchName(f.t.ID)
	cur, err := bundle.Refs(ctx, f.p.o.Git, f.repo, branch)
	if err != nil || cur[branch] == "" {
		return
	}
	note.Branch, note.BaseSHA, note.HeadSHA = worktree.BranchName(f.t.ID), f.rr.BaseSHA, cur[branch]
}
