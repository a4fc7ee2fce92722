package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Recovery is what Recover reconciled.
type Recovery struct {
	// Executions closed, and survivors stopped among their processes.
	Executions, Survivors int
	// Tasks moved from ongoing to stopped.
	Tasks []string
}

// Recover reconciles what a dead process left behind; call it while holding
// the lock, before the loop runs. Every open execution has its surviving
// processes stopped (by the recorded process group and pids, SIGTERM then
// SIGKILL) and is closed as stopped; every ongoing task becomes stopped with
// pipeline.InterruptedMessage, keeping its worktree and branch, with an
// event and a log line. It returns the first store error it met, having
// tried everything else.
func (r *Runner) Recover(ctx context.Context) (Recovery, error) {
	var rec Recovery
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	open, err := r.o.Store.OpenExecutions(ctx)
	if err != nil {
		return rec, fmt.Errorf("recover: %w", err)
	}
	for _, x := range open {
		pids := append([]int{}, x.PIDs...)
		if x.PID > 0 {
			pids = append(pids, x.PID)
		}
		alive := livePids(pids)
		if x.PGID > 0 || len(alive) > 0 {
			if err := proc.KillTree(x.PGID, pids, r.o.Grace); err != nil && !errors.Is(err, proc.ErrUnsafeTarget) {
				r.o.Logger.Warn("runner: recovery could not stop a survivor", "task", x.TaskID, "pgid", x.PGID, "err", err)
			}
			rec.Survivors += len(alive)
		}
		if err := r.o.Store.FinishExecution(ctx, x.ID, task.OutcomeStopped, -1, task.Usage{}, false); err != nil {
			keep(err)
		} else {
			keep(r.o.Store.AppendEvent(ctx, x.TaskID, task.StepFinished{StepAttempt: task.StepAttempt{Execution: x.ID,
				Role: x.Role, Iteration: x.Iteration, Round: x.Round, Attempt: x.Attempt}, Outcome: task.OutcomeStopped, ExitCode: -1}))
		}
		msg := fmt.Sprintf("Recovery: closed the %s step left open by a process that exited", x.Role)
		if len(alive) > 0 {
			msg += fmt.Sprintf("; stopped %d surviving process(es)", len(alive))
		}
		keep(r.o.Store.AppendLog(ctx, x.TaskID, x.ID, task.LevelWarn, msg))
		rec.Executions++
	}
	ongoing, err := r.o.Store.ListTasks(ctx, store.Filter{Statuses: []task.Status{task.StatusOngoing}})
	if err != nil {
		return rec, fmt.Errorf("recover: %w", err)
	}
	for _, t := range ongoing {
		_, err := r.o.Store.Transition(ctx, t.ID, task.StatusStopped, store.TransitionNote{Reason: "interrupted", Error: pipeline.InterruptedMessage})
		if err != nil {
			keep(err)
			continue
		}
		keep(r.o.Store.AppendLog(ctx, t.ID, 0, task.LevelWarn, pipeline.InterruptedMessage+"; worktree and branch kept"))
		keep(r.o.Store.AppendEvent(ctx, t.ID, task.Recovered{Reason: pipeline.InterruptedMessage, At: r.o.Now().UTC()}))
		rec.Tasks = append(rec.Tasks, t.ID)
	}
	return rec, first
}
