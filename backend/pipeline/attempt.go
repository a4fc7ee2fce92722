package pipeline

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/task"
)

// try is one attempt of a step: the tool and model it runs on, its number,
// whether it goes on from an interrupted attempt, and the native session it
// resumes ("" for a fresh one).
type try struct {
	s           stepSpec
	tool        agent.Tool
	model       string
	n           int
	interrupted bool
	session     string
}

// attempt runs one attempt of a step as one execution.
func (r *run) attempt(ctx context.Context, a try) (agent.Result, error) {
	if err := r.ready(ctx, a.s.name()); err != nil {
		return agent.Result{}, err
	}
	w := r.cur.watching(func() *watch { return r.newWatch(a.tool.Name(), false) })
	in, diff, err := r.stepInput(ctx, a)
	if err != nil {
		return agent.Result{}, err
	}
	snap, err := r.guardBefore(ctx, a.s)
	if err != nil {
		return agent.Result{}, err
	}
	r.cur.shows(diff)
	exec, err := r.openExecution(ctx, a.tool.Name(), a.model, a.s, a.n)
	if err != nil {
		return agent.Result{}, err
	}
	g, endGuard, err := r.newGuard(ctx, exec, a.s.name())
	if err != nil { // a reached cap covers the step: it does not start
		r.stepFinished(exec, a.s, a.n, task.OutcomeStopped, -1, agent.Usage{})
		return agent.Result{}, err
	}
	defer endGuard()
	resumed := ""
	if a.session != "" {
		resumed = ", resuming session " + a.session
	}
	r.emit(exec.ID, task.StepStarted{StepAttempt: r.stepAttempt(exec, a.s, a.n), Tool: a.tool.Name(), Model: a.model, ResumedSession: a.session},
		task.LevelInfo, fmt.Sprintf("Step %s started (%s%s, attempt %d%s)", a.s.name(), a.tool.Name(), modelSuffix(a.model), a.n, resumed))
	req := r.request(a, in, exec, g, w)
	live, err := a.tool.Start(ctx, req)
	if err != nil {
		_, _ = r.guardAfter(a.s, exec, a.n, snap)
		r.stepFinished(exec, a.s, a.n, task.OutcomeFailed, -1, agent.Usage{})
		return agent.Result{}, &failure{fmt.Sprintf("%s: cannot start %s: %v", a.s.name(), a.tool.Name(), err)}
	}
	g.started(live)
	w.started(live)
	r.cur.started(a.tool.Name(), a.model, a.session)
	r.recordProcess(ctx, exec.ID, live, nil)
	res, userStop, werr := r.wait(ctx, a, exec, live)
	strayNote, strayErr := r.guardAfter(a.s, exec, a.n, snap)
	res.Report = strayNote + res.Report
	res.Usage = g.silentUsage(req.Prompt, res)
	outcome, err := classify(res, ending{waitErr: werr, guarded: g.stopCause(), userStop: userStop, canceled: ctx.Err() != nil,
		stray: strayErr, tripped: w.tripped() != "", armed: w.armed}, a.s.name())
	r.stepFinished(exec, a.s, a.n, outcome, res.ExitCode, res.Usage)
	return res, err
}

// ready returns errInterrupted or errStopped when the step must not start,
// and takes the pending injected prompts into it.
func (r *run) ready(ctx context.Context, name string) error {
	if ctx.Err() != nil {
		return errInterrupted
	}
	if stop, err := r.st.StopRequested(ctx, r.t.ID); err != nil {
		return fmt.Errorf("check stop: %w", err)
	} else if stop {
		return errStopped
	}
	return r.applyInjections(ctx, name)
}

// stepInput is the prompt input of an attempt, with the diff it shows (nil
// when the step shows none).
func (r *run) stepInput(ctx context.Context, a try) (PromptInput, *promptDiff, error) {
	in := a.s.in
	in.Role = a.s.role
	in.Injected = r.injected.all()
	in.Attachments = r.atts
	in.Interrupted = a.interrupted
	in.Resumed = r.res.takeNote()
	in.Iteration, in.Runs, in.Fix = r.runNo, r.t.Runs, r.start.Fix
	if !a.s.diff {
		return in, nil, nil
	}
	diff := r.reusedDiff()
	if diff == nil {
		d, err := r.promptDiff(ctx)
		if err != nil {
			return in, nil, &failure{fmt.Sprintf("%s: diff: %v", a.s.name(), err)}
		}
		diff = d
	}
	in.Diff = diff.text
	return in, diff, nil
}

// request is the tool request of an attempt: its output goes to the guard
// and the output hook, its events to the log, the guard and the watch.
func (r *run) request(a try, in PromptInput, exec task.Execution, g *guard, w *watch) agent.Request {
	h := r.p.o.Hooks.OnOutput
	onOutput := func(b []byte) {
		g.output(b)
		if h != nil {
			h(r.t.ID, exec.ID, b)
		}
	}
	return agent.Request{
		Role: a.s.role, Prompt: BuildPrompt(in), SystemPrompt: SystemPrompt(a.s.role), Model: a.model,
		Dir: r.wt.WorkDir, ReadDirs: r.readDirs, ReadOnly: r.readOnly(a.s.role), ResumeSession: a.session,
		Env: r.stepEnv(r.set.EnvList(a.tool.Name()), a.s.name()), TranscriptPath: exec.TranscriptPath,
		IdleTimeout: time.Duration(r.set.Retries.IdleTimeoutMs) * time.Millisecond,
		Grace:       time.Duration(r.set.Stop.GraceMs) * time.Millisecond,
		OnEvent:     func(e agent.Event) { r.onEvent(exec.ID, e); g.feed(e); w.feed(e) },
		OnOutput:    onOutput,
	}
}

// wait waits for the running attempt while the controls (stop, live
// injections, pid records) are watched, records its session, and returns
// its result, whether the user's stop ended it and the wait's error.
func (r *run) wait(ctx context.Context, a try, exec task.Execution, live agent.Run) (agent.Result, bool, error) {
	var userStop atomic.Bool
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.control(ctx, live, a.tool.Capabilities().MidRunInput, exec, a.s.name(), &userStop, done)
	}()
	res, werr := live.Wait()
	close(done)
	wg.Wait()
	if res.SessionID != "" {
		r.cur.session(res.SessionID)
		if err := r.st.SetExecutionSession(context.WithoutCancel(ctx), exec.ID, res.SessionID); err != nil {
			r.p.o.Logger.Warn("pipeline: cannot record the session id", "task", r.t.ID, "exec", exec.ID, "err", err)
		}
	}
	return res, userStop.Load(), werr
}
