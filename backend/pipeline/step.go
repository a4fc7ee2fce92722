package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
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
	model := ref.Model
	if to, ok := r.switched[tool.Name()]; ok { // an earlier step left this tool at its usage limit
		tool, model = to, ""
	}
	// The step the usage limit cut short goes on: in its native session
	// when it runs with the same tool, with attempts numbered on.
	first, session, interrupted := 1, "", false
	if rp := r.resume; rp != nil && rp.Step == s.name() {
		r.resume = nil
		first, interrupted = rp.Attempt+1, true
		switch {
		case rp.Tool == tool.Name() && tool.Capabilities().NativeResume:
			session = rp.SessionID
		case rp.Tool != tool.Name(): // another tool starts fresh with the cut step's handoff
			s.in.Handoff = r.cutHandoff(s)
		}
	} else if r.start.Resume && !r.cutSeen { // the first step a resumed run runs is the one cut short
		r.cutSeen = true
		session, s.in.Handoff = r.cutSession(ctx, s, tool)
	}
	if until, paused := r.pausedUntil(ctx, tool.Name()); paused {
		why := ""
		if r.switches() {
			var to agent.Tool
			if to, why = r.switchTarget(ctx, tool.Name()); to != nil {
				r.logf(task.LevelWarn, "%s: the task switches tools, so step %s runs on %s",
					task.ToolPause{Tool: tool.Name(), Until: until}.Describe(r.p.o.Now(), time.Local), s.name(), to.Name())
				r.switched[tool.Name()] = to
				tool, model, session = to, "", ""
			}
		}
		if why != "" || !r.switches() {
			return agent.Result{}, &limited{step: s, tool: tool.Name(), model: model, session: session, attempt: first - 1,
				before: true, until: until, fallback: why}
		}
	}
	budget := r.set.Retries.Transient
	rotations := 0
	for attempt := first; ; attempt++ {
		r.watch = r.newWatch(tool.Name(), rotations < r.set.Sessions.MaxRotations)
		res, err := r.attempt(ctx, tool, model, s, attempt, interrupted, session)
		w := r.watch
		if err != nil {
			return res, err
		}
		if !res.Failed() {
			return res, nil
		}
		if res.Limit != nil {
			lim := &limited{step: s, tool: tool.Name(), model: model, session: res.SessionID, attempt: attempt, limit: *res.Limit}
			if !r.switches() {
				return res, lim
			}
			to, why := r.switchTarget(ctx, tool.Name())
			if to == nil {
				lim.fallback = why
				return res, lim
			}
			text, err := r.switchOver(ctx, s, lim, to, res)
			if err != nil {
				return res, err
			}
			r.switched[tool.Name()] = to
			tool, model, session, interrupted = to, "", "", true
			s.in.Handoff = text
			continue
		}
		if why := exhausted(w, res); why != "" && w.armed && res.StopReason != proc.ReasonStalled {
			rotations++
			s.in.Handoff = r.rotate(ctx, s, tool.Name(), model, res, w, why, rotations)
			session, interrupted = "", true
			continue
		}
		session = "" // a retry after a transient failure starts a fresh session
		transient := res.Transient || res.StopReason == proc.ReasonStalled
		if transient && attempt-first+1 <= budget {
			delay := time.Duration(r.set.Retries.Backoff(attempt)) * time.Millisecond
			reason := describe(res, r.set.Retries.IdleTimeoutMs)
			r.emit(0, task.RetryScheduled{Step: s.name(), Role: s.execRole(), Attempt: attempt, MaxAttempts: budget + 1,
				DelayMs: delay.Milliseconds(), Reason: reason},
				task.LevelWarn, fmt.Sprintf("Transient failure in %s (attempt %d/%d): %s; retrying in %ss in the same worktree",
					s.name(), attempt, budget+1, reason, strconv.FormatFloat(delay.Seconds(), 'f', -1, 64)))
			if err := r.backoff(ctx, delay); err != nil {
				return res, err
			}
			interrupted = true
			continue
		}
		return res, &failure{fmt.Sprintf("%s failed: %s", s.name(), describe(res, r.set.Retries.IdleTimeoutMs))}
	}
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
	r.verified = nil
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

// attempt runs one attempt of a step as one execution.
func (r *run) attempt(ctx context.Context, tool agent.Tool, model string, s stepSpec, attempt int, interrupted bool, session string) (agent.Result, error) {
	if ctx.Err() != nil {
		return agent.Result{}, errInterrupted
	}
	if stop, err := r.st.StopRequested(ctx, r.t.ID); err != nil {
		return agent.Result{}, fmt.Errorf("check stop: %w", err)
	} else if stop {
		return agent.Result{}, errStopped
	}
	if err := r.applyInjections(ctx, s.name()); err != nil {
		return agent.Result{}, err
	}
	w := r.watch
	if w == nil {
		w = r.newWatch(tool.Name(), false)
	}
	in := s.in
	in.Role = s.role
	in.Injected = r.injected
	in.Attachments = r.atts
	in.Interrupted = interrupted
	in.Resumed, r.resumeNote = r.resumeNote, false
	in.Iteration, in.Runs, in.Fix = r.runNo, r.t.Runs, r.start.Fix
	var diff *promptDiff
	if s.diff {
		if diff = r.reusedDiff(); diff == nil {
			d, err := r.promptDiff(ctx)
			if err != nil {
				return agent.Result{}, &failure{fmt.Sprintf("%s: diff: %v", s.name(), err)}
			}
			diff = d
		}
		in.Diff = diff.text
	}
	snap, err := r.guardBefore(ctx, s)
	if err != nil {
		return agent.Result{}, err
	}
	r.lastDiff = diff
	exec, err := r.openExecution(ctx, tool.Name(), model, s, attempt)
	if err != nil {
		return agent.Result{}, err
	}
	g, endGuard, err := r.newGuard(ctx, exec, s.name())
	if err != nil { // a reached cap covers the step: it does not start
		r.stepFinished(exec, s, attempt, task.OutcomeStopped, -1, agent.Usage{})
		return agent.Result{}, err
	}
	defer endGuard()
	resumed := ""
	if session != "" {
		resumed = ", resuming session " + session
	}
	r.emit(exec.ID, task.StepStarted{StepAttempt: r.stepAttempt(exec, s, attempt), Tool: tool.Name(), Model: model, ResumedSession: session},
		task.LevelInfo, fmt.Sprintf("Step %s started (%s%s, attempt %d%s)", s.name(), tool.Name(), modelSuffix(model), attempt, resumed))
	h := r.p.o.Hooks.OnOutput
	onOutput := func(b []byte) {
		g.output(b)
		if h != nil {
			h(r.t.ID, exec.ID, b)
		}
	}
	req := agent.Request{
		Role: s.role, Prompt: BuildPrompt(in), SystemPrompt: SystemPrompt(s.role), Model: model,
		Dir: r.wt.WorkDir, ReadDirs: r.readDirs, ReadOnly: r.readOnly(s.role), ResumeSession: session, Env: r.stepEnv(r.set.EnvList(tool.Name()), s.name()), TranscriptPath: exec.TranscriptPath,
		IdleTimeout: time.Duration(r.set.Retries.IdleTimeoutMs) * time.Millisecond,
		Grace:       time.Duration(r.set.Stop.GraceMs) * time.Millisecond,
		OnEvent:     func(e agent.Event) { r.onEvent(exec.ID, e); g.feed(e); w.feed(e) },
		OnOutput:    onOutput,
	}
	live, err := tool.Start(ctx, req)
	if err != nil {
		_, _ = r.guardAfter(s, exec, attempt, snap)
		r.stepFinished(exec, s, attempt, task.OutcomeFailed, -1, agent.Usage{})
		return agent.Result{}, &failure{fmt.Sprintf("%s: cannot start %s: %v", s.name(), tool.Name(), err)}
	}
	g.started(live)
	w.started(live)
	r.last = ran{tool: tool.Name(), model: model, session: session}
	r.recordProcess(ctx, exec.ID, live, nil)
	var userStop atomic.Bool
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.control(ctx, live, tool.Capabilities().MidRunInput, exec, s.name(), &userStop, done)
	}()
	res, werr := live.Wait()
	close(done)
	wg.Wait()
	if res.SessionID != "" {
		r.last.session = res.SessionID
		if err := r.st.SetExecutionSession(context.WithoutCancel(ctx), exec.ID, res.SessionID); err != nil {
			r.p.o.Logger.Warn("pipeline: cannot record the session id", "task", r.t.ID, "exec", exec.ID, "err", err)
		}
	}
	strayNote, strayErr := r.guardAfter(s, exec, attempt, snap)
	res.Report = strayNote + res.Report

	res.Usage = g.silentUsage(req.Prompt, res)
	guarded := g.stopCause()
	// A step the watch stopped, or that the tool ended out of room, rotates
	// (a step that finished before the watch's stop took is done).
	rotating := guarded == nil && !userStop.Load() && ctx.Err() == nil && res.Failed() && res.Limit == nil &&
		(w.tripped() != "" || (w.armed && res.Exhausted != ""))
	outcome := task.OutcomeSucceeded
	switch {
	case rotating:
		outcome = task.OutcomeRotated
	case guarded != nil || userStop.Load() || res.StopReason == proc.ReasonStopped:
		outcome = task.OutcomeStopped
	case ctx.Err() != nil || res.StopReason == proc.ReasonCanceled || res.StopReason == proc.ReasonShutdown:
		outcome = task.OutcomeStopped
	case werr != nil:
		outcome = task.OutcomeFailed
	case res.StopReason == proc.ReasonStalled || res.StopReason == proc.ReasonTimeout:
		outcome = task.OutcomeStalled
	case res.Failed() && res.Limit != nil:
		outcome = task.OutcomeLimited
	case res.Failed() && res.Transient:
		outcome = task.OutcomeTransient
	case res.Failed():
		outcome = task.OutcomeFailed
	}
	r.stepFinished(exec, s, attempt, outcome, res.ExitCode, res.Usage)
	switch {
	case rotating && strayErr == nil:
		return res, nil // the step loop rotates the session
	case guarded != nil:
		return res, guarded
	case userStop.Load() || res.StopReason == proc.ReasonStopped:
		return res, errStopped
	case ctx.Err() != nil || res.StopReason == proc.ReasonCanceled || res.StopReason == proc.ReasonShutdown:
		return res, errInterrupted
	case werr != nil:
		return res, &failure{fmt.Sprintf("%s: %v", s.name(), werr)}
	case strayErr != nil:
		return res, strayErr
	}
	return res, nil
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
		r.injected = append(r.injected, inj.Text)
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
		r.injected = append(r.injected, inj.Text)
		r.emit(0, task.InjectionApplied{Injection: inj.ID, Step: name, Delivery: task.DeliveryNextStep},
			task.LevelInfo, fmt.Sprintf("Injected prompt applied to %s's prompt", name))
	}
	return nil
}
