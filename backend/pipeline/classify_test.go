package pipeline

import (
	"errors"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestClassify walks the table of how an attempt ends: the outcome its
// execution records and the error the step loop gets, decided together.
func TestClassify(t *testing.T) {
	capErr := &failure{"the task's budget is spent"}
	strayErr := &failure{"reviewer wrote to the worktree"}
	waitErr := errors.New("read pipe: broken")
	ok := agent.Result{}
	failed := agent.Result{ExitCode: 1, ErrorText: "boom"}
	transient := agent.Result{ExitCode: 1, Transient: true}
	limit := agent.Result{ExitCode: 1, Limit: &agent.Limit{}}
	stalled := agent.Result{StopReason: proc.ReasonStalled}
	timedOut := agent.Result{StopReason: proc.ReasonTimeout}
	stopped := agent.Result{StopReason: proc.ReasonStopped}
	canceled := agent.Result{StopReason: proc.ReasonCanceled}
	shutdown := agent.Result{StopReason: proc.ReasonShutdown}
	outOfTurns := agent.Result{ExitCode: 1, Exhausted: agent.ExhaustedTurns}
	watchStopped := agent.Result{StopReason: proc.ReasonStopped}

	cases := []struct {
		name    string
		res     agent.Result
		e       ending
		outcome task.ExecOutcome
		err     error // nil, a sentinel, or one of the errors above
		failMsg string
	}{
		{name: "success", res: ok, outcome: task.OutcomeSucceeded},
		{name: "failure is judged by the loop", res: failed, outcome: task.OutcomeFailed},
		{name: "transient", res: transient, outcome: task.OutcomeTransient},
		{name: "usage limit", res: limit, outcome: task.OutcomeLimited},
		{name: "stalled", res: stalled, outcome: task.OutcomeStalled},
		{name: "timed out", res: timedOut, outcome: task.OutcomeStalled},
		{name: "guard stopped it", res: stopped, e: ending{guarded: capErr}, outcome: task.OutcomeStopped, err: capErr},
		{name: "guard wins over the user's stop", res: stopped, e: ending{guarded: capErr, userStop: true}, outcome: task.OutcomeStopped, err: capErr},
		{name: "user stopped it", res: stopped, e: ending{userStop: true}, outcome: task.OutcomeStopped, err: errStopped},
		{name: "stopped by reason alone", res: stopped, outcome: task.OutcomeStopped, err: errStopped},
		{name: "user stop of a clean exit", res: ok, e: ending{userStop: true}, outcome: task.OutcomeStopped, err: errStopped},
		{name: "run cancelled", res: failed, e: ending{canceled: true}, outcome: task.OutcomeStopped, err: errInterrupted},
		{name: "process cancelled", res: canceled, outcome: task.OutcomeStopped, err: errInterrupted},
		{name: "app shut down", res: shutdown, outcome: task.OutcomeStopped, err: errInterrupted},
		{name: "wait failed", res: ok, e: ending{waitErr: waitErr}, outcome: task.OutcomeFailed, failMsg: "developer: read pipe: broken"},
		{name: "wait failed over a stall", res: stalled, e: ending{waitErr: waitErr}, outcome: task.OutcomeFailed, failMsg: "developer: read pipe: broken"},
		{name: "stray write after success", res: ok, e: ending{stray: strayErr}, outcome: task.OutcomeSucceeded, err: strayErr},
		{name: "stray write after failure", res: failed, e: ending{stray: strayErr}, outcome: task.OutcomeFailed, err: strayErr},
		{name: "user stop over a stray write", res: ok, e: ending{userStop: true, stray: strayErr}, outcome: task.OutcomeStopped, err: errStopped},
		{name: "watch tripped rotates", res: watchStopped, e: ending{tripped: true, armed: true}, outcome: task.OutcomeRotated},
		{name: "watch tripped with wait error rotates", res: failed, e: ending{tripped: true, waitErr: waitErr}, outcome: task.OutcomeRotated},
		{name: "out of turns and armed rotates", res: outOfTurns, e: ending{armed: true}, outcome: task.OutcomeRotated},
		{name: "out of turns unarmed fails", res: outOfTurns, outcome: task.OutcomeFailed},
		{name: "rotation with a stray write", res: failed, e: ending{tripped: true, stray: strayErr}, outcome: task.OutcomeRotated, err: strayErr},
		{name: "rotation stopped by reason with a stray write", res: watchStopped, e: ending{tripped: true, stray: strayErr}, outcome: task.OutcomeRotated, err: errStopped},
		{name: "tripped but finished cleanly", res: ok, e: ending{tripped: true, armed: true}, outcome: task.OutcomeSucceeded},
		{name: "tripped on a limit does not rotate", res: limit, e: ending{tripped: true}, outcome: task.OutcomeLimited},
		{name: "tripped but the user stopped", res: watchStopped, e: ending{tripped: true, userStop: true}, outcome: task.OutcomeStopped, err: errStopped},
		{name: "tripped but the guard stopped", res: watchStopped, e: ending{tripped: true, guarded: capErr}, outcome: task.OutcomeStopped, err: capErr},
		{name: "tripped but cancelled", res: failed, e: ending{tripped: true, canceled: true}, outcome: task.OutcomeStopped, err: errInterrupted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outcome, err := classify(c.res, c.e, "developer")
			if outcome != c.outcome {
				t.Errorf("outcome %q, want %q", outcome, c.outcome)
			}
			switch {
			case c.failMsg != "":
				var f *failure
				if !errors.As(err, &f) || f.msg != c.failMsg {
					t.Errorf("error %v, want failure %q", err, c.failMsg)
				}
			case err != c.err:
				t.Errorf("error %v, want %v", err, c.err)
			}
		})
	}
}
