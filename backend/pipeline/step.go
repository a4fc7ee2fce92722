package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// stepSpec is one step to run.
type stepSpec struct {
	role  task.Role
	round int
	in    PromptInput
	// diff adds the prompt diff against the worktree base.
	diff bool
}

// name is the step's token in logs, transcripts and injections.
func (s stepSpec) name() string {
	if s.round > 0 {
		return fmt.Sprintf("%s-%d", s.role, s.round)
	}
	return string(s.role)
}

// execRole is the role recorded on the execution row.
func (s stepSpec) execRole() task.Role {
	if s.role == task.RolePlannerAnswer {
		return task.RolePlanner
	}
	return s.role
}

// runStep runs a step with its transient-retry budget and returns the
// successful result, or an error: errStopped, errInterrupted or a *failure.
func (r *run) runStep(ctx context.Context, s stepSpec) (agent.Result, error) {
	ref, ok := r.choice(s.role)
	if !ok {
		return agent.Result{}, &failure{fmt.Sprintf("%s: no tool configured", s.role)}
	}
	if res, ok := r.replayed(s); ok {
		return res, nil
	}
	tool, err := r.p.o.Tools.Get(ref.Tool)
	if err != nil {
		return agent.Result{}, &failure{fmt.Sprintf("%s: %v", s.role, err)}
	}
	a := try{s: s, tool: tool, model: ref.Model, n: 1}
	if to, ok := r.switched.target(tool.Name()); ok { // an earlier step left this tool at its usage limit
		a.tool, a.model = to, ""
	}
	r.goOn(ctx, &a)
	if err := r.checkPaused(ctx, &a); err != nil {
		return agent.Result{}, err
	}
	budget, first := r.set.Retries.Transient, a.n
	rotations := 0
	for ; ; a.n++ {
		w := r.newWatch(a.tool.Name(), rotations < r.set.Sessions.MaxRotations)
		r.cur.attemptWith(w)
		res, err := r.attempt(ctx, a)
		if err != nil {
			return res, err
		}
		if !res.Failed() {
			return res, nil
		}
		if res.Limit != nil {
			if err := r.switchOnLimit(ctx, &a, res); err != nil {
				return res, err
			}
			continue
		}
		if why := exhausted(w, res); why != "" && w.armed && res.StopReason != proc.ReasonStalled {
			rotations++
			a.s.in.Handoff = r.rotate(ctx, a.s, a.tool.Name(), a.model, res, w, why, rotations)
			a.session, a.interrupted = "", true
			continue
		}
		a.session = "" // a retry after a transient failure starts a fresh session
		transient := res.Transient || res.StopReason == proc.ReasonStalled
		if transient && a.n-first+1 <= budget {
			if err := r.retryLater(ctx, a, budget, res); err != nil {
				return res, err
			}
			a.interrupted = true
			continue
		}
		return res, &failure{fmt.Sprintf("%s failed: %s", a.s.name(), describe(res, r.set.Retries.IdleTimeoutMs))}
	}
}

// goOn makes the step a usage limit cut short go on: in its native session
// when it runs with the same tool, with attempts numbered on; another tool
// starts fresh with the cut step's handoff. The first step a resumed run
// runs is the one cut short.
func (r *run) goOn(ctx context.Context, a *try) {
	if rp := r.res.point; rp != nil && rp.Step == a.s.name() {
		r.res.point = nil
		a.n, a.interrupted = rp.Attempt+1, true
		switch {
		case rp.Tool == a.tool.Name() && a.tool.Capabilities().NativeResume:
			a.session = rp.SessionID
		case rp.Tool != a.tool.Name():
			a.s.in.Handoff = r.cutHandoff(a.s)
		}
	} else if r.start.Resume && !r.res.cutSeen {
		r.res.cutSeen = true
		a.session, a.s.in.Handoff = r.cutSession(ctx, a.s, a.tool)
	}
}

// checkPaused returns a *limited when the step's tool is paused at its
// usage limit and the task does not switch tools (or has nowhere to
// switch to); a task that switches goes on with the next tool.
func (r *run) checkPaused(ctx context.Context, a *try) error {
	until, paused := r.pausedUntil(ctx, a.tool.Name())
	if !paused {
		return nil
	}
	why := ""
	if r.switches() {
		var to agent.Tool
		if to, why = r.switchTarget(ctx, a.tool.Name()); to != nil {
			r.logf(task.LevelWarn, "%s: the task switches tools, so step %s runs on %s",
				task.ToolPause{Tool: a.tool.Name(), Until: until}.Describe(r.p.o.Now(), time.Local), a.s.name(), to.Name())
			r.switched.leave(a.tool.Name(), to)
			a.tool, a.model, a.session = to, "", ""
		}
	}
	if why != "" || !r.switches() {
		return &limited{step: a.s, tool: a.tool.Name(), model: a.model, session: a.session, attempt: a.n - 1,
			before: true, until: until, fallback: why}
	}
	return nil
}

// switchOnLimit handles an attempt that hit its tool's usage limit: a
// *limited when the task does not switch tools or has nowhere to go, else
// the step goes on with the next tool and the handoff.
func (r *run) switchOnLimit(ctx context.Context, a *try, res agent.Result) error {
	lim := &limited{step: a.s, tool: a.tool.Name(), model: a.model, session: res.SessionID, attempt: a.n, limit: *res.Limit}
	if !r.switches() {
		return lim
	}
	to, why := r.switchTarget(ctx, a.tool.Name())
	if to == nil {
		lim.fallback = why
		return lim
	}
	text, err := r.switchOver(ctx, a.s, lim, to, res)
	if err != nil {
		return err
	}
	r.switched.leave(a.tool.Name(), to)
	a.tool, a.model, a.session, a.interrupted = to, "", "", true
	a.s.in.Handoff = text
	return nil
}

// retryLater announces the retry of a transient failure and waits its
// backoff.
func (r *run) retryLater(ctx context.Context, a try, budget int, res agent.Result) error {
	delay := time.Duration(r.set.Retries.Backoff(a.n)) * time.Millisecond
	reason := describe(res, r.set.Retries.IdleTimeoutMs)
	r.emit(0, task.RetryScheduled{Step: a.s.name(), Role: a.s.execRole(), Attempt: a.n, MaxAttempts: budget + 1,
		DelayMs: delay.Milliseconds(), Reason: reason},
		task.LevelWarn, fmt.Sprintf("Transient failure in %s (attempt %d/%d): %s; retrying in %ss in the same worktree",
			a.s.name(), a.n, budget+1, reason, strconv.FormatFloat(delay.Seconds(), 'f', -1, 64)))
	return r.backoff(ctx, delay)
}

// describe says why a step failed.
func describe(res agent.Result, idleMs int64) string {
	switch {
	case res.StopReason == proc.ReasonStalled:
		return fmt.Sprintf("stalled: no output for %s", time.Duration(idleMs)*time.Millisecond)
	case res.StopReason == proc.ReasonTimeout:
		return "timed out"
	case res.ErrorText != "":
		return res.ErrorText
	case res.Signal != "":
		return "killed by " + res.Signal
	case res.StopReason != proc.ReasonNone:
		return "stopped (" + res.StopReason.String() + ")"
	}
	return fmt.Sprintf("exit code %d", res.ExitCode)
}

// backoff waits d, checking for a stop request every ControlPoll. The
// worktree may change meanwhile (the user may edit it): the next step's
// guard records it anew.
func (r *run) backoff(ctx context.Context, d time.Duration) error {
	r.ro.verified = nil
	for left := d; ; {
		if stop, err := r.st.StopRequested(ctx, r.t.ID); err == nil && stop {
			return errStopped
		}
		if left <= 0 {
			return nil
		}
		chunk := min(left, r.p.o.ControlPoll)
		if err := r.p.o.Sleep(ctx, chunk); err != nil || ctx.Err() != nil {
			return errInterrupted
		}
		left -= chunk
	}
}

func modelSuffix(m string) string {
	if m == "" {
		return ""
	}
	return ", model " + m
}

// openExecution uses the execution the claim opened for the run's first
// step attempt (the planner's, or the step a usage limit cut short), or
// opens a new one.
func (r *run) openExecution(ctx context.Context, tool, model string, s stepSpec, attempt int) (task.Execution, error) {
	path := r.transcriptPath(s.name(), attempt)
	if r.first != nil && s.execRole() == r.first.Role && s.round == r.first.Round && attempt == r.first.Attempt {
		e := *r.first
		r.first = nil
		if e.TranscriptPath == "" {
			e.TranscriptPath = path
		}
		return e, nil
	}
	if r.first != nil && attempt == 1 && s.role != task.RolePlannerAnswer {
		// The run starts past the planner (a fix run, a resumed run): the
		// execution the claim opened becomes this step's.
		e := *r.first
		e.Role, e.Round, e.Attempt, e.Tool, e.Model, e.TranscriptPath = s.execRole(), s.round, attempt, tool, model, path
		if err := r.st.RetargetExecution(ctx, e); err == nil {
			r.first = nil
			return e, nil
		}
	}
	e, err := r.st.StartExecution(ctx, task.Execution{TaskID: r.t.ID, Iteration: r.iter, Role: s.execRole(),
		Round: s.round, Attempt: attempt, Tool: tool, Model: model, TranscriptPath: path})
	if err != nil {
		return e, fmt.Errorf("start execution: %w", err)
	}
	return e, nil
}

// stepFinished closes a step attempt's execution and records its end.
func (r *run) stepFinished(e task.Execution, s stepSpec, attempt int, o task.ExecOutcome, exit int, u agent.Usage) {
	tu, estimated := r.closeExecution(e, o, exit, u)
	r.emit(e.ID, task.StepFinished{StepAttempt: r.stepAttempt(e, s, attempt), Outcome: o, ExitCode: exit, Usage: tu, CostEstimated: estimated},
		task.LevelInfo, fmt.Sprintf("Step %s finished: %s", s.name(), o))
}

// stepAttempt names a step attempt in its events.
func (r *run) stepAttempt(e task.Execution, s stepSpec, attempt int) task.StepAttempt {
	return task.StepAttempt{Execution: e.ID, Step: s.name(), Role: s.execRole(), Iteration: r.iter, Round: s.round, Attempt: attempt}
}

// closeExecution records an execution's end and returns the usage it
// recorded and whether its cost was estimated.
func (r *run) closeExecution(e task.Execution, o task.ExecOutcome, exit int, u agent.Usage) (task.Usage, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), finalWriteTimeout)
	defer cancel()
	tu := taskUsage(u)
	estimated := false
	if tu.CostUSD == 0 {
		tu.CostUSD, estimated = r.p.o.Tools.EstimateCost(e.Tool, e.Model, tu)
	}
	if err := r.st.FinishExecution(ctx, e.ID, o, exit, tu, estimated); err != nil && !errors.Is(err, store.ErrExecutionClosed) {
		r.p.o.Logger.Warn("pipeline: cannot finish execution", "task", r.t.ID, "exec", e.ID, "err", err)
	}
	return tu, estimated
}

// pidRefresh is how often the live pids of a step are recorded for crash recovery.
const pidRefresh = 3 * time.Second

// control watches stop and inject controls while a step runs.
func (r *run) control(ctx context.Context, live agent.Run, midRun bool, exec task.Execution, name string, userStop *atomic.Bool, done <-chan struct{}) {
	tick := time.NewTicker(r.p.o.ControlPoll)
	defer tick.Stop()
	woken := r.p.o.Wake()
	lastPids := time.Now()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return // the process runner stops the step on cancellation
		case <-tick.C:
		case <-woken:
		}
		woken = r.p.o.Wake() // taken before the look: a wake-up during it is not missed
		if stop, err := r.st.StopRequested(ctx, r.t.ID); err == nil && stop && !userStop.Load() {
			userStop.Store(true)
			r.note(exec.ID, task.LevelWarn, "Stop requested: stopping "+name)
			live.Stop(proc.ReasonStopped)
		}
		if midRun && !userStop.Load() {
			r.deliverLive(ctx, live, exec, name)
		}
		if time.Since(lastPids) >= pidRefresh {
			lastPids = time.Now()
			if pids := live.Pids(); len(pids) > 0 {
				r.recordProcess(ctx, exec.ID, live, pids)
			}
		}
	}
}

// started is a running step or verify command as recordProcess sees it.
type started interface {
	Pid() int
	Pgid() int
}

// recordProcess records the processes of a step or verify command with
// their start times, for crash recovery: pids is its tree, or nil right
// after it started, when the tree is its main process (recorded without a
// scan of every process; the watch records the whole tree every
// pidRefresh).
func (r *run) recordProcess(ctx context.Context, execID int64, live started, pids []int) {
	if pids == nil {
		pids = []int{live.Pid()}
	}
	starts := proc.StartTimes(append([]int{live.Pid()}, pids...)...)
	_ = r.st.SetExecutionProcess(ctx, execID, live.Pid(), live.Pgid(), pids, starts)
}

// deliverLive applies pending injections to the running step and sends them
// into its session.
func (r *run) deliverLive(ctx context.Context, live agent.Run, exec task.Execution, name string) {
	injs, err := r.st.ApplyInjections(ctx, r.t.ID, name)
	if err != nil || len(injs) == 0 {
		return
	}
	for _, inj := range injs {
		r.injected.add(inj.Text)
		if err := live.Send(inj.Text); err != nil {
			r.emit(exec.ID, task.InjectionApplied{Injection: inj.ID, Step: name, Delivery: task.DeliveryNextStep, Error: err.Error()},
				task.LevelInfo, fmt.Sprintf("Injected prompt stored (not delivered live: %v); it is included in every later step's prompt", err))
			continue
		}
		r.emit(exec.ID, task.InjectionApplied{Injection: inj.ID, Step: name, Delivery: task.DeliveryLive},
			task.LevelInfo, "Injected prompt delivered live to "+name+"; it is also included in every later step's prompt")
	}
}

// applyInjections takes pending injected prompts into the next step.
func (r *run) applyInjections(ctx context.Context, name string) error {
	injs, err := r.st.ApplyInjections(ctx, r.t.ID, name)
	if err != nil {
		return fmt.Errorf("apply injections: %w", err)
	}
	for _, inj := range injs {
		r.injected.add(inj.Text)
		r.emit(0, task.InjectionApplied{Injection: inj.ID, Step: name, Delivery: task.DeliveryNextStep},
			task.LevelInfo, fmt.Sprintf("Injected prompt applied to %s's prompt", name))
	}
	return nil
}
