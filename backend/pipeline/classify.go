package pipeline

import (
	"fmt"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// ending is how a step attempt's end looked around its result: who stopped
// it, whether the run was cancelled, what the read-only guard found and
// whether the rotation watch tripped.
type ending struct {
	// waitErr is the error waiting for the tool returned.
	waitErr error
	// guarded is why the guard (a cap, the step's budget) stopped the step.
	guarded error
	// userStop is true when the user's stop request stopped the step.
	userStop bool
	// canceled is true when the run's context ended.
	canceled bool
	// stray is the read-only guard's error: a step that must not write did.
	stray error
	// tripped is true when the rotation watch stopped the step; armed when
	// the step may still rotate (under the rotation cap).
	tripped, armed bool
}

// classify says what an attempt of step ended as: the outcome recorded on
// its execution and the error the step loop gets (nil for a result to
// judge: a success, a failure to retry, a limit, a session to rotate).
// It is pure; one switch decides both, so they cannot drift apart.
func classify(res agent.Result, e ending, step string) (task.ExecOutcome, error) {
	// A step the watch stopped, or that the tool ended out of room, rotates
	// (a step that finished before the watch's stop took is done).
	rotating := e.guarded == nil && !e.userStop && !e.canceled && res.Failed() && res.Limit == nil &&
		(e.tripped || (e.armed && res.Exhausted != ""))
	outcome := resultOutcome(res)
	var err error
	switch {
	case e.guarded != nil:
		outcome, err = task.OutcomeStopped, e.guarded
	case e.userStop || res.StopReason == proc.ReasonStopped:
		outcome, err = task.OutcomeStopped, errStopped
	case e.canceled || res.StopReason == proc.ReasonCanceled || res.StopReason == proc.ReasonShutdown:
		outcome, err = task.OutcomeStopped, errInterrupted
	case e.waitErr != nil:
		outcome, err = task.OutcomeFailed, &failure{fmt.Sprintf("%s: %v", step, e.waitErr)}
	case e.stray != nil:
		err = e.stray
	}
	if rotating {
		outcome = task.OutcomeRotated
		if e.stray == nil {
			err = nil // the step loop rotates the session
		}
	}
	return outcome, err
}

// resultOutcome is the outcome of an attempt that ended by itself, from its
// result alone.
func resultOutcome(res agent.Result) task.ExecOutcome {
	switch {
	case res.StopReason == proc.ReasonStalled || res.StopReason == proc.ReasonTimeout:
		return task.OutcomeStalled
	case res.Failed() && res.Limit != nil:
		return task.OutcomeLimited
	case res.Failed() && res.Transient:
		return task.OutcomeTransient
	case res.Failed():
		return task.OutcomeFailed
	}
	return task.OutcomeSucceeded
}
