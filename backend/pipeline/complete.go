package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Clean-ups a decided outcome names (store.Decided.Cleanup).
const (
	cleanupDone    = "done"
	cleanupFailed  = "failed"
	cleanupStopped = "stopped"
)

// Failpoints of a run's end (see backend/failpoint).
const (
	// FailDecided: the outcome is durable, the clean-up has not started.
	FailDecided = "finish:decided"
	// FailCleaned: the clean-up is done, the status not yet written.
	FailCleaned = "finish:cleaned"
)

func worktreeOutcome(cleanup string) (worktree.Outcome, bool) {
	switch cleanup {
	case cleanupDone:
		return worktree.OutcomeDone, true
	case cleanupFailed:
		return worktree.OutcomeFailed, true
	case cleanupStopped:
		return worktree.OutcomeStopped, true
	}
	return 0, false
}

// complete applies the clean-up of a decided outcome (the retention policy
// of backend/worktree) and moves the task to its decided status. A
// clean-up that could not finish (a full disk) is recorded with the status,
// to be tried again (FinishLeft).
func (r *run) complete(ctx context.Context, d store.Decided) (Result, error) {
	res := Result{Status: d.Status, Message: d.Note.Error, Iteration: r.iter}
	r.where(&res)
	extra := store.TransitionNote{}
	left := ""
	r.sweep("git")
	if o, ok := worktreeOutcome(d.Cleanup); ok && r.wt.Dir != "" {
		policy := worktree.Policy{OnDone: r.set.Worktree.OnDone, OnFailure: r.set.Worktree.OnFailure}
		fr, err := r.p.o.Worktrees.Finish(r.gitCtx(ctx, "finish"), r.wt, o, policy, r.wlog)
		r.sweep("finish")
		switch {
		case err != nil:
			r.logf(task.LevelWarn, "Worktree cleanup: %v", err)
		case fr.Unfinished != "":
			extra.HeadSHA, left = fr.HeadSHA, fr.Unfinished
			r.logf(task.LevelWarn, "The worktree clean-up could not finish (%s); the runner tries it again at its next start and after each task it finishes", left)
		default:
			extra.HeadSHA = fr.HeadSHA
		}
	}
	failpoint.Hit(FailCleaned)
	if _, err := r.st.CompleteDecided(ctx, r.t.ID, extra, left); err != nil {
		return res, fmt.Errorf("record status %s: %w", res.Status, err)
	}
	return res, nil
}

// where fills in the result's worktree and branch.
func (r *run) where(res *Result) {
	res.Worktree = r.wt.Dir
	if r.wt.Isolated {
		res.Branch = r.wt.Branch
	}
}

// CompleteDecided finishes a run whose outcome was decided but whose
// clean-up a crash cut short: it applies the clean-up again (saving
// leftovers only if they were not saved yet, removing the directory) and
// moves the task to the decided status. Crash recovery calls it for every
// ongoing task with a decided outcome, after the dead run's processes are
// gone. The error is only for failures to record the status.
func (p *Pipeline) CompleteDecided(ctx context.Context, t task.Task, d store.Decided) (Result, error) {
	return p.completeDecided(ctx, t, d, fmt.Sprintf("Recovery: the outcome %s was decided before the app exited; finishing the clean-up", d.Status))
}

// RecordDecided records the decided outcome of a run whose status could
// not be recorded when it ended (the disk filled up: the runner made room
// since) as CompleteDecided does, so that the task ends as decided, with
// its run counted once, instead of failed. The error is only for failures
// to record the status.
func (p *Pipeline) RecordDecided(ctx context.Context, t task.Task, d store.Decided) (Result, error) {
	return p.completeDecided(ctx, t, d, fmt.Sprintf("The outcome %s could not be recorded when the run ended; recording it again", d.Status))
}

func (p *Pipeline) completeDecided(ctx context.Context, t task.Task, d store.Decided, line string) (Result, error) {
	r := &run{p: p, st: p.o.Store, t: t, set: p.o.Settings(), iter: t.CompletedRuns + t.FixRuns}
	if !d.CountRun && !d.CountFix {
		r.iter++
	}
	if len(d.Worktree) > 0 && string(d.Worktree) != "null" {
		if err := json.Unmarshal(d.Worktree, &r.wt); err != nil {
			r.logf(task.LevelWarn, "Recovery: the decided outcome's worktree cannot be read (%v); no clean-up", err)
			d.Cleanup = ""
		}
	}
	r.logf(task.LevelWarn, "%s", line)
	return r.complete(ctx, d)
}

// gitCtx tags the git commands run under ctx with the run's step tag.
func (r *run) gitCtx(ctx context.Context, step string) context.Context {
	if r.p.o.Scope == "" {
		return ctx
	}
	return gitx.WithCallEnv(ctx, proc.StepTagEnv(r.p.o.Scope, proc.OwnerRun, r.t.ID, step))
}

// sweep ends whatever still carries the run's tag of step once that step
// is over: a git hook's daemon that left its process group (gitx stops the
// group itself). Agents' escapees are the process runner's to stop.
func (r *run) sweep(step string) {
	if r.p.o.Scope == "" {
		return
	}
	tag := proc.StepTag(r.p.o.Scope, proc.OwnerRun, r.t.ID, step)
	left, err := proc.KillTagged(tag, time.Duration(r.set.Stop.GraceMs)*time.Millisecond)
	if len(left) > 0 || err != nil {
		r.logf(task.LevelWarn, "Stopped %d process(es) left behind by the %s step's git commands (hooks, filters)", len(left), step)
	}
}

// stepEnv adds the step tag to an agent's environment.
func (r *run) stepEnv(env []string, step string) []string {
	if r.p.o.Scope == "" {
		return env
	}
	return append(append([]string(nil), env...), proc.StepTagEnv(r.p.o.Scope, proc.OwnerRun, r.t.ID, step))
}

// stoppable returns a context that ends when the user asks the task to
// stop (checked every ControlPoll), and a function that ends the watch
// and reports whether a stop ended it. Work that is not a step
// (provisioning, whose git hooks may hang) is stopped with it.
func (r *run) stoppable(ctx context.Context) (context.Context, func() bool) {
	ctx, cancel := context.WithCancel(ctx)
	var stopped atomic.Bool
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(r.p.o.ControlPoll)
		defer tick.Stop()
		woken := r.p.o.Wake()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			case <-woken:
			}
			woken = r.p.o.Wake()
			if stop, err := r.st.StopRequested(ctx, r.t.ID); err == nil && stop {
				stopped.Store(true)
				r.logf(task.LevelWarn, "Stop requested: stopping the worktree provisioning")
				cancel()
				return
			}
		}
	}()
	return ctx, func() bool {
		close(done)
		<-finished
		cancel()
		return stopped.Load()
	}
}
