package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/verify"
)

// VerifyTool is the tool name recorded on the execution of a verify run.
const VerifyTool = "verify"

// VerifyChoice is the verify command a task runs and where it came from;
// Command is "" when none is set (or the task skips verification).
type VerifyChoice struct {
	Command string
	Source  task.VerifySource
}

// ResolveVerify picks a task's verify command: the task's own (add
// --verify; --no-verify gives none), else the repository's (keyed by its
// top-level path repo), else settings.verify.command.
func ResolveVerify(ctx context.Context, st VerifyStore, set settings.Settings, taskID, repo string) (VerifyChoice, error) {
	tv, ok, err := st.TaskVerify(ctx, taskID)
	if err != nil {
		return VerifyChoice{}, err
	}
	if ok {
		if tv.Skip {
			return VerifyChoice{}, nil
		}
		return VerifyChoice{Command: tv.Command, Source: task.VerifyFromTask}, nil
	}
	if repo != "" {
		rv, err := st.GetRepoVerify(ctx, repo)
		switch {
		case err == nil:
			return VerifyChoice{Command: rv.Command, Source: task.VerifyFromRepo}, nil
		case !errors.Is(err, store.ErrNotFound):
			return VerifyChoice{}, err
		}
	}
	if set.Verify.Command != "" {
		return VerifyChoice{Command: set.Verify.Command, Source: task.VerifyFromSettings}, nil
	}
	return VerifyChoice{}, nil
}

// VerifyStore is the part of the store that holds verify commands.
type VerifyStore interface {
	TaskVerify(ctx context.Context, taskID string) (task.TaskVerify, bool, error)
	GetRepoVerify(ctx context.Context, path string) (store.RepoVerify, error)
}

// verifyGate runs the verify command (when one is set) and, while it fails
// and fix rounds remain (shared with the reviewer: review.maxFixRounds),
// developer fix rounds on its output. It returns nil when the command
// passed or was skipped, a *failure naming the command when the budget is
// spent, errStopped or errInterrupted. The result goes into base for the
// observer and reviewer prompts.
func (r *run) verifyGate(ctx context.Context, base *PromptInput) error {
	r.ro.verified = nil
	if r.settled.verify.Command == "" {
		return nil
	}
	for {
		vr, err := r.verifyOnce(ctx)
		if err != nil {
			return err
		}
		base.Verification = verificationText(vr)
		if vr.Outcome.Passed() {
			return nil
		}
		if !r.rounds.takeFix() {
			return &failure{vr.FailureMessage()}
		}
		if err := r.develop(ctx, *base, verifyFindings(vr), task.RoleVerify); err != nil {
			return err
		}
	}
}

// verifyOnce runs the verify command once in the task's worktree as an
// execution of its own (role verify), stores its section and event, and
// returns the run. A stop request or the app exiting stops the command's
// whole tree and returns errStopped or errInterrupted.
func (r *run) verifyOnce(ctx context.Context) (task.VerifyRun, error) {
	if ctx.Err() != nil {
		return task.VerifyRun{}, errInterrupted
	}
	if stop, err := r.st.StopRequested(ctx, r.t.ID); err != nil {
		return task.VerifyRun{}, fmt.Errorf("check stop: %w", err)
	} else if stop {
		return task.VerifyRun{}, errStopped
	}
	if r.p.o.Verify == nil {
		return task.VerifyRun{}, &failure{"verify: the pipeline has no verify runner"}
	}
	s := stepSpec{role: task.RoleVerify, round: r.rounds.nextVerify()}
	name := s.name()
	exec, err := r.st.StartExecution(ctx, task.Execution{TaskID: r.t.ID, Iteration: r.iter, Role: task.RoleVerify,
		Round: s.round, Attempt: 1, Tool: VerifyTool, TranscriptPath: r.transcriptPath(name, 1)})
	if err != nil {
		return task.VerifyRun{}, fmt.Errorf("start execution: %w", err)
	}
	r.emit(exec.ID, task.StepStarted{StepAttempt: r.stepAttempt(exec, s, 1), Tool: VerifyTool},
		task.LevelInfo, fmt.Sprintf("Step %s started: `%s` (from %s)", name, r.settled.verify.Command, r.settled.verify.Source))
	var onOutput func([]byte)
	if h := r.p.o.Hooks.OnOutput; h != nil {
		onOutput = func(b []byte) { h(r.t.ID, exec.ID, b) }
	}
	spec := verify.Spec{
		Dir: r.wt.WorkDir, Command: r.settled.verify.Command, Env: r.stepEnv(nil, name),
		Timeout: time.Duration(r.set.Verify.TimeoutMs) * time.Millisecond, MaxOutput: r.set.Verify.MaxOutputBytes,
		Grace: time.Duration(r.set.Stop.GraceMs) * time.Millisecond, TranscriptPath: exec.TranscriptPath, OnOutput: onOutput,
	}
	if r.wt.Isolated {
		spec.Base = r.wt.BaseSHA
	} else {
		spec.Keep = true // not a git repository: nothing to snapshot
	}
	live, err := r.p.o.Verify.Start(r.gitCtx(ctx, name), spec)
	if err != nil {
		r.finishVerifyExec(exec, task.OutcomeFailed, -1)
		if ctx.Err() != nil {
			return task.VerifyRun{}, errInterrupted
		}
		return task.VerifyRun{}, &failure{fmt.Sprintf("%s: %v", name, err)}
	}
	if live.Started() {
		r.recordProcess(ctx, exec.ID, live, nil)
	}
	var userStop bool
	done := make(chan struct{})
	var wg sync.WaitGroup
	if live.Started() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			userStop = r.watchVerify(ctx, live, exec, name, done)
		}()
	}
	vr, werr := live.Wait()
	close(done)
	wg.Wait()
	r.sweep(name)
	vr.Execution, vr.Step, vr.Iteration, vr.Round = exec.ID, name, r.iter, s.round
	vr.Source, vr.Where = r.settled.verify.Source, "task"
	interrupted := vr.Outcome == task.VerifyStopped && !userStop
	outcome := task.OutcomeSucceeded
	switch {
	case vr.Outcome == task.VerifyStopped:
		outcome = task.OutcomeStopped
	case vr.Outcome == task.VerifyTimedOut:
		outcome = task.OutcomeStalled
	case !vr.Outcome.Passed():
		outcome = task.OutcomeFailed
	}
	r.finishVerifyExec(exec, outcome, vr.ExitCode)
	r.emit(exec.ID, task.StepFinished{StepAttempt: r.stepAttempt(exec, s, 1), Outcome: outcome, ExitCode: vr.ExitCode},
		task.LevelInfo, fmt.Sprintf("Step %s finished: %s", name, outcome))
	if vr.Outcome != task.VerifyStopped {
		level := task.LevelInfo
		if !vr.Outcome.Passed() {
			level = task.LevelWarn
		}
		r.emit(exec.ID, vr, level, "Verification: "+vr.Summary())
		if _, err := r.st.AddSection(ctx, task.Section{TaskID: r.t.ID, Kind: task.SectionVerification, Role: task.RoleVerify,
			Iteration: r.iter, Round: s.round, Verdict: string(vr.Outcome), Step: name, Body: secrets.Scrub(vr.Body())}); err != nil {
			return vr, fmt.Errorf("store verification: %w", err)
		}
	}
	switch {
	case userStop:
		return vr, errStopped
	case interrupted || ctx.Err() != nil:
		return vr, errInterrupted
	case werr != nil:
		return vr, &failure{fmt.Sprintf("%s: %v", name, werr)}
	}
	return vr, nil
}

// watchVerify stops the verify command when the user asks the task to
// stop, and keeps its process list fresh for crash recovery; it reports
// whether a stop request ended it.
func (r *run) watchVerify(ctx context.Context, live *verify.Run, exec task.Execution, name string, done <-chan struct{}) bool {
	tick := time.NewTicker(r.p.o.ControlPoll)
	defer tick.Stop()
	lastPids := time.Now()
	for {
		select {
		case <-done:
			return false
		case <-ctx.Done():
			return false // the process runner stops the command on cancellation
		case <-tick.C:
		}
		if stop, err := r.st.StopRequested(ctx, r.t.ID); err == nil && stop {
			r.note(exec.ID, task.LevelWarn, "Stop requested: stopping "+name)
			live.Stop(proc.ReasonStopped)
			<-done
			return true
		}
		if time.Since(lastPids) >= pidRefresh {
			lastPids = time.Now()
			if pids := live.Pids(); len(pids) > 0 {
				r.recordProcess(ctx, exec.ID, live, pids)
			}
		}
	}
}

// finishVerifyExec closes a verify run's execution (no usage, no cost).
func (r *run) finishVerifyExec(e task.Execution, o task.ExecOutcome, exit int) {
	ctx, cancel := context.WithTimeout(context.Background(), finalWriteTimeout)
	defer cancel()
	if err := r.st.FinishExecution(ctx, e.ID, o, exit, task.Usage{}, false); err != nil && !errors.Is(err, store.ErrExecutionClosed) {
		r.p.o.Logger.Warn("pipeline: cannot finish execution", "task", r.t.ID, "exec", e.ID, "err", err)
	}
}

// verifyFindings is what a developer fix round on a failed verify run
// addresses: the command, its exit status and the output's last lines.
func verifyFindings(vr task.VerifyRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The verify command `%s` must pass before the work is reviewed. %s.\n", vr.Command, vr.Summary())
	if vr.Error != "" {
		fmt.Fprintf(&b, "Problem: %s\n", vr.Error)
	}
	if t := strings.TrimRight(vr.Tail, "\n"); t != "" {
		fmt.Fprintf(&b, "\nThe last %d lines of its output:\n\n```\n%s\n```\n", strings.Count(t, "\n")+1, strings.ReplaceAll(t, "```", "`\u200b``"))
	}
	return secrets.Scrub(b.String())
}

// verificationText is the verification result the observer and reviewer
// prompts carry.
func verificationText(vr task.VerifyRun) string {
	if vr.Outcome.Passed() {
		return "The project's verify command ran on this work: " + vr.Summary() + "."
	}
	return "The project's verify command failed on this work: " + vr.Summary() + "."
}
